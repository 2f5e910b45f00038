/* Interface state and addressing: overlapping-subnets, interface-down,
 * no-usable-interface. */
#include "decide/decide.h"

#include <stdio.h>
#include <string.h>

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

/* A global address on a real subnet (not a /32 or /128 host address). */
static bool subnet_addr(const struct iface_addr *a)
{
	return decide_addr_global(a) &&
	       a->prefixlen < (a->family == AF_INET ? 32 : 128);
}

/* The interface the peers' routes use, or NULL. */
static const char *peer_ifname(const struct peer_verdict *peers, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (peers[i].local_ifname[0] != '\0')
			return peers[i].local_ifname;
	return NULL;
}

/* One overlapping-subnets finding for the pair of addresses. */
static void report_overlap(const struct iface *x, const struct iface_addr *a,
                           const struct iface *y, const struct iface_addr *b,
                           const char *via, struct doc *d)
{
	json_t *ev = NULL;
	char fix[160];

	evidence_add(&ev, "netlink", "%s has %s/%u", x->name, a->str,
	             a->prefixlen);
	evidence_add(&ev, "netlink", "%s has %s/%u", y->name, b->str,
	             b->prefixlen);
	if (via != NULL) {
		evidence_add(&ev, "route",
		             "the route toward the peers leaves by %s", via);
		snprintf(fix, sizeof(fix),
		         "fix the netmasks or route metrics, and pin %s (the "
		         "route's interface)",
		         via);
	}
	doc_add_finding(
	    d, "overlapping-subnets", -1, ev, via != NULL ? fix : NULL,
	    "%s and %s are on overlapping subnets %s/%u and %s/%u", x->name,
	    y->name, a->str, a->prefixlen, b->str, b->prefixlen);
}

/* Reports each overlapping pair of addresses of two interfaces, while
 * *found stays below MAX_OVERLAPS. */
static void pair_overlaps(const struct iface *x, const struct iface *y,
                          const char *via, int *found, struct doc *d)
{
	for (int p = 0; p < x->naddrs; p++) {
		for (int q = 0; q < y->naddrs; q++) {
			const struct iface_addr *a = &x->addrs[p];
			const struct iface_addr *b = &y->addrs[q];

			if (*found >= MAX_OVERLAPS || !subnet_addr(a) ||
			    !subnet_addr(b) || !prefixes_overlap(a, b))
				continue;
			(*found)++;
			report_overlap(x, a, y, b, via, d);
		}
	}
}

/* Overlapping prefixes make the kernel's route, not NCCL's choice, pick
 * the interface traffic leaves by. */
void decide_subnets(const struct iface_list *l,
                    const struct peer_verdict *peers, size_t npeers,
                    struct doc *d)
{
	const char *via = peer_ifname(peers, npeers);
	int found = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct iface *x = &l->v[i];

		if (decide_is_loopback(x) || !(x->flags & IFF_UP))
			continue;
		for (size_t j = i + 1; j < l->n; j++) {
			const struct iface *y = &l->v[j];

			if (!decide_is_loopback(y) && (y->flags & IFF_UP))
				pair_overlaps(x, y, via, &found, d);
		}
	}
}

/* The state of an interface in words, for evidence. */
static void state_words(const struct iface *ifc, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s",
	         (ifc->flags & IFF_UP) ? "administratively up" : "down",
	         (ifc->flags & IFF_UP) && !(ifc->flags & IFF_RUNNING)
	             ? ", not running"
	             : "",
	         ifc->carrier == 0 ? ", no carrier" : "");
}

/* An addressed interface that cannot carry traffic is usually the one
 * the user meant; with none usable, nothing can work. */
void decide_iface_state(const struct iface_list *l, struct doc *d)
{
	json_t *ev = NULL;
	bool usable = false;

	for (size_t i = 0; i < l->n; i++) {
		const struct iface *ifc = &l->v[i];
		const struct iface_addr *a;
		char st[96], fix[128];

		if (decide_is_loopback(ifc))
			continue;
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
		state_words(ifc, st, sizeof(st));
		evidence_add(&ev, "netlink", "%s has %s/%u and is %s",
		             ifc->name, a->str, a->prefixlen, st);
		if (!(ifc->flags & IFF_UP))
			snprintf(fix, sizeof(fix), "ip link set %s up",
			         ifc->name);
		else
			snprintf(fix, sizeof(fix),
			         "check the cable or the peer end of %s",
			         ifc->name);
		doc_add_finding(d, "interface-down", -1, ev, fix,
		                "%s has an address but is %s", ifc->name, st);
	}
	if (usable)
		return;
	ev = NULL;
	evidence_add(&ev, "netlink",
	             "%zu interfaces, none but loopback up and running with a "
	             "global address",
	             l->n);
	doc_add_finding(d, "no-usable-interface", -1, ev, NULL,
	                "nothing but loopback is up and addressed");
}
