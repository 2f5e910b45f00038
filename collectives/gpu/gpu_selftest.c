/* ncclcheck's self-test: before the collectives, each rank's GPU measured
 * alone (device memory copy, host-to-device and device-to-host over its
 * PCIe link) and read through NVML (the PCIe link as trained against its
 * maximum, NVLink links and where they end), so that a slow GPU is named
 * by its own numbers and not only seen as a lower bus bandwidth. NVML is
 * opened with dlopen: it comes with the driver, not with the toolkit. */
#include "gpu/harness.h"
#include "hw/hw.h"
#include "coll/kernels.h"
#include "bootstrap/watchdog.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"

#define D2D_BYTES (256ULL << 20)
#define D2D_REPS 40
#define HOST_BYTES (64ULL << 20)
#define HOST_REPS 8
#define SPANS 3

/* NVML's types as far as they are used here (nvml.h is not needed). */
typedef struct nvml_dev *nvml_dev_t;
struct nvml_pci {
	char bus_legacy[16];
	unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
};
struct nvml {
	void *h;
	int (*init)(void);
	int (*by_bus)(const char *, nvml_dev_t *);
	int (*gen)(nvml_dev_t, unsigned *);
	int (*max_gen)(nvml_dev_t, unsigned *);
	int (*width)(nvml_dev_t, unsigned *);
	int (*max_width)(nvml_dev_t, unsigned *);
	int (*link_state)(nvml_dev_t, unsigned, int *);
	int (*link_version)(nvml_dev_t, unsigned, unsigned *);
	int (*link_remote)(nvml_dev_t, unsigned, struct nvml_pci *);
	int (*index)(nvml_dev_t, unsigned *);
	int (*minor)(nvml_dev_t, unsigned *);
};

/* Opens NVML; false when the library or a function is missing. */
static bool nvml_open(struct nvml *n)
{
	memset(n, 0, sizeof(*n));
	n->h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (n->h == NULL)
		return false;
	*(void **)&n->init = dlsym(n->h, "nvmlInit_v2");
	*(void **)&n->by_bus = dlsym(n->h, "nvmlDeviceGetHandleByPciBusId_v2");
	*(void **)&n->gen = dlsym(n->h, "nvmlDeviceGetCurrPcieLinkGeneration");
	*(void **)&n->max_gen = dlsym(n->h,
				      "nvmlDeviceGetMaxPcieLinkGeneration");
	*(void **)&n->width = dlsym(n->h, "nvmlDeviceGetCurrPcieLinkWidth");
	*(void **)&n->max_width = dlsym(n->h, "nvmlDeviceGetMaxPcieLinkWidth");
	*(void **)&n->link_state = dlsym(n->h, "nvmlDeviceGetNvLinkState");
	*(void **)&n->link_version = dlsym(n->h, "nvmlDeviceGetNvLinkVersion");
	*(void **)&n->link_remote = dlsym(n->h,
					  "nvmlDeviceGetNvLinkRemotePciInfo_v2");
	*(void **)&n->index = dlsym(n->h, "nvmlDeviceGetIndex");
	*(void **)&n->minor = dlsym(n->h, "nvmlDeviceGetMinorNumber");
	if (n->init == NULL || n->by_bus == NULL || n->gen == NULL ||
	    n->max_gen == NULL || n->width == NULL || n->max_width == NULL ||
	    n->init() != 0) {
		dlclose(n->h);
		n->h = NULL;
		return false;
	}
	return true;
}

/* NVLink: every active link, its version and the PCI address at its far
 * end; the PCIe maximum; nvidia-smi's index and the /dev/nvidiaN of the
 * GPU (what advice to leave it out names). */
static void nvml_static(struct nvml *n, nvml_dev_t d, struct nc_gpuinfo *g)
{
	unsigned v = 0, m = 0;

	if (n->index != NULL && n->minor != NULL && n->index(d, &v) == 0 &&
	    n->minor(d, &m) == 0) {
		g->has_index = true;
		g->smi_index = (int)v;
		g->minor = (int)m;
	}

	if (n->max_gen(d, &v) == 0)
		g->pcie_max_gen = (int)v;
	if (n->max_width(d, &v) == 0)
		g->pcie_max_width = (int)v;
	if (n->link_state == NULL || n->link_version == NULL ||
	    n->link_remote == NULL)
		return;
	for (unsigned k = 0; k < NC_HW_MAX_LINKS; k++) {
		struct nvml_pci p;
		int on = 0;

		if (n->link_state(d, k, &on) != 0 || !on)
			continue;
		memset(&p, 0, sizeof(p));
		if (n->link_remote(d, k, &p) != 0)
			continue;
		if (n->link_version(d, k, &v) == 0)
			g->nvlink_version = (int)v;
		g->link_domain[g->nvlinks] = (int)p.domain;
		g->link_bus[g->nvlinks] = (int)p.bus;
		g->link_dev[g->nvlinks] = (int)p.device;
		g->nvlinks++;
	}
}

/* The NICs NCCL can use across hosts, Gb/s: every active InfiniBand or
 * RoCE port, else the socket interface NCCL will use. */
static double nic_gbits(const char *iface)
{
	DIR *dir = opendir("/sys/class/infiniband");
	struct dirent *e;
	double sum = 0;
	char p[512], buf[128];
	FILE *f;

	while (dir != NULL && (e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		for (int port = 1; port <= 4; port++) {
			double rate = 0;
			bool active = false;

			snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports/"
				 "%d/state", e->d_name, port);
			if ((f = fopen(p, "r")) == NULL)
				continue;
			active = fgets(buf, sizeof(buf), f) != NULL &&
				 strstr(buf, "ACTIVE") != NULL;
			fclose(f);
			snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports/"
				 "%d/rate", e->d_name, port);
			if (active && (f = fopen(p, "r")) != NULL) {
				if (fgets(buf, sizeof(buf), f) != NULL)
					rate = atof(buf);
				fclose(f);
			}
			sum += rate;
		}
	}
	if (dir != NULL)
		closedir(dir);
	if (sum > 0 || iface == NULL || iface[0] == '\0')
		return sum;
	snprintf(p, sizeof(p), "/sys/class/net/%s/speed", iface);
	if ((f = fopen(p, "r")) != NULL) {
		if (fgets(buf, sizeof(buf), f) != NULL && atof(buf) > 0)
			sum = atof(buf) / 1000;
		fclose(f);
	}
	return sum;
}

/* Fails the run like a failed step when a CUDA call of the test fails. */
static void ok(struct ctx *c, cudaError_t e, const char *doing)
{
	char why[256];

	if (e == cudaSuccess)
		return;
	snprintf(why, sizeof(why), "%s: %s", doing, cudaGetErrorString(e));
	nc_fail_step(c, "GPU self-test", why, false);
}

/* One timed span of `reps` copies of `bytes` on device i's stream: GB/s.
 * The PCIe link is read while the copies run (an idle GPU trains its
 * link down to save power). */
static double span(struct ctx *c, int i, void *dst, const void *src,
		   size_t bytes, int reps, enum cudaMemcpyKind kind,
		   struct nvml *n, nvml_dev_t nd, struct nc_gpuinfo *g,
		   long long dl)
{
	long long t0 = mono_now_us(), t;
	unsigned v;

	for (int r = 0; r < reps; r++)
		if (kind == cudaMemcpyDeviceToDevice)
			ok(c, (cudaError_t)nc_dev_copy(dst, src, bytes, g->sms,
						       c->d[i].s),
			   "the copy kernel");
		else
			ok(c, cudaMemcpyAsync(dst, src, bytes, kind,
					      c->d[i].s), "cudaMemcpyAsync");
	if (n != NULL && nd != NULL && kind != cudaMemcpyDeviceToDevice) {
		if (n->gen(nd, &v) == 0 && (int)v > g->pcie_gen)
			g->pcie_gen = (int)v;
		if (n->width(nd, &v) == 0 && (int)v > g->pcie_width)
			g->pcie_width = (int)v;
	}
	ok(c, cudaEventRecord(c->d[i].done, c->d[i].s), "cudaEventRecord");
	for (int k = 0; k < c->ndev; k++)
		if (k != i)
			ok(c, cudaEventRecord(c->d[k].done, c->d[k].s),
			   "cudaEventRecord");
	nc_wait_done(c, "GPU self-test", dl);
	t = mono_now_us() - t0;
	return t > 0 ? (double)bytes * reps / ((double)t * 1e3) : 0;
}

/* The median of three spans. */
static double med3(double a, double b, double x)
{
	if ((a <= b && b <= x) || (x <= b && b <= a))
		return b;
	if ((b <= a && a <= x) || (x <= a && a <= b))
		return a;
	return x;
}

/* Lines every process up before a phase: ranks that share a host share
 * its memory and PCIe switches, so a host copy is timed against the
 * others' same copy, never against another direction (the ranks decide
 * by comparing each other). */
static void line_up(struct ctx *c, long long dl)
{
	if (sc_barrier(&c->sc, dl) < 0)
		nc_fail_step(c, "GPU self-test", c->sc.why, c->sc.timed_out);
}

/* "GPU-8-4-4-4-12" hex, as nvidia-smi -L prints and
 * CUDA_VISIBLE_DEVICES takes. */
static void uuid_text(const struct cudaDeviceProp *p, char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)p->uuid.bytes;
	size_t at = (size_t)snprintf(buf, len, "GPU-");

	for (int k = 0; k < 16 && at + 3 < len; k++) {
		if (k == 4 || k == 6 || k == 8 || k == 10)
			buf[at++] = '-';
		at += (size_t)snprintf(buf + at, len - at, "%02x", u[k]);
	}
}

/* One device's numbers. */
static void measure(struct ctx *c, int i, struct nvml *n,
		    struct nc_gpuinfo *g, long long dl)
{
	nvml_dev_t nd = NULL;
	void *a = NULL, *b = NULL, *h = NULL;
	double s[SPANS];
	char bus[32];
	struct cudaDeviceProp p;

	cudaSetDevice(c->d[i].id);
	ok(c, cudaGetDeviceProperties(&p, c->d[i].id),
	   "cudaGetDeviceProperties");
	snprintf(g->name, sizeof(g->name), "%.63s", p.name);
	g->sms = p.multiProcessorCount;
	g->pci_domain = p.pciDomainID;
	g->pci_bus = p.pciBusID;
	g->pci_dev = p.pciDeviceID;
	g->dev = c->d[i].id;
	uuid_text(&p, g->uuid, sizeof(g->uuid));
	snprintf(bus, sizeof(bus), "%08x:%02x:%02x.0", p.pciDomainID,
		 p.pciBusID, p.pciDeviceID);
	if (n != NULL && n->by_bus(bus, &nd) == 0) {
		g->nvml = true;
		nvml_static(n, nd, g);
	} else {
		nd = NULL;
	}
	ok(c, cudaMalloc(&a, D2D_BYTES), "cudaMalloc");
	ok(c, cudaMalloc(&b, D2D_BYTES), "cudaMalloc");
	ok(c, cudaMallocHost(&h, HOST_BYTES), "cudaMallocHost");
	ok(c, cudaMemsetAsync(a, 1, D2D_BYTES, c->d[i].s), "cudaMemsetAsync");
	memset(h, 1, HOST_BYTES);
	/* first use of each direction is not timed */
	span(c, i, b, a, D2D_BYTES, 1, cudaMemcpyDeviceToDevice, NULL, NULL, g,
	     dl);
	span(c, i, a, h, HOST_BYTES, 1, cudaMemcpyHostToDevice, NULL, NULL, g,
	     dl);
	line_up(c, dl);
	for (int k = 0; k < SPANS; k++)
		s[k] = span(c, i, b, a, D2D_BYTES, D2D_REPS,
			    cudaMemcpyDeviceToDevice, n, nd, g, dl);
	g->d2d_gbps = med3(s[0], s[1], s[2]);
	line_up(c, dl);
	for (int k = 0; k < SPANS; k++)
		s[k] = span(c, i, a, h, HOST_BYTES, HOST_REPS,
			    cudaMemcpyHostToDevice, n, nd, g, dl);
	g->h2d_gbps = med3(s[0], s[1], s[2]);
	line_up(c, dl);
	for (int k = 0; k < SPANS; k++)
		s[k] = span(c, i, h, a, HOST_BYTES, HOST_REPS,
			    cudaMemcpyDeviceToHost, n, nd, g, dl);
	g->d2h_gbps = med3(s[0], s[1], s[2]);
	cudaFree(a);
	cudaFree(b);
	cudaFreeHost(h);
}

/* Every rank measures, rank 0 gathers and decides. The infos travel as
 * they are in memory: every rank runs the same binary (the side channel
 * refuses parts of another size) on 64-bit little-endian hosts. */
void nc_gpu_selftest(struct ctx *c)
{
	long long dl = mono_now_us() + c->o.timeout_us;
	struct nc_gpuinfo *mine = calloc((size_t)c->ndev, sizeof(*mine)), *all;
	struct nvml nv;
	bool have = nvml_open(&nv);
	char host[64] = "unknown";
	size_t len = sizeof(*mine) * (size_t)c->ndev;

	if (mine == NULL)
		nc_fail_step(c, "GPU self-test", "no memory", false);
	gethostname(host, sizeof(host) - 1);
	c->step++;
	if (sc_arrive(&c->sc, c->step) < 0)
		nc_fail_step(c, "GPU self-test", c->sc.why, false);
	/* NVML and CUDA calls that could block are bounded too */
	nc_wd_arm(dl + GRACE_US, "GPU self-test");
	for (int i = 0; i < c->ndev; i++) {
		mine[i].rank = c->d[i].rank;
		snprintf(mine[i].host, sizeof(mine[i].host), "%s", host);
		mine[i].nic_gbits = nic_gbits(c->nccl_iface);
		measure(c, i, have ? &nv : NULL, &mine[i], dl);
	}
	if (have)
		dlclose(nv.h); /* NVML stays initialised: harmless */
	all = c->l.rank == 0 ? calloc((size_t)c->sc.nprocs, len) : NULL;
	if (c->l.rank == 0 && all == NULL)
		nc_fail_step(c, "GPU self-test", "no memory", false);
	if (sc_gather(&c->sc, mine, len, all, dl) < 0)
		nc_fail_step(c, "GPU self-test", c->sc.why, c->sc.timed_out);
	nc_wd_disarm();
	free(mine);
	if (c->l.rank != 0)
		return;
	c->run.gpus = all;
	nc_run_gpu_verdict(&c->run);
}
