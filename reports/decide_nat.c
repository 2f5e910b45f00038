/* netprobe report, decide: NAT conflicts. A node's scan recommends an
 * address and saw no NAT, but other evidence says that address is NAT'd
 * or unreachable: its own peer tests, other nodes' peer tests, or NAT
 * findings in its other documents. The report shows both sides. */
#include <string.h>

#include "report_decide.h"

/* NAT, or the connect-back failure NAT causes. */
static bool nat_or_inbound(const char *code)
{
	return rf_is_nat(code) || strcmp(code, "inbound-blocked") == 0;
}

/* True when the document loaded from file, written by node, has a finding
 * that says NAT. */
static bool file_says_nat(const struct rctx *c, const char *node,
			  const char *file)
{
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		size_t i;
		json_t *f;

		if (strcmp(c->set->in[k].path, file) != 0 ||
		    strcmp(rj_str(d, "host"), node) != 0)
			continue;
		json_array_foreach(rj_arr(d, "findings"), i, f)
			if (nat_or_inbound(rj_strd(f, "code", "")))
				return true;
	}
	return false;
}

/* Appends one claim {node, claim, source}. */
static void claim(json_t *claims, const char *node, const char *what,
		  const char *file)
{
	json_array_append_new(claims, json_pack("{s:s, s:s, s:s}", "node", node,
						"claim", what, "source", file));
}

/* What one peer test of document d (by host) says about the node's
 * interface ifc and address addr: a claim, or nothing. */
static void peer_claim(const json_t *d, const json_t *e, const char *host,
		       const json_t *p, char *what, size_t len)
{
	const char *node = rj_str(p, "node"), *ifc = rj_str(p, "interface");
	const char *addr = rj_str(p, "address"), *pa = rj_str(e, "peer_addr");

	what[0] = '\0';
	if (strcmp(host, node) == 0 &&
	    strcmp(rj_strd(e, "local_ifname", ""), ifc) == 0 &&
	    json_is_true(json_object_get(e, "nat")))
		snprintf(what, len,
			 "its peer test toward %s was seen from %s: %s is "
			 "NAT'd",
			 rj_strd(e, "peer", "?"),
			 rj_strd(e, "observed_addr", "another address"), ifc);
	else if (strcmp(host, node) != 0 && addr != NULL && pa != NULL &&
		 strcmp(pa, addr) == 0 &&
		 json_is_false(json_object_get(e, "responded")) &&
		 rf_probe_failed(d))
		snprintf(what, len, "%s's peer test to %s got no answer", host,
			 addr);
}

/* Every claim against one node's recommended interface (p). */
static json_t *claims_against(const struct rctx *c, const json_t *p)
{
	const char *node = rj_str(p, "node"), *scanfile = rj_str(p, "file");
	json_t *claims = json_array();

	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *host = rj_str(d, "host");
		const char *file = c->set->in[k].path;
		size_t j;
		json_t *e;
		char what[512];

		json_array_foreach(rj_arr(d, "peers"), j, e) {
			peer_claim(d, e, host, p, what, sizeof(what));
			if (what[0] != '\0')
				claim(claims, host, what, file);
		}
		if (strcmp(host, node) != 0 || strcmp(file, scanfile) == 0)
			continue;
		json_array_foreach(rj_arr(d, "findings"), j, e) {
			const char *code = rj_strd(e, "code", "");

			if (!nat_or_inbound(code))
				continue;
			snprintf(what, sizeof(what), "%s: %s", code,
				 rj_strd(e, "summary", ""));
			claim(claims, host, what, file);
		}
	}
	return claims;
}

void rd_nat_conflicts(const struct rctx *c, const json_t *per_node,
		      json_t *conflicts)
{
	size_t i;
	json_t *p;

	json_array_foreach(per_node, i, p) {
		const char *node = rj_str(p, "node");
		const char *ifc = rj_str(p, "interface");
		const char *addr = rj_str(p, "address");
		const char *scanfile = rj_str(p, "file");
		json_t *claims = claims_against(c, p);
		char subj[300], what[300];

		if (json_array_size(claims) == 0 ||
		    file_says_nat(c, node, scanfile)) {
			json_decref(claims);
			continue;
		}
		snprintf(subj, sizeof(subj),
			 "%s: is %s (%s) reachable without NAT?", node, ifc,
			 addr != NULL ? addr : "no address");
		snprintf(what, sizeof(what),
			 "its scan recommends %s and saw no NAT", ifc);
		json_array_insert_new(claims, 0,
				      json_pack("{s:s, s:s, s:s}", "node", node,
						"claim", what, "source",
						scanfile));
		json_array_append_new(
			conflicts, json_pack("{s:s, s:s, s:o}", "subject", subj,
					     "node", node, "claims", claims));
	}
}
