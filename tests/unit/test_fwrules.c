/* The packet filter's blockers (kernel/fwrules.h) from recorded nft JSON
 * and iptables-legacy-save text, and the fixes the report writes against
 * them (a drop in its own table, not in an empty `inet filter`). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/fwrules.h"
#include "fwfixture.h"

START_TEST(nft_owntable)
{
	char *t = fw_fixture_text("owntable.json");
	struct fw_rules r;

	ck_assert_int_eq(fwrules_parse_nft(t, &r), 0);
	ck_assert_int_eq(r.backend, FWR_NFT);
	/* 29500+40000-40999 drop, 29400 reject, the drop of source
	 * 1.2.3.4 (every port, that source only: issue 31), sub's
	 * 4789/udp; not the empty inet filter */
	ck_assert_uint_eq(r.n, 4);
	ck_assert_str_eq(r.b[0].table, "np23_drop");
	ck_assert_str_eq(r.b[0].chain, "input");
	ck_assert_int_eq(r.b[0].kind, FWR_RULE);
	ck_assert(fwrules_blocks(&r.b[0], "tcp", 29500));
	ck_assert(fwrules_blocks(&r.b[0], "tcp", 40500));
	ck_assert(!fwrules_blocks(&r.b[0], "tcp", 29400));
	ck_assert(!fwrules_blocks(&r.b[0], "udp", 29500));
	ck_assert(r.b[1].reject);
	ck_assert_uint_eq(r.b[2].nsaddr, 1);
	ck_assert_str_eq(r.b[2].saddr[0], "1.2.3.4");
	ck_assert_uint_eq(r.b[2].nranges, 0);
	ck_assert_str_eq(r.b[3].chain, "sub");
	ck_assert(fwrules_blocks(&r.b[3], "udp", 4789));
	ck_assert_uint_eq(r.b[3].nsaddr, 0);
	ck_assert(!r.ufw && !r.firewalld);
	ck_assert_int_eq(fwrules_parse_nft("{\"x\": 1}", &r), -1);
	ck_assert_int_eq(fwrules_parse_nft("not json", &r), -1);
	free(t);
}
END_TEST

START_TEST(nft_policy_and_catchall)
{
	const char *t =
	    "{\"nftables\": [{\"table\": {\"family\": \"inet\", \"name\": "
	    "\"firewalld\"}}, {\"chain\": {\"family\": \"inet\", \"table\": "
	    "\"firewalld\", \"name\": \"filter_INPUT\", \"hook\": \"input\", "
	    "\"policy\": \"drop\"}}, {\"rule\": {\"family\": \"inet\", "
	    "\"table\": \"firewalld\", \"chain\": \"filter_INPUT\", "
	    "\"handle\": 7, \"expr\": [{\"reject\": {\"type\": \"icmpx\"}}]}}, "
	    "{\"rule\": {\"family\": \"inet\", \"table\": \"firewalld\", "
	    "\"chain\": \"filter_INPUT\", \"handle\": 8, \"expr\": "
	    "[{\"match\": {\"op\": \"in\", \"left\": {\"ct\": {\"key\": "
	    "\"state\"}}, \"right\": \"invalid\"}}, {\"drop\": null}]}}]}";
	struct fw_rules r;

	ck_assert_int_eq(fwrules_parse_nft(t, &r), 0);
	ck_assert(r.firewalld);
	ck_assert_uint_eq(r.n, 2); /* the policy, the catch-all reject */
	ck_assert_int_eq(r.b[0].kind, FWR_POLICY);
	ck_assert_int_eq(r.b[1].handle, 7);
	ck_assert(fwrules_blocks(&r.b[1], "tcp", 1));
}
END_TEST

START_TEST(iptables_legacy)
{
	char *t = fw_fixture_text("ufw-legacy.save");
	struct fw_rules r;

	ck_assert_int_eq(fwrules_parse_iptables(t, &r), 0);
	ck_assert_int_eq(r.backend, FWR_IPTABLES_LEGACY);
	ck_assert(r.ufw);
	/* the policy, the drop of source 192.168.9.9 (issue 31), the
	 * reject */
	ck_assert_uint_eq(r.n, 3);
	ck_assert_int_eq(r.b[0].kind, FWR_POLICY);
	ck_assert_uint_eq(r.b[1].nsaddr, 1);
	ck_assert_str_eq(r.b[1].saddr[0], "192.168.9.9/32");
	ck_assert_int_eq(r.b[1].handle, 2);
	ck_assert_str_eq(r.b[2].chain, "ufw-user-input");
	ck_assert_int_eq(r.b[2].handle, 3); /* its rule number */
	ck_assert(r.b[2].reject);
	ck_assert(fwrules_blocks(&r.b[2], "tcp", 29500));
	ck_assert(fwrules_blocks(&r.b[2], "tcp", 40999));
	ck_assert(!fwrules_blocks(&r.b[2], "tcp", 22));
	free(t);
}
END_TEST

Suite *suite_fwrules(void)
{
	Suite *s = suite_create("fwrules");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, nft_owntable);
	tcase_add_test(tc, nft_policy_and_catchall);
	tcase_add_test(tc, iptables_legacy);
	suite_add_tcase(s, tc);
	return s;
}
