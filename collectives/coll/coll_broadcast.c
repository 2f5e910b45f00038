/* broadcast: every rank ends with the root's buffer.
 * Math (nccl-tests' byte counts and bus factor), expected result and
 * launch; the launch is compiled only where NCCL is (NC_HAVE_NCCL). */
#include "coll/coll.h"

/* Every rank: the root's input. */
static int expect(const struct nc_shape *sh, int rank,
		  struct nc_expectation *x)
{
	struct nc_expect *e = nc_expect_add(x, sh, NC_EXPECT_COPY, 0,
					    sh->recvcount);

	(void)rank;
	if (e == NULL)
		return -1;
	e->src0 = sh->root;
	return 0;
}

#ifdef NC_HAVE_NCCL
/* Enqueues one broadcast on the call's stream; returns NCCL's result. */
static int launch(const struct nc_call *c)
{
	return ncclBroadcast(c->send, c->recv, c->count, (ncclDataType_t)c->dtype,
			     c->root, (ncclComm_t)c->comm,
			     (cudaStream_t)c->stream);
}
#define LAUNCH launch
#else
#define LAUNCH NULL
#endif

const struct nc_coll_desc nc_coll_broadcast = {
	.name = "broadcast",
	.about = "every rank ends with the root's buffer (-r); size and "
		 "count: the whole buffer",
	.reduces = false,
	.rooted = true,
	.in_place = true,
	.busf = NC_BUSF_1,
	.span = NC_SPAN_WHOLE,
	.expect = expect,
	.launch = LAUNCH,
};
