/* Default routes of a recorded sysroot, from /proc/net/route and
 * /proc/net/ipv6_route in the kernel's own formats. */
#include "kernel/nl.h"
#include "kernel/proc_route.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/route.h>
#include <linux/rtnetlink.h>

#define PROC_BUF (256 * 1024)

/* ifindex of a recorded interface, 0 when unknown. */
static int recorded_index(const struct sysroot *sr, const char *name)
{
	long long v;

	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/class/net/%s/ifindex", name);
	return sysroot_read_ll(sr, path, &v) == 0 && v > 0 && v <= INT32_MAX
	           ? (int)v
	           : 0;
}

/* Default routes: /proc/net/route rows with destination and mask 0, then
 * /proc/net/ipv6_route rows "::/0" that are up and not reject routes. */
int route_defaults_replay(const struct sysroot *sr, struct route_info *out,
                          size_t max, size_t *n)
{
	char *buf = malloc(PROC_BUF), *line, *save = NULL;
	bool any = false;

	*n = 0;
	if (buf == NULL)
		return -1;
	/* a file that is there but cannot be read (a FIFO in its place)
	 * fails the whole read: a route table half read is a wrong one */
	if (sysroot_odd_kind(sr, "/proc/net/route") != NULL ||
	    sysroot_odd_kind(sr, "/proc/net/ipv6_route") != NULL) {
		free(buf);
		errno = EINVAL;
		return -1;
	}
	if (sysroot_read(sr, "/proc/net/route", buf, PROC_BUF) >= 0) {
		any = true;
		line = strtok_r(buf, "\n", &save);
		while (line != NULL && *n < max) {
			struct proc_route row;
			struct route_info *r = &out[*n];

			line = strtok_r(NULL, "\n", &save);
			if (line == NULL)
				break;
			if (proc_route_parse(line, &row) < 0 || row.dst != 0 ||
			    row.mask != 0 || !(row.flags & PROC_ROUTE_UP))
				continue;
			memset(r, 0, sizeof(*r));
			r->family = AF_INET;
			snprintf(r->destination, sizeof(r->destination),
			         "default");
			nl_copy(r->out_interface, sizeof(r->out_interface),
			        row.dev);
			r->oif = recorded_index(sr, row.dev);
			if ((row.flags & PROC_ROUTE_GATEWAY) && row.gw != 0)
				inet_ntop(AF_INET, &row.gw, r->gateway,
				          sizeof(r->gateway));
			r->metric = (int)row.metric;
			r->table = RT_TABLE_MAIN;
			(*n)++;
		}
	}
	save = NULL;
	if (sysroot_read(sr, "/proc/net/ipv6_route", buf, PROC_BUF) >= 0) {
		any = true;
		for (line = strtok_r(buf, "\n", &save);
		     line != NULL && *n < max;
		     line = strtok_r(NULL, "\n", &save)) {
			char dst[33], nh[33], dev[IF_NAMESIZE];
			unsigned plen, metric, flags;
			struct route_info *r = &out[*n];
			struct in6_addr a;

			if (sscanf(line,
			           "%32s %x %*s %*x %32s %x %*x %*x %x %15s",
			           dst, &plen, nh, &metric, &flags, dev) != 6 ||
			    strcmp(dst, "00000000000000000000000000000000") !=
			        0 ||
			    plen != 0 || !(flags & RTF_UP) ||
			    (flags & RTF_REJECT) || strlen(nh) != 32)
				continue;
			memset(r, 0, sizeof(*r));
			r->family = AF_INET6;
			snprintf(r->destination, sizeof(r->destination),
			         "default");
			nl_copy(r->out_interface, sizeof(r->out_interface),
			        dev);
			r->oif = recorded_index(sr, dev);
			if (flags & RTF_GATEWAY) {
				for (int i = 0; i < 16; i++) {
					unsigned byte = 0;

					(void)sscanf(nh + 2 * i, "%2x", &byte);
					a.s6_addr[i] = (uint8_t)byte;
				}
				inet_ntop(AF_INET6, &a, r->gateway,
				          sizeof(r->gateway));
			}
			r->metric = (int)metric;
			r->table = RT_TABLE_MAIN;
			(*n)++;
		}
	}
	free(buf);
	if (!any) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}
