/* sendrecv: every rank sends its buffer to rank+1 and receives from rank-1
 * (a ring), as nccl-tests' sendrecv_perf. Math,
 * expected result and launch. */
#include "coll/coll.h"

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
		 "nccl-tests; size and count: the whole buffer; not in place "
		 "(its in-place columns read N/A)",
	.reduces = false,
	.rooted = false,
	.in_place = false, /* one buffer cannot be both ends */
	.busf = NC_BUSF_1,
	.span = NC_SPAN_WHOLE,
	.expect = expect,
	.launch = LAUNCH,
};
