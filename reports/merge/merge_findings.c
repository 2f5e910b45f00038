/* netprobe report, merge: the findings of every input in one list. Equal
 * ones are merged with their sources listed, each is tagged with its node
 * and check class, and probe findings toward a node behind NAT get that
 * node's NAT finding as their cause. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/finding.h"
#include "report_merge.h"

/* The check class of a finding code, from the table (findings.def), so
 * JUnit has one case per node per class. */
static const char *class_of(const char *code)
{
	const struct finding_def *def;

	if (code == NULL || (def = finding_lookup(code)) == NULL)
		return "other";
	return def->cls;
}

bool rf_is_nat(const char *code)
{
	return finding_in_cause(code, CAUSE_NAT);
}

bool rf_probe_failed(const json_t *doc)
{
	size_t i;
	json_t *f;

	json_array_foreach(rj_arr(doc, "findings"), i, f)
		if (finding_has_flag(rj_strd(f, "code", ""), FF_PROBE))
			return true;
	return false;
}

/* The key of a finding's (node, code, summary) among those merged: each
 * part with its length, so no two triples share one. Returns a new string
 * (free it), or NULL on no memory. */
static char *same_key(const char *node, const char *code, const char *summary)
{
	size_t len = strlen(node) + strlen(code) + strlen(summary) + 48;
	char *key = malloc(len);

	if (key != NULL)
		snprintf(key, len, "%zu:%s%zu:%s%s", strlen(node), node,
			 strlen(code), code, summary);
	return key;
}

/* Orders findings: faults first, then by node, code and summary. */
static int cmp_finding(const void *a, const void *b)
{
	const json_t *fa = *(json_t *const *)a, *fb = *(json_t *const *)b;
	int d = rj_sev(rj_str(fb, "severity")) - rj_sev(rj_str(fa, "severity"));

	if (d == 0)
		d = strcmp(rj_str(fa, "node"), rj_str(fb, "node"));
	if (d == 0)
		d = strcmp(rj_str(fa, "code"), rj_str(fb, "code"));
	if (d == 0)
		d = strcmp(rj_str(fa, "summary"), rj_str(fb, "summary"));
	return d;
}

/* One merged finding: the input's, with the catalogue's title, its fix
 * when the input gave none, a severity it may lack, and its command where
 * it has one (a node setting's, which becomes a root cause's) and the
 * interfaces it selects where it names them. */
static json_t *merged_one(const json_t *f, const char *host, const char *path)
{
	const char *code = rj_strd(f, "code", "unknown");
	const struct finding_def *def = finding_lookup(code);
	const char *sev = rj_str(f, "severity");
	json_t *ev = rj_arr(f, "evidence"), *m;

	if (rj_sev(sev) == 0 && (sev == NULL || strcmp(sev, "info") != 0))
		sev = def != NULL ? severity_name(def->sev) : "warning";
	m = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:[s], s:s}",
			 "node", host, "code", code, "severity", sev, "summary",
			 rj_strd(f, "summary", ""), "title",
			 def != NULL ? def->title : "", "fix",
			 rj_strd(f, "fix", def != NULL ? def->fix : ""),
			 "evidence",
			 ev != NULL ? json_incref(ev) : json_array(), "sources",
			 path, "class", class_of(code));
	if (m != NULL && rj_str(f, "command") != NULL &&
	    json_object_set_new(m, "command",
				json_string(rj_str(f, "command"))) < 0) {
		json_decref(m);
		return NULL;
	}
	/* the node a command is for, where it is not this one */
	if (m != NULL && rj_str(f, "command_on") != NULL &&
	    json_object_set_new(m, "command_on",
				json_string(rj_str(f, "command_on"))) < 0) {
		json_decref(m);
		return NULL;
	}
	/* the interfaces a setting selects, which the report may find a
	 * peer on (decide_names.c) */
	if (m != NULL && json_is_array(json_object_get(f, "selects")) &&
	    json_object_set(m, "selects", json_object_get(f, "selects")) < 0) {
		json_decref(m);
		return NULL;
	}
	return m;
}

json_t *rf_merge(const struct report_set *s)
{
	json_t *all = json_array(), *seen = json_object();

	if (all == NULL || seen == NULL) {
		json_decref(all);
		json_decref(seen);
		return NULL;
	}
	for (size_t k = 0; k < s->nin; k++) {
		json_t *d = s->in[k].doc, *f, *m;
		const char *host = rj_str(d, "host");
		size_t i;

		json_array_foreach(rj_arr(d, "findings"), i, f) {
			/* an equal finding already merged (a hash, not a
			 * scan of all: 1,024 members have thousands) */
			char *key = same_key(host, rj_strd(f, "code", "unknown"),
					     rj_strd(f, "summary", ""));

			m = key != NULL ? json_object_get(seen, key) : NULL;
			if (m != NULL) {
				json_array_append_new(
					json_object_get(m, "sources"),
					json_string(s->in[k].path));
				free(key);
				continue;
			}
			m = key != NULL ? merged_one(f, host, s->in[k].path)
					: NULL;
			if (m == NULL || json_array_append_new(all, m) < 0 ||
			    json_object_set_nocheck(seen, key, m) < 0) {
				free(key);
				json_decref(all);
				json_decref(seen);
				return NULL;
			}
			free(key);
		}
	}
	json_decref(seen);
	if (rj_sort(all, cmp_finding) < 0) {
		json_decref(all);
		return NULL;
	}
	return all;
}

/* The first finding of node whose code says it sits behind NAT, or NULL. */
static const json_t *nat_finding(const json_t *findings, const char *node)
{
	size_t i;
	json_t *f;

	json_array_foreach(findings, i, f)
		if (strcmp(rj_strd(f, "node", ""), node) == 0 &&
		    rf_is_nat(rj_strd(f, "code", "")) &&
		    !json_is_true(json_object_get(f, "contradicted")))
			return f;
	return NULL;
}

/* True when the merged finding f came from the file path. */
static bool from_file(const json_t *f, const char *path)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(f, "sources"), i, p)
		if (strcmp(json_string_value(p), path) == 0)
			return true;
	return false;
}

/* The document of host (its "host"), one that has interfaces, or NULL. */
static const json_t *doc_of_host(const struct rctx *c, const char *host)
{
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;

		if (strcmp(rj_strd(d, "host", ""), host) == 0 &&
		    json_is_array(json_object_get(d, "interfaces")))
			return d;
	}
	return NULL;
}

/* The prefix length d gives address a on one of its interfaces, or -1. */
static int prefix_of(const json_t *d, const char *a)
{
	size_t i, j;
	json_t *ifc, *ad;

	json_array_foreach(rj_arr(d, "interfaces"), i, ifc)
		json_array_foreach(rj_arr(ifc, "addresses"), j, ad)
			if (strcmp(rj_strd(ad, "address", ""), a) == 0)
				return (int)rj_int(ad, "prefixlen", -1);
	return -1;
}

/* True when a and b (text) share their first plen bits. */
static bool same_prefix(const char *a, const char *b, int plen)
{
	unsigned char x[16], y[16];
	int fam = strchr(a, ':') != NULL ? AF_INET6 : AF_INET;
	int bits = fam == AF_INET ? 32 : 128;

	if (plen < 0 || plen > bits || inet_pton(fam, a, x) != 1 ||
	    inet_pton(fam, b, y) != 1)
		return false;
	for (int i = 0; i < plen; i++)
		if (((x[i / 8] >> (7 - i % 8)) & 1) !=
		    ((y[i / 8] >> (7 - i % 8)) & 1))
			return false;
	return true;
}

/* Node 0's document of each input's mesh, by input (NULL where the input
 * is no mesh or node 0 sent none), found once for all findings rather
 * than once per finding and mesh. Returns a calloc'd array, or NULL when
 * there is no memory. */
static const json_t **mesh_node0_docs(const struct rctx *c)
{
	const json_t **d0 = calloc(c->set->nin + 1, sizeof(*d0));

	if (d0 == NULL)
		return NULL;
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *ms = json_object_get(c->set->in[k].doc, "mesh");

		if (ms != NULL)
			d0[k] = doc_of_host(c, rj_strd(ms, "node0", ""));
	}
	return d0;
}

/* True when some mesh document saw node's join come from one of node's
 * own addresses (observed_addr among own_addrs) while node 0 has no
 * address in that address's subnet: the connection crossed node's host
 * and nothing translated its source on the way; the address is written
 * into obs. d0s is mesh_node0_docs' array; NULL (no memory) looks each
 * node 0 up here, slower to the same answer. */
static bool seen_untranslated(const struct rctx *c, const json_t **d0s,
			      const char *node, char *obs, size_t len)
{
	const json_t *dn = doc_of_host(c, node);

	if (dn == NULL)
		return false;
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *ms = json_object_get(c->set->in[k].doc, "mesh");
		const json_t *d0;
		size_t i, j;
		json_t *m, *ifc, *ad;

		if (ms == NULL)
			continue;
		d0 = d0s != NULL ? d0s[k]
				 : doc_of_host(c, rj_strd(ms, "node0", ""));
		if (d0 == NULL)
			continue;
		json_array_foreach(rj_arr(ms, "members"), i, m) {
			const char *o = rj_strd(m, "observed_addr", "");
			const char *own = rj_strd(m, "own_addrs", "");
			int plen = prefix_of(dn, o);
			bool near = false;

			if (strcmp(rj_strd(m, "name", ""), node) != 0 ||
			    o[0] == '\0' || plen < 0 || strstr(own, o) == NULL)
				continue;
			json_array_foreach(rj_arr(d0, "interfaces"), j, ifc) {
				size_t q;

				json_array_foreach(rj_arr(ifc, "addresses"), q,
						   ad)
					near |= same_prefix(
						o, rj_strd(ad, "address", ""),
						plen);
			}
			if (!near) {
				snprintf(obs, len, "%s", o);
				return true;
			}
		}
	}
	return false;
}

/*
 * A NAT finding that is a guess (a veth to a bridge: "a container on a
 * NAT'd bridge") is contradicted when node 0, on another subnet, saw the
 * node's connection come from the node's own address: its host routed
 * it and translated nothing (a routed container, issue 48's blind set).
 * Such a finding becomes info with that evidence, so no NAT cause forms
 * and no port or blame decision takes the node for NAT'd.
 */
void rf_nat_contradicted(struct rctx *c)
{
	const json_t **d0s = mesh_node0_docs(c);
	size_t i;
	json_t *f;
	char obs[64], fact[256];

	json_array_foreach(c->findings, i, f) {
		const char *code = rj_strd(f, "code", "");
		const char *node = rj_strd(f, "node", "");

		if (!rf_is_nat(code) || !finding_has_flag(code, FF_GUESS) ||
		    rj_sev(rj_str(f, "severity")) == 0 ||
		    !seen_untranslated(c, d0s, node, obs, sizeof(obs)))
			continue;
		snprintf(fact, sizeof(fact), "contradicted: node 0 saw %s's "
			 "connection come from its own address %s, across "
			 "a router: nothing translated it", node, obs);
		json_object_set_new(f, "severity", json_string("info"));
		json_object_set_new(f, "contradicted", json_true());
		if (!json_is_array(json_object_get(f, "evidence")))
			json_object_set_new(f, "evidence", json_array());
		json_array_append_new(json_object_get(f, "evidence"),
				      json_pack("{s:s, s:s, s:s}", "fact", fact,
						"node", node, "source",
						"mesh"));
	}
	free(d0s);
}

/*
 * A probe toward an address that belongs to a node behind NAT (a
 * container's 172.17.0.2, WSL2's eth0) fails whatever the firewall says:
 * opening ports there cannot help, and saying so would be a wrong fix.
 * Such findings get the NAT node's finding as their cause and its fix.
 */
void rf_annotate_nat(struct rctx *c)
{
	char tbuf[256], fix[1024];

	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc, *nat, *t;
		const char *target, *addr;
		size_t i;
		json_t *f;

		if ((t = json_object_get(d, "target")) == NULL)
			continue;
		target = rn_target(c, d, tbuf, sizeof(tbuf));
		if (target == NULL ||
		    (nat = nat_finding(c->findings, target)) == NULL)
			continue;
		addr = rj_strd(t, "address", rj_strd(t, "host", target));
		json_array_foreach(c->findings, i, f) {
			if (!finding_has_flag(rj_strd(f, "code", ""),
					      FF_BEHIND_NAT) ||
			    !from_file(f, c->set->in[k].path))
				continue;
			snprintf(fix, sizeof(fix),
				 "%s is %s's address behind NAT (%s): opening "
				 "ports there does not help; %s",
				 addr, target, rj_strd(nat, "code", ""),
				 rj_strd(nat, "fix", ""));
			json_object_set_new(f, "fix", json_string(fix));
			json_object_set_new(
				f, "cause",
				json_pack("{s:s, s:s}", "node", target, "code",
					  rj_strd(nat, "code", "")));
		}
	}
}

/* The address Gloo advertises on the node of a scan document: its
 * advertised Gloo address (GLOO_SOCKET_IFNAME), else what its hostname
 * resolves to; NULL when the document cannot tell. */
static const char *gloo_addr(const json_t *doc)
{
	const json_t *h = json_object_get(doc, "hostname"), *a;
	size_t i;

	json_array_foreach(rj_arr(doc, "advertised"), i, a)
		if (strcmp(rj_strd(a, "framework", ""), "gloo") == 0)
			return rj_str(a, "address");
	if (h == NULL || !json_is_true(json_object_get(h, "bindable")))
		return NULL;
	return json_string_value(json_array_get(rj_arr(h, "addresses"), 0));
}

/* memcmp of two numeric addresses of one family, as Gloo's
 * Device::isInitiator compares them; 0 when not comparable. */
static int addr_cmp(const char *a, const char *b)
{
	unsigned char x[16], y[16];

	if (a == NULL || b == NULL)
		return 0;
	if (inet_pton(AF_INET, a, x) == 1 && inet_pton(AF_INET, b, y) == 1)
		return memcmp(x, y, 4);
	if (inet_pton(AF_INET6, a, x) == 1 && inet_pton(AF_INET6, b, y) == 1)
		return memcmp(x, y, 16);
	return 0;
}

/* The latest scan document of a node, or NULL. */
static const json_t *scan_of(const struct rctx *c, const char *node)
{
	const json_t *best = NULL, *kv;
	size_t i;

	/* the inputs node wrote (merge_index.c), in input order */
	json_array_foreach(rx_host_inputs(c, node), i, kv) {
		const json_t *d = c->set->in[json_integer_value(kv)].doc;

		if (strcmp(rj_strd(d, "command", ""), "scan") == 0 &&
		    strcmp(rj_strd(d, "host", ""), node) == 0)
			best = d;
	}
	return best;
}

/*
 * hostname-loopback on one node is a fault wherever a peer must connect to
 * the loopback address it advertises. Of each Gloo pair the higher address
 * connects (gloo/transport/tcp/device.cc, Device::isInitiator): when every
 * other node's scan is here and its Gloo address sorts below this one's,
 * this node connects to each of them and Gloo works, as the e2e suite saw
 * on a 10/8 LAN. One node's scan cannot know that; the report can, and
 * then makes the finding a warning that says why it still matters.
 */
void rf_hostname_order(struct rctx *c)
{
	size_t i, j;
	json_t *f, *n;

	json_array_foreach(c->findings, i, f) {
		const char *node = rj_strd(f, "node", ""), *mine;
		const json_t *d = scan_of(c, node);
		char sum[768];
		size_t others = 0;
		bool below = true;

		if (!finding_is(rj_strd(f, "code", ""),
		                FINDING_HOSTNAME_LOOPBACK) ||
		    strcmp(rj_strd(f, "severity", ""), "fault") != 0 ||
		    d == NULL || (mine = gloo_addr(d)) == NULL)
			continue;
		json_array_foreach(c->nodes, j, n) {
			const char *other = json_string_value(n);
			const json_t *od;

			if (other == NULL || strcmp(other, node) == 0)
				continue;
			od = scan_of(c, other);
			if (od == NULL ||
			    addr_cmp(gloo_addr(od), mine) >= 0) {
				below = false; /* not known, or it connects */
				break;
			}
			others++;
		}
		if (!below || others == 0)
			continue;
		snprintf(sum, sizeof(sum),
			 "%s; Gloo works with these %zu node%s only because "
			 "their Gloo addresses sort below %s (this node "
			 "connects to each): a node above it, or another "
			 "one on 127.0.1.1, would be refused",
			 rj_strd(f, "summary", ""), others,
			 others == 1 ? "" : "s", mine);
		json_object_set_new(f, "summary", json_string(sum));
		json_object_set_new(f, "severity", json_string("warning"));
	}
	rj_sort(c->findings, cmp_finding);
}
