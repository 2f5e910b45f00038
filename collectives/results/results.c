/* The list of measured results and its peak per collective. No CUDA. */
#include "nc.h"

#include <stdlib.h>
#include <string.h>

/* Grows the array by doubling. */
int nc_results_add(struct nc_results *r, const struct nc_result *x)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		struct nc_result *v = realloc(r->v, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = *x;
	return 0;
}

/* Frees and zeroes the list. */
void nc_results_free(struct nc_results *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* Scans every result of the collective, both placements. */
bool nc_peak(const struct nc_results *r, int coll, double *busbw,
	     unsigned long long *bytes)
{
	bool any = false;

	*busbw = 0;
	*bytes = 0;
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].coll != coll)
			continue;
		if (!any || r->v[i].busbw_gbps > *busbw) {
			*busbw = r->v[i].busbw_gbps;
			*bytes = r->v[i].bytes;
		}
		any = true;
	}
	return any;
}
