/* Device helpers built by nvcc (kernels.cu): deterministic data, the
 * result check, and the test-only corruption. Plain C declarations; the
 * stream is passed as an opaque cudaStream_t. Each returns a cudaError_t
 * as int (0 success). */
#ifndef NC_KERNELS_H
#define NC_KERNELS_H

#include <stddef.h>

#include "coll/expect.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills count elements of buf with gen(rank, first + i): a value up to
 * vmax when rank is one of element i's `contrib` contributors out of
 * nranks, else the operator's identity. */
int nc_dev_init(void *buf, size_t count, int dtype, int op, int rank,
		int nranks, int contrib, int vmax, unsigned long long first,
		void *stream);
/* Counts elements of out that differ from the expectation piece e (out
 * is the piece's first element: e's off is not added), adding to
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
