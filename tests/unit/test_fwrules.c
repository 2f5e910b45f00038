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

/* The "SYN flood protection" of many iptables guides (audit48): new
 * connections accepted under a limit, every other SYN dropped by the
 * next rule. The drop matches on the SYN flag, iptables' --syn: a drop of
 * every new TCP connection over the limit, which the elimination must not
 * read as "no rule drops" (tests/gen kind synflood). The limit's accept
 * is no accept of the job's ports (it lets only some through). A flag
 * match that is no plain SYN stays unread. */
START_TEST(nft_syn_drop_after_limit)
{
	char *t = fw_fixture_text("synflood.json");
	const char *other =
	    "{\"nftables\": [{\"chain\": {\"family\": \"inet\", \"table\": "
	    "\"t\", \"name\": \"input\", \"hook\": \"input\", \"policy\": "
	    "\"accept\"}}, {\"rule\": {\"family\": \"inet\", \"table\": "
	    "\"t\", \"chain\": \"input\", \"handle\": 4, \"expr\": "
	    "[{\"match\": {\"op\": \"in\", \"left\": {\"payload\": "
	    "{\"protocol\": \"tcp\", \"field\": \"flags\"}}, \"right\": "
	    "\"syn\"}}, {\"match\": {\"op\": \"==\", \"left\": "
	    "{\"payload\": {\"protocol\": \"tcp\", \"field\": \"dport\"}}, "
	    "\"right\": 29500}}, {\"drop\": null}]}}, {\"rule\": "
	    "{\"family\": \"inet\", \"table\": \"t\", \"chain\": "
	    "\"input\", \"handle\": 5, \"expr\": [{\"match\": {\"op\": "
	    "\"==\", \"left\": {\"&\": [{\"payload\": {\"protocol\": "
	    "\"tcp\", \"field\": \"flags\"}}, [\"syn\", \"rst\"]]}, "
	    "\"right\": [\"syn\", \"rst\"]}}, {\"drop\": null}]}}]}";
	struct fw_rules r;

	ck_assert_int_eq(fwrules_parse_nft(t, &r), 0);
	free(t);
	/* the SYN drop (handle 3), every TCP port; the limit's accept is
	 * none (it lets only some through) */
	ck_assert_uint_eq(r.n, 1);
	ck_assert_int_eq(r.b[0].kind, FWR_RULE);
	ck_assert_str_eq(r.b[0].table, "filter");
	ck_assert_str_eq(r.b[0].chain, "INPUT");
	ck_assert_int_eq(r.b[0].handle, 3);
	ck_assert(!r.b[0].accept);
	ck_assert(fwrules_blocks(&r.b[0], "tcp", 29500));
	ck_assert(fwrules_blocks(&r.b[0], "tcp", 40000));
	ck_assert(!fwrules_blocks(&r.b[0], "udp", 29500));
	/* nft's own "tcp flags syn tcp dport 29500 drop": that port; a
	 * SYN+RST drop (a malformed-packet guard) is no new connection's */
	ck_assert_int_eq(fwrules_parse_nft(other, &r), 0);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_int_eq(r.b[0].handle, 4);
	ck_assert(fwrules_blocks(&r.b[0], "tcp", 29500));
	ck_assert(!fwrules_blocks(&r.b[0], "tcp", 29400));
	/* iptables-legacy-save's form of the same guard; a SYN+RST guard
	 * and "! --syn" are none */
	ck_assert_int_eq(
	    fwrules_parse_iptables(
	        "*filter\n:INPUT ACCEPT [0:0]\n"
	        "-A INPUT -p tcp -m tcp --tcp-flags FIN,SYN,RST,ACK SYN -m "
	        "limit --limit 2/sec --limit-burst 2 -j ACCEPT\n"
	        "-A INPUT -p tcp -m tcp --tcp-flags SYN,RST SYN,RST -j DROP\n"
	        "-A INPUT -p tcp -m tcp ! --syn -m state --state NEW -j DROP\n"
	        "-A INPUT -p tcp -m tcp --tcp-flags FIN,SYN,RST,ACK SYN -j "
	        "DROP\nCOMMIT\n",
	        &r),
	    0);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_int_eq(r.b[0].handle, 4);
	ck_assert(fwrules_blocks(&r.b[0], "tcp", 29500));
}
END_TEST

/* audit48: the drops this reader does not judge (unread.nft): a daddr
 * match (handle 6: its port read) and a mark (7: every port) are kept in
 * unread, so no elimination may say the ruleset drops nothing; the ones
 * that cannot be about a peer's new connection (ct state invalid, ICMP)
 * and the rate limit (kernel/hostlim.h's) are not. The reject of 29400
 * is a block as before. */
START_TEST(nft_unread_drops)
{
	char *t = fw_fixture_text("unread.json");
	struct fw_rules r;
	json_t *o;

	ck_assert_int_eq(fwrules_parse_nft(t, &r), 0);
	free(t);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_int_eq(r.b[0].handle, 8);
	ck_assert_uint_eq(r.nunread, 2);
	ck_assert_int_eq(r.unread[0].handle, 6);
	ck_assert_str_eq(r.unread[0].table, "np_unread");
	ck_assert(fwrules_blocks(&r.unread[0], "tcp", 29500));
	ck_assert(!fwrules_blocks(&r.unread[0], "tcp", 29400));
	ck_assert_int_eq(r.unread[1].handle, 7);
	ck_assert_uint_eq(r.unread[1].nranges, 0);
	o = fwrules_to_json(&r);
	ck_assert_ptr_nonnull(o);
	ck_assert_uint_eq(json_array_size(json_object_get(o, "unread")), 2);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(
	                     json_array_get(json_object_get(o, "unread"), 0),
	                     "ports"), 0)),
	                 "29500");
	json_decref(o);
}
END_TEST

/* audit48: a drop limited to an input interface (iifname "eth9" drop, a
 * host hardening a NIC the cluster does not use) is left out once the
 * scan knows the cluster's interfaces (lan0), so no pair's failure is
 * blamed on it; one on lan0 stays, and with no interface known both do. */
START_TEST(nft_drop_on_another_iface)
{
	const char *t =
	    "{\"nftables\": [{\"chain\": {\"family\": \"inet\", \"table\": "
	    "\"t\", \"name\": \"input\", \"hook\": \"input\", \"policy\": "
	    "\"accept\"}}, {\"rule\": {\"family\": \"inet\", \"table\": "
	    "\"t\", \"chain\": \"input\", \"handle\": 3, \"expr\": "
	    "[{\"match\": {\"op\": \"==\", \"left\": {\"meta\": {\"key\": "
	    "\"iifname\"}}, \"right\": \"eth9\"}}, {\"drop\": null}]}}, "
	    "{\"rule\": {\"family\": \"inet\", \"table\": \"t\", "
	    "\"chain\": \"input\", \"handle\": 4, \"expr\": [{\"match\": "
	    "{\"op\": \"==\", \"left\": {\"meta\": {\"key\": \"iifname\"}}, "
	    "\"right\": \"lan0\"}}, {\"match\": {\"op\": \"==\", \"left\": "
	    "{\"payload\": {\"protocol\": \"tcp\", \"field\": \"dport\"}}, "
	    "\"right\": 29500}}, {\"drop\": null}]}}]}";
	const char *lan[] = {"lan0", "lan0"};
	struct fw_rules r;
	json_t *o;

	ck_assert_int_eq(fwrules_parse_nft(t, &r), 0);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_str_eq(r.b[0].iif, "eth9");
	fwrules_keep_iifs(&r, lan, 0); /* none known: both stay */
	ck_assert_uint_eq(r.n, 2);
	fwrules_keep_iifs(&r, lan, 2);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_int_eq(r.b[0].handle, 4);
	o = fwrules_to_json(&r);
	ck_assert_str_eq(json_string_value(json_object_get(
	                     json_array_get(json_object_get(o, "blocks"), 0),
	                     "iifname")),
	                 "lan0");
	json_decref(o);
	/* iptables-legacy's -i alike */
	ck_assert_int_eq(fwrules_parse_iptables(
	                     "*filter\n:INPUT ACCEPT [0:0]\n"
	                     "-A INPUT -i eth9 -j DROP\n"
	                     "-A INPUT -i lan0 -p tcp -m tcp --dport 29500 -j "
	                     "DROP\nCOMMIT\n",
	                     &r),
	                 0);
	ck_assert_uint_eq(r.n, 2);
	fwrules_keep_iifs(&r, lan, 2);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_str_eq(r.b[0].iif, "lan0");
}
END_TEST

Suite *suite_fwrules(void)
{
	Suite *s = suite_create("fwrules");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, nft_owntable);
	tcase_add_test(tc, nft_policy_and_catchall);
	tcase_add_test(tc, iptables_legacy);
	tcase_add_test(tc, nft_syn_drop_after_limit);
	tcase_add_test(tc, nft_unread_drops);
	tcase_add_test(tc, nft_drop_on_another_iface);
	suite_add_tcase(s, tc);
	return s;
}
