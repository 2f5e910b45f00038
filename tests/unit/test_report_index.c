/* netprobe report: the lookups indexed once per report (merge_index.c,
 * decide_index.c, issue 36) answer what the scans they replaced answered:
 * the same findings in the same order, the same inputs, the same node for
 * a name, the same pairs lossy. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "report_decide.h"
#include "unitfix.h"

/* A scan of node at addr with findings (taken). */
static json_t *scan(const char *node, const char *addr, json_t *findings)
{
	return json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:o, s:[], s:[{s:s, s:i, s:s, "
		"s:[{s:s, s:s, s:i}]}], s:{s:s, s:s}, s:[]}",
		"schema", "netprobe/1", "tool", "netprobe", "command", "scan",
		"host", node, "started", "2026-11-28T10:00:00Z", "findings",
		findings, "errors", "interfaces", "name", "eth0", "mtu", 1500,
		"kind", "ether", "addresses", "address", addr, "family", "inet",
		"prefixlen", 24, "recommendation", "interface", "eth0",
		"address", addr, "peers");
}

/* A finding of code with summary. */
static json_t *finding(const char *code, const char *sev, const char *sum)
{
	return json_pack("{s:s, s:s, s:s, s:[]}", "code", code, "severity",
			 sev, "summary", sum, "evidence");
}

/* Four nodes: n1 and n3 with a lossy link to another node, n2 with two
 * findings, n4 with none; n2 wrote two documents. */
static void cluster(struct report_set *set, struct rctx *c)
{
	unitfix_load_doc(
	    set, "n3.json",
	    scan("n3", "10.231.9.3",
	         json_pack("[o]",
	                   finding("link-lossy", "warning",
	                           "the link between this node (n3) "
	                           "and n4 (10.231.9.4) loses packets"))));
	unitfix_load_doc(
	    set, "n1.json",
	    scan("n1", "10.231.9.1",
	         json_pack("[o]", finding("link-lossy", "warning",
	                                  "the link between this node (n1) "
	                                  "and 10.231.9.3 loses packets"))));
	unitfix_load_doc(
	    set, "n2.json",
	    scan("n2", "10.231.9.2",
	         json_pack("[o, o]",
	                   finding("no-usable-interface", "fault", "none"),
	                   finding("hostname-loopback", "fault", "lo"))));
	unitfix_load_doc(set, "n2-again.json",
	                 scan("n2", "10.231.9.2", json_array()));
	unitfix_load_doc(set, "n4.json",
	                 scan("n4", "10.231.9.4", json_array()));
	ck_assert_uint_eq(set->nin, 5);
	*c = (struct rctx){.set = set};
	ck_assert_int_eq(rn_build(c), 0);
	ck_assert_int_eq(rx_inputs(c), 0);
	c->findings = rf_merge(set);
	ck_assert_ptr_nonnull(c->findings);
}

/* Frees what cluster made. */
static void done(struct report_set *set, struct rctx *c)
{
	rx_free(c);
	json_decref(c->nodes);
	json_decref(c->addrs);
	json_decref(c->findings);
	report_set_free(set);
}

START_TEST(resolve_binary_search)
{
	struct report_set set = {0};
	struct rctx c;

	cluster(&set, &c);
	/* every node by name and by address; nothing else */
	ck_assert_str_eq(rn_resolve(&c, "n1", NULL), "n1");
	ck_assert_str_eq(rn_resolve(&c, "n4", NULL), "n4");
	ck_assert_str_eq(rn_resolve(&c, "n2", "x"), "n2");
	ck_assert_str_eq(rn_resolve(&c, "10.231.9.3", NULL), "n3");
	ck_assert_str_eq(rn_resolve(&c, NULL, "10.231.9.4"), "n4");
	ck_assert_ptr_null(rn_resolve(&c, "n0", NULL));
	ck_assert_ptr_null(rn_resolve(&c, "n5", "10.231.9.5"));
	ck_assert_ptr_null(rn_resolve(&c, "", NULL));
	done(&set, &c);
}
END_TEST

START_TEST(findings_and_inputs_in_order)
{
	struct report_set set = {0};
	struct rctx c;
	const json_t *l;
	size_t i, n = 0;
	json_t *f, *kv;

	cluster(&set, &c);
	/* before the index: every finding (the caller still checks) */
	ck_assert_ptr_eq(rx_node_findings(&c, "n2"), c.findings);
	ck_assert_ptr_eq(rx_code_findings(&c, FINDING_PORT_CLOSED), c.findings);
	ck_assert_int_eq(rx_findings(&c), 0);
	/* n2's findings: the merged list's, in its order */
	l = rx_node_findings(&c, "n2");
	ck_assert_uint_eq(json_array_size(l), 2);
	json_array_foreach(c.findings, i, f)
		if (strcmp(rj_str(f, "node"), "n2") == 0)
			ck_assert_ptr_eq(json_array_get(l, n++), f);
	ck_assert_uint_eq(n, 2);
	ck_assert_ptr_null(rx_node_findings(&c, "n4"));
	ck_assert_ptr_null(rx_node_findings(&c, NULL));
	ck_assert_uint_eq(json_array_size(rx_code_findings(&c, FINDING_LINK_LOSSY)),
			  2);
	ck_assert_ptr_null(rx_code_findings(&c, FINDING_PORT_CLOSED));
	/* n2 wrote inputs 2 and 3, in that order */
	l = rx_host_inputs(&c, "n2");
	ck_assert_uint_eq(json_array_size(l), 2);
	json_array_foreach(l, i, kv)
		ck_assert_int_eq(json_integer_value(kv), (json_int_t)(2 + i));
	ck_assert_int_eq(json_integer_value(json_array_get(
				 rx_path_inputs(&c, "n4.json"), 0)),
			 4);
	ck_assert_ptr_null(rx_path_inputs(&c, "n5.json"));
	ck_assert_ptr_eq(rd_node_scan(&c, "n2"), &set.in[3]);
	done(&set, &c);
}
END_TEST

START_TEST(lossy_pairs_as_the_scan)
{
	static const char *const names[] = {"n1", "n2", "n3", "n4", "n9"};
	struct report_set set = {0};
	struct rctx c;

	cluster(&set, &c);
	ck_assert_int_eq(rx_findings(&c), 0);
	ck_assert_int_eq(rd_index_lossy(&c), 0);
	ck_assert_ptr_nonnull(c.lossy);
	/* n1 and n3 by their findings, n3 and n4 as the other ends */
	ck_assert(rd_pair_lossy(&c, "n2", "n3"));
	ck_assert(rd_pair_lossy(&c, "n4", "n9"));
	ck_assert(!rd_pair_lossy(&c, "n2", "n9"));
	/* every pair: the index says what the scan says */
	for (size_t a = 0; a < 5; a++)
		for (size_t b = 0; b < 5; b++) {
			json_t *ix = c.lossy;
			bool fast = rd_pair_lossy(&c, names[a], names[b]), slow;

			c.lossy = NULL;
			slow = rd_pair_lossy(&c, names[a], names[b]);
			c.lossy = ix;
			ck_assert_msg(fast == slow, "%s %s", names[a], names[b]);
		}
	done(&set, &c);
}
END_TEST

Suite *suite_report_index(void)
{
	Suite *s = suite_create("report_index");
	TCase *tc = tcase_create("index");

	tcase_add_test(tc, resolve_binary_search);
	tcase_add_test(tc, findings_and_inputs_in_order);
	tcase_add_test(tc, lossy_pairs_as_the_scan);
	suite_add_tcase(s, tc);
	return s;
}
