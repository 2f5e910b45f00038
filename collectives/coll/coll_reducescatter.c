/* reduce_scatter: rank r ends with block r of the reduction.
 * Math (nccl-tests' byte counts and bus factor), expected result and
 * launch; the launch is compiled only where NCCL is (NC_HAVE_NCCL). */
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
	*r = nc_per_rank_count(count, eltsize, nranks);
	*s = *r * nranks;
	*soff = 0;
	*roff = *r * rank;
}

/* NCCL is given one rank's share. */
static size_t param_count(size_t count, int nranks)
{
	return nranks > 0 ? count / (size_t)nranks : 0;
}

/* Rank r: block r of the reduction. */
static int expect(const struct nc_shape *sh, int rank,
		  struct nc_expectation *x)
{
	struct nc_expect *e = nc_expect_add(x, sh, NC_EXPECT_REDUCE, 0,
					    sh->recvcount);

	if (e == NULL)
		return -1;
	e->base = (unsigned long long)rank * sh->recvcount;
	return 0;
}

#ifdef NC_HAVE_NCCL
/* Enqueues one reduce_scatter on the call's stream; returns NCCL's result. */
static int launch(const struct nc_call *c)
{
	return ncclReduceScatter(c->send, c->recv, c->count,
				 (ncclDataType_t)c->dtype, (ncclRedOp_t)c->op,
				 (ncclComm_t)c->comm, (cudaStream_t)c->stream);
}
#define LAUNCH launch
#else
#define LAUNCH NULL
#endif

const struct nc_coll_desc nc_coll_reducescatter = {
	.name = "reduce_scatter",
	.about = "rank r ends with block r of the reduction of every rank's "
		 "buffer (-o); size: the scattered buffer; count: one rank's "
		 "block; busbw factor (n-1)/n",
	.reduces = true,
	.rooted = false,
	.in_place = true,
	.bus_factor = bus_factor,
	.counts = counts,
	.param_count = param_count,
	.expect = expect,
	.launch = LAUNCH,
};
