/* Unit tests for the JSON form of interfaces and routes: every contract
 * key present, unknowns as null. */
#include "kernel/nl.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <linux/if.h>
#include <linux/rtnetlink.h>

START_TEST(iface_keys_and_nulls)
{
	static const char *const keys[] = {
	    "index",      "name",      "kind",       "kind_raw", "flags",
	    "oper_state", "carrier",   "mtu",        "mac",      "master",
	    "peer",       "parent",    "vxlan",      "mode",     "vlan_id",
	    "slaves",     "addresses", "speed_mbps", "driver",   "real_device",
	    "numa_node",  "pci",       "rdma",       "bridge_port_state",
	    "stp_state",
	};
	struct iface_list l = {0};
	struct iface *i = iface_list_add(&l);
	struct in_addr a;
	json_t *o, *arr, *ad;

	i->index = 4;
	strcpy(i->name, "eth1");
	i->kind = IFK_VETH;
	strcpy(i->kind_str, "veth");
	i->flags = IFF_UP | IFF_RUNNING;
	i->operstate = IF_OPER_UP;
	i->mtu = 1500;
	i->link_index = 9;
	i->link_netnsid = 0;
	inet_pton(AF_INET, "172.17.0.2", &a);
	iface_add_addr(i, AF_INET, &a, 16, RT_SCOPE_UNIVERSE);
	arr = iface_list_to_json(&l);
	ck_assert_ptr_nonnull(arr);
	ck_assert_uint_eq(json_array_size(arr), 1);
	o = json_array_get(arr, 0);
	for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++)
		ck_assert_msg(json_object_get(o, keys[k]) != NULL,
		              "missing key %s", keys[k]);
	ck_assert_str_eq(json_string_value(json_object_get(o, "kind")), "veth");
	ck_assert_str_eq(json_string_value(json_object_get(o, "oper_state")),
	                 "up");
	ck_assert(json_is_null(json_object_get(o, "carrier")));
	ck_assert(json_is_null(json_object_get(o, "speed_mbps")));
	ck_assert(json_is_null(json_object_get(o, "numa_node")));
	ck_assert(json_is_null(json_object_get(o, "master")));
	ck_assert(json_is_null(json_object_get(o, "vxlan")));
	ck_assert(json_is_false(json_object_get(o, "real_device")));
	ck_assert_int_eq(json_integer_value(json_object_get(
	                     json_object_get(o, "peer"), "ifindex")),
	                 9);
	ck_assert_int_eq(json_integer_value(json_object_get(
	                     json_object_get(o, "peer"), "netnsid")),
	                 0);
	ad = json_array_get(json_object_get(o, "addresses"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(ad, "family")),
	                 "inet");
	ck_assert_str_eq(json_string_value(json_object_get(ad, "address")),
	                 "172.17.0.2");
	ck_assert_int_eq(json_integer_value(json_object_get(ad, "prefixlen")),
	                 16);
	ck_assert_str_eq(json_string_value(json_object_get(ad, "scope")),
	                 "global");
	ck_assert_str_eq(
	    json_string_value(json_array_get(json_object_get(o, "flags"), 0)),
	    "UP");
	json_decref(arr);

	/* vxlan and vlan carry their own objects. */
	i->kind = IFK_VXLAN;
	i->vxlan_id = 42;
	i->vxlan_link = 2;
	strcpy(i->parent, "eth0");
	o = iface_to_json(i);
	ck_assert_int_eq(json_integer_value(json_object_get(
	                     json_object_get(o, "vxlan"), "id")),
	                 42);
	ck_assert_str_eq(json_string_value(json_object_get(
	                     json_object_get(o, "vxlan"), "underlay")),
	                 "eth0");
	ck_assert(json_is_null(json_object_get(o, "peer")));
	json_decref(o);
	i->kind = IFK_VLAN;
	i->vlan_id = 100;
	o = iface_to_json(i);
	ck_assert_int_eq(json_integer_value(json_object_get(o, "vlan_id")),
	                 100);
	ck_assert_str_eq(json_string_value(json_object_get(o, "parent")),
	                 "eth0");
	json_decref(o);
	iface_list_free(&l);
}
END_TEST

START_TEST(route_keys)
{
	struct route_info r = {
	    .family = AF_INET,
	    .destination = "default",
	    .oif = 2,
	    .out_interface = "eth0",
	    .gateway = "",
	    .metric = 100,
	    .table = RT_TABLE_MAIN,
	};
	json_t *o = route_to_json(&r);

	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(json_string_value(json_object_get(o, "family")),
	                 "inet");
	ck_assert_str_eq(json_string_value(json_object_get(o, "destination")),
	                 "default");
	ck_assert_str_eq(json_string_value(json_object_get(o, "out_interface")),
	                 "eth0");
	ck_assert(json_is_null(json_object_get(o, "gateway")));
	ck_assert(json_is_null(json_object_get(o, "source")));
	ck_assert(json_is_null(json_object_get(o, "mtu")));
	ck_assert_int_eq(json_integer_value(json_object_get(o, "metric")), 100);
	ck_assert_int_eq(json_integer_value(json_object_get(o, "table")), 254);
	json_decref(o);
}
END_TEST

/* The whole ifaces result for the recorded fixture against a golden file
 * (regenerate with NP_UPDATE_GOLDEN=1 after a deliberate change). */
START_TEST(golden_fixture)
{
	const char *golden = SRCDIR "/tests/fixtures/ifaces/basic.json";
	struct iface_list l = {0};
	struct route_info r[8];
	struct sysroot sr;
	json_t *doc, *defs, *want;
	json_error_t err;
	size_t n;
	char *got;

	ck_assert_int_eq(
	    sysroot_init(&sr, SRCDIR "/tests/fixtures/ifaces/basic"), 0);
	ck_assert_int_eq(iface_collect(&l, &sr), 0);
	ck_assert_int_eq(route_defaults(&sr, r, 8, &n), 0);
	defs = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(defs, route_to_json(&r[i]));
	doc = json_pack("{s:o, s:{s:o, s:n}}", "interfaces",
	                iface_list_to_json(&l), "routes", "defaults", defs,
	                "lookup");
	ck_assert_ptr_nonnull(doc);
	if (getenv("NP_UPDATE_GOLDEN") != NULL)
		ck_assert_int_eq(
		    json_dump_file(doc, golden,
		                   JSON_SORT_KEYS | JSON_INDENT(2)),
		    0);
	want = json_load_file(golden, 0, &err);
	ck_assert_msg(want != NULL, "%s: %s", golden, err.text);
	got = json_dumps(doc, JSON_SORT_KEYS | JSON_INDENT(2));
	ck_assert_msg(json_equal(doc, want), "differs from %s:\n%s", golden,
	              got);
	free(got);
	json_decref(want);
	json_decref(doc);
	iface_list_free(&l);
}
END_TEST

Suite *suite_iface_json(void)
{
	Suite *s = suite_create("iface_json");
	TCase *tc = tcase_create("keys");

	tcase_add_test(tc, iface_keys_and_nulls);
	tcase_add_test(tc, route_keys);
	tcase_add_test(tc, golden_fixture);
	suite_add_tcase(s, tc);
	return s;
}
