/* The report across nodes' RDMA sides: rdma-fabric-mismatch where the
 * ports NCCL uses differ in link layer or rate, none where they agree.
 * Each node's scan document is built from an RDMA sysroot fixture. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysroot.h"
#include "decide/ib_select.h"
#include "kernel/rdma.h"
#include "report.h"

/* A scan document for host with the fixture's rdma and nccl_ib. */
static void add_rdma_scan(struct report_set *set, const char *host,
                          const char *fixture)
{
	char dir[PATH_MAX], *txt;
	struct sysroot sr;
	struct rdma_info *info = calloc(1, sizeof(*info));
	struct ib_choice *c = calloc(1, sizeof(*c));
	struct ib_env e = {0};
	json_t *doc;

	ck_assert(info != NULL && c != NULL);
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/sysroot/%s", SRCDIR,
	         fixture);
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	rdma_collect(info, &sr);
	ib_select(info, &e, c);
	doc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:[], s:{}, "
	                "s:o, s:o}",
	                "schema", "netprobe/1", "tool", "netprobe", "command",
	                "scan", "host", host, "started", "2026-11-21T10:00:00Z",
	                "findings", "errors", "interfaces", "recommendation",
	                "rdma", rdma_to_json(info), "nccl_ib",
	                ib_choice_to_json(info, c));
	ck_assert_ptr_nonnull(doc);
	txt = json_dumps(doc, 0);
	ck_assert_int_eq(report_load_buffer(set, host, txt, strlen(txt)), 0);
	free(txt);
	json_decref(doc);
	free(info);
	free(c);
}

/* How many rdma-fabric-mismatch findings of severity sev on node. */
static int count(const struct report_model *m, const char *node,
                 const char *sev)
{
	json_t *f;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(report_doc(m), "findings"), i, f)
		n += strcmp(rj_str(f, "code"), "rdma-fabric-mismatch") == 0 &&
		     strcmp(rj_str(f, "node"), node) == 0 &&
		     strcmp(rj_str(f, "severity"), sev) == 0;
	return n;
}

START_TEST(test_fabric_mismatch)
{
	struct report_set set = {0};
	struct report_model *m;

	add_rdma_scan(&set, "node1", "rdma-roce-recipe-v2");
	add_rdma_scan(&set, "node2", "rdma-roce-recipe-v2");
	add_rdma_scan(&set, "node3", "rdma-roce-mixed-gids");
	add_rdma_scan(&set, "node4", "rdma-dgx-ib");
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	/* RoCE on three nodes: the IB node differs (a fault) */
	ck_assert_int_eq(count(m, "node4", "fault"), 1);
	ck_assert_int_eq(count(m, "node1", "fault"), 0);
	/* 100 Gb/s against 200: a warning on the slow node only */
	ck_assert_int_eq(count(m, "node3", "warning"), 1);
	ck_assert_int_eq(count(m, "node2", "warning"), 0);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

START_TEST(test_fabric_same)
{
	struct report_set set = {0};
	struct report_model *m;

	add_rdma_scan(&set, "node1", "rdma-roce-recipe-v2");
	add_rdma_scan(&set, "node2", "rdma-roce-recipe-v2");
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(count(m, "node1", "fault") + count(m, "node1",
	                                                    "warning"),
	                 0);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

Suite *suite_report_rdma(void)
{
	Suite *s = suite_create("report_rdma");
	TCase *tc = tcase_create("report_rdma");

	tcase_add_test(tc, test_fabric_mismatch);
	tcase_add_test(tc, test_fabric_same);
	suite_add_tcase(s, tc);
	return s;
}
