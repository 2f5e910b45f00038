/* sendrecv: every rank sends its buffer to rank+1 and receives from rank-1
 * (a ring), as nccl-tests' sendrecv_perf. Math,
 * expected result and launch. */
#include "coll/coll.h"

/* busbw equals algbw. */
static double bus_factor(int nranks)
{
	(void)nranks;
	return 1;
}

/* Whole buffers both ways; no in-place offset. */
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

/* Rank r: the input of rank r-1 (the ring's previous rank). */
static int expect(const struct nc_shape *sh, int rank,
		  struct nc_expectation *x)
{
	struct nc_expect *e = nc_expect_add(x, sh, NC_EXPECT_COPY, 0,
					    sh->recvcount);

	if (e == NULL)
		return -1;
	e->src0 = (rank - 1 + sh->nranks) % sh->nranks;
	return 0;
}

#ifdef NC_HAVE_NCCL
/* One group: send to the next rank, receive from the previous one. */
static int launch(const struct nc_call *c)
{
	int next = (c->rank + 1) % c->nranks;
	int prev = (c->rank - 1 + c->nranks) % c->nranks;
	ncclResult_t rc, rc2;

	rc = ncclGroupStart();
	if (rc != ncclSuccess)
		return rc;
	rc = ncclSend(c->send, c->count, (ncclDataType_t)c->dtype, next,
		      (ncclComm_t)c->comm, (cudaStream_t)c->stream);
	if (rc == ncclSuccess)
		rc = ncclRecv(c->recv, c->count, (ncclDataType_t)c->dtype, prev,
			      (ncclComm_t)c->comm, (cudaStream_t)c->stream);
	rc2 = ncclGroupEnd();
	return rc != ncclSuccess ? rc : rc2;
}
#define LAUNCH launch
#else
#define LAUNCH NULL
#endif

const struct nc_coll_desc nc_coll_sendrecv = {
	.name = "sendrecv",
	.about = "sends to rank+1 and receives from rank-1, as in "
		 "nccl-tests; size and count: the whole buffer; busbw factor "
		 "1; not in place (its in-place columns read N/A)",
	.reduces = false,
	.rooted = false,
	.in_place = false, /* one buffer cannot be both ends */
	.bus_factor = bus_factor,
	.counts = counts,
	.param_count = param_count,
	.expect = expect,
	.launch = LAUNCH,
};
