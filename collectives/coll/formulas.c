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
	*busbw = *algbw * nc_coll_get(c)->bus_factor(nranks);
}

/* The larger of the send and receive counts, nccl-tests' size column. */
size_t nc_count_for(enum nc_coll c, size_t bytes, enum nc_dtype t,
		    int nranks)
{
	size_t count = bytes / nc_dtype_size(t);
	size_t s, r, so, ro;

	if (nranks < 1)
		return 0;
	nc_coll_get(c)->counts(count, nc_dtype_size(t), nranks, 0, &s, &r,
			       &so, &ro);
	return s > r ? s : r;
}

/* As the collective's descriptor says. */
size_t nc_param_count(enum nc_coll c, size_t count, int nranks)
{
	return nc_coll_get(c)->param_count(count, nranks);
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
