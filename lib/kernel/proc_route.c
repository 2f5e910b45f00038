/* /proc/net/route rows: one sscanf for every reader of the table. */
#include "kernel/proc_route.h"

#include <stdio.h>

/* The header's "Iface Destination..." fails the hex conversions. */
int proc_route_parse(const char *line, struct proc_route *r)
{
	unsigned dst, gw, mask;

	if (sscanf(line, "%15s %x %x %x %*d %*u %u %x", r->dev, &dst, &gw,
		   &r->flags, &r->metric, &mask) != 6)
		return -1;
	r->dst = dst;
	r->gw = gw;
	r->mask = mask;
	return 0;
}
