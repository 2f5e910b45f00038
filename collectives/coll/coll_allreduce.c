/* all_reduce: every rank ends with the reduction of all ranks' buffers.
 * Math (nccl-tests' byte counts and bus factor), expected result and
 * launch; the launch is compiled only where NCCL is (NC_HAVE_NCCL). */
#include "coll/coll.h"

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
		 "(-o); size and count: the whole buffer",
	.reduces = true,
	.rooted = false,
	.in_place = true,
	.busf = NC_BUSF_2N1_N,
	.span = NC_SPAN_WHOLE,
	.expect = expect,
	.launch = LAUNCH,
};
