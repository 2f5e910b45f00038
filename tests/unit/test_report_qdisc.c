/* netprobe report: a node's own shaper that drops full frames
 * (reports/decide/decide_qdisc.c, issue 48), on the documents blind48e's
 * clusters 01 and 05 recorded (judge.sh, this branch's binary).
 * qdisc-fault: node03's lan0 under tbf rate 1gbit burst 1000, every MTU
 * 1500: node03's scan raised qdisc-drops-frames, its path MTU searches
 * toward every peer found packets above 986 bytes vanish. One setting
 * cause on node03 with the tc command owns every fault, the
 * mtu-blackholes too; no MTU cause, no MTU entry to set, nothing
 * undecided. qdisc-healthy: the same tbf with a burst of 256 KiB:
 * nothing is raised. */
#include <check.h>
#include <string.h>

#include "report_model.h"
#include "unitfix.h"

START_TEST(shaper_owns_the_blackholes)
{
	struct report_set set = {0};
	struct report_model *m = unitfix_report_dir(&set, "qdisc-fault");
	const json_t *c;
	size_t i, nbh = 0;
	json_t *f;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 1);
	c = m->causes[0].cause;
	ck_assert_str_eq(rj_str(c, "id"), "setting:node03");
	ck_assert_str_eq(
		json_string_value(json_array_get(
			rj_arr(json_object_get(json_object_get(c, "fix"),
					       "commands"),
			       "shell"),
			0)),
		"tc qdisc replace dev lan0 root tbf rate 1000000000bit burst "
		"500000 latency 50ms");
	json_array_foreach(rj_arr(report_doc(m), "findings"), i, f) {
		if (strcmp(rj_strd(f, "severity", ""), "info") == 0)
			continue;
		ck_assert_msg(strcmp(rj_strd(f, "root_cause", ""),
				     "setting:node03") == 0,
			      "%s on %s: %s", rj_strd(f, "code", ""),
			      rj_strd(f, "node", ""),
			      rj_strd(f, "root_cause", ""));
		nbh += strcmp(rj_strd(f, "code", ""), "mtu-blackhole") == 0;
	}
	ck_assert_uint_ge(nbh, 1);
	/* no MTU to set: the node's own MTUs are equal */
	ck_assert_uint_eq(
		json_array_size(rj_arr(json_object_get(report_doc(m),
						       "recommendation"),
				       "mtu")),
		0);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

START_TEST(big_burst_is_healthy)
{
	struct report_set set = {0};
	struct report_model *m = unitfix_report_dir(&set, "qdisc-healthy");
	size_t i, bad = 0;
	json_t *f;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 0);
	json_array_foreach(rj_arr(report_doc(m), "findings"), i, f)
		bad += strcmp(rj_strd(f, "severity", ""), "info") != 0;
	ck_assert_uint_eq(bad, 0);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

Suite *suite_report_qdisc(void)
{
	Suite *s = suite_create("report_qdisc");
	TCase *tc = tcase_create("qdisc");

	tcase_add_test(tc, shaper_owns_the_blackholes);
	tcase_add_test(tc, big_burst_is_healthy);
	suite_add_tcase(s, tc);
	return s;
}
