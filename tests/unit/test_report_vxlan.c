/* netprobe report: one overlay's VXLAN devices that differ between
 * members (reports/decide/decide_vxlan.c, issue 48; blind48d 01). The
 * member whose VNI (or port) differs from a majority carries the one
 * setting cause, with the command that makes its device again with the
 * majority's value; the others carry nothing. The same VNI everywhere
 * (4096 too), an overlay the failed pairs do not use, raise nothing; two
 * members that differ get a warning each that names both values. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_model.h"
#include "report_scan_fx.h"

/* A scan of node n<n> with eth0 at 10.231.8.N/24 (the underlay, MTU
 * 1500) and, when vni > 0, flannel-style NAME at 10.231.9.N/24 (MTU
 * 1450) with that VNI and port (nolearning, local 10.231.8.N over eth0);
 * no peer yet. */
static json_t *scan(int n, const char *name, long long vni, long long port,
		    bool under)
{
	char node[16], ua[32], oa[32], mac[32];
	bool odd;
	json_t *d;

	snprintf(node, sizeof(node), "n%d", n);
	snprintf(ua, sizeof(ua), "10.231.8.%d", n);
	snprintf(oa, sizeof(oa), "10.231.9.%d", n);
	snprintf(mac, sizeof(mac), "0a:e7:65:00:00:%02x", n);
	/* no overlay, or one that reaches no peer: the scan chose the
	 * underlay */
	odd = vni <= 0 || under;
	d = scanfx_scan(&(const struct scanfx_doc){
		.node = node, .started = "2026-12-07T01:00:00Z",
		.ifname = "eth0", .mtu = 1500, .kind = "veth",
		.mac = "02:00:00:00:00:01", .addr = ua,
		.rec_if = odd ? "eth0" : name, .rec_addr = odd ? ua : oa});
	if (vni <= 0)
		return d;
	json_array_append_new(
		rj_arr(d, "interfaces"),
		json_pack("{s:s, s:I, s:s, s:s, s:[s,s], s:[{s:s, s:s, s:i, "
			  "s:s}], s:{s:I, s:s, s:I, s:s, s:n, s:b}}",
			  "name", name, "mtu", (json_int_t)1450, "kind",
			  "vxlan", "mac", mac, "flags", "UP", "RUNNING",
			  "addresses", "address", oa, "family", "inet",
			  "prefixlen", 24, "scope", "global", "vxlan", "id",
			  (json_int_t)vni, "underlay", "eth0", "port",
			  (json_int_t)port, "local", ua, "group", "learning",
			  false));
	return d;
}

/* Gives node n's overlay device (the last interface of d) the global
 * IPv6 address fd23:9::N/64 too, as the generator's ipv6 noise does. */
static void add_v6(json_t *d, int n)
{
	json_t *ifs = rj_arr(d, "interfaces");
	json_t *x = json_array_get(ifs, json_array_size(ifs) - 1);
	char a[32];

	snprintf(a, sizeof(a), "fd23:9::%d", n);
	json_array_append_new(rj_arr(x, "addresses"),
			      json_pack("{s:s, s:s, s:i, s:s}", "address", a,
					"family", "inet6", "prefixlen", 64,
					"scope", "global"));
}

/* Four nodes; vni[i] and port[i] of node i (vni 0: no overlay device),
 * the device named name[i]; pairs with node bad (0: none) fail both
 * ways, and its scan chose its underlay, as one cut off chooses. The
 * nodes in bit mask v6 (bit i: node i) also carry IPv6 there. */
static struct report_model *cluster6(struct report_set *set,
				     const char *const *name,
				     const long long *vni,
				     const long long *port, int bad, int v6)
{
	json_t *d[5];

	for (int i = 1; i <= 4; i++) {
		d[i] = scan(i, name[i], vni[i], port[i], i == bad);
		if ((v6 >> i) & 1 && vni[i] > 0)
			add_v6(d[i], i);
	}
	for (int i = 1; i <= 4; i++)
		for (int j = 1; j <= 4; j++)
			if (i != j)
				scanfx_peer(d[i], j, "flannel.1",
					    i != bad && j != bad);
	return scanfx_build(set, d, 4);
}

/* cluster6 with no IPv6. */
static struct report_model *cluster(struct report_set *set,
				    const char *const *name,
				    const long long *vni, const long long *port,
				    int bad)
{
	return cluster6(set, name, vni, port, bad, 0);
}

static const char *const FL[] = {"", "flannel.1", "flannel.1", "flannel.1",
				  "flannel.4096"};

/* blind48d 01's shape: n4's flannel ran with VNI 4096. */
START_TEST(odd_vni_on_its_node)
{
	struct report_set set = {0};
	const long long vni[] = {0, 1, 1, 1, 4096};
	const long long port[] = {0, 8472, 8472, 8472, 8472};
	struct report_model *m = cluster(&set, FL, vni, port, 4);
	const json_t *k, *sh;
	const char *cmd;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(scanfx_count(m, "vxlan-vni-mismatch", "n4"), 1);
	ck_assert_uint_eq(scanfx_count(m, "vxlan-vni-mismatch", NULL), 1);
	ck_assert_uint_eq(m->ncauses, 1);
	k = m->causes[0].cause;
	ck_assert_str_eq(rj_str(k, "id"), "setting:n4");
	sh = unitfix_fix_shell(k);
	cmd = json_string_value(json_array_get(sh, 0));
	ck_assert_ptr_nonnull(cmd);
	ck_assert_msg(strncmp(cmd,
			      "ip link del flannel.4096; ip link add flannel.1 "
			      "type vxlan id 1 dstport 8472 local 10.231.8.4 "
			      "dev eth0 nolearning; ip link set flannel.1 "
			      "address 0a:e7:65:00:00:04; bridge fdb append "
			      "00:00:00:00:00:00 dev flannel.1 dst 10.231.8.1",
			      200) == 0,
		      "%s", cmd);
	ck_assert_msg(strstr(cmd, "; ip addr add 10.231.9.4/24 dev flannel.1; "
				  "ip link set flannel.1 up") != NULL,
		      "%s", cmd);
	ck_assert(strstr(rj_strd(k, "summary", ""), "VNI 4096") != NULL);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A dual-stack overlay where only n2 and the odd n4 also carry IPv6
 * (generator seed 11, ovlvni@13): one device is one member of one
 * group, its IPv4 subnet's, so n4 gets one fix that floods toward every
 * member's VTEP, not a second one for the IPv6 subnet toward n2 alone,
 * which pasted after the first would cut n4 off from n1 and n3. */
START_TEST(dual_stack_one_fix)
{
	struct report_set set = {0};
	const long long vni[] = {0, 1, 1, 1, 4096};
	const long long port[] = {0, 8472, 8472, 8472, 8472};
	struct report_model *m = cluster6(&set, FL, vni, port, 4,
					  (1 << 2) | (1 << 4));
	const json_t *sh;
	const char *cmd;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(scanfx_count(m, "vxlan-vni-mismatch", NULL), 1);
	ck_assert_uint_eq(m->ncauses, 1);
	sh = unitfix_fix_shell(m->causes[0].cause);
	ck_assert_uint_eq(json_array_size(sh), 1);
	cmd = json_string_value(json_array_get(sh, 0));
	ck_assert_ptr_nonnull(cmd);
	for (int i = 1; i <= 3; i++) {
		char dst[48];

		snprintf(dst, sizeof(dst), "dst 10.231.8.%d;", i);
		ck_assert_msg(strstr(cmd, dst) != NULL, "%s: %s", dst, cmd);
	}
	ck_assert_msg(strstr(cmd, "; ip addr add fd23:9::4/64 dev flannel.1") !=
			      NULL,
		      "%s", cmd);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* The same port compare where the VNIs agree: n3 sends to 4789. */
START_TEST(odd_port_on_its_node)
{
	struct report_set set = {0};
	const char *const name[] = {"", "vxlan0", "vxlan0", "vxlan0",
				    "vxlan0"};
	const long long vni[] = {0, 42, 42, 42, 42};
	const long long port[] = {0, 8472, 8472, 4789, 8472};
	struct report_model *m = cluster(&set, name, vni, port, 3);

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(scanfx_count(m, "vxlan-port-mismatch", "n3"), 1);
	ck_assert_uint_eq(scanfx_count(m, "vxlan-port-mismatch", NULL), 1);
	ck_assert_uint_eq(scanfx_count(m, "vxlan-vni-mismatch", NULL), 0);
	ck_assert_uint_eq(m->ncauses, 1);
	ck_assert_str_eq(rj_str(m->causes[0].cause, "id"), "setting:n3");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Decoys: VNI 4096 and port 4799 on every node (blind48d 07); an odd
 * device on a healthy cluster (the overlay is not the mesh's way: every
 * pair works). Nothing raised, no cause. */
START_TEST(same_everywhere_or_unused_is_silent)
{
	struct report_set set = {0}, set2 = {0};
	const char *const name[] = {"", "flannel.4096", "flannel.4096",
				    "flannel.4096", "flannel.4096"};
	const long long all[] = {0, 4096, 4096, 4096, 4096};
	const long long odd[] = {0, 1, 1, 1, 4096};
	const long long port[] = {0, 4799, 4799, 4799, 4799};
	struct report_model *m = cluster(&set, name, all, port, 0);
	struct report_model *m2 = cluster(&set2, FL, odd, port, 0);

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(m2);
	ck_assert_uint_eq(scanfx_count(m, "vxlan-vni-mismatch", NULL), 0);
	ck_assert_uint_eq(m->ncauses, 0);
	ck_assert_uint_eq(scanfx_count(m2, "vxlan-vni-mismatch", NULL), 0);
	ck_assert_uint_eq(m2->ncauses, 0);
	report_model_free(m);
	report_model_free(m2);
	report_set_free(&set);
	report_set_free(&set2);
}
END_TEST

/* Two members on the overlay whose VNIs differ: no majority, a warning
 * on each naming both values and ip -d link show, no fault on either. */
START_TEST(two_members_cannot_tell)
{
	struct report_set set = {0};
	const char *const name[] = {"", "", "", "vx0", "vx0"};
	const long long vni[] = {0, 0, 0, 7, 8};
	const long long port[] = {0, 0, 0, 4789, 4789};
	struct report_model *m = cluster(&set, name, vni, port, 4);
	size_t i;
	json_t *f;
	int warned = 0;

	ck_assert_ptr_nonnull(m);
	json_array_foreach(rj_arr(report_doc(m), "findings"), i, f) {
		if (strcmp(rj_strd(f, "code", ""), "vxlan-vni-mismatch") != 0)
			continue;
		ck_assert_str_eq(rj_strd(f, "severity", ""), "warning");
		ck_assert(strstr(rj_strd(f, "summary", ""), "n3's vx0: 7") !=
			  NULL);
		ck_assert(strstr(rj_strd(f, "summary", ""), "n4's vx0: 8") !=
			  NULL);
		ck_assert(strstr(rj_strd(f, "fix", ""), "ip -d link show vx0") !=
			  NULL);
		warned++;
	}
	ck_assert_int_eq(warned, 2);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

Suite *suite_report_vxlan(void)
{
	Suite *s = suite_create("report_vxlan");
	TCase *tc = tcase_create("vxlan");

	tcase_add_test(tc, odd_vni_on_its_node);
	tcase_add_test(tc, dual_stack_one_fix);
	tcase_add_test(tc, odd_port_on_its_node);
	tcase_add_test(tc, same_everywhere_or_unused_is_silent);
	tcase_add_test(tc, two_members_cannot_tell);
	suite_add_tcase(s, tc);
	return s;
}
