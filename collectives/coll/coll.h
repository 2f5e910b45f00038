/* The per-collective descriptors (coll_*.c) and what their launches need.
 * Includes NCCL only when built with it (NC_HAVE_NCCL). */
#ifndef NC_COLL_H
#define NC_COLL_H

#include "nc.h"

#ifdef NC_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>
#endif

/* nccl-tests' per-rank count of the collectives that split a buffer:
 * count/nranks, rounded down to a multiple of 16 bytes, so every rank's
 * block starts 16-byte aligned. */
static inline size_t nc_per_rank_count(size_t count, size_t eltsize,
				       int nranks)
{
	size_t per = count / (size_t)nranks;

	if (eltsize > 0 && eltsize < 16)
		per &= ~(16 / eltsize - 1);
	return per;
}

extern const struct nc_coll_desc nc_coll_allreduce;
extern const struct nc_coll_desc nc_coll_allgather;
extern const struct nc_coll_desc nc_coll_reducescatter;
extern const struct nc_coll_desc nc_coll_broadcast;
extern const struct nc_coll_desc nc_coll_reduce;
extern const struct nc_coll_desc nc_coll_alltoall;
extern const struct nc_coll_desc nc_coll_sendrecv;

#endif
