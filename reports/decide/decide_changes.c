/* netprobe report, decide: changes to how a node runs. Where the fix is
 * not a setting but a change to the container, WSL or host (host
 * networking, mirrored mode, a larger /dev/shm, a listener's address),
 * one entry per node and fix, citing every finding it answers. */
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

json_t *rd_changes(const struct rctx *c)
{
	json_t *out = json_array(), *f, *e;
	size_t i, j;

	json_array_foreach(c->findings, i, f) {
		const char *code = rj_str(f, "code");
		const char *node = rj_str(f, "node"), *fix = rj_str(f, "fix");
		bool want = finding_has_flag(code, FF_CHANGE), dup = false;

		/* an info is a guess a measurement contradicted: nothing to
		 * change */
		if (!want || rj_sev(rj_str(f, "severity")) == 0)
			continue;
		json_array_foreach(out, j, e)
			if (strcmp(rj_str(e, "node"), node) == 0 &&
			    strcmp(rj_str(e, "change"), fix) == 0) {
				rd_cite_add(json_object_get(e, "cites"), node,
					    code);
				dup = true;
			}
		if (!dup)
			json_array_append_new(
				out, json_pack("{s:s, s:s, s:[o]}", "node",
					       node, "change", fix, "cites",
					       rd_cite(node, code)));
	}
	return out;
}
