/* Host-side inputs and judge of the expectations (expect_host.h), the
 * check kernel's rule over doubles. */
#include "expect_host.h"

#include <math.h>
#include <stdlib.h>

/* The generator of coll/expect.h, as the data kernel fills send buffers. */
double **eh_inputs(const struct nc_shape *sh)
{
	double **v = calloc((size_t)sh->nranks, sizeof(*v));

	if (v == NULL)
		return NULL;
	for (int r = 0; r < sh->nranks; r++) {
		v[r] = calloc(sh->sendcount + 1, sizeof(double));
		if (v[r] == NULL) {
			eh_free(v, sh->nranks);
			return NULL;
		}
		for (size_t i = 0; i < sh->sendcount; i++)
			v[r][i] = (double)nc_gen(r, i, sh->op, sh->vmax,
						 sh->nranks, sh->contrib);
	}
	return v;
}

/* NaN differs from every expected value, as 0xa5 bytes do on a GPU. */
double **eh_outputs(const struct nc_shape *sh)
{
	double **v = calloc((size_t)sh->nranks, sizeof(*v));

	if (v == NULL)
		return NULL;
	for (int r = 0; r < sh->nranks; r++) {
		v[r] = calloc(sh->recvcount + 1, sizeof(double));
		if (v[r] == NULL) {
			eh_free(v, sh->nranks);
			return NULL;
		}
		for (size_t i = 0; i < sh->recvcount; i++)
			v[r][i] = NAN;
	}
	return v;
}

/* Frees what eh_inputs or eh_outputs gave. */
void eh_free(double **v, int n)
{
	if (v == NULL)
		return;
	for (int r = 0; r < n; r++)
		free(v[r]);
	free(v);
}

/* The rank's pieces, in an array the caller frees; NULL on an error. */
static struct nc_expect *pieces(const struct nc_shape *sh, int rank,
				struct nc_expectation *x)
{
	struct nc_expect *p = calloc((size_t)sh->nranks + 1, sizeof(*p));

	if (p == NULL)
		return NULL;
	x->piece = p;
	x->max = sh->nranks;
	if (nc_expectation_of(sh, rank, x) < 0) {
		free(p);
		return NULL;
	}
	return p;
}

/* The check kernel's comparison: exact, or within the relative
 * tolerance of max(1, |expected|). */
long long eh_judge(const struct nc_shape *sh, int rank, const double *out)
{
	struct nc_expectation x;
	struct nc_expect *p = pieces(sh, rank, &x);
	long long bad = 0;

	if (p == NULL)
		return -1;
	for (int k = 0; k < x.npieces; k++) {
		if (p[k].off + p[k].len > sh->recvcount) {
			free(p);
			return -1;
		}
		for (unsigned long long o = 0; o < p[k].len; o++) {
			double exp = nc_expect_at(&p[k], o);
			double got = out[p[k].off + o];
			double m = fabs(exp) > 1 ? fabs(exp) : 1;

			if (p[k].tol == 0 ? got != exp :
					    !(fabs(got - exp) <= p[k].tol * m))
				bad++;
		}
	}
	free(p);
	return bad;
}

/* The sum of the pieces' lengths. */
unsigned long long eh_judged(const struct nc_shape *sh, int rank)
{
	struct nc_expectation x;
	struct nc_expect *p = pieces(sh, rank, &x);
	unsigned long long n = 0;

	if (p == NULL)
		return 0;
	for (int k = 0; k < x.npieces; k++)
		n += p[k].len;
	free(p);
	return n;
}
