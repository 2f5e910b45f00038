/* netprobe report: Markdown for a ticket or a pull-request comment, an
 * emitter of the walk (report_emit.h). Text from documents goes into
 * tables and lists with the characters Markdown and HTML would act on
 * escaped (%s); commands and names go into code spans and fenced blocks
 * (%-s), where a backtick cannot close them. */
#include <string.h>

#include "report_emit.h"

struct md {
	struct out o;
	const struct report_model *m;
	const struct rm_cause *cause; /* the cause being written */
};

/* Document text safe for Markdown prose and table cells. */
static void prose(FILE *fp, const char *s)
{
	for (; s != NULL && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fputc(' ', fp);
		else if (strchr("\\`*_[]<>|#", c) != NULL)
			fprintf(fp, "\\%c", c);
		else if (c == '&')
			fputs("&amp;", fp);
		else
			fputc(c, fp);
	}
}

/* Document text for a code span or fenced block. */
static void code(FILE *fp, const char *s)
{
	for (; s != NULL && *s; s++)
		fputc(*s == '`' ? '\'' : ((unsigned char)*s < 0x20 ? ' ' : *s),
		      fp);
}

/* " — rests on: `node:code`, ..." for a cites array. */
static void cites(const struct out *o, const json_t *arr)
{
	if (json_array_size(arr) == 0)
		return;
	out_f(o, " — rests on: ");
	out_cites(o, arr, "`", "`", true);
}

/* What starts and ends each section (nothing where NULL), written by
 * the walk. */
static const char *const opens[RSEC_N] = {
	[RSEC_OUTAGES] = "\n## Links down during the watch\n\n",
	[RSEC_CAUSES] = "\n## Root causes\n\nFix these; the findings under "
			"each follow from it.\n",
	[RSEC_FAULTS] = "\n## Other faults\n\n",
	[RSEC_WARNINGS] = "\n## Other warnings\n\n",
	[RSEC_CONFLICTS] = "\n## Conflicting evidence\n\nNot resolved by the "
			   "report: check these by hand.\n\n",
	[RSEC_RECOMMENDATION] = "\n## Recommendation\n\n",
	[RSEC_NCCL_CONF] = "\n`/etc/nccl.conf` per node:\n\n```\n",
	[RSEC_CHANGES] = "\n### Changes to how nodes run\n\n",
	[RSEC_MTU] = "\n### MTU\n\n",
	[RSEC_DETAILS] = "\n## Details\n",
	[RSEC_COMMANDS] = "\n```sh\n",
};
static const char *const closes[RSEC_N] = {
	[RSEC_NCCL_CONF] = "```\n",
	[RSEC_SYMPTOMS] = "\n</details>\n",
	[RSEC_COMMANDS] = "```\n",
};

/* The title line, the inputs' count, or the symptoms' heading. */
static void begin(void *o, enum rsec sec)
{
	struct md *w = o;
	const struct report_model *m = w->m;
	char run[1024];

	if (sec == RSEC_REPORT) {
		out_f(&w->o, "# netprobe report: %s\n\n", m->verdict_word);
		if (m->ncauses > 0)
			out_f(&w->o, "**%zu root cause(s)** explain ",
			      m->ncauses);
		out_f(&w->o, "%lld fault(s), %lld warning(s) on %lld node(s).\n",
		      m->nfaults, m->nwarnings, m->nnodes);
		if (m->outages.n > 0)
			out_f(&w->o, "\n**%s**%s.\n",
			      rj_str(m->outages.v[0], "summary"),
			      m->outages.n > 1 ? " (and more links: below)"
					       : "");
		if (*rj_fmt_run(m->started, m->duration_s, m->nodes, run,
				sizeof(run)) != '\0')
			out_f(&w->o, "\n%s.\n", run);
		if (m->nskipped > 0 || m->nnotrun > 0)
			out_f(&w->o,
			      "\n**Incomplete:** %lld of %lld file(s) skipped, "
			      "%lld part(s) could not run (exit 1 unless "
			      "`--fail-on never`).\n",
			      m->nskipped, m->nskipped + m->ninputs,
			      m->nnotrun);
	} else if (sec == RSEC_INPUTS) {
		out_f(&w->o, "\n### Inputs\n\n%lld documents read", m->ninputs);
		if (m->nskipped > 0)
			out_f(&w->o, ", %lld skipped", m->nskipped);
		out_f(&w->o, ".\n");
	} else if (sec == RSEC_SYMPTOMS) {
		out_f(&w->o,
		      "\n<details><summary>%zu finding(s) it explains"
		      "</summary>\n\n",
		      w->cause != NULL ? w->cause->findings.n : 0);
	}
}

/* A root cause: its summary, facts beyond its symptoms, and its fix. */
static void cause(void *o, const struct rm_cause *k)
{
	struct md *w = o;
	const json_t *c = k->cause, *fix = json_object_get(c, "fix");
	size_t j;
	json_t *e;

	w->cause = k;
	out_f(&w->o, "\n### %s on %s (%s)\n\n%s\n\n", rj_str(c, "kind"),
	      rj_str(c, "node"), rj_str(c, "severity"), rj_str(c, "summary"));
	json_array_foreach(rj_arr(c, "evidence"), j, e)
		out_f(&w->o, "- %s: %s (%s)\n", rj_str(e, "node"),
		      rj_str(e, "fact"), rj_str(e, "source"));
	if (json_array_size(rj_arr(c, "evidence")) > 0)
		out_f(&w->o, "\n");
	out_f(&w->o, "**Fix on %s:** %s\n", rj_str(fix, "node"),
	      rj_str(fix, "text"));
}

/* A finding under a cause: one line (the cause carries the fix). */
static void symptom(void *o, const json_t *f)
{
	out_f(o, "- `%-s` on **%s**: %s\n", rj_str(f, "code"),
	      rj_str(f, "node"), rj_str(f, "summary"));
}

/* A finding as a list item with its fix and evidence. */
static void finding(void *o, const json_t *f)
{
	size_t j;
	json_t *e;

	out_f(o, "- **`%-s`** on **%s**: %s\n  - fix: %s\n",
	      rj_str(f, "code"), rj_str(f, "node"), rj_str(f, "summary"),
	      rj_str(f, "fix"));
	json_array_foreach(rj_arr(f, "evidence"), j, e)
		out_f(o, "  - evidence: %s (%s)\n", rj_str(e, "fact"),
		      rj_str(e, "source"));
}

/* A conflict and each claim with the file it came from. */
static void conflict(void *o, const json_t *cf)
{
	size_t j;
	json_t *c;

	out_f(o, "- **%s**\n", rj_str(cf, "subject"));
	json_array_foreach(rj_arr(cf, "claims"), j, c)
		out_f(o, "  - %s: %s (`%-s`)\n", rj_str(c, "node"),
		      rj_str(c, "claim"), rj_str(c, "source"));
}

/* A note as a quote. */
static void note(void *o, const char *s)
{
	out_f(o, "> Note: %s\n\n", s);
}

/* The common interface, the blocking nodes, and a table of
 * each node's interface. */
static void interfaces(void *o, const struct report_model *m)
{
	size_t i;
	json_t *v;

	if (m->common != NULL)
		out_f(o, "Interface **%s** on every node.\n\n", m->common);
	json_array_foreach(m->blocked, i, v) {
		out_f(o, "- **Blocked by %s**: %s", rj_str(v, "node"),
		      rj_str(v, "why"));
		cites(o, rj_arr(v, "cites"));
		out_f(o, "\n");
	}
	if (json_array_size(m->blocked) > 0)
		out_f(o, "\n");
	if (json_array_size(m->per_node) == 0)
		return;
	out_f(o, "| node | interface | address |\n|---|---|---|\n");
	json_array_foreach(m->per_node, i, v)
		out_f(o, "| %s | `%-s` | %s |\n", rj_str(v, "node"),
		      rj_str(v, "interface"), rj_strd(v, "address", "-"));
	out_f(o, "\n");
}

/* Every setting in one table, in the order decided. */
static void settings(void *o, const struct rm_settings *st)
{
	out_f(o, "| setting | where | value | why |\n|---|---|---|---|\n");
	for (size_t i = 0; i < st->all.n; i++) {
		const json_t *v = st->all.v[i];

		out_f(o, "| `%-s` | %s | ", rj_str(v, "name"),
		      rj_strd(v, "node", "every node"));
		if (rj_str(v, "value") != NULL)
			out_f(o, "`%-s`", rj_str(v, "value"));
		else
			out_f(o, "**none works**");
		out_f(o, " | %s", rj_str(v, "why"));
		if (json_is_true(json_object_get(v, "disputed")))
			out_f(o, " **(disputed: see conflicts)**");
		cites(o, rj_arr(v, "cites"));
		out_f(o, " |\n");
	}
}

/* One node's /etc/nccl.conf line in the fenced block. */
static void conf_line(void *o, const json_t *v)
{
	out_f(o, "# %-s\n%-s\n", rj_str(v, "node"), rj_str(v, "line"));
}

/* Ports to open on a node, each with why. */
static void firewall(void *o, const json_t *v)
{
	size_t j;
	json_t *c;

	out_f(o, "\n### Open on %s\n\n", rj_str(v, "node"));
	json_array_foreach(rj_arr(v, "open"), j, c) {
		out_f(o, "- `");
		out_port(o, json_object_get(c, "port"), true);
		out_f(o, "/%-s`: %s\n", rj_str(c, "proto"), rj_str(c, "why"));
	}
	out_f(o, "\nRests on:");
	cites(o, rj_arr(v, "cites"));
	out_f(o, "\n");
}

/* A firewall dialect's name above its fenced block. */
static void dialect(void *o, const char *name)
{
	out_f(o, "\n%s:\n", name);
}

/* One command line of a fenced block. */
static void command(void *o, const char *line)
{
	out_f(o, "%-s\n", line);
}

/* A change to how a node runs. */
static void change(void *o, const json_t *v)
{
	out_f(o, "- **%s**: %s", rj_str(v, "node"), rj_str(v, "change"));
	cites(o, rj_arr(v, "cites"));
	out_f(o, "\n");
}

/* An MTU to set, with why. */
static void mtu(void *o, const json_t *v)
{
	out_f(o, "- **%s**: `%-s` — %s", rj_str(v, "node"),
	      rj_str(v, "command"), rj_str(v, "why"));
	cites(o, rj_arr(v, "cites"));
	out_f(o, "\n");
}

/* One cell of the grid: the state, with the RTT when measured; a dash on
 * the diagonal unless a node measured itself. */
static void grid_cell(const struct out *o, const json_t *c, bool self)
{
	char b[32];

	if (c == NULL) {
		out_f(o, self ? " — |" : "  |");
		return;
	}
	out_f(o, " %s", rj_str(c, "state"));
	if (json_is_number(json_object_get(c, "rtt_us")))
		out_f(o, " %s",
		      rj_fmt_us(rj_num(c, "rtt_us", 0), b, sizeof(b)));
	if (json_is_number(json_object_get(c, "path_mtu")))
		out_f(o, " mtu %lld", rj_int(c, "path_mtu", 0));
	out_f(o, " |");
}

/* The mesh: its summary, then a table of the nodes that did not take
 * part to the end. */
static void mesh(void *o, const json_t *ms)
{
	size_t i;
	json_t *p;

	out_f(o, "\n### Mesh\n\n%s\n", rj_str(ms, "summary"));
	if (json_array_size(rj_arr(ms, "problems")) == 0)
		return;
	out_f(o, "\n| node | state | why |\n|---|---|---|\n");
	json_array_foreach(rj_arr(ms, "problems"), i, p)
		out_f(o, "| %s | %s | %s |\n", rj_str(p, "name"),
		      rj_str(p, "state"), rj_strd(p, "why", ""));
}

/* Connectivity as a grid: row from, column to. */
static void matrix(void *o, const struct rm_matrix *mx)
{
	out_f(o, "\n### Connectivity (row: from, column: to)\n\n| |");
	for (size_t j = 0; j < mx->n; j++)
		out_f(o, " %s |", mx->nodes[j]);
	out_f(o, "\n|---|");
	for (size_t j = 0; j < mx->n; j++)
		out_f(o, "---|");
	out_f(o, "\n");
	for (size_t i = 0; i < mx->n; i++) {
		out_f(o, "| **%s** |", mx->nodes[i]);
		for (size_t j = 0; j < mx->n; j++)
			grid_cell(o, rm_cell(mx, mx->nodes[i], mx->nodes[j]),
				  i == j);
		out_f(o, "\n");
	}
}

/* A heartbeat's summary line (TCP, else UDP). */
static void heartbeat(void *o, const struct rm_heartbeat *h)
{
	char b1[32], b2[32];

	out_f(o, "\nHeartbeat %s → %s: median %s, p99 %s, loss %.2f%%\n",
	      h->from, h->to, rj_fmt_us(h->main.median_us, b1, sizeof(b1)),
	      rj_fmt_us(h->main.p99_us, b2, sizeof(b2)), h->main.loss_pct);
}

/* An ncclcheck run: peaks and gate checks as tables. */
static void nccl(void *o, const struct rm_nccl *r)
{
	const json_t *g = json_object_get(r->run, "gate");
	size_t j;
	json_t *c;
	char b[32];

	out_f(o,
	      "\n### NCCL (ncclcheck from %s, %zu ranks)\n\n| collective | "
	      "peak busbw | at |\n|---|---|---|\n",
	      rj_str(r->run, "host"), json_array_size(rj_arr(r->run, "ranks")));
	for (size_t i = 0; i < r->n; i++) {
		const json_t *pk = json_object_get(r->series[i].coll, "peak");

		out_f(o, "| %s | %.2f GB/s | %s |\n",
		      rj_str(r->series[i].coll, "name"),
		      rj_num(pk, "busbw_gbps", 0),
		      rj_fmt_bytes(rj_num(pk, "bytes", 0), b, sizeof(b)));
	}
	if (json_is_object(json_object_get(r->run, "hardware")) ||
	    json_is_object(json_object_get(r->run, "pairs"))) {
		out_f(o, "\n");
		text_nccl_hw(o, r->run, "- ");
	}
	if (!json_is_object(g))
		return;
	out_f(o, "\n| gate check | result | detail |\n|---|---|---|\n");
	json_array_foreach(rj_arr(g, "checks"), j, c)
		out_f(o,
		      json_is_true(json_object_get(c, "passed"))
			      ? "| %s | pass | %s |\n"
			      : "| %s | **FAIL** | %s |\n",
		      rj_str(c, "name"), rj_str(c, "detail"));
}

/* A file that could not be used, with where and why. */
static void skipped(void *o, const struct rm_skip *s)
{
	out_f(o, "- skipped `%-s`: %s\n", rj_basename(s->where), s->why);
}

int report_render_md(const struct report_model *m, FILE *fp)
{
	static const struct report_emitter e = {
		.opens = opens,
		.closes = closes,
		.begin = begin,
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
		.mesh = mesh,
		.matrix = matrix,
		.heartbeat = heartbeat,
		.nccl = nccl,
		.skipped = skipped,
	};
	struct md w = {{fp, prose, code}, m, NULL};

	return report_walk(m, &e, &w, fp);
}
