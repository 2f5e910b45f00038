/* Unit tests of the expectations every collective's descriptor carries
 * (coll/expect.c, coll_*.c's expect): each is complete, its pieces stay
 * inside the buffers, and a host run of the collective (a reference
 * written here, apart from the descriptors) passes its judge while one
 * wrong element is counted once. No GPU. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect_host.h"
#include "suites.h"

/* The operator over every rank's element i, in doubles. */
static double reduce_at(const struct nc_shape *sh, double **in, size_t i)
{
	double acc = in[0][i];

	for (int s = 1; s < sh->nranks; s++) {
		double v = in[s][i];

		if (sh->op == NC_SUM || sh->op == NC_AVG)
			acc += v;
		else if (sh->op == NC_PROD)
			acc *= v;
		else if (sh->op == NC_MAX)
			acc = v > acc ? v : acc;
		else
			acc = v < acc ? v : acc;
	}
	return sh->op == NC_AVG ? acc / sh->nranks : acc;
}

/* What each collective does, by its definition (NCCL's and nccl-tests'):
 * rank r's output from every rank's input. Returns false for a collective
 * this reference does not know (its own test file covers it). */
static bool reference(const struct nc_shape *sh, double **in, double **out)
{
	int n = sh->nranks;
	size_t sc = sh->sendcount, rc = sh->recvcount, per = sc / (size_t)n;

	for (int r = 0; r < n; r++)
		for (size_t i = 0; i < rc; i++) {
			switch (sh->coll) {
			case NC_ALL_REDUCE:
				out[r][i] = reduce_at(sh, in, i);
				break;
			case NC_REDUCE:
				if (r == sh->root)
					out[r][i] = reduce_at(sh, in, i);
				break;
			case NC_REDUCE_SCATTER:
				out[r][i] = reduce_at(sh, in, r * rc + i);
				break;
			case NC_ALL_GATHER:
				out[r][i] = in[i / sc][i % sc];
				break;
			case NC_ALLTOALL:
				out[r][i] = in[i / per][r * per + i % per];
				break;
			case NC_BROADCAST:
				out[r][i] = in[sh->root][i];
				break;
			case NC_SENDRECV:
				out[r][i] = in[(r - 1 + n) % n][i];
				break;
			default:
				return false;
			}
		}
	return true;
}

START_TEST(every_descriptor_is_complete)
{
	for (int c = 0; c < NC_NCOLL; c++) {
		const struct nc_coll_desc *d = nc_coll_get(c);

		ck_assert_ptr_nonnull(d);
		ck_assert_ptr_nonnull(d->name);
		ck_assert_int_eq(nc_coll_parse(d->name), c);
		/* a row's arithmetic is data; only NC_SPAN_OWN brings code,
		 * and then both functions */
		ck_assert(d->span != NC_SPAN_OWN ||
			  (d->counts != NULL && d->param_count != NULL));
		ck_assert(d->span == NC_SPAN_OWN ||
			  (d->counts == NULL && d->param_count == NULL));
		ck_assert(nc_busf_value(d->busf, 4) > 0);
		ck_assert_ptr_nonnull(d->expect);
	}
}
END_TEST

/* Every piece lies in the output, pieces never overlap, and each reads
 * only input that exists: a rule cannot judge what no rank sent. */
START_TEST(pieces_stay_inside)
{
	static const size_t bytes[] = { 64, 1000, 4096, 65536 };

	for (int c = 0; c < NC_NCOLL; c++)
		for (int n = 1; n <= 9; n++)
			for (size_t b = 0; b < sizeof(bytes) / sizeof(*bytes);
			     b++) {
				struct nc_expect p[10];
				struct nc_shape sh;
				size_t cnt = nc_count_for(c, bytes[b],
							  NC_FLOAT, n);

				nc_shape_of(&sh, c, cnt, NC_FLOAT, NC_SUM, n,
					    1);
				for (int r = 0; r < n; r++) {
					struct nc_expectation x = {
						.piece = p, .max = n };
					unsigned long long end = 0;

					ck_assert_int_eq(
						nc_expectation_of(&sh, r, &x),
						0);
					ck_assert_int_le(x.npieces, n);
					for (int k = 0; k < x.npieces; k++) {
						const struct nc_expect *e =
							&p[k];
						unsigned long long last =
							e->len ? e->len - 1 : 0;

						ck_assert_uint_ge(e->off, end);
						end = e->off + e->len;
						ck_assert_uint_le(end,
								  sh.recvcount);
						if (e->len == 0)
							continue;
						if (e->kind ==
						    NC_EXPECT_REDUCE) {
							ck_assert_uint_le(
								e->base + e->len,
								sh.sendcount);
							continue;
						}
						ck_assert_int_eq(e->kind,
								 NC_EXPECT_COPY);
						ck_assert_int_lt(
							e->chunk ? (int)(last / e->chunk) :
								   e->src0,
							n);
						ck_assert_uint_lt(
							(e->chunk ? last % e->chunk :
								    last) +
								e->idx_base,
							sh.sendcount);
					}
				}
			}
}
END_TEST

/* A host run of each collective passes its own expectation; one element
 * changed by 3 is counted once. */
static void run_one(int c, int n, int dtype, int op, size_t bytes)
{
	struct nc_shape sh;
	double **in, **out;

	nc_shape_of(&sh, c, nc_count_for(c, bytes, dtype, n), dtype, op, n,
		    n - 1);
	in = eh_inputs(&sh);
	out = eh_outputs(&sh);
	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	if (reference(&sh, in, out))
		for (int r = 0; r < n; r++) {
			unsigned long long judged = eh_judged(&sh, r);

			ck_assert_int_eq(eh_judge(&sh, r, out[r]), 0);
			if (judged == 0 || sh.recvcount == 0)
				continue;
			out[r][sh.recvcount / 2] += 3;
			ck_assert_int_eq(eh_judge(&sh, r, out[r]), 1);
			out[r][sh.recvcount / 2] -= 3;
		}
	eh_free(in, n);
	eh_free(out, n);
}

START_TEST(reference_runs_pass)
{
	static const int ops[] = { NC_SUM, NC_PROD, NC_MAX, NC_MIN, NC_AVG };

	for (int c = 0; c < NC_NCOLL; c++)
		for (int n = 1; n <= 6; n++) {
			for (size_t o = 0; o < sizeof(ops) / sizeof(*ops); o++)
				run_one(c, n, NC_FLOAT, ops[o], 4096);
			run_one(c, n, NC_INT8, NC_SUM, 1000);
			run_one(c, n, NC_BFLOAT16, NC_SUM, 96);
		}
}
END_TEST

/* The rank's output is judged against its own collective: all_gather's
 * output is not alltoall's, nor sendrecv's (once the default rule). */
START_TEST(rules_differ)
{
	struct nc_shape ag, a2a, sr;
	double **in, **out;
	size_t cnt = nc_count_for(NC_ALL_GATHER, 4096, NC_INT32, 4);

	nc_shape_of(&ag, NC_ALL_GATHER, cnt, NC_INT32, NC_SUM, 4, 0);
	nc_shape_of(&a2a, NC_ALLTOALL, cnt, NC_INT32, NC_SUM, 4, 0);
	nc_shape_of(&sr, NC_SENDRECV, cnt, NC_INT32, NC_SUM, 4, 0);
	ck_assert_uint_eq(ag.recvcount, a2a.recvcount);
	in = eh_inputs(&ag);
	out = eh_outputs(&ag);
	ck_assert(reference(&ag, in, out));
	ck_assert_int_eq(eh_judge(&ag, 1, out[1]), 0);
	ck_assert_int_gt(eh_judge(&a2a, 1, out[1]), 0);
	ck_assert_int_gt(eh_judge(&sr, 1, out[1]), 0);
	eh_free(in, 4);
	eh_free(out, 4);
}
END_TEST

/* -C list names every collective with its about text, each a line of
 * its own and none over 80 columns: the man page names no collective one
 * by one, so a new one needs no edit there. */
START_TEST(list_names_every_collective)
{
	static char text[1 << 16];
	FILE *f = tmpfile();
	char *line, *save;
	size_t n;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(nc_coll_list(f), 0);
	rewind(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	for (int c = 0; c < NC_NCOLL; c++) {
		const struct nc_coll_desc *d = nc_coll_get(c);
		char want[64];

		ck_assert_msg(d->about != NULL && strlen(d->about) > 20,
			      "%s has no about text", d->name);
		/* the factor's words come from busf, never typed again */
		ck_assert_msg(strstr(d->about, "busbw") == NULL,
			      "%s's about text names its factor", d->name);
		snprintf(want, sizeof(want), "%s%s", c == 0 ? "" : "\n",
			 d->name);
		ck_assert_msg(strstr(text, want) != NULL,
			      "-C list does not name %s", d->name);
	}
	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		ck_assert_msg(strlen(line) <= 80, "over 80 columns: %s", line);
}
END_TEST

Suite *suite_nc_expect(void)
{
	Suite *s = suite_create("nc_expect");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_descriptor_is_complete);
	tcase_add_test(tc, pieces_stay_inside);
	tcase_add_test(tc, reference_runs_pass);
	tcase_add_test(tc, rules_differ);
	tcase_add_test(tc, list_names_every_collective);
	suite_add_tcase(s, tc);
	return s;
}
