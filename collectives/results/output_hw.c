/* The hardware's part of a run's outputs (output.h): the bound and each
 * collective's share of it, the GPUs as they measured alone, and --pairs'
 * matrix with its slow pairs and what to leave out. */
#include "results/output.h"

#include <stdlib.h>
#include <string.h>

/* The host of rank r, from the self-test or the pre-flight. */
const char *nc_run_host(const struct nc_run *run, int r)
{
	if (run->gpus != NULL)
		return run->gpus[r].host;
	if (run->ranks != NULL)
		return run->ranks[r].host;
	return "?";
}

/* Each rank's host as a number (the first rank on that host): the pair
 * classes of nc_pairs_decide. NULL on no memory (one class). */
int *nc_run_host_ids(const struct nc_run *run)
{
	int *id = malloc(sizeof(int) * (size_t)(run->nranks > 0 ? run->nranks :
								    1));

	for (int i = 0; id != NULL && i < run->nranks; i++) {
		id[i] = i;
		for (int j = 0; j < i; j++)
			if (strcmp(nc_run_host(run, j), nc_run_host(run, i)) ==
			    0) {
				id[i] = id[j];
				break;
			}
	}
	return id;
}

/* The judgement over the run's matrices, its hosts and the pairs
 * measured alone; a run without them has no pair alone: nothing stands. */
int nc_run_pair_judge(const struct nc_run *run, bool *slow, bool *gpu,
		      bool *node)
{
	int n = run->nranks, ns;
	size_t nn = (size_t)n * (size_t)n;
	double *zero = run->pair_alone == NULL ? calloc(nn, sizeof(double)) :
						 NULL;
	int *hid = nc_run_host_ids(run);

	if (run->pair_alone == NULL && zero == NULL) {
		free(hid);
		return 0;
	}
	ns = nc_pairs_judge(run->pair_bw,
			    run->pair_alone != NULL ? run->pair_alone : zero,
			    hid, n, NC_SLOW_TOL, slow, gpu, node);
	free(zero);
	free(hid);
	return ns;
}

/* What a scheduler takes to leave the nodes at fault out; a slow GPU or
 * link keeps its node. Fills ex (a Slurm host list) and keep (the other
 * hosts, one per line for a hostfile); returns the number of hosts left
 * out. */
int nc_run_exclusion(const struct nc_run *run, const bool *node, char *ex,
		     size_t exlen, char *keep, size_t keeplen)
{
	int n = run->nranks, nx = 0;
	const char **x = calloc((size_t)n + 1, sizeof(*x));
	size_t at = 0;

	ex[0] = keep[0] = 0;
	if (x == NULL)
		return 0;
	for (int i = 0; i < n; i++) {
		bool dup = false;

		if (!node[i])
			continue;

		for (int k = 0; k < nx; k++)
			dup = dup || strcmp(x[k], nc_run_host(run, i)) == 0;
		if (!dup)
			x[nx++] = nc_run_host(run, i);
	}
	if (nc_hostlist(x, nx, ex, exlen) < 0)
		snprintf(ex, exlen, "(too many to list)");
	for (int i = 0; i < n; i++) {
		const char *h = nc_run_host(run, i);
		bool skip = false;

		for (int k = 0; k < nx; k++)
			skip = skip || strcmp(x[k], h) == 0;
		for (int j = 0; j < i; j++)
			skip = skip || strcmp(nc_run_host(run, j), h) == 0;
		if (skip || at + strlen(h) + 2 > keeplen)
			continue;
		at += (size_t)snprintf(keep + at, keeplen - at, "%s%s",
				       at ? "\n" : "", h);
	}
	free(x);
	return nx;
}

/* The pairs measured again alone, and whether they stood. */
static void pairs_alone_lines(FILE *fp, const struct nc_run *run)
{
	int n = run->nranks, shown = 0, ns;
	bool *slow = calloc((size_t)n * (size_t)n, sizeof(bool));
	bool *gpu = calloc((size_t)n, sizeof(bool));
	bool *node = calloc((size_t)n, sizeof(bool));

	if (run->pair_alone == NULL || slow == NULL || gpu == NULL ||
	    node == NULL || run->pair_nalone == 0) {
		free(slow);
		free(gpu);
		free(node);
		return;
	}
	ns = nc_run_pair_judge(run, slow, gpu, node);
	fprintf(fp, "# pairs slow in the rounds, measured again alone: %d, "
		"%d stand%s\n", run->pair_nalone, ns,
		ns == 0 ? " (the rest did not reproduce: noise)" : "");
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n && shown < 16; j++)
			if (run->pair_alone[i * n + j] > 0) {
				fprintf(fp, "#   %d-%d: %.1f GB/s in its round, "
					"%.1f alone: %s\n", i, j,
					run->pair_bw[i * n + j],
					run->pair_alone[i * n + j],
					slow[i * n + j] ? "slow" : "noise");
				shown++;
			}
	free(slow);
	free(gpu);
	free(node);
}

/* "# hardware bound", a share per collective, a line per GPU, and the
 * pair matrix when small enough to read. */
void nc_summary_hw(FILE *fp, const struct nc_run *run)
{
	const struct nc_opts *o = run->o;
	int n = run->nranks;

	if (run->gpus != NULL) {
		if (run->bound_gbps > 0)
			fprintf(fp, "# hardware bound: %.1f GB/s busbw (%s)\n",
				run->bound_gbps, run->bound_how);
		else
			fprintf(fp, "# hardware bound: cannot tell: %s\n",
				run->bound_how);
		for (int c = 0; c < o->ncolls && run->bound_gbps > 0; c++) {
			unsigned long long b;
			double bw;

			if (nc_peak(&run->res, o->colls[c], &bw, &b))
				fprintf(fp, "# %-15s peak busbw %8.2f GB/s = "
					"%5.1f %% of the bound\n",
					nc_coll_get(o->colls[c])->name, bw,
					100 * bw / run->bound_gbps);
		}
		fprintf(fp, "# GPU self-test: rank  host  copy GB/s  H2D GB/s "
			"D2H GB/s  PCIe (max)  NVLink\n");
		for (int i = 0; i < n; i++) {
			const struct nc_gpuinfo *g = &run->gpus[i];

			fprintf(fp, "#   %4d  %s  %8.1f  %7.1f  %7.1f  Gen%d x%d "
				"(Gen%d x%d)  %d x v%d\n", g->rank, g->host,
				g->d2d_gbps, g->h2d_gbps, g->d2h_gbps,
				g->pcie_gen, g->pcie_width, g->pcie_max_gen,
				g->pcie_max_width, g->nvlinks,
				g->nvlink_version);
		}
	}
	if (run->pair_bw != NULL) {
		fprintf(fp, "# pairs: send/recv GB/s each way, %llu B, %d "
			"rounds, %d trials of %d exchanges, %.2f s\n",
			run->pair_bytes, run->pair_rounds, run->pair_trials,
			run->pair_iters, run->pair_s);
		for (int i = 0; i < n && n <= 16; i++) {
			fprintf(fp, "#   %3d:", i);
			for (int j = 0; j < n; j++)
				fprintf(fp, " %7.1f", i == j ? 0.0 :
					run->pair_bw[i < j ? i * n + j :
							     j * n + i]);
			fprintf(fp, "\n");
		}
		pairs_alone_lines(fp, run);
	}
}

/* "hardware": the bound, each collective's share, the GPUs; "pairs":
 * the matrix, slow pairs, the common rank and the exclusion lists. */
int nc_hw_json(struct doc *d, const struct nc_run *run)
{
	const struct nc_opts *o = run->o;
	int n = run->nranks;

	if (run->gpus != NULL) {
		json_t *g = json_array(), *eff = json_object();

		for (int i = 0; g != NULL && i < n; i++) {
			const struct nc_gpuinfo *x = &run->gpus[i];
			char pci[32];

			snprintf(pci, sizeof(pci), "%04x:%02x:%02x.0",
				 x->pci_domain, x->pci_bus, x->pci_dev);
			json_array_append_new(g, json_pack(
				"{s:i, s:s, s:s, s:s, s:b, s:f, s:f, s:f, s:i, "
				"s:i, s:i, s:i, s:i, s:i, s:f}",
				"rank", x->rank, "host", x->host, "gpu",
				x->name, "pci_bus_id", pci, "nvml", x->nvml,
				"copy_gbps", x->d2d_gbps, "h2d_gbps",
				x->h2d_gbps, "d2h_gbps", x->d2h_gbps,
				"pcie_gen", x->pcie_gen, "pcie_width",
				x->pcie_width, "pcie_max_gen",
				x->pcie_max_gen, "pcie_max_width",
				x->pcie_max_width, "nvlinks", x->nvlinks,
				"nvlink_version", x->nvlink_version,
				"nic_gbits", x->nic_gbits));
		}
		for (int c = 0; eff != NULL && c < o->ncolls &&
				run->bound_gbps > 0; c++) {
			unsigned long long b;
			double bw;

			if (nc_peak(&run->res, o->colls[c], &bw, &b))
				json_object_set_new(
					eff, nc_coll_get(o->colls[c])->name,
					json_real(100 * bw / run->bound_gbps));
		}
		if (doc_set(d, "hardware", json_pack(
				    "{s:o, s:s, s:o, s:o}", "bound_gbps",
				    run->bound_gbps > 0 ?
					    json_real(run->bound_gbps) :
					    json_null(),
				    "bound_how", run->bound_how,
				    "efficiency_pct", eff, "gpus", g)) < 0)
			return -1;
	}
	if (run->pair_bw != NULL) {
		json_t *m = json_array(), *sl = json_array(), *al = json_array();
		json_t *sg = json_array();
		bool *slow = calloc((size_t)n * (size_t)n, sizeof(bool));
		bool *gpu = calloc((size_t)n, sizeof(bool));
		bool *node = calloc((size_t)n, sizeof(bool));
		char ex[256] = "", keep[2048] = "";
		int common = -1;

		if (slow != NULL && gpu != NULL && node != NULL &&
		    nc_run_pair_judge(run, slow, gpu, node) > 0)
			nc_run_exclusion(run, node, ex, sizeof(ex), keep,
					 sizeof(keep));
		for (int i = 0; gpu != NULL && i < n; i++)
			if (gpu[i]) {
				if (common < 0)
					common = i;
				json_array_append_new(sg, json_integer(i));
			}
		for (int i = 0; m != NULL && i < n; i++) {
			json_t *row = json_array();

			for (int j = 0; row != NULL && j < n; j++)
				json_array_append_new(row, i == j ? json_null() :
					json_real(run->pair_bw[i < j ? i * n + j :
								     j * n + i]));
			json_array_append_new(m, row);
		}
		for (int i = 0; sl != NULL && slow != NULL && i < n; i++)
			for (int j = i + 1; j < n; j++) {
				if (slow[i * n + j])
					json_array_append_new(sl, json_pack(
						"[i, i]", i, j));
				if (run->pair_alone != NULL &&
				    run->pair_alone[i * n + j] > 0)
					json_array_append_new(al, json_pack(
						"[i, i, f]", i, j,
						run->pair_alone[i * n + j]));
			}
		free(slow);
		free(gpu);
		free(node);
		if (doc_set(d, "pairs", json_pack(
				    "{s:I, s:i, s:i, s:i, s:f, s:o, s:o, s:o, "
				    "s:o, s:o, s:s?, s:s?}",
				    "bytes", (json_int_t)run->pair_bytes,
				    "rounds", run->pair_rounds, "trials",
				    run->pair_trials, "iters", run->pair_iters,
				    "seconds", run->pair_s, "matrix_gbps", m,
				    "alone_gbps", al, "slow", sl, "slow_gpus",
				    sg, "common_rank", common >= 0 ?
					    json_integer(common) : json_null(),
				    "slurm_exclude", ex[0] ? ex : NULL,
				    "hostfile", keep[0] && ex[0] ? keep :
								  NULL)) < 0)
			return -1;
	}
	return 0;
}
