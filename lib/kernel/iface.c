/* Interface list storage, lookups and the naming pass every collector
 * (netlink, replay, getifaddrs) ends with, and small predicates shared by
 * every decider. */
#include "kernel/iface.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct iface *iface_list_add(struct iface_list *l)
{
	struct iface *ifc;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct iface *v = realloc(l->v, cap * sizeof(*v));

		if (v == NULL)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	ifc = &l->v[l->n++];
	memset(ifc, 0, sizeof(*ifc));
	ifc->operstate = -1;
	ifc->carrier = -1;
	ifc->link_netnsid = -1;
	ifc->speed_mbps = -1;
	ifc->numa_node = -1;
	ifc->brport_state = -1;
	ifc->br_stp = -1;
	ifc->vxlan_learning = -1;
	ifc->vxlan_proxy = ifc->vxlan_l2miss = ifc->vxlan_l3miss = -1;
	return ifc;
}

void iface_list_free(struct iface_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

const struct iface *iface_by_index(const struct iface_list *l, int index)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].index == index)
			return &l->v[i];
	return NULL;
}

const struct iface *iface_by_name(const struct iface_list *l,
				  const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

/* qsort/bsearch order: ascending ifindex. */
static int cmp_index(const void *a, const void *b)
{
	const struct iface *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* Lists filled by iface_collect are sorted before lookups; hand-built
 * lists in tests may not be, so a miss falls back to a scan. */
struct iface *iface_find_index(struct iface_list *l, int index)
{
	struct iface key = {.index = index}, *hit;

	if (l->n == 0)
		return NULL;
	hit = bsearch(&key, l->v, l->n, sizeof(*l->v), cmp_index);
	if (hit != NULL)
		return hit;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].index == index)
			return &l->v[i];
	return NULL;
}

/* Names from indexes, and members listed on their master. */
void iface_list_finish(struct iface_list *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp_index);
	for (size_t i = 0; i < l->n; i++)
		l->v[i].nslaves = 0;
	for (size_t i = 0; i < l->n; i++) {
		struct iface *ifc = &l->v[i], *m;

		if (ifc->master_index > 0 &&
		    (m = iface_find_index(l, ifc->master_index)) != NULL) {
			snprintf(ifc->master, sizeof(ifc->master), "%s",
			         m->name);
			if (m->nslaves < 8)
				snprintf(m->slaves[m->nslaves++],
				         sizeof(m->slaves[0]), "%s", ifc->name);
		}
		if (ifc->link_index > 0 && ifc->link_netnsid < 0 &&
		    (m = iface_find_index(l, ifc->link_index)) != NULL)
			snprintf(ifc->parent, sizeof(ifc->parent), "%s",
			         m->name);
		/* vxlan has no IFLA_LINK: its underlay is its parent. */
		if (ifc->kind == IFK_VXLAN && ifc->vxlan_link > 0 &&
		    (m = iface_find_index(l, ifc->vxlan_link)) != NULL)
			snprintf(ifc->parent, sizeof(ifc->parent), "%s",
			         m->name);
	}
}


int iface_add_addr(struct iface *ifc, int family, const void *addr,
		   unsigned prefixlen, unsigned scope)
{
	struct iface_addr *a;

	if (ifc->naddrs >= IFACE_MAX_ADDRS ||
	    (family != AF_INET && family != AF_INET6)) {
		errno = family == AF_INET || family == AF_INET6 ? ENOSPC
								: EAFNOSUPPORT;
		return -1;
	}
	a = &ifc->addrs[ifc->naddrs++];
	memset(a, 0, sizeof(*a));
	a->family = family;
	if (family == AF_INET)
		memcpy(&a->a.v4, addr, sizeof(a->a.v4));
	else
		memcpy(&a->a.v6, addr, sizeof(a->a.v6));
	a->prefixlen = (uint8_t)prefixlen;
	a->scope = (uint8_t)scope;
	inet_ntop(family, &a->a, a->str, sizeof(a->str));
	return 0;
}

const struct iface_addr *iface_first_v4(const struct iface *ifc)
{
	for (int i = 0; i < ifc->naddrs; i++)
		if (ifc->addrs[i].family == AF_INET)
			return &ifc->addrs[i];
	return NULL;
}

bool iface_is_running(const struct iface *ifc)
{
	return (ifc->flags & IFF_UP) && (ifc->flags & IFF_RUNNING);
}

bool iface_is_virtual(const struct iface *ifc)
{
	switch (ifc->kind) {
	case IFK_PHYSICAL:
	case IFK_INFINIBAND:
	case IFK_BOND:
	case IFK_TEAM:
	case IFK_VLAN:
	case IFK_MACVLAN:
	case IFK_IPVLAN:
	case IFK_UNKNOWN:
		return false;
	default:
		return true;
	}
}

static const char *const kind_names[] = {
	[IFK_UNKNOWN] = "unknown",     [IFK_PHYSICAL] = "physical",
	[IFK_LOOPBACK] = "loopback",   [IFK_BRIDGE] = "bridge",
	[IFK_VETH] = "veth",           [IFK_VXLAN] = "vxlan",
	[IFK_GENEVE] = "geneve",       [IFK_MACVLAN] = "macvlan",
	[IFK_MACVTAP] = "macvtap",     [IFK_IPVLAN] = "ipvlan",
	[IFK_BOND] = "bond",           [IFK_TEAM] = "team",
	[IFK_VLAN] = "vlan",           [IFK_TUN] = "tun",
	[IFK_TAP] = "tap",             [IFK_WIREGUARD] = "wireguard",
	[IFK_DUMMY] = "dummy",         [IFK_INFINIBAND] = "infiniband",
	[IFK_IPIP] = "tunnel",         [IFK_OTHER] = "other",
};

const char *iface_kind_name(enum iface_kind k)
{
	if ((size_t)k >= sizeof(kind_names) / sizeof(kind_names[0]))
		return "unknown";
	return kind_names[k];
}

enum iface_kind iface_kind_from_str(const char *s)
{
	static const struct {
		const char *name;
		enum iface_kind kind;
	} map[] = {
		{"bridge", IFK_BRIDGE},     {"veth", IFK_VETH},
		{"vxlan", IFK_VXLAN},       {"geneve", IFK_GENEVE},
		{"macvlan", IFK_MACVLAN},   {"macvtap", IFK_MACVTAP},
		{"ipvlan", IFK_IPVLAN},     {"ipvtap", IFK_IPVLAN},
		{"bond", IFK_BOND},         {"team", IFK_TEAM},
		{"vlan", IFK_VLAN},         {"tun", IFK_TUN},
		{"wireguard", IFK_WIREGUARD}, {"dummy", IFK_DUMMY},
		{"ipoib", IFK_INFINIBAND},  {"ipip", IFK_IPIP},
		{"sit", IFK_IPIP},          {"gre", IFK_IPIP},
		{"gretap", IFK_IPIP},       {"ip6tnl", IFK_IPIP},
		{"ip6gre", IFK_IPIP},       {"vti", IFK_IPIP},
	};

	if (s == NULL || *s == '\0')
		return IFK_UNKNOWN;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(s, map[i].name) == 0)
			return map[i].kind;
	return IFK_OTHER;
}

bool iface_addr_in_prefix(const struct iface_addr *a, int family,
			  const void *addr)
{
	const uint8_t *x, *y;
	unsigned bits = a->prefixlen, full, rem;

	if (a->family != family)
		return false;
	x = (const uint8_t *)&a->a;
	y = addr;
	if (bits > (family == AF_INET ? 32u : 128u))
		return false;
	full = bits / 8;
	rem = bits % 8;
	if (memcmp(x, y, full) != 0)
		return false;
	if (rem == 0)
		return true;
	return ((x[full] ^ y[full]) & (uint8_t)(0xff << (8 - rem))) == 0;
}
