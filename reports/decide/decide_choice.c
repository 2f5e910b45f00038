/* netprobe report, decide: each node's interface, as its latest scan chose
 * it; the nodes whose scan chose none (they block a cluster value); and
 * scans of one node that disagree, shown as conflicts, never resolved by
 * a guess. */
#include <string.h>

#include "report_decide.h"

/* Why a scan recommends no interface: its reasons and rejections. */
static void blocked_why(const json_t *rec, char *why, size_t len)
{
	size_t j, l;
	json_t *v;

	why[0] = '\0';
	json_array_foreach(rj_arr(rec, "reasons"), j, v) {
		l = strlen(why);
		snprintf(why + l, len - l, "%s%s", l ? "; " : "",
			 json_string_value(v));
	}
	json_array_foreach(rj_arr(rec, "rejected"), j, v) {
		l = strlen(why);
		snprintf(why + l, len - l, "%s%s rejected: %s", l ? "; " : "",
			 rj_strd(v, "interface", "?"),
			 rj_strd(v, "reason", "?"));
	}
	if (why[0] == '\0')
		snprintf(why, len, "its scan recommends no interface");
}

/* Other scans of node that chose differently from sc (which chose ifc):
 * a conflict with every claim and its file. */
static void disagreement(const struct rctx *c, const char *node,
			 const struct report_input *sc, const char *ifc,
			 json_t *conflicts)
{
	json_t *claims = json_array();
	char subj[300], what[300];

	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *o = rj_str(json_object_get(d, "recommendation"),
				       "interface");

		if (&c->set->in[k] == sc ||
		    strcmp(rj_str(d, "host"), node) != 0 ||
		    strcmp(rj_strd(d, "command", ""), "scan") != 0 ||
		    (o != NULL && strcmp(o, ifc) == 0))
			continue;
		snprintf(what, sizeof(what), "an earlier scan chose %s",
			 o != NULL ? o : "no interface");
		json_array_append_new(claims,
				      json_pack("{s:s, s:s, s:s}", "node", node,
						"claim", what, "source",
						c->set->in[k].path));
	}
	if (json_array_size(claims) == 0) {
		json_decref(claims);
		return;
	}
	snprintf(subj, sizeof(subj), "%s: scans disagree on the interface",
		 node);
	snprintf(what, sizeof(what), "the latest scan chose %s", ifc);
	json_array_insert_new(claims, 0,
			      json_pack("{s:s, s:s, s:s}", "node", node,
					"claim", what, "source", sc->path));
	json_array_append_new(conflicts,
			      json_pack("{s:s, s:s, s:o}", "subject", subj,
					"node", node, "claims", claims));
}

void rd_choice(const struct rctx *c, json_t *per_node, json_t *blocked,
	       json_t *conflicts)
{
	size_t i;
	json_t *n;

	json_array_foreach(c->nodes, i, n) {
		const char *node = json_string_value(n);
		const struct report_input *sc = rd_node_scan(c, node);
		json_t *rec, *cites;
		const char *ifc;

		if (sc == NULL)
			continue;
		rec = json_object_get(sc->doc, "recommendation");
		ifc = rj_str(rec, "interface");
		cites = json_array();
		rd_cite_add(cites, node, "scan.recommendation");
		if (ifc == NULL) {
			char why[1024];
			json_t *pick = rd_mesh_pick(c, node, sc);

			if (pick != NULL) {
				json_decref(cites);
				json_array_append_new(per_node, pick);
				continue;
			}

			blocked_why(rec, why, sizeof(why));
			rd_cite_findings(c, cites, node, NULL, 2);
			json_array_append_new(blocked,
					      json_pack("{s:s, s:s, s:o}",
							"node", node, "why",
							why, "cites", cites));
			continue;
		}
		json_array_append_new(
			per_node, json_pack("{s:s, s:s, s:s?, s:s, s:o}",
					    "node", node, "interface", ifc,
					    "address", rj_str(rec, "address"),
					    "file", sc->path, "cites", cites));
		disagreement(c, node, sc, ifc, conflicts);
	}
}
