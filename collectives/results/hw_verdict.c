/* The hardware's part of a run's verdict (output.h): the self-test's and
 * --pairs' findings and the efficiency checks of the gate. */
#include "results/output.h"

#include <stdlib.h>
#include <string.h>

/* nc_gpu_findings' callback into the run. */
static void add_finding(void *arg, enum finding_code code, const char *text)
{
	nc_run_finding(arg, code, -1, "%s", text);
}

/* Findings first, so that a run that stops later still names the GPU. */
void nc_run_gpu_verdict(struct nc_run *run)
{
	if (run->gpus == NULL)
		return;
	run->bound_gbps = nc_hw_bound(run->gpus, run->nranks, run->bound_how,
				      sizeof(run->bound_how));
	nc_gpu_findings(run->gpus, run->nranks, NC_SLOW_TOL, add_finding, run);
}

/* Whether the bound describes the path NCCL took: an NVLink or PCIe bound
 * says nothing of a run NCCL sent over sockets or IB (NCCL_P2P_DISABLE,
 * NCCL_NET=Socket), an NVLink bound nothing of one through host memory,
 * and a NIC bound nothing of one that stayed inside a host. Transports not
 * known fit nothing: cannot tell. Pure. */
bool nc_bound_fits(const char *how, const struct nc_nccllog *lg)
{
	bool net = false, nvlink_only = true;

	if (lg->nt == 0)
		return false;
	for (int i = 0; i < lg->nt; i++) {
		if (strncmp(lg->t[i].kind, "NET/", 4) == 0)
			net = true;
		else if (strcmp(lg->t[i].kind, "P2P/NVLink") != 0)
			nvlink_only = false;
	}
	if (strstr(how, "hosts:") != NULL)
		return net;
	if (strncmp(how, "NVLink", 6) == 0)
		return !net && nvlink_only;
	return !net;
}

/* The largest size measured of one collective: the default gate needs
 * the sizes idle hardware reaches its share at. */
static unsigned long long top_bytes(const struct nc_results *r, int coll)
{
	unsigned long long top = 0;

	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].coll == coll && r->v[i].bytes > top)
			top = r->v[i].bytes;
	return top;
}

/* One efficiency check per collective run, after the other rules. A
 * bound that does not describe the path NCCL took becomes "cannot tell". */
void nc_run_eff_gate(struct nc_run *run)
{
	const struct nc_opts *o = run->o;

	if (run->bound_gbps > 0 && !nc_bound_fits(run->bound_how, &run->nccl)) {
		char was[sizeof(run->bound_how)];

		snprintf(was, sizeof(was), "%s", run->bound_how);
		snprintf(run->bound_how, sizeof(run->bound_how),
			 "NCCL's transports (%s) are not the path of the "
			 "%.0f GB/s bound (%.120s)",
			 run->nccl.nt > 0 ? run->nccl.t[0].kind : "not known",
			 run->bound_gbps, was);
		run->bound_gbps = 0;
	}
	for (int c = 0; c < o->ncolls; c++) {
		struct nc_gate_check *k;
		unsigned long long b = 0;
		double bw = 0;
		char d[192];
		int v;

		if (!nc_peak(&run->res, o->colls[c], &bw, &b))
			continue;
		v = nc_eff_decide(o->min_eff_pct, run->bound_gbps, bw, b,
				  top_bytes(&run->res, o->colls[c]), d,
				  sizeof(d));
		if (v < 0 || run->gate.n == NC_GATE_MAX)
			continue;
		k = &run->gate.v[run->gate.n++];
		k->passed = v == 1;
		snprintf(k->name, sizeof(k->name), "min-efficiency %s",
			 nc_coll_get(o->colls[c])->name);
		snprintf(k->detail, sizeof(k->detail), "%s", d);
		if (!k->passed)
			run->gate.passed = false;
	}
}
