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
enum { O_SUM, O_PROD, O_MAX, O_MIN, O_AVG };

// A 64-bit mix (splitmix64's finaliser): rank and index to a value.
__device__ static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

// The generator: small integers, exact in every type. prod uses 1 and 2.
// A rank outside the element's contributors gives the identity (sum 0,
// prod 1), so a floating sum over many ranks stays exact.
__device__ static inline int64_t gen(int rank, uint64_t idx, int op, int vmax,
				     int nranks, int contrib)
{
	uint64_t h = mix(idx * 0x9e3779b97f4a7c15ULL + (uint64_t)rank * 7919 + 1);

	if (contrib < nranks && (int)((idx + (uint64_t)rank) %
				      (uint64_t)nranks) >= contrib &&
	    (op == O_SUM || op == O_AVG || op == O_PROD))
		return op == O_PROD ? 1 : 0;
	if (op == O_PROD)
		return (h & 3) == 0 ? 2 : 1;
	return (int64_t)(h % (uint64_t)(vmax + 1));
}

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
		store(buf, i, t, (double)gen(rank, first + i, op, vmax, nranks,
					     contrib));
}

__global__ static void check_kernel(const void *out, size_t count,
				    struct nc_expect e,
				    unsigned long long *wrong)
{
	unsigned long long bad = 0;

	for (size_t o = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	     o < count; o += (size_t)gridDim.x * blockDim.x) {
		double exp, got = load(out, o, e.dtype);

		if (e.kind == NC_EXPECT_REDUCE) {
			int64_t acc = gen(0, e.base + o, e.op, e.vmax,
					  e.nranks, e.contrib);
			uint64_t prod = (uint64_t)acc;

			for (int s = 1; s < e.nranks; s++) {
				int64_t v = gen(s, e.base + o, e.op, e.vmax,
						e.nranks, e.contrib);

				if (e.op == O_SUM || e.op == O_AVG)
					acc += v;
				else if (e.op == O_PROD)
					prod *= (uint64_t)v;
				else if (e.op == O_MAX)
					acc = v > acc ? v : acc;
				else
					acc = v < acc ? v : acc;
			}
			if (e.op == O_PROD)
				exp = (double)prod;
			else if (e.op == O_AVG)
				exp = (double)acc / e.nranks;
			else
				exp = (double)acc;
		} else {
			int src = e.chunk ? (int)(o / e.chunk) : e.src0;
			uint64_t idx = e.chunk ? (o % e.chunk) + e.idx_base :
						 o + e.idx_base;

			exp = (double)gen(src, idx, e.op, e.vmax, e.nranks,
					  e.contrib);
		}
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
