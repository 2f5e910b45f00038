/* --pairs' findings (output.h): what is slow, named at the grain it is
 * slow at, and advice that leaves out only that. A slow GPU keeps its node
 * (CUDA_VISIBLE_DEVICES without it, or Slurm's gres without it); a link
 * between two ranks names both ends; a node is left out only when its own
 * GPUs or NICs are slow against every peer, which takes two hosts or more
 * (nc_pairs_judge). */
#include "results/output.h"

#include <stdlib.h>
#include <string.h>

/* The figure of pair (i, j) that stands: alone when measured alone. */
static double pair_fig(const struct nc_run *run, int i, int j)
{
	int n = run->nranks, a = i < j ? i : j, b = i < j ? j : i;

	if (run->pair_alone != NULL && run->pair_alone[a * n + b] > 0)
		return run->pair_alone[a * n + b];
	return run->pair_bw[a * n + b];
}

/* "GPU 2 (PCI 0000:1b:00.0, GPU-...)" of rank r, as far as known. */
static void gpu_name(const struct nc_run *run, int r, char *buf, size_t len)
{
	const struct nc_gpuinfo *g;
	char idx[32];

	if (run->gpus == NULL) {
		snprintf(buf, len, "its GPU (the self-test names it)");
		return;
	}
	g = &run->gpus[r];
	if (g->has_index)
		snprintf(idx, sizeof(idx), "GPU %d", g->smi_index);
	else
		snprintf(idx, sizeof(idx), "CUDA device %d", g->dev);
	snprintf(buf, len, "%s (PCI %04x:%02x:%02x.0, %s)", idx, g->pci_domain,
		 g->pci_bus, g->pci_dev, g->uuid[0] ? g->uuid : "no UUID");
}

/* "; 30 % of the 450 GB/s bound" for a pair within a host when the
 * hardware bound is the host's own links (NVLink or PCIe), else "". */
static void bound_share(const struct nc_run *run, int i, int j,
			const int *hid, double fig, char *buf, size_t len)
{
	buf[0] = 0;
	if (run->bound_gbps > 0 && hid[i] == hid[j] &&
	    strstr(run->bound_how, "hosts") == NULL)
		snprintf(buf, len, ", %.0f %% of the %.0f GB/s bound",
			 100 * fig / run->bound_gbps, run->bound_gbps);
}

/* The worst pair of rank r among the slow ones, its figure and the
 * reference it was held against. */
static int worst_peer(const struct nc_run *run, const bool *slow, int r,
		      const int *hid, double *fig, double *ref)
{
	int n = run->nranks, best = -1;

	for (int j = 0; j < n; j++) {
		int a = r < j ? r : j, b = r < j ? j : r;

		if (j == r || !slow[a * n + b])
			continue;
		if (best < 0 || pair_fig(run, r, j) < *fig) {
			best = j;
			*fig = pair_fig(run, r, j);
			*ref = nc_pairs_reference(run->pair_bw, hid, n, a, b);
		}
	}
	return best;
}

/* What CUDA_VISIBLE_DEVICES keeps on r's host: the other GPUs of that
 * host in this run, by nvidia-smi index (with CUDA_DEVICE_ORDER=
 * PCI_BUS_ID, CUDA numbers them alike), else by UUID; comma-separated. */
static void keep_list(const struct nc_run *run, const bool *gpu, int r,
		      char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (int j = 0; j < run->nranks && run->gpus != NULL; j++) {
		const struct nc_gpuinfo *g = &run->gpus[j];
		char one[64];
		int k;

		if (gpu[j] || strcmp(g->host, run->gpus[r].host) != 0)
			continue;
		if (g->has_index)
			snprintf(one, sizeof(one), "%d", g->smi_index);
		else
			snprintf(one, sizeof(one), "%s", g->uuid);
		k = snprintf(buf + at, len - at, "%s%s", at ? "," : "", one);
		if (k < 0 || (size_t)k >= len - at) {
			buf[at] = 0;
			return;
		}
		at += (size_t)k;
	}
}

/* One finding per slow GPU. */
static void gpu_findings(struct nc_run *run, const bool *slow,
			 const bool *gpu, const int *hid)
{
	int n = run->nranks;

	for (int r = 0; r < n; r++) {
		char name[160], keep[200], minor[64] = "", share[64];
		double fig = 0, ref = 0;
		int in = 0, peer;

		if (!gpu[r])
			continue;
		for (int j = 0; j < n; j++)
			in += j != r && slow[r < j ? r * n + j : j * n + r];
		peer = worst_peer(run, slow, r, hid, &fig, &ref);
		gpu_name(run, r, name, sizeof(name));
		keep_list(run, gpu, r, keep, sizeof(keep));
		bound_share(run, r, peer < 0 ? r : peer, hid, fig, share,
			    sizeof(share));
		if (run->gpus != NULL && run->gpus[r].has_index)
			snprintf(minor, sizeof(minor), "/dev/nvidia%d",
				 run->gpus[r].minor);
		nc_run_finding(run, FINDING_PAIR_SLOW, -1,
			       "rank %d on %s, %s: slow in %d of its %d pairs, "
			       "measured again alone (with rank %d: %.1f GB/s "
			       "against %.1f for its class%s); the GPU, not the "
			       "node: keep %s and leave this GPU out: "
			       "CUDA_DEVICE_ORDER=PCI_BUS_ID "
			       "CUDA_VISIBLE_DEVICES=%s there, or under Slurm "
			       "drop %s from its gres.conf", r,
			       nc_run_host(run, r), name, in, n - 1, peer, fig,
			       ref, share, nc_run_host(run, r),
			       keep[0] ? keep : "(its other GPUs)",
			       minor[0] ? minor : "its /dev/nvidiaN");
	}
}

/* One finding per node at fault, with the Slurm list of them. */
static void node_findings(struct nc_run *run, const bool *slow,
			  const bool *node, const int *hid)
{
	int n = run->nranks;

	for (int r = 0; r < n; r++) {
		char ex[200], keep[2048];
		double fig = 0, ref = 0;
		int peer;

		if (!node[r] || hid[r] != r)
			continue; /* once per host, at its first rank */
		peer = worst_peer(run, slow, r, hid, &fig, &ref);
		for (int k = r; peer < 0 && k < n; k++)
			if (hid[k] == r)
				peer = worst_peer(run, slow, k, hid, &fig, &ref);
		nc_run_exclusion(run, node, ex, sizeof(ex), keep,
				 sizeof(keep));
		nc_run_finding(run, FINDING_PAIR_SLOW, -1,
			       "node %s: every pair from its ranks to the "
			       "other hosts (or within it) is slow, each "
			       "measured again alone, while other hosts' are "
			       "not (e.g. %.1f GB/s against %.1f GB/s): its "
			       "NICs or GPUs; leave the node out: sbatch "
			       "--exclude=%s", nc_run_host(run, r), fig, ref,
			       ex);
	}
}

/* One finding per slow link left: both ends named. */
static void link_findings(struct nc_run *run, const bool *slow,
			  const bool *gpu, const bool *node, const int *hid)
{
	int n = run->nranks, said = 0;

	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			char a[160], b[160], nic[96] = "", share[64];
			bool cross = hid[i] != hid[j];

			if (!slow[i * n + j] || gpu[i] || gpu[j] || node[i] ||
			    node[j])
				continue;
			if (said++ == 8)
				nc_run_finding(run, FINDING_PAIR_SLOW, -1,
					       "more slow links than are "
					       "listed here: see the JSON "
					       "document's pairs.slow");
			if (said > 8)
				continue;
			gpu_name(run, i, a, sizeof(a));
			gpu_name(run, j, b, sizeof(b));
			if (cross && run->gpus != NULL)
				snprintf(nic, sizeof(nic), " (NICs: %.0f and "
					 "%.0f Gb/s)", run->gpus[i].nic_gbits,
					 run->gpus[j].nic_gbits);
			bound_share(run, i, j, hid, pair_fig(run, i, j), share,
				    sizeof(share));
			nc_run_finding(run, FINDING_PAIR_SLOW, -1,
				       "link: rank %d on %s, %s - rank %d on "
				       "%s, %s%s: %.1f GB/s alone against %.1f "
				       "for its class (%s%s), each end fast with "
				       "most peers; %s", i,
				       nc_run_host(run, i), a, j,
				       nc_run_host(run, j), b, nic,
				       pair_fig(run, i, j),
				       nc_pairs_reference(run->pair_bw, hid,
							  n, i, j),
				       cross ? "across hosts" : "within a host",
				       share,
				       cross ? "check both NICs, cables and "
					       "switch ports; no node is left "
					       "out for one link" :
					       "check it (nvidia-smi nvlink -s); "
					       "the node stays");
		}
}

/* Nodes first, then GPUs, then the links left: each slow pair is said
 * once, at the coarsest grain its own evidence shows at fault. */
void nc_run_pair_verdict(struct nc_run *run)
{
	int n = run->nranks, ns;
	bool *slow, *gpu, *node;
	int *hid;

	if (run->pair_bw == NULL || n < 2)
		return;
	slow = calloc((size_t)n * (size_t)n, sizeof(bool));
	gpu = calloc((size_t)n, sizeof(bool));
	node = calloc((size_t)n, sizeof(bool));
	hid = nc_run_host_ids(run);
	if (slow != NULL && gpu != NULL && node != NULL && hid != NULL &&
	    (ns = nc_run_pair_judge(run, slow, gpu, node)) > 0) {
		node_findings(run, slow, node, hid);
		gpu_findings(run, slow, gpu, hid);
		link_findings(run, slow, gpu, node, hid);
	}
	free(slow);
	free(gpu);
	free(node);
	free(hid);
}
