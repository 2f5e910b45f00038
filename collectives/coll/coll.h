/* The per-collective descriptors (coll_*.c) and what their launches and
 * expectations need. Includes NCCL only when built with it
 * (NC_HAVE_NCCL). */
#ifndef NC_COLL_H
#define NC_COLL_H

#include "nc.h"
#include "coll/expect.h"

#include <string.h>

#ifdef NC_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>
#endif

/* The shape of one step: the counts the descriptor gives, the generator's
 * operator and range, the check's tolerance (what make_step computes). */
void nc_shape_of(struct nc_shape *sh, enum nc_coll c, size_t count,
		 enum nc_dtype t, enum nc_op op, int nranks, int root);
/* Rank's expected output: the descriptor's pieces. Returns 0, or -1 when
 * x has too few pieces or the collective has no expectation. */
int nc_expectation_of(const struct nc_shape *sh, int rank,
		      struct nc_expectation *x);
/* For the descriptors: appends a piece of `kind` over [off, off + len)
 * with the shape's type, operator and range, so a descriptor writes only
 * where its data came from; NULL when x is full. Inline: the descriptors
 * call nothing that reaches back to the table (colls.c). */
static inline struct nc_expect *nc_expect_add(struct nc_expectation *x,
					      const struct nc_shape *sh,
					      int kind, unsigned long long off,
					      unsigned long long len)
{
	struct nc_expect *e;

	if (x->npieces >= x->max)
		return NULL;
	e = &x->piece[x->npieces++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->dtype = sh->dtype;
	e->op = sh->op;
	e->nranks = sh->nranks;
	e->vmax = sh->vmax;
	e->contrib = sh->contrib;
	e->tol = sh->tol;
	e->off = off;
	e->len = len;
	return e;
}

/* The descriptors, one per row of colls.def. */
#define NC_COLL(id, file) extern const struct nc_coll_desc nc_coll_##file;
#include "coll/colls.def"
#undef NC_COLL

#endif
