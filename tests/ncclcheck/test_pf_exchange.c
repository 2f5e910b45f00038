/* Unit tests for the pre-flight exchange's data: the pair block, the
 * gathered infos sorted by rank, process and host, and which findings
 * stop NCCL from starting. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "preflight/pf_exchange.h"
#include "results/output.h"
#include "suites.h"

START_TEST(pair_block)
{
	struct nc_pair in[2] = {
		{ .from = 0, .to = 1, .ok = true },
		{ .from = 0, .to = 2, .ok = false, .error = "timeout" },
	};
	struct nc_pair out[NC_PREFLIGHT_MAX_TARGETS];
	unsigned char b[NC_PAIR_BLOCK];

	memset(b, 0xee, sizeof(b));
	nc_pair_block_pack(in, 2, b);
	ck_assert_int_eq(b[3], 2);
	ck_assert_int_eq(b[4 + 2 * NC_PAIR_WIRE], 0); /* zeroed past them */
	ck_assert_int_eq(nc_pair_block_unpack(b, out), 2);
	ck_assert_int_eq(out[1].to, 2);
	ck_assert(!out[1].ok);
	ck_assert_str_eq(out[1].error, "timeout");
	ck_assert(out[0].ok);
	/* a block from another host never claims more than its room */
	b[3] = 200;
	ck_assert_int_eq(nc_pair_block_unpack(b, out),
			 NC_PREFLIGHT_MAX_TARGETS);
}
END_TEST

START_TEST(sort_infos)
{
	/* 3 processes of 2 GPUs; two processes share host a */
	const char *host[3] = { "gpu-a", "gpu-a", "gpu-b" };
	unsigned char all[3 * 2 * NC_RANKINFO_WIRE];
	struct nc_rankinfo ranks[6], byproc[3];
	char hosts[3][64];

	memset(ranks, 0, sizeof(ranks));
	for (int p = 0; p < 3; p++)
		for (int i = 0; i < 2; i++) {
			struct nc_rankinfo ri;

			memset(&ri, 0, sizeof(ri));
			/* process 2 reports a rank out of range on GPU 1 */
			ri.rank = p == 2 && i == 1 ? 9 : 5 - (p * 2 + i);
			ri.proc = p;
			snprintf(ri.host, sizeof(ri.host), "%s", host[p]);
			nc_rankinfo_pack(&ri, all + (size_t)(p * 2 + i) *
							    NC_RANKINFO_WIRE);
		}
	ck_assert_int_eq(nc_pf_sort_infos(all, 3, 2, ranks, 6, byproc, hosts),
			 2);
	ck_assert_int_eq(ranks[5].proc, 0);
	ck_assert_int_eq(ranks[1].proc, 2);
	ck_assert_int_eq(ranks[0].proc, 0); /* rank 9 dropped, left alone */
	ck_assert_str_eq(ranks[0].host, "");
	ck_assert_int_eq(byproc[1].rank, 3);
	ck_assert_str_eq(hosts[2], "gpu-b");
}
END_TEST

START_TEST(fatal_findings)
{
	struct nc_run run;
	struct nc_pf_finding f[2];

	memset(&run, 0, sizeof(run));
	memset(f, 0, sizeof(f));
	snprintf(f[0].code, sizeof(f[0].code), "shm-small");
	f[0].severity = -1;
	snprintf(f[0].summary, sizeof(f[0].summary), "64 MB");
	ck_assert(!nc_run_pf_findings(&run, f, 1));
	ck_assert_int_eq(run.nfindings, 1);
	ck_assert_int_eq(run.findings[0].severity, -1);
	/* the catalogue's fault, a fault given, an unknown code */
	snprintf(f[1].code, sizeof(f[1].code), "nccl-version-mismatch");
	f[1].severity = -1;
	ck_assert(nc_run_pf_findings(&run, f, 2));
	snprintf(f[1].code, sizeof(f[1].code), "shm-small");
	f[1].severity = 2;
	ck_assert(nc_run_pf_findings(&run, f, 2));
	snprintf(f[1].code, sizeof(f[1].code), "no-such-code");
	f[1].severity = -1;
	ck_assert(nc_run_pf_findings(&run, f, 2));
	/* the unknown code is an error that names it */
	ck_assert_int_eq(run.nfindings, 6);
	ck_assert_int_eq(run.nerrors, 1);
	ck_assert_ptr_nonnull(strstr(run.errors[0], "no-such-code"));
}
END_TEST

Suite *suite_nc_pf_exchange(void)
{
	Suite *s = suite_create("nc_pf_exchange");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, pair_block);
	tcase_add_test(tc, sort_infos);
	tcase_add_test(tc, fatal_findings);
	suite_add_tcase(s, tc);
	return s;
}
