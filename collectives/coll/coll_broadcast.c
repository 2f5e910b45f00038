/* broadcast: every rank ends with the root's buffer.
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
		 "count: the whole buffer; busbw factor 1",
	.reduces = false,
	.rooted = true,
	.in_place = true,
	.bus_factor = bus_factor,
	.counts = counts,
	.param_count = param_count,
	.expect = expect,
	.launch = LAUNCH,
};
