/* RDMA libraries and tools beside NCCL's rows (issue 42: blind42j b10,
 * c09, c10, c13, d09): DAPL's and EFA's memlock words, aws-ofi-nccl
 * finding no EFA provider, perftest's empty GID and failed RTR,
 * Mooncake's NULL GID; each with the command that decides on the node
 * that wrote it, never netprobe mesh. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

/* Whether every cause of r that names code says next holds what. */
static bool next_has(const struct explain_result *r, const char *code,
		     const char *what)
{
	bool seen = false;

	for (size_t i = 0; i < r->ncauses; i++)
		for (size_t k = 0; k < r->causes[i].ncodes; k++)
			if (strcmp(r->causes[i].codes[k], code) == 0) {
				if (strstr(r->causes[i].next, what) == NULL)
					return false;
				seen = true;
			}
	return seen;
}

START_TEST(memlock_in_dapl_and_efa_words)
{
	static const char *const dapl[] = {
		"[0] DAPL startup: RLIMIT_MEMLOCK too small", NULL};
	static const char *const efa[] = {
		"Libfabric EFA provider has encountered an internal error:",
		"Libfabric error: (-12) Cannot allocate memory",
		"EFA internal error: (4112) Failure to post internal receive "
		"buffers", NULL};
	struct explain_result r;

	unitfix_explain(dapl, -1, &r);
	ck_assert(unitfix_has(&r, "cause rdma-memlock"));
	unitfix_explain(efa, -1, &r);
	ck_assert(unitfix_has(&r, "open rdma-memlock"));
	ck_assert(next_has(&r, "rdma-memlock", "ulimit -l"));
}
END_TEST

START_TEST(no_efa_provider)
{
	static const char *const l[] = {
		"ip-172-31-3-90:1929:1937 [0] nccl_net_ofi_rdma_init:7978 NCCL "
		"WARN NET/OFI OFI fi_getinfo() call failed: No data available",
		NULL};
	struct explain_result r;

	unitfix_explain(l, -1, &r);
	ck_assert(unitfix_has(&r, "open rdma-uverbs-missing"));
	ck_assert(next_has(&r, "rdma-uverbs-missing", "explain --here"));
}
END_TEST

START_TEST(empty_gid_and_rtr)
{
	static const char *const l[] = {
		" GID: 00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00",
		"Failed to modify QP 59 to RTR", NULL};
	static const char *const mc[] = {
		"GID is NULL, please check your GID index by specifying "
		"MC_GID_INDEX", NULL};
	struct explain_result r;

	unitfix_explain(l, -1, &r);
	ck_assert(unitfix_has(&r, "open rdma-netdev-netns"));
	ck_assert(unitfix_has(&r, "open rdma-gid-index"));
	ck_assert(next_has(&r, "rdma-gid-index", "show_gids"));
	unitfix_explain(mc, -1, &r);
	ck_assert(unitfix_has(&r, "open rdma-gid-auto"));
}
END_TEST

Suite *suite_explain_rdmalib(void)
{
	Suite *s = suite_create("explain_rdmalib");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, memlock_in_dapl_and_efa_words);
	tcase_add_test(tc, no_efa_provider);
	tcase_add_test(tc, empty_gid_and_rtr);
	suite_add_tcase(s, tc);
	return s;
}
