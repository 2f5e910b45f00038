/* Unit tests for a vxlan's settings (lib/kernel/nl_vxlan.c, issue 48):
 * link messages built in memory with every IFLA_VXLAN_* the scan keeps
 * (VNI, port, local and group in both families, underlay, learning,
 * proxy, l2miss, l3miss),
 * malformed ones rejected, and the document's vxlan object that carries
 * them to the report. */
#include "kernel/nl.h"

#include <arpa/inet.h>
#include <check.h>
#include <string.h>

#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "nl_fx.h"

/* A RTM_NEWLINK of a vxlan named name, up, its IFLA_INFO_DATA nest open:
 * the caller puts the data, then end_kind. */
static struct nlmsghdr *vx_msg(char *buf, int index, const char *name,
                               struct nlattr **li, struct nlattr **d)
{
	struct nlmsghdr *nlh = link_msg(buf, index, name, IFF_UP);

	*d = put_kind(nlh, "vxlan", true, li);
	return nlh;
}

/* flannel's device as `ip link add flannel.4096 type vxlan id 4096
 * dstport 8472 local 10.231.100.4 dev lan0 nolearning` makes it. */
START_TEST(vxlan_settings_parsed)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct nlattr *li, *d;
	struct in_addr loc, grp = {0};
	const struct iface *i;
	json_t *o, *vx;

	ck_assert_int_eq(inet_pton(AF_INET, "10.231.100.4", &loc), 1);
	nlh = vx_msg(buf, 5, "flannel.4096", &li, &d);
	mnl_attr_put_u32(nlh, IFLA_VXLAN_ID, 4096);
	mnl_attr_put_u32(nlh, IFLA_VXLAN_LINK, 2);
	mnl_attr_put(nlh, IFLA_VXLAN_LOCAL, sizeof(loc), &loc);
	mnl_attr_put(nlh, IFLA_VXLAN_GROUP, sizeof(grp), &grp);
	mnl_attr_put_u8(nlh, IFLA_VXLAN_LEARNING, 0);
	mnl_attr_put_u16(nlh, IFLA_VXLAN_PORT, htons(8472));
	end_kind(nlh, d, li);
	ck_assert_int_eq(nl_parse_link(nlh, &l), 0);
	i = &l.v[0];
	ck_assert_int_eq(i->kind, IFK_VXLAN);
	ck_assert_uint_eq(i->vxlan_id, 4096);
	ck_assert_int_eq(i->vxlan_link, 2);
	ck_assert_uint_eq(i->vxlan_port, 8472);
	ck_assert_str_eq(i->vxlan_local, "10.231.100.4");
	ck_assert_str_eq(i->vxlan_group, "");
	ck_assert_int_eq(i->vxlan_learning, 0);
	o = iface_to_json(i);
	ck_assert_ptr_nonnull(o);
	vx = json_object_get(o, "vxlan");
	ck_assert_int_eq(json_integer_value(json_object_get(vx, "id")), 4096);
	ck_assert_int_eq(json_integer_value(json_object_get(vx, "port")),
	                 8472);
	ck_assert_str_eq(json_string_value(json_object_get(vx, "local")),
	                 "10.231.100.4");
	ck_assert(json_is_null(json_object_get(vx, "group")));
	ck_assert(json_is_false(json_object_get(vx, "learning")));
	json_decref(o);
	iface_list_free(&l);
}
END_TEST

/* IPv6 underlay: LOCAL6 and GROUP6 (a multicast group), learning on. */
START_TEST(vxlan_settings_ipv6)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct nlattr *li, *d;
	struct in6_addr loc, grp;
	const struct iface *i;

	ck_assert_int_eq(inet_pton(AF_INET6, "fd84::4", &loc), 1);
	ck_assert_int_eq(inet_pton(AF_INET6, "ff05::42", &grp), 1);
	nlh = vx_msg(buf, 6, "vx6", &li, &d);
	mnl_attr_put_u32(nlh, IFLA_VXLAN_ID, 1);
	mnl_attr_put(nlh, IFLA_VXLAN_LOCAL6, sizeof(loc), &loc);
	mnl_attr_put(nlh, IFLA_VXLAN_GROUP6, sizeof(grp), &grp);
	mnl_attr_put_u8(nlh, IFLA_VXLAN_LEARNING, 1);
	mnl_attr_put_u16(nlh, IFLA_VXLAN_PORT, htons(4789));
	end_kind(nlh, d, li);
	ck_assert_int_eq(nl_parse_link(nlh, &l), 0);
	i = &l.v[0];
	ck_assert_uint_eq(i->vxlan_port, 4789);
	ck_assert_str_eq(i->vxlan_local, "fd84::4");
	ck_assert_str_eq(i->vxlan_group, "ff05::42");
	ck_assert_int_eq(i->vxlan_learning, 1);
	iface_list_free(&l);
}
END_TEST

/* A message without the settings leaves them unknown; a port that is not
 * 16 bits, or a local address of the wrong size, is refused. */
/* flannel's old vxlan backend (flannel-io/flannel#203, #207): `ip link
 * add vx0 type vxlan id 42 dstport 4789 nolearning proxy l3miss`: proxy
 * and l3miss on, l2miss off, in the struct and the document. */
START_TEST(vxlan_proxy_and_misses)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct nlattr *li, *d;
	json_t *o, *vx;

	nlh = vx_msg(buf, 10, "vx0", &li, &d);
	mnl_attr_put_u32(nlh, IFLA_VXLAN_ID, 42);
	mnl_attr_put_u8(nlh, IFLA_VXLAN_LEARNING, 0);
	mnl_attr_put_u8(nlh, IFLA_VXLAN_PROXY, 1);
	mnl_attr_put_u8(nlh, IFLA_VXLAN_L2MISS, 0);
	mnl_attr_put_u8(nlh, IFLA_VXLAN_L3MISS, 1);
	end_kind(nlh, d, li);
	ck_assert_int_eq(nl_parse_link(nlh, &l), 0);
	ck_assert_int_eq(l.v[0].vxlan_proxy, 1);
	ck_assert_int_eq(l.v[0].vxlan_l2miss, 0);
	ck_assert_int_eq(l.v[0].vxlan_l3miss, 1);
	o = iface_to_json(&l.v[0]);
	ck_assert_ptr_nonnull(o);
	vx = json_object_get(o, "vxlan");
	ck_assert(json_is_true(json_object_get(vx, "proxy")));
	ck_assert(json_is_false(json_object_get(vx, "l2miss")));
	ck_assert(json_is_true(json_object_get(vx, "l3miss")));
	json_decref(o);
	/* absent: unknown, null in the document; a proxy of 16 bits refused */
	nlh = vx_msg(buf, 11, "vx1", &li, &d);
	mnl_attr_put_u32(nlh, IFLA_VXLAN_ID, 42);
	end_kind(nlh, d, li);
	ck_assert_int_eq(nl_parse_link(nlh, &l), 0);
	ck_assert_int_eq(l.v[1].vxlan_proxy, -1);
	ck_assert_int_eq(l.v[1].vxlan_l3miss, -1);
	o = iface_to_json(&l.v[1]);
	ck_assert_ptr_nonnull(o);
	ck_assert(json_is_null(json_object_get(json_object_get(o, "vxlan"),
	                                       "proxy")));
	json_decref(o);
	nlh = vx_msg(buf, 12, "vx2", &li, &d);
	mnl_attr_put_u16(nlh, IFLA_VXLAN_PROXY, 1);
	end_kind(nlh, d, li);
	ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	ck_assert_uint_eq(l.n, 2);
	iface_list_free(&l);
}
END_TEST

START_TEST(vxlan_settings_absent_or_malformed)
{
	struct iface_list l = {0};
	char buf[BUFSZ];
	struct nlmsghdr *nlh;
	struct nlattr *li, *d;
	static const unsigned char three[3] = {10, 231, 1};

	nlh = vx_msg(buf, 7, "vx0", &li, &d);
	mnl_attr_put_u32(nlh, IFLA_VXLAN_ID, 7);
	end_kind(nlh, d, li);
	ck_assert_int_eq(nl_parse_link(nlh, &l), 0);
	ck_assert_uint_eq(l.v[0].vxlan_port, 0);
	ck_assert_int_eq(l.v[0].vxlan_learning, -1);
	ck_assert_str_eq(l.v[0].vxlan_local, "");
	nlh = vx_msg(buf, 8, "vx1", &li, &d);
	mnl_attr_put_u32(nlh, IFLA_VXLAN_PORT, 8472);
	end_kind(nlh, d, li);
	ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	nlh = vx_msg(buf, 9, "vx2", &li, &d);
	mnl_attr_put(nlh, IFLA_VXLAN_LOCAL, sizeof(three), three);
	end_kind(nlh, d, li);
	ck_assert_int_eq(nl_parse_link(nlh, &l), -1);
	ck_assert_uint_eq(l.n, 1);
	iface_list_free(&l);
}
END_TEST

Suite *suite_nl_vxlan(void)
{
	Suite *s = suite_create("nl_vxlan");
	TCase *tc = tcase_create("vxlan");

	tcase_add_test(tc, vxlan_settings_parsed);
	tcase_add_test(tc, vxlan_settings_ipv6);
	tcase_add_test(tc, vxlan_settings_absent_or_malformed);
	tcase_add_test(tc, vxlan_proxy_and_misses);
	suite_add_tcase(s, tc);
	return s;
}
