/* RTM_NEWLINK messages into struct iface: kind, links between interfaces
 * (master, veth peer, parent, vxlan underlay), state, MTU and MAC. */
#include "kernel/nl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>
#include <linux/rtnetlink.h>

/* Nested attributes: same checks on the payload of one attribute. */
static int nest_table(const struct nlattr *nest, const struct nlattr **tb,
                      unsigned max, const enum mnl_attr_data_type *types)
{
	return nl_attr_table(mnl_attr_get_payload(nest),
	                     mnl_attr_get_payload_len(nest), tb, max, types);
}

/* MACVLAN_MODE_* as `ip -d link` names them. */
static const char *macvlan_mode_name(uint32_t m)
{
	switch (m) {
	case MACVLAN_MODE_PRIVATE:
		return "private";
	case MACVLAN_MODE_VEPA:
		return "vepa";
	case MACVLAN_MODE_BRIDGE:
		return "bridge";
	case MACVLAN_MODE_PASSTHRU:
		return "passthru";
	case MACVLAN_MODE_SOURCE:
		return "source";
	default:
		return "unknown";
	}
}

/* IPVLAN_MODE_* as `ip -d link` names them. */
static const char *ipvlan_mode_name(uint16_t m)
{
	switch (m) {
	case IPVLAN_MODE_L2:
		return "l2";
	case IPVLAN_MODE_L3:
		return "l3";
	case IPVLAN_MODE_L3S:
		return "l3s";
	default:
		return "unknown";
	}
}

/* IFLA_INFO_DATA differs per kind; only what the model holds is read. */
static int parse_info_data(const struct nlattr *data, struct iface *ifc)
{
	const struct nlattr *tb[IFLA_VXLAN_MAX + 16];
	enum mnl_attr_data_type t[IFLA_VXLAN_MAX + 16] = {0};
	unsigned max;

	switch (ifc->kind) {
	case IFK_VXLAN:
		return nl_parse_vxlan(data, ifc);
	case IFK_MACVLAN:
	case IFK_MACVTAP:
		max = IFLA_MACVLAN_MODE;
		t[IFLA_MACVLAN_MODE] = MNL_TYPE_U32;
		break;
	case IFK_IPVLAN:
		max = IFLA_IPVLAN_MODE;
		t[IFLA_IPVLAN_MODE] = MNL_TYPE_U16;
		break;
	case IFK_VLAN:
		max = IFLA_VLAN_ID;
		t[IFLA_VLAN_ID] = MNL_TYPE_U16;
		break;
	case IFK_TUN:
		max = IFLA_TUN_TYPE;
		t[IFLA_TUN_TYPE] = MNL_TYPE_U8;
		break;
	default:
		return 0;
	}
	if (nest_table(data, tb, max, t) < 0)
		return -1;
	switch (ifc->kind) {
	case IFK_MACVLAN:
	case IFK_MACVTAP:
		if (tb[IFLA_MACVLAN_MODE])
			snprintf(ifc->macvlan_mode, sizeof(ifc->macvlan_mode),
			         "%s",
			         macvlan_mode_name(
			             mnl_attr_get_u32(tb[IFLA_MACVLAN_MODE])));
		break;
	case IFK_IPVLAN:
		if (tb[IFLA_IPVLAN_MODE])
			snprintf(ifc->macvlan_mode, sizeof(ifc->macvlan_mode),
			         "%s",
			         ipvlan_mode_name(
			             mnl_attr_get_u16(tb[IFLA_IPVLAN_MODE])));
		break;
	case IFK_VLAN:
		if (tb[IFLA_VLAN_ID])
			ifc->vlan_id = mnl_attr_get_u16(tb[IFLA_VLAN_ID]);
		break;
	case IFK_TUN:
		if (tb[IFLA_TUN_TYPE] &&
		    mnl_attr_get_u8(tb[IFLA_TUN_TYPE]) == IFF_TAP)
			ifc->kind = IFK_TAP;
		break;
	default:
		break;
	}
	return 0;
}

/* IFLA_LINKINFO: the kind's name, then its data. */
static int parse_linkinfo(const struct nlattr *li, struct iface *ifc)
{
	static const enum mnl_attr_data_type t[IFLA_INFO_MAX + 1] = {
	    [IFLA_INFO_KIND] = MNL_TYPE_STRING,
	    [IFLA_INFO_DATA] = MNL_TYPE_NESTED,
	};
	const struct nlattr *tb[IFLA_INFO_MAX + 1];

	if (nest_table(li, tb, IFLA_INFO_MAX, t) < 0)
		return -1;
	if (tb[IFLA_INFO_KIND]) {
		size_t n = mnl_attr_get_payload_len(tb[IFLA_INFO_KIND]);
		const char *s = mnl_attr_get_payload(tb[IFLA_INFO_KIND]);

		/* The kernel includes the NUL; be lenient if it is absent. */
		n = strnlen(s, n);
		if (n >= sizeof(ifc->kind_str))
			n = sizeof(ifc->kind_str) - 1;
		memcpy(ifc->kind_str, s, n);
		ifc->kind_str[n] = '\0';
		ifc->kind = iface_kind_from_str(ifc->kind_str);
	}
	if (tb[IFLA_INFO_DATA] && parse_info_data(tb[IFLA_INFO_DATA], ifc) < 0)
		return -1;
	return 0;
}

/* One RTM_NEWLINK message appended to the list. */
int nl_parse_link(const struct nlmsghdr *nlh, struct iface_list *l)
{
	static const enum mnl_attr_data_type t[IFLA_MAX + 1] = {
	    [IFLA_IFNAME] = MNL_TYPE_NUL_STRING,
	    [IFLA_MTU] = MNL_TYPE_U32,
	    [IFLA_MASTER] = MNL_TYPE_U32,
	    [IFLA_LINK] = MNL_TYPE_U32,
	    [IFLA_LINK_NETNSID] = MNL_TYPE_U32,
	    [IFLA_OPERSTATE] = MNL_TYPE_U8,
	    [IFLA_CARRIER] = MNL_TYPE_U8,
	    [IFLA_LINKINFO] = MNL_TYPE_NESTED,
	};
	const struct nlattr *tb[IFLA_MAX + 1];
	const struct ifinfomsg *ifm;
	struct iface tmp, *ifc;
	const char *name;

	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*ifm) ||
	    nlh->nlmsg_type != RTM_NEWLINK)
		goto bad;
	ifm = mnl_nlmsg_get_payload(nlh);
	if (ifm->ifi_index <= 0)
		goto bad;
	if (nl_attr_table(mnl_nlmsg_get_payload_offset(nlh, sizeof(*ifm)),
	                  nlh->nlmsg_len - MNL_NLMSG_HDRLEN -
	                      MNL_ALIGN(sizeof(*ifm)),
	                  tb, IFLA_MAX, t) < 0)
		goto bad;
	if (tb[IFLA_IFNAME] == NULL)
		goto bad;
	name = mnl_attr_get_str(tb[IFLA_IFNAME]);
	if (*name == '\0' || strlen(name) >= IF_NAMESIZE)
		goto bad;

	/* Filled aside first so a malformed tail leaves the list alone. */
	memset(&tmp, 0, sizeof(tmp));
	tmp.operstate = -1;
	tmp.carrier = -1;
	tmp.link_netnsid = -1;
	tmp.speed_mbps = -1;
	tmp.numa_node = -1;
	tmp.brport_state = -1;
	tmp.br_stp = -1;
	tmp.vxlan_learning = -1;
	tmp.vxlan_proxy = tmp.vxlan_l2miss = tmp.vxlan_l3miss = -1;
	tmp.index = ifm->ifi_index;
	snprintf(tmp.name, sizeof(tmp.name), "%s", name);
	tmp.flags = ifm->ifi_flags;
	if (tb[IFLA_MTU])
		tmp.mtu = mnl_attr_get_u32(tb[IFLA_MTU]);
	if (tb[IFLA_OPERSTATE])
		tmp.operstate = mnl_attr_get_u8(tb[IFLA_OPERSTATE]);
	if (tb[IFLA_CARRIER])
		tmp.carrier = mnl_attr_get_u8(tb[IFLA_CARRIER]) ? 1 : 0;
	if (tb[IFLA_MASTER])
		tmp.master_index = (int)mnl_attr_get_u32(tb[IFLA_MASTER]);
	if (tb[IFLA_LINK_NETNSID])
		tmp.link_netnsid = (int)mnl_attr_get_u32(tb[IFLA_LINK_NETNSID]);
	if (tb[IFLA_LINK]) {
		int link = (int)mnl_attr_get_u32(tb[IFLA_LINK]);

		/* A peer in another netns may carry our own index number. */
		if (link != tmp.index || tmp.link_netnsid >= 0)
			tmp.link_index = link;
	}
	if (tb[IFLA_ADDRESS] &&
	    mnl_attr_get_payload_len(tb[IFLA_ADDRESS]) == 6) {
		const uint8_t *m = mnl_attr_get_payload(tb[IFLA_ADDRESS]);

		snprintf(tmp.mac, sizeof(tmp.mac),
		         "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
		         m[3], m[4], m[5]);
	}
	if (tb[IFLA_LINKINFO] && parse_linkinfo(tb[IFLA_LINKINFO], &tmp) < 0)
		goto bad;
	if (tmp.kind == IFK_UNKNOWN) {
		if (tmp.flags & IFF_LOOPBACK)
			tmp.kind = IFK_LOOPBACK;
		else if (ifm->ifi_type == ARPHRD_INFINIBAND)
			tmp.kind = IFK_INFINIBAND;
	}
	ifc = iface_list_add(l);
	if (ifc == NULL)
		return -1;
	*ifc = tmp;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}
