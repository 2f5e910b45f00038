/* Unit tests of alltoallv (coll/coll_alltoallv.c): its counts, its name,
 * and its expectation against a worked example and against a host run
 * written here from the definition. No GPU. */
#include <check.h>
#include <stdlib.h>

#include "expect_host.h"
#include "suites.h"

/* The definition: rank `from` sends d+1 units to the rank d ahead. */
static size_t units(int from, int to, int n)
{
	return 1 + (size_t)((to - from + n) % n);
}

/* A host alltoallv with offsets summed by loops, apart from the
 * descriptor's arithmetic. */
static void host_run(const struct nc_shape *sh, double **in, double **out)
{
	int n = sh->nranks;
	size_t u = sh->sendcount / ((size_t)n * (n + 1) / 2);

	for (int p = 0; p < n; p++) {
		size_t roff = 0;

		for (int r = 0; r < n; r++) {
			size_t soff = 0;

			for (int q = 0; q < p; q++)
				soff += u * units(r, q, n);
			for (size_t j = 0; j < u * units(r, p, n); j++)
				out[p][roff + j] = in[r][soff + j];
			roff += u * units(r, p, n);
		}
	}
}

START_TEST(counts_and_name)
{
	const struct nc_coll_desc *d = nc_coll_get(NC_ALLTOALLV);
	size_t s, r, so, ro;
	double alg, bus;

	ck_assert_int_eq(nc_coll_parse("alltoallv"), NC_ALLTOALLV);
	ck_assert_int_eq(nc_coll_parse("all_to_all_v"), NC_ALLTOALLV);
	ck_assert_int_eq(nc_coll_parse("alltoall"), NC_ALLTOALL);
	ck_assert(!d->in_place && !d->reduces && !d->rooted);
	/* 3 ranks: 6 units; 100 floats give a unit of 16 (64 B aligned
	 * down to 16 B: 16 floats) */
	nc_coll_counts(d, 100, 4, 3, 2, &s, &r, &so, &ro);
	ck_assert_uint_eq(s, 96);
	ck_assert_uint_eq(r, 96);
	ck_assert_uint_eq(nc_count_for(NC_ALLTOALLV, 400, NC_FLOAT, 3), 96);
	ck_assert_uint_eq(nc_param_count(NC_ALLTOALLV, 96, 3), 16);
	/* too small for a 16-byte unit per block: nothing to run */
	ck_assert_uint_eq(nc_count_for(NC_ALLTOALLV, 64, NC_FLOAT, 3), 0);
	nc_bandwidth(NC_ALLTOALLV, 1000000000, 1000000, 4, &alg, &bus);
	ck_assert_double_eq_tol(bus, 0.75, 1e-9);
}
END_TEST

/* 3 ranks, a unit of 4 floats: rank 1 gets 2 units from rank 0 (its
 * units 1-2), 1 from itself (its unit 3) and 3 from rank 2 (its units
 * 2-4), packed in rank order. */
START_TEST(worked_example)
{
	struct nc_expect p[3];
	struct nc_expectation x = { .piece = p, .max = 3 };
	struct nc_shape sh;

	nc_shape_of(&sh, NC_ALLTOALLV, 24, NC_FLOAT, NC_SUM, 3, 0);
	ck_assert_uint_eq(sh.sendcount, 24);
	ck_assert_int_eq(nc_expectation_of(&sh, 1, &x), 0);
	ck_assert_int_eq(x.npieces, 3);
	ck_assert_uint_eq(p[0].off, 0);
	ck_assert_uint_eq(p[0].len, 8);
	ck_assert_int_eq(p[0].src0, 0);
	ck_assert_uint_eq(p[0].idx_base, 4);
	ck_assert_uint_eq(p[1].off, 8);
	ck_assert_uint_eq(p[1].len, 4);
	ck_assert_int_eq(p[1].src0, 1);
	ck_assert_uint_eq(p[1].idx_base, 12);
	ck_assert_uint_eq(p[2].off, 12);
	ck_assert_uint_eq(p[2].len, 12);
	ck_assert_int_eq(p[2].src0, 2);
	ck_assert_uint_eq(p[2].idx_base, 8);
	for (int k = 0; k < 3; k++) {
		ck_assert_int_eq(p[k].kind, NC_EXPECT_COPY);
		ck_assert_uint_eq(p[k].chunk, 0);
		ck_assert_double_eq(p[k].tol, 0);
	}
	x.max = 2; /* too few pieces: an error, never a partial check */
	ck_assert_int_eq(nc_expectation_of(&sh, 1, &x), -1);
}
END_TEST

/* A host run passes for 1..9 ranks and every type's alignment; one
 * changed element counts once; alltoall's even blocks fail. */
START_TEST(host_run_passes)
{
	static const int types[] = { NC_INT8, NC_HALF, NC_FLOAT, NC_DOUBLE };

	for (int n = 1; n <= 9; n++)
		for (size_t t = 0; t < sizeof(types) / sizeof(*types); t++) {
			struct nc_shape sh;
			size_t cnt = nc_count_for(NC_ALLTOALLV, 16384,
						  types[t], n);
			double **in, **out;

			nc_shape_of(&sh, NC_ALLTOALLV, cnt, types[t], NC_SUM, n,
				    0);
			ck_assert_uint_gt(sh.sendcount, 0);
			in = eh_inputs(&sh);
			out = eh_outputs(&sh);
			ck_assert_ptr_nonnull(in);
			ck_assert_ptr_nonnull(out);
			host_run(&sh, in, out);
			for (int r = 0; r < n; r++) {
				ck_assert_uint_eq(eh_judged(&sh, r),
						  sh.recvcount);
				ck_assert_int_eq(eh_judge(&sh, r, out[r]), 0);
				out[r][sh.recvcount - 1] += 3;
				ck_assert_int_eq(eh_judge(&sh, r, out[r]), 1);
				out[r][sh.recvcount - 1] -= 3;
			}
			if (n >= 3) {
				/* alltoall's layout: n even blocks */
				size_t per = sh.sendcount / (size_t)n;

				for (int r = 0; r < n; r++)
					for (size_t i = 0;
					     i < sh.recvcount && i / per < (size_t)n;
					     i++)
						out[r][i] = in[i / per]
							      [r * per + i % per];
				ck_assert_int_gt(eh_judge(&sh, 1, out[1]), 0);
			}
			eh_free(in, n);
			eh_free(out, n);
		}
}
END_TEST

Suite *suite_nc_coll_alltoallv(void)
{
	Suite *s = suite_create("nc_coll_alltoallv");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, counts_and_name);
	tcase_add_test(tc, worked_example);
	tcase_add_test(tc, host_run_passes);
	suite_add_tcase(s, tc);
	return s;
}
