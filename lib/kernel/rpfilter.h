/* Reverse-path filtering and ARP: net.ipv4.conf.{all,IF}.rp_filter,
 * arp_ignore and arp_announce, read through the sysroot (a recorded tree
 * replays them). */
#ifndef NP_RPFILTER_H
#define NP_RPFILTER_H

#include <net/if.h>
#include <stddef.h>

#include <jansson.h>

#include "base/sysroot.h"
#include "kernel/iface.h"

#define RPF_MAX_IFACES 64

/* rp_filter: 0 none, 1 strict (RFC 3704: the packet must arrive on the
 * interface the route back to its source uses), 2 loose. arp_ignore 0-3
 * or 8 (which requests an interface answers), arp_announce 0-2 (which
 * source address its own requests carry): how a node with two NICs on one
 * subnet answers ARP (ARP flux). For each the kernel uses the larger of
 * all's and the interface's value. -1 unknown. */
struct rpf_facts {
	int all; /* conf/all/rp_filter */
	int all_arp_ignore, all_arp_announce;
	struct {
		char name[IF_NAMESIZE];
		int own; /* conf/IF/rp_filter */
		int arp_ignore, arp_announce;
	} v[RPF_MAX_IFACES];
	size_t n;
};

/* Reads conf/all and conf/IF for the first RPF_MAX_IFACES interfaces of l.
 * A value that cannot be read (or out of its range) is -1. Never fails. */
void rpfilter_collect(const struct sysroot *sr, const struct iface_list *l,
                      struct rpf_facts *f);

/* The mode the kernel validates packets arriving on ifname with: the
 * larger of all's and the interface's value (IN_DEV_MAXCONF, documented
 * in ip-sysctl under rp_filter); -1 when neither is known. */
int rpfilter_effective(const struct rpf_facts *f, const char *ifname);

/* The scan document's `ipv4_conf` object (issue 48: the scan records
 * rp_filter and arp_ignore/arp_announce per interface): "all" and each
 * interface read, each {rp_filter, arp_ignore, arp_announce} as the
 * sysctl holds it (null where unread). NULL on no memory. */
json_t *rpfilter_to_json(const struct rpf_facts *f);

#endif
