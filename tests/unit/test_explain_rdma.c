/* netprobe explain's RDMA rules: what a node without RDMA hardware lets
 * explain say (nothing proved, sockets noted), which codes a node with
 * hardware lets it rule on, where NCCL_IB_* comes from, and that a
 * proved cause takes the measurement's exact fix. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "decide/explain.h"
#include "decide/explain_rdma.h"
#include "doc/logmatch.h"

static bool has(const char **v, size_t n, const char *code)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], code) == 0)
			return true;
	return false;
}

START_TEST(no_hardware_proves_nothing)
{
	struct rdma_info *info = calloc(1, sizeof(*info));
	const char *codes[16];
	char note[256];

	ck_assert_ptr_nonnull(info);
	info->memlock_soft = 65536; /* low, but no RDMA to register for */
	ck_assert(!explain_rdma_present(info));
	ck_assert_uint_eq(explain_rdma_checkable(info, codes, 16), 0);
	ck_assert_int_eq(explain_rdma_absent_note(info, note, sizeof(note)),
			 0);
	ck_assert_ptr_nonnull(strstr(note, "sockets"));
	ck_assert_ptr_nonnull(strstr(note, "other vendors"));
	free(info);
}
END_TEST

START_TEST(checkable_follows_hardware)
{
	struct rdma_info *info = calloc(1, sizeof(*info));
	const char *codes[16];
	char note[256];
	size_t n;

	ck_assert_ptr_nonnull(info);
	/* a Mellanox function on the bus, no device in this netns */
	info->pci_rdma_funcs = 2;
	info->memlock_soft = info->memlock_hard = -2;
	n = explain_rdma_checkable(info, codes, 16);
	ck_assert_uint_eq(n, 2);
	ck_assert(has(codes, n, "rdma-ib-fallback"));
	ck_assert(has(codes, n, "rdma-netns-exclusive"));
	ck_assert(!has(codes, n, "rdma-uverbs-missing"));
	ck_assert_int_eq(explain_rdma_absent_note(info, note, sizeof(note)),
			 -1);
	/* devices: every rdma code decide_rdma rules on; memlock only
	 * where it was read */
	info->ndevs = 1;
	n = explain_rdma_checkable(info, codes, 16);
	ck_assert(has(codes, n, "rdma-uverbs-missing"));
	ck_assert(has(codes, n, "rdma-gid-index"));
	ck_assert(has(codes, n, "rdma-hca-missing"));
	ck_assert(!has(codes, n, "rdma-memlock"));
	info->memlock_soft = -1;
	n = explain_rdma_checkable(info, codes, 16);
	ck_assert(has(codes, n, "rdma-memlock"));
	ck_assert_uint_le(explain_rdma_checkable(info, codes, 3), 3);
	free(info);
}
END_TEST

START_TEST(settings_env_then_log)
{
	struct explain_log lg = {0};
	struct logmatcher m;
	struct logmatch mt;
	const char *bad = NULL;
	size_t start = 0;
	bool from_log = true;

	ck_assert_int_eq(logmatch_init(&m, &bad), 0);
	ck_assert(logmatch_line(&m, "h:1:1 [0] NCCL INFO NCCL_IB_GID_INDEX "
		  "set by environment to 3", &start, &mt));
	ck_assert_int_eq(explain_log_add(&lg, &mt, 0, 1), 0);
	ck_assert_str_eq(explain_ib_value("2", &lg, "NCCL_IB_GID_INDEX",
					  &from_log), "2");
	ck_assert(!from_log);
	ck_assert_str_eq(explain_ib_value(NULL, &lg, "NCCL_IB_GID_INDEX",
					  &from_log), "3");
	ck_assert(from_log);
	ck_assert_ptr_null(explain_ib_value(NULL, &lg, "NCCL_IB_HCA",
					    &from_log));
	ck_assert(!from_log);
	explain_log_free(&lg);
	logmatch_free(&m);
}
END_TEST

/* An open RDMA cause becomes the code measured, with its exact fix; a
 * fix too long for the cause is left out whole, never cut. */
START_TEST(measured_fix_taken_whole)
{
	struct explain_result *r = calloc(1, sizeof(*r));
	struct explain_measured ms = {.ran = true};
	char *longfix = malloc(2000);

	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(longfix);
	r->ncauses = 2;
	r->causes[0].open = true;
	strcpy(r->causes[0].codes[0], "rdma-uverbs-missing");
	strcpy(r->causes[0].codes[1], "rdma-ib-fallback");
	r->causes[0].ncodes = 2;
	strcpy(r->causes[1].codes[0], "rdma-memlock");
	r->causes[1].ncodes = 1;
	ms.found[0] = "rdma-ib-fallback";
	ms.fix[0] = "export NCCL_IB_HCA==mlx5_0:1";
	ms.found[1] = "rdma-memlock";
	memset(longfix, 'x', 1999);
	longfix[1999] = '\0';
	ms.fix[1] = longfix;
	ms.nfound = 2;
	explain_apply_measured(r, &ms);
	ck_assert(!r->causes[0].open);
	ck_assert_uint_eq(r->causes[0].ncodes, 1);
	ck_assert_str_eq(r->causes[0].codes[0], "rdma-ib-fallback");
	ck_assert_int_eq(r->causes[0].state, EXPLAIN_PROVED);
	ck_assert_str_eq(r->causes[0].fix, "export NCCL_IB_HCA==mlx5_0:1");
	ck_assert_int_eq(r->causes[1].state, EXPLAIN_PROVED);
	ck_assert_str_eq(r->causes[1].fix, "");
	free(longfix);
	free(r);
}
END_TEST

/* Without RDMA hardware an open cause of rdma codes only is expected
 * there; one that mixes in another code keeps its own command. */
START_TEST(settle_only_rdma_causes)
{
	struct explain_result *r = calloc(1, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	r->ncauses = 3;
	r->causes[0].open = true;
	strcpy(r->causes[0].codes[0], "rdma-uverbs-missing");
	strcpy(r->causes[0].codes[1], "rdma-ib-fallback");
	r->causes[0].ncodes = 2;
	strcpy(r->causes[0].next, "on the node that wrote the log");
	r->causes[1].open = true;
	strcpy(r->causes[1].codes[0], "rdma-gid-index");
	strcpy(r->causes[1].codes[1], "port-filtered");
	r->causes[1].ncodes = 2;
	strcpy(r->causes[1].next, "keep");
	strcpy(r->causes[2].codes[0], "rdma-memlock"); /* decided */
	r->causes[2].ncodes = 1;
	ck_assert_uint_eq(explain_rdma_settle(r), 1);
	ck_assert_ptr_nonnull(strstr(r->causes[0].next, "no RDMA hardware"));
	ck_assert_str_eq(r->causes[1].next, "keep");
	ck_assert_str_eq(r->causes[2].next, "");
	free(r);
}
END_TEST

Suite *suite_explain_rdma(void)
{
	Suite *s = suite_create("explain_rdma");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, no_hardware_proves_nothing);
	tcase_add_test(tc, checkable_follows_hardware);
	tcase_add_test(tc, settings_env_then_log);
	tcase_add_test(tc, measured_fix_taken_whole);
	tcase_add_test(tc, settle_only_rdma_causes);
	suite_add_tcase(s, tc);
	return s;
}
