/* nccl-tests' arithmetic: algbw and busbw of a timed size, the element
 * count of a size, the sizes of the sweep and the iterations a time budget
 * allows. Reads the descriptors through nc_coll_get. No CUDA, no NCCL. */
#include "nc.h"

#include <stdio.h>

/* GB/s of 1e9 bytes; 0 for a zero or negative time. */
void nc_bandwidth(enum nc_coll c, size_t bytes, double time_us, int nranks,
		  double *algbw, double *busbw)
{
	if (time_us <= 0) {
		*algbw = 0;
		*busbw = 0;
		return;
	}
	*algbw = (double)bytes / 1.0e3 / time_us; /* bytes/us/1e3 = GB/s */
	*busbw = *algbw * nc_busf_value(nc_coll_get(c)->busf, nranks);
}

/* nccl-tests' per-rank count of the collectives that split a buffer:
 * count/nranks, rounded down to a multiple of 16 bytes, so every rank's
 * block starts 16-byte aligned. */
static size_t per_rank_count(size_t count, size_t eltsize, int nranks)
{
	size_t per = count / (size_t)nranks;

	if (eltsize > 0 && eltsize < 16)
		per &= ~(16 / eltsize - 1);
	return per;
}

/* The spans are nccl-tests' GetCollByteCount of each collective; only a
 * collective that data cannot describe brings its own function. */
void nc_coll_counts(const struct nc_coll_desc *d, size_t count,
		    size_t eltsize, int nranks, int rank, size_t *s,
		    size_t *r, size_t *soff, size_t *roff)
{
	size_t per = nranks > 0 ? per_rank_count(count, eltsize, nranks) : 0;

	*soff = 0;
	*roff = 0;
	switch (d->span) {
	case NC_SPAN_WHOLE:
		*s = count;
		*r = count;
		return;
	case NC_SPAN_GATHER:
		*s = per;
		*r = per * (size_t)nranks;
		*soff = per * (size_t)rank;
		return;
	case NC_SPAN_SCATTER:
		*r = per;
		*s = per * (size_t)nranks;
		*roff = per * (size_t)rank;
		return;
	case NC_SPAN_BLOCKS:
		*s = per * (size_t)nranks;
		*r = *s;
		return;
	case NC_SPAN_OWN:
		break;
	}
	if (d->counts != NULL) {
		d->counts(count, eltsize, nranks, rank, s, r, soff, roff);
		return;
	}
	*s = 0;
	*r = 0;
}

/* The larger of the send and receive counts, nccl-tests' size column. */
size_t nc_count_for(enum nc_coll c, size_t bytes, enum nc_dtype t,
		    int nranks)
{
	size_t count = bytes / nc_dtype_size(t);
	size_t s, r, so, ro;

	if (nranks < 1)
		return 0;
	nc_coll_counts(nc_coll_get(c), count, nc_dtype_size(t), nranks, 0,
		       &s, &r, &so, &ro);
	return s > r ? s : r;
}

/* As the collective's span says: the whole buffer, or one rank's share
 * for the spans that split it; NC_SPAN_OWN asks the descriptor. */
size_t nc_param_count(enum nc_coll c, size_t count, int nranks)
{
	const struct nc_coll_desc *d = nc_coll_get(c);

	if (nranks <= 0)
		return d->span == NC_SPAN_WHOLE ? count : 0;
	switch (d->span) {
	case NC_SPAN_WHOLE:
		return count;
	case NC_SPAN_GATHER:
	case NC_SPAN_SCATTER:
	case NC_SPAN_BLOCKS:
		return count / (size_t)nranks;
	case NC_SPAN_OWN:
		break;
	}
	return d->param_count != NULL ? d->param_count(count, nranks) : 0;
}

/* Geometric with -f, arithmetic with -i; at most max sizes. */
int nc_sweep_sizes(const struct nc_opts *o, unsigned long long *sizes,
		   int max)
{
	unsigned long long s = o->min_bytes;
	int n = 0;

	while (n < max && s <= o->max_bytes) {
		unsigned long long next;

		sizes[n++] = s;
		if (o->factor > 1)
			next = (unsigned long long)((double)s * o->factor);
		else
			next = s + (o->step > 0 ? o->step : 1);
		if (next <= s)
			next = s + 1;
		s = next;
	}
	if (n == 0)
		sizes[n++] = o->min_bytes;
	return n;
}

/* Iterations that fit the budget, at least 1. */
int nc_budget_iters(long long budget_us, double est_us, int max_iters)
{
	double n;

	if (max_iters < 1)
		max_iters = 1;
	if (est_us <= 0)
		return max_iters;
	n = (double)budget_us / est_us;
	if (n < 1)
		return 1;
	return n > max_iters ? max_iters : (int)n;
}

/* Binary units as nccl-tests' sizes (-e 8G is 8 GiB): the largest unit
 * that divides the size exactly. */
char *nc_fmt_bytes(unsigned long long b, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KB", "MB", "GB", "TB" };
	int u = 0;

	while (u < 4 && b >= 1024 && b % 1024 == 0) {
		b /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", b, unit[u]);
	return buf;
}
