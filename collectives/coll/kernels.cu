// Device code of ncclcheck: deterministic per-rank data, the result check
// against exact expected values, and the test-only corruption.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "coll/kernels.h"

// NCCL's type numbers (nc.h).
enum { T_I8, T_U8, T_I32, T_U32, T_I64, T_U64, T_HALF, T_FLOAT, T_DOUBLE,
       T_BF16 };

// The generator (nc_gen) and the expected values (nc_expect_at) are
// coll/expect.h's, the host's too (the CPU tests).

// Stores an integer value as the element type.
__device__ static inline void store(void *buf, size_t i, int t, double v)
{
	switch (t) {
	case T_I8: ((int8_t *)buf)[i] = (int8_t)(int64_t)v; break;
	case T_U8: ((uint8_t *)buf)[i] = (uint8_t)(int64_t)v; break;
	case T_I32: ((int32_t *)buf)[i] = (int32_t)(int64_t)v; break;
	case T_U32: ((uint32_t *)buf)[i] = (uint32_t)(int64_t)v; break;
	case T_I64: ((int64_t *)buf)[i] = (int64_t)v; break;
	case T_U64: ((uint64_t *)buf)[i] = (uint64_t)(int64_t)v; break;
	case T_HALF: ((__half *)buf)[i] = __double2half(v); break;
	case T_FLOAT: ((float *)buf)[i] = (float)v; break;
	case T_DOUBLE: ((double *)buf)[i] = v; break;
	case T_BF16: ((__nv_bfloat16 *)buf)[i] = __double2bfloat16(v); break;
	}
}

// Reads an element as double (integers up to 2^53 exactly).
__device__ static inline double load(const void *buf, size_t i, int t)
{
	switch (t) {
	case T_I8: return ((const int8_t *)buf)[i];
	case T_U8: return ((const uint8_t *)buf)[i];
	case T_I32: return ((const int32_t *)buf)[i];
	case T_U32: return ((const uint32_t *)buf)[i];
	case T_I64: return (double)((const int64_t *)buf)[i];
	case T_U64: return (double)((const uint64_t *)buf)[i];
	case T_HALF: return __half2float(((const __half *)buf)[i]);
	case T_FLOAT: return ((const float *)buf)[i];
	case T_DOUBLE: return ((const double *)buf)[i];
	case T_BF16: return __bfloat162float(((const __nv_bfloat16 *)buf)[i]);
	}
	return 0;
}

// Rounds an exact expected value through the element type, so wrap-around
// of integer products and half/bf16 rounding match what NCCL stores.
__device__ static inline double through(double v, int t)
{
	switch (t) {
	case T_I8: return (int8_t)(int64_t)v;
	case T_U8: return (uint8_t)(int64_t)v;
	case T_I32: return (int32_t)(int64_t)v;
	case T_U32: return (uint32_t)(int64_t)v;
	case T_HALF: return __half2float(__double2half(v));
	case T_FLOAT: return (float)v;
	case T_BF16: return __bfloat162float(__double2bfloat16(v));
	}
	return v;
}

__global__ static void init_kernel(void *buf, size_t count, int t, int op,
				   int rank, int nranks, int contrib, int vmax,
				   unsigned long long first)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	     i < count; i += (size_t)gridDim.x * blockDim.x)
		store(buf, i, t, (double)nc_gen(rank, first + i, op, vmax,
						nranks, contrib));
}

__global__ static void check_kernel(const void *out, size_t count,
				    struct nc_expect e,
				    unsigned long long *wrong)
{
	unsigned long long bad = 0;

	for (size_t o = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	     o < count; o += (size_t)gridDim.x * blockDim.x) {
		double exp, got = load(out, o, e.dtype);

		exp = nc_expect_at(&e, o);
		if (e.tol == 0) {
			if (got != through(exp, e.dtype))
				bad++;
		} else {
			double d = got - exp, m = exp < 0 ? -exp : exp;

			if (d < 0)
				d = -d;
			if (!(d <= e.tol * (m > 1 ? m : 1)))
				bad++;
		}
	}
	if (bad)
		atomicAdd(wrong, bad);
}

__global__ static void corrupt_kernel(void *buf, size_t idx, int t)
{
	store(buf, idx, t, load(buf, idx, t) + 3);
}

// Grid size for a grid-stride loop: enough blocks to fill the GPU.
static unsigned blocks_for(size_t count)
{
	size_t b = (count + 255) / 256;

	return b > 4096 ? 4096 : (b == 0 ? 1 : (unsigned)b);
}

extern "C" int nc_dev_init(void *buf, size_t count, int dtype, int op,
			   int rank, int nranks, int contrib, int vmax,
			   unsigned long long first, void *stream)
{
	if (count == 0)
		return 0;
	init_kernel<<<blocks_for(count), 256, 0, (cudaStream_t)stream>>>(
		buf, count, dtype, op, rank, nranks, contrib, vmax, first);
	return (int)cudaGetLastError();
}

extern "C" int nc_dev_check(const void *out, size_t count,
			    const struct nc_expect *e,
			    unsigned long long *dev_wrong, void *stream)
{
	if (count == 0)
		return 0;
	check_kernel<<<blocks_for(count), 256, 0, (cudaStream_t)stream>>>(
		out, count, *e, dev_wrong);
	return (int)cudaGetLastError();
}

extern "C" int nc_dev_corrupt(void *buf, size_t idx, int dtype, void *stream)
{
	corrupt_kernel<<<1, 1, 0, (cudaStream_t)stream>>>(buf, idx, dtype);
	return (int)cudaGetLastError();
}

/* The self-test's device copy through the SMs, 16 bytes a thread per
 * step: what a kernel of another process competes for. */
__global__ void copy_kernel(uint4 *dst, const uint4 *src, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride)
		dst[i] = src[i];
}

extern "C" int nc_dev_copy(void *dst, const void *src, size_t bytes,
			   int sms, void *stream)
{
	copy_kernel<<<sms * 4, 512, 0, (cudaStream_t)stream>>>(
		(uint4 *)dst, (const uint4 *)src, bytes / sizeof(uint4));
	return (int)cudaGetLastError();
}
