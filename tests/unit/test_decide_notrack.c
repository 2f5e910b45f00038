/* notrack-untracked-drop (lib/decide/decide_notrack.c, issue 48) from
 * rulesets recorded with nft -j list ruleset (tests/fixtures/fwrules,
 * each beside its .nft source): blind48b 05's exemption in front of
 * accepts of ct states new and established is a fault whose command
 * accepts the exempted packets untracked; 08's symmetric exemption with
 * an untracked accept (and lo's packets exempted, which go with lo's own
 * accept), a port exemption whose port is accepted with no ct
 * state, and an exemption with nothing dropping behind it are silent. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "decide/decide_notrack.h"
#include "fwfixture.h"
#include "kernel/fwrules.h"

/* The findings decide_notrack adds for the recorded ruleset rel: their
 * count, and the first one's command into cmd ("" when none). */
static size_t run(const char *rel, char *cmd, size_t len)
{
	char *t = fw_fixture_text(rel);
	struct fw_rules *r = calloc(1, sizeof(*r));
	struct doc d;
	size_t n;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(fwrules_parse_nft(t, r), 0);
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(decide_notrack(r, &d), 0);
	n = json_array_size(d.findings);
	cmd[0] = '\0';
	if (n > 0) {
		const json_t *f = json_array_get(d.findings, 0);

		ck_assert_str_eq(json_string_value(json_object_get(f, "code")),
				 "notrack-untracked-drop");
		snprintf(cmd, len, "%s",
			 json_string_value(json_object_get(f, "command")));
	}
	doc_free(&d);
	free(r);
	free(t);
	return n;
}

START_TEST(exempted_then_dropped)
{
	char cmd[512];

	ck_assert_uint_eq(run("notrack-drop.json", cmd, sizeof(cmd)), 1);
	ck_assert_str_eq(cmd, "nft insert rule inet filter input ct state "
			      "untracked ip saddr 10.231.62.0/24 accept");
}
END_TEST

START_TEST(port_exemption_accepted_new_only)
{
	char cmd[512];

	/* 29500 and 29400-29410 are accepted as ct state new only; 53/udp
	 * with no ct state, which matches untracked packets too */
	ck_assert_uint_eq(run("notrack-port.json", cmd, sizeof(cmd)), 1);
	ck_assert_str_eq(cmd, "nft insert rule inet filter input ct state "
			      "untracked tcp dport { 29400-29410, 29500 } "
			      "accept");
}
END_TEST

START_TEST(healthy_rulesets_are_silent)
{
	char cmd[512];

	ck_assert_uint_eq(run("notrack-accepted.json", cmd, sizeof(cmd)), 0);
	ck_assert_uint_eq(run("notrack-nodrop.json", cmd, sizeof(cmd)), 0);
	ck_assert_uint_eq(run("owntable.json", cmd, sizeof(cmd)), 0);
}
END_TEST

/* The parser keeps the exemptions and the untracked accepts apart from
 * the blocks: the blocks of 08's ruleset are the ones they always were. */
START_TEST(parsed_apart_from_blocks)
{
	char *t = fw_fixture_text("notrack-accepted.json");
	struct fw_rules *r = calloc(1, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(fwrules_parse_nft(t, r), 0);
	ck_assert_uint_eq(r->nnotrack, 1); /* prerouting only, not output */
	ck_assert_str_eq(r->notrack[0].saddr[0], "10.231.62.0/24");
	ck_assert_uint_eq(r->nuntracked, 1);
	ck_assert_uint_eq(r->n, 2); /* the policy, the accept of port 22 */
	ck_assert_int_eq(r->b[0].kind, FWR_POLICY);
	ck_assert(r->b[1].accept && !r->b[1].ct_new);
	free(r);
	free(t);
}
END_TEST

/* iptables-nft's -j CT --notrack is an opaque xt target in nft's JSON:
 * nothing is raised, and the document says the exemptions are unread
 * (so the report's row stays open). */
START_TEST(iptables_nft_target_unread)
{
	char *t = fw_fixture_text("notrack-xt.json");
	struct fw_rules *r = calloc(1, sizeof(*r));
	char cmd[512];
	json_t *j;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(fwrules_parse_nft(t, r), 0);
	ck_assert(r->notrack_xt);
	ck_assert_uint_eq(r->nnotrack, 0);
	j = fwrules_to_json(r);
	ck_assert(json_is_true(json_object_get(j, "notrack_unread")));
	json_decref(j);
	ck_assert_uint_eq(run("notrack-xt.json", cmd, sizeof(cmd)), 0);
	free(r);
	free(t);
}
END_TEST

/* The findings decide_notrack adds for nft's JSON rel with the
 * iptables-nft-save text save read beside it, as fwrules_collect does:
 * their count, and the commands into cmd (one a line). */
static size_t run_ipt(const char *rel, const char *save, char *cmd,
		      size_t len)
{
	char *t = fw_fixture_text(rel), *x = fw_fixture_text(save);
	struct fw_rules *r = calloc(1, sizeof(*r));
	struct doc d;
	size_t n, i, l = 0;
	json_t *f;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(fwrules_parse_nft(t, r), 0);
	ck_assert(r->notrack_xt);
	fwrules_parse_ipt_notrack(x, "iptables-nft", r);
	ck_assert(!r->notrack_xt);
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_int_eq(decide_notrack(r, &d), 0);
	n = json_array_size(d.findings);
	cmd[0] = '\0';
	json_array_foreach(d.findings, i, f)
		l += (size_t)snprintf(cmd + l, len - l, "%s\n",
				      json_string_value(
					  json_object_get(f, "command")));
	doc_free(&d);
	free(r);
	free(x);
	free(t);
	return n;
}

/* iptables-nft's -j CT --notrack and -j NOTRACK, read from its save:
 * each a fault whose command is iptables-nft's; after those two
 * commands (the save's fixed state) nothing. */
START_TEST(iptables_nft_exemptions)
{
	char cmd[1024];

	ck_assert_uint_eq(run_ipt("notrack-ipt.json", "notrack-ipt.save", cmd,
				  sizeof(cmd)),
			  2);
	ck_assert_str_eq(cmd, "iptables-nft -I INPUT -s 10.231.62.0/24 -m "
			      "conntrack --ctstate UNTRACKED -j ACCEPT\n"
			      "iptables-nft -I INPUT -p tcp -m multiport "
			      "--dports 29400,29500 -m conntrack --ctstate "
			      "UNTRACKED -j ACCEPT\n");
	ck_assert_uint_eq(run_ipt("notrack-ipt.json", "notrack-ipt-fixed.save",
				  cmd, sizeof(cmd)),
			  0);
}
END_TEST

Suite *suite_decide_notrack(void)
{
	Suite *s = suite_create("decide_notrack");
	TCase *tc = tcase_create("notrack");

	tcase_add_test(tc, exempted_then_dropped);
	tcase_add_test(tc, port_exemption_accepted_new_only);
	tcase_add_test(tc, healthy_rulesets_are_silent);
	tcase_add_test(tc, parsed_apart_from_blocks);
	tcase_add_test(tc, iptables_nft_target_unread);
	tcase_add_test(tc, iptables_nft_exemptions);
	suite_add_tcase(s, tc);
	return s;
}
