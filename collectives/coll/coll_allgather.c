/* all_gather: every rank ends with every rank's block, in rank order.
 * Math (nccl-tests' byte counts and bus factor) and launch; the launch is
 * compiled only where NCCL is (NC_HAVE_NCCL). */
#include "coll/coll.h"

/* busbw / algbw, as nccl-tests computes it. */
static double bus_factor(int nranks)
{
	return nranks > 0 ? (double)(nranks - 1) / nranks : 0;
}

/* Elements of the send and receive buffers and the in-place offsets. */
static void counts(size_t count, size_t eltsize, int nranks, int rank,
		   size_t *s, size_t *r, size_t *soff, size_t *roff)
{
	*s = nc_per_rank_count(count, eltsize, nranks);
	*r = *s * nranks;
	*soff = *s * rank;
	*roff = 0;
}

#ifdef NC_HAVE_NCCL
/* Enqueues one all_gather on the call's stream; returns NCCL's result. */
static int launch(const struct nc_call *c)
{
	return ncclAllGather(c->send, c->recv, c->count, (ncclDataType_t)c->dtype,
			     (ncclComm_t)c->comm, (cudaStream_t)c->stream);
}
#define LAUNCH launch
#else
#define LAUNCH NULL
#endif

const struct nc_coll_desc nc_coll_allgather = {
	.name = "all_gather",
	.reduces = false,
	.rooted = false,
	.in_place = true,
	.bus_factor = bus_factor,
	.counts = counts,
	.launch = LAUNCH,
};
