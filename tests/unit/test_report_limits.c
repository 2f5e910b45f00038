/* netprobe report: host limits as root causes (issue 48). A generated
 * cluster (tests/gen, seed 99, ratelimit@3: node03's input chain drops
 * new connections over 2/second) whose probes toward node03 timed out
 * now and then must come out as one setting cause on node03, the rule's
 * `nft delete rule` its command, owning those symptoms: no firewall
 * cause (no rule of node03's ruleset drops the ports) and no pair left
 * undecided. Before the limit causes, the report left five pairs
 * undecided. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_model.h"
#include "unitfix.h"

#define FIXDIR SRCDIR "/tests/fixtures/report"

START_TEST(rate_limit_one_setting_cause)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *k, *sh;

	ck_assert_int_eq(chdir(FIXDIR), 0);
	ck_assert_int_eq(report_load_path(&set, "limits-rate"), 0);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 1);
	k = m->causes[0].cause;
	ck_assert_str_eq(rj_str(k, "id"), "setting:node03");
	ck_assert_str_eq(rj_str(k, "severity"), "fault");
	sh = unitfix_fix_shell(k);
	ck_assert_uint_eq(json_array_size(sh), 1);
	ck_assert_str_eq(json_string_value(json_array_get(sh, 0)),
	                 "nft delete rule inet np48_rate input handle 3");
	/* the other nodes' timeouts toward node03 are its symptoms */
	ck_assert_int_ge((long long)m->causes[0].findings.n, 4);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* The same limit rejecting with a reset (seed 202, ratelimit@3): the
 * resets toward node03, from its mesh port and the ports its responder
 * held, are the limit's too; before, three port-closed findings were
 * left without a cause. */
START_TEST(rate_limit_reject_resets)
{
	struct report_set set = {0};
	struct report_model *m;
	size_t i;
	json_t *f;

	ck_assert_int_eq(chdir(FIXDIR), 0);
	ck_assert_int_eq(report_load_path(&set, "limits-reject"), 0);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 1);
	ck_assert_str_eq(rj_str(m->causes[0].cause, "id"), "setting:node03");
	json_array_foreach(rj_arr(report_doc(m), "findings"), i, f)
		if (strcmp(rj_strd(f, "severity", ""), "info") != 0)
			ck_assert_str_eq(rj_strd(f, "root_cause", "none"),
			                 "setting:node03");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A ruleset that rejects every inbound connection but ssh (the blind
 * set's 02, a firewalld-style reject-all on node02): its peers could not
 * reach the mesh's port 7471 on it, so they tested none of the job's
 * ports there. The ports to open on node02 must hold the job's ports its
 * own ruleset rejects (29400 and 29500, which the members tested on the
 * others), not only 7471 and the ephemeral range: that fix, pasted, left
 * 29400 and 29500 shut, and the mesh's UDP 7471 too, so the next run
 * ended incomplete. No other node gets ports to open. */
START_TEST(job_ports_the_ruleset_drops)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *fw, *e, *o;
	size_t i;
	bool p29400 = false, p29500 = false, p7471 = false, u7471 = false;

	ck_assert_int_eq(chdir(FIXDIR), 0);
	ck_assert_int_eq(report_load_path(&set, "fw-reject-all"), 0);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	fw = json_object_get(json_object_get(m->doc, "recommendation"),
			     "firewall");
	ck_assert_uint_eq(json_array_size(fw), 1);
	e = json_array_get(fw, 0);
	ck_assert_str_eq(rj_str(e, "node"), "node02");
	json_array_foreach(json_object_get(e, "open"), i, o) {
		const json_t *p = json_object_get(o, "port");

		if (!json_is_integer(p))
			continue;
		p29400 |= json_integer_value(p) == 29400;
		p29500 |= json_integer_value(p) == 29500;
		p7471 |= json_integer_value(p) == 7471 &&
			 strcmp(rj_str(o, "proto"), "tcp") == 0;
		u7471 |= json_integer_value(p) == 7471 &&
			 strcmp(rj_str(o, "proto"), "udp") == 0;
	}
	ck_assert(p7471 && p29400 && p29500);
	/* the mesh's UDP probes (path MTU, loss): left shut, the next
	 * run cannot finish them and ends incomplete */
	ck_assert(u7471);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A node's own MASTER_ADDR beside its peer's host limit (generated seed
 * 84 with GEN48_DRAW: portrange@4, master-wrong@5, node05's MASTER_ADDR
 * naming node04). node05's finding says so on its own evidence and
 * carries its command: it is node05's setting cause. Before, the pair
 * (node05, node04) made it a symptom of node04's narrow port range, so
 * node04's cause carried "export MASTER_ADDR=node01", to be run on the
 * wrong node, and node05 got no cause at all. */
START_TEST(own_setting_beside_peer_limit)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *k4 = NULL, *k5 = NULL, *sh;
	size_t i;

	ck_assert_int_eq(chdir(FIXDIR), 0);
	ck_assert_int_eq(report_load_path(&set, "limits-master"), 0);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	for (i = 0; i < m->ncauses; i++) {
		const char *id = rj_str(m->causes[i].cause, "id");

		if (strcmp(id, "setting:node04") == 0)
			k4 = m->causes[i].cause;
		if (strcmp(id, "setting:node05") == 0)
			k5 = m->causes[i].cause;
	}
	ck_assert_ptr_nonnull(k4);
	ck_assert_ptr_nonnull(k5);
	sh = unitfix_fix_shell(k4);
	for (i = 0; i < json_array_size(sh); i++)
		ck_assert_ptr_null(strstr(json_string_value(json_array_get(sh, i)),
		                          "MASTER_ADDR"));
	sh = unitfix_fix_shell(k5);
	ck_assert_uint_eq(json_array_size(sh), 1);
	ck_assert_str_eq(json_string_value(json_array_get(sh, 0)),
	                 "export MASTER_ADDR=node01");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

Suite *suite_report_limits(void)
{
	Suite *s = suite_create("report_limits");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, rate_limit_one_setting_cause);
	tcase_add_test(tc, rate_limit_reject_resets);
	tcase_add_test(tc, job_ports_the_ruleset_drops);
	tcase_add_test(tc, own_setting_beside_peer_limit);
	suite_add_tcase(s, tc);
	return s;
}
