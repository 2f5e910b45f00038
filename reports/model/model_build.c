/* netprobe report, stage 4 of 4 (load, merge, decide, model): the report
 * decided once. Runs the merge and every decider over the loaded set, puts
 * what they decided into one document (schema REPORT_SCHEMA, what --format
 * json writes) and lays it out for the renderers (model_view.c,
 * model_charts.c). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "report_decide.h"
#include "report_model.h"

#ifndef NETPROBE_VERSION
#define NETPROBE_VERSION "0"
#endif

/* The documents that were read: file, tool, command, host, start, schema. */
static json_t *inputs_list(const struct report_set *s)
{
	json_t *out = json_array();

	for (size_t k = 0; k < s->nin && out != NULL; k++) {
		json_t *d = s->in[k].doc;

		if (json_array_append_new(
			    out,
			    json_pack("{s:s, s:s?, s:s?, s:s?, s:s?, s:s?}",
				      "file", s->in[k].path, "tool",
				      rj_str(d, "tool"), "command",
				      rj_str(d, "command"), "host",
				      rj_str(d, "host"), "started",
				      rj_str(d, "started"), "schema",
				      rj_str(d, "schema"))) < 0) {
			json_decref(out);
			out = NULL;
		}
	}
	return out;
}

/* Seconds since the epoch of an RFC 3339 UTC time ("...T...Z", a
 * fraction ignored), or -1 when it is not one. */
static long long utc_seconds(const char *s)
{
	struct tm tm = {0};
	char z = 0;

	if (s == NULL ||
	    sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &z) != 7 ||
	    (z != 'Z' && z != '.'))
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (long long)timegm(&tm);
}

/* When the run was: the first document's start, the last one's end (its
 * start plus its duration_us where it has one) and the span between, in
 * seconds. Nothing of the machine that renders the report. */
static json_t *run_span(const struct report_set *s)
{
	long long first = -1, last = -1;
	const char *from = NULL;

	for (size_t k = 0; k < s->nin; k++) {
		const json_t *d = s->in[k].doc;
		long long t = utc_seconds(rj_str(d, "started")), end;

		if (t < 0)
			continue;
		end = t + (long long)(rj_num(d, "duration_us", 0) / 1e6 + 0.5);
		if (first < 0 || t < first) {
			first = t;
			from = rj_str(d, "started");
		}
		if (end > last)
			last = end;
	}
	if (first < 0)
		return json_null();
	return json_pack("{s:s, s:I}", "started", from, "duration_s",
			 (json_int_t)(last - first));
}

/* The files that could not be used, with where and why. */
static json_t *skipped_list(const struct report_set *s)
{
	json_t *out = json_array();

	for (size_t k = 0; k < s->nskip && out != NULL; k++) {
		const struct report_skip *sk = &s->skip[k];

		if (json_array_append_new(
			    out, json_pack("{s:s, s:i, s:i, s:I, s:s}", "file",
					   sk->path, "line", sk->line, "column",
					   sk->column, "position",
					   (json_int_t)sk->position, "why",
					   sk->why)) < 0) {
			json_decref(out);
			out = NULL;
		}
	}
	return out;
}

/* Everything decided from the merged context, as one document. */
static json_t *decided(const struct rctx *c)
{
	const struct report_set *s = c->set;
	json_t *rec = rd_recommend(c), *nccl = rd_nccl(c);
	json_t *rep = NULL, *matrix, *hbs, *nodes, *mesh = rd_mesh(c);
	json_t *causes = rec != NULL ? rd_causes(c, rec) : NULL;
	const char *verdict;
	int nf, nw;

	if (rec == NULL || nccl == NULL || causes == NULL || mesh == NULL ||
	    rd_matrix(c, &matrix, &hbs) < 0) {
		json_decref(rec);
		json_decref(nccl);
		json_decref(causes);
		json_decref(mesh);
		return NULL;
	}
	nodes = rn_table(c);
	if (nodes == NULL) {
		json_decref(rec);
		json_decref(nccl);
		json_decref(causes);
		json_decref(mesh);
		json_decref(matrix);
		json_decref(hbs);
		return NULL;
	}
	rd_own_errors(c, nodes, causes);
	verdict = rd_verdict(c, rec, nccl, &nf, &nw);
	rep = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:i, s:i, s:i, s:i, "
			"s:i, s:i}, s:o, s:o, s:o, s:o, s:O, s:o, s:o, s:o, "
			"s:o, s:o, s:o, s:o}",
			"schema", REPORT_SCHEMA, "tool", "netprobe", "command",
			"report", "version", NETPROBE_VERSION, "verdict",
			verdict, "counts", "causes",
			(int)json_array_size(causes), "faults", nf, "warnings",
			nw, "nodes", (int)json_array_size(c->nodes), "inputs",
			(int)s->nin, "skipped", (int)s->nskip, "run",
			run_span(s), "inputs",
			inputs_list(s), "skipped", skipped_list(s), "causes",
			causes, "findings", c->findings, "recommendation", rec,
			"nccl", nccl,
			"checks", rd_checks(c, rec, nccl), "nodes", nodes,
			"matrix", matrix, "heartbeats", hbs, "mesh", mesh);
	return rep;
}

/* Merges and decides across the set: the report document, or NULL on no
 * memory. */
static json_t *decide(const struct report_set *s)
{
	struct rctx c = {.set = s};
	json_t *rep = NULL;

	if (rn_build(&c) < 0 || rx_inputs(&c) < 0 ||
	    (c.findings = rf_merge(s)) == NULL)
		goto out;
	rf_nat_contradicted(&c);
	rf_annotate_nat(&c);
	rd_rdma_fabric(&c); /* sorted with the rest by rf_hostname_order */
	rd_identity(&c);
	rd_names(&c);
	rd_neigh_stale(&c);
	rd_vxlan_mismatch(&c);
	rd_vxlan_proxy_neigh(&c);
	rd_macvlan_vepa(&c);
	rd_untracked_cuts(&c);
	rd_route_cuts(&c);
	if (rd_watch_down(&c) < 0)
		goto out;
	rd_unheld_resets(&c);
	rf_hostname_order(&c);
	/* the findings are complete: index them */
	if (rx_findings(&c) < 0 || rd_index_lossy(&c) < 0)
		goto out;
	rep = decided(&c);
out:
	rx_free(&c);
	json_decref(c.nodes);
	json_decref(c.addrs);
	json_decref(c.findings);
	return rep;
}

struct report_model *report_build(const struct report_set *s)
{
	struct report_model *m = calloc(1, sizeof(*m));

	if (m == NULL)
		return NULL;
	if ((m->doc = decide(s)) == NULL || rm_view(m) < 0 ||
	    rm_charts(m) < 0) {
		report_model_free(m);
		return NULL;
	}
	return m;
}

void report_model_free(struct report_model *m)
{
	if (m == NULL)
		return;
	rj_arena_free(&m->mem);
	json_decref(m->doc);
	free(m);
}

const json_t *report_doc(const struct report_model *m)
{
	return m->doc;
}

/* A report that misses what it was given (a file skipped, a part of a
 * run that could not run) fails the gate like a fault: passing it would
 * say all is well about what was never measured. */
void report_set_verbose(struct report_model *m, bool verbose)
{
	m->verbose = verbose;
}

int report_gate(const struct report_model *m, enum report_fail_on fail_on)
{
	if (fail_on != REPORT_FAIL_NEVER &&
	    (m->nskipped > 0 || m->nnotrun > 0))
		return 1;
	return rm_fails(m->verdict, fail_on);
}
