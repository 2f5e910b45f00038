/* netprobe report, decide: notes. What the recommendation could not
 * cover, and which run would fill the gap: no scan at all, nodes without
 * a scan, no measurement between nodes. */
#include <string.h>

#include "report_decide.h"

/* True when some document measured between nodes. */
static bool measured_between(const struct rctx *c)
{
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *cmd = rj_strd(d, "command", "");

		if (json_array_size(rj_arr(d, "peers")) > 0 ||
		    strcmp(cmd, "ports") == 0 ||
		    strcmp(cmd, "heartbeat") == 0 ||
		    json_is_object(json_object_get(d, "preflight")))
			return true;
	}
	return false;
}

json_t *rd_notes(const struct rctx *c)
{
	json_t *notes = json_array(), *n;
	char buf[512];
	size_t i, have = 0;

	json_array_foreach(c->nodes, i, n)
		have += rd_node_scan(c, json_string_value(n)) != NULL;
	if (have == 0) {
		json_array_append_new(
			notes, json_string("no scan document: run 'netprobe "
					   "scan --json' on every node for the "
					   "interface and the settings"));
	} else {
		json_array_foreach(c->nodes, i, n) {
			if (rd_node_scan(c, json_string_value(n)) != NULL)
				continue;
			snprintf(buf, sizeof(buf),
				 "no scan from %s: its interface is not part "
				 "of the cluster choice",
				 json_string_value(n));
			json_array_append_new(notes, json_string(buf));
		}
	}
	if (!measured_between(c))
		json_array_append_new(
			notes,
			json_string(
				"no measurement between nodes: run 'netprobe "
				"scan --peer', 'ports', 'heartbeat' or "
				"ncclcheck for the connectivity matrix"));
	return notes;
}
