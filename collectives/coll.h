/* The per-collective descriptors (coll_*.c) and what their launches need.
 * Includes NCCL only when built with it (NC_HAVE_NCCL). */
#ifndef NC_COLL_H
#define NC_COLL_H

#include "nc.h"

#ifdef NC_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>
#endif

extern const struct nc_coll_desc nc_coll_allreduce;
extern const struct nc_coll_desc nc_coll_allgather;
extern const struct nc_coll_desc nc_coll_reducescatter;
extern const struct nc_coll_desc nc_coll_broadcast;
extern const struct nc_coll_desc nc_coll_reduce;
extern const struct nc_coll_desc nc_coll_alltoall;
extern const struct nc_coll_desc nc_coll_sendrecv;

#endif
