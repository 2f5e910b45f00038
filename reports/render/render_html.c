/* netprobe report: one self-contained HTML file, an emitter of the walk
 * (report_emit.h). Inline CSS and SVG, no script and nothing fetched: the
 * verdict, findings with evidence, the recommendation with copy-able
 * commands, the connectivity matrix as a coloured grid, heartbeat latency
 * histograms and bus bandwidth against message size per collective
 * (render_html_data.c, render_svg.c). Every string from a document is
 * escaped (%s). */
#include <string.h>

#include "render_watch.h"
#include "report_emit.h"

static const char css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"margin:0;color:#1d232a;background:#f4f6f8}"
	"main{max-width:1080px;margin:0 auto;padding:16px 24px 48px}"
	"h1{font-size:22px;margin:0}h2{font-size:18px;margin:28px 0 8px;"
	"border-bottom:1px solid #d4d9de;padding-bottom:4px}"
	"h3{font-size:15px;margin:18px 0 6px}"
	".verdict{padding:16px 24px;color:#fff}"
	".v-fault{background:#b42318}.v-warning{background:#b54708}"
	".v-pass{background:#067647}.verdict p{margin:4px 0 0}"
	".card{background:#fff;border:1px solid #d4d9de;border-left:5px solid "
	"#98a2b3;border-radius:6px;padding:10px 14px;margin:10px 0}"
	".card.fault{border-left-color:#d92d20}.card.warning{border-left-color:"
	"#f79009}.card.conflict{border-left-color:#7a5af8}"
	".code{font:600 13px ui-monospace,Menlo,Consolas,monospace}"
	".node{background:#eef2f6;border-radius:4px;padding:0 6px}"
	".muted{color:#667085;font-size:12px}"
	"pre{background:#101828;color:#f2f4f7;padding:10px "
	"12px;border-radius:6px;"
	"overflow-x:auto;font:13px/1.4 ui-monospace,Menlo,Consolas,monospace;"
	"white-space:pre-wrap;word-break:break-all}"
	"table{border-collapse:collapse;background:#fff;margin:6px 0}"
	"th,td{border:1px solid #d4d9de;padding:4px 8px;text-align:left;"
	"vertical-align:top}th{background:#eef2f6}"
	"td.reachable{background:#d1fadf}td.nat,td.one-way,td.mtu-blackhole,"
	"td.ports-filtered"
	"{background:#fef0c7}"
	"td.filtered,td.unreachable{background:#fee4e2}td.unknown{background:"
	"#f2f4f7}td.self{background:#e4e7ec}"
	"ul{margin:4px 0;padding-left:20px}.badge{display:inline-block;"
	"padding:0 6px;border-radius:10px;font-size:12px;color:#fff}"
	".b-pass{background:#067647}.b-fail{background:#b42318}"
	"svg{background:#fff;border:1px solid #d4d9de;border-radius:6px;"
	"margin:4px 8px 4px 0}svg text{font:11px system-ui,sans-serif;"
	"fill:#344054}.charts{display:flex;flex-wrap:wrap}"
	".cause{border-left-width:8px}.cause h3{margin:2px 0 4px}"
	".fixline{font-weight:600;margin-top:6px}"
	"details{margin:6px 0}summary{cursor:pointer;color:#344054}"
	".dialect{font-size:12px;color:#475467;margin-top:4px}"
	".run{opacity:.9;font-size:13px}"
	/* print: everything unfolded, no backgrounds, a page per section */
	"@media print{*{background:none!important;color:#000!important}"
	"body{font-size:11pt}main{max-width:none;padding:0}"
	".verdict{padding:0 0 8px;border-bottom:2px solid #000}"
	"h2{break-before:page}main>h2:first-child{break-before:auto}"
	".card,pre,svg,tr,li{break-inside:avoid}"
	"pre{border:1px solid #888;white-space:pre-wrap}"
	"details::details-content{content-visibility:visible;"
	"display:block}details>summary{list-style:none}"
	"svg rect,svg polyline,svg circle{fill-opacity:1}"
	"svg rect{fill:#555!important}svg polyline{fill:none!important;"
	"stroke:#000!important}}";

struct html {
	struct out o; /* %-s: trusted markup */
	const struct report_model *m;
	const struct rm_cause *cause; /* the cause being written */
};

/* Node and code citations as small monospace text. */
static void cites(const struct out *o, const json_t *arr)
{
	if (json_array_size(arr) == 0)
		return;
	out_f(o, "<div class=\"muted\">rests on: ");
	out_cites(o, arr, "<span class=\"code\">", "</span>", false);
	out_f(o, "</div>\n");
}

/* The report's head and its verdict banner. */
static void head(const struct html *h)
{
	const struct report_model *m = h->m;
	char run[1024];

	out_f(&h->o,
	      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	      "charset=\"utf-8\">\n<meta name=\"viewport\" "
	      "content=\"width=device-width\">\n<title>netprobe report: "
	      "%s</title>\n<style>%-s</style></head>\n<body>\n",
	      m->verdict_word, css);
	out_f(&h->o,
	      "<div class=\"verdict v-%s\"><h1>netprobe report: %s</h1><p>",
	      m->verdict, m->verdict_word);
	if (m->ncauses > 0)
		out_f(&h->o, "<b>%zu root cause(s)</b> explain ", m->ncauses);
	out_f(&h->o,
	      "%lld fault(s), %lld warning(s) on %lld node(s), from %lld "
	      "document(s)",
	      m->nfaults, m->nwarnings, m->nnodes, m->ninputs);
	if (m->nskipped > 0 || m->nnotrun > 0)
		out_f(&h->o,
		      "; <b>incomplete</b>: %lld of %lld file(s) skipped, %lld "
		      "part(s) could not run (exit 1 unless --fail-on never)",
		      m->nskipped, m->nskipped + m->ninputs, m->nnotrun);
	if (m->outages.n > 0)
		out_f(&h->o, ".</p><p><b>%s</b>%s",
		      rj_str(m->outages.v[0], "summary"),
		      m->outages.n > 1 ? " (and more links: below)" : "");
	out_f(&h->o, ".</p><p class=\"run\">%s</p></div>\n<main>\n",
	      rj_fmt_run(m->started, m->duration_s, m->nodes, run,
			 sizeof(run)));
}

/* What starts and ends each section (nothing where NULL), written by
 * the walk. */
static const char *const opens[RSEC_N] = {
	[RSEC_OUTAGES] = "<h2>Links down during the watch</h2>\n",
	[RSEC_CAUSES] = "<h2>Root causes</h2>\n<p>Fix these; the findings "
			"under each follow from it.</p>\n",
	[RSEC_FAULTS] = "<h2>Other faults</h2>\n",
	[RSEC_WARNINGS] = "<h2>Other warnings</h2>\n",
	[RSEC_CONFLICTS] = "<h2>Conflicting evidence</h2>\n<p>The report does "
			   "not pick a side: check these by hand.</p>\n",
	[RSEC_RECOMMENDATION] = "<h2>Recommendation</h2>\n",
	[RSEC_NCCL_CONF] = "<h3>/etc/nccl.conf per node</h3>\n<pre>",
	[RSEC_CHANGES] = "<h3>Changes to how nodes run</h3>\n",
	[RSEC_MTU] = "<h3>MTU</h3>\n",
	[RSEC_HEARTBEATS] =
		"<h2>Heartbeat latency</h2>\n<div class=\"charts\">",
	[RSEC_SKIPPED] = "<h3>Files that could not be used</h3><ul>\n",
	[RSEC_COMMANDS] = "<pre>",
};
static const char *const closes[RSEC_N] = {
	[RSEC_CAUSE] = "</div>\n",
	[RSEC_SYMPTOMS] = "</details>\n",
	[RSEC_NCCL_CONF] = "</pre>\n",
	[RSEC_HEARTBEATS] = "</div>\n",
	[RSEC_SKIPPED] = "</ul>\n",
	[RSEC_COMMANDS] = "</pre>\n",
};

/* The page head, the symptoms' heading, or the nodes. */
static void begin(void *o, enum rsec sec)
{
	struct html *h = o;

	if (sec == RSEC_REPORT)
		head(h);
	else if (sec == RSEC_SYMPTOMS)
		out_f(&h->o,
		      "<details><summary>%zu finding(s) it explains</summary>"
		      "\n",
		      h->cause != NULL ? h->cause->findings.n : 0);
	else if (sec == RSEC_INPUTS) /* HTML shows the nodes here */
		html_nodes(&h->o, h->m->nodes);
}

/* The page foot. */
static void end(void *o, enum rsec sec)
{
	struct html *h = o;

	if (sec == RSEC_REPORT)
		out_f(&h->o,
		      "<p class=\"muted\">Written by netprobe report %s "
		      "(schema "
		      "%s).</p>\n</main></body></html>\n",
		      rj_str(h->m->doc, "version"),
		      rj_str(h->m->doc, "schema"));
}

/* A root cause card: its summary, facts beyond its symptoms and its fix
 * on the node that needs it; the fix's blocks and the folded symptoms
 * follow, and end(RSEC_CAUSE) closes it. */
static void cause(void *o, const struct rm_cause *k)
{
	struct html *h = o;
	const json_t *c = k->cause, *fix = json_object_get(c, "fix");
	size_t j;
	json_t *e;

	h->cause = k;
	out_f(&h->o,
	      "<div class=\"card cause %s\"><h3>%s on <span "
	      "class=\"node\">%s</span></h3><p>%s</p>\n",
	      rj_str(c, "severity"), rj_str(c, "kind"), rj_str(c, "node"),
	      rj_str(c, "summary"));
	if (json_array_size(rj_arr(c, "evidence")) > 0) {
		out_f(&h->o, "<ul>");
		json_array_foreach(rj_arr(c, "evidence"), j, e)
			out_f(&h->o,
			      "<li><span class=\"node\">%s</span> %s <span "
			      "class=\"muted\">(%s)</span></li>",
			      rj_str(e, "node"), rj_str(e, "fact"),
			      rj_str(e, "source"));
		out_f(&h->o, "</ul>\n");
	}
	out_f(&h->o,
	      "<div class=\"fixline\">Fix on <span class=\"node\">%s</span>: "
	      "%s</div>\n",
	      rj_str(fix, "node"), rj_str(fix, "text"));
}

/* A finding card: its fix unless it is a cause's symptom (the cause
 * carries it), evidence and the files it came from (by name). */
static void finding_card(const struct out *o, const json_t *f, bool fix)
{
	size_t j;
	json_t *e;

	out_f(o,
	      "<div class=\"card %s\"><span class=\"code\">%s</span> on "
	      "<span class=\"node\">%s</span><p>%s</p>\n",
	      rj_str(f, "severity"), rj_str(f, "code"), rj_str(f, "node"),
	      rj_str(f, "summary"));
	if (fix) /* prose: code blocks hold only commands */
		out_f(o, "<div class=\"fixline\">Fix: %s</div>\n",
		      rj_str(f, "fix"));
	if (json_array_size(rj_arr(f, "evidence")) > 0) {
		out_f(o, "<div>Evidence:</div><ul>");
		json_array_foreach(rj_arr(f, "evidence"), j, e)
			out_f(o,
			      "<li>%s <span class=\"muted\">(%s)</span></li>",
			      rj_str(e, "fact"), rj_str(e, "source"));
		out_f(o, "</ul>\n");
	}
	out_f(o, "<div class=\"muted\">from ");
	json_array_foreach(rj_arr(f, "sources"), j, e)
		out_f(o, "%s%s", j ? ", " : "",
		      rj_basename(json_string_value(e)));
	out_f(o, "</div></div>\n");
}

/* A cause's symptom: its card without a fix. */
static void symptom(void *o, const json_t *f)
{
	finding_card(o, f, false);
}

/* A finding no cause explains: its card with its fix. */
static void finding(void *o, const json_t *f)
{
	finding_card(o, f, true);
}

/* A conflict card with every claim. */
static void conflict(void *o, const json_t *cf)
{
	size_t j;
	json_t *c;

	out_f(o, "<div class=\"card conflict\"><b>%s</b><ul>",
	      rj_str(cf, "subject"));
	json_array_foreach(rj_arr(cf, "claims"), j, c)
		out_f(o,
		      "<li><span class=\"node\">%s</span> %s <span "
		      "class=\"muted\">(%s)</span></li>",
		      rj_str(c, "node"), rj_str(c, "claim"),
		      rj_str(c, "source"));
	out_f(o, "</ul></div>\n");
}

/* A note. */
static void note(void *o, const char *s)
{
	out_f(o, "<p class=\"muted\">Note: %s</p>\n", s);
}

/* Cards for nodes that block a cluster value; a table of each
 * node's interface. */
static void interfaces(void *o, const struct report_model *m)
{
	size_t i;
	json_t *v;

	json_array_foreach(m->blocked, i, v) {
		out_f(o,
		      "<div class=\"card fault\"><b>Blocked by <span "
		      "class=\"node\">%s</span></b>: %s",
		      rj_str(v, "node"), rj_str(v, "why"));
		cites(o, rj_arr(v, "cites"));
		out_f(o, "</div>\n");
	}
	if (json_array_size(m->per_node) == 0)
		return;
	out_f(o, "<h3>Interface per node</h3><table><tr><th>node</th>"
		 "<th>interface</th><th>address</th></tr>\n");
	json_array_foreach(m->per_node, i, v)
		out_f(o,
		      "<tr><td>%s</td><td class=\"code\">%s</td><td "
		      "class=\"code\">%s</td></tr>\n",
		      rj_str(v, "node"), rj_str(v, "interface"),
		      rj_strd(v, "address", "-"));
	out_f(o, "</table>\n");
}

/* export lines of one scope's settings that have a value. */
static void exports(const struct out *o, const struct rm_scope *sc)
{
	if (sc->nvalues == 0)
		return;
	out_f(o, "<pre>");
	for (size_t i = 0; i < sc->settings.n; i++)
		if (rj_str(sc->settings.v[i], "value") != NULL)
			out_f(o, "export %s=%s\n",
			      rj_str(sc->settings.v[i], "name"),
			      rj_str(sc->settings.v[i], "value"));
	out_f(o, "</pre>\n");
}

/* One row of the settings table, with its reason and citations. */
static void setting_row(const struct out *o, const json_t *s)
{
	out_f(o,
	      "<tr><td class=\"code\">%s</td><td>%s</td><td "
	      "class=\"code\">",
	      rj_str(s, "name"), rj_strd(s, "node", "every node"));
	if (rj_str(s, "value") != NULL)
		out_f(o, "%s", rj_str(s, "value"));
	else
		out_f(o, "<b>none works</b>");
	out_f(o, "</td><td>%s", rj_str(s, "why"));
	if (json_is_true(json_object_get(s, "disputed")))
		out_f(o, " <b>(disputed: see conflicting evidence)</b>");
	cites(o, rj_arr(s, "cites"));
	out_f(o, "</td></tr>\n");
}

/* True when two scopes export the same names and values, in order: one
 * block then serves both nodes. */
static bool same_exports(const struct rm_scope *a, const struct rm_scope *b)
{
	size_t i = 0, j = 0;

	for (;; i++, j++) {
		while (i < a->settings.n &&
		       rj_str(a->settings.v[i], "value") == NULL)
			i++;
		while (j < b->settings.n &&
		       rj_str(b->settings.v[j], "value") == NULL)
			j++;
		if (i == a->settings.n || j == b->settings.n)
			return i == a->settings.n && j == b->settings.n;
		if (strcmp(rj_str(a->settings.v[i], "name"),
		           rj_str(b->settings.v[j], "name")) != 0 ||
		    strcmp(rj_str(a->settings.v[i], "value"),
		           rj_str(b->settings.v[j], "value")) != 0)
			return false;
	}
}

/* Export lines for every node, then per node (nodes that export the
 * same lines share one block: 14 nodes on lan0 are one block, not 14),
 * then every setting in a table with its reason. */
static void settings(void *o, const struct rm_settings *st)
{
	out_f(o, "<h3>Environment, every node</h3>\n");
	if (st->scopes[0].nvalues == 0)
		out_f(o, "<p>No cluster-wide value: set them per "
		         "node.</p>\n");
	exports(o, &st->scopes[0]);
	for (size_t j = 1; j < st->nscopes; j++) {
		bool done = false;

		for (size_t k = 1; k < j && !done; k++)
			done = same_exports(&st->scopes[k], &st->scopes[j]);
		if (done || st->scopes[j].nvalues == 0)
			continue;
		out_f(o, "<h3>Environment on");
		for (size_t k = j; k < st->nscopes; k++)
			if (k == j ||
			    same_exports(&st->scopes[j], &st->scopes[k]))
				out_f(o, " <span class=\"node\">%s</span>",
				      st->scopes[k].node);
		out_f(o, "</h3>\n");
		exports(o, &st->scopes[j]);
	}
	/* the blocks above are what to do; why each, folded */
	out_f(o, "<details><summary>Why each setting (%zu)</summary>\n"
		 "<table><tr><th>setting</th><th>where</th><th>value</th>"
		 "<th>why</th></tr>\n",
	      st->all.n);
	for (size_t i = 0; i < st->all.n; i++)
		setting_row(o, st->all.v[i]);
	out_f(o, "</table></details>\n");
}

/* One node's /etc/nccl.conf line. */
static void conf_line(void *o, const json_t *v)
{
	out_f(o, "# %s\n%s\n", rj_str(v, "node"), rj_str(v, "line"));
}

/* Ports to open on a node, each with why. */
static void firewall(void *o, const json_t *v)
{
	size_t j;
	json_t *c;

	out_f(o,
	      "<h3>Ports to open on <span class=\"node\">%s</span></h3>"
	      "<ul>\n",
	      rj_str(v, "node"));
	json_array_foreach(rj_arr(v, "open"), j, c) {
		out_f(o, "<li><span class=\"code\">");
		out_port(o, json_object_get(c, "port"), false);
		out_f(o, "/%s</span>: %s</li>\n", rj_str(c, "proto"),
		      rj_str(c, "why"));
	}
	out_f(o, "</ul>\n");
	cites(o, rj_arr(v, "cites"));
}

/* A firewall dialect's name above its block. */
static void dialect(void *o, const char *name)
{
	out_f(o, "<div class=\"dialect\">%s:</div>", name);
}

/* One command line of a block, ready to copy. */
static void command(void *o, const char *line)
{
	out_f(o, "%s\n", line);
}

/* A card for one node: a change or an MTU, and what it rests on. */
static void card(const struct out *o, const json_t *v, const char *why,
		 const char *cmd)
{
	out_f(o, "<div class=\"card\"><span class=\"node\">%s</span>",
	      rj_str(v, "node"));
	if (why != NULL)
		out_f(o, " %s", why);
	if (cmd != NULL) /* a command block holds only commands */
		out_f(o, "<pre>%s</pre>", cmd);
	cites(o, rj_arr(v, "cites"));
	out_f(o, "</div>\n");
}

/* A change to how a node runs. */
static void change(void *o, const json_t *v)
{
	card(o, v, rj_str(v, "change"), NULL);
}

/* An MTU to set, with why. */
static void mtu(void *o, const json_t *v)
{
	card(o, v, rj_str(v, "why"), rj_str(v, "command"));
}

/* The mesh's summary and its problem nodes (render_html_data.c). */
static void mesh(void *o, const json_t *ms)
{
	html_mesh(o, ms);
	if (json_is_object(json_object_get(ms, "watch")))
		html_watch(o, json_object_get(ms, "watch"));
}

/* Connectivity as a coloured grid (render_html_data.c). */
static void matrix(void *o, const struct rm_matrix *mx)
{
	html_matrix(o, mx);
}

/* A heartbeat's RTT histogram (render_svg.c). */
static void heartbeat(void *o, const struct rm_heartbeat *hb)
{
	svg_histogram(o, hb);
}

/* An ncclcheck run with its charts (render_html_data.c). */
static void nccl(void *o, const struct rm_nccl *r)
{
	html_nccl(o, r);
}

/* A file that could not be used, with where and why. */
static void skipped(void *o, const struct rm_skip *s)
{
	out_f(o, "<li><span class=\"code\">%s</span>: %s</li>\n",
	      rj_basename(s->where), s->why);
}

int report_render_html(const struct report_model *m, FILE *fp)
{
	static const struct report_emitter e = {
		.opens = opens,
		.closes = closes,
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
		.mesh = mesh,
		.matrix = matrix,
		.heartbeat = heartbeat,
		.nccl = nccl,
		.skipped = skipped,
	};
	struct html h = {{fp, xml_escape, out_raw}, m, NULL};

	return report_walk(m, &e, &h, fp);
}
