/* What a correct collective leaves in each rank's output, as data: the
 * descriptors (coll_*.c) write it, the check kernel (kernels.cu) and the
 * CPU tests read it. The generator and the expected value of an element
 * are inline here so the device and the host compute them from one text.
 * Plain C; under nvcc the functions are __host__ __device__. */
#ifndef NC_EXPECT_H
#define NC_EXPECT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define NC_HD __host__ __device__
#else
#define NC_HD
#endif

/* The input every collective starts from: rank r's send buffer holds
 * gen(r, i) in its element i (its first sendcount elements). */

/* What the check expects of element o of a piece (o counted from the
 * piece's first element):
 * NC_EXPECT_REDUCE: op over every rank s of gen(s, base + o);
 * NC_EXPECT_COPY: gen(src, idx) with src = chunk ? o / chunk : src0 and
 * idx = chunk ? (o % chunk) + idx_base : o + idx_base. */
enum { NC_EXPECT_REDUCE = 0, NC_EXPECT_COPY = 1 };

struct nc_expect {
	int kind;
	int dtype, op, nranks, vmax;
	int contrib;                 /* ranks giving non-identity values */
	unsigned long long base;     /* REDUCE: first source index */
	unsigned long long chunk;    /* COPY: elements per source rank */
	int src0;                    /* COPY with chunk 0: the source */
	unsigned long long idx_base; /* COPY: added to the source index */
	double tol;                  /* relative; 0 exact */
	/* the output elements [off, off + len) the piece judges */
	unsigned long long off, len;
};

/* One step's shape, what a descriptor's expectation is computed from
 * (nc_shape_of fills it). */
struct nc_shape {
	int coll, dtype, nranks, root;
	int op;          /* the generator's operator: sum for a copy */
	int vmax, contrib;
	double tol;      /* the check's tolerance: 0 for a copy */
	size_t count;    /* nc_count_for: elements of the larger buffer */
	size_t sendcount, recvcount; /* the descriptor's counts */
};

/* One rank's expected output: the pieces of its receive buffer that a
 * correct run fills, each with its rule; elements outside every piece
 * are not judged. The caller gives an array of max pieces (nranks
 * pieces are always enough). */
struct nc_expectation {
	struct nc_expect *piece;
	int max, npieces;
};

/* NCCL's operators (nc.h's enum nc_op), for the device's use. */
enum { NC_GEN_SUM, NC_GEN_PROD, NC_GEN_MAX, NC_GEN_MIN, NC_GEN_AVG };

/* A 64-bit mix (splitmix64's finaliser): rank and index to a value. */
NC_HD static inline uint64_t nc_gen_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* The generator: small integers, exact in every type. prod uses 1 and 2.
 * A rank outside the element's contributors gives the identity (sum 0,
 * prod 1), so a floating sum over many ranks stays exact. */
NC_HD static inline int64_t nc_gen(int rank, uint64_t idx, int op, int vmax,
				   int nranks, int contrib)
{
	uint64_t h = nc_gen_mix(idx * 0x9e3779b97f4a7c15ULL +
				(uint64_t)rank * 7919 + 1);

	if (contrib < nranks && (int)((idx + (uint64_t)rank) %
				      (uint64_t)nranks) >= contrib &&
	    (op == NC_GEN_SUM || op == NC_GEN_AVG || op == NC_GEN_PROD))
		return op == NC_GEN_PROD ? 1 : 0;
	if (op == NC_GEN_PROD)
		return (h & 3) == 0 ? 2 : 1;
	return (int64_t)(h % (uint64_t)(vmax + 1));
}

/* The exact expected value of element o of a piece, before it is stored
 * in the element type. */
NC_HD static inline double nc_expect_at(const struct nc_expect *e,
					unsigned long long o)
{
	if (e->kind == NC_EXPECT_REDUCE) {
		int64_t acc = nc_gen(0, e->base + o, e->op, e->vmax,
				     e->nranks, e->contrib);
		uint64_t prod = (uint64_t)acc;

		for (int s = 1; s < e->nranks; s++) {
			int64_t v = nc_gen(s, e->base + o, e->op, e->vmax,
					   e->nranks, e->contrib);

			if (e->op == NC_GEN_SUM || e->op == NC_GEN_AVG)
				acc += v;
			else if (e->op == NC_GEN_PROD)
				prod *= (uint64_t)v;
			else if (e->op == NC_GEN_MAX)
				acc = v > acc ? v : acc;
			else
				acc = v < acc ? v : acc;
		}
		if (e->op == NC_GEN_PROD)
			return (double)prod;
		if (e->op == NC_GEN_AVG)
			return (double)acc / e->nranks;
		return (double)acc;
	} else {
		int src = e->chunk ? (int)(o / e->chunk) : e->src0;
		uint64_t idx = e->chunk ? (o % e->chunk) + e->idx_base :
					  o + e->idx_base;

		return (double)nc_gen(src, idx, e->op, e->vmax, e->nranks,
				      e->contrib);
	}
}

#endif
