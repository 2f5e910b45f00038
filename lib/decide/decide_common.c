/* Interface predicates every scan decider and the recommendation share,
 * and the environment NCCL would read, taken from the scan's. */
#include "decide/decide.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

/* NCCL reads three of the variables; a resolved NCCL_COMM_ID replaces a
 * name so the subnet rule can be applied. */
void scan_env_nccl(const struct scan_env *e, const char *comm_id_numeric,
                   struct nccl_env *out)
{
	out->socket_ifname = e->nccl_socket_ifname;
	out->socket_family = e->nccl_socket_family;
	out->comm_id =
	    comm_id_numeric != NULL ? comm_id_numeric : e->nccl_comm_id;
}

/* Loopback by flag, kind or name: replayed trees may lack one of them. */
bool decide_is_loopback(const struct iface *ifc)
{
	return (ifc->flags & IFF_LOOPBACK) || ifc->kind == IFK_LOOPBACK ||
	       strcmp(ifc->name, "lo") == 0;
}

/* Kind first; names catch what the kind misses (unknown kinds in replays,
 * CNI devices). */
bool decide_is_virtual(const struct iface *ifc)
{
	static const char *const prefixes[] = {
	    "docker", "br-",   "veth",    "cni",       "flannel", "cali",
	    "virbr",  "vxlan", "weave",   "tailscale", "wg",      "tun",
	    "tap",    "vnet",  "podman",  "cilium",    "kube-",   "lxc",
	    "lxdbr",  "genev", "vboxnet", "zt",
	};

	if (decide_is_loopback(ifc))
		return false;
	if (ifc->kind != IFK_UNKNOWN && iface_is_virtual(ifc))
		return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(ifc->name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* A bridge with no uplink cannot carry traffic to other hosts. */
bool decide_is_container_bridge(const struct iface_list *l,
                                const struct iface *ifc)
{
	/* the default route leaves by it: an uplink (issue 48: a LAN
	 * bridge whose port is a veth, as a lab's or a VM's uplink is) */
	if (ifc->kind != IFK_BRIDGE || ifc->default_route)
		return false;
	for (size_t i = 0; i < l->n; i++) {
		const struct iface *m = &l->v[i];

		if (m == ifc || m->master_index != ifc->index)
			continue;
		if (m->kind != IFK_VETH && m->kind != IFK_TAP &&
		    m->kind != IFK_TUN)
			return false;
	}
	/* a member named by the bridge but missing from the list is of an
	 * unknown kind: it may be an uplink */
	for (int i = 0; i < ifc->nslaves && i < 8; i++) {
		const struct iface *m = iface_by_name(l, ifc->slaves[i]);

		if (m == NULL || (m->kind != IFK_VETH && m->kind != IFK_TAP &&
		                  m->kind != IFK_TUN))
			return false;
	}
	return true;
}

/* Addresses peers could use: loopback, link-local and host scope cannot. */
bool decide_addr_global(const struct iface_addr *a)
{
	if (a->family == AF_INET) {
		uint32_t v = ntohl(a->a.v4.s_addr);

		if ((v >> 24) == 127 || (v >> 16) == 0xa9fe || v == 0)
			return false;
		return a->scope == 0;
	}
	if (a->family == AF_INET6) {
		if (IN6_IS_ADDR_LINKLOCAL(&a->a.v6) ||
		    IN6_IS_ADDR_LOOPBACK(&a->a.v6) ||
		    IN6_IS_ADDR_UNSPECIFIED(&a->a.v6) ||
		    IN6_IS_ADDR_MULTICAST(&a->a.v6))
			return false;
		return a->scope == 0;
	}
	return false;
}

/* IPv4 before IPv6, as NCCL orders them. */
const struct iface_addr *decide_global_addr(const struct iface *ifc, int family)
{
	static const int order[] = {AF_INET, AF_INET6};

	for (size_t f = 0; f < 2; f++) {
		if (family != AF_UNSPEC && family != order[f])
			continue;
		for (int i = 0; i < ifc->naddrs; i++)
			if (ifc->addrs[i].family == order[f] &&
			    decide_addr_global(&ifc->addrs[i]))
				return &ifc->addrs[i];
	}
	return NULL;
}

/* Up, running, and not known to lack carrier. */
bool decide_is_usable(const struct iface *ifc)
{
	return iface_is_running(ifc) && ifc->carrier != 0;
}

/* Whether bind() would accept the address here, judged from the list. */
bool decide_addr_is_local(const struct iface_list *l, int family,
                          const void *addr)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct iface *ifc = &l->v[i];

		for (int k = 0; k < ifc->naddrs; k++) {
			const struct iface_addr *a = &ifc->addrs[k];
			size_t len = family == AF_INET ? 4 : 16;

			if (a->family == family &&
			    memcmp(&a->a, addr, len) == 0)
				return true;
		}
		/* the kernel accepts all of 127/8 on an up loopback */
		if (decide_is_loopback(ifc) && (ifc->flags & IFF_UP) &&
		    family == AF_INET &&
		    ((const unsigned char *)addr)[0] == 127)
			return true;
	}
	return false;
}

/* A global address on a real subnet (not a /32 or /128 host address). */
bool decide_subnet_addr(const struct iface_addr *a)
{
	return decide_addr_global(a) &&
	       a->prefixlen < (a->family == AF_INET ? 32 : 128);
}

/* The peer's address as bytes. Returns its family, or AF_UNSPEC. */
int decide_peer_bytes(const struct peer_verdict *p, unsigned char out[16])
{
	if (inet_pton(AF_INET, p->peer_addr, out) == 1)
		return AF_INET;
	if (inet_pton(AF_INET6, p->peer_addr, out) == 1)
		return AF_INET6;
	return AF_UNSPEC;
}

/* Why an interface the route uses cannot carry traffic to other hosts,
 * or NULL when it can. */
const char *decide_dead_end(const struct iface_list *l, const struct iface *ifc)
{
	if (!(ifc->flags & IFF_UP))
		return "is down";
	if (!decide_is_usable(ifc))
		return "has no carrier";
	if (decide_is_container_bridge(l, ifc))
		return "is a bridge whose only members are veths (a container "
		       "or VM bridge): it reaches no other host";
	return NULL;
}

/* The state of an interface in words, for evidence. */
void decide_state_words(const struct iface *ifc, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s",
	         (ifc->flags & IFF_UP) ? "administratively up" : "down",
	         (ifc->flags & IFF_UP) && !(ifc->flags & IFF_RUNNING)
	             ? ", not running"
	             : "",
	         ifc->carrier == 0 ? ", no carrier" : "");
}
