/* netprobe report: notrack-untracked-drop's pairs (reports/decide/
 * decide_untracked.c, issue 48), on the documents tests/lab/t_notrack.sh
 * recorded. notrack-fault: node03 exempts the job's ports (29400, 29500)
 * from tracking in front of an input chain that accepts new, established
 * and related only; its scan's fault cuts it off from the three others,
 * so their port-filtered findings are its one setting cause's, with the
 * command that accepts the ports untracked, and no pair is undecided.
 * notrack-healthy: every node exempts the LAN both ways and accepts it
 * untracked: nothing is raised. */
#include <check.h>
#include <string.h>

#include "report_model.h"
#include "unitfix.h"

START_TEST(exemption_owns_its_pairs)
{
	struct report_set set = {0};
	struct report_model *m = unitfix_report_dir(&set, "notrack-fault");
	const json_t *k;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 1);
	k = m->causes[0].cause;
	ck_assert_str_eq(rj_str(k, "id"), "setting:node03");
	ck_assert_str_eq(unitfix_fix_cmd(k, 0),
			 "nft insert rule inet np48_filter input ct state "
			 "untracked tcp dport { 29400, 29500 } accept");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

START_TEST(accepted_exemption_is_healthy)
{
	unitfix_healthy_dir("notrack-healthy");
}
END_TEST

Suite *suite_report_untracked(void)
{
	Suite *s = suite_create("report_untracked");
	TCase *tc = tcase_create("untracked");

	tcase_add_test(tc, exemption_owns_its_pairs);
	tcase_add_test(tc, accepted_exemption_is_healthy);
	suite_add_tcase(s, tc);
	return s;
}
