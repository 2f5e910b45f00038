/* netprobe report, decide: NAT conflicts. A node's scan recommends an
 * address and saw no NAT, but other evidence says that address is NAT'd
 * or unreachable: its own peer tests, other nodes' peer tests, or NAT
 * findings in its other documents. The report shows both sides. */
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

/* NAT, or the connect-back failure NAT causes. */
static bool nat_or_inbound(const char *code)
{
	const struct finding_def *def = finding_lookup(code);

	return rf_is_nat(code) ||
	       (def != NULL && def->id == FINDING_INBOUND_BLOCKED);
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

/* Every claim against each node's recommended interface, in one pass
 * over the documents (a thousand nodes' peer tests are too many to walk
 * once per node): claims->{node: [claims]}, in document order, each
 * document's peer tests before its findings. by_node maps a node to its
 * per_node entry, by_addr an address to the entries that recommend it. */
static void all_claims(const struct rctx *c, const json_t *by_node,
		       const json_t *by_addr, json_t *claims)
{
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *host = rj_str(d, "host");
		const char *file = c->set->in[k].path;
		const json_t *own = json_object_get(by_node, host);
		size_t j, i;
		json_t *e, *p;
		char what[512];

		json_array_foreach(rj_arr(d, "peers"), j, e) {
			const char *pa = rj_str(e, "peer_addr");
			json_t *cands = json_array();

			if (cands == NULL)
				return;
			if (own != NULL)
				json_array_append(cands, (json_t *)own);
			if (pa != NULL)
				json_array_extend(cands,
						  json_object_get(by_addr, pa));
			json_array_foreach(cands, i, p) {
				if (i > 0 && p == own)
					continue; /* one look at each */
				peer_claim(d, e, host, p, what, sizeof(what));
				if (what[0] == '\0')
					continue;
				claim(json_object_get(claims,
						      rj_str(p, "node")),
				      host, what, file);
			}
			json_decref(cands);
		}
		if (own == NULL || strcmp(file, rj_str(own, "file")) == 0)
			continue;
		json_array_foreach(rj_arr(d, "findings"), j, e) {
			const char *code = rj_strd(e, "code", "");

			if (!nat_or_inbound(code))
				continue;
			snprintf(what, sizeof(what), "%s: %s", code,
				 rj_strd(e, "summary", ""));
			claim(json_object_get(claims, host), host, what, file);
		}
	}
}

void rd_nat_conflicts(const struct rctx *c, const json_t *per_node,
		      json_t *conflicts)
{
	json_t *by_node = json_object(), *by_addr = json_object();
	json_t *claims = json_object();
	size_t i;
	json_t *p;

	if (by_node == NULL || by_addr == NULL || claims == NULL)
		goto out;
	json_array_foreach(per_node, i, p) {
		const char *addr = rj_str(p, "address");

		json_object_set(by_node, rj_str(p, "node"), p);
		json_object_set_new(claims, rj_str(p, "node"), json_array());
		if (addr == NULL)
			continue;
		if (json_object_get(by_addr, addr) == NULL)
			json_object_set_new(by_addr, addr, json_array());
		json_array_append(json_object_get(by_addr, addr), p);
	}
	all_claims(c, by_node, by_addr, claims);
	json_array_foreach(per_node, i, p) {
		const char *node = rj_str(p, "node");
		const char *ifc = rj_str(p, "interface");
		const char *addr = rj_str(p, "address");
		const char *scanfile = rj_str(p, "file");
		json_t *cl = json_incref(json_object_get(claims, node));
		char subj[300], what[300];

		if (json_array_size(cl) == 0 ||
		    file_says_nat(c, node, scanfile)) {
			json_decref(cl);
			continue;
		}
		snprintf(subj, sizeof(subj),
			 "%s: is %s (%s) reachable without NAT?", node, ifc,
			 addr != NULL ? addr : "no address");
		snprintf(what, sizeof(what),
			 "its scan recommends %s and saw no NAT", ifc);
		json_array_insert_new(cl, 0,
				      json_pack("{s:s, s:s, s:s}", "node", node,
						"claim", what, "source",
						scanfile));
		json_array_append_new(
			conflicts, json_pack("{s:s, s:s, s:o}", "subject", subj,
					     "node", node, "claims", cl));
	}
out:
	json_decref(by_node);
	json_decref(by_addr);
	json_decref(claims);
}
