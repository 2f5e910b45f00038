/* alltoall: rank r sends block p of its buffer to rank p and receives block
 * p from rank p. ncclAlltoAll where NCCL has it (2.28 on), else one group
 * of ncclSend and ncclRecv per peer: what nccl-tests 2.19 calls. Math,
 * expected result and launch. */
#include "coll/coll.h"

/* Block p of rank r's output is block r of rank p's input. */
static int expect(const struct nc_shape *sh, int rank,
		  struct nc_expectation *x)
{
	size_t per = sh->sendcount / (size_t)sh->nranks;
	struct nc_expect *e = nc_expect_add(x, sh, NC_EXPECT_COPY, 0,
					    sh->recvcount);

	if (e == NULL)
		return -1;
	e->chunk = per;
	e->idx_base = (unsigned long long)rank * per;
	return 0;
}

#ifdef NC_HAVE_NCCL
/* One call, or one group: a send and a receive of count elements with
 * every peer. */
static int launch(const struct nc_call *c)
{
	size_t blk = c->count * nc_dtype_size(c->dtype);
	ncclResult_t rc, rc2;

#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
	if (c->nccl_version >= NCCL_VERSION(2, 28, 0))
		return ncclAlltoAll(c->send, c->recv, c->count,
				    (ncclDataType_t)c->dtype,
				    (ncclComm_t)c->comm,
				    (cudaStream_t)c->stream);
#endif
	rc = ncclGroupStart();
	if (rc != ncclSuccess)
		return rc;
	for (int p = 0; p < c->nranks && rc == ncclSuccess; p++) {
		rc = ncclSend((const char *)c->send + p * blk, c->count,
			      (ncclDataType_t)c->dtype, p,
			      (ncclComm_t)c->comm, (cudaStream_t)c->stream);
		if (rc == ncclSuccess)
			rc = ncclRecv((char *)c->recv + p * blk, c->count,
				      (ncclDataType_t)c->dtype, p,
				      (ncclComm_t)c->comm,
				      (cudaStream_t)c->stream);
	}
	rc2 = ncclGroupEnd();
	return rc != ncclSuccess ? rc : rc2;
}
#define LAUNCH launch
#else
#define LAUNCH NULL
#endif

const struct nc_coll_desc nc_coll_alltoall = {
	.name = "alltoall",
	.about = "rank r sends its block p to rank p: ncclAlltoAll (NCCL "
		 "2.28 on; one group of ncclSend and ncclRecv per peer "
		 "before); size: the whole send buffer; count: one rank's "
		 "block; not in place (its in-place columns read N/A, as "
		 "nccl-tests prints when it does not check)",
	.reduces = false,
	.rooted = false,
	.in_place = false, /* one buffer cannot be both ends */
	.busf = NC_BUSF_N1_N,
	.span = NC_SPAN_BLOCKS,
	.expect = expect,
	.launch = LAUNCH,
};
