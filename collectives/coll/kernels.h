/* Device helpers built by nvcc (kernels.cu): deterministic data, the
 * result check, and the test-only corruption. Plain C declarations; the
 * stream is passed as an opaque cudaStream_t. Each returns a cudaError_t
 * as int (0 success). */
#ifndef NC_KERNELS_H
#define NC_KERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the check expects of output element o:
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
};

/* Fills count elements of buf with gen(rank, first + i): a value up to
 * vmax when rank is one of element i's `contrib` contributors out of
 * nranks, else the operator's identity. */
int nc_dev_init(void *buf, size_t count, int dtype, int op, int rank,
		int nranks, int contrib, int vmax, unsigned long long first,
		void *stream);
/* Counts elements of out that differ from the expectation, adding to
 * *dev_wrong (a device counter). */
int nc_dev_check(const void *out, size_t count,
		 const struct nc_expect *e, unsigned long long *dev_wrong,
		 void *stream);
/* The self-test's device copy through the SMs (bytes a multiple of 16,
 * sms the GPU's multiprocessors). */
int nc_dev_copy(void *dst, const void *src, size_t bytes, int sms,
		void *stream);
/* Test only: writes a wrong value into element idx. */
int nc_dev_corrupt(void *buf, size_t idx, int dtype, void *stream);

#ifdef __cplusplus
}
#endif

#endif
