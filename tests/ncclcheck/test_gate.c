/* Unit tests for the gate decider. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "nc.h"
#include "suites.h"

/* Two all_reduce sizes and one all_gather size. */
static void fill(struct nc_results *r)
{
	struct nc_result a = { .coll = NC_ALL_REDUCE, .bytes = 8,
			       .time_us = 12, .busbw_gbps = 0.01 };

	memset(r, 0, sizeof(*r));
	nc_results_add(r, &a);
	a.bytes = 1 << 30;
	a.time_us = 4500;
	a.busbw_gbps = 350;
	nc_results_add(r, &a);
	a.coll = NC_ALL_GATHER;
	a.busbw_gbps = 330;
	nc_results_add(r, &a);
}

/* The check with this name, or a failed placeholder named "missing". */
static const struct nc_gate_check *find(const struct nc_gate *g,
					const char *name)
{
	static const struct nc_gate_check none = { .name = "missing",
						   .detail = "missing" };

	for (int i = 0; i < g->n; i++)
		if (strcmp(g->v[i].name, name) == 0)
			return &g->v[i];
	return &none;
}

START_TEST(pass_and_fail)
{
	struct nc_opts o = { .check = true, .ncolls = 2,
			     .colls = { NC_ALL_REDUCE, NC_ALL_GATHER } };
	struct nc_results r;
	struct nc_gate g;

	fill(&r);
	o.minbw[o.nminbw++] = (struct nc_minbw){ .coll = -1, .gbps = 300 };
	nc_gate_eval(&o, &r, 4, false, &g);
	ck_assert(g.passed);
	ck_assert(find(&g, "min-busbw all_reduce")->passed);
	ck_assert_ptr_nonnull(strstr(find(&g, "min-busbw all_gather")->detail,
				     "peak busbw 330.00 GB/s"));
	/* all_gather misses 340 */
	o.minbw[0].gbps = 340;
	nc_gate_eval(&o, &r, 4, false, &g);
	ck_assert(!g.passed);
	ck_assert(find(&g, "min-busbw all_reduce")->passed);
	ck_assert(!find(&g, "min-busbw all_gather")->passed);
	/* at a size */
	o.minbw[0] = (struct nc_minbw){ .coll = NC_ALL_REDUCE, .gbps = 1,
					.bytes = 8 };
	nc_gate_eval(&o, &r, 4, false, &g);
	ck_assert(!g.passed);
	ck_assert_ptr_nonnull(strstr(find(&g, "min-busbw all_reduce@8")->detail,
				     "busbw 0.01 GB/s at 8 B"));
	o.minbw[0].bytes = 4096; /* never measured: a failure, not a pass */
	nc_gate_eval(&o, &r, 4, false, &g);
	ck_assert(!g.passed);
	nc_results_free(&r);
}
END_TEST

START_TEST(latency_wrong_timeout)
{
	struct nc_opts o = { .check = true, .ncolls = 1,
			     .colls = { NC_ALL_REDUCE }, .max_latency_us = 20 };
	struct nc_results r;
	struct nc_gate g;

	fill(&r);
	nc_gate_eval(&o, &r, 4, false, &g);
	ck_assert(g.passed);
	ck_assert_ptr_nonnull(strstr(find(&g, "max-latency all_reduce")->detail,
				     "12.0 us at 8 B"));
	o.max_latency_us = 10;
	nc_gate_eval(&o, &r, 4, false, &g);
	ck_assert(!g.passed);
	o.max_latency_us = 0;
	r.v[1].wrong = 3;
	nc_gate_eval(&o, &r, 4, false, &g);
	ck_assert(!g.passed);
	ck_assert_str_eq(find(&g, "correct-results")->detail,
			 "3 wrong elements over 3 results");
	r.v[1].wrong = 0;
	nc_gate_eval(&o, &r, 4, true, &g);
	ck_assert(!g.passed);
	ck_assert(!find(&g, "no-timeout")->passed);
	nc_results_free(&r);
}
END_TEST

Suite *suite_nc_gate(void)
{
	Suite *s = suite_create("nc_gate");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, pass_and_fail);
	tcase_add_test(tc, latency_wrong_timeout);
	suite_add_tcase(s, tc);
	return s;
}
