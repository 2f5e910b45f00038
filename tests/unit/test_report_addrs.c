/* netprobe report: names and addresses that cut one node off from some
 * peers (reports/decide/decide_names.c, issue 48). Each class eliminates the
 * peer: the node whose own state is wrong (its hosts entry, its prefix,
 * its bridge) carries the one setting cause with the command that fixes
 * it there; the peer carries none, no pair stays undecided; and a
 * healthy cluster of the same shape raises nothing. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_model.h"
#include "report_scan_fx.h"

/* A scan of node with eth0 at addr/plen, no peer yet. */
static json_t *scan(const char *node, const char *addr, int plen)
{
	return json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:[{s:s, s:I, s:s, "
		"s:[s,s], s:[{s:s, s:s, s:i, s:s}]}], s:{s:s, s:s}, s:[]}",
		"schema", "netprobe/1", "tool", "netprobe", "command", "scan",
		"host", node, "started", "2026-12-06T10:00:00Z", "findings",
		"errors", "interfaces", "name", "eth0", "mtu", (json_int_t)1500,
		"kind", "veth", "flags", "UP", "RUNNING", "addresses",
		"address", addr, "family", "inet", "prefixlen", plen, "scope",
		"global", "recommendation", "interface", "eth0", "address",
		addr, "peers");
}

/* The cause with id in the model, or NULL. */
static const json_t *cause(const struct report_model *m, const char *id)
{
	for (size_t i = 0; i < m->ncauses; i++)
		if (strcmp(rj_str(m->causes[i].cause, "id"), id) == 0)
			return m->causes[i].cause;
	return NULL;
}

/* True when some finding of the model has code. */
static bool has_code(const struct report_model *m, const char *code)
{
	size_t i;
	json_t *f;

	json_array_foreach(rj_arr(report_doc(m), "findings"), i, f)
		if (strcmp(rj_strd(f, "code", ""), code) == 0)
			return true;
	return false;
}

/* Asserts the model's only cause is setting:node with command cmd. */
static void only_setting(const struct report_model *m, const char *node,
			 const char *cmd)
{
	char id[64];
	const json_t *k;

	snprintf(id, sizeof(id), "setting:%s", node);
	ck_assert_ptr_nonnull(m);
	for (size_t i = 0; i < m->ncauses; i++)
		ck_assert_msg(strcmp(rj_str(m->causes[i].cause, "id"), id) == 0,
			      "cause %s beside %s",
			      rj_str(m->causes[i].cause, "id"), id);
	k = cause(m, id);
	ck_assert_ptr_nonnull(k);
	ck_assert_str_eq(unitfix_fix_cmd(k, 0), cmd);
}

/* n-a resolves n-b to 10.231.9.99, which no member holds, while n-c
 * reaches n-b at 10.231.9.2: n-a's hosts entry, never n-b. */
static struct report_model *stale(struct report_set *set, const char *old)
{
	json_t *a = scan("n-a", "10.231.9.1", 24);
	json_t *b = scan("n-b", "10.231.9.2", 24);
	json_t *c = scan("n-c", "10.231.9.3", 24);

	scanfx_peer_to(a, "n-b", old, "eth0", false);
	scanfx_peer_to(a, "n-c", "10.231.9.3", "eth0", true);
	scanfx_peer_to(b, "n-a", "10.231.9.1", "eth0", true);
	scanfx_peer_to(b, "n-c", "10.231.9.3", "eth0", true);
	scanfx_peer_to(c, "n-a", "10.231.9.1", "eth0", true);
	scanfx_peer_to(c, "n-b", "10.231.9.2", "eth0", true);
	unitfix_load_doc(set, "a.json", a);
	unitfix_load_doc(set, "b.json", b);
	unitfix_load_doc(set, "c.json", c);
	return report_build(set);
}

START_TEST(hosts_stale_on_the_resolver)
{
	struct report_set set = {0};
	struct report_model *m = stale(&set, "10.231.9.99");

	only_setting(m, "n-a",
		     "{ grep -v -E '^10\\.231\\.9\\.99[[:space:]](.*"
		     "[[:space:]])?n-b([[:space:]]|$)' /etc/hosts; "
		     "echo '10.231.9.2 n-b'; } >/tmp/hosts.netprobe && cat "
		     "/tmp/hosts.netprobe >/etc/hosts");
	ck_assert(has_code(m, "hosts-stale"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Adds IPv6 address a/64 to d's first interface. */
static void v6(json_t *d, const char *a)
{
	json_array_append_new(
		rj_arr(json_array_get(rj_arr(d, "interfaces"), 0),
		       "addresses"),
		json_pack("{s:s, s:s, s:i, s:s}", "address", a, "family",
			  "inet6", "prefixlen", 64, "scope", "global"));
}

/* The same on an IPv6-only cluster (names resolving to ULAs). */
START_TEST(hosts_stale_ipv6)
{
	struct report_set set = {0};
	struct report_model *m;
	json_t *a = scan("n-a", "10.231.9.1", 24);
	json_t *b = scan("n-b", "10.231.9.2", 24);
	json_t *c = scan("n-c", "10.231.9.3", 24);

	v6(a, "fd48::1");
	v6(b, "fd48::2");
	v6(c, "fd48::3");
	scanfx_peer_to(a, "n-b", "fd48::99", "eth0", false);
	scanfx_peer_to(a, "n-c", "fd48::3", "eth0", true);
	scanfx_peer_to(c, "n-b", "fd48::2", "eth0", true);
	scanfx_peer_to(b, "n-a", "fd48::1", "eth0", true);
	unitfix_load_doc(&set, "a.json", a);
	unitfix_load_doc(&set, "b.json", b);
	unitfix_load_doc(&set, "c.json", c);
	m = report_build(&set);
	only_setting(m, "n-a",
		     "{ grep -v -E '^fd48::99[[:space:]](.*[[:space:]])?n-b"
		     "([[:space:]]|$)' /etc/hosts; echo 'fd48::2 n-b'; } "
		     ">/tmp/hosts.netprobe && cat /tmp/hosts.netprobe "
		     ">/etc/hosts");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* The same pair failing at n-b's own address is no stale entry: the
 * address is a member's, the hypothesis is eliminated (whatever else
 * fails there is another cause's). */
START_TEST(hosts_stale_not_at_a_members_address)
{
	struct report_set set = {0};
	struct report_model *m = stale(&set, "10.231.9.2");

	ck_assert_ptr_nonnull(m);
	ck_assert(!has_code(m, "hosts-stale"));
	ck_assert_ptr_null(cause(m, "setting:n-a"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* n-a holds 10.231.9.2/30 on the others' /24: n-d (10.231.9.9, outside)
 * and n-c (10.231.9.3, its broadcast address) are cut off from n-a
 * alone; n-b (10.231.9.1) is inside and answers. */
static struct report_model *narrow(struct report_set *set, int plen)
{
	json_t *a = scan("n-a", "10.231.9.2", plen);
	json_t *b = scan("n-b", "10.231.9.1", 24);
	json_t *c = scan("n-c", "10.231.9.3", 24);
	json_t *d = scan("n-d", "10.231.9.9", 24);
	bool ok = plen == 24;

	scanfx_peer_to(a, "n-b", "10.231.9.1", "eth0", true);
	scanfx_peer_to(a, "n-c", "10.231.9.3", "eth0", ok);
	scanfx_peer_to(a, "n-d", "10.231.9.9", "eth0", ok);
	scanfx_peer_to(c, "n-a", "10.231.9.2", "eth0", ok);
	scanfx_peer_to(d, "n-a", "10.231.9.2", "eth0", ok);
	scanfx_peer_to(c, "n-d", "10.231.9.9", "eth0", true);
	unitfix_load_doc(set, "a.json", a);
	unitfix_load_doc(set, "b.json", b);
	unitfix_load_doc(set, "c.json", c);
	unitfix_load_doc(set, "d.json", d);
	return report_build(set);
}

START_TEST(prefix_narrow_on_the_narrow_node)
{
	struct report_set set = {0};
	struct report_model *m = narrow(&set, 30);

	only_setting(m, "n-a",
		     "ip addr add 10.231.9.2/24 dev eth0 && ip addr del "
		     "10.231.9.2/30 dev eth0 && ip neigh flush dev eth0 to "
		     "10.231.9.3 nud noarp");
	ck_assert(has_code(m, "prefix-narrow"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

START_TEST(prefix_narrow_not_on_a_healthy_lan)
{
	struct report_set set = {0};
	struct report_model *m = narrow(&set, 24);

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 0);
	ck_assert(!has_code(m, "prefix-narrow"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* n-a's bridge br-x holds net/24; n-c lives at 10.231.8.3 (a subnet of
 * its own, reached through a gateway): when the bridge's net takes
 * n-c's address in, n-a's route to it goes into the bridge. */
static struct report_model *shadow(struct report_set *set, const char *net)
{
	json_t *a = scan("n-a", "10.231.9.1", 24);
	json_t *b = scan("n-b", "10.231.9.2", 24);
	json_t *c = scan("n-c", "10.231.8.3", 24);
	bool cut = strncmp(net, "10.231.8.", 9) == 0;

	json_array_append_new(
		rj_arr(a, "interfaces"),
		json_pack("{s:s, s:s, s:[s], s:[{s:s, s:s, s:i, s:s}]}",
			  "name", "br-x", "kind", "bridge", "flags", "UP",
			  "addresses", "address", net, "family", "inet",
			  "prefixlen", 24, "scope", "global"));
	scanfx_peer_to(a, "n-b", "10.231.9.2", "eth0", true);
	scanfx_peer_to(a, "n-c", "10.231.8.3", cut ? "br-x" : "eth0", !cut);
	scanfx_peer_to(b, "n-c", "10.231.8.3", "eth0", true);
	scanfx_peer_to(c, "n-a", "10.231.9.1", "eth0", !cut);
	unitfix_load_doc(set, "a.json", a);
	unitfix_load_doc(set, "b.json", b);
	unitfix_load_doc(set, "c.json", c);
	return report_build(set);
}

START_TEST(bridge_shadow_on_the_bridges_node)
{
	struct report_set set = {0};
	struct report_model *m = shadow(&set, "10.231.8.1");

	only_setting(m, "n-a", "ip link set br-x down");
	ck_assert(has_code(m, "bridge-route-shadow"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

START_TEST(bridge_shadow_not_without_a_peer_there)
{
	struct report_set set = {0};
	struct report_model *m = shadow(&set, "10.231.7.1");

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 0);
	ck_assert(!has_code(m, "bridge-route-shadow"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* n-a runs with NCCL_SOCKET_IFNAME=eth9 (its scan's rank-unreachable,
 * selecting eth9 10.231.60.1/24); rail: n-b holds an address in eth9's
 * subnet too (a second rail the mesh's names do not use). */
static struct report_model *selects(struct report_set *set, bool rail)
{
	json_t *a = scan("n-a", "10.231.9.1", 24);
	json_t *b = scan("n-b", "10.231.9.2", 24);

	json_array_append_new(
		rj_arr(a, "interfaces"),
		json_pack("{s:s, s:s, s:[s], s:[{s:s, s:s, s:i, s:s}]}",
			  "name", "eth9", "kind", "veth", "flags", "UP",
			  "addresses", "address", "10.231.60.1", "family",
			  "inet", "prefixlen", 24, "scope", "global"));
	if (rail)
		json_array_append_new(
			rj_arr(b, "interfaces"),
			json_pack("{s:s, s:s, s:[s], s:[{s:s, s:s, s:i, "
				  "s:s}]}",
				  "name", "eth1", "kind", "veth", "flags",
				  "UP", "addresses", "address", "10.231.60.2",
				  "family", "inet", "prefixlen", 24, "scope",
				  "global"));
	scanfx_peer_to(a, "n-b", "10.231.9.2", "eth0", true);
	scanfx_peer_to(b, "n-a", "10.231.9.1", "eth0", true);
	json_array_append_new(
		rj_arr(a, "findings"),
		json_pack("{s:s, s:s, s:s, s:[], s:s, s:s, s:[s]}", "code",
			  "rank-unreachable", "severity", "fault", "summary",
			  "NCCL_SOCKET_IFNAME=eth9 on this node selects eth9, "
			  "which no peer is reached by (the scan recommends "
			  "eth0)",
			  "evidence", "fix",
			  "NCCL_SOCKET_IFNAME==eth0 (the recommended "
			  "interface)",
			  "command", "export NCCL_SOCKET_IFNAME==eth0",
			  "selects", "eth9"));
	unitfix_load_doc(set, "a.json", a);
	unitfix_load_doc(set, "b.json", b);
	return report_build(set);
}

START_TEST(setting_unreached_kept_without_a_rail)
{
	struct report_set set = {0};
	struct report_model *m = selects(&set, false);

	only_setting(m, "n-a", "export NCCL_SOCKET_IFNAME==eth0");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A peer with an address in eth9's subnet eliminates the fault: info,
 * no command, no cause. */
START_TEST(setting_unreached_eliminated_by_a_rail)
{
	struct report_set set = {0};
	struct report_model *m = selects(&set, true);
	size_t i;
	json_t *f;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 0);
	json_array_foreach(rj_arr(report_doc(m), "findings"), i, f)
		if (strcmp(rj_strd(f, "code", ""), "rank-unreachable") == 0) {
			ck_assert_str_eq(rj_str(f, "severity"), "info");
			ck_assert_ptr_null(json_object_get(f, "command"));
			ck_assert_ptr_nonnull(strstr(rj_str(f, "summary"),
						     "n-b holds 10.231.60.2"));
		}
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* n-c's eth0 is a macvlan on n-b's LAN; fails: the nodes n-c fails
 * with (n-b alone: its host; n-b and n-a: no lone parent). */
static struct report_model *macvlan(struct report_set *set, int fails)
{
	json_t *a = scan("n-a", "10.231.9.1", 24);
	json_t *b = scan("n-b", "10.231.9.2", 24);
	json_t *c = scan("n-c", "10.231.9.3", 24);

	json_object_set_new(json_array_get(rj_arr(c, "interfaces"), 0),
			    "kind", json_string("macvlan"));
	scanfx_peer_to(c, "n-a", "10.231.9.1", "eth0", fails < 2);
	scanfx_peer_to(c, "n-b", "10.231.9.2", "eth0", fails < 1);
	scanfx_peer_to(b, "n-c", "10.231.9.3", "eth0", fails < 1);
	scanfx_peer_to(a, "n-c", "10.231.9.3", "eth0", fails < 2);
	scanfx_peer_to(a, "n-b", "10.231.9.2", "eth0", true);
	unitfix_load_doc(set, "a.json", a);
	unitfix_load_doc(set, "b.json", b);
	unitfix_load_doc(set, "c.json", c);
	return report_build(set);
}

/* The lone failure of a macvlan node is its host's: the cause is on
 * n-c, its command on n-b, and n-b carries no cause of its own. */
START_TEST(macvlan_parent_fixed_on_the_host)
{
	struct report_set set = {0};
	struct report_model *m = macvlan(&set, 1);
	const json_t *k;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 1);
	k = cause(m, "setting:n-c");
	ck_assert_ptr_nonnull(k);
	ck_assert_str_eq(json_string_value(json_array_get(
				 rj_arr(json_object_get(json_object_get(
						    k, "fix"),
					    "commands"),
					"on n-b"),
				 0)),
			 "ip link add mvshim0 link eth0 type macvlan mode "
			 "bridge && ip addr add 10.231.9.2/32 dev mvshim0 && "
			 "ip link set mvshim0 up && ip route add 10.231.9.3/32 "
			 "dev mvshim0");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Healthy, or failing with two members: no parent to name. */
START_TEST(macvlan_parent_not_without_a_lone_failure)
{
	struct report_set set = {0}, set2 = {0};
	struct report_model *m = macvlan(&set, 0), *m2 = macvlan(&set2, 2);

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 0);
	ck_assert(!has_code(m, "macvlan-parent"));
	ck_assert_ptr_nonnull(m2);
	ck_assert(!has_code(m2, "macvlan-parent"));
	report_model_free(m);
	report_set_free(&set);
	report_model_free(m2);
	report_set_free(&set2);
}
END_TEST

Suite *suite_report_addrs(void)
{
	Suite *s = suite_create("report_addrs");
	TCase *tc = tcase_create("addrs");

	tcase_add_test(tc, hosts_stale_on_the_resolver);
	tcase_add_test(tc, hosts_stale_not_at_a_members_address);
	tcase_add_test(tc, hosts_stale_ipv6);
	tcase_add_test(tc, prefix_narrow_on_the_narrow_node);
	tcase_add_test(tc, prefix_narrow_not_on_a_healthy_lan);
	tcase_add_test(tc, bridge_shadow_on_the_bridges_node);
	tcase_add_test(tc, bridge_shadow_not_without_a_peer_there);
	tcase_add_test(tc, setting_unreached_kept_without_a_rail);
	tcase_add_test(tc, setting_unreached_eliminated_by_a_rail);
	tcase_add_test(tc, macvlan_parent_fixed_on_the_host);
	tcase_add_test(tc, macvlan_parent_not_without_a_lone_failure);
	suite_add_tcase(s, tc);
	return s;
}
