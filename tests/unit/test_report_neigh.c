/* netprobe report: a static neighbour entry that outlived a peer's NIC
 * (reports/decide/decide_neigh.c, issue 48). The node that holds the
 * stale PERMANENT entry carries the one setting cause, with the command
 * that points the entry at the MAC the owner's own scan reports; the
 * owner carries nothing. Entries that match their owner, name an address
 * no member holds, a VRRP MAC, another NIC of the owner, or a pair that
 * works, raise nothing. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_model.h"
#include "report_scan_fx.h"

/* A scan of node with eth0 at 10.231.9.N/24 and MAC 02:00:00:00:00:0N,
 * an empty neighbour table, no peer yet. */
static json_t *scan(const char *node, int n)
{
	char addr[32], mac[32];

	snprintf(addr, sizeof(addr), "10.231.9.%d", n);
	snprintf(mac, sizeof(mac), "02:00:00:00:00:%02x", n);
	return scanfx_scan(&(const struct scanfx_doc){
		.node = node, .started = "2026-12-06T10:00:00Z",
		.ifname = "eth0", .mtu = 1500, .kind = "veth", .mac = mac,
		.addr = addr, .rec_if = "eth0", .rec_addr = addr});
}

/* Adds to d's neighbour table a permanent entry for addr with mac. */
static void neigh(json_t *d, const char *addr, const char *mac)
{
	json_array_append_new(
		rj_arr(d, "neighbours"),
		json_pack("{s:s, s:s, s:s, s:s, s:s}", "address", addr,
			  "family", "inet", "interface", "eth0", "lladdr", mac,
			  "state", "permanent"));
}

/* Four nodes n1..n4; every pair answers but n2-n4 when down is true
 * (both ways); tweak edits the four scans first. */
static struct report_model *cluster(struct report_set *set, bool down,
				    void (*tweak)(json_t **d))
{
	json_t *d[5];
	char name[16];

	for (int i = 1; i <= 4; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		d[i] = scan(name, i);
	}
	for (int i = 1; i <= 4; i++)
		for (int j = 1; j <= 4; j++)
			if (i != j)
				scanfx_peer(d[i], j, "eth0",
					    !(down && ((i == 2 && j == 4) ||
						       (i == 4 && j == 2))));
	if (tweak != NULL)
		tweak(d);
	return scanfx_build(set, d, 4);
}

/* n2 holds n4's address with the old NIC's MAC. */
static void stale_on_n2(json_t **d)
{
	neigh(d[2], "10.231.9.4", "02:00:00:00:aa:04");
}

START_TEST(stale_permanent_on_its_holder)
{
	struct report_set set = {0};
	struct report_model *m = cluster(&set, true, stale_on_n2);
	const json_t *k;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_ne(scanfx_count(m, "neigh-stale-static", "n2"), 0);
	ck_assert_uint_eq(scanfx_count(m, "neigh-stale-static", "n4"), 0);
	ck_assert_uint_eq(m->ncauses, 1);
	k = m->causes[0].cause;
	ck_assert_str_eq(rj_str(k, "id"), "setting:n2");
	ck_assert_str_eq(unitfix_fix_cmd(k, 0),
			 "ip neigh replace 10.231.9.4 lladdr 02:00:00:00:00:04 "
			 "dev eth0 nud permanent");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Every node holds permanent entries with the right MACs (ARP-spoofing
 * hardening), and one for a router no member is. */
static void static_everywhere(json_t **d)
{
	char addr[32], mac[32];

	for (int i = 1; i <= 4; i++) {
		for (int j = 1; j <= 4; j++) {
			if (i == j)
				continue;
			snprintf(addr, sizeof(addr), "10.231.9.%d", j);
			snprintf(mac, sizeof(mac), "02:00:00:00:00:%02x", j);
			neigh(d[i], addr, mac);
		}
		neigh(d[i], "10.231.9.254", "02:00:00:00:00:fe");
	}
}

START_TEST(healthy_static_neighbours_raise_nothing)
{
	struct report_set set = {0};
	struct report_model *m = cluster(&set, false, static_everywhere);

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(scanfx_count(m, "neigh-stale-static", NULL), 0);
	ck_assert_uint_eq(m->ncauses, 0);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Entries the decider cannot judge: an address no member holds (n2-n4
 * fails for another reason), a VRRP virtual MAC, and the MAC of the
 * owner's second NIC. */
static void unsure(json_t **d)
{
	neigh(d[2], "10.231.9.99", "02:00:00:00:aa:99");
	neigh(d[1], "10.231.9.4", "00:00:5e:00:01:07");
	neigh(d[3], "10.231.9.4", "02:00:00:00:bb:04");
	json_array_append_new(
		rj_arr(d[4], "interfaces"),
		json_pack("{s:s, s:s, s:s, s:[]}", "name", "eth1", "kind",
			  "veth", "mac", "02:00:00:00:bb:04", "addresses"));
}

START_TEST(unsure_entries_raise_nothing)
{
	struct report_set set = {0};
	struct report_model *m = cluster(&set, true, unsure);

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(scanfx_count(m, "neigh-stale-static", NULL), 0);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A stale-looking entry where the pair works: something else answers
 * (proxy ARP, a bond): no fault. */
START_TEST(stale_entry_on_a_working_pair_raises_nothing)
{
	struct report_set set = {0};
	struct report_model *m = cluster(&set, false, stale_on_n2);

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(scanfx_count(m, "neigh-stale-static", NULL), 0);
	ck_assert_uint_eq(m->ncauses, 0);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

Suite *suite_report_neigh(void)
{
	Suite *s = suite_create("report_neigh");
	TCase *tc = tcase_create("neigh");

	tcase_add_test(tc, stale_permanent_on_its_holder);
	tcase_add_test(tc, healthy_static_neighbours_raise_nothing);
	tcase_add_test(tc, unsure_entries_raise_nothing);
	tcase_add_test(tc, stale_entry_on_a_working_pair_raises_nothing);
	suite_add_tcase(s, tc);
	return s;
}
