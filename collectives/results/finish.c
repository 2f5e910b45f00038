/* The end of a run (finish.h): verdict, rank 0's outputs and the exit
 * status, shared by a good end and a failed step. No CUDA, no NCCL. */
#include "results/finish.h"
#include "results/say.h"

#include "base/outfile.h"

#include <stdio.h>
#include <string.h>

/* Whether finding i is a fault (its own severity, else the
 * catalogue's): a warning or a note is printed and does not fail. */
static bool is_fault(const struct nc_run *run, int i)
{
	const struct finding_def *d = finding_lookup(run->findings[i].code);
	int sev = run->findings[i].severity;

	if (sev < 0)
		sev = d != NULL ? (int)d->sev : SEV_FAULT;
	return sev == SEV_FAULT;
}

/* Every fault fails the run (exit 1), so the gate says so too: one check
 * that names them, and the printed verdict, the JSON, the JUnit file and
 * the exit status agree. */
static void nc_run_findings_gate(struct nc_run *run)
{
	struct nc_gate_check *k;
	int nf = nc_run_faults(run);
	size_t at = 0;

	if (nf == 0)
		return;
	run->gate.passed = false;
	if (run->gate.n == NC_GATE_MAX)
		return;
	k = &run->gate.v[run->gate.n++];
	k->passed = false;
	snprintf(k->name, sizeof(k->name), "no-faults");
	at = (size_t)snprintf(k->detail, sizeof(k->detail), "%d fault%s "
			      "found:", nf, nf > 1 ? "s" : "");
	for (int i = 0; i < run->nfindings && at < sizeof(k->detail); i++) {
		bool dup = !is_fault(run, i);

		for (int j = 0; j < i; j++)
			dup = dup || strcmp(run->findings[j].code,
					    run->findings[i].code) == 0;
		if (!dup)
			at += (size_t)snprintf(k->detail + at,
					       sizeof(k->detail) - at, " %s",
					       run->findings[i].code);
	}
}

/* A wrong element is a fault even when every busbw passed, so it becomes a
 * finding of its own; only the first wrong result is named. */
void nc_run_verdict(struct nc_run *run)
{
	nc_gate_eval(run->o, &run->res, run->nranks, false, &run->gate);
	nc_run_eff_gate(run);
	run->gate_ran = true;
	for (size_t i = 0; i < run->res.n; i++)
		if (run->res.v[i].wrong > 0) {
			nc_run_finding(run, FINDING_WRONG_RESULTS, -1,
				       "%s %s %s %llu B %s: %lld wrong "
				       "elements",
				       nc_coll_get(run->res.v[i].coll)->name,
				       nc_dtype_name(run->res.v[i].dtype),
				       nc_op_name(run->res.v[i].op),
				       run->res.v[i].bytes,
				       run->res.v[i].in_place ?
					       "in-place" : "out-of-place",
				       run->res.v[i].wrong);
			break;
		}
	for (int i = 0; i < run->gate.n; i++)
		if (!run->gate.v[i].passed &&
		    (strncmp(run->gate.v[i].name, "min-busbw", 9) == 0 ||
		     strncmp(run->gate.v[i].name, "min-efficiency", 14) == 0 ||
		     strncmp(run->gate.v[i].name, "max-latency", 11) == 0))
			nc_run_finding(run, FINDING_BUSBW_BELOW_THRESHOLD, -1,
				       "%s: %s", run->gate.v[i].name,
				       run->gate.v[i].detail);
	nc_run_findings_gate(run);
}

/* How many findings fail the run: the exit status and the gate count
 * the same ones. */
int nc_run_faults(const struct nc_run *run)
{
	int k = 0;

	for (int i = 0; i < run->nfindings; i++)
		k += is_fault(run, i);
	return k;
}

/* A run that did not finish is a fault when a finding says why, and
 * "could not run" otherwise; the other ranks cannot see the gate. */
int nc_run_status(const struct nc_run *run, bool ran, bool rank0)
{
	int nf = nc_run_faults(run);

	if (!rank0)
		return ran && nf == 0 && run->nerrors == 0 ? 0 :
		       run->nerrors > 0 && !ran ? 2 : 1;
	if (!ran)
		return nf > 0 ? 1 : 2;
	return nf > 0 || !run->gate.passed ? 1 : 0;
}

/* Writes one emitter's file; says so when it cannot. */
static void write_file(const struct nc_run *run, const char *path,
                       int (*emit)(FILE *, const struct nc_run *),
                       const char *prefix)
{
	struct outfile of;

	if (outfile_open(&of, path, NULL) < 0) {
		nc_say_to(stderr, prefix, "%s", of.why);
		return;
	}
	if (emit(of.fp, run) < 0) {
		outfile_abort(&of);
		nc_say_to(stderr, prefix, "cannot write '%s'", path);
		return;
	}
	if (outfile_close(&of) < 0)
		nc_say_to(stderr, prefix, "%s", of.why);
}

/* Every rank ends here, on a good end and on a failed step, so the files
 * hold what was measured even when the run stopped early. */
int nc_run_finish(struct nc_run *run, int rank, bool ran, const char *prefix)
{
	const struct nc_opts *o = run->o;

	if (rank != 0)
		return nc_run_status(run, ran, false);
	if (ran)
		nc_run_verdict(run);
	if (!o->quiet && (ran || run->nfindings > 0 || run->nerrors > 0))
		nc_summary(stdout, run);
	if (o->json_path != NULL) {
		struct doc d = { 0 };

		if (nc_build_doc(&d, run) < 0 ||
		    doc_write_file(&d, o->json_path) < 0)
			nc_say_to(stderr, prefix, "cannot write '%s'",
				  o->json_path);
		doc_free(&d);
	}
	if (o->csv_path != NULL)
		write_file(run, o->csv_path, nc_write_csv, prefix);
	if (o->junit_path != NULL)
		write_file(run, o->junit_path, nc_write_junit, prefix);
	if (fflush(stdout) != 0 || ferror(stdout))
		return 2;
	return nc_run_status(run, ran, true);
}
