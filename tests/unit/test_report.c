/* netprobe report: loading (bad files named with their position), the
 * cluster deciders, every finding rendered with its fix, HTML escaping,
 * and golden files for every format from the recorded documents in
 * tests/fixtures/report (REPORT_GOLDEN_UPDATE=1 rewrites the goldens:
 * `make report-goldens`). The model's layout, the walk's order and the
 * escaping printf are test_report_walk.c's. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "doc/finding.h"
#include "report_emit.h"
#include "report_fx.h"

/* Renders rep in format fmt into a fresh string (caller frees). */
static char *render(const struct report_model *rep, const char *fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int rc = -1;

	ck_assert_ptr_nonnull(fp);
	if (strcmp(fmt, "txt") == 0)
		rc = report_render_text(rep, fp, false);
	else if (strcmp(fmt, "md") == 0)
		rc = report_render_md(rep, fp);
	else if (strcmp(fmt, "html") == 0)
		rc = report_render_html(rep, fp);
	else if (strcmp(fmt, "json") == 0)
		rc = report_render_json(rep, fp);
	else if (strcmp(fmt, "xml") == 0)
		rc = report_render_junit(rep, fp, REPORT_FAIL_FAULT);
	ck_assert_int_eq(rc, 0);
	fclose(fp);
	return buf;
}

/* Reads a whole file, or NULL. */
static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	if (fp == NULL)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (buf != NULL && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	return buf;
}

/* recorded: documents the real scan, path and heartbeat wrote in a
 * `make demo` run, so the reader is held to what the probes emit. mesh:
 * the documents a five-node `netprobe mesh` kept with --out (node05
 * behind NAT, node02 listed twice, node07 never came). */
static const char *const fixtures[] = {"healthy",  "nat",	"filtered",
				       "mtu",	   "slowrank", "malformed",
				       "recorded", "mesh"};
static const char *const formats[] = {"txt", "md", "html", "json", "xml"};

START_TEST(golden)
{
	const char *fx = fixtures[_i / 5], *fmt = formats[_i % 5];
	struct report_set set = {0};
	struct report_model *rep = unitfix_report_dir(&set, fx);
	char path[1024], *out, *want;

	ck_assert_ptr_nonnull(rep);
	out = render(rep, fmt);
	snprintf(path, sizeof(path), "%s/golden/%s.%s", FIXDIR, fx, fmt);
	if (getenv("REPORT_GOLDEN_UPDATE") != NULL) {
		FILE *fp = fopen(path, "w");

		ck_assert_ptr_nonnull(fp);
		fputs(out, fp);
		fclose(fp);
	}
	want = slurp(path);
	ck_assert_msg(want != NULL, "no golden file %s (make report-goldens)",
		      path);
	ck_assert_msg(strcmp(out, want) == 0,
		      "%s differs from the golden file (make report-goldens "
		      "after checking the change)",
		      path);
	free(want);
	free(out);
	report_model_free(rep);
	report_set_free(&set);
}
END_TEST

START_TEST(malformed_named_with_position)
{
	struct report_set set = {0};
	struct report_model *rep = unitfix_report_dir(&set, "malformed");
	bool trunc = false, empty = false, future = false;

	ck_assert_uint_eq(set.nin, 2);
	ck_assert_uint_eq(set.nskip, 3);
	for (size_t i = 0; i < set.nskip; i++) {
		const struct report_skip *k = &set.skip[i];

		if (strstr(k->path, "truncated") != NULL) {
			trunc = k->line > 1 && k->column > 0 &&
				k->position > 0 &&
				strstr(k->why, "malformed JSON") != NULL;
		} else if (strstr(k->path, "empty") != NULL) {
			empty = strcmp(k->why, "empty file") == 0;
		} else if (strstr(k->path, "future") != NULL) {
			future = strstr(k->why, "unknown major schema "
						"version 'netprobe/2'") != NULL;
		}
	}
	ck_assert(trunc && empty && future);
	/* the good files are still used, and the gate notices the loss */
	ck_assert_int_eq(
		json_array_size(json_object_get(report_doc(rep), "inputs")), 2);
	ck_assert_str_eq(
		json_string_value(json_object_get(report_doc(rep), "verdict")),
		"warning");
	report_model_free(rep);
	report_set_free(&set);
}
END_TEST

/* Runs cmd_report with a NULL-terminated argument list. */
static int run_report(const char *const *args)
{
	char *argv[16];
	int argc = 0;

	for (; args[argc] != NULL && argc < 15; argc++)
		argv[argc] = (char *)args[argc];
	argv[argc] = NULL;
	return cmd_report(argc, argv);
}

START_TEST(command_exit_status)
{
	char out[] = "/tmp/np-report-XXXXXX";
	int fd = mkstemp(out);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(chdir(FIXDIR), 0);
	ck_assert_int_eq(run_report((const char *[]){"report", "--format",
						     "pdf", "healthy", NULL}),
			 2);
	ck_assert_int_eq(
		run_report((const char *[]){"report", "-o", out,
					    "malformed/gpu-c-truncated.json",
					    "malformed/gpu-d-empty.json",
					    NULL}),
		2);
	ck_assert_int_eq(run_report((const char *[]){"report", "-o", out,
						     "healthy", NULL}),
			 0);
	/* 3 of 5 files skipped: the gate fails, unless told never to */
	ck_assert_int_eq(run_report((const char *[]){"report", "-o", out,
						     "malformed", NULL}),
			 1);
	ck_assert_int_eq(run_report((const char *[]){"report", "-o", out,
						     "--fail-on", "never",
						     "malformed", NULL}),
			 0);
	ck_assert_int_eq(run_report((const char *[]){"report", "-o", out,
						     "nat", NULL}),
			 1);
	ck_assert_int_eq(run_report((const char *[]){"report", "-o", out,
						     "--fail-on", "never",
						     "nat", NULL}),
			 0);
	/* healthy has a warning: the stricter gate fails on it */
	ck_assert_int_eq(run_report((const char *[]){"report", "-o", out,
						     "--fail-on", "warning",
						     "healthy", NULL}),
			 1);
	ck_assert_int_eq(run_report((const char *[]){"report", "--fail-on",
						     "sometimes", "healthy",
						     NULL}),
			 2);
	unlink(out);
}
END_TEST


/* A scan document whose hostname resolves to addr, with a
 * hostname-loopback fault when addr is 127.0.1.1. */
static void add_host_scan(struct report_set *set, const char *host,
			  const char *addr)
{
	bool loop = strncmp(addr, "127.", 4) == 0;
	json_t *doc = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:[], "
		"s:{s:s, s:[s], s:b, s:b}}",
		"schema", "netprobe/1", "tool", "netprobe", "command", "scan",
		"host", host, "started", "2026-11-21T10:00:00Z", "findings",
		"errors", "interfaces", "hostname", "name", host, "addresses",
		addr, "bindable", 1, "loopback", loop);
	char *txt;

	if (loop)
		json_array_append_new(
			json_object_get(doc, "findings"),
			json_pack("{s:s, s:s, s:s, s:[]}", "code",
				  "hostname-loopback", "severity", "fault",
				  "summary", "hostname resolves to 127.0.1.1",
				  "evidence"));
	txt = json_dumps(doc, 0);
	ck_assert_int_eq(report_load_buffer(set, host, txt, strlen(txt)), 0);
	free(txt);
	json_decref(doc);
}

/* The severity of the first finding of the report. */
static const char *first_sev(const struct report_model *m)
{
	return rj_str(json_array_get(json_object_get(report_doc(m),
						     "findings"),
				     0),
		      "severity");
}

/* Of each Gloo pair the higher address connects (gloo's
 * Device::isInitiator): the master's 127.0.1.1 harms nobody when every
 * other node sorts below it (10/8), and refuses them when one sorts above
 * (172.16/12) or sits on 127.0.1.1 too; a node whose scan is missing
 * keeps the fault. */
START_TEST(hostname_loopback_order)
{
	struct report_set set = {0};
	struct report_model *rep;

	add_host_scan(&set, "a", "127.0.1.1");
	add_host_scan(&set, "b", "10.231.71.2");
	rep = report_build(&set);
	ck_assert_str_eq(first_sev(rep), "warning");
	report_model_free(rep);
	report_set_free(&set);

	add_host_scan(&set, "a", "127.0.1.1");
	add_host_scan(&set, "b", "172.17.71.2");
	rep = report_build(&set);
	ck_assert_str_eq(first_sev(rep), "fault");
	report_model_free(rep);
	report_set_free(&set);

	add_host_scan(&set, "a", "127.0.1.1");
	add_host_scan(&set, "b", "127.0.1.1");
	rep = report_build(&set);
	ck_assert_str_eq(first_sev(rep), "fault");
	report_model_free(rep);
	report_set_free(&set);

	add_host_scan(&set, "a", "127.0.1.1");
	rep = report_build(&set);
	ck_assert_str_eq(first_sev(rep), "fault");
	report_model_free(rep);
	report_set_free(&set);
}
END_TEST

/* A scan document for the decider tests: host, the chosen interface and
 * the interfaces it has (name/address pairs, all up). */
static void add_scan(struct report_set *set, const char *host,
		     const char *chosen, const char *addr,
		     const char *const *ifs)
{
	json_t *arr = json_array(), *doc;
	char *txt;

	for (; *ifs != NULL; ifs += 2)
		json_array_append_new(
			arr, json_pack("{s:s, s:s, s:[{s:s, s:s, s:i}]}",
				       "name", ifs[0], "oper_state", "up",
				       "addresses", "family", "inet",
				       "address", ifs[1], "prefixlen", 24));
	doc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:o, "
			"s:{s:s?, s:s?, s:{}, s:[], s:[]}}",
			"schema", "netprobe/1", "tool", "netprobe", "command",
			"scan", "host", host, "started", "2026-11-21T10:00:00Z",
			"findings", "errors", "interfaces", arr,
			"recommendation", "interface", chosen, "address", addr,
			"env", "reasons", "rejected");
	txt = json_dumps(doc, 0);
	ck_assert_int_eq(report_load_buffer(set, host, txt, strlen(txt)), 0);
	free(txt);
	json_decref(doc);
}

/* The cluster NCCL_SOCKET_IFNAME setting's value, or NULL. */
static const char *cluster_nccl(const struct report_model *m)
{
	const json_t *rep = report_doc(m);
	size_t i;
	json_t *s;

	json_array_foreach(json_object_get(json_object_get(rep,
							   "recommendation"),
					   "settings"),
			   i, s)
		if (strcmp(rj_str(s, "name"), "NCCL_SOCKET_IFNAME") == 0 &&
		    rj_str(s, "node") == NULL)
			return rj_str(s, "value");
	return NULL;
}

START_TEST(nccl_ifname_across_nodes)
{
	struct report_set set = {0};
	struct report_model *rep;

	add_scan(&set, "a", "eth0", "10.231.1.1",
		 (const char *[]){"eth0", "10.231.1.1", NULL});
	add_scan(&set, "b", "eth0", "10.231.1.2",
		 (const char *[]){"eth0", "10.231.1.2", NULL});
	rep = report_build(&set);
	ck_assert_str_eq(cluster_nccl(rep), "=eth0");
	report_model_free(rep);
	report_set_free(&set);

	/* names differ: an exact list, as nothing else matches */
	add_scan(&set, "a", "eth0", "10.231.1.1",
		 (const char *[]){"eth0", "10.231.1.1", NULL});
	add_scan(&set, "b", "enp1s0", "10.231.1.2",
		 (const char *[]){"enp1s0", "10.231.1.2", NULL});
	rep = report_build(&set);
	ck_assert_str_eq(cluster_nccl(rep), "=eth0,enp1s0");
	report_model_free(rep);
	report_set_free(&set);

	/* the list would also pick b's eth0: per node values only */
	add_scan(&set, "a", "eth0", "10.231.1.1",
		 (const char *[]){"eth0", "10.231.1.1", NULL});
	add_scan(&set, "b", "enp1s0", "10.231.1.2",
		 (const char *[]){"enp1s0", "10.231.1.2", "eth0", "172.17.0.2",
				  NULL});
	rep = report_build(&set);
	ck_assert_ptr_null(cluster_nccl(rep));
	ck_assert_uint_eq(json_array_size(json_object_get(
				  json_object_get(report_doc(rep),
						  "recommendation"),
				  "nccl_conf")),
			  2);
	report_model_free(rep);
	report_set_free(&set);

	/* a node without a usable interface blocks the cluster value */
	add_scan(&set, "a", "eth0", "10.231.1.1",
		 (const char *[]){"eth0", "10.231.1.1", NULL});
	add_scan(&set, "b", NULL, NULL, (const char *[]){NULL});
	rep = report_build(&set);
	ck_assert_ptr_null(cluster_nccl(rep));
	ck_assert_str_eq(
		rj_str(json_array_get(json_object_get(
					      json_object_get(report_doc(rep),
							      "recommendation"),
					      "blocked"),
				      0),
		       "node"),
		"b");
	ck_assert_int_eq(report_gate(rep, REPORT_FAIL_FAULT), 1);
	report_model_free(rep);
	report_set_free(&set);
}
END_TEST

/* A layering guess a peer's measurement turned into info asks for no
 * change to the node; the same finding as a fault does. */
START_TEST(info_asks_no_change)
{
	const char *sev[] = {"info", "fault"};

	for (int k = 0; k < 2; k++) {
		struct report_set set = {0};
		struct report_model *rep;
		json_t *doc, *changes;
		char *txt;

		doc = json_pack(
		    "{s:s, s:s, s:s, s:s, s:s, s:[{s:s, s:s, s:s, s:[], s:s}], "
		    "s:[], s:[], s:{s:n, s:n, s:{}, s:[], s:[]}}",
		    "schema", "netprobe/1", "tool", "netprobe", "command",
		    "scan", "host", "ct101", "started", "2026-11-21T10:00:00Z",
		    "findings", "code", "container-bridge-nat", "severity",
		    sev[k], "summary", "s", "evidence", "fix", "host networking",
		    "errors", "interfaces", "recommendation", "interface",
		    "address", "env", "reasons", "rejected");
		txt = json_dumps(doc, 0);
		ck_assert_int_eq(
		    report_load_buffer(&set, "ct101", txt, strlen(txt)), 0);
		free(txt);
		json_decref(doc);
		rep = report_build(&set);
		changes = json_object_get(
		    json_object_get(report_doc(rep), "recommendation"),
		    "changes");
		ck_assert_uint_eq(json_array_size(changes), (size_t)k);
		report_model_free(rep);
		report_set_free(&set);
	}
}
END_TEST

/* Appends s HTML-escaped into out. */
static void html_escaped(const char *s, char *out, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	xml_escape(fp, s);
	fclose(fp);
	snprintf(out, len, "%s", buf);
	free(buf);
}

START_TEST(every_finding_rendered_with_fix)
{
	size_t n;
	const struct finding_def *all = finding_all(&n);
	struct report_set set = {0};
	json_t *doc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:[], s:[]}",
				"schema", "netprobe/1", "tool", "netprobe",
				"command", "scan", "host", "node-1", "started",
				"2026-11-21T10:00:00Z", "findings", "errors");
	struct report_model *rep;
	char *txt, *outs[3];

	for (size_t i = 0; i < n; i++)
		json_array_append_new(
			json_object_get(doc, "findings"),
			json_pack("{s:s, s:s, s:s, s:[], s:s}", "code",
				  all[i].code, "severity",
				  severity_name(all[i].sev), "summary",
				  all[i].title, "evidence", "fix", all[i].fix));
	txt = json_dumps(doc, 0);
	report_load_buffer(&set, "all.json", txt, strlen(txt));
	free(txt);
	json_decref(doc);
	rep = report_build(&set);
	outs[0] = render(rep, "txt");
	outs[1] = render(rep, "md");
	/* Markdown prose escapes _ and friends with a backslash */
	for (char *r = outs[1], *w = outs[1];; r++)
		if (*r != '\\' && (*w++ = *r) == '\0')
			break;
	outs[2] = render(rep, "html");
	for (size_t i = 0; i < n; i++) {
		const char *fix = all[i].fix;
		char esc[1024];

		/* informational findings are in the document only */
		if (all[i].sev == SEV_INFO)
			continue;
		/* a finding a root cause owns shows under it, with the
		 * cause's one fix instead of its own */
		for (size_t k = 0; k < rep->ncauses; k++)
			for (size_t j = 0; j < rep->causes[k].findings.n; j++)
				if (strcmp(rj_str(rep->causes[k].findings.v[j],
						  "code"),
					   all[i].code) == 0)
					fix = rj_str(json_object_get(
							     rep->causes[k].cause,
							     "fix"),
						     "text");
		html_escaped(fix, esc, sizeof(esc));
		ck_assert_msg(strstr(outs[0], all[i].code) &&
				      strstr(outs[0], fix),
			      "text lacks %s or its fix", all[i].code);
		ck_assert_msg(strstr(outs[1], all[i].code) &&
				      strstr(outs[1], fix),
			      "markdown lacks %s or its fix", all[i].code);
		ck_assert_msg(strstr(outs[2], all[i].code) &&
				      strstr(outs[2], esc),
			      "html lacks %s or its fix", all[i].code);
	}
	for (int k = 0; k < 3; k++)
		free(outs[k]);
	report_model_free(rep);
	report_set_free(&set);
}
END_TEST

START_TEST(html_escapes_documents)
{
	struct report_set set = {0};
	struct report_model *rep = unitfix_report_dir(&set, "nat");
	char *html = render(rep, "html");
	char *xml = render(rep, "xml");

	ck_assert_ptr_null(strstr(html, "<img src=x"));
	ck_assert_ptr_null(strstr(html, "<script>alert"));
	ck_assert_ptr_nonnull(strstr(html, "&lt;img src=x onerror=alert(1)&gt;"));
	ck_assert_ptr_null(strstr(xml, "<img src=x"));
	free(html);
	free(xml);
	report_model_free(rep);
	report_set_free(&set);
}
END_TEST

/* The HTML a support engineer sends: when the run was, how long, which
 * nodes; no path of the machine that rendered it (the fixture is loaded
 * by its absolute path here); a print stylesheet that unfolds the
 * symptoms. */
START_TEST(html_header_no_paths_print)
{
	struct report_set set = {0};
	struct report_model *rep;
	char *html, *txt;

	ck_assert_int_eq(report_load_path(&set, FIXDIR "/recorded"), 0);
	rep = report_build(&set);
	ck_assert_ptr_nonnull(rep);
	html = render(rep, "html");
	txt = render(rep, "txt");
	ck_assert_ptr_nonnull(strstr(html, "run 2026-11-21 17:29:51 UTC, over "
					   "4 min 40 s; nodes gpu-a, gpu-b, "
					   "gpu-c"));
	ck_assert_ptr_nonnull(strstr(txt, "run 2026-11-21 17:29:51 UTC"));
	ck_assert_ptr_null(strstr(html, FIXDIR));
	ck_assert_ptr_null(strstr(html, "recorded/"));
	ck_assert_ptr_null(strstr(txt, FIXDIR));
	ck_assert_ptr_nonnull(strstr(html, "gpu-a-scan.json"));
	ck_assert_ptr_nonnull(strstr(html, "@media print{"));
	ck_assert_ptr_nonnull(strstr(html, "details::details-content"));
	ck_assert_ptr_nonnull(strstr(html, "h2{break-before:page}"));
	free(html);
	free(txt);
	report_model_free(rep);
	report_set_free(&set);
}
END_TEST

/* Loads doc (taken) into set under name. */
static void load_doc(struct report_set *set, const char *name, json_t *doc)
{
	char *t = json_dumps(doc, 0);

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(report_load_buffer(set, name, t, strlen(t)), 0);
	free(t);
	json_decref(doc);
}

/* True when every tick of a is a whole number of one "nice" step (1, 2
 * or 5 times a power of ten) from the first, and the first is too. */
static bool nice_ticks(const struct rm_axis *a)
{
	double step, p, f;

	if (a->nticks < 2)
		return false;
	step = a->ticks[1] - a->ticks[0];
	p = pow(10, floor(log10(step)));
	f = step / p;
	if (fabs(f - 1) > 1e-9 && fabs(f - 2) > 1e-9 && fabs(f - 5) > 1e-9)
		return false;
	for (int t = 0; t < a->nticks; t++) {
		double k = a->ticks[t] / step;

		if (fabs(k - round(k)) > 1e-6)
			return false;
	}
	return a->ticks[0] <= a->lo + 1e-9 &&
	       a->ticks[a->nticks - 1] >= a->hi - 1e-9;
}

/* Charts: rounded ticks on both axes, units in the axis titles, TCP named
 * in the heartbeat's title, each run titled by its start and ranks, and a
 * gate far above the data noted, not stretching the scale. */
START_TEST(charts_nice_ticks_and_far_gate)
{
	struct report_set set = {0};
	struct report_model *rep = unitfix_report_dir(&set, "recorded");
	char *html = render(rep, "html"), *txt, *p;
	json_t *doc;
	const struct rm_series *s;

	ck_assert_int_eq((long long)rep->nhbs, 1);
	ck_assert(nice_ticks(&rep->hbs[0].x));
	ck_assert(nice_ticks(&rep->hbs[0].y));
	ck_assert_int_eq((long long)rep->nnccl, 1);
	s = &rep->nccl[0].series[0];
	ck_assert(nice_ticks(&s->y));
	ck_assert(!s->gate_above); /* 50 GB/s under a 340 GB/s peak */
	ck_assert_ptr_nonnull(strstr(html, "TCP round trips, 30 samples"));
	ck_assert_ptr_nonnull(strstr(html, "round-trip time (\xc2\xb5s)"));
	ck_assert_ptr_nonnull(strstr(html, "bus bandwidth (GB/s)"));
	ck_assert_ptr_nonnull(strstr(html, "message size (bytes, log scale)"));
	ck_assert_ptr_nonnull(strstr(html, "<h2>NCCL run of 2026-11-21 "
					   "17:29:51 UTC: 4 rank(s) on gpu-a"));
	free(html);
	report_model_free(rep);
	report_set_free(&set);

	/* a gate of 5000 GB/s: the chart keeps the data's scale */
	memset(&set, 0, sizeof(set));
	ck_assert_ptr_nonnull(txt = slurp("recorded/gpu-a-ncclcheck-h200.json"));
	ck_assert_ptr_nonnull(p = strstr(txt, "minimum 50.00 GB/s"));
	memcpy(p, "minimum 5e+03 GB/s", 18); /* same length */
	doc = json_loads(txt, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	free(txt);
	txt = json_dumps(doc, 0);
	ck_assert_int_eq(report_load_buffer(&set, "far.json", txt, strlen(txt)),
			 0);
	free(txt);
	json_decref(doc);
	rep = report_build(&set);
	ck_assert_ptr_nonnull(rep);
	s = &rep->nccl[0].series[0];
	ck_assert_str_eq(rj_str(s->coll, "name"), "all_reduce");
	ck_assert(s->threshold_gbps > 4999);
	ck_assert(s->gate_above);
	ck_assert(s->y.hi < 1000 && s->y.hi >= 340);
	ck_assert(nice_ticks(&s->y));
	html = render(rep, "html");
	ck_assert_ptr_nonnull(strstr(html, "gate 5000 GB/s, above this scale"));
	free(html);
	report_model_free(rep);
	report_set_free(&set);

	/* three runs from one host: three headings, told apart by start */
	memset(&set, 0, sizeof(set));
	ck_assert_ptr_nonnull(txt = slurp("recorded/gpu-a-ncclcheck-h200.json"));
	for (int k = 0; k < 3; k++) {
		char name[16], when[32];

		doc = json_loads(txt, 0, NULL);
		ck_assert_ptr_nonnull(doc);
		snprintf(when, sizeof(when), "2026-11-21T18:0%d:00Z", k);
		json_object_set_new(doc, "started", json_string(when));
		snprintf(name, sizeof(name), "run%d.json", k);
		load_doc(&set, name, doc);
	}
	free(txt);
	rep = report_build(&set);
	html = render(rep, "html");
	ck_assert_ptr_nonnull(strstr(html, "<h2>NCCL run of 2026-11-21 18:00:00"));
	ck_assert_ptr_nonnull(strstr(html, "<h2>NCCL run of 2026-11-21 18:01:00"));
	ck_assert_ptr_nonnull(strstr(html, "<h2>NCCL run of 2026-11-21 18:02:00"));
	free(html);
	report_model_free(rep);
	report_set_free(&set);
}
END_TEST

/* One count (issue 23): every fixture's report says the same numbers in
 * every format: JSON's counts are its causes and findings, every cause
 * rests on a finding or a fact, the text, Markdown and HTML verdicts
 * repeat them, and JUnit fails once per failing check. */
START_TEST(one_count_every_format)
{
	const char *fx = fixtures[_i];
	struct report_set set = {0};
	struct report_model *m = unitfix_report_dir(&set, fx);
	const json_t *doc = report_doc(m), *f, *k;
	char *txt = render(m, "txt"), *md = render(m, "md");
	char *html = render(m, "html"), *xml = render(m, "xml"), want[160];
	long long nf = 0, nw = 0, nfail = 0;
	size_t i, nc = json_array_size(rj_arr(doc, "causes"));

	json_array_foreach(rj_arr(doc, "findings"), i, f) {
		nf += strcmp(rj_str(f, "severity"), "fault") == 0;
		nw += strcmp(rj_str(f, "severity"), "warning") == 0;
	}
	json_array_foreach(rj_arr(doc, "checks"), i, f)
		nfail += strcmp(rj_strd(f, "status", ""), "fault") == 0;
	json_array_foreach(rj_arr(doc, "causes"), i, k)
		ck_assert_msg(json_array_size(rj_arr(k, "findings")) +
					      json_array_size(
						      rj_arr(k, "evidence")) >
				      0,
			      "%s: cause %s rests on nothing", fx,
			      rj_str(k, "id"));
	ck_assert_int_eq(rj_int(json_object_get(doc, "counts"), "causes", -1),
			 (long long)nc);
	ck_assert_int_eq(rj_int(json_object_get(doc, "counts"), "faults", -1),
			 nf);
	ck_assert_int_eq(
		rj_int(json_object_get(doc, "counts"), "warnings", -1), nw);
	ck_assert_int_eq(m->nfaults, nf);
	ck_assert_int_eq(m->nwarnings, nw);
	if (nc > 0) {
		snprintf(want, sizeof(want), "%zu root cause", nc);
		ck_assert_msg(strstr(txt, want) != NULL, "%s: text lacks '%s'",
			      fx, want);
		snprintf(want, sizeof(want),
			 "explain %lld fault(s), %lld warning(s)", nf, nw);
		ck_assert_msg(strstr(md, want) != NULL, "%s: md lacks '%s'",
			      fx, want);
		ck_assert_msg(strstr(html, want) != NULL,
			      "%s: html lacks '%s'", fx, want);
	}
	snprintf(want, sizeof(want), "%lld fault%s, %lld warning%s", nf,
		 nf == 1 ? "" : "s", nw, nw == 1 ? "" : "s");
	ck_assert_msg(strstr(txt, want) != NULL, "%s: text lacks '%s'", fx,
		      want);
	snprintf(want, sizeof(want), "failures=\"%lld\"", nfail);
	ck_assert_msg(strstr(xml, want) != NULL, "%s: junit lacks '%s'", fx,
		      want);
	free(txt);
	free(md);
	free(html);
	free(xml);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

Suite *suite_report(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, golden, 0,
			    (int)(sizeof(fixtures) / sizeof(fixtures[0]) * 5));
	tcase_add_loop_test(tc, one_count_every_format, 0,
			    (int)(sizeof(fixtures) / sizeof(fixtures[0])));
	tcase_add_test(tc, malformed_named_with_position);
	tcase_add_test(tc, command_exit_status);
	tcase_add_test(tc, nccl_ifname_across_nodes);
	tcase_add_test(tc, info_asks_no_change);
	tcase_add_test(tc, hostname_loopback_order);
	tcase_add_test(tc, every_finding_rendered_with_fix);
	tcase_add_test(tc, html_escapes_documents);
	tcase_add_test(tc, html_header_no_paths_print);
	tcase_add_test(tc, charts_nice_ticks_and_far_gate);
	suite_add_tcase(s, tc);
	return s;
}
