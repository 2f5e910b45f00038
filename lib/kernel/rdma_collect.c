/* The RDMA side of a node, collected: devices (netlink on a live system,
 * else /sys/class/infiniband), the uverbs device files, RLIMIT_MEMLOCK,
 * the GPUDirect RDMA modules, the GPUs' PCI paths and the subsystem's
 * netns mode. A recorded tree holds `rdma system`'s line in
 * RDMA_SYSTEM_RECORD, since netlink cannot be replayed from files. */
#include "kernel/rdma.h"
#include "kernel/nl.h"
#include "base/sysroot.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RDMA_SYSTEM_RECORD "/run/netprobe/rdma_system"
#define DIR_GUARD 4096

/* Calls fn for each entry name of a sysroot directory but "." and "..",
 * at most DIR_GUARD of them, in name order. */
static void each_entry(const struct sysroot *sr, const char *dir,
                       void (*fn)(const char *name, void *ctx), void *ctx)
{
	char path[PATH_MAX];
	struct dirent **v = NULL;
	int n;

	if (sysroot_path(sr, dir, path, sizeof(path)) < 0)
		return;
	n = scandir(path, &v, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (i < DIR_GUARD && v[i]->d_name[0] != '.')
			fn(v[i]->d_name, ctx);
		free(v[i]);
	}
	free(v);
}

struct walk {
	struct rdma_info *info;
	const struct sysroot *sr;
};

/* A /sys/class/infiniband entry not yet listed by netlink. */
static void add_dev(const char *name, void *ctx)
{
	struct walk *w = ctx;
	struct rdma_info *info = w->info;

	for (int i = 0; i < info->ndevs; i++)
		if (strcmp(info->devs[i].name, name) == 0)
			return;
	if (info->ndevs >= RDMA_MAX_DEVS)
		return;
	memset(&info->devs[info->ndevs], 0, sizeof(info->devs[0]));
	info->devs[info->ndevs].numa = -1;
	nl_copy(info->devs[info->ndevs].name, RDMA_NAME, name);
	info->ndevs++;
}

/* /dev/infiniband/uverbsN: what ibv_open_device opens. */
static void add_uverbs(const char *name, void *ctx)
{
	struct rdma_info *info = ((struct walk *)ctx)->info;

	if (strncmp(name, "uverbs", 6) == 0 && info->nuverbs < RDMA_MAX_DEVS)
		nl_copy(info->uverbs[info->nuverbs++], 24, name);
}

/* "Max locked memory  65536  65536  bytes" (proc(5) limits). */
static void read_memlock(struct rdma_info *info, const struct sysroot *sr)
{
	char buf[4096], soft[32], hard[32], *l;

	info->memlock_soft = info->memlock_hard = -2;
	if (sysroot_read(sr, "/proc/self/limits", buf, sizeof(buf)) < 0 ||
	    (l = strstr(buf, "Max locked memory")) == NULL ||
	    sscanf(l + 17, "%31s %31s", soft, hard) != 2)
		return;
	info->memlock_soft =
	    strcmp(soft, "unlimited") == 0 ? -1 : strtoll(soft, NULL, 10);
	info->memlock_hard =
	    strcmp(hard, "unlimited") == 0 ? -1 : strtoll(hard, NULL, 10);
}

/* NCCL's ibGdrSupportInitOnce (net_ib.cc) tests these three files. */
static void read_peermem(struct rdma_info *info, const struct sysroot *sr)
{
	static const char *const files[] = {
	    "/sys/module/nvidia_peermem/version",
	    "/sys/kernel/mm/memory_peers/nv_mem/version",
	    "/sys/kernel/mm/memory_peers/nv_mem_nc/version"};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (sysroot_exists(sr, files[i])) {
			info->peermem = true;
			nl_copy(info->peermem_from, sizeof(info->peermem_from),
			        files[i]);
			return;
		}
}

/* A GPU by its PCI address (0000:3b:00.0), once. */
static void add_gpu(const char *name, void *ctx)
{
	struct walk *w = ctx;
	struct rdma_info *info = w->info;
	struct rdma_gpu *g;
	char rel[PATH_MAX], path[PATH_MAX], *real, *root = NULL;
	long long numa;

	if (strlen(name) != 12 || name[4] != ':' || name[7] != ':' ||
	    name[10] != '.' || info->ngpus >= RDMA_MAX_GPUS)
		return;
	for (int i = 0; i < info->ngpus; i++)
		if (strcmp(info->gpus[i].pci, name) == 0)
			return;
	g = &info->gpus[info->ngpus];
	memset(g, 0, sizeof(*g));
	nl_copy(g->pci, sizeof(g->pci), name);
	g->numa = -1;
	snprintf(rel, sizeof(rel), "/sys/bus/pci/devices/%s", name);
	if (sysroot_path(w->sr, rel, path, sizeof(path)) == 0 &&
	    (real = realpath(path, NULL)) != NULL) {
		size_t rl = 0;

		if (w->sr->dir[0] != '\0' &&
		    (root = realpath(w->sr->dir, NULL)) != NULL)
			rl = strlen(root);
		if (strlen(real) >= rl)
			nl_copy(g->pci_path, sizeof(g->pci_path), real + rl);
		free(root);
		free(real);
		snprintf(rel, sizeof(rel), "%s/numa_node", g->pci_path);
		if (sysroot_read_ll(w->sr, rel, &numa) == 0 && numa >= 0)
			g->numa = (int)numa;
	}
	info->ngpus++;
}

/* A Mellanox function on the PCI bus, whether or not this netns sees
 * its RDMA device. */
static void count_mlx(const char *name, void *ctx)
{
	struct walk *w = ctx;
	char rel[PATH_MAX], v[16];

	snprintf(rel, sizeof(rel), "/sys/bus/pci/devices/%s/vendor", name);
	if (sysroot_read_line(w->sr, rel, v, sizeof(v)) >= 0 &&
	    strcmp(v, "0x15b3") == 0)
		w->info->pci_rdma_funcs++;
}

/* `rdma system` prints "netns shared copy-on-fork on". */
static void read_netns_record(struct rdma_info *info,
                              const struct sysroot *sr)
{
	char line[128];

	if (sysroot_read_line(sr, RDMA_SYSTEM_RECORD, line, sizeof(line)) < 0)
		return;
	if (strstr(line, "netns exclusive") != NULL)
		info->netns_mode = 0;
	else if (strstr(line, "netns shared") != NULL)
		info->netns_mode = 1;
	else
		return;
	snprintf(info->netns_from, sizeof(info->netns_from), "%s (recorded)",
	         RDMA_SYSTEM_RECORD);
}

/* Netlink is the kernel's own list on a live system; sysfs fills in
 * what netlink lacks, and lists the devices of a recorded tree. */
void rdma_collect(struct rdma_info *info, const struct sysroot *sr)
{
	struct walk w = {.info = info, .sr = sr};

	memset(info, 0, sizeof(*info));
	info->netns_mode = -1;
	if (sysroot_is_live(sr)) {
		if (rdma_nl_collect(info) < 0)
			snprintf(info->nl_error, sizeof(info->nl_error),
			         "RDMA netlink: %s", strerror(errno));
	} else {
		snprintf(info->nl_error, sizeof(info->nl_error),
		         "recorded sysroot: RDMA netlink not asked");
		read_netns_record(info, sr);
	}
	each_entry(sr, "/sys/class/infiniband", add_dev, &w);
	for (int i = 0; i < info->ndevs; i++)
		rdma_sysfs_dev(&info->devs[i], sr);
	info->dev_dir = sysroot_exists(sr, "/dev/infiniband");
	each_entry(sr, "/dev/infiniband", add_uverbs, &w);
	read_memlock(info, sr);
	read_peermem(info, sr);
	(void)sysroot_read_line(sr, "/proc/sys/kernel/osrelease", info->kernel,
	                        sizeof(info->kernel));
	each_entry(sr, "/sys/bus/pci/drivers/nvidia", add_gpu, &w);
	if (info->ngpus > 0) {
		snprintf(info->gpus_from, sizeof(info->gpus_from),
		         "/sys/bus/pci/drivers/nvidia");
	} else {
		each_entry(sr, "/proc/driver/nvidia/gpus", add_gpu, &w);
		if (info->ngpus > 0)
			snprintf(info->gpus_from, sizeof(info->gpus_from),
			         "/proc/driver/nvidia/gpus");
	}
	each_entry(sr, "/sys/bus/pci/devices", count_mlx, &w);
}
