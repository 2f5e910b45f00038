/* One row of /proc/net/route, the IPv4 routing table as the kernel prints
 * it: read by the replay of a recorded sysroot and by the layering. */
#ifndef NP_PROC_ROUTE_H
#define NP_PROC_ROUTE_H

#include <net/if.h>
#include <stdint.h>

#define PROC_ROUTE_UP 0x1      /* RTF_UP */
#define PROC_ROUTE_GATEWAY 0x2 /* RTF_GATEWAY */

/* The kernel prints each __be32 with %08X, so dst, gw and mask read back
 * on the same host are already in network order. */
struct proc_route {
	char dev[IF_NAMESIZE];
	uint32_t dst, gw, mask;
	unsigned flags;  /* RTF_* */
	unsigned metric; /* printed with %d: -1 reads back as UINT_MAX */
};

/* Parses one row: "Iface Destination Gateway Flags RefCnt Use Metric
 * Mask ...". Returns 0, or -1 for the header line or a malformed row. */
int proc_route_parse(const char *line, struct proc_route *r);

#endif
