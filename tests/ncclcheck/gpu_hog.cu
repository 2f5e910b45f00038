/* gpu_hog: loads one GPU with a competing process, for the slow-GPU test
 * of tests/ncclcheck/gpu-run.sh. A kernel on every SM spins for 50 ms at a
 * time, launched again and again for SECONDS, so that the GPU's time
 * slices go half to it and half to whatever else runs there.
 *
 *   gpu_hog DEVICE SECONDS
 *
 * Exit status 0 after SECONDS, 2 on bad arguments or a CUDA error. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Spins until the GPU's global timer passes `ns` from its start. */
__global__ void spin(unsigned long long ns, unsigned long long *sink)
{
	unsigned long long t0, t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	do
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	while (t - t0 < ns);
	if (threadIdx.x == 0 && t == 0)
		*sink = t; /* never: keeps the loop */
}

int main(int argc, char **argv)
{
	unsigned long long *sink;
	struct timespec a, b;
	cudaDeviceProp p;
	double secs;
	int dev;

	if (argc != 3 || (dev = atoi(argv[1])) < 0 ||
	    (secs = atof(argv[2])) <= 0 || secs > 3600) {
		fprintf(stderr, "usage: gpu_hog DEVICE SECONDS (1-3600)\n");
		return 2;
	}
	if (cudaSetDevice(dev) != cudaSuccess ||
	    cudaGetDeviceProperties(&p, dev) != cudaSuccess ||
	    cudaMalloc((void **)&sink, sizeof(*sink)) != cudaSuccess) {
		fprintf(stderr, "gpu_hog: GPU %d: %s\n", dev,
			cudaGetErrorString(cudaGetLastError()));
		return 2;
	}
	fprintf(stderr, "gpu_hog: GPU %d (%s), %d SMs, %.0f s\n", dev, p.name,
		p.multiProcessorCount, secs);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (;;) {
		spin<<<p.multiProcessorCount * 2, 256>>>(50000000ULL, sink);
		if (cudaDeviceSynchronize() != cudaSuccess) {
			fprintf(stderr, "gpu_hog: %s\n",
				cudaGetErrorString(cudaGetLastError()));
			return 2;
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		if ((double)(b.tv_sec - a.tv_sec) +
			    (double)(b.tv_nsec - a.tv_nsec) / 1e9 >= secs)
			return 0;
	}
}
