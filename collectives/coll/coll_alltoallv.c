/* alltoallv: every pair exchanges a block of its own size. Rank r sends
 * d+1 units to the rank d ahead of it (r + d mod n), its blocks packed in
 * rank order, and receives packed in rank order likewise, so both buffers
 * hold n(n+1)/2 units and no two peers' blocks have one size. One group
 * of ncclSend and ncclRecv per peer, as an MPI_Alltoallv over NCCL is
 * written. Math, expected result and launch; the launch is compiled only
 * where NCCL is (NC_HAVE_NCCL). */
#include "coll/coll.h"

/* Units in a buffer: 1 + 2 + ... + n. */
static size_t units_total(int nranks)
{
	return (size_t)nranks * ((size_t)nranks + 1) / 2;
}

/* Units rank `from` sends to rank `to`. */
static size_t units(int from, int to, int nranks)
{
	return 1 + (size_t)((to - from + nranks) % nranks);
}

/* Units rank r sends to the ranks before p (its send offset for p), in
 * O(1): p plus the sum of (q - r) mod n over q < p. */
static size_t units_sent_before(int r, int p, int nranks)
{
	size_t n = (size_t)nranks, a = (n - (size_t)r) % n, m = (size_t)p;
	size_t k = n - a, sum;

	if (a + m <= n)
		sum = m * a + m * (m - 1) / 2;
	else
		sum = (a + n - 1) * k / 2 + (m - k) * (m - k - 1) / 2;
	return m + sum;
}

/* One unit: count over n(n+1)/2, a multiple of 16 bytes (nccl-tests'
 * alignment of every block); both buffers hold n(n+1)/2 units. */
static void counts(size_t count, size_t eltsize, int nranks, int rank,
		   size_t *s, size_t *r, size_t *soff, size_t *roff)
{
	size_t u = nranks > 0 ? count / units_total(nranks) : 0;

	(void)rank;
	if (eltsize > 0 && eltsize < 16)
		u &= ~(16 / eltsize - 1);
	*s = u * units_total(nranks);
	*r = *s;
	*soff = 0;
	*roff = 0;
}

/* NCCL is given one unit's count (every block a multiple of it). */
static size_t param_count(size_t count, int nranks)
{
	return nranks > 0 ? count / units_total(nranks) : 0;
}

/* Rank p's block from rank r, at r's place in p's packed buffer, is what
 * r sent p: its input from r's send offset for p. */
static int expect(const struct nc_shape *sh, int rank,
		  struct nc_expectation *x)
{
	int n = sh->nranks;
	size_t u = sh->sendcount / units_total(n), off = 0;

	for (int r = 0; r < n; r++) {
		size_t len = u * units(r, rank, n);
		struct nc_expect *e = nc_expect_add(x, sh, NC_EXPECT_COPY, off,
						    len);

		if (e == NULL)
			return -1;
		e->src0 = r;
		e->idx_base = u * units_sent_before(r, rank, n);
		off += len;
	}
	return 0;
}

#ifdef NC_HAVE_NCCL
/* One group: to every peer its block, from every peer its block, each
 * packed in rank order; c->count is one unit. */
static int launch(const struct nc_call *c)
{
	size_t ts = nc_dtype_size(c->dtype), soff = 0, roff = 0;
	ncclResult_t rc, rc2;

	rc = ncclGroupStart();
	if (rc != ncclSuccess)
		return rc;
	for (int p = 0; p < c->nranks && rc == ncclSuccess; p++) {
		size_t sn = c->count * units(c->rank, p, c->nranks);
		size_t rn = c->count * units(p, c->rank, c->nranks);

		rc = ncclSend((const char *)c->send + soff * ts, sn,
			      (ncclDataType_t)c->dtype, p,
			      (ncclComm_t)c->comm, (cudaStream_t)c->stream);
		if (rc == ncclSuccess)
			rc = ncclRecv((char *)c->recv + roff * ts, rn,
				      (ncclDataType_t)c->dtype, p,
				      (ncclComm_t)c->comm,
				      (cudaStream_t)c->stream);
		soff += sn;
		roff += rn;
	}
	rc2 = ncclGroupEnd();
	return rc != ncclSuccess ? rc : rc2;
}
#define LAUNCH launch
#else
#define LAUNCH NULL
#endif

const struct nc_coll_desc nc_coll_alltoallv = {
	.name = "alltoallv",
	.about = "every pair a block of its own size, which nccl-tests "
		 "lacks: rank r sends d+1 units to rank r+d (mod n), one "
		 "group of ncclSend and ncclRecv per peer, packed in rank "
		 "order; size: both buffers (n(n+1)/2 units); count: one "
		 "unit; not in place",
	.reduces = false,
	.rooted = false,
	.in_place = false, /* one buffer cannot be both ends */
	.busf = NC_BUSF_N1_N,
	.span = NC_SPAN_OWN,
	.counts = counts,
	.param_count = param_count,
	.expect = expect,
	.launch = LAUNCH,
};
