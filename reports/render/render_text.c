/* netprobe report: terminal text, an emitter of the walk (report_emit.h).
 * The verdict first, then faults, warnings, conflicts, the recommendation
 * and the details. Colour only when asked (a terminal without NO_COLOR);
 * text from documents is printed with control characters replaced, so a
 * hostname cannot drive the terminal. */
#include <string.h>

#include "render_watch.h"
#include "report_emit.h"

#define RED "\033[1;31m"
#define YEL "\033[1;33m"
#define GRN "\033[1;32m"
#define BLD "\033[1m"
#define DIM "\033[2m"
#define OFF "\033[0m"

struct text {
	struct out o; /* %-s: an ANSI sequence */
	const struct report_model *m;
	bool colour;
	const char *indent; /* before a command block's lines */
};

/* An ANSI sequence, empty without colour. */
static const char *c_on(const struct text *t, const char *seq)
{
	return t->colour ? seq : "";
}

/* Document text with control characters shown as '?'. */
static void put(FILE *fp, const char *s)
{
	for (; s != NULL && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, fp);
}

/* "  [node:code, node:code]" for a cites array. */
static void cites(const struct text *t, const json_t *arr)
{
	/* provenance: on demand (-v), a healthy report stays one screen */
	if (json_array_size(arr) == 0 || !t->m->verbose)
		return;
	out_f(&t->o, "%-s  [", c_on(t, DIM));
	out_cites(&t->o, arr, "", "", false);
	out_f(&t->o, "]%-s", c_on(t, OFF));
}

/* Section headings, and lines that start a list (nothing where NULL;
 * the walk writes opens). */
static const char *const titles[RSEC_N] = {
	[RSEC_OUTAGES] = "LINKS DOWN DURING THE WATCH (after the first mesh)",
	[RSEC_CAUSES] = "ROOT CAUSES (fix these; the findings under each follow "
			"from it)",
	[RSEC_FAULTS] = "OTHER FAULTS",
	[RSEC_WARNINGS] = "OTHER WARNINGS",
	[RSEC_CONFLICTS] = "CONFLICTING EVIDENCE (not resolved: check by hand)",
	[RSEC_RECOMMENDATION] = "RECOMMENDATION",
	[RSEC_DETAILS] = "DETAILS",
};
static const char *const opens[RSEC_N] = {
	[RSEC_NCCL_CONF] = "  /etc/nccl.conf, per node:\n",
	[RSEC_NODES] = "  nodes:\n",
	[RSEC_SYMPTOMS] = "     symptoms:\n",
};

/* The verdict line: the causes, then how many findings they explain. */
static void verdict(const struct text *t)
{
	const struct report_model *m = t->m;
	const char *v = m->verdict;
	char run[1024];

	out_f(&t->o, "%-sverdict: %s%-s: ",
	      c_on(t, strcmp(v, "fault") == 0     ? RED
		      : strcmp(v, "warning") == 0 ? YEL
						  : GRN),
	      m->verdict_word, c_on(t, OFF));
	if (m->ncauses > 0)
		out_f(&t->o, "%zu root cause%s (", m->ncauses,
		      m->ncauses == 1 ? "" : "s");
	out_f(&t->o, "%lld fault%s, %lld warning%s", m->nfaults,
	      m->nfaults == 1 ? "" : "s", m->nwarnings,
	      m->nwarnings == 1 ? "" : "s");
	out_f(&t->o, "%s on %lld node%s", m->ncauses > 0 ? ")" : "",
	      m->nnodes, m->nnodes == 1 ? "" : "s");
	/* an outage of the watch is what the first line must say */
	if (m->outages.n > 0)
		out_f(&t->o, "; %s%s", rj_str(m->outages.v[0], "summary"),
		      m->outages.n > 1 ? " (and more links: below)" : "");
	if (m->nskipped > 0 || m->nnotrun > 0)
		out_f(&t->o,
		      "; %-sincomplete%-s: %lld of %lld file%s skipped, %lld "
		      "part%s could not run (exit 1 unless --fail-on never)",
		      c_on(t, RED), c_on(t, OFF), m->nskipped,
		      m->nskipped + m->ninputs,
		      m->nskipped + m->ninputs == 1 ? "" : "s", m->nnotrun,
		      m->nnotrun == 1 ? "" : "s");
	out_f(&t->o, "\n");
	if (*rj_fmt_run(m->started, m->duration_s, m->nodes, run,
			sizeof(run)) != '\0')
		out_f(&t->o, "%s\n", run);
}

/* The verdict line, a heading, or the line that opens a list. */
static void begin(void *o, enum rsec sec)
{
	struct text *t = o;
	const struct report_model *m = t->m;

	if (sec == RSEC_REPORT) {
		verdict(t);
	} else if (sec == RSEC_INPUTS) {
		out_f(&t->o, "  inputs: %lld read", m->ninputs);
		if (m->nskipped > 0)
			out_f(&t->o, ", %lld skipped", m->nskipped);
		out_f(&t->o, "\n");
	} else if (titles[sec] != NULL) {
		out_f(&t->o, "\n%-s%s%-s\n", c_on(t, BLD), titles[sec],
		      c_on(t, OFF));
	}
}

/* After the causes, commands go back to the recommendation's indent. */
static void end(void *o, enum rsec sec)
{
	struct text *t = o;

	if (sec == RSEC_CAUSES)
		t->indent = "    ";
}

/* A root cause: its summary, the facts beyond its symptoms, and its fix
 * on the node that needs it. */
static void cause(void *o, const struct rm_cause *k)
{
	struct text *t = o;
	const json_t *c = k->cause, *fix = json_object_get(c, "fix");
	bool fault = rj_sev(rj_str(c, "severity")) == 2;
	size_t j;
	json_t *e;

	out_f(&t->o, "  %-s%s on %s%-s: %s\n",
	      c_on(t, fault ? RED : YEL), rj_str(c, "kind"), rj_str(c, "node"),
	      c_on(t, OFF), rj_str(c, "summary"));
	json_array_foreach(rj_arr(c, "evidence"), j, e)
		out_f(&t->o, "     - %s: %s (%s)\n", rj_str(e, "node"),
		      rj_str(e, "fact"), rj_str(e, "source"));
	out_f(&t->o, "     %-sfix on %s%-s: %s\n", c_on(t, BLD),
	      rj_str(fix, "node"), c_on(t, OFF), rj_str(fix, "text"));
	t->indent = "       ";
}

/* A finding under a cause: one line (the cause carries the fix). */
static void symptom(void *o, const json_t *f)
{
	out_f(o, "       %s on %s: %s\n", rj_str(f, "code"), rj_str(f, "node"),
	      rj_str(f, "summary"));
}

/* A finding: code, node and summary, then its fix and evidence. */
static void finding(void *o, const json_t *f)
{
	const struct text *t = o;
	bool fault = rj_sev(rj_str(f, "severity")) == 2;
	size_t j;
	json_t *e;

	out_f(&t->o, "  %-s%s%-s on %s: %s\n    fix: %s\n",
	      c_on(t, fault ? RED : YEL), rj_str(f, "code"), c_on(t, OFF),
	      rj_str(f, "node"), rj_str(f, "summary"), rj_str(f, "fix"));
	json_array_foreach(rj_arr(f, "evidence"), j, e)
		out_f(&t->o, "    - %s (%s)\n", rj_str(e, "fact"),
		      rj_str(e, "source"));
}

/* A conflict and each claim with the file it came from. */
static void conflict(void *o, const json_t *cf)
{
	const struct text *t = o;
	size_t j;
	json_t *c;

	out_f(&t->o, "  %-s%s%-s\n", c_on(t, YEL), rj_str(cf, "subject"),
	      c_on(t, OFF));
	json_array_foreach(rj_arr(cf, "claims"), j, c)
		out_f(&t->o, "    - %s: %s (%s)\n", rj_str(c, "node"),
		      rj_str(c, "claim"), rj_str(c, "source"));
}

/* A note: what the report could not cover. */
static void note(void *o, const char *s)
{
	out_f(o, "  note: %s\n", s);
}

/* The interface every node or each node uses, and the nodes
 * that block a cluster value. */
static void interfaces(void *o, const struct report_model *m)
{
	const struct text *t = o;
	size_t i;
	json_t *v;

	if (m->common != NULL)
		out_f(&t->o, "  interface: %s on every node\n", m->common);
	else if (json_array_size(m->per_node) > 0)
		out_f(&t->o, "  interface per node:\n");
	/* one interface everywhere: the addresses only with -v */
	json_array_foreach(m->common != NULL && !m->verbose ? NULL
							     : m->per_node,
			   i, v) {
		out_f(&t->o, "    %s: %s %s", rj_str(v, "node"),
		      rj_str(v, "interface"),
		      rj_strd(v, "address", "(no address)"));
		/* chosen by the mesh over the scan's guess: say why */
		if (rj_str(v, "why") != NULL)
			out_f(&t->o, " (%s)", rj_str(v, "why"));
		out_f(&t->o, "\n");
	}
	json_array_foreach(m->blocked, i, v) {
		out_f(&t->o, "  %-sblocked%-s by %s: %s", c_on(t, RED),
		      c_on(t, OFF), rj_str(v, "node"), rj_str(v, "why"));
		cites(t, rj_arr(v, "cites"));
		out_f(&t->o, "\n");
	}
}

/* One setting as a shell line with its reason. */
static void setting(const struct text *t, const json_t *s)
{
	if (rj_str(s, "value") == NULL)
		out_f(&t->o, "    # %s: %s", rj_str(s, "name"),
		      rj_str(s, "why"));
	else
		out_f(&t->o, "    export %s=%s\n      %-s# %s%-s",
		      rj_str(s, "name"), rj_str(s, "value"), c_on(t, DIM),
		      rj_str(s, "why"), c_on(t, OFF));
	if (json_is_true(json_object_get(s, "disputed")))
		out_f(&t->o, " %-s(disputed: see conflicts)%-s", c_on(t, YEL),
		      c_on(t, OFF));
	cites(t, rj_arr(s, "cites"));
	out_f(&t->o, "\n");
}

/* True when scope j sets what scope k sets, name for name and value for
 * value: said once for both without -v. */
static bool same_scope(const struct rm_settings *st, size_t j, size_t k)
{
	const struct rm_scope *a = &st->scopes[j], *b = &st->scopes[k];

	if (a->settings.n != b->settings.n)
		return false;
	for (size_t i = 0; i < a->settings.n; i++) {
		const json_t *x = a->settings.v[i], *y = b->settings.v[i];

		if (strcmp(rj_strd(x, "name", ""), rj_strd(y, "name", "")) ||
		    strcmp(rj_strd(x, "value", ""), rj_strd(y, "value", "")))
			return false;
	}
	return true;
}

/* Settings as shell lines: every node's first, then per node; nodes
 * whose settings are alike share one block without -v. */
static void settings(void *o, const struct rm_settings *st)
{
	const struct text *t = o;

	out_f(&t->o, "  cluster-wide:\n");
	for (size_t j = 0; j < st->nscopes; j++) {
		const struct rm_scope *sc = &st->scopes[j];
		bool dup = false, shared = false;

		for (size_t k = 1; !t->m->verbose && j > 0 && k < j; k++)
			dup |= same_scope(st, j, k);
		if (dup)
			continue;
		if (j == 1)
			out_f(&t->o, "  per node:\n");
		if (j > 0) {
			out_f(&t->o, "   on %s", sc->node);
			for (size_t k = j + 1;
			     !t->m->verbose && k < st->nscopes; k++)
				if (same_scope(st, j, k)) {
					out_f(&t->o, ", %s", st->scopes[k].node);
					shared = true;
				}
			out_f(&t->o, "%s:\n", shared ? " (each)" : "");
		}
		for (size_t i = 0; i < sc->settings.n; i++)
			setting(t, sc->settings.v[i]);
	}
}

/* One node's /etc/nccl.conf line. */
static void conf_line(void *o, const json_t *v)
{
	out_f(o, "    %s: %s\n", rj_str(v, "node"), rj_str(v, "line"));
}

/* Ports to open on a node, each with why. */
static void firewall(void *o, const json_t *v)
{
	const struct text *t = o;
	size_t j;
	json_t *c;

	out_f(&t->o, "  open on %s:", rj_str(v, "node"));
	json_array_foreach(rj_arr(v, "open"), j, c) {
		out_f(&t->o, "%s", j ? ", " : " ");
		out_port(&t->o, json_object_get(c, "port"), false);
		out_f(&t->o, "/%s", rj_str(c, "proto"));
	}
	cites(t, rj_arr(v, "cites"));
	out_f(&t->o, "\n");
	json_array_foreach(rj_arr(v, "open"), j, c)
		out_f(&t->o, "    # %s\n", rj_str(c, "why"));
}

/* A firewall dialect's name above its commands, at the indent. */
static void dialect(void *o, const char *name)
{
	const struct text *t = o;

	out_f(&t->o, "%s%s:\n", t->indent, name);
}

/* One command line, at the indent. */
static void command(void *o, const char *line)
{
	const struct text *t = o;

	out_f(&t->o, "%s  %s\n", t->indent, line);
}

/* A change to how a node runs. */
static void change(void *o, const json_t *v)
{
	const struct text *t = o;

	out_f(&t->o, "  change on %s: %s", rj_str(v, "node"),
	      rj_str(v, "change"));
	cites(t, rj_arr(v, "cites"));
	out_f(&t->o, "\n");
}

/* An MTU to set, with why. */
static void mtu(void *o, const json_t *v)
{
	const struct text *t = o;

	out_f(&t->o, "  MTU on %s: %s\n    # %s", rj_str(v, "node"),
	      rj_str(v, "command"), rj_str(v, "why"));
	cites(t, rj_arr(v, "cites"));
	out_f(&t->o, "\n");
}

/* A node: what ran there, its layering, its documents' errors. */
static void node(void *o, const json_t *v)
{
	const char *ct = rj_str(v, "container"), *wsl = rj_str(v, "wsl");
	size_t j;
	json_t *c;

	out_f(o, "    %s: ", rj_str(v, "name"));
	json_array_foreach(rj_arr(v, "commands"), j, c)
		out_f(o, "%s%s", j ? "," : "", json_string_value(c));
	if (ct != NULL && strcmp(ct, "none") != 0)
		out_f(o, "; container %s (%s)", ct, rj_strd(v, "netmode", "?"));
	if (wsl != NULL && strcmp(wsl, "none") != 0)
		out_f(o, "; WSL %s", wsl);
	out_f(o, "\n");
	json_array_foreach(rj_arr(v, "errors"), j, c)
		out_f(o, "      error in %s: %s: %s%s%s%s\n",
		      rj_basename(rj_str(c, "file")),
		      rj_str(c, "step"), rj_str(c, "message"),
		      rj_str(c, "root_cause") ? " (root cause " : "",
		      rj_strd(c, "root_cause", ""),
		      rj_str(c, "root_cause") ? ")" : "");
}

/* The mesh: one summary line, then each node that did not take part to
 * the end, and why. */
static void mesh(void *o, const json_t *ms)
{
	const struct text *t = o;
	size_t i;
	json_t *p;

	out_f(&t->o, "  mesh: %s\n", rj_str(ms, "summary"));
	json_array_foreach(rj_arr(ms, "problems"), i, p)
		out_f(&t->o, "    %-s%s%-s: %s%s%s\n", c_on(t, RED),
		      rj_str(p, "name"), c_on(t, OFF), rj_str(p, "state"),
		      rj_str(p, "why") ? ": " : "", rj_str(p, "why"));
	if (json_is_object(json_object_get(ms, "watch")))
		text_watch(&t->o, json_object_get(ms, "watch"));
}

/* Connectivity as a list of cells, each with what was seen. */
static void matrix(void *o, const struct rm_matrix *mx)
{
	const struct text *t = o;
	char b[32];

	size_t nok = 0;
	long long mtu_lo = -1, mtu_hi = -1;

	/* without -v the reachable pairs are one line, the others each */
	for (size_t i = 0; !t->m->verbose && i < mx->cells.n; i++) {
		const json_t *v = mx->cells.v[i];
		long long pm = rj_int(v, "path_mtu", -1);

		if (strcmp(rj_str(v, "state"), "reachable") != 0)
			continue;
		nok++;
		if (pm > 0 && (mtu_lo < 0 || pm < mtu_lo))
			mtu_lo = pm;
		if (pm > mtu_hi)
			mtu_hi = pm;
	}
	out_f(&t->o, "  connectivity (from -> to):\n");
	if (nok > 0) {
		out_f(&t->o, "    %-s%zu of %zu%-s directions reachable",
		      c_on(t, GRN), nok, mx->cells.n, c_on(t, OFF));
		if (mtu_lo > 0 && mtu_lo == mtu_hi)
			out_f(&t->o, ", path MTU %lld", mtu_lo);
		else if (mtu_lo > 0)
			out_f(&t->o, ", path MTU %lld-%lld", mtu_lo, mtu_hi);
		out_f(&t->o, " (each pair: -v)\n");
	}
	for (size_t i = 0; i < mx->cells.n; i++) {
		const json_t *v = mx->cells.v[i], *d;
		const char *st = rj_str(v, "state");
		size_t j;

		if (!t->m->verbose && strcmp(st, "reachable") == 0)
			continue;
		out_f(&t->o, "    %s -> %s: %-s%s%-s", rj_str(v, "from"),
		      rj_str(v, "to"),
		      c_on(t, strcmp(st, "reachable") == 0 ? GRN
			      : strcmp(st, "unknown") == 0 ? ""
							   : RED),
		      st, c_on(t, OFF));
		if (json_is_number(json_object_get(v, "rtt_us")))
			out_f(&t->o, ", rtt %s",
			      rj_fmt_us(rj_num(v, "rtt_us", 0), b, sizeof(b)));
		if (json_is_number(json_object_get(v, "loss_pct")))
			out_f(&t->o, ", loss %.2f%%", rj_num(v, "loss_pct", 0));
		if (json_is_number(json_object_get(v, "path_mtu")))
			out_f(&t->o, ", path MTU %lld",
			      rj_int(v, "path_mtu", 0));
		out_f(&t->o, "\n");
		json_array_foreach(rj_arr(v, "details"), j, d)
			out_f(&t->o, "      %s\n", json_string_value(d));
	}
}

/* A heartbeat's statistics, one line per protocol. */
static void heartbeat(void *o, const struct rm_heartbeat *h)
{
	char b1[32], b2[32];

	for (size_t p = 0; p < h->nstats; p++)
		out_f(o,
		      "  heartbeat %s -> %s %s: median %s, p99 %s, loss "
		      "%.2f%%\n",
		      h->from, h->to, h->stats[p].proto,
		      rj_fmt_us(h->stats[p].median_us, b1, sizeof(b1)),
		      rj_fmt_us(h->stats[p].p99_us, b2, sizeof(b2)),
		      h->stats[p].loss_pct);
}

/* An ncclcheck run: peak bandwidth per collective, gate checks. */
static void nccl(void *o, const struct rm_nccl *r)
{
	const struct text *t = o;
	size_t j;
	json_t *c;
	char b[32];

	out_f(&t->o, "  ncclcheck from %s (%zu ranks):\n",
	      rj_str(r->run, "host"), json_array_size(rj_arr(r->run, "ranks")));
	for (size_t i = 0; i < r->n; i++) {
		const json_t *pk = json_object_get(r->series[i].coll, "peak");

		out_f(&t->o, "    %s: peak busbw %.2f GB/s at %s\n",
		      rj_str(r->series[i].coll, "name"),
		      rj_num(pk, "busbw_gbps", 0),
		      rj_fmt_bytes(rj_num(pk, "bytes", 0), b, sizeof(b)));
	}
	text_nccl_hw(&t->o, r->run, "    ");
	json_array_foreach(rj_arr(json_object_get(r->run, "gate"), "checks"), j,
			   c) {
		bool ok = json_is_true(json_object_get(c, "passed"));

		out_f(&t->o, "    gate %-s%s%-s %s: %s\n",
		      c_on(t, ok ? GRN : RED), ok ? "pass" : "FAIL",
		      c_on(t, OFF), rj_str(c, "name"), rj_str(c, "detail"));
	}
}

/* A file that could not be used, with where and why. */
static void skipped(void *o, const struct rm_skip *s)
{
	out_f(o, "    skipped %s: %s\n", rj_basename(s->where), s->why);
}

int report_render_text(const struct report_model *m, FILE *fp, bool colour)
{
	static const struct report_emitter e = {
		.opens = opens,
		.begin = begin,
		.end = end,
		.cause = cause,
		.dialect = dialect,
		.command = command,
		.symptom = symptom,
		.finding = finding,
		.conflict = conflict,
		.note = note,
		.interfaces = interfaces,
		.settings = settings,
		.conf_line = conf_line,
		.firewall = firewall,
		.change = change,
		.mtu = mtu,
		.node = node,
		.mesh = mesh,
		.matrix = matrix,
		.heartbeat = heartbeat,
		.nccl = nccl,
		.skipped = skipped,
	};
	struct text t = {{fp, put, out_raw}, m, colour, "    "};

	return report_walk(m, &e, &t, fp);
}
