/* Which rank's GPU is the slow one (hw.h): outliers of the self-test's
 * measures among the ranks, and the findings they imply. Pure. */
#include "hw/hw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* qsort order for doubles. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of v over the elements of skip's group (all when group is
 * NULL) other than skip itself; 0 when there are none. */
static double median_without(const double *v, const int *group, int n,
			     int skip)
{
	double *t = malloc(sizeof(*t) * (size_t)(n > 0 ? n : 1)), m;
	int k = 0;

	if (t == NULL)
		return 0;
	for (int i = 0; i < n; i++)
		if (i != skip && v[i] > 0 &&
		    (group == NULL || group[i] == group[skip]))
			t[k++] = v[i];
	if (k == 0) {
		free(t);
		return 0;
	}
	qsort(t, (size_t)k, sizeof(*t), cmp_double);
	m = k % 2 ? t[k / 2] : (t[k / 2 - 1] + t[k / 2]) / 2;
	free(t);
	return m;
}

/* Against the others' median, so that with two ranks the slower is
 * measured against the faster and not against their mean. An unknown
 * value (0) is nobody's outlier. Idle GPUs of one model differ by a few
 * per cent in these copies; 25 % is far outside that noise, and a GPU
 * that shares its time with another process loses about half. */
int nc_slow_ranks(const double *v, const int *group, int n, double tol,
		  bool *slow)
{
	int count = 0;

	for (int i = 0; i < n; i++) {
		double m = n >= 2 && v[i] > 0 ? median_without(v, group, n, i) :
						0;

		slow[i] = m > 0 && v[i] < (1 - tol) * m;
		count += slow[i];
	}
	return count;
}

/* gpu-slow names the rank with every number, since a GPU that is busy
 * with another process also copies slower over PCIe; pcie-link-degraded
 * only for a GPU whose device copy is normal. */
int nc_gpu_findings(const struct nc_gpuinfo *g, int n, double tol,
		    void (*add)(void *arg, enum finding_code code, const char *text),
		    void *arg)
{
	double *d2d = calloc((size_t)(n > 0 ? n : 1), sizeof(double) * 3);
	bool *s = calloc((size_t)(n > 0 ? n : 1), sizeof(bool) * 3);
	double *h2d = d2d + n, *d2h = d2d + 2 * n;
	int *model = calloc((size_t)(n > 0 ? n : 1), sizeof(int));
	bool *sd = s, *sh = s + n, *sb = s + 2 * n;
	int added = 0;
	char t[400];

	if (d2d == NULL || s == NULL || model == NULL) {
		free(d2d);
		free(s);
		free(model);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		/* a GPU is compared with GPUs of its own model only */
		model[i] = i;
		for (int j = 0; j < i; j++)
			if (strcmp(g[j].name, g[i].name) == 0) {
				model[i] = model[j];
				break;
			}
		d2d[i] = g[i].d2d_gbps;
		h2d[i] = g[i].h2d_gbps;
		d2h[i] = g[i].d2h_gbps;
	}
	nc_slow_ranks(d2d, model, n, tol, sd);
	nc_slow_ranks(h2d, model, n, tol, sh);
	nc_slow_ranks(d2h, model, n, tol, sb);
	for (int i = 0; i < n; i++) {
		double md = median_without(d2d, model, n, i);
		bool link = g[i].pcie_max_gen > 0 && g[i].pcie_gen > 0 &&
			    (g[i].pcie_gen < g[i].pcie_max_gen ||
			     g[i].pcie_width < g[i].pcie_max_width);

		if (sd[i]) {
			snprintf(t, sizeof(t), "rank %d on %s (%s, PCI "
				 "%04x:%02x:%02x): device copy %.0f GB/s "
				 "against %.0f GB/s on the other ranks; "
				 "host-to-device %.1f, device-to-host %.1f "
				 "GB/s", g[i].rank, g[i].host, g[i].name,
				 g[i].pci_domain, g[i].pci_bus, g[i].pci_dev,
				 g[i].d2d_gbps, md, g[i].h2d_gbps,
				 g[i].d2h_gbps);
			add(arg, FINDING_GPU_SLOW, t);
			added++;
			continue;
		}
		/* one direction alone is the host's memory or a neighbour's
		 * copy at that moment, not this GPU's link */
		if (!link && !(sh[i] && sb[i]))
			continue;
		if (link)
			snprintf(t, sizeof(t), "rank %d on %s (PCI "
				 "%04x:%02x:%02x): PCIe link at Gen%d x%d "
				 "during a copy, its maximum Gen%d x%d; "
				 "host-to-device %.1f, device-to-host %.1f "
				 "GB/s", g[i].rank, g[i].host,
				 g[i].pci_domain, g[i].pci_bus, g[i].pci_dev,
				 g[i].pcie_gen, g[i].pcie_width,
				 g[i].pcie_max_gen, g[i].pcie_max_width,
				 g[i].h2d_gbps, g[i].d2h_gbps);
		else
			snprintf(t, sizeof(t), "rank %d on %s (PCI "
				 "%04x:%02x:%02x): host-to-device %.1f GB/s "
				 "(others %.1f), device-to-host %.1f GB/s "
				 "(others %.1f), device copy normal",
				 g[i].rank, g[i].host, g[i].pci_domain,
				 g[i].pci_bus, g[i].pci_dev, g[i].h2d_gbps,
				 median_without(h2d, model, n, i), g[i].d2h_gbps,
				 median_without(d2h, model, n, i));
		add(arg, FINDING_PCIE_LINK_DEGRADED, t);
		added++;
	}
	free(d2d);
	free(s);
	free(model);
	return added;
}
