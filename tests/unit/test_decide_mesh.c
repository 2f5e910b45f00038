/* decide_mesh: the membership findings of node 0's mesh document, fed
 * the facts the rendezvous collects. */
#include <check.h>
#include <string.h>

#include "decide/decide_mesh.h"

/* The code, severity and summary of finding i. */
static void expect(const struct doc *d, size_t i, const char *code,
                   const char *sev, const char *summary)
{
	json_t *f = json_array_get(d->findings, i);

	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(json_string_value(json_object_get(f, "code")), code);
	ck_assert_str_eq(json_string_value(json_object_get(f, "severity")),
	                 sev);
	ck_assert_str_eq(json_string_value(json_object_get(f, "summary")),
	                 summary);
}

START_TEST(members_and_rejects)
{
	const struct mesh_member_facts m[] = {
	    {"node0", "", "", "10.231.40.1", 0, MESH_OUT_DONE},
	    {"node1", "gpu-1", "did not join within 30 s", "", -1,
	     MESH_OUT_MISSING},
	    {"node2", "", "is node1 again", "", -1, MESH_OUT_DUPLICATE},
	    {"node3", "", "closed its connection before its results",
	     "10.231.40.4", 2500000, MESH_OUT_DIED},
	};
	const struct mesh_reject_facts r[] = {
	    {FINDING_MESH_TOKEN_MISMATCH, "'x' from 10.231.40.9",
	     "sent no token"},
	};
	struct doc d;
	json_t *ev;

	ck_assert_int_eq(doc_init(&d, "netprobe", "mesh"), 0);
	ck_assert_int_eq(decide_mesh("hosts", m, 4, r, 1, &d), 0);
	ck_assert_uint_eq(json_array_size(d.findings), 4);
	expect(&d, 0, "mesh-node-missing", "fault",
	       "node1 did not join within 30 s");
	expect(&d, 1, "mesh-node-duplicate", "warning",
	       "node2: is node1 again");
	expect(&d, 2, "mesh-node-died", "fault",
	       "node3 closed its connection before its results; the "
	       "others' results stand");
	expect(&d, 3, "mesh-token-mismatch", "fault",
	       "'x' from 10.231.40.9 sent no token");
	/* the entry as listed, else the name; when a dead node joined */
	ev = json_object_get(json_array_get(d.findings, 0), "evidence");
	ck_assert_str_eq(
	    json_string_value(json_object_get(json_array_get(ev, 0), "fact")),
	    "entry 2 of hosts: gpu-1");
	ev = json_object_get(json_array_get(d.findings, 2), "evidence");
	ck_assert_str_eq(
	    json_string_value(json_object_get(json_array_get(ev, 1), "fact")),
	    "joined from 10.231.40.4 after 2.5 s");
	ck_assert_int_eq(d.nfault, 3);
	doc_free(&d);
}
END_TEST

START_TEST(all_done_silent)
{
	const struct mesh_member_facts m[] = {
	    {"node0", "", "", "10.231.40.1", 0, MESH_OUT_DONE},
	    {"node1", "", "", "10.231.40.2", 100000, MESH_OUT_DONE},
	};
	struct doc d;

	ck_assert_int_eq(doc_init(&d, "netprobe", "mesh"), 0);
	ck_assert_int_eq(decide_mesh("slurm", m, 2, NULL, 0, &d), 0);
	ck_assert_uint_eq(json_array_size(d.findings), 0);
	doc_free(&d);
}
END_TEST

/* A join turned away for a rank another member holds carries its own
 * address and hostname and the holder's, as fields the report's identity
 * check reads (issue 48: one address, two hostnames, is a clone). */
START_TEST(duplicate_reject_who)
{
	const struct mesh_reject_facts r[] = {
	    {.code = FINDING_MESH_NODE_DUPLICATE,
	     .who = "'node02' (host node04) from 10.231.48.2",
	     .why = "claims rank 1, which node02 already holds",
	     .addr = "10.231.48.2",
	     .hostname = "node04",
	     .held_name = "node02",
	     .held_addr = "10.231.48.2",
	     .held_host = "node02"},
	};
	struct doc d;
	json_t *ev;

	ck_assert_int_eq(doc_init(&d, "netprobe", "mesh"), 0);
	ck_assert_int_eq(decide_mesh("hosts", NULL, 0, r, 1, &d), 0);
	ev = json_object_get(json_array_get(d.findings, 0), "evidence");
	ck_assert_uint_eq(json_array_size(ev), 2);
	ck_assert_str_eq(json_string_value(json_object_get(
	                     json_array_get(ev, 0), "address")),
	                 "10.231.48.2");
	ck_assert_str_eq(json_string_value(json_object_get(
	                     json_array_get(ev, 0), "hostname")),
	                 "node04");
	ck_assert_ptr_null(json_object_get(json_array_get(ev, 0), "name"));
	ck_assert_str_eq(json_string_value(json_object_get(
	                     json_array_get(ev, 1), "name")),
	                 "node02");
	ck_assert_str_eq(json_string_value(json_object_get(
	                     json_array_get(ev, 1), "hostname")),
	                 "node02");
	ck_assert_str_eq(
	    json_string_value(json_object_get(json_array_get(ev, 1), "fact")),
	    "node02 holds that rank, joined from 10.231.48.2 (host node02)");
	doc_free(&d);
}
END_TEST

Suite *suite_decide_mesh(void)
{
	Suite *s = suite_create("decide_mesh");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, members_and_rejects);
	tcase_add_test(tc, all_done_silent);
	tcase_add_test(tc, duplicate_reject_who);
	suite_add_tcase(s, tc);
	return s;
}
