/* netprobe mesh on a member whose connects toward node 0 fail on this
 * node itself (issue 48): EADDRNOTAVAIL ("Cannot assign requested
 * address") is no route's, firewall's or path's doing, no packet left;
 * the node has no source port left in its ephemeral range. Its own
 * stderr is where that is said, with the range and the fix: node 0 never
 * gets this member's document. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/sysroot.h"
#include "kernel/portrange.h"
#include "mesh/mesh_int.h"

/* See mesh_int.h. */
bool mesh_limit_hint(int sys_errno, char *buf, size_t len)
{
	struct sysroot sr;
	unsigned lo, hi;

	if (len == 0 || (sys_errno != EADDRNOTAVAIL && sys_errno != EADDRINUSE))
		return false;
	if (sysroot_init(&sr, NULL) < 0 || port_range_read(&sr, &lo, &hi) < 0) {
		snprintf(buf, len,
		         "; this node has no source port left for the "
		         "connection (no packet left it: neither node 0's "
		         "firewall nor the path): see its "
		         "net.ipv4.ip_local_port_range (cannot read it: %s)",
		         strerror(errno));
		return true;
	}
	snprintf(buf, len,
	         "; this node has no source port left for the connection "
	         "(no packet left it: neither node 0's firewall nor the "
	         "path): its net.ipv4.ip_local_port_range is %u-%u (%u "
	         "ports), which its own listeners and connections hold; fix "
	         "on this node: sysctl -w "
	         "net.ipv4.ip_local_port_range=\"32768 60999\"",
	         lo, hi, hi - lo + 1);
	return true;
}
