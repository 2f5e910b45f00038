/* all_reduce: every rank ends with the reduction of all ranks' buffers.
 * Math (nccl-tests' byte counts and bus factor), expected result and
 * launch; the launch is compiled only where NCCL is (NC_HAVE_NCCL). */
#include "coll/coll.h"

/* busbw / algbw, as nccl-tests computes it. */
static double bus_factor(int nranks)
{
	return nranks > 0 ? 2.0 * (nranks - 1) / nranks : 0;
}

/* Elements of the send and receive buffers and the in-place offsets. */
static void counts(size_t count, size_t eltsize, int nranks, int rank,
		   size_t *s, size_t *r, size_t *soff, size_t *roff)
{
	(void)eltsize;
	(void)nranks;
	(void)rank;
	*s = count;
	*r = count;
	*soff = 0;
	*roff = 0;
}

/* NCCL is given the whole buffer. */
static size_t param_count(size_t count, int nranks)
{
	(void)nranks;
	return count;
}

/* Every rank: the reduction of every rank's input. */
static int expect(const struct nc_shape *sh, int rank,
		  struct nc_expectation *x)
{
	(void)rank;
	return nc_expect_add(x, sh, NC_EXPECT_REDUCE, 0, sh->recvcount) ?
		       0 : -1;
}

#ifdef NC_HAVE_NCCL
/* Enqueues one all_reduce on the call's stream; returns NCCL's result. */
static int launch(const struct nc_call *c)
{
	return ncclAllReduce(c->send, c->recv, c->count, (ncclDataType_t)c->dtype,
			     (ncclRedOp_t)c->op, (ncclComm_t)c->comm,
			     (cudaStream_t)c->stream);
}
#define LAUNCH launch
#else
#define LAUNCH NULL
#endif

const struct nc_coll_desc nc_coll_allreduce = {
	.name = "all_reduce",
	.about = "every rank ends with the reduction of every rank's buffer "
		 "(-o); size and count: the whole buffer; busbw factor "
		 "2(n-1)/n",
	.reduces = true,
	.rooted = false,
	.in_place = true,
	.bus_factor = bus_factor,
	.counts = counts,
	.param_count = param_count,
	.expect = expect,
	.launch = LAUNCH,
};
