/* Unit tests for nccl-tests' formulas (formulas.c), the names and data
 * ranges of types and operators (dtype.c), the table of collectives
 * (colls.c) and the result list (results.c). */
#include <check.h>
#include <stdio.h>
#include <math.h>

#include "nc.h"
#include "suites.h"

START_TEST(bus_factors)
{
	double alg, bus;

	/* all_reduce: 2(n-1)/n; 1 GB in 1000 us is 1000 GB/s... of algbw */
	nc_bandwidth(NC_ALL_REDUCE, 1000000000, 1000000, 4, &alg, &bus);
	ck_assert_double_eq_tol(alg, 1.0, 1e-9);
	ck_assert_double_eq_tol(bus, 1.5, 1e-9);
	nc_bandwidth(NC_ALL_GATHER, 1000000000, 1000000, 4, &alg, &bus);
	ck_assert_double_eq_tol(bus, 0.75, 1e-9);
	nc_bandwidth(NC_REDUCE_SCATTER, 1000000000, 1000000, 8, &alg, &bus);
	ck_assert_double_eq_tol(bus, 0.875, 1e-9);
	nc_bandwidth(NC_ALLTOALL, 1000000000, 1000000, 2, &alg, &bus);
	ck_assert_double_eq_tol(bus, 0.5, 1e-9);
	nc_bandwidth(NC_BROADCAST, 1000000000, 1000000, 8, &alg, &bus);
	ck_assert_double_eq_tol(bus, 1.0, 1e-9);
	nc_bandwidth(NC_SENDRECV, 1000000000, 1000000, 8, &alg, &bus);
	ck_assert_double_eq_tol(bus, 1.0, 1e-9);
	nc_bandwidth(NC_REDUCE, 1000000000, 1000000, 8, &alg, &bus);
	ck_assert_double_eq_tol(bus, 1.0, 1e-9);
	/* one rank: busbw 0, the trap ncclcheck refuses by default */
	nc_bandwidth(NC_ALL_REDUCE, 1000000000, 1000000, 1, &alg, &bus);
	ck_assert_double_eq_tol(bus, 0, 1e-12);
	nc_bandwidth(NC_ALL_REDUCE, 8, 0, 4, &alg, &bus);
	ck_assert_double_eq_tol(alg, 0, 1e-12);
}
END_TEST

START_TEST(counts_like_nccl_tests)
{
	const struct nc_coll_desc *d = nc_coll_get(NC_ALL_GATHER);
	size_t s, r, so, ro;

	ck_assert_int_eq(d->span, NC_SPAN_GATHER);
	/* nccl-tests rounds each rank's block down to 16 bytes */
	nc_coll_counts(d, 1000, 4, 4, 3, &s, &r, &so, &ro);
	ck_assert_uint_eq(s, 248);
	ck_assert_uint_eq(r, 992);
	ck_assert_uint_eq(so, 744);
	ck_assert_uint_eq(ro, 0);
	nc_coll_counts(d, 1000, 1, 4, 0, &s, &r, &so, &ro); /* int8: 16 elements */
	ck_assert_uint_eq(s, 240);
	nc_coll_counts(d, 1000, 8, 3, 0, &s, &r, &so, &ro); /* double: 2 elements */
	ck_assert_uint_eq(s, 332);
	d = nc_coll_get(NC_REDUCE_SCATTER);
	nc_coll_counts(d, 1001, 4, 4, 2, &s, &r, &so, &ro);
	ck_assert_uint_eq(s, 992);
	ck_assert_uint_eq(r, 248);
	ck_assert_uint_eq(ro, 496);
	d = nc_coll_get(NC_ALLTOALL);
	nc_coll_counts(d, 1001, 4, 4, 1, &s, &r, &so, &ro);
	ck_assert_uint_eq(s, 992);
	ck_assert_uint_eq(r, 992);
	ck_assert(!d->in_place);
	ck_assert(nc_coll_get(NC_ALL_REDUCE)->in_place);
	/* sizes round down to whole, aligned shares */
	ck_assert_uint_eq(nc_count_for(NC_ALL_GATHER, 8, NC_FLOAT, 4), 0);
	ck_assert_uint_eq(nc_count_for(NC_ALL_GATHER, 64, NC_FLOAT, 4), 16);
	ck_assert_uint_eq(nc_count_for(NC_ALL_GATHER, 96, NC_FLOAT, 4), 16);
	ck_assert_uint_eq(nc_count_for(NC_ALL_REDUCE, 8, NC_FLOAT, 4), 2);
	ck_assert_uint_eq(nc_count_for(NC_ALL_REDUCE, 7, NC_HALF, 3), 3);
	/* the count column: what NCCL is given */
	ck_assert_uint_eq(nc_param_count(NC_ALL_GATHER, 992, 4), 248);
	ck_assert_uint_eq(nc_param_count(NC_ALLTOALL, 992, 4), 248);
	ck_assert_uint_eq(nc_param_count(NC_ALL_REDUCE, 992, 4), 992);
}
END_TEST

START_TEST(byte_names)
{
	char b[32];

	ck_assert_str_eq(nc_fmt_bytes(8ULL << 30, b, sizeof(b)), "8 GB");
	ck_assert_str_eq(nc_fmt_bytes(512 << 20, b, sizeof(b)), "512 MB");
	ck_assert_str_eq(nc_fmt_bytes(4096, b, sizeof(b)), "4 KB");
	ck_assert_str_eq(nc_fmt_bytes(1000, b, sizeof(b)), "1000 B");
	ck_assert_str_eq(nc_fmt_bytes(0, b, sizeof(b)), "0 B");
}
END_TEST

START_TEST(names)
{
	ck_assert_int_eq(nc_coll_parse("all_reduce"), NC_ALL_REDUCE);
	ck_assert_int_eq(nc_coll_parse("allreduce"), NC_ALL_REDUCE);
	ck_assert_int_eq(nc_coll_parse("reduce-scatter"), NC_REDUCE_SCATTER);
	ck_assert_int_eq(nc_coll_parse("alltoall"), NC_ALLTOALL);
	ck_assert_int_eq(nc_coll_parse("gather"), -1);
	ck_assert_int_eq(nc_dtype_parse("bf16"), NC_BFLOAT16);
	ck_assert_int_eq(nc_dtype_parse("float"), NC_FLOAT);
	ck_assert_int_eq(nc_dtype_parse("fp8"), -1);
	ck_assert_int_eq(nc_op_parse("avg"), NC_AVG);
	ck_assert_int_eq(nc_op_parse("xor"), -1);
	ck_assert_str_eq(nc_dtype_name(NC_HALF), "half");
	ck_assert_uint_eq(nc_dtype_size(NC_DOUBLE), 8);
	ck_assert_uint_eq(nc_dtype_size(NC_BFLOAT16), 2);
	ck_assert(nc_dtype_is_float(NC_BFLOAT16));
	ck_assert(!nc_dtype_is_float(NC_INT32));
}
END_TEST

START_TEST(exact_ranges)
{
	/* the contributors' sum of values <= vmax stays exact in the type */
	for (int n = 1; n <= 8192; n *= 2) {
		int cb = nc_contributors(NC_BFLOAT16, NC_SUM, n);
		int ch = nc_contributors(NC_HALF, NC_SUM, n);

		ck_assert_int_le(nc_value_max(NC_BFLOAT16, NC_SUM, n) * cb, 256);
		ck_assert_int_le(nc_value_max(NC_HALF, NC_SUM, n) * ch, 2048);
		ck_assert_int_ge(nc_value_max(NC_FLOAT, NC_SUM, n), 1);
		ck_assert_double_eq(nc_tolerance(NC_BFLOAT16, NC_SUM, n), 0);
		ck_assert_double_eq(nc_tolerance(NC_HALF, NC_SUM, n), 0);
		ck_assert_int_le(nc_contributors(NC_HALF, NC_PROD, n), 15);
	}
	for (int n = 1; n <= 64; n *= 2)
		ck_assert_int_le(nc_value_max(NC_INT8, NC_SUM, n) * n, 127 + 15);
	/* past 256 ranks only 256 give a bfloat16 sum non-zero values */
	ck_assert_int_eq(nc_contributors(NC_BFLOAT16, NC_SUM, 200), 200);
	ck_assert_int_eq(nc_contributors(NC_BFLOAT16, NC_SUM, 512), 256);
	ck_assert_int_eq(nc_contributors(NC_BFLOAT16, NC_AVG, 512), 256);
	ck_assert_int_eq(nc_contributors(NC_HALF, NC_SUM, 4096), 2048);
	ck_assert_int_eq(nc_contributors(NC_BFLOAT16, NC_MAX, 512), 512);
	ck_assert_int_eq(nc_contributors(NC_INT8, NC_SUM, 512), 512);
	ck_assert_int_eq(nc_contributors(NC_DOUBLE, NC_PROD, 512), 63);
	ck_assert_int_eq(nc_value_max(NC_BFLOAT16, NC_SUM, 512), 1);
	ck_assert_int_eq(nc_value_max(NC_FLOAT, NC_SUM, 8), 15);
	ck_assert_int_eq(nc_value_max(NC_INT8, NC_SUM, 16), 7);
	ck_assert_int_eq(nc_value_max(NC_INT8, NC_PROD, 16), 2);
	ck_assert_double_eq(nc_tolerance(NC_FLOAT, NC_SUM, 8), 0);
	ck_assert_double_gt(nc_tolerance(NC_FLOAT, NC_AVG, 8), 0);
	ck_assert_double_eq(nc_tolerance(NC_INT32, NC_SUM, 512), 0);
}
END_TEST

START_TEST(sweep_and_budget)
{
	struct nc_opts o = { .min_bytes = 8, .max_bytes = 8ULL << 30,
			     .factor = 2 };
	unsigned long long v[NC_MAX_SIZES];
	int n = nc_sweep_sizes(&o, v, NC_MAX_SIZES);

	ck_assert_int_eq(n, 31); /* 8 B .. 8 GB by 2 */
	ck_assert_uint_eq(v[0], 8);
	ck_assert_uint_eq(v[30], 8ULL << 30);
	o.factor = 0;
	o.step = 100;
	o.max_bytes = 308;
	n = nc_sweep_sizes(&o, v, NC_MAX_SIZES);
	ck_assert_int_eq(n, 4);
	ck_assert_uint_eq(v[3], 308);
	o.min_bytes = 1;
	o.max_bytes = 1ULL << 40;
	o.step = 1;
	ck_assert_int_eq(nc_sweep_sizes(&o, v, NC_MAX_SIZES), NC_MAX_SIZES);
	ck_assert_int_eq(nc_budget_iters(100000, 1000, 50), 50);
	ck_assert_int_eq(nc_budget_iters(100000, 10000, 50), 10);
	ck_assert_int_eq(nc_budget_iters(100, 10000, 50), 1);
	ck_assert_int_eq(nc_budget_iters(100, 0, 50), 50);
}
END_TEST

START_TEST(peak)
{
	struct nc_results r = { 0 };
	struct nc_result a = { .coll = NC_ALL_REDUCE, .bytes = 8,
			       .busbw_gbps = 1 };
	unsigned long long b;
	double bw;

	ck_assert(!nc_peak(&r, NC_ALL_REDUCE, &bw, &b));
	nc_results_add(&r, &a);
	a.bytes = 1024;
	a.busbw_gbps = 9;
	nc_results_add(&r, &a);
	a.coll = NC_ALL_GATHER;
	a.busbw_gbps = 99;
	nc_results_add(&r, &a);
	ck_assert(nc_peak(&r, NC_ALL_REDUCE, &bw, &b));
	ck_assert_double_eq(bw, 9);
	ck_assert_uint_eq(b, 1024);
	nc_results_free(&r);
	ck_assert_uint_eq(r.n, 0);
}
END_TEST

Suite *suite_nc_formulas(void)
{
	Suite *s = suite_create("nc_formulas");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, bus_factors);
	tcase_add_test(tc, counts_like_nccl_tests);
	tcase_add_test(tc, byte_names);
	tcase_add_test(tc, names);
	tcase_add_test(tc, exact_ranges);
	tcase_add_test(tc, sweep_and_budget);
	tcase_add_test(tc, peak);
	suite_add_tcase(s, tc);
	return s;
}
