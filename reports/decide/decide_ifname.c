/* netprobe report, decide: NCCL_SOCKET_IFNAME across nodes. One exact
 * value for every node when one exists (the name every node uses, or an
 * exact list of the names when they differ and the list selects nothing
 * else on any node), else per node values; /etc/nccl.conf lines either
 * way. NCCL's own matching rules (decide/nccl_select.h) judge a list. */
#include <string.h>

#include "decide/nccl_select.h"
#include "report_decide.h"

/* Does `list` (an NCCL_SOCKET_IFNAME value) select an interface on this
 * node other than the chosen one? Writes the first such name into out. */
static bool overmatches(const struct report_input *sc, const char *list,
			const char *chosen, char *out, size_t len)
{
	size_t i;
	json_t *ifc;

	json_array_foreach(rj_arr(sc->doc, "interfaces"), i, ifc) {
		const char *name = rj_str(ifc, "name");

		if (name == NULL || strcmp(name, chosen) == 0 ||
		    strcmp(name, "lo") == 0 ||
		    strcmp(rj_strd(ifc, "oper_state", "up"), "down") == 0)
			continue;
		if (nccl_ifname_match(list, name)) {
			snprintf(out, len, "%s", name);
			return true;
		}
	}
	return false;
}

/* The exact list "=a,b" of the distinct names nodes chose, into list;
 * cites every node's scan. Returns how many names. */
static size_t exact_list(const json_t *per_node, char *list, size_t len,
			 json_t *cites)
{
	json_t *names = json_array(), *p, *v;
	size_t i, j, n;

	json_array_foreach(per_node, i, p) {
		const char *ifc = rj_str(p, "interface");
		bool have = false;

		json_array_foreach(names, j, v)
			have |= strcmp(json_string_value(v), ifc) == 0;
		if (!have)
			json_array_append_new(names, json_string(ifc));
		rd_cite_add(cites, rj_str(p, "node"), "scan.recommendation");
	}
	snprintf(list, len, "=");
	json_array_foreach(names, i, v) {
		size_t l = strlen(list);

		snprintf(list + l, len - l, "%s%s", i ? "," : "",
			 json_string_value(v));
	}
	n = json_array_size(names);
	json_decref(names);
	return n;
}

/* The setting when some node has no usable interface: none works. */
static void blocked_setting(const json_t *blocked, json_t *settings,
			    json_t *cites)
{
	char why[1024];
	size_t i, l;
	json_t *p;

	snprintf(why, sizeof(why), "no value works for every node: ");
	json_array_foreach(blocked, i, p) {
		l = strlen(why);
		snprintf(why + l, sizeof(why) - l,
			 "%s%s has no usable interface", i ? ", " : "",
			 rj_str(p, "node"));
		rd_cite_add(cites, rj_str(p, "node"), "scan.recommendation");
	}
	l = strlen(why);
	snprintf(why + l, sizeof(why) - l,
		 " (see blocked); set it per node until then");
	rd_add_setting(settings, "NCCL_SOCKET_IFNAME", NULL, NULL, why, cites);
}

bool rd_ifname_cluster(const struct rctx *c, const json_t *per_node,
		       const json_t *blocked, json_t *settings)
{
	char list[1024], why[1024], other[64];
	json_t *cites = json_array(), *p;
	const char *bad = NULL;
	size_t i, n = exact_list(per_node, list, sizeof(list), cites);

	if (json_array_size(blocked) > 0) {
		blocked_setting(blocked, settings, cites);
		return true;
	}
	if (n == 0) {
		json_decref(cites);
		return false;
	}
	json_array_foreach(per_node, i, p) {
		const struct report_input *sc =
			rd_node_scan(c, rj_str(p, "node"));

		if (sc != NULL && overmatches(sc, list, rj_str(p, "interface"),
					      other, sizeof(other))) {
			bad = rj_str(p, "node");
			break;
		}
	}
	if (bad != NULL) {
		snprintf(why, sizeof(why),
			 "names differ and the list %s would also select %s "
			 "on %s: set it per node",
			 list, other, bad);
		rd_add_setting(settings, "NCCL_SOCKET_IFNAME", NULL, NULL, why,
			       cites);
		return true;
	}
	snprintf(why, sizeof(why),
		 n == 1 ? "every node uses %s; the exact '=' form matches "
			  "nothing else"
			: "nodes use different names; the exact list %s "
			  "selects the right one on every node",
		 n == 1 ? list + 1 : list);
	rd_add_setting(settings, "NCCL_SOCKET_IFNAME", list, NULL, why, cites);
	return false;
}

void rd_ifname_node(const json_t *p, bool per_node_only, json_t *settings,
		    json_t *nccl_conf)
{
	const char *node = rj_str(p, "node");
	const char *ifc = rj_str(p, "interface");
	char val[300], line[320], why[1024];

	snprintf(val, sizeof(val), "=%s", ifc);
	snprintf(line, sizeof(line), "NCCL_SOCKET_IFNAME=%s", val);
	json_array_append_new(
		nccl_conf, json_pack("{s:s, s:s}", "node", node, "line", line));
	if (!per_node_only)
		return;
	/* chosen by the mesh over the scan's guess (rd_mesh_pick): say so,
	 * and cite the measured pairs */
	if (rj_str(p, "why") != NULL)
		snprintf(why, sizeof(why),
			 "the mesh measured %s of %s reaching its peers (its "
			 "scan guessed a container bridge); put it in %s's "
			 "/etc/nccl.conf",
			 ifc, node, node);
	else
		snprintf(why, sizeof(why),
			 "%s's scan chose %s; put it in %s's /etc/nccl.conf",
			 node, ifc, node);
	rd_add_setting(settings, "NCCL_SOCKET_IFNAME", val, node, why,
		       rj_str(p, "why") != NULL
			       ? json_deep_copy(json_object_get(p, "cites"))
			       : json_pack("[o]", rd_cite(node,
							  "scan.recommendation")));
}
