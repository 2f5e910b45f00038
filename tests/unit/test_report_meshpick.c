/* netprobe report: a node whose scan rejected its bridge of veths as a
 * container's (a guess) while the mesh measured that bridge's address
 * reaching its peers (reports/decide/decide_meshpick.c, issue 48). The
 * measurement wins: the bridge is the node's interface, with a why that
 * cites the pairs, and nothing blocks the cluster. Where the mesh did not
 * reach the node, it still blocks. Documents of blind48d 08 (node03
 * holds 10.231.115.3 on br0, whose only port lan0 is the lab's veth),
 * recorded by `KEEP=1 sh tests/gen/blind48d/judge.sh 08`. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_model.h"
#include "unitfix.h"

#define FX SRCDIR "/tests/fixtures/report/veth-bridge-uplink"

/* The per_node entry of node in the model's recommendation, or NULL. */
static const json_t *per_node(const struct report_model *m,
			      const char *node)
{
	const json_t *rec = json_object_get(report_doc(m), "recommendation");
	size_t i;
	json_t *p;

	json_array_foreach(rj_arr(json_object_get(rec, "interface"),
				  "per_node"),
			   i, p)
		if (strcmp(rj_strd(p, "node", ""), node) == 0)
			return p;
	return NULL;
}

/* The recommendation's blocked list. */
static const json_t *blocked(const struct report_model *m)
{
	return json_object_get(json_object_get(report_doc(m),
					       "recommendation"),
			       "blocked");
}

/* As recorded: every pair to and from node03 answered on 10.231.115.3
 * (br0). br0 is node03's interface, its why names the measured pairs,
 * no node blocks, and the verdict is no fault. */
START_TEST(measured_veth_bridge_is_the_choice)
{
	struct report_set set = {0};
	struct report_model *m = unitfix_report_dir(&set, "veth-bridge-uplink");
	const json_t *p;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(json_array_size(blocked(m)), 0);
	p = per_node(m, "node03");
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(rj_str(p, "interface"), "br0");
	ck_assert_str_eq(rj_str(p, "address"), "10.231.115.3");
	ck_assert_ptr_nonnull(strstr(rj_strd(p, "why", ""),
				     "3 reached from it"));
	ck_assert_ptr_nonnull(strstr(rj_strd(p, "why", ""), "3 reached it"));
	ck_assert_uint_ge(json_array_size(rj_arr(p, "cites")), 4);
	ck_assert_str_ne(rj_str(report_doc(m), "verdict"), "fault");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* The same documents with every pair to and from node03 failed: nothing
 * measured br0 reaching anyone, so the scan's rejection stands and
 * node03 blocks, as before. */
START_TEST(unmeasured_veth_bridge_still_blocks)
{
	static const char *const names[] = {"mesh.json", "node01.json",
					    "node02.json", "node03.json",
					    "node04.json"};
	struct report_set set = {0};
	struct report_model *m;
	char path[512];

	for (size_t i = 0; i < 5; i++) {
		json_t *d, *p;
		size_t j;

		snprintf(path, sizeof(path), FX "/%s", names[i]);
		d = json_load_file(path, 0, NULL);
		ck_assert_ptr_nonnull(d);
		json_array_foreach(rj_arr(d, "peers"), j, p)
			if (strcmp(rj_strd(d, "host", ""), "node03") == 0 ||
			    strcmp(rj_strd(p, "peer_addr", ""),
				   "10.231.115.3") == 0) {
				json_object_set_new(p, "responded",
						    json_false());
				json_object_set_new(p, "error",
						    json_string("timed out"));
			}
		unitfix_load_doc(&set, names[i], d);
	}
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_null(per_node(m, "node03"));
	ck_assert_uint_eq(json_array_size(blocked(m)), 1);
	ck_assert_ptr_nonnull(
		strstr(rj_strd(json_array_get(blocked(m), 0), "why", ""),
		       "br0 rejected: a bridge whose only members are veths"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

Suite *suite_report_meshpick(void)
{
	Suite *s = suite_create("report_meshpick");
	TCase *tc = tcase_create("meshpick");

	tcase_add_test(tc, measured_veth_bridge_is_the_choice);
	tcase_add_test(tc, unmeasured_veth_bridge_still_blocks);
	suite_add_tcase(s, tc);
	return s;
}
