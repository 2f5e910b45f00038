/* all_gather: every rank ends with every rank's block, in rank order.
 * Math (nccl-tests' byte counts and bus factor), expected result and
 * launch; the launch is compiled only where NCCL is (NC_HAVE_NCCL). */
#include "coll/coll.h"

/* Block p of every rank's output is rank p's input. */
static int expect(const struct nc_shape *sh, int rank,
		  struct nc_expectation *x)
{
	struct nc_expect *e = nc_expect_add(x, sh, NC_EXPECT_COPY, 0,
					    sh->recvcount);

	(void)rank;
	if (e == NULL)
		return -1;
	e->chunk = sh->sendcount;
	return 0;
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
	.about = "every rank ends with every rank's block, in rank order; "
		 "size: the gathered buffer; count: one rank's block",
	.reduces = false,
	.rooted = false,
	.in_place = true,
	.busf = NC_BUSF_N1_N,
	.span = NC_SPAN_GATHER,
	.expect = expect,
	.launch = LAUNCH,
};
