/* netprobe mesh on a member that could not join: what its own route
 * lookup toward node 0 shows (issue 31), for the message it prints. Node
 * 0 never gets this member's document, so the member's own stderr and
 * exit status are where its side of "cannot reach node 0" is said: a
 * route through a gateway, a policy table, or a device that is not the
 * cluster's is evidence of its own; a route that looks right leaves node
 * 0's firewall or the path, which node 0's report decides. A route by a
 * bridge's port that holds the address is the one case the member can
 * get around itself: it joins by the bridge (issue 48). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/nl.h"
#include "mesh/mesh_int.h"

/* See mesh_int.h. */
void mesh_route_toward(const char *node0, char *buf, size_t len)
{
	char addr[INET6_ADDRSTRLEN], via[INET6_ADDRSTRLEN + 8] = "";
	unsigned char raw[16];
	struct route_info ri;
	int fam;

	if (len == 0)
		return;
	buf[0] = '\0';
	mesh_entry_addr(node0, addr, sizeof(addr));
	if (addr[0] == '\0')
		return;
	fam = strchr(addr, ':') != NULL ? AF_INET6 : AF_INET;
	if (inet_pton(fam, addr, raw) != 1)
		return;
	memset(&ri, 0, sizeof(ri));
	if (route_get(fam, raw, &ri) < 0) {
		snprintf(buf, len,
		         "; this node has no route toward node 0 (%s): %s "
		         "(ip route get %s; ip rule)",
		         addr, strerror(errno), addr);
		return;
	}
	if (ri.gateway[0] != '\0')
		snprintf(via, sizeof(via), "via %s ", ri.gateway);
	snprintf(buf, len,
	         "; this node's route toward node 0 (%s): %sdev %s%s%s, table "
	         "%d (ip route get %s): if that is not the cluster's way, it "
	         "is why; else node 0's firewall or the path, which node 0's "
	         "report decides",
	         addr, via, ri.out_interface[0] ? ri.out_interface : "?",
	         ri.source[0] ? " src " : "", ri.source, ri.table, addr);
}

/* See mesh_int.h. */
bool mesh_bridge_way(const struct mesh *ms, char *dev, size_t dlen, char *src,
                     size_t slen)
{
	char addr[INET6_ADDRSTRLEN];
	unsigned char raw[16];
	struct route_info ri;
	const struct iface *port, *br;
	const struct iface_addr *a;
	int fam;

	if (ms->scan == NULL || dlen == 0 || slen == 0)
		return false;
	mesh_entry_addr(ms->node0, addr, sizeof(addr));
	fam = strchr(addr, ':') != NULL ? AF_INET6 : AF_INET;
	if (addr[0] == '\0' || inet_pton(fam, addr, raw) != 1)
		return false;
	memset(&ri, 0, sizeof(ri));
	if (route_get(fam, raw, &ri) < 0)
		return false;
	port = iface_by_name(&ms->scan->ifaces, ri.out_interface);
	if (port == NULL || port->master_index == 0)
		return false;
	br = iface_by_index(&ms->scan->ifaces, port->master_index);
	a = decide_global_addr(port, fam);
	if (br == NULL || br->kind != IFK_BRIDGE || !(br->flags & IFF_UP) ||
	    a == NULL)
		return false;
	snprintf(dev, dlen, "%s", br->name);
	snprintf(src, slen, "%s", ri.source[0] ? ri.source : a->str);
	return true;
}
