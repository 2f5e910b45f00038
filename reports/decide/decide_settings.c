/* netprobe report, decide: the settings beyond NCCL's interface. Gloo's
 * interface per node, MASTER_ADDR (the job's head), the other variables
 * the scans recommend (for every node when all agree), and which settings
 * rest on disputed evidence. */
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

void rd_gloo(const struct rctx *c, const json_t *p, json_t *settings)
{
	const char *node = rj_str(p, "node");
	json_t *cites = json_pack("[o]", rd_cite(node, "scan.recommendation"));
	size_t n;
	const struct finding_def *all = finding_all(&n);

	/* the codes of the table that concern Gloo's address, in its order */
	for (size_t i = 0; i < n; i++)
		if ((all[i].flags & FF_GLOO) &&
		    rd_node_has(c, node,
				(const char *const[]){all[i].code, NULL}))
			rd_cite_add(cites, node, all[i].code);
	rd_add_setting(settings, "GLOO_SOCKET_IFNAME", rj_str(p, "interface"),
		       node,
		       "Gloo takes one exact name; without it Gloo binds what "
		       "the hostname resolves to",
		       cites);
}

bool rd_master(const struct rctx *c, const json_t *per_node, json_t *settings,
	       struct rd_head *h)
{
	char why[512];
	size_t i, k;
	json_t *p, *r;

	*h = (struct rd_head){0};
	for (k = 0; k < c->set->nin && h->node == NULL; k++)
		json_array_foreach(rj_arr(c->set->in[k].doc, "ranks"), i, r)
			if (rj_int(r, "rank", -1) == 0 &&
			    rj_str(r, "host") != NULL) {
				h->node = rj_str(r, "host");
				h->how = "rank 0 of the ncclcheck run";
			}
	json_array_foreach(per_node, i, p) {
		if (h->node == NULL && rj_str(p, "address") != NULL) {
			h->node = rj_str(p, "node");
			h->how = "the first node by name with a usable address";
		}
		if (h->node != NULL && strcmp(rj_str(p, "node"), h->node) == 0)
			h->addr = rj_str(p, "address");
	}
	if (h->node == NULL || h->addr == NULL)
		return false;
	snprintf(why, sizeof(why), "%s is %s; %s is the address its scan chose",
		 h->node, h->how, h->addr);
	rd_add_setting(
		settings, "MASTER_ADDR", h->addr, NULL, why,
		json_pack("[o]", rd_cite(h->node, "scan.recommendation")));
	return true;
}

/* The value node's scan recommends for the variable name, or NULL. */
static const char *scan_env(const struct rctx *c, const char *node,
			    const char *name)
{
	const struct report_input *sc = rd_node_scan(c, node);

	return rj_str(
		json_object_get(json_object_get(sc->doc, "recommendation"),
				"env"),
		name);
}

/* The names of the scans' variables not decided elsewhere. */
static json_t *other_names(const struct rctx *c, const json_t *per_node)
{
	static const char *const decided[] = {
		"NCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME", "MASTER_ADDR",
		"RAY_ADDRESS", NULL};
	json_t *seen = json_object(), *p, *val;
	const char *name;
	size_t i;

	json_array_foreach(per_node, i, p) {
		const struct report_input *sc =
			rd_node_scan(c, rj_str(p, "node"));
		json_t *env = json_object_get(
			json_object_get(sc->doc, "recommendation"), "env");

		json_object_foreach(env, name, val) {
			bool skip = !json_is_string(val);

			for (const char *const *q = decided; *q; q++)
				skip |= strcmp(*q, name) == 0;
			if (!skip)
				json_object_set_new(seen, name, json_true());
		}
	}
	return seen;
}

/* True when every node's scan recommends the same value for name. */
static bool all_agree(const struct rctx *c, const json_t *per_node,
		      const char *name)
{
	const char *first = NULL;
	size_t i;
	json_t *p;

	json_array_foreach(per_node, i, p) {
		const char *v = scan_env(c, rj_str(p, "node"), name);

		if (v == NULL)
			return false;
		if (first == NULL)
			first = v;
		else if (strcmp(first, v) != 0)
			return false;
	}
	return true;
}

/* The settings of one variable: one for every node when all agree, else
 * one per node that recommends it. */
static void other_setting(const struct rctx *c, const json_t *per_node,
			  const char *name, json_t *settings)
{
	bool same = all_agree(c, per_node, name);
	size_t i, j;
	json_t *p, *q;

	json_array_foreach(per_node, i, p) {
		const char *node = rj_str(p, "node");
		const char *v = scan_env(c, node, name);
		json_t *cites;

		if (v == NULL)
			continue;
		if (same && i > 0)
			continue; /* one cluster setting */
		cites = json_array();
		json_array_foreach(per_node, j, q) {
			const char *qn = rj_str(q, "node");

			if (!same && strcmp(qn, node) != 0)
				continue;
			rd_cite_add(cites, qn, "scan.recommendation");
			rd_cite_findings(c, cites, qn, "nccl-env", 1);
			rd_cite_findings(c, cites, qn, "interfaces", 1);
		}
		rd_add_setting(settings, name, v, same ? NULL : node,
			       same ? "the scan of every node with a usable "
				      "interface recommends it"
				    : "this node's scan recommends it",
			       cites);
	}
}

void rd_other_env(const struct rctx *c, const json_t *per_node,
		  json_t *settings)
{
	json_t *seen = other_names(c, per_node), *dummy;
	const char *name;

	json_object_foreach(seen, name, dummy)
		other_setting(c, per_node, name, settings);
	json_decref(seen);
}

void rd_mark_disputed(json_t *settings, const json_t *conflicts)
{
	size_t i, j, k;
	json_t *s, *cf, *ct;

	json_array_foreach(settings, i, s)
		json_array_foreach(conflicts, j, cf)
			json_array_foreach(rj_arr(s, "cites"), k, ct)
				if (rj_str(ct, "node") != NULL &&
				    strcmp(rj_str(ct, "node"),
					   rj_str(cf, "node")) == 0)
					json_object_set_new(s, "disputed",
							    json_true());
}
