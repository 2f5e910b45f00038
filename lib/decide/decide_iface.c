/* Interface state and addressing: overlapping-subnets (a fault where a
 * bridge or pool captures the route toward a peer), interface-down,
 * no-usable-interface. */
#include "decide/decide.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "decide/recommend.h"

#define MAX_OVERLAPS 8

/* True when two prefixes share addresses: the shorter one holds the
 * other's network. */
static bool prefixes_overlap(const struct iface_addr *a,
                             const struct iface_addr *b)
{
	const struct iface_addr *wide = a->prefixlen <= b->prefixlen ? a : b;
	const struct iface_addr *narrow = wide == a ? b : a;

	if (a->family != b->family)
		return false;
	return iface_addr_in_prefix(wide, a->family, &narrow->a);
}

/* Up and running with carrier, not loopback, with a global address, and
 * not a bridge of veths only: an interface that carries traffic to other
 * hosts. */
static bool reaches_hosts(const struct iface_list *l, const struct iface *ifc)
{
	return !decide_is_loopback(ifc) && decide_is_usable(ifc) &&
	       !decide_is_container_bridge(l, ifc) &&
	       decide_global_addr(ifc, AF_UNSPEC) != NULL;
}

/* A route captured by a local bridge or pool: the peer lies in both
 * prefixes, the route toward it leaves by the one that reaches no other
 * host, and the other one does. */
struct capture {
	const struct peer_verdict *peer;
	const struct iface *route, *other;
	const struct iface_addr *route_pfx, *other_pfx;
};

/* Looks for a peer whose route the pair (x a, y b) captures. */
static bool find_capture(const struct iface_list *l, const struct iface *x,
                         const struct iface_addr *a, const struct iface *y,
                         const struct iface_addr *b,
                         const struct peer_verdict *peers, size_t n,
                         struct capture *c)
{
	for (size_t i = 0; i < n; i++) {
		const struct peer_verdict *p = &peers[i];
		unsigned char pa[16];
		int fam = decide_peer_bytes(p, pa);
		bool via_x = strcmp(p->local_ifname, x->name) == 0;
		bool via_y = strcmp(p->local_ifname, y->name) == 0;

		if (fam != a->family || (!via_x && !via_y) ||
		    !iface_addr_in_prefix(a, fam, pa) ||
		    !iface_addr_in_prefix(b, fam, pa))
			continue;
		c->peer = p;
		c->route = via_x ? x : y;
		c->other = via_x ? y : x;
		c->route_pfx = via_x ? a : b;
		c->other_pfx = via_x ? b : a;
		if (!reaches_hosts(l, c->route) && reaches_hosts(l, c->other))
			return true;
	}
	return false;
}

/* One overlapping-subnets finding for the pair of addresses: a fault
 * when it captures the route toward a peer, else a warning. The fix
 * names the recommended interface, or the one the peer's subnet belongs
 * to, never the route's. */
static int report_overlap(const struct iface_list *l, const struct iface *x,
                          const struct iface_addr *a, const struct iface *y,
                          const struct iface_addr *b,
                          const struct peer_verdict *peers, size_t n,
                          const struct recommendation *rec, struct doc *d)
{
	const struct iface *want = rec != NULL ? rec->ifc : NULL;
	struct capture c;
	json_t *ev = NULL;
	char fix[384];

	evidence_add(&ev, "netlink", "%s has %s/%u", x->name, a->str,
	             a->prefixlen);
	evidence_add(&ev, "netlink", "%s has %s/%u", y->name, b->str,
	             b->prefixlen);
	if (find_capture(l, x, a, y, b, peers, n, &c)) {
		evidence_add(&ev, "route",
		             "the route toward peer %s (%s) leaves by %s%s%s",
		             c.peer->peer, c.peer->peer_addr, c.route->name,
		             c.peer->local_addr[0] ? " from " : "",
		             c.peer->local_addr);
		evidence_add(&ev, "netlink", "%s %s", c.route->name,
		             decide_dead_end(l, c.route));
		evidence_add(&ev, "netlink",
		             "%s holds %s in %s/%u and reaches other hosts",
		             c.other->name, c.peer->peer_addr, c.other_pfx->str,
		             c.other_pfx->prefixlen);
		snprintf(
		    fix, sizeof(fix),
		    "move %s's prefix %s/%u off %s/%u (a Docker network: "
		    "docker network rm, or default-address-pools in "
		    "/etc/docker/daemon.json), so that the route toward "
		    "%s leaves by %s; then use %s",
		    c.route->name, c.route_pfx->str, c.route_pfx->prefixlen,
		    c.other_pfx->str, c.other_pfx->prefixlen, c.peer->peer_addr,
		    c.other->name, want != NULL ? want->name : c.other->name);
		if (doc_add_finding(
		        d, FINDING_OVERLAPPING_SUBNETS, SEV_FAULT, ev, fix,
		        "%s/%u on %s overlaps %s/%u on %s and captures "
		        "the route toward peer %s",
		        c.route_pfx->str, c.route_pfx->prefixlen, c.route->name,
		        c.other_pfx->str, c.other_pfx->prefixlen, c.other->name,
		        c.peer->peer) < 0)
			return -1;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (peers[i].local_ifname[0] != '\0') {
			evidence_add(&ev, "route",
			             "the route toward the peers leaves by %s",
			             peers[i].local_ifname);
			break;
		}
	if (want != NULL)
		snprintf(fix, sizeof(fix),
		         "fix the netmasks or route metrics so that traffic to "
		         "the peers leaves by %s, the recommended interface, "
		         "and pin it (NCCL_SOCKET_IFNAME==%s)",
		         want->name, want->name);
	else
		snprintf(fix, sizeof(fix),
		         "fix the netmasks or route metrics, then run netprobe "
		         "scan --peer HOST to choose the interface to pin");
	if (doc_add_finding(
	        d, FINDING_OVERLAPPING_SUBNETS, -1, ev, fix,
	        "%s and %s are on overlapping subnets %s/%u and %s/%u", x->name,
	        y->name, a->str, a->prefixlen, b->str, b->prefixlen) < 0)
		return -1;
	return 0;
}

/* Overlapping prefixes make the kernel's route, not NCCL's choice, pick
 * the interface traffic leaves by; where a peer's route is captured by a
 * bridge or pool that reaches no other host, the peer is cut off. */
int decide_subnets(const struct iface_list *l, const struct peer_verdict *peers,
                   size_t npeers, const struct recommendation *rec,
                   struct doc *d)
{
	int found = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct iface *x = &l->v[i];

		if (decide_is_loopback(x) || !(x->flags & IFF_UP))
			continue;
		for (size_t j = i + 1; j < l->n; j++) {
			const struct iface *y = &l->v[j];

			if (decide_is_loopback(y) || !(y->flags & IFF_UP))
				continue;
			for (int p = 0; p < x->naddrs; p++)
				for (int q = 0; q < y->naddrs; q++) {
					const struct iface_addr *a =
					    &x->addrs[p];
					const struct iface_addr *b =
					    &y->addrs[q];

					if (found >= MAX_OVERLAPS ||
					    !decide_subnet_addr(a) ||
					    !decide_subnet_addr(b) ||
					    !prefixes_overlap(a, b))
						continue;
					found++;
					if (report_overlap(l, x, a, y, b, peers,
					                   npeers, rec, d) < 0)
						return -1;
				}
		}
	}
	return 0;
}

/* True when ifc holds an IPv4 address of any scope. */
static bool has_v4(const struct iface *ifc)
{
	for (int i = 0; i < ifc->naddrs; i++)
		if (ifc->addrs[i].family == AF_INET)
			return true;
	return false;
}

/* True when an interface other than loopback holds a global IPv4
 * address: a host that speaks IPv4 needs 127.0.0.1. */
static bool any_v4(const struct iface_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (!decide_is_loopback(&l->v[i]) &&
		    decide_global_addr(&l->v[i], AF_INET) != NULL)
			return true;
	return false;
}

/* Loopback down, or up without 127.0.0.1: every connection from this
 * host to itself fails, to 127.0.0.1 and to its own addresses alike
 * (Linux delivers both through lo), so rank 0's connect to its own
 * rendezvous store or NCCL root fails while every peer reaches it
 * (issue 48: blind48b 01, an `ifdown -a` that took lo down too). No
 * loopback listed at all is a list that cannot tell: no finding. */
static int loopback_state(const struct iface *lo, bool v4, struct doc *d)
{
	json_t *ev = NULL;
	char st[96];
	const char *cmd;

	if (!(lo->flags & IFF_UP))
		cmd = "ip link set lo up";
	else if (v4 && !has_v4(lo))
		cmd = "ip addr add 127.0.0.1/8 dev lo";
	else
		return 0;
	decide_state_words(lo, st, sizeof(st));
	evidence_add(&ev, "netlink", "%s is %s%s", lo->name, st,
		     lo->flags & IFF_UP ? " without 127.0.0.1" : "");
	if (doc_add_finding(d, FINDING_LOOPBACK_DOWN, -1, ev, cmd,
			    "loopback %s is %s: this host cannot connect "
			    "to itself",
			    lo->name,
			    lo->flags & IFF_UP ? "without 127.0.0.1" : "down") < 0)
		return -1;
	return doc_finding_command(d, cmd);
}

/* An addressed interface that cannot carry traffic is usually the one
 * the user meant; with none usable, nothing can work. */
int decide_iface_state(const struct iface_list *l, struct doc *d)
{
	json_t *ev = NULL;
	bool usable = false;

	for (size_t i = 0; i < l->n; i++) {
		const struct iface *ifc = &l->v[i];
		const struct iface_addr *a;
		char st[96], fix[128];

		if (decide_is_loopback(ifc)) {
			if (loopback_state(ifc, any_v4(l), d) < 0)
				return -1;
			continue;
		}
		a = decide_global_addr(ifc, AF_UNSPEC);
		if (a == NULL)
			continue;
		if (decide_is_usable(ifc)) {
			usable = true;
			continue;
		}
		/* a bridge without ports never has carrier (docker0 with no
		 * container running): not a fault */
		if (decide_is_container_bridge(l, ifc))
			continue;
		ev = NULL;
		decide_state_words(ifc, st, sizeof(st));
		evidence_add(&ev, "netlink", "%s has %s/%u and is %s",
		             ifc->name, a->str, a->prefixlen, st);
		if (!(ifc->flags & IFF_UP))
			snprintf(fix, sizeof(fix), "ip link set %s up",
			         ifc->name);
		else
			snprintf(fix, sizeof(fix),
			         "check the cable or the peer end of %s",
			         ifc->name);
		if (doc_add_finding(d, FINDING_INTERFACE_DOWN, -1, ev, fix,
		                    "%s has an address but is %s", ifc->name,
		                    st) < 0)
			return -1;
	}
	if (usable)
		return 0;
	ev = NULL;
	evidence_add(&ev, "netlink",
	             "%zu interfaces, none but loopback up and running with a "
	             "global address",
	             l->n);
	if (doc_add_finding(d, FINDING_NO_USABLE_INTERFACE, -1, ev, NULL,
	                    "nothing but loopback is up and addressed") < 0)
		return -1;
	return 0;
}
