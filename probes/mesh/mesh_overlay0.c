/* netprobe mesh on a member that could not join: where its route toward
 * node 0 leaves by a VXLAN device, that device's VNI and UDP port for
 * the message it prints (issue 48, blind48d 01). A member whose overlay
 * runs another VNI or port than its peers' reaches none of them over it;
 * this node sees only its own device, so it cannot tell whether it is
 * the odd one, and names the command that decides. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "kernel/nl.h"
#include "mesh/mesh_int.h"

/* See mesh_int.h. */
void mesh_overlay_toward(const struct mesh *ms, char *buf, size_t len)
{
	char addr[INET6_ADDRSTRLEN], port[16] = "?";
	unsigned char raw[16];
	struct route_info ri;
	const struct iface *vx;
	int fam;

	if (len == 0)
		return;
	buf[0] = '\0';
	if (ms->scan == NULL)
		return;
	mesh_entry_addr(ms->node0, addr, sizeof(addr));
	fam = strchr(addr, ':') != NULL ? AF_INET6 : AF_INET;
	if (addr[0] == '\0' || inet_pton(fam, addr, raw) != 1)
		return;
	memset(&ri, 0, sizeof(ri));
	if (route_get(fam, raw, &ri) < 0)
		return;
	vx = iface_by_name(&ms->scan->ifaces, ri.out_interface);
	if (vx == NULL || vx->kind != IFK_VXLAN)
		return;
	if (vx->vxlan_port != 0)
		snprintf(port, sizeof(port), "%u", vx->vxlan_port);
	snprintf(buf, len,
	         "; that is the VXLAN overlay %s (VNI %u, UDP port %s%s%s%s%s): "
	         "a member whose overlay device has another VNI or port than "
	         "its peers' reaches none of them over it, and this node "
	         "cannot tell from here whether it is the odd one: compare "
	         "ip -d link show %s here with node 0's overlay device (the "
	         "same id and dstport on every member)",
	         vx->name, vx->vxlan_id, port,
	         vx->vxlan_local[0] ? ", local " : "", vx->vxlan_local,
	         vx->parent[0] ? " over " : "", vx->parent, vx->name);
}
