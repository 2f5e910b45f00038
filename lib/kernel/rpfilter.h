/* Reverse-path filtering: net.ipv4.conf.{all,IF}.rp_filter, read through
 * the sysroot (a recorded tree replays them). */
#ifndef NP_RPFILTER_H
#define NP_RPFILTER_H

#include <net/if.h>
#include <stddef.h>

#include "base/sysroot.h"
#include "kernel/iface.h"

#define RPF_MAX_IFACES 64

/* 0 none, 1 strict (RFC 3704: the packet must arrive on the interface the
 * route back to its source uses), 2 loose; -1 unknown. */
struct rpf_facts {
	int all; /* conf/all/rp_filter */
	struct {
		char name[IF_NAMESIZE];
		int own; /* conf/IF/rp_filter */
	} v[RPF_MAX_IFACES];
	size_t n;
};

/* Reads conf/all and conf/IF for the first RPF_MAX_IFACES interfaces of l.
 * A value that cannot be read is -1. Never fails. */
void rpfilter_collect(const struct sysroot *sr, const struct iface_list *l,
                      struct rpf_facts *f);

/* The mode the kernel validates packets arriving on ifname with: the
 * larger of all's and the interface's value (IN_DEV_MAXCONF, documented
 * in ip-sysctl under rp_filter); -1 when neither is known. */
int rpfilter_effective(const struct rpf_facts *f, const char *ifname);

#endif
