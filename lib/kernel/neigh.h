/* The neighbour table (ARP for IPv4, neighbour discovery for IPv6) over
 * rtnetlink: whether the kernel could resolve the next hop toward an
 * address. After a probe got no answer, a FAILED or INCOMPLETE entry says
 * no host answers there: nothing to open in a firewall. */
#ifndef NP_NEIGH_H
#define NP_NEIGH_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/nl.h"

struct neigh_entry {
	int family;   /* AF_INET or AF_INET6 */
	int ifindex;
	unsigned state; /* NUD_* */
	char addr[INET6_ADDRSTRLEN];
	char lladdr[18]; /* "aa:bb:cc:dd:ee:ff" (NDA_LLADDR of six bytes),
			  * or "" */
};

#define NEIGH_MAX_STATIC 256

/* The static entries of a table: those an administrator (or a daemon)
 * set by hand, which never expire, so one left from an old MAC address
 * cuts a peer off for good (issue 48). */
struct neigh_statics {
	struct neigh_entry v[NEIGH_MAX_STATIC];
	size_t n;
	bool truncated; /* the table held more than NEIGH_MAX_STATIC */
};

/* One RTM_NEWNEIGH message into out (unit tests build it in memory).
 * Returns 0, or -1 with errno EINVAL on a malformed message or one that
 * is not a neighbour of AF_INET or AF_INET6 with an address. */
int nl_parse_neigh(const struct nlmsghdr *nlh, struct neigh_entry *out);

/* The entry for addr (family AF_INET or AF_INET6, 4 or 16 bytes) on
 * ifindex (0: any) from an RTM_GETNEIGH dump of this netns. Returns 1
 * with *out filled, 0 when the table has none, or -1 with errno. */
int neigh_get(int family, const void *addr, int ifindex,
	      struct neigh_entry *out);

/* True for an entry neigh_statics_get keeps: PERMANENT or NOARP with a
 * unicast, non-zero six-byte link-layer address (the kernel's own NOARP
 * entries for broadcast and multicast addresses are not kept). */
bool neigh_is_static(const struct neigh_entry *e);

/* The static entries of this netns, IPv4 and IPv6, from one
 * RTM_GETNEIGH dump per family, into out (zeroed first). Returns 0, or
 * -1 with errno. */
int neigh_statics_get(struct neigh_statics *out);

/* True when the state says resolution failed or never completed
 * (NUD_FAILED, NUD_INCOMPLETE). */
bool neigh_unresolved(unsigned state);

/* "reachable", "stale", "delay", "probe", "failed", "incomplete",
 * "noarp", "permanent", or "none" (0). */
const char *neigh_state_name(unsigned state);

#endif
