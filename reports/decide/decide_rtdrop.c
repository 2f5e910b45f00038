/* netprobe report, decide: the members a node's own routing table cuts
 * it off from (issue 48): its scan's ecmp-dead-nexthop (a multipath
 * route whose picked next hop never answers) and route-type-drop (a
 * blackhole, unreachable or prohibit route) name, in their route
 * evidence, each peer whose lookup met the route. Those members go into
 * the finding's "cuts", as decide_names.c's findings, so the pairs are
 * that node's setting cause, both ways (the peer's replies meet the same
 * route), and never the peer's. */
#include <stdio.h>
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

/* True for the two codes of this file. */
static bool route_code(const char *code)
{
	return finding_is(code, FINDING_ECMP_DEAD_NEXTHOP) ||
	       finding_is(code, FINDING_ROUTE_TYPE_DROP);
}

/* The member of the mesh document that did not join whose probed
 * address is addr (node 0's own route toward it: mesh_missing.c), or
 * NULL: such a member is no node of the report, so its name is not
 * resolved from the fact's words. */
static const char *missing_named(const struct rctx *c, const char *addr)
{
	const json_t *d = rd_mesh_doc(c), *m;
	size_t i;

	json_array_foreach(rj_arr(json_object_get(d, "mesh"), "members"), i,
			   m)
		if (strcmp(rj_strd(m, "state", ""), "missing") == 0 &&
		    strcmp(rj_strd(m, "probed_addr", ""), addr) == 0)
			return rj_str(m, "name");
	return NULL;
}

/* The members finding f's route evidence names (one per fact: "ip route
 * get PEER ..."), other than its own node. */
static json_t *cuts_of(const struct rctx *c, const json_t *f)
{
	const char *self = rj_strd(f, "node", "");
	json_t *cuts = json_array(), *e;
	size_t i;

	json_array_foreach(rj_arr(f, "evidence"), i, e) {
		const char *n;

		if (cuts == NULL)
			break;
		char addr[64];

		if (strcmp(rj_strd(e, "source", ""), "route") != 0)
			continue;
		if ((n = rd_text_node(c, rj_strd(e, "fact", ""), self)) ==
			    NULL &&
		    sscanf(rj_strd(e, "fact", ""), "ip route get %63[0-9a-fA-F.:]",
			   addr) == 1) {
			/* "ip route get ADDR: Invalid argument": the colon
			 * is the fact's, not the address's */
			size_t l = strlen(addr);

			if (l > 1 && addr[l - 1] == ':' &&
			    (addr[l - 2] != ':' || (l > 2 && addr[l - 3] == ':')))
				addr[l - 1] = '\0';
			n = missing_named(c, addr);
		}
		if (n != NULL)
			rj_add_unique(cuts, n);
	}
	return cuts;
}

/* See report_decide.h. */
void rd_route_cuts(struct rctx *c)
{
	static const enum finding_code codes[] = {FINDING_ECMP_DEAD_NEXTHOP,
						  FINDING_ROUTE_TYPE_DROP};
	size_t i;
	json_t *f;

	for (size_t k = 0; k < 2; k++)
		json_array_foreach(rx_code_findings(c, codes[k]), i, f) {
			if (!finding_is(rj_strd(f, "code", ""), codes[k]) ||
			    json_object_get(f, "cuts") != NULL ||
			    rd_node_is_nat(c, rj_strd(f, "node", "")))
				continue;
			json_object_set_new(f, "cuts", cuts_of(c, f));
		}
}

/* See report_decide.h. */
bool rd_route_toward(const struct rctx *c, const char *a, const char *b,
		     enum finding_code code)
{
	size_t i, j;
	json_t *f, *v;

	json_array_foreach(rx_code_findings(c, code), i, f) {
		if (!route_code(rj_strd(f, "code", "")) ||
		    !finding_is(rj_strd(f, "code", ""), code) ||
		    strcmp(rj_strd(f, "node", ""), a) != 0)
			continue;
		json_array_foreach(rj_arr(f, "cuts"), j, v)
			if (strcmp(json_string_value(v), b) == 0)
				return true;
	}
	return false;
}
