/* Unit tests for the rtnetlink parsers: link, address and route messages
 * built in memory with libmnl, for every kind the model knows (including
 * those this kernel lacks), and malformed or truncated ones. */
#include "kernel/nl.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>
#include <linux/rtnetlink.h>

#include "nl_fx.h"

START_TEST(link_veth_other_netns)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct nlattr *li;
	static const uint8_t mac[6] = {0x02, 0x42, 0xac, 0x11, 0x00, 0x02};
	const struct iface *i;

	nlh = link_msg(buf, 7, "eth0", IFF_UP | IFF_RUNNING | IFF_BROADCAST);
	mnl_attr_put_u32(nlh, IFLA_MTU, 1500);
	mnl_attr_put_u8(nlh, IFLA_OPERSTATE, IF_OPER_UP);
	mnl_attr_put_u8(nlh, IFLA_CARRIER, 1);
	mnl_attr_put(nlh, IFLA_ADDRESS, sizeof(mac), mac);
	mnl_attr_put_u32(nlh, IFLA_LINK, 12);
	mnl_attr_put_u32(nlh, IFLA_LINK_NETNSID, 0);
	put_kind(nlh, "veth", false, &li);
	i = parse1(&l, nlh);
	ck_assert_int_eq(i->index, 7);
	ck_assert_str_eq(i->name, "eth0");
	ck_assert_int_eq(i->kind, IFK_VETH);
	ck_assert_str_eq(i->kind_str, "veth");
	ck_assert_int_eq(i->link_index, 12);
	ck_assert_int_eq(i->link_netnsid, 0);
	ck_assert_int_eq(i->operstate, IF_OPER_UP);
	ck_assert_int_eq(i->carrier, 1);
	ck_assert_uint_eq(i->mtu, 1500);
	ck_assert_str_eq(i->mac, "02:42:ac:11:00:02");
	ck_assert(i->flags & IFF_RUNNING);
	iface_list_finish(&l);
	/* The peer lives in another netns: no local name for it. */
	ck_assert_str_eq(l.v[0].parent, "");
	/* A peer in another netns may have our own index number. */
	nlh = link_msg(buf, 2, "lan0", IFF_UP);
	mnl_attr_put_u32(nlh, IFLA_LINK, 2);
	mnl_attr_put_u32(nlh, IFLA_LINK_NETNSID, 1);
	put_kind(nlh, "veth", false, &li);
	i = parse1(&l, nlh);
	ck_assert_int_eq(i->link_index, 2);
	ck_assert_int_eq(i->link_netnsid, 1);
	/* Without a netns id, IFLA_LINK equal to the index means no link. */
	nlh = link_msg(buf, 11, "sit0", 0);
	mnl_attr_put_u32(nlh, IFLA_LINK, 11);
	ck_assert_int_eq(parse1(&l, nlh)->link_index, 0);
	iface_list_free(&l);
}
END_TEST

START_TEST(link_veth_same_netns_and_loopback)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct nlattr *li;

	nlh = link_msg(buf, 1, "lo", IFF_UP | IFF_LOOPBACK | IFF_RUNNING);
	parse1(&l, nlh);
	nlh = link_msg(buf, 3, "va", IFF_UP);
	mnl_attr_put_u32(nlh, IFLA_LINK, 2);
	put_kind(nlh, "veth", false, &li);
	parse1(&l, nlh);
	nlh = link_msg(buf, 2, "vb", IFF_UP);
	mnl_attr_put_u32(nlh, IFLA_LINK, 3);
	mnl_attr_put_u8(nlh, IFLA_CARRIER, 0);
	put_kind(nlh, "veth", false, &li);
	parse1(&l, nlh);
	iface_list_finish(&l);
	ck_assert_int_eq(l.v[0].kind, IFK_LOOPBACK);
	ck_assert_int_eq(l.v[1].index, 2); /* sorted by index */
	ck_assert_str_eq(l.v[1].parent, "va");
	ck_assert_str_eq(l.v[2].parent, "vb");
	ck_assert_int_eq(l.v[1].link_netnsid, -1);
	ck_assert_int_eq(l.v[1].carrier, 0);
	ck_assert_int_eq(l.v[2].carrier, -1);
	iface_list_free(&l);
}
END_TEST

START_TEST(link_bridge_and_bond_members)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct nlattr *li, *d;

	nlh = link_msg(buf, 10, "br0", IFF_UP);
	put_kind(nlh, "bridge", false, &li);
	parse1(&l, nlh);
	for (int i = 0; i < 10; i++) {
		char name[IF_NAMESIZE];

		snprintf(name, sizeof(name), "veth%d", i);
		nlh = link_msg(buf, 20 + i, name, IFF_UP);
		mnl_attr_put_u32(nlh, IFLA_MASTER, 10);
		put_kind(nlh, "veth", false, &li);
		parse1(&l, nlh);
	}
	nlh = link_msg(buf, 5, "bond0", IFF_UP | IFF_MASTER);
	d = put_kind(nlh, "bond", true, &li);
	mnl_attr_put_u8(nlh, IFLA_BOND_MODE, 4);
	end_kind(nlh, d, li);
	parse1(&l, nlh);
	nlh = link_msg(buf, 3, "ens1f0", IFF_UP | IFF_SLAVE);
	mnl_attr_put_u32(nlh, IFLA_MASTER, 5);
	parse1(&l, nlh);
	nlh = link_msg(buf, 4, "ens1f1", IFF_UP | IFF_SLAVE);
	mnl_attr_put_u32(nlh, IFLA_MASTER, 5);
	parse1(&l, nlh);
	iface_list_finish(&l);
	{
		const struct iface *br = iface_by_name(&l, "br0");
		const struct iface *bond = iface_by_name(&l, "bond0");
		const struct iface *s = iface_by_name(&l, "ens1f1");

		ck_assert_int_eq(br->kind, IFK_BRIDGE);
		ck_assert_int_eq(br->nslaves, 8); /* capped */
		ck_assert_str_eq(br->slaves[0], "veth0");
		ck_assert_str_eq(iface_by_name(&l, "veth9")->master, "br0");
		ck_assert_int_eq(bond->kind, IFK_BOND);
		ck_assert_int_eq(bond->nslaves, 2);
		ck_assert_str_eq(bond->slaves[0], "ens1f0");
		ck_assert_str_eq(bond->slaves[1], "ens1f1");
		ck_assert_str_eq(s->master, "bond0");
		ck_assert_int_eq(s->kind, IFK_UNKNOWN); /* sysfs decides */
	}
	/* Finishing twice does not list members twice. */
	iface_list_finish(&l);
	ck_assert_int_eq(iface_by_name(&l, "bond0")->nslaves, 2);
	iface_list_free(&l);
}
END_TEST

START_TEST(link_vlan_vxlan)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct nlattr *li, *d;
	const struct iface *i;

	nlh = link_msg(buf, 2, "eth0", IFF_UP);
	parse1(&l, nlh);
	nlh = link_msg(buf, 8, "eth0.100", IFF_UP);
	mnl_attr_put_u32(nlh, IFLA_LINK, 2);
	d = put_kind(nlh, "vlan", true, &li);
	mnl_attr_put_u16(nlh, IFLA_VLAN_ID, 100);
	end_kind(nlh, d, li);
	parse1(&l, nlh);
	nlh = link_msg(buf, 9, "vxlan42", IFF_UP);
	d = put_kind(nlh, "vxlan", true, &li);
	mnl_attr_put_u32(nlh, IFLA_VXLAN_ID, 42);
	mnl_attr_put_u32(nlh, IFLA_VXLAN_LINK, 2);
	mnl_attr_put_u16(nlh, IFLA_VXLAN_PORT, htons(4789));
	end_kind(nlh, d, li);
	parse1(&l, nlh);
	iface_list_finish(&l);
	i = iface_by_name(&l, "eth0.100");
	ck_assert_int_eq(i->kind, IFK_VLAN);
	ck_assert_uint_eq(i->vlan_id, 100);
	ck_assert_str_eq(i->parent, "eth0");
	i = iface_by_name(&l, "vxlan42");
	ck_assert_int_eq(i->kind, IFK_VXLAN);
	ck_assert_uint_eq(i->vxlan_id, 42);
	ck_assert_int_eq(i->vxlan_link, 2);
	ck_assert_str_eq(i->parent, "eth0");
	iface_list_free(&l);
}
END_TEST

START_TEST(link_macvlan_ipvlan_modes)
{
	static const struct {
		const char *kind;
		uint32_t mode;
		const char *want;
		enum iface_kind k;
	} cases[] = {
	    {"macvlan", MACVLAN_MODE_PRIVATE, "private", IFK_MACVLAN},
	    {"macvlan", MACVLAN_MODE_VEPA, "vepa", IFK_MACVLAN},
	    {"macvlan", MACVLAN_MODE_BRIDGE, "bridge", IFK_MACVLAN},
	    {"macvlan", MACVLAN_MODE_PASSTHRU, "passthru", IFK_MACVLAN},
	    {"macvlan", MACVLAN_MODE_SOURCE, "source", IFK_MACVLAN},
	    {"macvtap", MACVLAN_MODE_BRIDGE, "bridge", IFK_MACVTAP},
	    {"ipvlan", IPVLAN_MODE_L2, "l2", IFK_IPVLAN},
	    {"ipvlan", IPVLAN_MODE_L3, "l3", IFK_IPVLAN},
	    {"ipvlan", IPVLAN_MODE_L3S, "l3s", IFK_IPVLAN},
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(*cases); c++) {
		struct iface_list l = {0};
		char buf[BUFSZ];
		struct nlmsghdr *nlh;
		struct nlattr *li, *d;
		const struct iface *i;

		nlh = link_msg(buf, 4, "mv0", IFF_UP);
		mnl_attr_put_u32(nlh, IFLA_LINK, 9);
		mnl_attr_put_u32(nlh, IFLA_LINK_NETNSID, 3);
		d = put_kind(nlh, cases[c].kind, true, &li);
		if (cases[c].k == IFK_IPVLAN)
			mnl_attr_put_u16(nlh, IFLA_IPVLAN_MODE,
			                 (uint16_t)cases[c].mode);
		else
			mnl_attr_put_u32(nlh, IFLA_MACVLAN_MODE, cases[c].mode);
		end_kind(nlh, d, li);
		i = parse1(&l, nlh);
		ck_assert_int_eq(i->kind, cases[c].k);
		ck_assert_str_eq(i->macvlan_mode, cases[c].want);
		ck_assert_int_eq(i->link_index, 9);
		ck_assert_int_eq(i->link_netnsid, 3);
		iface_list_free(&l);
	}
}
END_TEST

START_TEST(link_tun_tap_wg_dummy_ipoib)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct nlattr *li, *d;
	struct ifinfomsg *ifm;

	nlh = link_msg(buf, 2, "tun0", IFF_UP | IFF_POINTOPOINT);
	d = put_kind(nlh, "tun", true, &li);
	mnl_attr_put_u8(nlh, IFLA_TUN_TYPE, IFF_TUN);
	end_kind(nlh, d, li);
	ck_assert_int_eq(parse1(&l, nlh)->kind, IFK_TUN);
	nlh = link_msg(buf, 3, "tap0", IFF_UP);
	d = put_kind(nlh, "tun", true, &li);
	mnl_attr_put_u8(nlh, IFLA_TUN_TYPE, IFF_TAP);
	end_kind(nlh, d, li);
	ck_assert_int_eq(parse1(&l, nlh)->kind, IFK_TAP);
	nlh = link_msg(buf, 4, "wg0", IFF_UP | IFF_NOARP);
	put_kind(nlh, "wireguard", false, &li);
	ck_assert_int_eq(parse1(&l, nlh)->kind, IFK_WIREGUARD);
	nlh = link_msg(buf, 5, "dummy0", 0);
	put_kind(nlh, "dummy", false, &li);
	ck_assert_int_eq(parse1(&l, nlh)->kind, IFK_DUMMY);
	nlh = link_msg(buf, 6, "ib0.8001", IFF_UP);
	mnl_attr_put_u32(nlh, IFLA_LINK, 7);
	put_kind(nlh, "ipoib", false, &li);
	ck_assert_int_eq(parse1(&l, nlh)->kind, IFK_INFINIBAND);
	nlh = link_msg(buf, 7, "ib0", IFF_UP);
	ifm = mnl_nlmsg_get_payload(nlh);
	ifm->ifi_type = ARPHRD_INFINIBAND;
	ck_assert_int_eq(parse1(&l, nlh)->kind, IFK_INFINIBAND);
	nlh = link_msg(buf, 8, "gre1", IFF_UP);
	put_kind(nlh, "frob", false, &li);
	ck_assert_int_eq(parse1(&l, nlh)->kind, IFK_OTHER);
	ck_assert_str_eq(l.v[l.n - 1].kind_str, "frob");
	iface_list_finish(&l);
	ck_assert_str_eq(iface_by_name(&l, "ib0.8001")->parent, "ib0");
	iface_list_free(&l);
}
END_TEST

START_TEST(link_malformed)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct nlattr *li, *a;

	/* No name. */
	nlh = link_msg(buf, 2, NULL, 0);
	ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* Index 0. */
	nlh = link_msg(buf, 0, "x", 0);
	ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	/* Wrong message type. */
	nlh = link_msg(buf, 2, "x", 0);
	nlh->nlmsg_type = RTM_NEWADDR;
	ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	/* Shorter than ifinfomsg. */
	nlh = link_msg(buf, 2, "x", 0);
	nlh->nlmsg_len = MNL_NLMSG_HDRLEN + 4;
	ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	/* Name without its NUL. */
	nlh = link_msg(buf, 2, NULL, 0);
	mnl_attr_put(nlh, IFLA_IFNAME, 4, "eth0");
	ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	/* Name too long for IF_NAMESIZE. */
	nlh = link_msg(buf, 2, "abcdefghijklmnopqrstuvwxyz", 0);
	ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	/* MTU of two bytes. */
	nlh = link_msg(buf, 2, "x", 0);
	mnl_attr_put_u16(nlh, IFLA_MTU, 1500);
	ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	/* An attribute claiming more bytes than the message holds. */
	nlh = link_msg(buf, 2, "x", 0);
	a = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, IFLA_MTU, 1500);
	a->nla_len = 200;
	ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	/* A linkinfo whose nested kind overruns it. */
	nlh = link_msg(buf, 2, "x", 0);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	a = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "vxlan");
	mnl_attr_nest_end(nlh, li);
	a->nla_len = 64;
	ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	/* vxlan data with a short VNI. */
	{
		struct nlattr *d;

		nlh = link_msg(buf, 2, "x", 0);
		d = put_kind(nlh, "vxlan", true, &li);
		mnl_attr_put_u16(nlh, IFLA_VXLAN_ID, 7);
		end_kind(nlh, d, li);
		ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	}
	ck_assert_uint_eq(l.n, 0);
	iface_list_free(&l);
}
END_TEST

/* Every truncation of a full message is rejected or parsed, never read
 * past (ASan in `make check SANITIZE=1` is the judge). */
START_TEST(link_every_truncation)
{
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct nlattr *li, *d;
	uint32_t full;

	nlh = link_msg(buf, 9, "vxlan42", IFF_UP);
	mnl_attr_put_u32(nlh, IFLA_MTU, 1450);
	mnl_attr_put_u32(nlh, IFLA_MASTER, 3);
	d = put_kind(nlh, "vxlan", true, &li);
	mnl_attr_put_u32(nlh, IFLA_VXLAN_ID, 42);
	mnl_attr_put_u32(nlh, IFLA_VXLAN_LINK, 2);
	end_kind(nlh, d, li);
	full = nlh->nlmsg_len;
	for (uint32_t len = 0; len < full; len++) {
		struct iface_list l = {0};
		struct nlmsghdr *t;

		/* Exactly len bytes, in a heap block ASan can police. */
		size_t sz = len < sizeof(*t) ? sizeof(*t) : len;

		t = malloc(sz);
		ck_assert_ptr_nonnull(t);
		memcpy(t, buf, sz);
		t->nlmsg_len = len;
		if (nl_parse_link(t, &l) == 0)
			ck_assert_uint_eq(l.n, 1);
		free(t);
		iface_list_free(&l);
	}
}
END_TEST

/* A RTM_NEWADDR message for ifindex with one or two address attributes. */
static struct nlmsghdr *addr_msg(char *buf, int family, int index,
                                 unsigned plen, unsigned scope)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifaddrmsg *ifa;

	nlh->nlmsg_type = RTM_NEWADDR;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = (uint8_t)family;
	ifa->ifa_prefixlen = (uint8_t)plen;
	ifa->ifa_scope = (uint8_t)scope;
	ifa->ifa_index = (unsigned)index;
	return nlh;
}

START_TEST(addr_v4_v6_order_scope)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct in_addr a4, p4;
	struct in6_addr a6;
	const struct iface *i;

	nlh = link_msg(buf, 2, "eth0", IFF_UP);
	parse1(&l, nlh);
	inet_pton(AF_INET, "10.231.0.5", &a4);
	nlh = addr_msg(buf, AF_INET, 2, 24, RT_SCOPE_UNIVERSE);
	mnl_attr_put(nlh, IFA_ADDRESS, 4, &a4);
	mnl_attr_put(nlh, IFA_LOCAL, 4, &a4);
	ck_assert_int_eq(nl_parse_addr(nlh, &l), 0);
	/* Point to point: IFA_LOCAL is ours, IFA_ADDRESS the peer. */
	inet_pton(AF_INET, "10.231.9.1", &a4);
	inet_pton(AF_INET, "10.231.9.2", &p4);
	nlh = addr_msg(buf, AF_INET, 2, 32, RT_SCOPE_UNIVERSE);
	mnl_attr_put(nlh, IFA_ADDRESS, 4, &p4);
	mnl_attr_put(nlh, IFA_LOCAL, 4, &a4);
	ck_assert_int_eq(nl_parse_addr(nlh, &l), 0);
	inet_pton(AF_INET6, "fe80::1", &a6);
	nlh = addr_msg(buf, AF_INET6, 2, 64, RT_SCOPE_LINK);
	mnl_attr_put(nlh, IFA_ADDRESS, 16, &a6);
	ck_assert_int_eq(nl_parse_addr(nlh, &l), 0);
	/* Unknown interface: skipped, not an error. */
	nlh = addr_msg(buf, AF_INET6, 99, 64, RT_SCOPE_LINK);
	mnl_attr_put(nlh, IFA_ADDRESS, 16, &a6);
	ck_assert_int_eq(nl_parse_addr(nlh, &l), 0);
	i = &l.v[0];
	ck_assert_int_eq(i->naddrs, 3);
	ck_assert_str_eq(i->addrs[0].str, "10.231.0.5");
	ck_assert_uint_eq(i->addrs[0].prefixlen, 24);
	ck_assert_str_eq(i->addrs[1].str, "10.231.9.1");
	ck_assert_str_eq(i->addrs[2].str, "fe80::1");
	ck_assert_uint_eq(i->addrs[2].scope, RT_SCOPE_LINK);
	ck_assert_int_eq(i->addrs[2].family, AF_INET6);
	iface_list_free(&l);
}
END_TEST

/* IFA_LABEL: an IPv4 alias keeps its label ("eth0:1"), which getifaddrs
 * reports as the address's interface name; the kernel also sends the
 * interface's own name as the label of its plain addresses, kept as "". */
START_TEST(addr_alias_label)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct in_addr a4;
	const struct iface *i;

	nlh = link_msg(buf, 2, "eth0", IFF_UP);
	parse1(&l, nlh);
	inet_pton(AF_INET, "10.231.0.5", &a4);
	nlh = addr_msg(buf, AF_INET, 2, 24, RT_SCOPE_UNIVERSE);
	mnl_attr_put(nlh, IFA_LOCAL, 4, &a4);
	mnl_attr_put_strz(nlh, IFA_LABEL, "eth0");
	ck_assert_int_eq(nl_parse_addr(nlh, &l), 0);
	inet_pton(AF_INET, "10.231.0.6", &a4);
	nlh = addr_msg(buf, AF_INET, 2, 24, RT_SCOPE_UNIVERSE);
	mnl_attr_put(nlh, IFA_LOCAL, 4, &a4);
	mnl_attr_put_strz(nlh, IFA_LABEL, "eth0:1");
	ck_assert_int_eq(nl_parse_addr(nlh, &l), 0);
	i = &l.v[0];
	ck_assert_int_eq(i->naddrs, 2);
	ck_assert_str_eq(i->addrs[0].label, "");
	ck_assert_str_eq(i->addrs[1].label, "eth0:1");
	iface_list_free(&l);
}
END_TEST

START_TEST(addr_malformed)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct in6_addr a6 = IN6ADDR_LOOPBACK_INIT;

	parse1(&l, link_msg(buf, 2, "eth0", IFF_UP));
	/* IPv4 message carrying 16 bytes. */
	nlh = addr_msg(buf, AF_INET, 2, 24, 0);
	mnl_attr_put(nlh, IFA_ADDRESS, 16, &a6);
	ck_assert_int_eq(nl_parse_addr(nlh, &l), -1);
	/* Prefix longer than the family allows. */
	nlh = addr_msg(buf, AF_INET6, 2, 129, 0);
	mnl_attr_put(nlh, IFA_ADDRESS, 16, &a6);
	ck_assert_int_eq(nl_parse_addr(nlh, &l), -1);
	/* No address at all. */
	nlh = addr_msg(buf, AF_INET6, 2, 64, 0);
	ck_assert_int_eq(nl_parse_addr(nlh, &l), -1);
	/* Truncated header. */
	nlh = addr_msg(buf, AF_INET6, 2, 64, 0);
	mnl_attr_put(nlh, IFA_ADDRESS, 16, &a6);
	nlh->nlmsg_len = MNL_NLMSG_HDRLEN + 3;
	ck_assert_int_eq(nl_parse_addr(nlh, &l), -1);
	/* Attribute cut short by the message length. */
	nlh = addr_msg(buf, AF_INET6, 2, 64, 0);
	mnl_attr_put(nlh, IFA_ADDRESS, 16, &a6);
	nlh->nlmsg_len -= 6;
	ck_assert_int_eq(nl_parse_addr(nlh, &l), -1);
	ck_assert_int_eq(l.v[0].naddrs, 0);
	iface_list_free(&l);
}
END_TEST

/* A RTM_NEWROUTE message; callers add attributes. */
static struct nlmsghdr *route_msg(char *buf, int family, unsigned dst_len)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtmsg *rtm;

	nlh->nlmsg_type = RTM_NEWROUTE;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (uint8_t)family;
	rtm->rtm_dst_len = (uint8_t)dst_len;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_type = RTN_UNICAST;
	return nlh;
}

START_TEST(route_get_reply_and_default)
{
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct route_info r;
	struct in_addr d, s, g;
	struct nlattr *mx;

	inet_pton(AF_INET, "10.231.1.7", &d);
	inet_pton(AF_INET, "10.231.0.5", &s);
	inet_pton(AF_INET, "10.231.0.1", &g);
	nlh = route_msg(buf, AF_INET, 32);
	mnl_attr_put_u32(nlh, RTA_TABLE, RT_TABLE_MAIN);
	mnl_attr_put(nlh, RTA_DST, 4, &d);
	mnl_attr_put_u32(nlh, RTA_OIF, 4);
	mnl_attr_put(nlh, RTA_PREFSRC, 4, &s);
	mnl_attr_put(nlh, RTA_GATEWAY, 4, &g);
	mnl_attr_put_u32(nlh, RTA_PRIORITY, 100);
	mx = mnl_attr_nest_start(nlh, RTA_METRICS);
	mnl_attr_put_u32(nlh, RTAX_MTU, 1400);
	mnl_attr_nest_end(nlh, mx);
	ck_assert_int_eq(nl_parse_route(nlh, &r), 0);
	ck_assert_int_eq(r.family, AF_INET);
	ck_assert_str_eq(r.destination, "10.231.1.7/32");
	ck_assert_int_eq(r.oif, 4);
	ck_assert_str_eq(r.source, "10.231.0.5");
	ck_assert_str_eq(r.gateway, "10.231.0.1");
	ck_assert_uint_eq(r.mtu, 1400);
	ck_assert_int_eq(r.metric, 100);
	ck_assert_int_eq(r.table, RT_TABLE_MAIN);

	nlh = route_msg(buf, AF_INET6, 0);
	mnl_attr_put_u32(nlh, RTA_OIF, 2);
	ck_assert_int_eq(nl_parse_route(nlh, &r), 0);
	ck_assert_str_eq(r.destination, "default");
	ck_assert_str_eq(r.gateway, "");
	ck_assert_uint_eq(r.mtu, 0);
}
END_TEST

START_TEST(route_multipath)
{
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct route_info r;
	struct in6_addr g;
	struct nlattr *mp;
	struct rtnexthop *nh;

	inet_pton(AF_INET6, "fe80::1", &g);
	nlh = route_msg(buf, AF_INET6, 0);
	mp = mnl_attr_nest_start(nlh, RTA_MULTIPATH);
	nh = mnl_nlmsg_get_payload_tail(nlh);
	memset(nh, 0, sizeof(*nh));
	nh->rtnh_ifindex = 5;
	nlh->nlmsg_len += MNL_ALIGN(sizeof(*nh));
	mnl_attr_put(nlh, RTA_GATEWAY, 16, &g);
	nh->rtnh_len =
	    (unsigned short)((char *)mnl_nlmsg_get_payload_tail(nlh) -
	                     (char *)nh);
	mnl_attr_nest_end(nlh, mp);
	ck_assert_int_eq(nl_parse_route(nlh, &r), 0);
	ck_assert_int_eq(r.oif, 5);
	ck_assert_str_eq(r.gateway, "fe80::1");
}
END_TEST

START_TEST(route_malformed)
{
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct route_info r;
	struct in_addr d = {0};
	struct in6_addr d6 = IN6ADDR_ANY_INIT;

	nlh = route_msg(buf, AF_INET, 24);
	ck_assert_int_eq(nl_parse_route(nlh, &r), -1); /* no RTA_DST */
	nlh = route_msg(buf, AF_INET, 33);
	mnl_attr_put(nlh, RTA_DST, 4, &d);
	ck_assert_int_eq(nl_parse_route(nlh, &r), -1);
	nlh = route_msg(buf, AF_PACKET, 0);
	ck_assert_int_eq(nl_parse_route(nlh, &r), -1);
	nlh = route_msg(buf, AF_INET, 0);
	mnl_attr_put(nlh, RTA_GATEWAY, 16, &d6);
	ck_assert_int_eq(nl_parse_route(nlh, &r), -1);
	nlh = route_msg(buf, AF_INET, 0);
	mnl_attr_put_u16(nlh, RTA_OIF, 3);
	ck_assert_int_eq(nl_parse_route(nlh, &r), -1);
	nlh = route_msg(buf, AF_INET, 0);
	nlh->nlmsg_len = MNL_NLMSG_HDRLEN + 2;
	ck_assert_int_eq(nl_parse_route(nlh, &r), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

Suite *suite_nl(void)
{
	Suite *s = suite_create("nl");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, link_veth_other_netns);
	tcase_add_test(tc, link_veth_same_netns_and_loopback);
	tcase_add_test(tc, link_bridge_and_bond_members);
	tcase_add_test(tc, link_vlan_vxlan);
	tcase_add_test(tc, link_macvlan_ipvlan_modes);
	tcase_add_test(tc, link_tun_tap_wg_dummy_ipoib);
	tcase_add_test(tc, link_malformed);
	tcase_add_test(tc, link_every_truncation);
	tcase_add_test(tc, addr_v4_v6_order_scope);
	tcase_add_test(tc, addr_alias_label);
	tcase_add_test(tc, addr_malformed);
	tcase_add_test(tc, route_get_reply_and_default);
	tcase_add_test(tc, route_multipath);
	tcase_add_test(tc, route_malformed);
	suite_add_tcase(s, tc);
	return s;
}
