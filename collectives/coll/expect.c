/* The expectation's common part: a step's shape, and a rank's expected
 * output asked of its descriptor. Which pieces a collective expects is its own file's
 * business (coll_*.c, its `expect`). Pure C over host values, so the CPU
 * tests judge every collective's expectation without a GPU. */
#include "coll/coll.h"

#include <string.h>

/* The same generator range and tolerance as the sweep's make_step: a
 * copy generates with sum's range and is judged exactly. */
void nc_shape_of(struct nc_shape *sh, enum nc_coll c, size_t count,
		 enum nc_dtype t, enum nc_op op, int nranks, int root)
{
	const struct nc_coll_desc *cd = nc_coll_get(c);
	size_t so, ro;

	memset(sh, 0, sizeof(*sh));
	sh->coll = c;
	sh->dtype = t;
	sh->nranks = nranks;
	sh->root = nranks > 0 ? root % nranks : 0;
	sh->op = cd->reduces ? op : NC_SUM;
	sh->vmax = nc_value_max(t, sh->op, nranks);
	sh->contrib = cd->reduces ? nc_contributors(t, op, nranks) : nranks;
	sh->tol = cd->reduces ? nc_tolerance(t, op, nranks) : 0;
	sh->count = count;
	nc_coll_counts(cd, count, nc_dtype_size(t), nranks, 0, &sh->sendcount,
		       &sh->recvcount, &so, &ro);
}

/* A collective without an expectation cannot be judged: an error, never
 * another collective's rule. */
int nc_expectation_of(const struct nc_shape *sh, int rank,
		      struct nc_expectation *x)
{
	const struct nc_coll_desc *cd = nc_coll_get(sh->coll);

	x->npieces = 0;
	if (cd->expect == NULL)
		return -1;
	return cd->expect(sh, rank, x);
}
