/* ecmp-dead-nexthop and route-type-drop: a peer cut off by this node's
 * own routing table (decide_ecmp.h). */
#include "decide/decide_ecmp.h"

#include <stdio.h>
#include <string.h>

#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include "kernel/neigh.h"

/* See decide_ecmp.h. */
int decide_nexthop_of(const struct route_info *m, const char *gw,
                      const char *ifname)
{
	for (size_t i = 0; gw[0] != '\0' && i < m->nnh; i++)
		if (strcmp(m->nh[i].gateway, gw) == 0 &&
		    (ifname[0] == '\0' || m->nh[i].ifname[0] == '\0' ||
		     strcmp(m->nh[i].ifname, ifname) == 0))
			return (int)i;
	return -1;
}

/* True for a next hop that never answered: its gateway's entry failed
 * or never resolved. */
static bool hop_dead(const struct route_nexthop *h)
{
	return h->neigh_read && neigh_unresolved(h->neigh);
}

/* True for a next hop the kernel may use whose gateway answered once. */
static bool hop_live(const struct route_nexthop *h)
{
	return !(h->flags & (RTNH_F_DEAD | RTNH_F_LINKDOWN)) &&
	       h->gateway[0] != '\0' && h->neigh_read &&
	       (h->neigh & (NUD_REACHABLE | NUD_STALE | NUD_DELAY | NUD_PROBE |
	                    NUD_PERMANENT | NUD_NOARP)) != 0;
}

/* The dead next hop of peer p's multipath route that its lookup picked,
 * while a sibling is live, or -1. */
static int dead_pick(const struct peer_verdict *p)
{
	const struct route_info *m = &p->match;
	int k;

	if (p->responded || !p->have_match || m->type != RTN_UNICAST ||
	    m->nnh < 2 || (k = decide_nexthop_of(m, p->gateway, p->local_ifname)) < 0 ||
	    !hop_dead(&m->nh[k]))
		return -1;
	for (size_t i = 0; i < m->nnh; i++)
		if ((int)i != k && hop_live(&m->nh[i]))
			return k;
	return -1;
}

/* " metric N table T" where they are not what ip assumes, into buf. */
static void route_keys(const struct route_info *m, char *buf, size_t len)
{
	char mt[24] = "", t[24] = "";

	if (m->metric != 0)
		snprintf(mt, sizeof(mt), " metric %d", m->metric);
	if (m->table != RT_TABLE_MAIN && m->table > 0)
		snprintf(t, sizeof(t), " table %d", m->table);
	snprintf(buf, len, "%s%s", mt, t);
}

/* The ip route replace command that keeps m's live next hops only. */
static void replace_cmd(const struct route_info *m, char *buf, size_t len)
{
	size_t nlive = 0, off;
	char keys[48];

	route_keys(m, keys, sizeof(keys));
	for (size_t i = 0; i < m->nnh; i++)
		nlive += hop_live(&m->nh[i]);
	off = (size_t)snprintf(buf, len, "ip%s route replace %s",
	                       m->family == AF_INET6 ? " -6" : "",
	                       m->destination);
	for (size_t i = 0; i < m->nnh && off < len; i++) {
		const struct route_nexthop *h = &m->nh[i];

		if (!hop_live(h))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s via %s%s%s",
		                        nlive > 1 ? " nexthop" : "",
		                        h->gateway, h->ifname[0] ? " dev " : "",
		                        h->ifname);
	}
	if (off < len)
		snprintf(buf + off, len - off, "%s", keys);
}

/* The next hops of m in one line: "via G dev D (neighbour failed)". */
static void hops_line(const struct route_info *m, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < m->nnh && off < len; i++) {
		const struct route_nexthop *h = &m->nh[i];

		off += (size_t)snprintf(
		    buf + off, len - off, "%snexthop via %s dev %s%s%s (%s%s)",
		    i ? ", " : "", h->gateway[0] ? h->gateway : "-",
		    h->ifname[0] ? h->ifname : "?",
		    (h->flags & RTNH_F_DEAD) ? " dead" : "",
		    (h->flags & RTNH_F_LINKDOWN) ? " linkdown" : "",
		    h->neigh_read ? "neighbour " : "no neighbour entry",
		    h->neigh_read ? neigh_state_name(h->neigh) : "");
	}
}

/* One ecmp-dead-nexthop for the route and dead hop of peers[i], naming
 * every peer from i on with the same. */
static int ecmp_finding(const struct peer_verdict *peers, size_t n, size_t i,
                        const struct mpath_conf *mc, struct doc *d)
{
	const struct peer_verdict *p = &peers[i];
	const struct route_info *m = &p->match;
	const struct route_nexthop *dead = &m->nh[dead_pick(p)];
	char cmd[400], hops[600], fix[700], live[INET6_ADDRSTRLEN] = "";
	size_t npeer = 0;
	json_t *ev = NULL;

	for (size_t j = i; j < n; j++) {
		const struct peer_verdict *q = &peers[j];

		if (dead_pick(q) < 0 ||
		    strcmp(q->match.destination, m->destination) != 0 ||
		    q->match.table != m->table ||
		    strcmp(q->gateway, p->gateway) != 0)
			continue;
		npeer++;
		if (evidence_add(&ev, "route", "ip route get %s from %s: via %s "
		                 "dev %s (%s did not answer)",
		                 q->peer_addr, q->local_addr, q->gateway,
		                 q->local_ifname, q->peer) < 0)
			goto nomem;
	}
	hops_line(m, hops, sizeof(hops));
	for (size_t k = 0; k < m->nnh && live[0] == '\0'; k++)
		if (hop_live(&m->nh[k]))
			snprintf(live, sizeof(live), "%s", m->nh[k].gateway);
	if (evidence_add(&ev, "netlink", "route %s table %d: %s",
	                 m->destination, m->table, hops) < 0 ||
	    (m->family == AF_INET && mc->use_neigh4 >= 0 &&
	     evidence_add(&ev, "sysctl",
	                  "net.ipv4.fib_multipath_use_neigh = %d, "
	                  "net.ipv4.fib_multipath_hash_policy = %d",
	                  mc->use_neigh4, mc->hash4) < 0) ||
	    (m->family == AF_INET6 && mc->hash6 >= 0 &&
	     evidence_add(&ev, "sysctl",
	                  "net.ipv6.fib_multipath_hash_policy = %d",
	                  mc->hash6) < 0))
		goto nomem;
	replace_cmd(m, cmd, sizeof(cmd));
	snprintf(fix, sizeof(fix),
	         "%s (withdraws the dead next hop %s; restore the route once "
	         "it is back)%s",
	         cmd, dead->gateway,
	         m->family == AF_INET && mc->use_neigh4 == 0
	             ? "; as a lasting setting, sysctl -w "
	               "net.ipv4.fib_multipath_use_neigh=1 skips a next hop "
	               "once its neighbour entry has failed"
	             : "");
	if (doc_add_finding(d, FINDING_ECMP_DEAD_NEXTHOP, -1, ev, fix,
	                    "peer %s%s is routed through %s, a next hop of the "
	                    "multipath route %s that never answered (neighbour "
	                    "%s), while %s answers",
	                    p->peer,
	                    npeer > 1 ? " (and others, see the evidence)" : "",
	                    dead->gateway, m->destination,
	                    neigh_state_name(dead->neigh), live) < 0 ||
	    doc_finding_command(d, cmd) < 0)
		return -1;
	return 0;
nomem:
	json_decref(ev);
	return -1;
}

/* True when an earlier peer than i had the same ecmp finding. */
static bool ecmp_seen(const struct peer_verdict *peers, size_t i)
{
	const struct peer_verdict *p = &peers[i];

	for (size_t j = 0; j < i; j++)
		if (dead_pick(&peers[j]) >= 0 &&
		    strcmp(peers[j].match.destination, p->match.destination) ==
		        0 &&
		    peers[j].match.table == p->match.table &&
		    strcmp(peers[j].gateway, p->gateway) == 0)
			return true;
	return false;
}

/* True for a route type that discards what it holds. */
static bool drop_type(int t)
{
	return t == RTN_BLACKHOLE || t == RTN_UNREACHABLE || t == RTN_PROHIBIT;
}

/* True when an earlier peer than i met the same drop route. */
static bool drop_seen(const struct peer_verdict *peers, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (peers[j].have_match && drop_type(peers[j].match.type) &&
		    strcmp(peers[j].match.destination,
		           peers[i].match.destination) == 0 &&
		    peers[j].match.table == peers[i].match.table)
			return true;
	return false;
}

/* One route-type-drop for the drop route of peers[i], naming every peer
 * from i on that it holds. */
static int drop_finding(const struct peer_verdict *peers, size_t n, size_t i,
                        struct doc *d)
{
	const struct peer_verdict *p = &peers[i];
	const struct route_info *m = &p->match;
	const char *tn = route_type_name(m->type);
	char cmd[300], keys[48], fix[600];
	json_t *ev = NULL;

	for (size_t j = i; j < n; j++) {
		const struct peer_verdict *q = &peers[j];

		if (!q->have_match || q->match.type != m->type ||
		    strcmp(q->match.destination, m->destination) != 0 ||
		    q->match.table != m->table)
			continue;
		if (evidence_add(&ev, "route", "ip route get %s: %s (the "
		                 "answer of a %s route; %s)",
		                 q->peer_addr,
		                 m->type == RTN_BLACKHOLE     ? "Invalid argument"
		                 : m->type == RTN_UNREACHABLE ? "No route to host"
		                                              : "Permission denied",
		                 tn, q->peer) < 0)
			goto nomem;
	}
	if (evidence_add(&ev, "netlink", "%s %s table %d%s%s", tn,
	                 m->destination, m->table,
	                 p->have_fallback ? "; behind it: " : "",
	                 p->have_fallback ? p->fallback : "") < 0)
		goto nomem;
	route_keys(m, keys, sizeof(keys));
	snprintf(cmd, sizeof(cmd), "ip%s route del %s %s%s",
	         m->family == AF_INET6 ? " -6" : "", tn, m->destination, keys);
	if (p->have_fallback)
		snprintf(fix, sizeof(fix),
		         "%s (then %s routes the peer; remove the route where "
		         "it is configured too: a routing daemon, a CNI, "
		         "/etc/network)",
		         cmd, p->fallback);
	else
		snprintf(fix, sizeof(fix),
		         "%s, and add a route toward %s (no other route holds "
		         "it)",
		         cmd, p->peer_addr);
	if (doc_add_finding(d, FINDING_ROUTE_TYPE_DROP, -1, ev, fix,
	                    "peer %s (%s) is held by this node's %s route %s, "
	                    "which discards every packet to it",
	                    p->peer, p->peer_addr, tn, m->destination) < 0 ||
	    (p->have_fallback && doc_finding_command(d, cmd) < 0))
		return -1;
	return 0;
nomem:
	json_decref(ev);
	return -1;
}

/* See decide_ecmp.h. */
int decide_route_drops(const struct peer_verdict *peers, size_t n,
                       const struct mpath_conf *mc, struct doc *d)
{
	for (size_t i = 0; i < n; i++) {
		const struct peer_verdict *p = &peers[i];

		if (dead_pick(p) >= 0 && !ecmp_seen(peers, i) &&
		    ecmp_finding(peers, n, i, mc, d) < 0)
			return -1;
		if (p->have_match && drop_type(p->match.type) &&
		    !drop_seen(peers, i) && drop_finding(peers, n, i, d) < 0)
			return -1;
	}
	return 0;
}
