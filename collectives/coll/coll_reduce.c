/* reduce: the root ends with the reduction of all ranks' buffers.
 * Math (nccl-tests' byte counts and bus factor), expected result and
 * launch; the launch is compiled only where NCCL is (NC_HAVE_NCCL). */
#include "coll/coll.h"

/* busbw / algbw, as nccl-tests computes it. */
static double bus_factor(int nranks)
{
	(void)nranks;
	return 1;
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

/* The root: the reduction; the others' outputs are not judged. */
static int expect(const struct nc_shape *sh, int rank,
		  struct nc_expectation *x)
{
	if (rank != sh->root)
		return 0;
	return nc_expect_add(x, sh, NC_EXPECT_REDUCE, 0, sh->recvcount) ?
		       0 : -1;
}

#ifdef NC_HAVE_NCCL
/* Enqueues one reduce on the call's stream; returns NCCL's result. */
static int launch(const struct nc_call *c)
{
	return ncclReduce(c->send, c->recv, c->count, (ncclDataType_t)c->dtype,
			  (ncclRedOp_t)c->op, c->root, (ncclComm_t)c->comm,
			  (cudaStream_t)c->stream);
}
#define LAUNCH launch
#else
#define LAUNCH NULL
#endif

const struct nc_coll_desc nc_coll_reduce = {
	.name = "reduce",
	.about = "the root (-r) ends with the reduction of every rank's "
		 "buffer (-o); size and count: the whole buffer; busbw "
		 "factor 1",
	.reduces = true,
	.rooted = true,
	.in_place = true,
	.bus_factor = bus_factor,
	.counts = counts,
	.param_count = param_count,
	.expect = expect,
	.launch = LAUNCH,
};
