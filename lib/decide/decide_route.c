/* A peer cut off by this node's own route or link: host-unreachable with
 * the cause (no route, the route's interface down, without carrier or a
 * bridge of veths, or the peer's subnet on an interface that is down),
 * instead of asking whether the peer's responder runs. */
#include "decide/decide.h"

#include <stdio.h>
#include <string.h>

#include <linux/rtnetlink.h>

/* True when an interface other than r that carries traffic to other
 * hosts holds the peer's address in one of its subnets. */
static bool held_elsewhere(const struct iface_list *l, const struct iface *r,
                           const struct peer_verdict *p)
{
	unsigned char pa[16];
	int fam = decide_peer_bytes(p, pa);

	for (size_t i = 0; fam != AF_UNSPEC && i < l->n; i++) {
		const struct iface *o = &l->v[i];

		if (o == r || decide_is_loopback(o) ||
		    decide_dead_end(l, o) != NULL)
			continue;
		for (int k = 0; k < o->naddrs; k++)
			if (o->addrs[k].family == fam &&
			    decide_subnet_addr(&o->addrs[k]) &&
			    iface_addr_in_prefix(&o->addrs[k], fam, pa))
				return true;
	}
	return false;
}

/* The local cause that keeps a peer out of reach, or NULL when the
 * route and its interface look fine (the peer itself is then silent). A
 * route into a bridge of veths is a cause only when another interface's
 * subnet holds the peer (a captured route): else the peer may be a
 * container on that very bridge. */
const char *decide_route_cause(const struct iface_list *l,
                               const struct peer_verdict *p, char *buf,
                               size_t len)
{
	const struct iface *r;
	const char *why;
	unsigned char pa[16];
	int fam;

	if (p->peer_addr[0] == '\0')
		return NULL;
	/* a blackhole, unreachable or prohibit route: route-type-drop
	 * names it (decide_ecmp.c), not "no route" */
	if (p->have_match && p->match.type != RTN_UNICAST)
		return NULL;
	if (p->local_ifname[0] == '\0') {
		snprintf(buf, len, "there is no route toward %s", p->peer_addr);
		return buf;
	}
	r = iface_by_name(l, p->local_ifname);
	if (r == NULL || decide_is_loopback(r))
		return NULL;
	if ((why = decide_dead_end(l, r)) != NULL &&
	    (!decide_is_usable(r) || held_elsewhere(l, r, p))) {
		snprintf(buf, len, "the route toward %s leaves by %s, which %s",
		         p->peer_addr, r->name, why);
		return buf;
	}
	/* the interface whose subnet holds the peer is down: the route
	 * fell back to another one (its default route) */
	fam = decide_peer_bytes(p, pa);
	for (size_t i = 0; fam != AF_UNSPEC && i < l->n; i++) {
		const struct iface *o = &l->v[i];

		if (o == r || decide_is_loopback(o) || decide_is_usable(o))
			continue;
		for (int k = 0; k < o->naddrs; k++) {
			const struct iface_addr *a = &o->addrs[k];

			if (a->family != fam || !decide_subnet_addr(a) ||
			    !iface_addr_in_prefix(a, fam, pa))
				continue;
			snprintf(buf, len,
			         "%s lies in %s/%u on %s, which %s, so the "
			         "route toward it leaves by %s instead",
			         p->peer_addr, a->str, a->prefixlen, o->name,
			         decide_dead_end(l, o), r->name);
			return buf;
		}
	}
	return NULL;
}

/* The interface to repair for a cause found by decide_route_cause. */
static const struct iface *cause_iface(const struct iface_list *l,
                                       const struct peer_verdict *p)
{
	const struct iface *r = iface_by_name(l, p->local_ifname);
	unsigned char pa[16];
	int fam = decide_peer_bytes(p, pa);

	if (r != NULL && decide_dead_end(l, r) != NULL &&
	    (!decide_is_usable(r) || held_elsewhere(l, r, p)))
		return r;
	for (size_t i = 0; fam != AF_UNSPEC && i < l->n; i++) {
		const struct iface *o = &l->v[i];

		if (o == r || decide_is_loopback(o) || decide_is_usable(o))
			continue;
		for (int k = 0; k < o->naddrs; k++)
			if (o->addrs[k].family == fam &&
			    decide_subnet_addr(&o->addrs[k]) &&
			    iface_addr_in_prefix(&o->addrs[k], fam, pa))
				return o;
	}
	return NULL;
}

/* host-unreachable for every peer that did not answer because of this
 * node's own route or link: the cause, not "is the responder running?". */
int decide_peer_routes(const struct iface_list *l,
                       const struct peer_verdict *peers, size_t n,
                       struct doc *d)
{
	for (size_t i = 0; i < n; i++) {
		const struct peer_verdict *p = &peers[i];
		const struct iface *o;
		const char *cause;
		char buf[256], st[96], fix[256];
		json_t *ev = NULL;

		if (p->responded || (cause = decide_route_cause(
		                         l, p, buf, sizeof(buf))) == NULL)
			continue;
		if (p->local_ifname[0] != '\0')
			evidence_add(
			    &ev, "route", "ip route get %s: dev %s%s%s",
			    p->peer_addr, p->local_ifname,
			    p->local_addr[0] ? " src " : "", p->local_addr);
		else
			evidence_add(&ev, "route", "ip route get %s: no route",
			             p->peer_addr);
		o = cause_iface(l, p);
		if (o != NULL) {
			decide_state_words(o, st, sizeof(st));
			evidence_add(&ev, "netlink", "%s is %s%s", o->name, st,
			             decide_is_container_bridge(l, o)
			                 ? ", a bridge whose only members are "
			                   "veths"
			                 : "");
		}
		evidence_add(&ev, "peer", "%s did not answer", p->peer);
		if (o != NULL && decide_is_container_bridge(l, o))
			snprintf(fix, sizeof(fix),
			         "move the prefix of %s off the peers' subnet "
			         "(see overlapping-subnets), so that the route "
			         "toward %s leaves by the interface on that "
			         "subnet",
			         o->name, p->peer_addr);
		else if (o != NULL && !(o->flags & IFF_UP))
			snprintf(fix, sizeof(fix), "ip link set %s up",
			         o->name);
		else if (o != NULL)
			snprintf(
			    fix, sizeof(fix),
			    "check the cable or the peer end of %s (it has "
			    "no carrier)",
			    o->name);
		else
			snprintf(fix, sizeof(fix),
			         "add a route toward %s, or fix the address",
			         p->peer_addr);
		if (doc_add_finding(d, FINDING_HOST_UNREACHABLE, -1, ev, fix,
		                    "peer %s cannot be reached: %s", p->peer,
		                    cause) < 0)
			return -1;
		/* a NIC set down: its fix is one command on this node */
		if (o != NULL && !decide_is_container_bridge(l, o) &&
		    !(o->flags & IFF_UP) && doc_finding_command(d, fix) < 0)
			return -1;
	}
	return 0;
}
