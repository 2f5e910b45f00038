/* The firewall plan: failed probe results become ports to open (the
 * ephemeral range as one rule) and ready nftables, ufw and firewalld
 * commands. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decide/fwcmd.h"
#include "kernel/fwrules.h"
#include "fwfixture.h"

/* The compact, sorted text of a value, for exact comparisons. */
static char *dump(json_t *j)
{
	char *s = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);

	ck_assert_ptr_nonnull(s);
	return s;
}

START_TEST(format_single_and_range)
{
	struct fw_rule r = {.lo = 29500, .hi = 29500, .proto = "tcp"};
	char buf[256];

	/* an nftables command names a table: only the ruleset tells it */
	ck_assert_int_eq(fwcmd_format(FW_NFTABLES, &r, buf, sizeof(buf)), -1);
	ck_assert_int_eq(errno, EINVAL);
	fwcmd_format(FW_UFW, &r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ufw allow 29500/tcp");
	fwcmd_format(FW_FIREWALLD, &r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "firewall-cmd --permanent --add-port=29500/tcp "
	                      "&& firewall-cmd --reload");
	r.lo = 32768;
	r.hi = 60999;
	snprintf(r.proto, sizeof(r.proto), "udp");
	fwcmd_format(FW_UFW, &r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ufw allow 32768:60999/udp");
	fwcmd_format(FW_FIREWALLD, &r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "firewall-cmd --permanent "
	                      "--add-port=32768-60999/udp && firewall-cmd "
	                      "--reload");
	ck_assert_int_eq(fwcmd_format(FW_UFW, &r, buf, 8), -1);
	ck_assert_int_eq(errno, ENOSPC);
	ck_assert_int_eq(fwcmd_format((enum fw_dialect)9, &r, buf, 64), -1);
}
END_TEST

START_TEST(add_merges_and_rejects)
{
	struct fw_plan p = {0};

	ck_assert_int_eq(fwcmd_add(&p, 32768, 60999, "tcp", NULL, "a"), 0);
	ck_assert_int_eq(fwcmd_add(&p, 40000, 40000, "tcp", "", "b"), 0);
	ck_assert_uint_eq(p.n, 1); /* inside the range already planned */
	ck_assert_int_eq(fwcmd_add(&p, 40000, 40000, "udp", NULL, "c"), 0);
	ck_assert_int_eq(fwcmd_add(&p, 40000, 40000, "tcp", "nodeb", "d"), 0);
	ck_assert_uint_eq(p.n, 3);
	ck_assert_str_eq(p.v[0].why, "a");
	ck_assert_int_eq(fwcmd_add(&p, 0, 1, "tcp", NULL, "x"), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(fwcmd_add(&p, 5, 4, "tcp", NULL, "x"), -1);
	ck_assert_int_eq(fwcmd_add(&p, 5, 70000, "tcp", NULL, "x"), -1);
	ck_assert_int_eq(fwcmd_add(&p, 5, 5, "sctp", NULL, "x"), -1);
	for (unsigned i = 1; p.n < FW_MAX_RULES; i++)
		ck_assert_int_eq(fwcmd_add(&p, i, i, "tcp", NULL, "f"), 0);
	ck_assert_int_eq(fwcmd_add(&p, 999, 999, "tcp", NULL, "x"), -1);
	ck_assert_int_eq(errno, ENOSPC);
}
END_TEST

START_TEST(plan_from_results)
{
	struct fw_plan p = {0};
	struct fw_result r[] = {
	    {7470, "tcp", "open", "syn-ack"},
	    {32768, "tcp", "filtered", "timeout"},
	    {60999, "tcp", "filtered", "timeout"},
	    {29500, "tcp", "closed", "rst"},
	    {4789, "udp", "unknown", "no responder"},
	};
	json_t *j;
	char *s;

	ck_assert_int_eq(fwcmd_plan_results(&p, r, 5, 32768, 60999,
	                                    "connect-back from 10.231.1.2",
	                                    NULL),
	                 3);
	ck_assert_uint_eq(p.n, 2);
	ck_assert_uint_eq(p.v[0].lo, 29500);
	ck_assert_uint_eq(p.v[1].lo, 32768);
	ck_assert_uint_eq(p.v[1].hi, 60999);
	ck_assert_ptr_nonnull(strstr(p.v[1].why, "ephemeral port 32768/tcp: "
	                                         "filtered (timeout)"));
	j = fwcmd_ports_json(&p);
	s = dump(j);
	ck_assert_str_eq(s, "[{\"port\":29500,\"proto\":\"tcp\",\"why\":"
	                    "\"connect-back from 10.231.1.2 to port "
	                    "29500/tcp: closed (rst)\"},{\"port\":"
	                    "\"32768-60999\",\"proto\":\"tcp\",\"why\":"
	                    "\"connect-back from 10.231.1.2 to ephemeral port "
	                    "32768/tcp: filtered (timeout); NCCL, Gloo and "
	                    "Ray workers listen on ports from 32768-60999\"}]");
	free(s);
	json_decref(j);
	/* no ruleset read: no nftables command guessed, the daemons' kept */
	j = fwcmd_commands_json(&p, NULL);
	s = dump(j);
	ck_assert_str_eq(
	    s, "{\"firewalld\":[\"firewall-cmd --permanent "
	       "--add-port=29500/tcp && firewall-cmd --reload\",\"firewall-cmd "
	       "--permanent --add-port=32768-60999/tcp && firewall-cmd "
	       "--reload\"],\"nftables\":[\"# cannot tell which table drops "
	       "29500/tcp, because this node's ruleset was not read: run `nft -a "
	       "list ruleset` as root and insert `tcp dport 29500 accept` before "
	       "the rule that drops it (nft insert rule FAMILY TABLE CHAIN "
	       "position HANDLE ...)\",\"# cannot tell which table drops "
	       "32768-60999/tcp, because this node's ruleset was not read: run "
	       "`nft -a list ruleset` as root and insert `tcp dport 32768-60999 "
	       "accept` before the rule that drops it (nft insert rule FAMILY "
	       "TABLE CHAIN position HANDLE ...)\"],\"ufw\":[\"ufw allow "
	       "29500/tcp\",\"ufw allow 32768:60999/tcp\"]}");
	free(s);
	json_decref(j);
}
END_TEST

START_TEST(plan_unknown_range_and_other_node)
{
	struct fw_plan p = {0};
	struct fw_result r[] = {{40000, "tcp", "prohibited",
	                         "icmp type 3 "
	                         "code 13"}};
	json_t *j;
	char *s;

	/* range unknown: the sampled port alone */
	ck_assert_int_eq(
	    fwcmd_plan_results(&p, r, 1, 0, 0, "outbound to nodeb", "nodeb"),
	    1);
	ck_assert_uint_eq(p.n, 1);
	ck_assert_uint_eq(p.v[0].hi, 40000);
	j = fwcmd_ports_json(&p);
	ck_assert_str_eq(
	    json_string_value(json_array_get(
	        json_object_get(json_array_get(j, 0), "nodes"), 0)),
	    "nodeb");
	json_decref(j);
	j = fwcmd_commands_json(&p, NULL);
	s = dump(json_object_get(j, "ufw"));
	ck_assert_str_eq(s, "[\"# on nodeb: ufw allow 40000/tcp\"]");
	free(s);
	s = dump(json_object_get(j, "nftables"));
	ck_assert_str_eq(s, "[\"# cannot tell which table drops 40000/tcp, "
	                    "because nodeb's ruleset is read only on nodeb: run "
	                    "`nft -a list ruleset` on nodeb as root and insert "
	                    "`tcp dport 40000 accept` before the rule that drops "
	                    "it (nft insert rule FAMILY TABLE CHAIN position "
	                    "HANDLE ...)\"]");
	free(s);
	json_decref(j);
	/* nothing failed: nothing planned, empty lists */
	memset(&p, 0, sizeof(p));
	r[0].state = "open";
	ck_assert_int_eq(fwcmd_plan_results(&p, r, 1, 1, 65535, "x", NULL), 0);
	j = fwcmd_ports_json(&p);
	ck_assert_uint_eq(json_array_size(j), 0);
	json_decref(j);
}
END_TEST

/* A drop in its own table beside Debian's empty `inet filter`: the
 * command names the table, chain and rule that drop, never inet filter;
 * no ufw or firewalld line where neither runs. */
START_TEST(commands_own_table_beside_inet_filter)
{
	json_t *fwj = fw_fixture_ruleset("owntable.json"), *j;
	struct fw_plan p = {0};
	char *s;

	ck_assert_ptr_nonnull(fwj);
	ck_assert_int_eq(fwcmd_add(&p, 40000, 40999, "tcp", NULL, "a"), 0);
	ck_assert_int_eq(fwcmd_add(&p, 4789, 4789, "udp", NULL, "b"), 0);
	ck_assert_int_eq(fwcmd_add(&p, 29500, 29500, "tcp", "nodeb", "c"), 0);
	j = fwcmd_commands_json(&p, fwj);
	ck_assert_ptr_nonnull(j);
	s = dump(j);
	ck_assert_ptr_null(strstr(s, "inet filter"));
	free(s);
	s = dump(json_object_get(j, "nftables"));
	ck_assert_str_eq(
	    s, "[\"nft insert rule inet np23_drop input position 5 tcp dport "
	       "40000-40999 accept\",\"nft insert rule inet np23_drop sub "
	       "position 9 udp dport 4789 accept\",\"# cannot tell which "
	       "table drops 29500/tcp, because nodeb's ruleset is read only on "
	       "nodeb: run `nft -a list ruleset` on nodeb as root and insert "
	       "`tcp dport 29500 accept` before the rule that drops it (nft "
	       "insert rule FAMILY TABLE CHAIN position HANDLE ...)\"]");
	free(s);
	/* this node runs neither daemon; nodeb's unknown: its lines kept */
	s = dump(json_object_get(j, "ufw"));
	ck_assert_str_eq(s, "[\"# on nodeb: ufw allow 29500/tcp\"]");
	free(s);
	json_decref(j);
	/* a port nothing in the ruleset drops: cannot tell, no guess */
	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(fwcmd_add(&p, 7000, 7000, "tcp", NULL, "d"), 0);
	j = fwcmd_commands_json(&p, fwj);
	s = dump(json_object_get(j, "nftables"));
	ck_assert_ptr_nonnull(strstr(s, "cannot tell which table drops "
	                                "7000/tcp, because no rule or drop "
	                                "policy of this node's ruleset drops "
	                                "7000/tcp"));
	ck_assert_ptr_null(strstr(s, "np23_drop"));
	free(s);
	json_decref(j);
	json_decref(fwj);
}
END_TEST

/* The ruleset could not be read (not root, nft missing: the firewall
 * object has no backend): no nftables command, the reason and how to
 * find out; ufw and firewalld kept, as nobody knows they do not run. */
START_TEST(commands_ruleset_unreadable)
{
	json_t *fwj = json_pack("{s:n, s:b, s:b, s:b, s:[]}", "backend", "ufw",
	                        0, "firewalld", 0, "truncated", 0, "blocks");
	struct fw_plan p = {0};
	json_t *j;
	char *s;

	ck_assert(!fwcmd_ruleset_read(fwj));
	ck_assert_int_eq(fwcmd_add(&p, 29500, 29500, "tcp", NULL, "a"), 0);
	j = fwcmd_commands_json(&p, fwj);
	s = dump(j);
	ck_assert_str_eq(
	    s, "{\"firewalld\":[\"firewall-cmd --permanent "
	       "--add-port=29500/tcp && firewall-cmd --reload\"],\"nftables\":"
	       "[\"# cannot tell which table drops 29500/tcp, because the "
	       "ruleset could not be read (nft -j list ruleset needs root, and "
	       "nft): run `nft -a list ruleset` as root and insert `tcp dport "
	       "29500 accept` before the rule that drops it (nft insert rule "
	       "FAMILY TABLE CHAIN position HANDLE ...)\"],\"ufw\":[\"ufw "
	       "allow 29500/tcp\"]}");
	free(s);
	json_decref(j);
	ck_assert_int_eq(fwcmd_ruleset_cmds(fwj, &p.v[0], fwj), -1);
	json_decref(fwj);
}
END_TEST

/* The scan's own commands take ufw's and firewalld's service state as
 * the report does: chains loaded but the service inactive, no line;
 * active, its line; unknown with chains, its line. */
START_TEST(commands_service_state)
{
	json_t *fwj = fw_fixture_ruleset("owntable.json"), *j;
	struct fw_plan p = {0};
	const char *why = "x";

	ck_assert_ptr_nonnull(fwj);
	ck_assert_int_eq(fwcmd_add(&p, 40000, 40999, "tcp", NULL, "a"), 0);
	json_object_set_new(fwj, "ufw", json_true());
	json_object_set_new(fwj, "ufw_service", json_string("inactive"));
	ck_assert(!fwcmd_service_takes(fwj, "ufw", &why));
	ck_assert_ptr_null(why);
	j = fwcmd_commands_json(&p, fwj);
	ck_assert_int_eq((int)json_array_size(json_object_get(j, "ufw")), 0);
	json_decref(j);
	json_object_set_new(fwj, "ufw_service", json_string("active"));
	j = fwcmd_commands_json(&p, fwj);
	ck_assert_str_eq(json_string_value(json_array_get(
	                     json_object_get(j, "ufw"), 0)),
	                 "ufw allow 40000:40999/tcp");
	json_decref(j);
	json_object_set_new(fwj, "ufw_service", json_string("unknown"));
	json_object_set_new(fwj, "ufw_why", json_string("no /etc/ufw"));
	ck_assert(fwcmd_service_takes(fwj, "ufw", &why));
	ck_assert_str_eq(why, "no /etc/ufw");
	json_object_set_new(fwj, "ufw", json_false());
	ck_assert(!fwcmd_service_takes(fwj, "ufw", &why));
	json_decref(fwj);
}
END_TEST

START_TEST(ephemeral_only)
{
	struct fw_result r[] = {
	    {7470, "tcp", "open", "syn-ack"},
	    {32768, "tcp", "filtered", "timeout"},
	    {60999, "tcp", "open", "syn-ack"},
	};

	ck_assert(fwcmd_ephemeral_only(r, 3, 32768, 60999));
	ck_assert(!fwcmd_ephemeral_only(r, 3, 0, 0)); /* range unknown */
	r[0].state = "filtered"; /* the fixed port too: not only ephemeral */
	ck_assert(!fwcmd_ephemeral_only(r, 3, 32768, 60999));
	r[0].state = "open";
	r[1].state = "open"; /* nothing failed */
	ck_assert(!fwcmd_ephemeral_only(r, 3, 32768, 60999));
	r[1].state = "reachable"; /* the responder's sample got through */
	ck_assert(!fwcmd_ephemeral_only(r, 3, 32768, 60999));
	r[1].state = "filtered";
	r[2].state = "reachable";
	ck_assert(fwcmd_ephemeral_only(r, 3, 32768, 60999));
	r[2].state = "open";
	r[1].state = "closed"; /* no fixed port tested */
	ck_assert(!fwcmd_ephemeral_only(r + 1, 2, 32768, 60999));
}
END_TEST

START_TEST(parse_range)
{
	unsigned lo, hi;

	ck_assert_int_eq(fwcmd_parse_range("32768\t60999\n", &lo, &hi), 0);
	ck_assert_uint_eq(lo, 32768);
	ck_assert_uint_eq(hi, 60999);
	ck_assert_int_eq(fwcmd_parse_range("1024 65535", &lo, &hi), 0);
	ck_assert_int_eq(fwcmd_parse_range("60999 32768", &lo, &hi), -1);
	ck_assert_int_eq(fwcmd_parse_range("32768", &lo, &hi), -1);
	ck_assert_int_eq(fwcmd_parse_range("0 10", &lo, &hi), -1);
	ck_assert_int_eq(fwcmd_parse_range("1 70000", &lo, &hi), -1);
	ck_assert_int_eq(fwcmd_parse_range("1 2 x", &lo, &hi), -1);
	ck_assert_int_eq(fwcmd_parse_range("", &lo, &hi), -1);
}
END_TEST

/* A drop limited to one source (issue 31): the port that source could
 * not reach is opened before that rule; a port met from another source,
 * or from none named, is not that rule's. */
START_TEST(commands_source_qualified)
{
	json_t *fwj = fw_fixture_ruleset("owntable.json"), *cmds;
	struct fw_rule r = {.lo = 7000, .hi = 7000, .proto = "tcp"};
	char *s;

	ck_assert_ptr_nonnull(fwj);
	snprintf(r.src, sizeof(r.src), "1.2.3.4");
	cmds = json_object();
	ck_assert_int_eq(fwcmd_ruleset_cmds(fwj, &r, cmds), 1);
	s = dump(json_object_get(cmds, "nftables"));
	ck_assert_str_eq(s, "[\"nft insert rule inet np23_drop input "
	                    "position 7 tcp dport 7000 accept\"]");
	free(s);
	json_decref(cmds);
	snprintf(r.src, sizeof(r.src), "1.2.3.5");
	cmds = json_object();
	ck_assert_int_eq(fwcmd_ruleset_cmds(fwj, &r, cmds), 0);
	json_decref(cmds);
	r.src[0] = '\0';
	cmds = json_object();
	ck_assert_int_eq(fwcmd_ruleset_cmds(fwj, &r, cmds), 0);
	json_decref(cmds);
	json_decref(fwj);
}
END_TEST

/* Issue 31: an accept ahead of the drop (a fix already pasted, a ufw
 * allow) lets the port through: no command for it, and none for the
 * policy of its table; a port no accept names keeps its command. */
START_TEST(commands_accepted_before)
{
	json_t *fwj = json_pack(
	    "{s:s, s:[{s:s, s:s, s:s, s:s, s:n, s:n, s:[], s:s}, "
	    "{s:s, s:s, s:s, s:s, s:i, s:s, s:[s], s:s}]}",
	    "backend", "nftables", "blocks", "kind", "policy", "family", "ip",
	    "table", "filter", "chain", "INPUT", "handle", "proto", "ports",
	    "verdict", "drop", "kind", "rule", "family", "ip", "table", "filter",
	    "chain", "ufw-user-input", "handle", 9, "proto", "tcp", "ports",
	    "29500", "verdict", "accept");
	struct fw_rule r = {.lo = 29500, .hi = 29500, .proto = "tcp"};
	json_t *cmds = json_object();

	ck_assert_ptr_nonnull(fwj);
	ck_assert_int_eq(fwcmd_ruleset_cmds(fwj, &r, cmds), 0);
	json_decref(cmds);
	r.lo = r.hi = 29400;
	cmds = json_object();
	ck_assert_int_eq(fwcmd_ruleset_cmds(fwj, &r, cmds), 1);
	json_decref(cmds);
	json_decref(fwj);
}
END_TEST

Suite *suite_fwcmd(void)
{
	Suite *s = suite_create("fwcmd");
	TCase *tc = tcase_create("plan");

	tcase_add_test(tc, format_single_and_range);
	tcase_add_test(tc, add_merges_and_rejects);
	tcase_add_test(tc, plan_from_results);
	tcase_add_test(tc, plan_unknown_range_and_other_node);
	tcase_add_test(tc, commands_own_table_beside_inet_filter);
	tcase_add_test(tc, commands_ruleset_unreadable);
	tcase_add_test(tc, commands_service_state);
	tcase_add_test(tc, ephemeral_only);
	tcase_add_test(tc, parse_range);
	tcase_add_test(tc, commands_source_qualified);
	tcase_add_test(tc, commands_accepted_before);
	suite_add_tcase(s, tc);
	return s;
}
