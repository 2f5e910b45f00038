/* netprobe report, decide: no blame without evidence (issue 31). A cause
 * names a node only where that node's own evidence shows it: a rule in its
 * ruleset (decide_cause_node.c's firewall causes), or a route it looked up
 * toward the peer it could not reach (route causes, here). A failed pair
 * that no node's evidence explains is loss where the link was measured
 * lossy (a warning's matter, no fault), and otherwise "cannot tell": one
 * cause on the pair, naming what was seen and the commands (and nodes)
 * that decide, never a node. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

/* The pair label of a and b, in name order: "a<->b". */
static void pair_label(const char *a, const char *b, char *buf, size_t len)
{
	if (strcmp(a, b) > 0) {
		const char *t = a;

		a = b;
		b = t;
	}
	snprintf(buf, len, "%s<->%s", a, b);
}

/* The cause of kind that covers the pair (a, b): a route cause on either
 * end whose peer is the other, or the pair's undecided cause; NULL. */
json_t *rd_pair_cause(const json_t *causes, const char *a, const char *b)
{
	char label[300];
	size_t i;
	json_t *k;

	if (a == NULL || b == NULL || strcmp(a, b) == 0)
		return NULL;
	pair_label(a, b, label, sizeof(label));
	json_array_foreach(causes, i, k) {
		const char *kind = rj_str(k, "kind"), *n = rj_str(k, "node");
		const char *p = rj_strd(k, "peer", "");

		if (strcmp(kind, "route") == 0 &&
		    ((strcmp(n, a) == 0 && strcmp(p, b) == 0) ||
		     (strcmp(n, b) == 0 && strcmp(p, a) == 0)))
			return k;
		if (strcmp(kind, "undecided") == 0 && strcmp(n, label) == 0)
			return k;
	}
	return NULL;
}

/* True when IPv4 address a lies in net/len. */
static bool in_subnet(const char *a, const char *net, long len)
{
	struct in_addr x, y;
	uint32_t m;

	if (inet_pton(AF_INET, a, &x) != 1 || inet_pton(AF_INET, net, &y) != 1 ||
	    len < 1 || len > 32)
		return false;
	m = htonl(0xffffffffu << (32 - len));
	return (x.s_addr & m) == (y.s_addr & m);
}

/* The interface of scan doc d whose IPv4 subnet holds addr (not a /32,
 * not loopback), into ifc; false when none. */
static bool onlink_iface(const json_t *d, const char *addr, char *ifc,
			 size_t len)
{
	size_t i, j;
	json_t *f, *a;

	json_array_foreach(rj_arr(d, "interfaces"), i, f)
		json_array_foreach(rj_arr(f, "addresses"), j, a) {
			long pl = (long)rj_int(a, "prefixlen", 0);

			if (strcmp(rj_strd(a, "family", ""), "inet") != 0 ||
			    pl >= 32 || pl < 1 ||
			    strcmp(rj_strd(f, "name", ""), "lo") == 0 ||
			    !in_subnet(addr, rj_strd(a, "address", ""), pl))
				continue;
			snprintf(ifc, len, "%s", rj_strd(f, "name", ""));
			return true;
		}
	return false;
}

/* Scan doc d's IPv4 default route (main table): gateway and device; false
 * when it has none. */
static bool default_route(const json_t *d, char *gw, size_t gl, char *dev,
			  size_t dl)
{
	size_t i;
	json_t *r;

	json_array_foreach(rj_arr(json_object_get(d, "routes"), "defaults"), i,
			   r)
		if (strcmp(rj_strd(r, "family", ""), "inet") == 0 &&
		    rj_str(r, "gateway") != NULL &&
		    rj_str(r, "out_interface") != NULL) {
			snprintf(gw, gl, "%s", rj_str(r, "gateway"));
			snprintf(dev, dl, "%s", rj_str(r, "out_interface"));
			return true;
		}
	return false;
}

/* True when IPv4 address a lies in src ("10.0.0.5", "10.0.0.0/24"). */
bool rd_in_src(const char *a, const char *src)
{
	char buf[64], *slash;
	long len = 32;

	snprintf(buf, sizeof(buf), "%s", src);
	if ((slash = strchr(buf, '/')) != NULL) {
		*slash = '\0';
		len = strtol(slash + 1, NULL, 10);
	}
	return strcmp(a, buf) == 0 || in_subnet(a, buf, len);
}

/* The first IPv4 address of scan doc d (not loopback) that block b's
 * sources hold (any, where b names none), into buf; false when none. */
static bool src_addr(const json_t *d, const json_t *b, char *buf, size_t len)
{
	const json_t *src = json_object_get(b, "saddr"), *f, *a, *v;
	size_t i, j, k;

	json_array_foreach(rj_arr(d, "interfaces"), i, f)
		json_array_foreach(rj_arr(f, "addresses"), j, a) {
			const char *ad = rj_strd(a, "address", "");
			bool hit = json_array_size(src) == 0;

			if (strcmp(rj_strd(a, "family", ""), "inet") != 0 ||
			    strncmp(ad, "127.", 4) == 0)
				continue;
			json_array_foreach(src, k, v)
				hit |= json_is_string(v) &&
				       rd_in_src(ad, json_string_value(v));
			if (hit) {
				snprintf(buf, len, "%s", ad);
				return true;
			}
		}
	return false;
}

/* The overlay's UDP port a block of a ruleset drops, for node doc d's
 * overlay interfaces (VXLAN: 4789, the kernel's default 8472; Geneve:
 * 6081), into port and ifc; false when the block drops none. */
bool rd_encap_hit(const json_t *d, const json_t *b, long *port, char *ifc,
		  size_t len)
{
	static const struct {
		const char *kind;
		long port;
	} encaps[] = {{"vxlan", 4789}, {"vxlan", 8472}, {"geneve", 6081}};
	const json_t *f, *p;
	size_t i, j;

	if (strcmp(rj_strd(b, "proto", ""), "udp") != 0 ||
	    strcmp(rj_strd(b, "verdict", ""), "accept") == 0)
		return false;
	json_array_foreach(rj_arr(d, "interfaces"), i, f)
		for (size_t e = 0; e < sizeof(encaps) / sizeof(encaps[0]); e++) {
			if (strcmp(rj_strd(f, "kind", ""), encaps[e].kind) != 0)
				continue;
			if (json_array_size(rj_arr(b, "ports")) == 0) {
				/* every UDP port */
				*port = encaps[e].port;
				snprintf(ifc, len, "%s", rj_strd(f, "name", ""));
				return true;
			}
			json_array_foreach(rj_arr(b, "ports"), j, p) {
				long lo = 0, hi = 0;
				const char *ps = json_string_value(p);

				if (ps == NULL ||
				    (sscanf(ps, "%ld-%ld", &lo, &hi) != 2 &&
				     (hi = lo = strtol(ps, NULL, 10)) == 0))
					continue;
				if (encaps[e].port >= lo && encaps[e].port <= hi) {
					*port = encaps[e].port;
					snprintf(ifc, len, "%s",
						 rj_strd(f, "name", ""));
					return true;
				}
			}
		}
	return false;
}

/* rd_pair_of(c, f), remembered in memo (NULL: none) while no finding
 * changes: route_causes asks it of the same findings once per pair. */
static const char *pair_of_memo(const struct rctx *c, const json_t *f,
				json_t *memo)
{
	char key[32];
	const char *s;
	json_t *v;

	if (memo == NULL)
		return rd_pair_of(c, f);
	snprintf(key, sizeof(key), "%p", (const void *)f);
	if ((v = json_object_get(memo, key)) != NULL)
		return json_string_value(v);
	s = rd_pair_of(c, f);
	json_object_set_new(memo, key, s != NULL ? json_string(s) : json_null());
	return s;
}

/* True when a fault between a and b was seen: a fault on one whose
 * subject is the other. memo: pair_of_memo's. */
static bool pair_failed(const struct rctx *c, const char *a, const char *b,
			json_t *memo)
{
	size_t i;
	json_t *f;

	/* a's findings, then b's (merge_index.c) */
	for (int end = 0; end < (strcmp(a, b) != 0 ? 2 : 1); end++)
		json_array_foreach(rx_node_findings(c, end ? b : a), i, f) {
			const char *n = rj_str(f, "node"), *s;

			if (rj_sev(rj_str(f, "severity")) < 2 ||
			    (strcmp(n, a) != 0 && strcmp(n, b) != 0))
				continue;
			s = pair_of_memo(c, f, memo);
			if (s != NULL && (strcmp(n, a) == 0 ? strcmp(s, b) == 0
							    : strcmp(s, a) == 0))
				return true;
		}
	return false;
}

/* A route cause on node toward peer (address addr): its fix gives addr
 * the way (gateway via, NULL on-link, and device dev) that node's
 * subnets, default route or working peers say it has, in table; none:
 * the lookup found no route, so a rule that looks addr up in main first
 * passes whatever captured it. No command where no way is known. */
static void route_cause(json_t *causes, const char *node, const char *peer,
			const char *addr, const char *via, const char *dev,
			const char *fact, const char *table, bool none)
{
	char id[300], sum[700], fix[1200], cmd[300];
	json_t *cmds = json_object(), *sh = json_array(), *k;

	/* one cause per pair: a node may misroute more than one peer */
	snprintf(id, sizeof(id), "route:%s->%s", node, peer);
	if (dev != NULL && via != NULL)
		snprintf(cmd, sizeof(cmd),
			 "ip route replace %s/32 via %s dev %s table %s", addr,
			 via, dev, table);
	else if (dev != NULL)
		snprintf(cmd, sizeof(cmd), "ip route replace %s/32 dev %s table %s",
			 addr, dev, table);
	if (dev != NULL)
		json_array_append_new(sh, json_string(cmd));
	if (none && dev != NULL) {
		snprintf(cmd, sizeof(cmd),
			 "ip rule add to %s/32 lookup main priority 1", addr);
		json_array_append_new(sh, json_string(cmd));
	}
	json_object_set_new(cmds, "shell", sh);
	snprintf(sum, sizeof(sum),
		 "%s's own routing sends %s (%s) %s: %s", node, peer, addr,
		 none ? "nowhere" : "the wrong way", fact);
	snprintf(fix, sizeof(fix),
		 "give %s its connected, default or working way on %s (the "
		 "commands); then find what added the route or rule that "
		 "captured it (a VPN or mesh-VPN agent, a hand-made route): ip "
		 "rule list and ip route get %s on %s show it",
		 addr, node, addr, node);
	k = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:o}, "
		      "s:[{s:s, s:s, s:s}], s:[]}",
		      "id", id, "kind", "route", "node", node, "peer", peer,
		      "severity", "fault", "summary", sum, "fix", "node", node,
		      "text", fix, "commands", cmds, "evidence", "node", node,
		      "fact", fact, "source", "route lookup", "findings");
	if (k != NULL)
		json_array_append_new(causes, k);
}

/* True when IPv4 addresses a and b share their first three bytes. */
static bool same_24(const char *a, const char *b)
{
	const char *da = strrchr(a, '.'), *db = strrchr(b, '.');

	return da != NULL && db != NULL && da - a == db - b &&
	       strncmp(a, b, (size_t)(da - a)) == 0 && strchr(a, ':') == NULL;
}

/* A peer of doc d (node's) in addr's /24 that node reached, with a route
 * of its own: its gateway (NULL on-link) and device, the way that works
 * toward that subnet. False when none. */
static bool working_way(const struct rctx *c, const json_t *d,
			const char *node, const char *addr, const char **via,
			const char **dev, json_t *memo)
{
	size_t i;
	json_t *q;

	json_array_foreach(rj_arr(d, "peers"), i, q) {
		const json_t *r = json_object_get(q, "route");
		const char *qa = rj_strd(q, "peer_addr", ""), *qn;

		if (!json_is_object(r) || strcmp(qa, addr) == 0 ||
		    !same_24(qa, addr) || rj_str(r, "out_interface") == NULL ||
		    (qn = rn_resolve(c, qa, qa)) == NULL ||
		    pair_failed(c, node, qn, memo))
			continue;
		*via = rj_str(r, "gateway");
		*dev = rj_str(r, "out_interface");
		return true;
	}
	return false;
}

/* Route causes: a node whose own lookup toward a peer it failed with
 * found no route, or found one that leaves an on-link peer through a
 * gateway or another device, or a remote peer another way than the one
 * that works toward the others of its subnet. Never across a NAT, whose
 * cause it is. */
static void route_causes(const struct rctx *c, json_t *causes)
{
	char fact[400], ifc[64], gw[64], dev[64];
	size_t i, j;
	json_t *f, *e, *p;
	/* no finding changes in here: each one's other end once */
	json_t *memo = json_object();

	/* no route at all: the node's own finding says so */
	json_array_foreach(c->findings, i, f) {
		const char *node = rj_str(f, "node"), *peer;
		const struct report_input *in;
		char addr[64] = "";

		if (!finding_is(rj_strd(f, "code", ""),
		                FINDING_HOST_UNREACHABLE))
			continue;
		json_array_foreach(rj_arr(f, "evidence"), j, e)
			if (sscanf(rj_strd(e, "fact", ""),
				   "ip route get %63[0-9.]: no route",
				   addr) == 1)
				break;
		if (addr[0] == '\0' ||
		    (peer = rn_resolve(c, addr, addr)) == NULL ||
		    rd_pair_cause(causes, node, peer) != NULL ||
		    rd_node_is_nat(c, node) || rd_node_is_nat(c, peer) ||
		    rd_conflict_of(c, node) != NULL ||
		    rd_conflict_of(c, peer) != NULL ||
		    rd_names_cut(c, node, peer) != NULL ||
		    (in = rd_node_scan(c, node)) == NULL)
			continue;
		snprintf(fact, sizeof(fact),
			 "ip route get %s on %s: no route, although the "
			 "other peers are reached",
			 addr, node);
		if (onlink_iface(in->doc, addr, ifc, sizeof(ifc)))
			route_cause(causes, node, peer, addr, NULL, ifc, fact,
				    "main", true);
		else if (default_route(in->doc, gw, sizeof(gw), dev,
				       sizeof(dev)))
			route_cause(causes, node, peer, addr, gw, dev, fact,
				    "main", true);
		else
			route_cause(causes, node, peer, addr, NULL, NULL, fact,
				    "main", true);
	}
	/* a route that goes the wrong way: the node's lookup per peer */
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *node = rn_resolve(c, rj_strd(d, "host", ""), NULL);

		if (node == NULL || json_object_get(d, "mesh") == NULL ||
		    rd_node_is_nat(c, node))
			continue;
		json_array_foreach(rj_arr(d, "peers"), j, p) {
			const json_t *r = json_object_get(p, "route");
			const char *addr = rj_str(p, "peer_addr"), *peer;
			const char *rgw = rj_str(r, "gateway");
			const char *rdev = rj_strd(r, "out_interface", "");
			const char *via = NULL, *way = NULL;
			char tbl[16];
			bool onlink;

			if (!json_is_object(r) || addr == NULL ||
			    (peer = rn_resolve(c, addr, addr)) == NULL ||
			    strcmp(peer, node) == 0 || rd_node_is_nat(c, peer) ||
			    rd_conflict_of(c, node) != NULL ||
			    rd_conflict_of(c, peer) != NULL ||
			    rd_names_cut(c, node, peer) != NULL ||
			    !pair_failed(c, node, peer, memo) ||
			    rd_pair_cause(causes, node, peer) != NULL)
				continue; /* (pair_failed first: it looks at
					   * two nodes' findings, rd_pair_cause
					   * at every cause) */
			onlink = onlink_iface(d, addr, ifc, sizeof(ifc));
			if (onlink)
				way = ifc;
			else if (!working_way(c, d, node, addr, &via, &way,
					      memo))
				continue;
			if ((via == NULL) == (rgw == NULL) &&
			    (via == NULL || strcmp(via, rgw) == 0) &&
			    strcmp(rdev, way) == 0)
				continue; /* the route is the working one */
			snprintf(tbl, sizeof(tbl), "%lld", rj_int(r, "table", 254));
			snprintf(fact, sizeof(fact),
				 "ip route get %s on %s: %s%s dev %s (table %s), "
				 "where %s %s%s dev %s",
				 addr, node, rgw != NULL ? "via " : "",
				 rgw != NULL ? rgw : "", rdev, tbl,
				 onlink ? "its subnet is on-link:"
					: "its working peers of that subnet go",
				 via != NULL ? "via " : "", via != NULL ? via : "",
				 way);
			route_cause(causes, node, peer, addr, via, way, fact,
				    strcmp(tbl, "254") == 0 ? "main" : tbl,
				    false);
		}
	}
	json_decref(memo);
}

void rd_encap(const struct rctx *c, json_t *rec)
{
	json_t *fw = rj_arr(rec, "firewall"), *one, *b, *nv;
	char addr[64], ifc[64], why[600];
	size_t i, j;

	if (fw == NULL)
		return;
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *x = rn_resolve(c, rj_strd(d, "host", ""), NULL);
		long port;

		if (x == NULL || json_object_get(d, "mesh") == NULL ||
		    rd_node_scan(c, x) == NULL || rd_node_scan(c, x)->doc != d)
			continue;
		json_array_foreach(rj_arr(json_object_get(d, "firewall"),
					  "blocks"),
				   i, b) {
			if (!rd_encap_hit(d, b, &port, ifc, sizeof(ifc)))
				continue;
			json_array_foreach(c->nodes, j, nv) {
				const char *p = json_string_value(nv);
				const struct report_input *pin;
				json_t *e;

				if (p == NULL || strcmp(p, x) == 0 ||
				    (pin = rd_node_scan(c, p)) == NULL ||
				    !src_addr(pin->doc, b, addr, sizeof(addr)) ||
				    !pair_failed(c, x, p, NULL))
					continue;
				snprintf(why, sizeof(why),
					 "overlay packets (%s, UDP %ld) from %s "
					 "(%s) carry every connection between "
					 "%s and %s: %s's ruleset drops them "
					 "(%s %s %s)",
					 ifc, port, addr, p, x, p, x,
					 rj_strd(b, "family", ""),
					 rj_strd(b, "table", ""),
					 rj_strd(b, "chain", ""));
				e = rd_fw_node(fw, x);
				json_object_set_new(e, "encap", json_true());
				json_array_append_new(
					json_object_get(e, "open"),
					json_pack("{s:I, s:s, s:s}", "port",
						  (json_int_t)port, "proto",
						  "udp", "why", why));
				break;
			}
		}
	}
	/* the commands of the entries the overlay added, against the
	 * node's ruleset (each "why" names the source: a rule limited to
	 * some sources is matched against it) */
	if ((one = json_array()) == NULL)
		return;
	json_array_foreach(fw, i, b)
		if (json_is_true(json_object_get(b, "encap")))
			json_array_append(one, b);
	rd_fw_commands(c, one);
	json_decref(one);
}

/* See report_decide.h. */
const json_t *rd_conflict_of(const struct rctx *c, const char *name)
{
	char owner[300];
	size_t i;
	json_t *f;

	if (name == NULL)
		return NULL;
	snprintf(owner, sizeof(owner), "the address of %s,", name);
	json_array_foreach(rx_code_findings(c, FINDING_ADDRESS_CONFLICT), i, f)
		if (finding_is(rj_strd(f, "code", ""), FINDING_ADDRESS_CONFLICT) &&
		    (strcmp(rj_strd(f, "node", ""), name) == 0 ||
		     strstr(rj_strd(f, "summary", ""), owner) != NULL))
			return f;
	return NULL;
}

/* See report_decide.h: a link-lossy finding on a or b, or naming
 * either. */
bool rd_pair_lossy(const struct rctx *c, const char *a, const char *b)
{
	size_t i;
	json_t *f;

	if (c->lossy != NULL) /* rd_index_lossy's, the same answer */
		return (a != NULL && json_object_get(c->lossy, a) != NULL) ||
		       (b != NULL && json_object_get(c->lossy, b) != NULL);
	for (int k = 0; k < 2; k++)
		json_array_foreach(rx_code_findings(c, k ? FINDING_HEARTBEAT_LOSS
							  : FINDING_LINK_LOSSY),
				   i, f) {
			const char *n = rj_str(f, "node"), *s;

			if (!finding_is(rj_strd(f, "code", ""),
					FINDING_LINK_LOSSY) &&
			    !finding_is(rj_strd(f, "code", ""),
					FINDING_HEARTBEAT_LOSS))
				continue;
			s = rd_pair_of(c, f);
			if (strcmp(n, a) == 0 || strcmp(n, b) == 0 ||
			    (s != NULL &&
			     (strcmp(s, a) == 0 || strcmp(s, b) == 0)))
				return true;
		}
	return false;
}

/* See report_decide.h: a loss finding on a about b, or on b about a. */
bool rd_pair_lossy_exact(const struct rctx *c, const char *a, const char *b)
{
	size_t i;
	json_t *f;

	for (int end = 0; end < 2; end++)
		json_array_foreach(rx_node_findings(c, end ? b : a), i, f) {
			const char *code = rj_strd(f, "code", ""), *s;

			if (!finding_is(code, FINDING_LINK_LOSSY) &&
			    !finding_is(code, FINDING_HEARTBEAT_LOSS))
				continue;
			s = rd_pair_of(c, f);
			if (s != NULL && strcmp(s, end ? a : b) == 0)
				return true;
		}
	return false;
}

/* True when every failure finding f names was answered with a reset (a
 * summary "rejected with a reset", facts "closed: rst" or "closed
 * (rst)"): an answer, which no loss makes (issue 48). */
static bool answered_reset(const json_t *f)
{
	const json_t *e;
	size_t i;
	bool any = false;

	if (strstr(rj_strd(f, "summary", ""), "rejected with a reset") != NULL)
		return true;
	json_array_foreach(rj_arr(f, "evidence"), i, e) {
		const char *x = rj_strd(e, "fact", "");

		if (strstr(x, "filtered") != NULL || strstr(x, "timeout") != NULL ||
		    strstr(x, "timed out") != NULL)
			return false;
		if (strstr(x, "closed: rst") != NULL ||
		    strstr(x, "closed (rst)") != NULL)
			any = true;
	}
	return any;
}

/* True for a finding that says connections between two nodes failed. */
static bool pair_symptom(const char *code)
{
	return finding_in_cause(code, CAUSE_FIREWALL) ||
	       finding_is(code, FINDING_IDLE_CONNECTION_KILLED) ||
	       finding_is(code, FINDING_HOST_UNREACHABLE) ||
	       finding_is(code, FINDING_RANK_UNREACHABLE);
}

/* The pair's undecided cause: what was seen, and what decides. */
static json_t *undecided(json_t *causes, const char *a, const char *b,
			 const json_t *f)
{
	char label[300], id[320], fix[1400], sum[900];
	const char *ta = rj_strd(f, "node", a);
	json_t *k;

	pair_label(a, b, label, sizeof(label));
	snprintf(id, sizeof(id), "undecided:%s", label);
	snprintf(sum, sizeof(sum),
		 "connections between %s and %s fail and no node's own "
		 "evidence says why (seen on %s: %s)",
		 a, b, ta, rj_strd(f, "summary", ""));
	snprintf(fix, sizeof(fix),
		 "cannot tell why connections between %s and %s fail: no "
		 "rule of a ruleset that was read drops them, no route looked "
		 "up is wrong, and no loss was measured. Decide on %s: "
		 "ip route get %s and netprobe ports %s --ports 7470,29500; on "
		 "%s: nft -a list ruleset and tcpdump -ni any host %s; then a "
		 "firewall or security group on the way (cloud, switch ACL) "
		 "is what is left",
		 a, b, ta, strcmp(ta, a) == 0 ? b : a,
		 strcmp(ta, a) == 0 ? b : a, strcmp(ta, a) == 0 ? b : a, ta);
	k = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:{}}, s:[], "
		      "s:[]}",
		      "id", id, "kind", "undecided", "node", label, "severity",
		      "fault", "summary", sum, "fix",
		      "node", ta, "text", fix, "commands", "evidence",
		      "findings");
	if (k != NULL)
		json_array_append_new(causes, k);
	return k;
}

void rd_blame(const struct rctx *c, json_t *causes,
	      json_t *(*owner)(const struct rctx *, const json_t *,
			       const json_t *))
{
	/* an address two nodes hold explains what fails toward either
	 * (decide_identity.c; its cause is made after these) */
	char why[1200];
	size_t i;
	json_t *f;

	route_causes(c, causes);
	json_array_foreach(c->findings, i, f) {
		const char *code = rj_strd(f, "code", ""), *n = rj_str(f, "node");
		const char *s;

		if (rj_sev(rj_str(f, "severity")) < 1 ||
		    (rj_sev(rj_str(f, "severity")) < 2 &&
		     !finding_in_cause(code, CAUSE_MTU)) ||
		    (!pair_symptom(code) &&
		     !finding_in_cause(code, CAUSE_MTU) &&
		     !finding_is(code, FINDING_REPLY_BLOCKED)) ||
		    owner(c, causes, f) != NULL ||
		    (s = rd_pair_of(c, f)) == NULL || strcmp(s, n) == 0 ||
		    rd_pair_cause(causes, n, s) != NULL)
			continue;
		/* a job variable of the node's own with its line (a wrong
		 * NCCL_SOCKET_IFNAME, MASTER_ADDR): no pair's loss explains
		 * it (generated seeds 324, 369, 383) */
		if (rd_fix_is_setting(f) && rj_str(f, "command") != NULL)
			continue;
		/* a NAT'd end makes no undecided pair (its NAT explains
		 * what fails through it), but a timeout across a lossy link
		 * is loss all the same (generated seed 120: a NAT'd node's
		 * samples of a peer's ephemeral range, under 10 % loss) */
		/* an idle connection that died is loss only where this very
		 * link was measured lossy (a node's loss toward a third
		 * says nothing of it: generated seed 106) */
		if (finding_is(code, FINDING_IDLE_CONNECTION_KILLED)
			    ? rd_pair_lossy_exact(c, n, s)
			    : rd_pair_lossy(c, n, s) && !answered_reset(f)) {
			/* a timeout on a lossy link is loss: the link's own
			 * warning says so; this is its trace */
			bool mtu = finding_in_cause(code, CAUSE_MTU);

			snprintf(why, sizeof(why),
				 "%s; but %s and the link between %s and %s "
				 "loses packets (link-lossy): loss, not %s",
				 rj_strd(f, "summary", ""),
				 mtu ? "no interface or route says so"
				     : "no rule of the ruleset there drops it",
				 n, s, mtu ? "an MTU limit" : "a firewall");
			json_object_set_new(f, "summary", json_string(why));
			json_object_set_new(f, "severity", json_string("info"));
			continue;
		}
		if (rd_node_is_nat(c, n) || rd_node_is_nat(c, s) ||
		    rd_names_cut(c, n, s) != NULL)
			continue;
		/* a reply lost on the way back has its own cause words
		 * (the peer's rules, a stateless ACL), a size that did not
		 * cross the MTU causes': loss only */
		if (pair_symptom(code) && !rd_fix_is_setting(f) &&
		    rd_conflict_of(c, n) == NULL &&
		    rd_conflict_of(c, s) == NULL)
			undecided(causes, n, s, f);
	}
}
