/* A peer cut off by this node's own routing table (issue 48, blind48c
 * 04): a multipath route that keeps hashing the peer's flows onto a next
 * hop that never answers (ecmp-dead-nexthop), or a blackhole, unreachable
 * or prohibit route that holds the peer's address (route-type-drop). From
 * the peers' verdicts: the lookup's next hop, the tables' route and its
 * next hops' neighbour states (scan_peers.c fills them). */
#ifndef NP_DECIDE_ECMP_H
#define NP_DECIDE_ECMP_H

#include "doc/doc.h"
#include "probe/peer.h"

/* The multipath sysctls, -1 where unread. */
struct mpath_conf {
	int use_neigh4; /* net.ipv4.fib_multipath_use_neigh */
	int hash4;      /* net.ipv4.fib_multipath_hash_policy */
	int hash6;      /* net.ipv6.fib_multipath_hash_policy */
};

/* An ecmp-dead-nexthop fault for each (route, dead next hop) that the
 * lookup toward a peer that did not answer picked, while a sibling hop is
 * live, naming every such peer, with the ip route replace command onto
 * the live hops; a route-type-drop fault for each drop route that holds
 * a peer, with the ip route del command where a unicast route would take
 * over. Silent for peers that answered, single-path routes, a lookup
 * that picked a live hop, and drop routes no peer's lookup met. Returns
 * 0, or -1 on no memory. */
int decide_route_drops(const struct peer_verdict *peers, size_t n,
                       const struct mpath_conf *mc, struct doc *d);

/* The index of the next hop of m that gateway gw names out of interface
 * ifname ("": any; two hops may share a gateway's address on two
 * interfaces), or -1. */
int decide_nexthop_of(const struct route_info *m, const char *gw,
                      const char *ifname);

#endif
