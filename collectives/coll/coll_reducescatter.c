/* reduce_scatter: rank r ends with block r of the reduction.
 * Math (nccl-tests' byte counts and bus factor), expected result and
 * launch; the launch is compiled only where NCCL is (NC_HAVE_NCCL). */
#include "coll/coll.h"

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
		 "block",
	.reduces = true,
	.rooted = false,
	.in_place = true,
	.busf = NC_BUSF_N1_N,
	.span = NC_SPAN_SCATTER,
	.expect = expect,
	.launch = LAUNCH,
};
