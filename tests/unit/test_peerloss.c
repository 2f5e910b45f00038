/* The link's tail (issue 31's link-slow): what the hosts held an echo for
 * is taken out of its round trip, so a stalled host is not a slow link,
 * and a tail the hosts did not make still warns. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "decide/fwcmd.h"
#include "decide/peerdecide.h"
#include "doc/doc.h"
#include "probe/peercheck.h"
#include "probe/peerloss.h"

/* The arithmetic of one echo: late and held come out, a figure longer
 * than the round trip itself (a stepped clock) does not. */
START_TEST(link_rtt_takes_out_the_hosts)
{
	long long hosts = -1;

	/* the responder held it 399 ms of 400 */
	ck_assert_int_eq(peerloss_link_rtt(400000, 0, 399000, &hosts), 1000);
	ck_assert_int_eq(hosts, 399000);
	/* we read it 300 ms late, the responder held it 50 ms */
	ck_assert_int_eq(peerloss_link_rtt(360000, 300000, 50000, &hosts),
	                 10000);
	ck_assert_int_eq(hosts, 350000);
	/* an old responder does not tell (held < 0): our lateness only */
	ck_assert_int_eq(peerloss_link_rtt(360000, 300000, -1, &hosts), 60000);
	ck_assert_int_eq(hosts, 300000);
	/* longer than the round trip: not believed, not taken out */
	ck_assert_int_eq(peerloss_link_rtt(1000, 5000, -1, &hosts), 1000);
	ck_assert_int_eq(hosts, 0);
	ck_assert_int_eq(peerloss_link_rtt(1000, 600, 600, &hosts), 400);
	ck_assert_int_eq(hosts, 600);
}
END_TEST

/* The codes peercheck_decide gives v's link figures. */
static bool decides_slow(long long p50, long long p99, long long held)
{
	struct peercheck pc;
	struct fw_plan fw = {.n = 0};
	struct doc d;
	bool slow = false;

	memset(&pc, 0, sizeof(pc));
	pc.obj = json_object();
	pc.v.responded = true;
	pc.v.inbound = -1;
	pc.v.nat = -1;
	strcpy(pc.v.peer_addr, "10.231.90.2");
	strcpy(pc.v.local_addr, "10.231.90.1");
	pc.v.udp_sent = 100;
	pc.v.rtt_p50_us = p50;
	pc.v.rtt_p99_us = p99;
	pc.v.hosts_held_max_us = held;
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(peercheck_decide(&pc, 32768, 60999, &fw, &d), 0);
	for (size_t i = 0; i < json_array_size(d.findings); i++)
		if (strcmp(json_string_value(json_object_get(
		               json_array_get(d.findings, i), "code")),
		           "link-slow") == 0)
			slow = true;
	doc_free(&d);
	json_decref(pc.obj);
	return slow;
}

/* A tail of the link's own (400 ms at p99, 40 us median) warns; the same
 * echoes with the hosts' 400 ms taken out do not; a tail under 250 ms or
 * under twenty medians is a loaded link's odd echo. */
START_TEST(link_slow_only_from_the_links_tail)
{
	ck_assert(decides_slow(40, 400000, 0));
	ck_assert(!decides_slow(40, 2000, 400000));
	ck_assert(!decides_slow(40, 200000, 0));
	ck_assert(!decides_slow(20000, 300000, 0));
}
END_TEST

Suite *suite_peerloss(void)
{
	Suite *s = suite_create("peerloss");
	TCase *tc = tcase_create("tail");

	tcase_add_test(tc, link_rtt_takes_out_the_hosts);
	tcase_add_test(tc, link_slow_only_from_the_links_tail);
	suite_add_tcase(s, tc);
	return s;
}
