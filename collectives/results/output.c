/* Emitters (output.h): table, summary, CSV, JUnit and JSON. */
#include "results/output.h"
#include "base/xmlesc.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

/* Findings past NC_RUN_MAX_FINDINGS are dropped. */
void nc_run_finding(struct nc_run *run, enum finding_code code, int sev,
		    const char *fmt, ...)
{
	struct nc_pf_finding *f;
	va_list ap;

	if (run->nfindings == NC_RUN_MAX_FINDINGS)
		return;
	f = &run->findings[run->nfindings++];
	snprintf(f->code, sizeof(f->code), "%s", finding_name(code));
	f->severity = sev;
	va_start(ap, fmt);
	vsnprintf(f->summary, sizeof(f->summary), fmt, ap);
	va_end(ap);
}

/* Errors past NC_RUN_MAX_ERRORS are dropped. */
void nc_run_error(struct nc_run *run, const char *what, const char *fmt, ...)
{
	va_list ap;

	if (run->nerrors == NC_RUN_MAX_ERRORS)
		return;
	snprintf(run->error_what[run->nerrors], sizeof(run->error_what[0]),
		 "%s", what);
	va_start(ap, fmt);
	vsnprintf(run->errors[run->nerrors], sizeof(run->errors[0]), fmt, ap);
	va_end(ap);
	run->nerrors++;
}

/* nccl-tests' two header lines plus one naming the series. */
void nc_table_header(FILE *fp, const struct nc_run *run, int coll, int dtype,
		     int op)
{
	const struct nc_coll_desc *d = nc_coll_get(coll);

	fprintf(fp, "#\n# %s  type %s%s%s  ranks %d (%d process%s x %d GPU%s)\n",
		d->name, nc_dtype_name(dtype), d->reduces ? "  op " : "",
		d->reduces ? nc_op_name(op) : "", run->nranks, run->nprocs,
		run->nprocs == 1 ? "" : "es", run->gpus_per_proc,
		run->gpus_per_proc == 1 ? "" : "s");
	fprintf(fp, "# time: host time per iteration, %s over the processes "
		"(-a %d), as nccl-tests times\n",
		run->o == NULL ? "mean" :
		(const char *[]){ "rank 0's", "mean", "minimum",
				  "maximum" }[run->o->average & 3],
		run->o == NULL ? 1 : run->o->average);
	fprintf(fp, "# %10s  %12s  %8s  %6s  %6s  %33s  %33s\n", "", "", "", "",
		"", "out-of-place", "in-place");
	fprintf(fp, "# %10s  %12s  %8s  %6s  %6s  %8s  %7s  %7s  %6s  %8s  "
		"%7s  %7s  %6s\n", "size", "count", "type", "redop", "root",
		"time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw",
		"#wrong");
	fprintf(fp, "# %10s  %12s  %8s  %6s  %6s  %8s  %7s  %7s  %6s  %8s  "
		"%7s  %7s  %6s\n", "(B)", "(elements)", "", "", "", "(us)",
		"(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
}

/* One half of a row: time algbw busbw #wrong, or N/A in each column
 * where that placement did not run (alltoall and sendrecv have no
 * in-place form): the word nccl-tests prints for an unchecked #wrong, so
 * parsers of its tables already accept it. */
static void half(FILE *fp, const struct nc_result *r)
{
	if (r == NULL) {
		fprintf(fp, "  %8s  %7s  %7s  %6s", "N/A", "N/A", "N/A", "N/A");
		return;
	}
	fprintf(fp, "  %8.2f  %7.2f  %7.2f  ", r->time_us, r->algbw_gbps,
		r->busbw_gbps);
	if (r->wrong < 0)
		fprintf(fp, "%6s", "N/A");
	else
		fprintf(fp, "%6lld", r->wrong);
}

/* Columns as nccl-tests; N/A for an unchecked result. */
void nc_table_row(FILE *fp, const struct nc_result *oop,
		  const struct nc_result *ip)
{
	const struct nc_result *r = oop != NULL ? oop : ip;
	const struct nc_coll_desc *d;

	if (r == NULL)
		return;
	d = nc_coll_get(r->coll);
	fprintf(fp, "  %12llu  %12llu  %8s  %6s  %6d", r->bytes, r->count,
		nc_dtype_name(r->dtype), d->reduces ? nc_op_name(r->op) : "none",
		d->rooted ? r->root : -1);
	half(fp, oop);
	half(fp, ip);
	fputc('\n', fp);
}

/* Average busbw of a collective over its results (nccl-tests' "Avg bus
 * bandwidth"). */
static double avg_busbw(const struct nc_results *r, int coll)
{
	double s = 0;
	int n = 0;

	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].coll == coll) {
			s += r->v[i].busbw_gbps;
			n++;
		}
	return n ? s / n : 0;
}

/* nccl-tests' footer, which parsers of its output read: the results with
 * wrong elements and the mean busbw over every result. */
static void footer(FILE *fp, const struct nc_run *run)
{
	double bw = 0;
	int bad = 0;

	for (size_t i = 0; i < run->res.n; i++) {
		bw += run->res.v[i].busbw_gbps;
		bad += run->res.v[i].wrong > 0;
	}
	fprintf(fp, "# %-20s : %d %s\n", "Out of bounds values", bad,
		bad ? "FAILED" : "OK");
	fprintf(fp, "# %-20s : %g %s\n", "Avg bus bandwidth",
		run->res.n ? bw / (double)run->res.n : 0.0, "");
}

/* The footer, per collective average and peak, then transports and
 * verdict. */
void nc_summary(FILE *fp, const struct nc_run *run)
{
	const struct nc_opts *o = run->o;

	if (run->res.n > 0)
		footer(fp, run);
	fprintf(fp, "#\n");
	for (int c = 0; c < o->ncolls; c++) {
		unsigned long long b;
		double bw;

		if (!nc_peak(&run->res, o->colls[c], &bw, &b))
			continue;
		fprintf(fp, "# %-15s avg busbw %8.2f GB/s   peak busbw %8.2f "
			"GB/s at %llu B\n", nc_coll_get(o->colls[c])->name,
			avg_busbw(&run->res, o->colls[c]), bw, b);
	}
	nc_summary_hw(fp, run);
	if (run->nccl.nt > 0) {
		fprintf(fp, "# transports:");
		for (int i = 0; i < run->nccl.nt; i++)
			fprintf(fp, " %s%s%s", run->nccl.t[i].kind,
				run->nccl.t[i].iface[0] ? " " : "",
				run->nccl.t[i].iface);
		if (run->nccl.gdr_enabled || run->nccl.gdr_disabled)
			fprintf(fp, ", GPUDirect RDMA %s",
				!run->nccl.gdr_disabled ? "enabled"
				: run->nccl.gdr_enabled ? "enabled for some "
							  "GPU/NIC pairs"
							: "disabled");
		fprintf(fp, "\n");
	}
	if (run->nccl.ib_none && run->nhosts > 1)
		fprintf(fp, "# note: NCCL printed 'NET/IB : No device found.': "
			"it fell back to NET/Socket between nodes (netprobe "
			"scan says why)\n");
	if (run->nccl.nvls || run->nccl.collnet ||
	    (run->nccl.tree && run->nhosts > 1))
		fprintf(fp, "# note: NCCL connected %s%s%s: busbw can exceed "
			"the wire rate of one link, compare with care\n",
			run->nccl.nvls ? "NVLS (NVLink SHARP) " : "",
			run->nccl.collnet ? "CollNet " : "",
			run->nccl.tree && run->nhosts > 1 ? "tree " : "");
	for (int i = 0; i < run->nfindings; i++)
		fprintf(fp, "# %s: %s\n", run->findings[i].code,
			run->findings[i].summary);
	for (int i = 0; i < run->nerrors; i++)
		fprintf(fp, "# error (%s): %s\n", run->error_what[i],
			run->errors[i]);
	if (run->gate_ran) {
		for (int i = 0; i < run->gate.n; i++)
			if (!run->gate.v[i].passed || o->verbose)
				fprintf(fp, "# gate %s: %s: %s\n",
					run->gate.v[i].passed ? "pass" : "FAIL",
					run->gate.v[i].name,
					run->gate.v[i].detail);
		fprintf(fp, "# gate: %s\n", run->gate.passed ? "passed" :
							    "FAILED");
	}
	if (run->wall_s > 0)
		fprintf(fp, "# wall time %.2f s\n", run->wall_s);
}

/* Returns -1 when the stream reports an error. */
int nc_write_csv(FILE *fp, const struct nc_run *run)
{
	fprintf(fp, "collective,dtype,op,root,in_place,bytes,count,time_us,"
		"algbw_gbps,busbw_gbps,wrong,iters\n");
	for (size_t i = 0; i < run->res.n; i++) {
		const struct nc_result *r = &run->res.v[i];
		const struct nc_coll_desc *d = nc_coll_get(r->coll);

		fprintf(fp, "%s,%s,%s,%d,%d,%llu,%llu,%.3f,%.3f,%.3f,%lld,%d\n",
			d->name, nc_dtype_name(r->dtype),
			d->reduces ? nc_op_name(r->op) : "", d->rooted ? r->root :
									-1,
			r->in_place, r->bytes, r->count, r->time_us,
			r->algbw_gbps, r->busbw_gbps, r->wrong, r->iters);
	}
	return ferror(fp) ? -1 : 0;
}

/* Gate checks, findings and errors, each a test case. */
int nc_write_junit(FILE *fp, const struct nc_run *run)
{
	int failures = 0, tests = run->gate.n + run->nfindings + run->nerrors;

	for (int i = 0; i < run->gate.n; i++)
		failures += !run->gate.v[i].passed;
	failures += run->nfindings + run->nerrors;
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(fp, "<testsuites>\n  <testsuite name=\"ncclcheck\" tests=\"%d\" "
		"failures=\"%d\" errors=\"0\" time=\"%.3f\">\n", tests,
		failures, run->wall_s);
	for (int i = 0; i < run->gate.n; i++) {
		fprintf(fp, "    <testcase classname=\"ncclcheck.gate\" "
			"name=\"");
		xml_escape(fp, run->gate.v[i].name);
		fprintf(fp, "\">");
		if (!run->gate.v[i].passed) {
			fprintf(fp, "<failure message=\"");
			xml_escape(fp, run->gate.v[i].detail);
			fprintf(fp, "\"/>");
		} else {
			fprintf(fp, "<system-out>");
			xml_escape(fp, run->gate.v[i].detail);
			fprintf(fp, "</system-out>");
		}
		fprintf(fp, "</testcase>\n");
	}
	for (int i = 0; i < run->nfindings; i++) {
		fprintf(fp, "    <testcase classname=\"ncclcheck.finding\" "
			"name=\"");
		xml_escape(fp, run->findings[i].code);
		fprintf(fp, "\"><failure message=\"");
		xml_escape(fp, run->findings[i].summary);
		fprintf(fp, "\"/></testcase>\n");
	}
	for (int i = 0; i < run->nerrors; i++) {
		fprintf(fp, "    <testcase classname=\"ncclcheck.error\" "
			"name=\"");
		xml_escape(fp, run->error_what[i]);
		fprintf(fp, "\"><failure message=\"");
		xml_escape(fp, run->errors[i]);
		fprintf(fp, "\"/></testcase>\n");
	}
	fprintf(fp, "  </testsuite>\n</testsuites>\n");
	return ferror(fp) ? -1 : 0;
}

/* The `ranks` array. */
static json_t *ranks_json(const struct nc_run *run)
{
	json_t *a = json_array();

	for (int i = 0; a != NULL && i < run->nranks && run->ranks; i++) {
		const struct nc_rankinfo *r = &run->ranks[i];
		char nv[32], cv[32], dv[32];

		snprintf(nv, sizeof(nv), "%d.%d.%d", r->nccl_version / 10000,
			 r->nccl_version / 100 % 100, r->nccl_version % 100);
		snprintf(cv, sizeof(cv), "%d.%d", r->cuda_runtime / 1000,
			 r->cuda_runtime / 10 % 100);
		snprintf(dv, sizeof(dv), "%d.%d", r->driver / 1000,
			 r->driver / 10 % 100);
		json_array_append_new(a, json_pack(
			"{s:i, s:s, s:s, s:s, s:s, s:s?, s:s, s:s, s:s?, s:s?, "
			"s:I}",
			"rank", r->rank, "host", r->host, "gpu", r->gpu,
			"pci_bus_id", r->pci, "cuda_runtime", cv, "driver",
			r->driver_version[0] ? r->driver_version : NULL,
			"cuda_driver", dv, "nccl_version", nv, "iface",
			r->iface[0] ? r->iface : NULL, "address",
			r->address[0] ? r->address : NULL, "shm_bytes",
			(json_int_t)r->shm_bytes));
	}
	return a;
}

/* `results`, `peak`, `gate`. */
static int results_json(struct doc *d, const struct nc_run *run)
{
	json_t *res = json_array(), *peak = json_object(), *g, *checks;

	for (size_t i = 0; res != NULL && i < run->res.n; i++) {
		const struct nc_result *r = &run->res.v[i];
		const struct nc_coll_desc *cd = nc_coll_get(r->coll);

		json_array_append_new(res, json_pack(
			"{s:s, s:s, s:s?, s:b, s:I, s:I, s:f, s:f, s:f, s:o, "
			"s:i, s:o}",
			"collective", cd->name, "dtype", nc_dtype_name(r->dtype),
			"op", cd->reduces ? nc_op_name(r->op) : NULL,
			"in_place", r->in_place, "bytes", (json_int_t)r->bytes,
			"count", (json_int_t)r->count, "time_us", r->time_us,
			"algbw_gbps", r->algbw_gbps, "busbw_gbps", r->busbw_gbps,
			"wrong", r->wrong < 0 ? json_null() :
						json_integer(r->wrong),
			"iters", r->iters,
			"root", cd->rooted ? json_integer(r->root) : json_null()));
	}
	for (int c = 0; peak != NULL && c < run->o->ncolls; c++) {
		unsigned long long b;
		double bw;

		if (nc_peak(&run->res, run->o->colls[c], &bw, &b))
			json_object_set_new(peak,
					    nc_coll_get(run->o->colls[c])->name,
					    json_pack("{s:f, s:I}", "busbw_gbps",
						      bw, "bytes",
						      (json_int_t)b));
	}
	checks = json_array();
	for (int i = 0; checks != NULL && i < run->gate.n; i++)
		json_array_append_new(checks, json_pack(
			"{s:s, s:b, s:s}", "name", run->gate.v[i].name,
			"passed", run->gate.v[i].passed, "detail",
			run->gate.v[i].detail));
	g = run->gate_ran ? json_pack("{s:b, s:o}", "passed",
				      run->gate.passed, "checks", checks) :
			    (json_decref(checks), json_null());
	if (doc_set(d, "results", res) || doc_set(d, "peak", peak) ||
	    doc_set(d, "gate", g))
		return -1;
	return 0;
}

/* The contract keys of man/netprobe-json.5, section ncclcheck. */
int nc_build_doc(struct doc *d, const struct nc_run *run)
{
	json_t *pairs = json_array(), *tr = json_array(), *pf, *alg;

	if (doc_init(d, "ncclcheck", NULL) < 0)
		return -1;
	if (run->started != NULL || run->host != NULL)
		doc_set_fixed(d, run->started, run->host);
	for (int i = 0; pairs != NULL && i < run->npairs; i++)
		json_array_append_new(pairs, json_pack(
			"{s:i, s:i, s:b, s:s?}", "from", run->pairs[i].from,
			"to", run->pairs[i].to, "ok", run->pairs[i].ok, "error",
			run->pairs[i].ok ? NULL : run->pairs[i].error));
	pf = run->preflight_ran ? json_pack("{s:o}", "pairs", pairs) :
				  (json_decref(pairs), json_null());
	for (int i = 0; tr != NULL && i < run->nccl.nt; i++)
		json_array_append_new(tr, json_pack(
			"{s:s, s:s?}", "kind", run->nccl.t[i].kind, "iface",
			run->nccl.t[i].iface[0] ? run->nccl.t[i].iface : NULL));
	alg = json_pack("{s:b, s:b, s:b, s:b, s:o}", "nvls", run->nccl.nvls,
			"collnet", run->nccl.collnet, "tree", run->nccl.tree,
			"ib_no_device", run->nccl.ib_none,
			"gdr", !run->nccl.gdr_enabled && !run->nccl.gdr_disabled
				   ? json_null()
				   : json_string(!run->nccl.gdr_disabled
							 ? "enabled"
						 : run->nccl.gdr_enabled
							 ? "partial"
							 : "disabled"));
	if (doc_set(d, "ranks", ranks_json(run)) || doc_set(d, "preflight", pf) ||
	    doc_set(d, "transports", tr) || doc_set(d, "algorithms", alg) ||
	    doc_set(d, "launcher", json_string(run->launcher ? run->launcher :
							       "unknown")) ||
	    doc_set(d, "topology", json_pack("{s:i, s:i, s:i, s:i}", "ranks",
					     run->nranks, "processes",
					     run->nprocs, "gpus_per_process",
					     run->gpus_per_proc, "hosts",
					     run->nhosts)) ||
	    results_json(d, run) < 0 || nc_hw_json(d, run) < 0)
		return -1;
	for (int i = 0; i < run->nfindings; i++) {
		/* codes travel between ranks as names (preflight.h) */
		const struct finding_def *fd =
			finding_lookup(run->findings[i].code);

		if (fd == NULL) {
			errno = EINVAL;
			return -1;
		}
		if (doc_add_finding(d, fd->id, run->findings[i].severity, NULL,
				    NULL, "%s", run->findings[i].summary) < 0)
			return -1;
	}
	for (int i = 0; i < run->nerrors; i++)
		doc_add_error(d, run->error_what[i], "%s", run->errors[i]);
	return 0;
}
