/* netprobe report: the pairs a node's own routing table cuts it off from
 * (reports/decide/decide_rtdrop.c, issue 48), on the documents
 * blind48c's cluster 04 and 08 recorded (judge.sh, this branch's binary).
 * ecmp-fault: node01 and node02 reach subnet B by an ECMP route over
 * .251 and .252, .252 is dead; node02's lookup toward node04 and node01's
 * toward node05 (which never joined: node01's replies to its joins took
 * .252) pick .252: each node's ecmp-dead-nexthop is its one setting
 * cause, owning both directions of its pairs and node05's missing join,
 * with the ip route replace command; no cause lands on node04 or node05,
 * and none is undecided. ecmp-healthy: the same ECMP over two live
 * routers: nothing is raised. */
#include <check.h>
#include <string.h>

#include "report_model.h"
#include "unitfix.h"

START_TEST(dead_nexthop_owns_its_pairs)
{
	struct report_set set = {0};
	struct report_model *m = unitfix_report_dir(&set, "ecmp-fault");
	size_t i;
	json_t *f;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 2);
	for (size_t k = 0; k < 2; k++) {
		const json_t *c = m->causes[k].cause;
		const char *id = rj_str(c, "id");

		ck_assert_msg(strcmp(id, "setting:node01") == 0 ||
				      strcmp(id, "setting:node02") == 0,
			      "cause %s", id);
		ck_assert_str_eq(unitfix_fix_cmd(c, 0),
				 "ip route replace 10.231.85.0/24 via "
				 "10.231.84.251 dev lan0");
	}
	/* every fault is one of the two; node04's and node05's too */
	json_array_foreach(rj_arr(report_doc(m), "findings"), i, f) {
		const char *rc = rj_strd(f, "root_cause", "");

		if (strcmp(rj_strd(f, "severity", ""), "fault") != 0)
			continue;
		ck_assert_msg(strcmp(rc, "setting:node01") == 0 ||
				      strcmp(rc, "setting:node02") == 0,
			      "%s on %s: %s", rj_strd(f, "code", ""),
			      rj_strd(f, "node", ""), rc);
	}
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

START_TEST(live_ecmp_is_healthy)
{
	unitfix_healthy_dir("ecmp-healthy");
}
END_TEST

Suite *suite_report_rtdrop(void)
{
	Suite *s = suite_create("report_rtdrop");
	TCase *tc = tcase_create("rtdrop");

	tcase_add_test(tc, dead_nexthop_owns_its_pairs);
	tcase_add_test(tc, live_ecmp_is_healthy);
	suite_add_tcase(s, tc);
	return s;
}
