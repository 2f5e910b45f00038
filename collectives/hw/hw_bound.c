/* The bus bandwidth bound the topology allows, and the efficiency rule
 * over it (hw.h). Pure. */
#include "hw/hw.h"

#include <stdio.h>
#include <string.h>

/* NVML's nvmlNvlinkVersion_t: 1 is 1.0, 2 2.0, 3 2.2, 4 3.0, 5 3.1, 6 4.0,
 * 7 5.0 (an H100 says 6). Older drivers said the major number; 2-4 give
 * 25 GB/s either way. */
int nc_nvlink_major(int nvml_version)
{
	static const int major[] = { 0, 1, 2, 2, 3, 3, 4, 5 };

	return nvml_version > 0 && nvml_version < 8 ? major[nvml_version] : 0;
}

/* NVLink 1 (P100) 20 GB/s a link each way; 2-4 (V100, A100, H100) 25;
 * 5 (B200) 50; by NVML's version value. */
double nc_nvlink_link_gbps(int nvml_version)
{
	switch (nc_nvlink_major(nvml_version)) {
	case 1:
		return 20;
	case 2:
	case 3:
	case 4:
		return 25;
	case 5:
		return 50;
	default:
		return 0;
	}
}

/* Per lane, each way, after line coding: 2.5 and 5 GT/s at 8b/10b, then
 * 8, 16, 32, 64 GT/s at 128b/130b (Gen6's FLIT coding counted alike). */
double nc_pcie_gbps(int gen, int width)
{
	static const double lane[] = { 0, 0.25, 0.5, 0.985, 1.969, 3.938,
				       7.877 };

	if (gen < 1 || gen > 6 || width < 1)
		return 0;
	return lane[gen] * width;
}

/* True when the far end of one of g's links is a GPU of the run. */
static bool link_to_run(const struct nc_gpuinfo *g, int k,
			const struct nc_gpuinfo *all, int n)
{
	for (int j = 0; j < n; j++)
		if (strcmp(all[j].host, g->host) == 0 &&
		    all[j].pci_domain == g->link_domain[k] &&
		    all[j].pci_bus == g->link_bus[k] &&
		    all[j].pci_dev == g->link_dev[k])
			return true;
	return false;
}

/* One rank's own bound within its host: its NVLink links that reach the
 * run's GPUs, or, when none does, every link (they end at NVSwitches,
 * which reach every GPU); else its PCIe link at its maximum. */
static double rank_bound(const struct nc_gpuinfo *g,
			 const struct nc_gpuinfo *all, int n, bool *nvl)
{
	int usable = 0, sw = 0;

	*nvl = false;
	for (int k = 0; k < g->nvlinks && k < NC_HW_MAX_LINKS; k++) {
		if (link_to_run(g, k, all, n))
			usable++;
		else
			sw++;
	}
	if (sw > 0 && usable == 0)
		usable = sw;
	if (usable > 0 && nc_nvlink_link_gbps(g->nvlink_version) > 0) {
		*nvl = true;
		return usable * nc_nvlink_link_gbps(g->nvlink_version);
	}
	return nc_pcie_gbps(g->pcie_max_gen, g->pcie_max_width);
}

/* The slowest rank's bound within the host, then the slowest host's NIC
 * across hosts. */
double nc_hw_bound(const struct nc_gpuinfo *g, int n, char *how,
		   size_t howlen)
{
	double b = 0, nic = 0;
	int worst = -1, hosts = 0;
	bool worst_nvl = false;

	if (n < 2) {
		snprintf(how, howlen, "one rank: no link between ranks");
		return 0;
	}
	for (int i = 0; i < n; i++) {
		bool nvl;
		double r;

		if (!g[i].nvml) {
			snprintf(how, howlen, "rank %d: NVML did not answer "
				 "(no driver library, or no permission)",
				 g[i].rank);
			return 0;
		}
		r = rank_bound(&g[i], g, n, &nvl);
		if (r <= 0) {
			snprintf(how, howlen, "rank %d: neither NVLink nor the "
				 "PCIe link is known", g[i].rank);
			return 0;
		}
		if (worst < 0 || r < b) {
			b = r;
			worst = i;
			worst_nvl = nvl;
		}
	}
	for (int i = 0; i < n; i++) {
		bool first = true;

		for (int j = 0; j < i; j++)
			if (strcmp(g[j].host, g[i].host) == 0)
				first = false;
		if (!first)
			continue;
		hosts++;
		if (g[i].nic_gbits > 0 && (nic == 0 || g[i].nic_gbits < nic))
			nic = g[i].nic_gbits;
	}
	if (hosts > 1) {
		if (nic <= 0) {
			snprintf(how, howlen, "%d hosts, and the speed of the "
				 "NICs NCCL uses between them is not known",
				 hosts);
			return 0;
		}
		if (nic / 8 < b) {
			snprintf(how, howlen, "%d hosts: the slowest host's "
				 "NICs, %.0f Gb/s", hosts, nic);
			return nic / 8;
		}
	}
	if (worst_nvl)
		snprintf(how, howlen, "NVLink %d: %.0f GB/s each way per "
			 "link, rank %d's links to the run's GPUs",
			 nc_nvlink_major(g[worst].nvlink_version),
			 nc_nvlink_link_gbps(g[worst].nvlink_version),
			 g[worst].rank);
	else
		snprintf(how, howlen, "PCIe Gen%d x%d of rank %d (no NVLink)",
			 g[worst].pcie_max_gen, g[worst].pcie_max_width,
			 g[worst].rank);
	return b;
}

/* The default gates only what idle hardware reaches with margin: the
 * peak of a collective measured up to 128 MB or more, at 45 % of the
 * bound (2 x H100 NV18, idle: all_reduce 62-70 %; one GPU shared with a
 * busy process: 31 %; blocking launches at 64 MB reach only 41 %, so
 * smaller sweeps are not gated by default). max_bytes: the largest size
 * measured. */
int nc_eff_decide(double min_pct, double bound, double peak,
		  unsigned long long peak_bytes, unsigned long long max_bytes,
		  char *detail, size_t len)
{
	double pct = bound > 0 ? 100.0 * peak / bound : 0;

	if (min_pct <= 0) {
		if (bound <= 0 || max_bytes < NC_EFF_DEFAULT_BYTES)
			return -1;
		min_pct = NC_EFF_DEFAULT_PCT;
	}
	if (bound <= 0) {
		snprintf(detail, len, "cannot tell: the hardware's bound is "
			 "not known");
		return 0;
	}
	snprintf(detail, len, "peak busbw %.2f GB/s at %llu B is %.1f %% of "
		 "the %.1f GB/s bound, minimum %.0f %%", peak, peak_bytes, pct,
		 bound, min_pct);
	return pct >= min_pct ? 1 : 0;
}
