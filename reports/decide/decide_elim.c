/* netprobe report, decide: elimination over failed pairs (issue 48). For
 * every pair the other deciders left undecided, the evidence of both
 * ends and the shape of the cluster (which pairs reach the very port that
 * failed, from which subnet) feed the table of elim.c. Where every
 * hypothesis but a box on the path between two subnets is eliminated and
 * the shape shows that box, the pairs become one "path" cause that names
 * the subnets and the hop and blames no node; elsewhere the undecided
 * cause carries what remains, what eliminated the rest, and the commands
 * that decide. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide_hop.h"
#include "elim.h"
#include "report_decide.h"

/* The network of address addr (IPv4 or IPv6) as doc d's interface
 * holding it sees it ("10.0.1.0/24", "fd84:1::/64"), into buf; empty
 * when d holds no such address. */
static void net_of(const json_t *d, const char *addr, char *buf, size_t len)
{
	size_t i, j;
	json_t *f, *a;

	buf[0] = '\0';
	if (addr == NULL)
		return;
	json_array_foreach(rj_arr(d, "interfaces"), i, f)
		json_array_foreach(rj_arr(f, "addresses"), j, a) {
			long pl = (long)rj_int(a, "prefixlen", 0);
			const char *fam = rj_strd(a, "family", "");
			int af = strcmp(fam, "inet6") == 0 ? AF_INET6 : AF_INET;
			long bits = af == AF_INET6 ? 128 : 32;
			unsigned char x[16];
			char s[INET6_ADDRSTRLEN];

			if ((strcmp(fam, "inet") != 0 && af != AF_INET6) ||
			    strcmp(rj_strd(a, "address", ""), addr) != 0 ||
			    pl < 1 || pl > bits || inet_pton(af, addr, x) != 1)
				continue;
			/* the host bits cleared, byte by byte */
			for (long k = 0; k < bits / 8; k++) {
				long keep = pl - k * 8;

				if (keep <= 0)
					x[k] = 0;
				else if (keep < 8)
					x[k] &= (unsigned char)(0xff << (8 - keep));
			}
			if (inet_ntop(af, x, s, sizeof(s)) == NULL)
				return;
			snprintf(buf, len, "%s/%ld", s, pl);
			return;
		}
}

/* The entry of doc d's peers that is node peer, or NULL. */
static const json_t *peer_entry(const struct rctx *c, const json_t *d,
				const char *peer)
{
	size_t i;
	json_t *p;
	const char *n;

	if (d == NULL)
		return NULL;
	json_array_foreach(rj_arr(d, "peers"), i, p) {
		const char *a = rj_str(p, "peer_addr");

		if (a != NULL && (n = rn_resolve(c, a, a)) != NULL &&
		    strcmp(n, peer) == 0)
			return p;
	}
	return NULL;
}

/* True for a port result that connected (open, a responder's). */
static bool port_ok(const json_t *p)
{
	const char *s = rj_strd(p, "state", "");

	return strcmp(s, "open") == 0 || strcmp(s, "reachable") == 0;
}

/* True for a port result that failed (not unknown, not skipped): a
 * reset, silence, or an ICMP refusal. */
static bool port_failed(const json_t *p)
{
	const char *s = rj_strd(p, "state", "");

	return strcmp(s, "closed") == 0 || strcmp(s, "filtered") == 0 ||
	       strcmp(s, "prohibited") == 0 || strcmp(s, "unreachable") == 0;
}

/* The result of entry e for port/proto in direction dir, or NULL. */
static const json_t *port_in(const json_t *e, const char *dir, long port,
			     const char *proto)
{
	size_t i;
	json_t *p;

	json_array_foreach(rj_arr(e, "ports"), i, p)
		if (rj_int(p, "port", 0) == port &&
		    strcmp(rj_strd(p, "direction", ""), dir) == 0 &&
		    strcmp(rj_strd(p, "proto", ""), proto) == 0)
			return p;
	return NULL;
}

/* The doc of node's latest scan, or NULL. */
static const json_t *doc_of(const struct rctx *c, const char *node)
{
	const struct report_input *in = rd_node_scan(c, node);

	return in != NULL ? in->doc : NULL;
}

/* True when doc d's ruleset was read whole. */
static bool rules_read(const json_t *d)
{
	const json_t *fw = json_object_get(d, "firewall");

	return rj_str(fw, "backend") != NULL &&
	       !json_is_true(json_object_get(fw, "truncated")) &&
	       json_is_array(json_object_get(fw, "blocks"));
}

/* True when block b's ports (none: every port) hold port. */
static bool block_port(const json_t *b, long port)
{
	size_t i;
	json_t *p;

	if (json_array_size(rj_arr(b, "ports")) == 0)
		return true;
	json_array_foreach(rj_arr(b, "ports"), i, p) {
		long lo = 0, hi = 0;
		const char *s = json_string_value(p);

		if (s == NULL)
			continue;
		if (sscanf(s, "%ld-%ld", &lo, &hi) != 2)
			hi = lo = strtol(s, NULL, 10);
		if (port >= lo && port <= hi)
			return true;
	}
	return false;
}

/* True when a drop of doc d's ruleset that the reader does not judge
 * (firewall.unread) could drop port of proto (its proto unread or the
 * same, its ports none or holding it): the firewall stays a hypothesis
 * (audit48). */
static bool unread_covers(const json_t *d, long port, const char *proto)
{
	size_t i;
	json_t *u;

	json_array_foreach(rj_arr(json_object_get(d, "firewall"), "unread"),
			   i, u) {
		const char *up = rj_strd(u, "proto", "");

		if ((up[0] == '\0' || strcmp(up, proto) == 0) &&
		    block_port(u, port))
			return true;
	}
	return false;
}

/* True when block b matches port/proto from source src ("" unknown:
 * only a block of every source matches). */
static bool block_hit(const json_t *b, long port, const char *proto,
		      const char *src)
{
	const json_t *sa = json_object_get(b, "saddr"), *v;
	const char *bp = rj_strd(b, "proto", "");
	bool any = json_array_size(sa) == 0;
	size_t i;

	if (bp[0] != '\0' && strcmp(bp, proto) != 0)
		return false;
	json_array_foreach(sa, i, v)
		any |= src[0] != '\0' && json_is_string(v) &&
		       rd_in_src(src, json_string_value(v));
	return any && block_port(b, port);
}

/* See report_decide.h. */
bool rd_rules_drop(const json_t *d, long port, const char *proto,
		   const char *src)
{
	const json_t *blocks = rj_arr(json_object_get(d, "firewall"), "blocks");
	bool policy = false, passed = false;
	size_t i;
	json_t *b;

	json_array_foreach(blocks, i, b) {
		if (!block_hit(b, port, proto, src))
			continue;
		if (strcmp(rj_strd(b, "verdict", ""), "accept") == 0)
			passed = true;
		else if (strcmp(rj_strd(b, "kind", ""), "policy") == 0)
			policy = true;
		else if (!passed)
			return true;
	}
	return policy && !passed;
}

/* True when causes hold one of kind on node (route: toward peer). */
static bool has_cause(const json_t *causes, const char *kind,
		      const char *node, const char *peer)
{
	size_t i;
	json_t *k;

	json_array_foreach(causes, i, k)
		if (strcmp(rj_strd(k, "kind", ""), kind) == 0 &&
		    strcmp(rj_strd(k, "node", ""), node) == 0 &&
		    (peer == NULL || strcmp(rj_strd(k, "peer", ""), peer) == 0))
			return true;
	return false;
}

/* The shape across the cluster for one failed connect toward node b's
 * port/proto (from a): every other node x's result toward b on that
 * port, and a's toward the nodes of its own subnet. */
static void shape(const struct rctx *c, struct elim_ev *e, const char *a,
		  const char *b, const char *netb, const char *neta, long port,
		  const char *proto)
{
	size_t i;
	json_t *nv;
	const json_t *da = doc_of(c, a);

	json_array_foreach(c->nodes, i, nv) {
		const char *x = json_string_value(nv);
		const json_t *dx, *ex, *p;
		char netx[56];

		if (x == NULL || strcmp(x, a) == 0 || strcmp(x, b) == 0 ||
		    (dx = doc_of(c, x)) == NULL)
			continue;
		/* x toward b, on the port that failed from a */
		if ((ex = peer_entry(c, dx, b)) != NULL &&
		    (p = port_in(ex, "outbound", port, proto)) != NULL) {
			net_of(dx, rj_str(json_object_get(ex, "route"),
					  "source"),
			       netx, sizeof(netx));
			if (port_ok(p) && !e->listener_ok) {
				e->listener_ok = true;
				snprintf(e->listener_fact,
					 sizeof(e->listener_fact),
					 "%s reaches %s's %ld/%s", x, b, port,
					 proto);
			}
			if (netx[0] && strcmp(netx, netb) == 0) {
				if (port_ok(p) && e->inside_ok++ == 0)
					snprintf(e->inside_fact,
						 sizeof(e->inside_fact),
						 "%s reaches %s's %ld/%s inside "
						 "%s",
						 x, b, port, proto, netb);
				else if (port_failed(p) &&
					 !rd_rules_drop(doc_of(c, b), port, proto,
						     rj_strd(json_object_get(
								     ex, "route"),
							     "source", "")))
					e->inside_fail++;
			}
		}
		/* a toward x of its own subnet, on the same port */
		if ((ex = peer_entry(c, da, x)) != NULL &&
		    (p = port_in(ex, "outbound", port, proto)) != NULL) {
			net_of(dx, rj_strd(ex, "peer_addr", ""), netx,
			       sizeof(netx));
			if (netx[0] && strcmp(netx, neta) == 0 && port_ok(p) &&
			    e->inside_ok++ == 0)
				snprintf(e->inside_fact,
					 sizeof(e->inside_fact),
					 "%s reaches %s's %ld/%s inside %s", a,
					 x, port, proto, neta);
		}
	}
}

/* The idle probe's state in peer entry e ("alive", "killed"), or "". */
static const char *idle_of(const json_t *e)
{
	return rj_strd(json_object_get(e, "idle"), "state", "");
}

/* The shape across the cluster for an idle connection from a to b that
 * died: every other node's idle connection toward b, and a's toward the
 * nodes of its own subnet. */
static void idle_shape(const struct rctx *c, struct elim_ev *e, const char *a,
		       const char *b, const char *netb, const char *neta)
{
	size_t i;
	json_t *nv;
	const json_t *da = doc_of(c, a);

	json_array_foreach(c->nodes, i, nv) {
		const char *x = json_string_value(nv), *st;
		const json_t *dx, *ex;
		char netx[56];

		if (x == NULL || strcmp(x, a) == 0 || strcmp(x, b) == 0 ||
		    (dx = doc_of(c, x)) == NULL)
			continue;
		if ((ex = peer_entry(c, dx, b)) != NULL &&
		    (st = idle_of(ex))[0] != '\0') {
			net_of(dx, rj_str(json_object_get(ex, "route"),
					  "source"),
			       netx, sizeof(netx));
			if (netx[0] && strcmp(netx, netb) == 0) {
				if (strcmp(st, "alive") == 0 &&
				    e->inside_ok++ == 0)
					snprintf(e->inside_fact,
						 sizeof(e->inside_fact),
						 "%s's idle connection to %s "
						 "lives on inside %s",
						 x, b, netb);
				else if (strcmp(st, "killed") == 0)
					e->inside_fail++;
			}
		}
		if ((ex = peer_entry(c, da, x)) != NULL &&
		    strcmp(idle_of(ex), "alive") == 0) {
			net_of(dx, rj_strd(ex, "peer_addr", ""), netx,
			       sizeof(netx));
			if (netx[0] && strcmp(netx, neta) == 0 &&
			    e->inside_ok++ == 0)
				snprintf(e->inside_fact,
					 sizeof(e->inside_fact),
					 "%s's idle connection to %s lives on "
					 "inside %s",
					 a, x, neta);
		}
	}
}

/* An idle connection of node (from it, or to it from another node) that
 * lived on, as a fact into buf; empty when none. */
static void idle_kept(const struct rctx *c, const char *node, char *buf,
		      size_t len)
{
	const json_t *d = doc_of(c, node), *e, *dx;
	size_t i;
	json_t *nv;

	buf[0] = '\0';
	json_array_foreach(rj_arr(d, "peers"), i, e)
		if (strcmp(idle_of(e), "alive") == 0) {
			snprintf(buf, len, "%s's idle connection to %s lived on",
				 node, rj_strd(e, "peer", "?"));
			return;
		}
	json_array_foreach(c->nodes, i, nv) {
		const char *x = json_string_value(nv);

		if (x == NULL || strcmp(x, node) == 0 ||
		    (dx = doc_of(c, x)) == NULL ||
		    (e = peer_entry(c, dx, node)) == NULL ||
		    strcmp(idle_of(e), "alive") != 0)
			continue;
		snprintf(buf, len, "%s's idle connection to %s lived on", x,
			 node);
		return;
	}
}

/* True when doc d's netprobe mesh held port (TCP), listening, through
 * the mesh (mesh.ports.held). */
static bool held(const json_t *d, long port)
{
	size_t i;
	json_t *v;

	json_array_foreach(rj_arr(json_object_get(json_object_get(d, "mesh"),
						  "ports"),
				  "held"),
			   i, v)
		if (json_integer_value(v) == port)
			return true;
	return false;
}

/* The retry probe's counts in peer entry en (x probed y) into e, with
 * its fact, unless one is there already: a refusal is no connection, so
 * the fact counts it apart. */
static void retry_of(const json_t *en, const char *x, const char *y,
		     struct elim_ev *e)
{
	const json_t *r = json_object_get(en, "retry");
	char refused[40] = "";

	if (!json_is_object(r) || e->retry_fact[0] != '\0')
		return;
	e->retry_tries = (int)rj_int(r, "tries", 0);
	e->retry_answered = (int)rj_int(r, "answered", 0);
	e->retry_refused = (int)rj_int(r, "refused", 0);
	if (e->retry_refused < 0 || e->retry_refused > e->retry_answered)
		e->retry_refused = 0;
	e->retry_ctl_tries = (int)rj_int(r, "control_tries", 0);
	e->retry_ctl_answered = (int)rj_int(r, "control_answered", 0);
	if (e->retry_refused > 0)
		snprintf(refused, sizeof(refused), " (%d refused)",
			 e->retry_refused);
	snprintf(e->retry_fact, sizeof(e->retry_fact),
		 "%s connected to %s's %lld/tcp %d of %d times%s and to its "
		 "responder's %lld/tcp %d of %d times, in turns",
		 x, y, rj_int(r, "port", 0),
		 e->retry_answered - e->retry_refused, e->retry_tries, refused,
		 rj_int(r, "control_port", 0), e->retry_ctl_answered,
		 e->retry_ctl_tries);
}

/* The evidence of the pair (a saw it, b the other end) into e. */
static void gather(const struct rctx *c, const json_t *causes, const char *a,
		   const char *b, struct elim_ev *e)
{
	const json_t *da = doc_of(c, a), *db = doc_of(c, b);
	const json_t *ea = peer_entry(c, da, b), *eb = peer_entry(c, db, a);
	const json_t *ends[2] = {ea, eb};
	bool okd[2] = {false, false}, any_fail = false, all_rst = true;
	const char *addr_a, *addr_b;
	long port_b = 0; /* a port of b's that a's connect failed on */
	size_t i;
	json_t *p;

	memset(e, 0, sizeof(*e));
	snprintf(e->a, sizeof(e->a), "%s", a);
	snprintf(e->b, sizeof(e->b), "%s", b);
	net_of(da, rj_str(json_object_get(ea, "route"), "source"), e->net_a,
	       sizeof(e->net_a));
	net_of(db, rj_str(json_object_get(eb, "route"), "source"), e->net_b,
	       sizeof(e->net_b));
	if (e->net_b[0] == '\0' && db != NULL)
		net_of(db, rj_str(ea, "peer_addr"), e->net_b, sizeof(e->net_b));
	if (e->net_a[0] == '\0' && da != NULL)
		net_of(da, rj_str(eb, "peer_addr"), e->net_a, sizeof(e->net_a));
	snprintf(e->gw_a, sizeof(e->gw_a), "%s",
		 rj_strd(json_object_get(ea, "route"), "gateway", ""));
	snprintf(e->gw_b, sizeof(e->gw_b), "%s",
		 rj_strd(json_object_get(eb, "route"), "gateway", ""));
	e->lookup_a = json_is_object(json_object_get(ea, "route"));
	e->lookup_b = json_is_object(json_object_get(eb, "route"));
	e->rules_a = da != NULL && rules_read(da);
	e->rules_b = db != NULL && rules_read(db);
	e->route_a = has_cause(causes, "route", a, b);
	e->route_b = has_cause(causes, "route", b, a);
	e->nat = rd_node_is_nat(c, a) || rd_node_is_nat(c, b);
	e->conflict = rd_conflict_of(c, a) != NULL ||
		      rd_conflict_of(c, b) != NULL;
	e->lossy = rd_pair_lossy(c, a, b);
	{
		int na = rd_neigh_toward(c, a, b), nb = rd_neigh_toward(c, b, a);

		e->neigh_read_a = na >= 0;
		e->neigh_read_b = nb >= 0;
		e->neigh_stale_a = na > 0;
		e->neigh_stale_b = nb > 0;
	}
	{
		int v = rd_vepa_toward(c, a, b);

		e->vepa_read = v >= 0;
		e->vepa_both = v > 0;
	}
	{
		int ua = rd_untracked_toward(c, a, b);
		int ub = rd_untracked_toward(c, b, a);

		e->legacy_a = ua < 0;
		e->legacy_b = ub < 0;
		e->untracked_a = ua > 0;
		e->untracked_b = ub > 0;
	}
	e->ecmp_a = rd_route_toward(c, a, b, FINDING_ECMP_DEAD_NEXTHOP);
	e->ecmp_b = rd_route_toward(c, b, a, FINDING_ECMP_DEAD_NEXTHOP);
	e->rtdrop_a = rd_route_toward(c, a, b, FINDING_ROUTE_TYPE_DROP);
	e->rtdrop_b = rd_route_toward(c, b, a, FINDING_ROUTE_TYPE_DROP);
	rd_qdisc_ev(c, da, db, ea, eb, e);
	/* (for an idle failure, this very link's: below) */
	/* each end's address: its own route's source, else what the other
	 * end connected to */
	addr_a = rj_strd(json_object_get(ea, "route"), "source",
			 rj_strd(eb, "peer_addr", ""));
	addr_b = rj_strd(json_object_get(eb, "route"), "source",
			 rj_strd(ea, "peer_addr", ""));
	for (int k = 0; k < 2; k++)
		json_array_foreach(rj_arr(ends[k], "ports"), i, p) {
			const char *dir = rj_strd(p, "direction", "");

			if (port_ok(p))
				okd[k] = true;
			if (!port_failed(p))
				continue;
			any_fail = true;
			if (strcmp(rj_strd(p, "reason", ""), "rst") != 0)
				all_rst = false;
			/* the end whose port it is: b for a's outbound and
			 * b's inbound (a connecting back), a otherwise */
			{
				bool at_b = (k == 0) == (strcmp(dir, "outbound") == 0);
				const json_t *dt = at_b ? db : da;
				const char *src = at_b ? addr_a : addr_b;

				if (dt != NULL &&
				    rd_rules_drop(dt, (long)rj_int(p, "port", 0),
					       rj_strd(p, "proto", "tcp"), src)) {
					if (at_b)
						e->drops_b = true;
					else
						e->drops_a = true;
				}
				if (dt != NULL &&
				    unread_covers(dt, (long)rj_int(p, "port", 0),
						  rj_strd(p, "proto", "tcp"))) {
					if (at_b)
						e->unsure_b = true;
					else
						e->unsure_a = true;
				}
			}
			if (strcmp(dir, "outbound") != 0)
				continue;
			if (k == 0 && port_b == 0)
				port_b = (long)rj_int(p, "port", 0);
			if (e->port[0] == '\0')
				snprintf(e->port, sizeof(e->port), "%lld/%s",
					 rj_int(p, "port", 0),
					 rj_strd(p, "proto", "tcp"));
			shape(c, e, k ? b : a, k ? a : b,
			      k ? e->net_a : e->net_b, k ? e->net_b : e->net_a,
			      (long)rj_int(p, "port", 0),
			      rj_strd(p, "proto", "tcp"));
		}
	e->reset = any_fail && all_rst;
	/* no failed port recorded: any drop the reader does not judge
	 * could be the one */
	if (e->port[0] == '\0') {
		e->unsure_a |= json_array_size(rj_arr(
				       json_object_get(da, "firewall"),
				       "unread")) > 0;
		e->unsure_b |= json_array_size(rj_arr(
				       json_object_get(db, "firewall"),
				       "unread")) > 0;
	}
	retry_of(ea, a, b, e);
	retry_of(eb, b, a, e);
	e->hop_box_a = e->hop_box_b = -2;
	rd_hop_of(ea, a, b, &e->hop_box_a, &e->hop_answered_a, e->hop_a,
		  sizeof(e->hop_a), e->hop_fact_a, e->hop_walk_a,
		  sizeof(e->hop_fact_a));
	rd_hop_shape(ea, &e->hop_len_a, &e->hop_gap_a);
	rd_hop_shape(eb, &e->hop_len_b, &e->hop_gap_b);
	rd_hop_of(eb, b, a, &e->hop_box_b, &e->hop_answered_b, e->hop_b,
		  sizeof(e->hop_b), e->hop_fact_b, e->hop_walk_b,
		  sizeof(e->hop_fact_b));
	e->held_b = port_b > 0 && db != NULL && held(db, port_b);
	e->tracked_a = json_array_size(rj_arr(json_object_get(da, "firewall"),
					      "blocks")) > 0;
	e->tracked_b = json_array_size(rj_arr(json_object_get(db, "firewall"),
					      "blocks")) > 0;
	for (int k = 0; k < 2; k++) {
		const json_t *en = ends[k];

		if (strcmp(idle_of(en), "killed") != 0)
			continue;
		if (!e->idle_killed) {
			idle_kept(c, a, e->kept_a, sizeof(e->kept_a));
			idle_kept(c, b, e->kept_b, sizeof(e->kept_b));
		}
		e->idle_killed = true;
		e->lossy = rd_pair_lossy_exact(c, a, b);
		if (e->port[0] == '\0')
			snprintf(e->port, sizeof(e->port), "%lld/tcp",
				 rj_int(json_object_get(en, "idle"), "port",
					0));
		idle_shape(c, e, k ? b : a, k ? a : b, k ? e->net_a : e->net_b,
			   k ? e->net_b : e->net_a);
	}
	e->control_ok = ea != NULL && okd[0] && (eb == NULL || okd[1]);
}

/* The path cause between nets na and nb (in that order), made when
 * missing; its hop is settled by rd_path_name once its pairs are in. */
static json_t *path_cause(json_t *causes, const char *na, const char *nb)
{
	size_t i;
	json_t *k;

	json_array_foreach(causes, i, k) {
		const json_t *n = json_object_get(k, "nets");

		if (strcmp(rj_strd(k, "kind", ""), "path") == 0 &&
		    json_is_string(json_array_get(n, 0)) &&
		    json_is_string(json_array_get(n, 1)) &&
		    strcmp(json_string_value(json_array_get(n, 0)), na) == 0 &&
		    strcmp(json_string_value(json_array_get(n, 1)), nb) == 0)
			return k;
	}
	k = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:{}}, s:[], "
		      "s:[], s:[], s:[s, s], s:o}",
		      "id", "", "kind", "path", "node", "", "severity",
		      "fault", "summary", "", "fix", "node", "", "text", "",
		      "commands", "evidence", "findings", "pairs", "nets", na,
		      nb, "ports", json_array());
	if (k == NULL)
		return NULL;
	json_array_append_new(causes, k);
	return json_array_get(causes, json_array_size(causes) - 1);
}

/* Adds the ports_to_open entries of node's doc toward the other subnet
 * to the path cause's ports (a number or a "lo-hi" range, TCP). */
static void path_ports(const struct rctx *c, json_t *k, const char *node)
{
	const json_t *d = doc_of(c, node), *o;
	json_t *ports = json_object_get(k, "ports");
	size_t i;
	char s[32];

	json_array_foreach(rj_arr(d, "ports_to_open"), i, o) {
		const json_t *p = json_object_get(o, "port");

		if (strcmp(rj_strd(o, "proto", "tcp"), "tcp") != 0)
			continue;
		if (json_is_integer(p))
			snprintf(s, sizeof(s), "%lld",
				 (long long)json_integer_value(p));
		else if (json_is_string(p))
			snprintf(s, sizeof(s), "%s", json_string_value(p));
		else
			continue;
		rj_add_unique(ports, s);
	}
}

/* The path cause's summary, fix and commands, once its pairs are in:
 * ports the box resets or drops (let them through), connections it
 * forgets when idle (its timeout), or both. */
static void path_words(json_t *k)
{
	const json_t *nets = json_object_get(k, "nets"), *v;
	const char *na = json_string_value(json_array_get(nets, 0));
	const char *nb = json_string_value(json_array_get(nets, 1));
	const char *node = rj_str(k, "node");
	bool idle = json_is_true(json_object_get(k, "idle"));
	bool hop = strchr(node, '<') == NULL;
	const char *seen = rj_strd(k, "seen", "");
	char set[400] = "", sum[900], fix[2000], cmd[600], both[200] = "";
	size_t i, l = 0, fl = 0;
	json_t *sh = json_array();

	json_array_foreach(json_object_get(k, "ports"), i, v)
		if (l < sizeof(set))
			l += (size_t)snprintf(set + l, sizeof(set) - l, "%s%s",
					      i ? ", " : "",
					      json_string_value(v));
	/* a router has an address on each subnet: where the second side
	 * knows the box by another, both are named */
	if (hop && seen[0] != '\0' && strcmp(seen, node) != 0)
		snprintf(both, sizeof(both), " (as %s knows it; %s knows it as "
			 "%s)", na, nb, seen);
	snprintf(sum, sizeof(sum),
		 "connections between %s and %s %s on the path between them "
		 "(%zu pairs), at the box %s%s: %s, and no node's own ruleset, "
		 "route or address explains them",
		 na, nb,
		 set[0] && idle ? "fail, and idle ones die,"
		 : idle	       ? "left idle die"
			       : "fail",
		 json_array_size(json_object_get(k, "pairs")),
		 hop ? node : "between them", both,
		 idle ? "inside each subnet the same connections live on"
		      : "pairs inside each subnet reach the very ports");
	json_object_del(k, "seen");
	if (set[0] != '\0')
		fl += (size_t)snprintf(
			fix + fl, sizeof(fix) - fl,
			"let TCP %s through the box on the path between %s "
			"and %s%s%s%s, both ways. ",
			set, na, nb, hop ? " (" : "", hop ? node : "",
			hop ? ")" : "");
	if (idle && fl < sizeof(fix))
		fl += (size_t)snprintf(
			fix + fl, sizeof(fix) - fl,
			"The box on the path between %s and %s (%s) forgets "
			"connections left idle: raise its idle timeout for "
			"established TCP above the job's longest quiet spell "
			"(a checkpoint, an evaluation), or give the job TCP "
			"keepalives shorter than it. ",
			na, nb, node);
	if (!hop && rj_int(k, "path_len", 0) > 2 && fl < sizeof(fix))
		fl += rd_path_unpinned(k, fix + fl, sizeof(fix) - fl);
	json_object_del(k, "path_len");
	json_object_del(k, "candidates");
	if (fl < sizeof(fix))
		snprintf(fix + fl, sizeof(fix) - fl,
			 "No node's own firewall is the cause, so no node's "
			 "ruleset is to change. The commands are for a Linux "
			 "router (nftables' inet filter table; read it first: "
			 "nft -a list chain inet filter forward); on a switch "
			 "ACL, a firewall appliance, a load balancer or a "
			 "cloud security group, set the same there");
	if (hop && sh != NULL) {
		for (int d = 0; set[0] != '\0' && d < 2; d++) {
			/* an IPv6 pair of subnets matches as ip6 */
			const char *ip = strchr(na, ':') ? "ip6" : "ip";

			snprintf(cmd, sizeof(cmd),
				 "nft insert rule inet filter forward %s saddr "
				 "%s %s daddr %s tcp dport { %s } accept",
				 ip, d ? nb : na, ip, d ? na : nb, set);
			json_array_append_new(sh, json_string(cmd));
		}
		/* the kernel's own default: five days */
		if (idle)
			json_array_append_new(
				sh, json_string("sysctl -w net.netfilter."
						"nf_conntrack_tcp_timeout_"
						"established=432000"));
	}
	if (json_array_size(sh) > 0) {
		snprintf(cmd, sizeof(cmd), "on %s", node);
		json_object_set_new(
			json_object_get(json_object_get(k, "fix"), "commands"),
			cmd, sh);
	} else
		json_decref(sh);
	json_object_set_new(k, "summary", json_string(sum));
	json_object_set_new(json_object_get(k, "fix"), "text",
			    json_string(fix));
}

/* The evidence lines of out for e into cause k: what shows the kept
 * hypotheses, then one "why not" line per eliminated one, and what
 * remains with the command that decides it. */
static void elim_lines(json_t *k, const struct elim_ev *e,
		       const struct elim_out *o)
{
	size_t n;
	const struct elim_row *r = elim_rows(&n);
	json_t *ev = json_object_get(k, "evidence");
	char hyp[300], line[900], probe[400];

	for (size_t i = 0; i < o->n; i++) {
		if (o->state[i] == ELIM_NA)
			continue;
		elim_fill(r[i].hyp, e, hyp, sizeof(hyp));
		elim_fill(r[i].probe, e, probe, sizeof(probe));
		if (o->state[i] == ELIM_KEPT)
			snprintf(line, sizeof(line), "%s: %s", hyp, o->why[i]);
		else if (o->state[i] == ELIM_GONE)
			snprintf(line, sizeof(line), "why not %s: %s", hyp,
				 o->why[i]);
		else
			snprintf(line, sizeof(line),
				 "%s remains: no evidence decides it (decide: "
				 "%s)",
				 hyp, probe);
		json_array_append_new(
			ev, json_pack("{s:s, s:s, s:s}", "node", e->a, "fact",
				      line, "source", "elimination"));
	}
}

/* See report_decide.h. */
void rd_elim(const struct rctx *c, json_t *causes)
{
	int path = elim_row_of("path");
	json_t *made = json_array();

	if (made == NULL || path < 0) {
		json_decref(made);
		return;
	}
	for (size_t i = 0; i < json_array_size(causes);) {
		json_t *k = json_array_get(causes, i), *pk;
		const char *label = rj_strd(k, "node", ""), *sep;
		const char *ta = rj_strd(json_object_get(k, "fix"), "node", "");
		char a[128], b[128];
		struct elim_ev e;
		struct elim_out o;
		bool first;

		if (strcmp(rj_strd(k, "kind", ""), "undecided") != 0 ||
		    (sep = strstr(label, "<->")) == NULL ||
		    json_is_true(json_object_get(k, "elim"))) {
			i++;
			continue;
		}
		snprintf(a, sizeof(a), "%.*s", (int)(sep - label), label);
		snprintf(b, sizeof(b), "%s", sep + 3);
		if (strcmp(ta, b) == 0) {
			snprintf(b, sizeof(b), "%s", a);
			snprintf(a, sizeof(a), "%s", ta);
		}
		gather(c, causes, a, b, &e);
		elim_run(&e, &o);
		if (o.state[path] != ELIM_KEPT || o.remain != o.kept) {
			elim_lines(k, &e, &o);
			json_object_set_new(k, "elim", json_true());
			i++;
			continue;
		}
		/* the subnets in order, the hop of the first one's side */
		first = strcmp(e.net_a, e.net_b) < 0;
		pk = path_cause(causes, first ? e.net_a : e.net_b,
				first ? e.net_b : e.net_a);
		if (pk == NULL) {
			i++;
			continue;
		}
		if (json_array_size(rj_arr(pk, "pairs")) == 0) {
			elim_lines(pk, &e, &o);
			json_array_append(made, pk);
		}
		rd_hop_offer(pk, &e, first);
		rd_hop_lines(pk, &e);
		rj_add_unique(json_object_get(pk, "pairs"), label);
		if (e.idle_killed)
			json_object_set_new(pk, "idle", json_true());
		path_ports(c, pk, a);
		path_ports(c, pk, b);
		json_array_remove(causes, i);
	}
	for (size_t i = 0; i < json_array_size(made); i++) {
		rd_path_name(json_array_get(made, i));
		path_words(json_array_get(made, i));
	}
	json_decref(made);
	for (size_t i = 0; i < json_array_size(causes); i++)
		json_object_del(json_array_get(causes, i), "elim");
}

/* See report_decide.h. */
json_t *rd_path_owner(const struct rctx *c, const json_t *causes,
		      const json_t *f)
{
	const char *n = rj_str(f, "node"), *s = rd_pair_of(c, f);
	char label[300];
	size_t i, j;
	json_t *k, *v;

	if (n == NULL || s == NULL)
		return NULL;
	if (strcmp(n, s) < 0)
		snprintf(label, sizeof(label), "%s<->%s", n, s);
	else
		snprintf(label, sizeof(label), "%s<->%s", s, n);
	json_array_foreach(causes, i, k) {
		if (strcmp(rj_strd(k, "kind", ""), "path") != 0)
			continue;
		json_array_foreach(rj_arr(k, "pairs"), j, v)
			if (strcmp(json_string_value(v), label) == 0)
				return k;
	}
	return NULL;
}
