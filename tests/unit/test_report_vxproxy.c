/* netprobe report: a proxy VXLAN device without one peer's neighbour
 * entry (reports/decide/decide_vxlan_neigh.c, issue 48; blind48f 02,
 * flannel-io/flannel#203). The member whose own table lacks the entry
 * carries the one setting cause, with the entry at the MAC of the peer's
 * device from the peer's scan; the peer carries nothing. Every entry
 * present, a missing one whose pairs pass, learning on or l3miss on:
 * silent. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_model.h"
#include "report_scan_fx.h"

/* How the cluster's devices are made. */
struct shape {
	bool learning, l3miss;
	int lacks, lacked; /* member lacks's table has no entry for lacked */
	bool fail;         /* their pair fails */
};

/* A scan of node n<n>: lan0 at 10.231.8.N/24 (MTU 9000), vx0 at
 * 10.231.9.N/24 (VNI 42, port 4789, proxy, MAC 0a:e7:65:00:00:0N) and a
 * permanent entry on vx0 for every other member's overlay address but
 * the one sh says it lacks; no peer yet. */
static json_t *scan(int n, const struct shape *sh)
{
	char node[16], ua[32], oa[32], mac[32];
	json_t *d, *ns;

	snprintf(node, sizeof(node), "n%d", n);
	snprintf(ua, sizeof(ua), "10.231.8.%d", n);
	snprintf(oa, sizeof(oa), "10.231.9.%d", n);
	snprintf(mac, sizeof(mac), "0a:e7:65:00:00:%02x", n);
	d = scanfx_scan(&(const struct scanfx_doc){
		.node = node, .started = "2026-12-07T01:00:00Z",
		.ifname = "lan0", .mtu = 9000, .kind = "veth",
		.mac = "02:00:00:00:00:01", .addr = ua, .rec_if = "vx0",
		.rec_addr = oa});
	json_array_append_new(
		rj_arr(d, "interfaces"),
		json_pack("{s:s, s:I, s:s, s:s, s:[s,s], s:[{s:s, s:s, s:i, "
			  "s:s}], s:{s:I, s:s, s:I, s:s, s:n, s:b, s:b, s:b, "
			  "s:b}}",
			  "name", "vx0", "mtu", (json_int_t)1500, "kind",
			  "vxlan", "mac", mac, "flags", "UP", "RUNNING",
			  "addresses", "address", oa, "family", "inet",
			  "prefixlen", 24, "scope", "global", "vxlan", "id",
			  (json_int_t)42, "underlay", "lan0", "port",
			  (json_int_t)4789, "local", ua, "group", "learning",
			  sh->learning, "proxy", true, "l2miss", false,
			  "l3miss", sh->l3miss));
	ns = rj_arr(d, "neighbours");
	for (int j = 1; j <= 4; j++) {
		if (j == n || (n == sh->lacks && j == sh->lacked))
			continue;
		snprintf(oa, sizeof(oa), "10.231.9.%d", j);
		snprintf(mac, sizeof(mac), "0a:e7:65:00:00:%02x", j);
		json_array_append_new(
			ns, json_pack("{s:s, s:s, s:s, s:s, s:s}", "address", oa,
				      "family", "inet", "interface", "vx0",
				      "lladdr", mac, "state", "permanent"));
	}
	return d;
}

/* Four members of shape sh; the pair lacks/lacked fails both ways when
 * sh->fail, every other passes. */
static struct report_model *cluster(struct report_set *set,
				    const struct shape *sh)
{
	json_t *d[5];

	for (int i = 1; i <= 4; i++)
		d[i] = scan(i, sh);
	for (int i = 1; i <= 4; i++)
		for (int j = 1; j <= 4; j++) {
			bool cut = sh->fail &&
				   ((i == sh->lacks && j == sh->lacked) ||
				    (j == sh->lacks && i == sh->lacked));

			if (i != j)
				scanfx_peer(d[i], j, "vx0", !cut);
		}
	return scanfx_build(set, d, 4);
}

/* blind48f 02's shape: n4's vx0 lacks n2's entry, n2 <-> n4 fail. */
START_TEST(missing_entry_on_its_node)
{
	struct report_set set = {0};
	const struct shape sh = {false, false, 4, 2, true};
	struct report_model *m = cluster(&set, &sh);
	const json_t *k, *cmds;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(scanfx_count(m, "vxlan-proxy-neigh-missing", "n4"), 1);
	ck_assert_uint_eq(scanfx_count(m, "vxlan-proxy-neigh-missing", NULL), 1);
	ck_assert_uint_eq(m->ncauses, 1);
	k = m->causes[0].cause;
	ck_assert_str_eq(rj_str(k, "id"), "setting:n4");
	cmds = unitfix_fix_shell(k);
	ck_assert_uint_eq(json_array_size(cmds), 1);
	ck_assert_str_eq(json_string_value(json_array_get(cmds, 0)),
			 "ip neigh replace 10.231.9.2 lladdr 0a:e7:65:00:00:02 "
			 "dev vx0 nud permanent");
	ck_assert(strstr(rj_strd(k, "summary", ""), "proxy") != NULL);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Decoys: every entry present (blind48f 06); n4 lacks n2's entry but
 * their pair works; the same with learning on, and with l3miss on,
 * where the pair fails (the kernel learns, or a daemon fills entries on
 * demand: the missing entry is no evidence). Nothing raised. */
START_TEST(decoys_are_silent)
{
	const struct shape shapes[] = {
		{false, false, 0, 0, false},
		{false, false, 4, 2, false},
		{true, false, 4, 2, true},
		{false, true, 4, 2, true},
	};

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct report_set set = {0};
		struct report_model *m = cluster(&set, &shapes[i]);

		ck_assert_ptr_nonnull(m);
		ck_assert_msg(scanfx_count(m, "vxlan-proxy-neigh-missing",
					   NULL) == 0, "shape %zu", i);
		report_model_free(m);
		report_set_free(&set);
	}
}
END_TEST

Suite *suite_report_vxproxy(void)
{
	Suite *s = suite_create("report_vxproxy");
	TCase *tc = tcase_create("vxproxy");

	tcase_add_test(tc, missing_entry_on_its_node);
	tcase_add_test(tc, decoys_are_silent);
	suite_add_tcase(s, tc);
	return s;
}
