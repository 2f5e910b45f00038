/* netprobe report: the merged document. Findings from every input are
 * kept (equal ones merged, their sources listed), the verdict and the
 * per-node checks are derived, and the decider files add the rest. */
#include <stdlib.h>
#include <string.h>

#include "doc/finding.h"
#include "report_int.h"

#ifndef NETPROBE_VERSION
#define NETPROBE_VERSION "0"
#endif

json_t *rc_cite(const char *node, const char *code)
{
	return json_pack("{s:s?, s:s}", "node", node, "code", code);
}

void rc_cite_add(json_t *cites, const char *node, const char *code)
{
	size_t i;
	json_t *v;

	json_array_foreach(cites, i, v) {
		const char *n = rj_str(v, "node");

		if (strcmp(rj_strd(v, "code", ""), code) == 0 &&
		    ((n == NULL && node == NULL) ||
		     (n != NULL && node != NULL && strcmp(n, node) == 0)))
			return;
	}
	json_array_append_new(cites, rc_cite(node, code));
}

/* Finding code -> check class, so JUnit has one case per node per class. */
static const struct {
	const char *code;
	const char *cls;
} classes[] = {
	{"no-usable-interface", "interfaces"},
	{"interface-down", "interfaces"},
	{"overlapping-subnets", "interfaces"},
	{"ipv6-link-local-only", "interfaces"},
	{"nccl-default-iface-unsafe", "nccl-env"},
	{"nccl-ifname-overmatch", "nccl-env"},
	{"nccl-ifname-nomatch", "nccl-env"},
	{"nccl-comm-id-subnet", "nccl-env"},
	{"mpi-btl-iface", "nccl-env"},
	{"hostname-loopback", "hostname"},
	{"hostname-unbindable", "hostname"},
	{"gloo-ifname-syntax", "hostname"},
	{"container-bridge-nat", "layers"},
	{"wsl2-nat", "layers"},
	{"wsl-container-double-nat", "layers"},
	{"nat-detected", "layers"},
	{"shm-small", "layers"},
	{"port-closed", "ports"},
	{"port-filtered", "ports"},
	{"port-prohibited", "ports"},
	{"host-unreachable", "ports"},
	{"ephemeral-range-blocked", "ports"},
	{"listener-loopback-only", "ports"},
	{"inbound-blocked", "ports"},
	{"mtu-mismatch", "mtu"},
	{"mtu-blackhole", "mtu"},
	{"heartbeat-loss", "heartbeat"},
	{"heartbeat-dropped", "heartbeat"},
	{"nccl-version-mismatch", "nccl"},
	{"rank-unreachable", "nccl"},
	{"collective-timeout", "nccl"},
	{"busbw-below-threshold", "nccl"},
	{"wrong-results", "nccl"},
};

const char *rc_class(const char *code)
{
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (code != NULL && strcmp(classes[i].code, code) == 0)
			return classes[i].cls;
	return "other";
}

bool rc_probe_failed(const json_t *doc)
{
	static const char *const codes[] = {
		"host-unreachable", "port-filtered",  "port-prohibited",
		"port-closed",	    "inbound-blocked", "nat-detected",
		"rank-unreachable", NULL};
	size_t i;
	json_t *f;

	json_array_foreach(rj_arr(doc, "findings"), i, f)
		for (const char *const *c = codes; *c != NULL; c++)
			if (strcmp(rj_strd(f, "code", ""), *c) == 0)
				return true;
	return false;
}

/* The classes a command examines: a check that ran and found nothing
 * passes, one that did not run is not reported. */
static const char *const *command_classes(const char *tool, const char *cmd)
{
	static const char *const scan[] = {"interfaces", "nccl-env",
					   "hostname", "layers", NULL};
	static const char *const ifaces[] = {"interfaces", "nccl-env", NULL};
	static const char *const layers[] = {"layers", NULL};
	static const char *const ports[] = {"ports", NULL};
	static const char *const hb[] = {"heartbeat", NULL};
	static const char *const path[] = {"mtu", NULL};
	static const char *const nccl[] = {"nccl", NULL};
	static const char *const none[] = {NULL};

	if (tool != NULL && strcmp(tool, "ncclcheck") == 0)
		return nccl;
	if (cmd == NULL)
		return none;
	if (strcmp(cmd, "scan") == 0)
		return scan;
	if (strcmp(cmd, "ifaces") == 0)
		return ifaces;
	if (strcmp(cmd, "layers") == 0)
		return layers;
	if (strcmp(cmd, "ports") == 0 || strcmp(cmd, "capture") == 0)
		return ports;
	if (strcmp(cmd, "heartbeat") == 0)
		return hb;
	if (strcmp(cmd, "path") == 0)
		return path;
	return none;
}

/* Finds an equal finding (node, code, summary) already merged. */
static json_t *find_same(json_t *all, const char *node, const char *code,
			 const char *summary)
{
	size_t i;
	json_t *f;

	json_array_foreach(all, i, f)
		if (strcmp(rj_str(f, "node"), node) == 0 &&
		    strcmp(rj_str(f, "code"), code) == 0 &&
		    strcmp(rj_str(f, "summary"), summary) == 0)
			return f;
	return NULL;
}

/* Orders findings: faults first, then by node, code and summary. */
static int cmp_finding(const void *a, const void *b)
{
	const json_t *fa = *(json_t *const *)a, *fb = *(json_t *const *)b;
	int d = rj_sev(rj_str(fb, "severity")) - rj_sev(rj_str(fa, "severity"));

	if (d == 0)
		d = strcmp(rj_str(fa, "node"), rj_str(fb, "node"));
	if (d == 0)
		d = strcmp(rj_str(fa, "code"), rj_str(fb, "code"));
	if (d == 0)
		d = strcmp(rj_str(fa, "summary"), rj_str(fb, "summary"));
	return d;
}

/* Every finding of every input, tagged with its node and source file. */
static json_t *merge_findings(const struct report_set *s)
{
	json_t *all = json_array(), *sorted;
	json_t **v;
	size_t n;

	if (all == NULL)
		return NULL;
	for (size_t k = 0; k < s->nin; k++) {
		json_t *d = s->in[k].doc, *f;
		const char *host = rj_str(d, "host");
		size_t i;

		json_array_foreach(rj_arr(d, "findings"), i, f) {
			const char *code = rj_strd(f, "code", "unknown");
			const char *sum = rj_strd(f, "summary", "");
			const struct finding_def *def = finding_lookup(code);
			const char *sev = rj_str(f, "severity");
			json_t *m = find_same(all, host, code, sum), *ev;

			if (m != NULL) {
				json_array_append_new(
					json_object_get(m, "sources"),
					json_string(s->in[k].path));
				continue;
			}
			if (rj_sev(sev) == 0 && (sev == NULL ||
						 strcmp(sev, "info") != 0))
				sev = def != NULL ? severity_name(def->sev)
						  : "warning";
			ev = rj_arr(f, "evidence");
			m = json_pack(
				"{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:[s], "
				"s:s}",
				"node", host, "code", code, "severity", sev,
				"summary", sum, "title",
				def != NULL ? def->title : "",
				"fix",
				rj_strd(f, "fix",
					def != NULL ? def->fix : ""),
				"evidence",
				ev != NULL ? json_incref(ev) : json_array(),
				"sources", s->in[k].path, "class",
				rc_class(code));
			if (m == NULL || json_array_append_new(all, m) < 0) {
				json_decref(all);
				return NULL;
			}
		}
	}
	n = json_array_size(all);
	v = calloc(n ? n : 1, sizeof(*v));
	sorted = json_array();
	if (v == NULL || sorted == NULL) {
		free(v);
		json_decref(sorted);
		json_decref(all);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = json_array_get(all, i);
	qsort(v, n, sizeof(*v), cmp_finding);
	for (size_t i = 0; i < n; i++)
		json_array_append(sorted, v[i]);
	free(v);
	json_decref(all);
	return sorted;
}

/* The first finding of node whose code says it sits behind NAT, or NULL. */
static const json_t *nat_finding(const json_t *findings, const char *node)
{
	static const char *const natcodes[] = {
		"container-bridge-nat", "wsl2-nat", "wsl-container-double-nat",
		"nat-detected", NULL};
	size_t i;
	json_t *f;

	json_array_foreach(findings, i, f) {
		if (strcmp(rj_strd(f, "node", ""), node) != 0)
			continue;
		for (const char *const *q = natcodes; *q != NULL; q++)
			if (strcmp(rj_strd(f, "code", ""), *q) == 0)
				return f;
	}
	return NULL;
}

/* True when the merged finding f came from the file path. */
static bool from_file(const json_t *f, const char *path)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(f, "sources"), i, p)
		if (strcmp(json_string_value(p), path) == 0)
			return true;
	return false;
}

/*
 * A probe toward an address that belongs to a node behind NAT (a
 * container's 172.17.0.2, WSL2's eth0) fails whatever the firewall says:
 * opening ports there cannot help, and saying so would be a wrong fix.
 * Such findings get the NAT node's finding as their cause and its fix.
 */
static void annotate_nat_targets(struct rctx *c)
{
	static const char *const probe_codes[] = {
		"port-filtered", "port-closed", "port-prohibited",
		"host-unreachable", "ephemeral-range-blocked",
		"heartbeat-dropped", "heartbeat-loss", NULL};
	char tbuf[256], fix[1024];

	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc, *nat;
		const char *target, *addr;
		size_t i;
		json_t *f;

		if (json_object_get(d, "target") == NULL)
			continue;
		target = rn_target(c, d, tbuf, sizeof(tbuf));
		if (target == NULL ||
		    (nat = nat_finding(c->findings, target)) == NULL)
			continue;
		addr = rj_strd(json_object_get(d, "target"), "address",
			       rj_strd(json_object_get(d, "target"), "host",
				       target));
		json_array_foreach(c->findings, i, f) {
			bool probe = false;

			for (const char *const *q = probe_codes; *q; q++)
				probe |= strcmp(rj_strd(f, "code", ""), *q) == 0;
			if (!probe || !from_file(f, c->set->in[k].path))
				continue;
			snprintf(fix, sizeof(fix),
				 "%s is %s's address behind NAT (%s): opening "
				 "ports there does not help; %s",
				 addr, target, rj_strd(nat, "code", ""),
				 rj_strd(nat, "fix", ""));
			json_object_set_new(f, "fix", json_string(fix));
			json_object_set_new(
				f, "cause",
				json_pack("{s:s, s:s}", "node", target, "code",
					  rj_strd(nat, "code", "")));
		}
	}
}

/* One entry per node: what ran there and the errors its documents hold. */
static json_t *node_table(const struct rctx *c)
{
	json_t *out = json_array(), *name;
	size_t i;

	json_array_foreach(c->nodes, i, name) {
		const char *nn = json_string_value(name);
		json_t *cmds = json_array(), *errs = json_array(), *files =
			json_array();
		json_t *layers = NULL, *rec = NULL;

		for (size_t k = 0; k < c->set->nin; k++) {
			json_t *d = c->set->in[k].doc, *e;
			const char *cmd = rj_strd(d, "command",
						  rj_strd(d, "tool", "?"));
			size_t j, x;
			json_t *have;
			int dup = 0;

			if (strcmp(rj_str(d, "host"), nn) != 0)
				continue;
			json_array_foreach(cmds, x, have)
				dup |= strcmp(json_string_value(have), cmd) ==
				       0;
			if (!dup)
				json_array_append_new(cmds, json_string(cmd));
			json_array_append_new(files,
					      json_string(c->set->in[k].path));
			json_array_foreach(rj_arr(d, "errors"), j, e)
				json_array_append_new(
					errs,
					json_pack("{s:s, s:s, s:s}", "file",
						  c->set->in[k].path, "step",
						  rj_strd(e, "step", ""),
						  "message",
						  rj_strd(e, "message", "")));
			if (json_is_object(json_object_get(d, "layers")))
				layers = json_object_get(d, "layers");
			if (json_is_object(json_object_get(d,
							   "recommendation")))
				rec = json_object_get(d, "recommendation");
		}
		json_array_append_new(
			out,
			json_pack("{s:s, s:o, s:o, s:o, s:s?, s:s?, s:s?, "
				  "s:s?, s:s?}",
				  "name", nn, "commands", cmds, "files", files,
				  "errors", errs, "container",
				  rj_str(layers, "container"), "netmode",
				  rj_str(layers, "netmode"), "wsl",
				  rj_str(layers, "wsl"), "interface",
				  rj_str(rec, "interface"), "address",
				  rj_str(rec, "address")));
	}
	return out;
}

/* Order of check classes within a suite. */
static int class_rank(const char *name)
{
	static const char *const order[] = {
		"interfaces", "nccl-env", "hostname", "layers", "ports",
		"mtu",	      "heartbeat", "nccl",	 "other"};

	for (int i = 0; i < 9; i++)
		if (strcmp(order[i], name) == 0)
			return i;
	return 9;
}

/* Suites: nodes by name, then ncclcheck runs, the cluster, the inputs. */
static int suite_rank(const char *suite)
{
	if (strncmp(suite, "netprobe.", 9) == 0)
		return 0;
	if (strncmp(suite, "ncclcheck.", 10) == 0)
		return 1;
	if (strcmp(suite, "cluster") == 0)
		return 2;
	return 3;
}

/* Orders checks by suite, then class (node checks) or name. */
static int cmp_check(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	const char *sx = rj_str(x, "suite"), *sy = rj_str(y, "suite");
	int d = suite_rank(sx) - suite_rank(sy);

	if (d == 0)
		d = strcmp(sx, sy);
	if (d == 0 && suite_rank(sx) == 0)
		d = class_rank(rj_str(x, "name")) - class_rank(rj_str(y, "name"));
	if (d == 0)
		d = strcmp(rj_str(x, "name"), rj_str(y, "name"));
	return d;
}

/* Sorts a JSON array in place with cmp. Returns 0, or -1 on no memory. */
static int sort_array(json_t *arr, int (*cmp)(const void *, const void *))
{
	size_t n = json_array_size(arr);
	json_t **v = calloc(n ? n : 1, sizeof(*v));

	if (v == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(arr, i));
	qsort(v, n, sizeof(*v), cmp);
	json_array_clear(arr);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, v[i]);
	free(v);
	return 0;
}

/* Joins the finding texts of one check into its failure message. */
static void append_text(char *buf, size_t len, const json_t *f)
{
	size_t l = strlen(buf);

	size_t i;
	json_t *e;

	snprintf(buf + l, len - l, "%s%s on %s (%s): %s\nfix: %s\n",
		 l ? "\n" : "", rj_str(f, "code"), rj_str(f, "node"),
		 rj_str(f, "severity"), rj_str(f, "summary"), rj_str(f, "fix"));
	json_array_foreach(rj_arr(f, "evidence"), i, e) {
		l = strlen(buf);
		snprintf(buf + l, len - l, "evidence: %s (%s)\n",
			 rj_strd(e, "fact", ""), rj_strd(e, "source", ""));
	}
}

/* Adds (or finds) the check for node and class. */
static json_t *check_get(json_t *checks, const char *suite, const char *name)
{
	size_t i;
	json_t *k;

	json_array_foreach(checks, i, k)
		if (strcmp(rj_str(k, "suite"), suite) == 0 &&
		    strcmp(rj_str(k, "name"), name) == 0)
			return k;
	k = json_pack("{s:s, s:s, s:s, s:s}", "suite", suite, "name", name,
		      "status", "pass", "text", "");
	json_array_append_new(checks, k);
	return k;
}

/* One check per node per finding class that ran, one per gate check, one
 * for the cluster recommendation, one per unreadable input. */
static json_t *build_checks(const struct rctx *c, const json_t *findings,
			    const json_t *rec, const json_t *nccl)
{
	json_t *checks = json_array(), *f, *run;
	char suite[300];
	size_t i, j;

	for (size_t k = 0; k < c->set->nin; k++) {
		json_t *d = c->set->in[k].doc;
		const char *const *cl = command_classes(rj_str(d, "tool"),
							rj_str(d, "command"));

		snprintf(suite, sizeof(suite), "netprobe.%s", rj_str(d, "host"));
		for (; *cl != NULL; cl++)
			check_get(checks, suite, *cl);
	}
	json_array_foreach(findings, i, f) {
		json_t *k;
		char text[4096];
		const char *st;

		snprintf(suite, sizeof(suite), "netprobe.%s",
			 rj_str(f, "node"));
		k = check_get(checks, suite, rj_str(f, "class"));
		snprintf(text, sizeof(text), "%s", rj_str(k, "text"));
		append_text(text, sizeof(text), f);
		json_object_set_new(k, "text", json_string(text));
		st = rj_str(k, "status");
		if (rj_sev(rj_str(f, "severity")) > rj_sev(st))
			json_object_set_new(k, "status",
					    json_string(rj_str(f, "severity")));
	}
	json_array_foreach(nccl, i, run) {
		json_t *g = json_object_get(run, "gate"), *gc;

		snprintf(suite, sizeof(suite), "ncclcheck.%s",
			 rj_str(run, "host"));
		json_array_foreach(rj_arr(g, "checks"), j, gc) {
			json_t *k = check_get(checks, suite,
					      rj_strd(gc, "name", "check"));
			int ok = json_is_true(json_object_get(gc, "passed"));

			json_object_set_new(k, "status",
					    json_string(ok ? "pass" : "fault"));
			json_object_set_new(
				k, "text", json_string(rj_strd(gc, "detail", "")));
		}
	}
	{
		json_t *k = check_get(checks, "cluster", "recommendation");
		size_t nb = json_array_size(rj_arr(rec, "blocked"));
		size_t nc = json_array_size(rj_arr(rec, "conflicts"));
		char text[2048] = "";

		json_array_foreach(rj_arr(rec, "blocked"), i, f) {
			size_t l = strlen(text);

			snprintf(text + l, sizeof(text) - l,
				 "%s blocks the cluster choice: %s\n",
				 rj_str(f, "node"), rj_str(f, "why"));
		}
		json_array_foreach(rj_arr(rec, "conflicts"), i, f) {
			size_t l = strlen(text);

			snprintf(text + l, sizeof(text) - l,
				 "conflicting evidence: %s\n",
				 rj_str(f, "subject"));
		}
		json_object_set_new(k, "status",
				    json_string(nb ? "fault"
					       : nc ? "warning"
						    : "pass"));
		json_object_set_new(k, "text", json_string(text));
	}
	for (i = 0; i < c->set->nskip; i++) {
		const struct report_skip *sk = &c->set->skip[i];
		json_t *k = check_get(checks, "inputs", sk->path);
		char text[512];

		if (sk->line > 0)
			snprintf(text, sizeof(text), "%s:%d:%d: %s", sk->path,
				 sk->line, sk->column, sk->why);
		else
			snprintf(text, sizeof(text), "%s: %s", sk->path,
				 sk->why);
		json_object_set_new(k, "status", json_string("error"));
		json_object_set_new(k, "text", json_string(text));
	}
	sort_array(checks, cmp_check);
	return checks;
}

/* The verdict: the worst of findings, gates, blocks, conflicts and inputs
 * that could not be read. */
static const char *verdict(const json_t *findings, const json_t *rec,
			   const json_t *nccl, size_t nskip, int *nf, int *nw)
{
	int worst = 0;
	size_t i;
	json_t *f;

	*nf = *nw = 0;
	json_array_foreach(findings, i, f) {
		int s = rj_sev(rj_str(f, "severity"));

		*nf += s == 2;
		*nw += s == 1;
		if (s > worst)
			worst = s;
	}
	json_array_foreach(nccl, i, f)
		if (json_is_false(json_object_get(
			    json_object_get(f, "gate"), "passed")))
			worst = 2;
	if (json_array_size(rj_arr(rec, "blocked")) > 0)
		worst = 2;
	if ((json_array_size(rj_arr(rec, "conflicts")) > 0 || nskip > 0) &&
	    worst < 1)
		worst = 1;
	return worst == 2 ? "fault" : worst == 1 ? "warning" : "pass";
}

json_t *report_merge(const struct report_set *s)
{
	struct rctx c = {.set = s};
	json_t *rep = NULL, *inputs, *skipped, *rec, *nccl, *checks;
	int nf, nw;

	if (rn_build(&c) < 0)
		goto out;
	if ((c.findings = merge_findings(s)) == NULL)
		goto out;
	annotate_nat_targets(&c);
	inputs = json_array();
	for (size_t k = 0; k < s->nin; k++) {
		json_t *d = s->in[k].doc;

		json_array_append_new(
			inputs,
			json_pack("{s:s, s:s?, s:s?, s:s?, s:s?, s:s?}", "file",
				  s->in[k].path, "tool", rj_str(d, "tool"),
				  "command", rj_str(d, "command"), "host",
				  rj_str(d, "host"), "started",
				  rj_str(d, "started"), "schema",
				  rj_str(d, "schema")));
	}
	skipped = json_array();
	for (size_t k = 0; k < s->nskip; k++) {
		const struct report_skip *sk = &s->skip[k];

		json_array_append_new(
			skipped,
			json_pack("{s:s, s:i, s:i, s:I, s:s}", "file", sk->path,
				  "line", sk->line, "column", sk->column,
				  "position", (json_int_t)sk->position, "why",
				  sk->why));
	}
	rec = rd_recommend(&c);
	nccl = rm_nccl(&c);
	if (rec == NULL || nccl == NULL) {
		json_decref(rec);
		json_decref(nccl);
		json_decref(inputs);
		json_decref(skipped);
		goto out;
	}
	checks = build_checks(&c, c.findings, rec, nccl);
	{
		const char *v = verdict(c.findings, rec, nccl, s->nskip, &nf,
					&nw);

		rep = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:i, s:i, s:i, "
				"s:i, s:i}, s:o, s:o, s:O, s:o, s:o, s:o, s:o}",
				"schema", REPORT_SCHEMA, "tool", "netprobe",
				"command", "report", "version",
				NETPROBE_VERSION, "verdict", v, "counts",
				"faults", nf, "warnings", nw, "nodes",
				(int)json_array_size(c.nodes), "inputs",
				(int)s->nin, "skipped", (int)s->nskip,
				"inputs", inputs, "skipped", skipped,
				"findings", c.findings, "recommendation", rec,
				"nccl", nccl, "checks", checks, "nodes",
				node_table(&c));
	}
	if (rep != NULL && rm_matrix(&c, rep) < 0) {
		json_decref(rep);
		rep = NULL;
	}
out:
	json_decref(c.nodes);
	json_decref(c.addrs);
	json_decref(c.findings);
	return rep;
}

int report_gate(const json_t *rep, enum report_fail_on fail_on)
{
	int v = rj_sev(rj_str(rep, "verdict"));

	switch (fail_on) {
	case REPORT_FAIL_FAULT:
		return v >= 2;
	case REPORT_FAIL_WARNING:
		return v >= 1;
	case REPORT_FAIL_NEVER:
		break;
	}
	return 0;
}
