/* nic-noarp: an up interface that holds a LAN address with the NOARP flag
 * set (ip link set dev IF arp off). The kernel then answers no ARP
 * request and no neighbour solicitation on it, and sends none: it
 * addresses every frame to the interface's own MAC, so the node reaches
 * no neighbour and no neighbour reaches it (issue 48: blind48d 05,
 * systemd/systemd#4644, a [Link] section without ARP=yes). */
#include "decide/decide.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <linux/neighbour.h>

#include "kernel/neigh.h"

/* True for the kinds that resolve neighbours by ARP or neighbour
 * discovery: an Ethernet-like link or IPoIB. A dummy (kube-ipvs0,
 * nodelocaldns), an ipvlan in L3 mode, a tunnel, a tun or WireGuard set
 * NOARP by design and reach their peers without it. */
static bool resolves(const struct iface *ifc)
{
	switch (ifc->kind) {
	case IFK_PHYSICAL:
	case IFK_BRIDGE:
	case IFK_VETH:
	case IFK_VXLAN:
	case IFK_GENEVE:
	case IFK_MACVLAN:
	case IFK_MACVTAP:
	case IFK_BOND:
	case IFK_TEAM:
	case IFK_VLAN:
	case IFK_TAP:
	case IFK_INFINIBAND:
		return true;
	default:
		return false;
	}
}

/* The first global address with room for a neighbour in its prefix (not
 * an IPv4 /32 or an IPv6 /128, which a service address or a VIP holds
 * alone), or NULL. */
static const struct iface_addr *lan_addr(const struct iface *ifc)
{
	for (int i = 0; i < ifc->naddrs; i++) {
		const struct iface_addr *a = &ifc->addrs[i];

		if (decide_addr_global(a) &&
		    a->prefixlen < (a->family == AF_INET ? 32 : 128))
			return a;
	}
	return NULL;
}

/* See decide.h. */
bool decide_noarp_lan(const struct iface *ifc)
{
	return (ifc->flags & IFF_NOARP) && (ifc->flags & IFF_UP) &&
	       !(ifc->flags & IFF_POINTOPOINT) && !decide_is_loopback(ifc) &&
	       ifc->master_index == 0 && resolves(ifc) &&
	       lan_addr(ifc) != NULL;
}

/* True when the table holds a PERMANENT entry on the interface with
 * another MAC than its own: neighbours set by hand, as a deliberate
 * NOARP setup has them (the kernel's own entries on a NOARP interface
 * carry the interface's MAC and are NOARP, not PERMANENT). */
static bool static_setup(const struct iface *ifc,
                         const struct neigh_statics *st)
{
	for (size_t i = 0; st != NULL && i < st->n; i++)
		if (st->v[i].ifindex == ifc->index &&
		    (st->v[i].state & NUD_PERMANENT) &&
		    strcasecmp(st->v[i].lladdr, ifc->mac) != 0)
			return true;
	return false;
}

/* One fault per such interface, with the command that turns ARP on.
 * Silent for an interface that is down, holds only /32 or /128 (or
 * link-local) addresses, is point-to-point, a port of a master, of a
 * kind that never resolves neighbours, or has neighbours set by hand. */
int decide_noarp(const struct iface_list *l, const struct neigh_statics *st,
                 struct doc *d)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct iface *ifc = &l->v[i];
		const struct iface_addr *a;
		json_t *ev = NULL;
		char words[96], cmd[64];

		if (!decide_noarp_lan(ifc) || static_setup(ifc, st) ||
		    (a = lan_addr(ifc)) == NULL)
			continue;
		decide_state_words(ifc, words, sizeof(words));
		evidence_add(&ev, "netlink", "%s has the NOARP flag and is %s",
		             ifc->name, words);
		evidence_add(&ev, "netlink", "%s has %s/%u, a %s prefix with "
		             "room for neighbours", ifc->name, a->str,
		             a->prefixlen, a->family == AF_INET ? "IPv4"
		                                                : "IPv6");
		snprintf(cmd, sizeof(cmd), "ip link set dev %s arp on",
		         ifc->name);
		if (doc_add_finding(
		        d, FINDING_NIC_NOARP, -1, ev, cmd,
		        "%s has the NOARP flag while it holds %s/%u: it answers "
		        "no ARP or neighbour solicitation and sends none, so "
		        "this node reaches no neighbour by it and none reaches "
		        "it",
		        ifc->name, a->str, a->prefixlen) < 0 ||
		    doc_finding_command(d, cmd) < 0)
			return -1;
	}
	return 0;
}
