/* netprobe report: a member that did not join whose own document was
 * merged (mesh --out on every member) and whose own scan found the fault
 * of its kernel that cut it off (reports/decide/decide_missing.c, issue
 * 48): that member's setting cause owns node 0's mesh-node-missing, not
 * an undecided pair. Documents of blind48c 05 and 03, recorded by
 * tests/fixtures/report/redirect-member/record.sh. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_model.h"
#include "report_causes_fx.h"

/* blind48c 05 recorded with every member's --out
 * (tests/fixtures/report/redirect-member/record.sh): node03's own
 * document, merged, holds its scan's nat-redirect-unheld (istio-init's
 * redirects, no proxy): that setting cause owns node 0's
 * mesh-node-missing, with the commands that delete the two jumps, and
 * no undecided cause is left (issue 48). */
START_TEST(refused_member_own_redirect)
{
	struct report_set set = {0};
	struct report_model *m;
	const struct rm_cause *k;
	const json_t *sh;
	size_t i, n = 0;
	json_t *f;

	ck_assert_int_eq(chdir(SRCDIR "/tests/fixtures/report/redirect-member"),
			 0);
	ck_assert_int_eq(report_load_path(&set, "."), 0);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_null(cause(m, "undecided:node01<->node03"));
	k = cause(m, "setting:node03");
	ck_assert_ptr_nonnull(k);
	sh = unitfix_fix_shell(k->cause);
	ck_assert_uint_eq(json_array_size(sh), 2);
	ck_assert_str_eq(json_string_value(json_array_get(sh, 0)),
			 "nft delete rule ip nat PREROUTING handle 23");
	ck_assert_str_eq(json_string_value(json_array_get(sh, 1)),
			 "nft delete rule ip nat OUTPUT handle 24");
	json_array_foreach(rj_arr(m->doc, "causes"), i, f)
		n++;
	ck_assert_uint_eq(n, 1);
	json_array_foreach(rj_arr(m->doc, "findings"), i, f)
		if (strcmp(rj_str(f, "code"), "mesh-node-missing") == 0)
			ck_assert_str_eq(rj_strd(f, "root_cause", "none"),
					 "setting:node03");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* blind48c 03 recorded so (B48_ID=03-stale-xfrm-policy OWN=node04):
 * node04's own document holds its scan's two xfrm-policy-no-state
 * faults (IPsec policies, no SA); that setting cause owns node 0's
 * mesh-node-missing, with the two ip xfrm policy delete commands, and
 * no undecided cause is left (issue 48). */
START_TEST(silent_member_own_xfrm)
{
	struct report_set set = {0};
	struct report_model *m;
	const struct rm_cause *k;
	size_t i, n = 0;
	json_t *f;

	ck_assert_int_eq(chdir(SRCDIR "/tests/fixtures/report/xfrm-member"),
			 0);
	ck_assert_int_eq(report_load_path(&set, "."), 0);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_null(cause(m, "undecided:node01<->node04"));
	k = cause(m, "setting:node04");
	ck_assert_ptr_nonnull(k);
	ck_assert_uint_eq(json_array_size(unitfix_fix_shell(k->cause)), 2);
	json_array_foreach(rj_arr(m->doc, "causes"), i, f)
		n++;
	ck_assert_uint_eq(n, 1);
	json_array_foreach(rj_arr(m->doc, "findings"), i, f)
		if (strcmp(rj_str(f, "code"), "mesh-node-missing") == 0)
			ck_assert_str_eq(rj_strd(f, "root_cause", "none"),
					 "setting:node04");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

Suite *suite_report_own(void)
{
	Suite *s = suite_create("report_own");
	TCase *tc = tcase_create("own");

	tcase_add_test(tc, refused_member_own_redirect);
	tcase_add_test(tc, silent_member_own_xfrm);
	suite_add_tcase(s, tc);
	return s;
}
