/* netprobe report: two macvlan siblings in VEPA or private mode
 * (reports/decide/decide_vepa.c, issue 48). Both ends of the pair that
 * fails carry a setting cause with the command that puts their own
 * macvlan in bridge mode; the other nodes carry nothing. Bridge mode, a
 * VEPA pair that works (siblings of different hosts) and a pair failed
 * one way only raise nothing. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_model.h"
#include "report_scan_fx.h"

/* A scan of node with lan0 at 10.231.9.N/24: a veth, or with mode a
 * macvlan in that mode; no peer yet. */
static json_t *scan(const char *node, int n, const char *mode)
{
	char addr[32], mac[32];

	snprintf(addr, sizeof(addr), "10.231.9.%d", n);
	snprintf(mac, sizeof(mac), "02:00:00:00:00:%02x", n);
	return scanfx_scan(&(const struct scanfx_doc){
		.node = node, .started = "2026-12-06T10:00:00Z",
		.ifname = "lan0", .mtu = 1500,
		.kind = mode != NULL ? "macvlan" : "veth", .mode = mode,
		.mode_null = true,
		.mac = mac, .addr = addr, .rec_if = "lan0", .rec_addr = addr,
		.no_neigh = true});
}

/* Four nodes n1..n4, n3 and n4 on macvlans in mode m34 (NULL: veths);
 * every pair answers but n3->n4 when d34 and n4->n3 when d43. */
static struct report_model *cluster(struct report_set *set, const char *m34,
				    bool d34, bool d43)
{
	json_t *d[5];
	char name[16];

	for (int i = 1; i <= 4; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		d[i] = scan(name, i, i >= 3 ? m34 : NULL);
	}
	for (int i = 1; i <= 4; i++)
		for (int j = 1; j <= 4; j++)
			if (i != j)
				scanfx_peer(d[i], j, "lan0",
					    !((d34 && i == 3 && j == 4) ||
					      (d43 && i == 4 && j == 3)));
	return scanfx_build(set, d, 4);
}

START_TEST(vepa_siblings_both_fixed)
{
	struct report_set set = {0};
	struct report_model *m = cluster(&set, "vepa", true, true);

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_ne(scanfx_count(m, "macvlan-vepa-peer", "n3"), 0);
	ck_assert_uint_ne(scanfx_count(m, "macvlan-vepa-peer", "n4"), 0);
	ck_assert_uint_eq(scanfx_count(m, "macvlan-vepa-peer", "n1"), 0);
	ck_assert_uint_eq(m->ncauses, 2);
	for (size_t i = 0; i < 2; i++) {
		const json_t *k = m->causes[i].cause;

		ck_assert_str_eq(rj_str(k, "id"), i == 0 ? "setting:n3"
							 : "setting:n4");
		ck_assert_str_eq(unitfix_fix_cmd(k, 0),
				 "ip link set lan0 type macvlan mode bridge");
	}
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

START_TEST(private_siblings_too)
{
	struct report_set set = {0};
	struct report_model *m = cluster(&set, "private", true, true);

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_ne(scanfx_count(m, "macvlan-vepa-peer", "n3"), 0);
	ck_assert_uint_ne(scanfx_count(m, "macvlan-vepa-peer", "n4"), 0);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Bridge mode switches siblings inside the host: a failed pair there is
 * something else's. */
START_TEST(bridge_mode_raises_nothing)
{
	struct report_set set = {0};
	struct report_model *m = cluster(&set, "bridge", true, true);

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(scanfx_count(m, "macvlan-vepa-peer", NULL), 0);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* VEPA macvlans whose pair works (on different hosts, or a switch that
 * hairpins): healthy, no cause. */
START_TEST(working_vepa_pair_is_healthy)
{
	struct report_set set = {0};
	struct report_model *m = cluster(&set, "vepa", false, false);

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(scanfx_count(m, "macvlan-vepa-peer", NULL), 0);
	ck_assert_uint_eq(m->ncauses, 0);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* One way only is a firewall's shape, not a lost ARP. */
START_TEST(one_way_failure_raises_nothing)
{
	struct report_set set = {0};
	struct report_model *m = cluster(&set, "vepa", true, false);

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(scanfx_count(m, "macvlan-vepa-peer", NULL), 0);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

Suite *suite_report_vepa(void)
{
	Suite *s = suite_create("report_vepa");
	TCase *tc = tcase_create("vepa");

	tcase_add_test(tc, vepa_siblings_both_fixed);
	tcase_add_test(tc, private_siblings_too);
	tcase_add_test(tc, bridge_mode_raises_nothing);
	tcase_add_test(tc, working_vepa_pair_is_healthy);
	tcase_add_test(tc, one_way_failure_raises_nothing);
	suite_add_tcase(s, tc);
	return s;
}
