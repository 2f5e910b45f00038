/* Fills struct iface_list from getifaddrs, so ncclcheck predicts NCCL's
 * interface choice with nccl_select and needs no netlink library. */
#include "kernel/iface.h"
#include "preflight/preflight.h"

#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

/* Prefix length of a netmask. */
static unsigned mask_len(const struct sockaddr *m)
{
	const unsigned char *p;
	unsigned n = 0, bytes;

	if (m == NULL)
		return 0;
	if (m->sa_family == AF_INET) {
		p = (const unsigned char *)&((const struct sockaddr_in *)m)
			    ->sin_addr;
		bytes = 4;
	} else if (m->sa_family == AF_INET6) {
		p = ((const struct sockaddr_in6 *)m)->sin6_addr.s6_addr;
		bytes = 16;
	} else {
		return 0;
	}
	for (unsigned i = 0; i < bytes; i++)
		for (int b = 7; b >= 0; b--)
			if (p[i] & (1u << b))
				n++;
	return n;
}

/* One interface per name, addresses in getifaddrs order. */
int nc_ifaddrs_list(struct iface_list *l)
{
	struct ifaddrs *ifa = NULL;

	if (getifaddrs(&ifa) < 0)
		return -1;
	for (struct ifaddrs *a = ifa; a != NULL; a = a->ifa_next) {
		struct iface *ifc = (struct iface *)iface_by_name(l, a->ifa_name);
		const void *addr;
		unsigned scope = 0;

		if (ifc == NULL) {
			ifc = iface_list_add(l);
			if (ifc == NULL) {
				freeifaddrs(ifa);
				errno = ENOMEM;
				return -1;
			}
			snprintf(ifc->name, sizeof(ifc->name), "%s",
				 a->ifa_name);
			ifc->index = (int)if_nametoindex(a->ifa_name);
			ifc->flags = a->ifa_flags;
			ifc->kind = (a->ifa_flags & IFF_LOOPBACK) ?
					    IFK_LOOPBACK : IFK_UNKNOWN;
		}
		if (a->ifa_addr == NULL)
			continue;
		if (a->ifa_addr->sa_family == AF_INET) {
			addr = &((struct sockaddr_in *)a->ifa_addr)->sin_addr;
			if (ifc->flags & IFF_LOOPBACK)
				scope = 254;
		} else if (a->ifa_addr->sa_family == AF_INET6) {
			const struct in6_addr *a6 =
				&((struct sockaddr_in6 *)a->ifa_addr)->sin6_addr;

			addr = a6;
			if (IN6_IS_ADDR_LINKLOCAL(a6))
				scope = 253;
			else if (IN6_IS_ADDR_LOOPBACK(a6))
				scope = 254;
		} else {
			continue;
		}
		iface_add_addr(ifc, a->ifa_addr->sa_family, addr,
			       mask_len(a->ifa_netmask), scope);
	}
	freeifaddrs(ifa);
	return 0;
}
