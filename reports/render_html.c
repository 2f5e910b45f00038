/* netprobe report: one self-contained HTML file. Inline CSS and SVG, no
 * script and nothing fetched: the verdict, findings with evidence, the
 * recommendation with copy-able commands, the connectivity matrix as a
 * coloured grid, heartbeat latency histograms and bus bandwidth against
 * message size per collective (log scale). Every string from a document
 * is escaped. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define E(s) rj_xml_escape(fp, (s))

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
	"pre{background:#101828;color:#f2f4f7;padding:10px 12px;border-radius:6px;"
	"overflow-x:auto;font:13px/1.4 ui-monospace,Menlo,Consolas,monospace;"
	"white-space:pre-wrap;word-break:break-all}"
	"table{border-collapse:collapse;background:#fff;margin:6px 0}"
	"th,td{border:1px solid #d4d9de;padding:4px 8px;text-align:left;"
	"vertical-align:top}th{background:#eef2f6}"
	"td.reachable{background:#d1fadf}td.nat,td.one-way{background:#fef0c7}"
	"td.filtered,td.unreachable{background:#fee4e2}td.unknown{background:"
	"#f2f4f7}td.self{background:#e4e7ec}"
	"ul{margin:4px 0;padding-left:20px}.badge{display:inline-block;"
	"padding:0 6px;border-radius:10px;font-size:12px;color:#fff}"
	".b-pass{background:#067647}.b-fail{background:#b42318}"
	"svg{background:#fff;border:1px solid #d4d9de;border-radius:6px;"
	"margin:4px 8px 4px 0}svg text{font:11px system-ui,sans-serif;"
	"fill:#344054}.charts{display:flex;flex-wrap:wrap}";

/* Node and code citations as small monospace text. */
static void cites(FILE *fp, const json_t *arr)
{
	size_t i;
	json_t *c;

	if (json_array_size(arr) == 0)
		return;
	fputs("<div class=\"muted\">rests on: ", fp);
	json_array_foreach(arr, i, c) {
		fputs(i ? ", " : "", fp);
		fputs("<span class=\"code\">", fp);
		if (rj_str(c, "node") != NULL) {
			E(rj_str(c, "node"));
			fputc(':', fp);
		}
		E(rj_str(c, "code"));
		fputs("</span>", fp);
	}
	fputs("</div>\n", fp);
}

/* Finding cards of one severity. */
static void findings(FILE *fp, const json_t *rep, int sev, const char *title,
		     const char *cls)
{
	size_t i, j;
	json_t *f, *e;
	bool any = false;

	json_array_foreach(rj_arr(rep, "findings"), i, f) {
		if (rj_sev(rj_str(f, "severity")) != sev)
			continue;
		if (!any)
			fprintf(fp, "<h2>%s</h2>\n", title);
		any = true;
		fprintf(fp, "<div class=\"card %s\"><span class=\"code\">", cls);
		E(rj_str(f, "code"));
		fputs("</span> on <span class=\"node\">", fp);
		E(rj_str(f, "node"));
		fputs("</span><p>", fp);
		E(rj_str(f, "summary"));
		fputs("</p>\n<div>Fix:</div><pre>", fp);
		E(rj_str(f, "fix"));
		fputs("</pre>\n", fp);
		if (json_array_size(rj_arr(f, "evidence")) > 0) {
			fputs("<div>Evidence:</div><ul>", fp);
			json_array_foreach(rj_arr(f, "evidence"), j, e) {
				fputs("<li>", fp);
				E(rj_str(e, "fact"));
				fputs(" <span class=\"muted\">(", fp);
				E(rj_str(e, "source"));
				fputs(")</span></li>", fp);
			}
			fputs("</ul>\n", fp);
		}
		fputs("<div class=\"muted\">from ", fp);
		json_array_foreach(rj_arr(f, "sources"), j, e) {
			fputs(j ? ", " : "", fp);
			E(json_string_value(e));
		}
		fputs("</div></div>\n", fp);
	}
}

/* Conflict cards. */
static void conflicts(FILE *fp, const json_t *rep)
{
	json_t *cf = rj_arr(json_object_get(rep, "recommendation"),
			    "conflicts"),
	       *v, *c;
	size_t i, j;

	if (json_array_size(cf) == 0)
		return;
	fputs("<h2>Conflicting evidence</h2>\n<p>The report does not pick a "
	      "side: check these by hand.</p>\n",
	      fp);
	json_array_foreach(cf, i, v) {
		fputs("<div class=\"card conflict\"><b>", fp);
		E(rj_str(v, "subject"));
		fputs("</b><ul>", fp);
		json_array_foreach(rj_arr(v, "claims"), j, c) {
			fputs("<li><span class=\"node\">", fp);
			E(rj_str(c, "node"));
			fputs("</span> ", fp);
			E(rj_str(c, "claim"));
			fputs(" <span class=\"muted\">(", fp);
			E(rj_str(c, "source"));
			fputs(")</span></li>", fp);
		}
		fputs("</ul></div>\n", fp);
	}
}

/* export lines of the settings for one scope (node NULL: cluster). */
static bool exports(FILE *fp, const json_t *settings, const char *node)
{
	size_t i;
	json_t *s;
	bool any = false;

	json_array_foreach(settings, i, s) {
		const char *n = rj_str(s, "node");

		if ((node == NULL) != (n == NULL) ||
		    (node != NULL && strcmp(node, n) != 0) ||
		    rj_str(s, "value") == NULL)
			continue;
		if (!any)
			fputs("<pre>", fp);
		any = true;
		fputs("export ", fp);
		E(rj_str(s, "name"));
		fputc('=', fp);
		E(rj_str(s, "value"));
		fputc('\n', fp);
	}
	if (any)
		fputs("</pre>\n", fp);
	return any;
}

/* The settings table with reasons and citations. */
static void settings_table(FILE *fp, const json_t *settings)
{
	size_t i;
	json_t *s;

	fputs("<table><tr><th>setting</th><th>where</th><th>value</th>"
	      "<th>why</th></tr>\n",
	      fp);
	json_array_foreach(settings, i, s) {
		fputs("<tr><td class=\"code\">", fp);
		E(rj_str(s, "name"));
		fputs("</td><td>", fp);
		E(rj_strd(s, "node", "every node"));
		fputs("</td><td class=\"code\">", fp);
		if (rj_str(s, "value") != NULL)
			E(rj_str(s, "value"));
		else
			fputs("<b>none works</b>", fp);
		fputs("</td><td>", fp);
		E(rj_str(s, "why"));
		if (json_is_true(json_object_get(s, "disputed")))
			fputs(" <b>(disputed: see conflicting evidence)</b>",
			      fp);
		cites(fp, rj_arr(s, "cites"));
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
}

/* The recommendation section. */
static void recommendation(FILE *fp, const json_t *rep)
{
	const json_t *r = json_object_get(rep, "recommendation");
	const json_t *ifc = json_object_get(r, "interface");
	json_t *settings = rj_arr(r, "settings"), *v, *c;
	size_t i, j;

	fputs("<h2>Recommendation</h2>\n", fp);
	json_array_foreach(rj_arr(r, "notes"), i, v) {
		fputs("<p class=\"muted\">Note: ", fp);
		E(json_string_value(v));
		fputs("</p>\n", fp);
	}
	json_array_foreach(rj_arr(r, "blocked"), i, v) {
		fputs("<div class=\"card fault\"><b>Blocked by <span "
		      "class=\"node\">",
		      fp);
		E(rj_str(v, "node"));
		fputs("</span></b>: ", fp);
		E(rj_str(v, "why"));
		cites(fp, rj_arr(v, "cites"));
		fputs("</div>\n", fp);
	}
	if (json_array_size(rj_arr(ifc, "per_node")) > 0) {
		fputs("<h3>Interface per node</h3><table><tr><th>node</th>"
		      "<th>interface</th><th>address</th></tr>\n",
		      fp);
		json_array_foreach(rj_arr(ifc, "per_node"), i, v) {
			fputs("<tr><td>", fp);
			E(rj_str(v, "node"));
			fputs("</td><td class=\"code\">", fp);
			E(rj_str(v, "interface"));
			fputs("</td><td class=\"code\">", fp);
			E(rj_strd(v, "address", "-"));
			fputs("</td></tr>\n", fp);
		}
		fputs("</table>\n", fp);
	}
	if (json_array_size(settings) > 0) {
		json_t *done = json_object();

		fputs("<h3>Environment, every node</h3>\n", fp);
		if (!exports(fp, settings, NULL))
			fputs("<p>No cluster-wide value: set them per "
			      "node.</p>\n",
			      fp);
		json_array_foreach(settings, i, v) {
			const char *n = rj_str(v, "node");

			if (n == NULL || json_object_get(done, n) != NULL)
				continue;
			json_object_set_new(done, n, json_true());
			fputs("<h3>Environment on <span class=\"node\">", fp);
			E(n);
			fputs("</span></h3>\n", fp);
			exports(fp, settings, n);
		}
		json_decref(done);
		settings_table(fp, settings);
	}
	if (json_array_size(rj_arr(r, "nccl_conf")) > 0) {
		fputs("<h3>/etc/nccl.conf per node</h3>\n<pre>", fp);
		json_array_foreach(rj_arr(r, "nccl_conf"), i, v) {
			fputs("# ", fp);
			E(rj_str(v, "node"));
			fputc('\n', fp);
			E(rj_str(v, "line"));
			fputc('\n', fp);
		}
		fputs("</pre>\n", fp);
	}
	json_array_foreach(rj_arr(r, "firewall"), i, v) {
		static const char *const dia[] = {"nftables", "ufw", "firewalld",
						  NULL};

		fputs("<h3>Ports to open on <span class=\"node\">", fp);
		E(rj_str(v, "node"));
		fputs("</span></h3><ul>\n", fp);
		json_array_foreach(rj_arr(v, "open"), j, c) {
			json_t *p = json_object_get(c, "port");

			fputs("<li><span class=\"code\">", fp);
			if (json_is_integer(p))
				fprintf(fp, "%lld",
					(long long)json_integer_value(p));
			else
				E(json_string_value(p));
			fputc('/', fp);
			E(rj_str(c, "proto"));
			fputs("</span>: ", fp);
			E(rj_str(c, "why"));
			fputs("</li>\n", fp);
		}
		fputs("</ul>\n", fp);
		cites(fp, rj_arr(v, "cites"));
		for (const char *const *d = dia; *d; d++) {
			json_t *cmds = rj_arr(json_object_get(v, "commands"),
					      *d);

			if (json_array_size(cmds) == 0)
				continue;
			fprintf(fp, "<div>%s:</div><pre>", *d);
			json_array_foreach(cmds, j, c) {
				E(json_string_value(c));
				fputc('\n', fp);
			}
			fputs("</pre>\n", fp);
		}
	}
	if (json_array_size(rj_arr(r, "changes")) > 0) {
		fputs("<h3>Changes to how nodes run</h3>\n", fp);
		json_array_foreach(rj_arr(r, "changes"), i, v) {
			fputs("<div class=\"card\"><span class=\"node\">", fp);
			E(rj_str(v, "node"));
			fputs("</span><pre>", fp);
			E(rj_str(v, "change"));
			fputs("</pre>", fp);
			cites(fp, rj_arr(v, "cites"));
			fputs("</div>\n", fp);
		}
	}
	if (json_array_size(rj_arr(r, "mtu")) > 0) {
		fputs("<h3>MTU</h3>\n", fp);
		json_array_foreach(rj_arr(r, "mtu"), i, v) {
			fputs("<div class=\"card\"><span class=\"node\">", fp);
			E(rj_str(v, "node"));
			fputs("</span> ", fp);
			E(rj_str(v, "why"));
			fputs("<pre>", fp);
			E(rj_str(v, "command"));
			fputs("</pre>", fp);
			cites(fp, rj_arr(v, "cites"));
			fputs("</div>\n", fp);
		}
	}
}

/* The connectivity matrix as a coloured grid. */
static void matrix(FILE *fp, const json_t *rep)
{
	json_t *m = json_object_get(rep, "matrix"), *a, *b, *c;
	size_t i, j, k;
	char buf[32];

	if (!json_is_object(m))
		return;
	fputs("<h2>Connectivity</h2>\n<p class=\"muted\">Row: from, column: "
	      "to. Green reachable, amber NAT or one way, red filtered or "
	      "unreachable, grey not measured.</p>\n<table><tr><th></th>",
	      fp);
	json_array_foreach(rj_arr(m, "nodes"), i, a) {
		fputs("<th>", fp);
		E(json_string_value(a));
		fputs("</th>", fp);
	}
	fputs("</tr>\n", fp);
	json_array_foreach(rj_arr(m, "nodes"), i, a) {
		fputs("<tr><th>", fp);
		E(json_string_value(a));
		fputs("</th>", fp);
		json_array_foreach(rj_arr(m, "nodes"), j, b) {
			json_t *cell = NULL;

			if (i == j) {
				fputs("<td class=\"self\"></td>", fp);
				continue;
			}
			json_array_foreach(rj_arr(m, "cells"), k, c)
				if (strcmp(rj_str(c, "from"),
					   json_string_value(a)) == 0 &&
				    strcmp(rj_str(c, "to"),
					   json_string_value(b)) == 0)
					cell = c;
			if (cell == NULL) {
				fputs("<td class=\"unknown\">not measured</td>",
				      fp);
				continue;
			}
			fputs("<td class=\"", fp);
			E(rj_str(cell, "state"));
			fputs("\" title=\"", fp);
			json_array_foreach(rj_arr(cell, "details"), k, c) {
				E(json_string_value(c));
				fputs("&#10;", fp);
			}
			fputs("\"><b>", fp);
			E(rj_str(cell, "state"));
			fputs("</b>", fp);
			if (json_is_number(json_object_get(cell, "rtt_us")))
				fprintf(fp, "<br>%s",
					rj_fmt_us(rj_num(cell, "rtt_us", 0),
						  buf, sizeof(buf)));
			if (json_is_number(json_object_get(cell, "loss_pct")))
				fprintf(fp, "<br>loss %.2f%%",
					rj_num(cell, "loss_pct", 0));
			fputs("</td>", fp);
		}
		fputs("</tr>\n", fp);
	}
	fputs("</table>\n", fp);
}

#define HW 520
#define HH 220
#define ML 52
#define MR 14
#define MT 26
#define MB 40

/* A histogram of one heartbeat's RTT samples (30 bins, linear). */
static void histogram(FILE *fp, const json_t *hb)
{
	json_t *s = rj_arr(hb, "samples_us"), *v;
	size_t i, n = json_array_size(s);
	double lo = 0, hi = 0, w;
	int bins[30] = {0}, peak = 1;
	char b1[32];

	if (n == 0)
		return;
	json_array_foreach(s, i, v) {
		double x = json_number_value(v);

		if (i == 0 || x < lo)
			lo = x;
		if (i == 0 || x > hi)
			hi = x;
	}
	if (hi <= lo)
		hi = lo + 1;
	json_array_foreach(s, i, v) {
		int k = (int)((json_number_value(v) - lo) / (hi - lo) * 30);

		k = k < 0 ? 0 : k > 29 ? 29 : k;
		if (++bins[k] > peak)
			peak = bins[k];
	}
	w = (double)(HW - ML - MR) / 30;
	fprintf(fp, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		    "role=\"img\"><text x=\"%d\" y=\"16\">",
		HW, HH, HW, HH, ML);
	E(rj_str(hb, "from"));
	fputs(" &#8594; ", fp);
	E(rj_str(hb, "to"));
	fprintf(fp, ": RTT of %zu samples</text>\n", n);
	for (int k = 0; k < 30; k++) {
		double h = (double)bins[k] / peak * (HH - MT - MB);

		fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\" fill=\"#2e90fa\"/>\n",
			ML + k * w + 1, HH - MB - h, w - 2, h);
	}
	fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		    "stroke=\"#667085\"/>\n",
		ML, HH - MB, HW - MR, HH - MB);
	for (int t = 0; t <= 4; t++) {
		double x = lo + (hi - lo) * t / 4;

		fprintf(fp, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
			    "%s</text>\n",
			ML + (double)(HW - ML - MR) * t / 4, HH - MB + 16,
			rj_fmt_us(x, b1, sizeof(b1)));
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">round-trip "
		    "time</text>\n<text x=\"12\" y=\"%d\" transform=\"rotate(-90 "
		    "12 %d)\" text-anchor=\"middle\">samples</text>\n</svg>\n",
		(HW + ML) / 2, HH - 6, (HH - MB + MT) / 2, (HH - MB + MT) / 2);
}

/* Does a gate check name this collective? "min-busbw all_reduce",
 * "min-busbw all_reduce@1048576" or "allreduce busbw >= 8 GB/s": the
 * first word after an optional "min-busbw " must be the name exactly. */
static bool names_coll(const char *name, const char *coll)
{
	size_t n = strlen(coll);

	if (strncmp(name, "min-busbw ", 10) == 0)
		name += 10;
	return strncmp(name, coll, n) == 0 &&
	       (name[n] == '\0' || name[n] == ' ' || name[n] == '@');
}

/* The gate threshold for a collective: an explicit threshold_gbps,
 * "minimum X GB/s" in the detail (ncclcheck), or ">= X" in the name; -1
 * when no check names the collective. */
static double threshold(const json_t *gate, const char *coll)
{
	size_t i;
	json_t *c;

	json_array_foreach(rj_arr(gate, "checks"), i, c) {
		const char *name = rj_strd(c, "name", "");
		const char *min = strstr(rj_strd(c, "detail", ""), "minimum ");
		const char *ge = strstr(name, ">=");

		if (!names_coll(name, coll))
			continue;
		if (json_is_number(json_object_get(c, "threshold_gbps")))
			return rj_num(c, "threshold_gbps", -1);
		if (min != NULL && strstr(min, "GB/s") != NULL)
			return strtod(min + 8, NULL);
		if (ge != NULL)
			return strtod(ge + 2, NULL);
	}
	return -1;
}

/* Bus bandwidth against message size (log2 x axis) for one collective,
 * with the gate threshold as a dashed line. */
static void bw_chart(FILE *fp, const json_t *coll, const json_t *gate)
{
	json_t *pts = rj_arr(coll, "points"), *p;
	size_t i, n = json_array_size(pts);
	double xmin = 0, xmax = 0, ymax = 0, th;
	char b1[32];
	int pw = HW - ML - MR, ph = HH - MT - MB;

	if (n == 0)
		return;
	json_array_foreach(pts, i, p) {
		double x = rj_num(p, "bytes", 1), y = rj_num(p, "busbw_gbps", 0);

		x = log2(x > 1 ? x : 1);
		if (i == 0 || x < xmin)
			xmin = x;
		if (i == 0 || x > xmax)
			xmax = x;
		if (y > ymax)
			ymax = y;
	}
	th = threshold(gate, rj_str(coll, "name"));
	if (th > ymax)
		ymax = th;
	ymax = ymax > 0 ? ymax * 1.15 : 1;
	if (xmax <= xmin)
		xmax = xmin + 1;
	fprintf(fp, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		    "role=\"img\"><text x=\"%d\" y=\"16\">",
		HW, HH, HW, HH, ML);
	E(rj_str(coll, "name"));
	fputs(": bus bandwidth (GB/s) by message size</text>\n", fp);
	for (int t = 0; t <= 4; t++) {
		double y = ymax * t / 4;
		double py = MT + ph - (double)ph * t / 4;

		fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			    "stroke=\"#eaecf0\"/><text x=\"%d\" y=\"%.1f\" "
			    "text-anchor=\"end\">%.*f</text>\n",
			ML, py, HW - MR, py, ML - 6, py + 4, ymax < 4 ? 2 : 1,
			y);
	}
	for (int e = (int)ceil(xmin); e <= (int)floor(xmax); e++) {
		double px = ML + (e - xmin) / (xmax - xmin) * pw;

		if ((e - (int)ceil(xmin)) % 4 != 0)
			continue;
		fprintf(fp, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">"
			    "%s</text>\n",
			px, HH - MB + 16,
			rj_fmt_bytes(ldexp(1, e), b1, sizeof(b1)));
	}
	fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		    "stroke=\"#667085\"/>\n",
		ML, MT + ph, HW - MR, MT + ph);
	if (th >= 0) {
		double py = MT + ph - th / ymax * ph;

		fprintf(fp, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			    "stroke=\"#d92d20\" stroke-dasharray=\"6 4\"/>"
			    "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
			    "fill=\"#d92d20\">gate %.1f GB/s</text>\n",
			ML, py, HW - MR, py, HW - MR, py - 4, th);
	}
	fputs("<polyline fill=\"none\" stroke=\"#1570ef\" stroke-width=\"2\" "
	      "points=\"",
	      fp);
	json_array_foreach(pts, i, p) {
		double x = log2(rj_num(p, "bytes", 1) > 1 ? rj_num(p, "bytes", 1)
							  : 1);

		fprintf(fp, "%s%.1f,%.1f", i ? " " : "",
			ML + (x - xmin) / (xmax - xmin) * pw,
			MT + ph - rj_num(p, "busbw_gbps", 0) / ymax * ph);
	}
	fputs("\"/>\n", fp);
	json_array_foreach(pts, i, p) {
		double x = log2(rj_num(p, "bytes", 1) > 1 ? rj_num(p, "bytes", 1)
							  : 1);

		fprintf(fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
			    "fill=\"%s\"/>\n",
			ML + (x - xmin) / (xmax - xmin) * pw,
			MT + ph - rj_num(p, "busbw_gbps", 0) / ymax * ph,
			rj_int(p, "wrong", 0) > 0 ? "#d92d20" : "#1570ef");
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">message "
		    "size (log scale)</text>\n</svg>\n",
		(HW + ML) / 2, HH - 6);
}

/* Latency histograms and NCCL charts with the gate table. */
static void charts(FILE *fp, const json_t *rep)
{
	json_t *v, *c;
	size_t i, j;

	if (json_array_size(rj_arr(rep, "heartbeats")) > 0) {
		fputs("<h2>Heartbeat latency</h2>\n<div class=\"charts\">", fp);
		json_array_foreach(rj_arr(rep, "heartbeats"), i, v)
			histogram(fp, v);
		fputs("</div>\n", fp);
	}
	json_array_foreach(rj_arr(rep, "nccl"), i, v) {
		json_t *g = json_object_get(v, "gate");

		fputs("<h2>NCCL (ncclcheck from <span class=\"node\">", fp);
		E(rj_str(v, "host"));
		fprintf(fp, "</span>, %zu ranks)</h2>\n<div class=\"charts\">",
			json_array_size(rj_arr(v, "ranks")));
		json_array_foreach(rj_arr(v, "collectives"), j, c)
			bw_chart(fp, c, g);
		fputs("</div>\n", fp);
		if (json_array_size(rj_arr(g, "checks")) > 0) {
			fputs("<table><tr><th>gate check</th><th>result</th>"
			      "<th>detail</th></tr>\n",
			      fp);
			json_array_foreach(rj_arr(g, "checks"), j, c) {
				bool ok = json_is_true(json_object_get(c,
								       "passed"));

				fputs("<tr><td>", fp);
				E(rj_str(c, "name"));
				fprintf(fp, "</td><td><span class=\"badge "
					    "%s\">%s</span></td><td>",
					ok ? "b-pass" : "b-fail",
					ok ? "pass" : "fail");
				E(rj_str(c, "detail"));
				fputs("</td></tr>\n", fp);
			}
			fputs("</table>\n", fp);
		}
		if (json_array_size(rj_arr(v, "ranks")) > 0) {
			fputs("<table><tr><th>rank</th><th>host</th><th>GPU"
			      "</th><th>NCCL</th><th>CUDA</th><th>driver</th>"
			      "<th>interface</th><th>address</th></tr>\n",
			      fp);
			json_array_foreach(rj_arr(v, "ranks"), j, c) {
				fprintf(fp, "<tr><td>%lld</td><td>",
					rj_int(c, "rank", -1));
				E(rj_strd(c, "host", "?"));
				fputs("</td><td>", fp);
				if (rj_str(c, "gpu") != NULL)
					E(rj_str(c, "gpu"));
				else
					fprintf(fp, "%lld", rj_int(c, "gpu", -1));
				fputs("</td><td>", fp);
				E(rj_strd(c, "nccl_version", "?"));
				fputs("</td><td>", fp);
				E(rj_strd(c, "cuda_runtime", "?"));
				fputs("</td><td>", fp);
				E(rj_strd(c, "driver", "?"));
				fputs("</td><td class=\"code\">", fp);
				E(rj_strd(c, "iface", "?"));
				fputs("</td><td class=\"code\">", fp);
				E(rj_strd(c, "address", "?"));
				fputs("</td></tr>\n", fp);
			}
			fputs("</table>\n", fp);
		}
	}
}

/* Nodes and the input files. */
static void inputs(FILE *fp, const json_t *rep)
{
	json_t *v, *c;
	size_t i, j;

	fputs("<h2>Nodes and inputs</h2>\n<table><tr><th>node</th><th>ran"
	      "</th><th>container / WSL</th><th>files</th></tr>\n",
	      fp);
	json_array_foreach(rj_arr(rep, "nodes"), i, v) {
		fputs("<tr><td>", fp);
		E(rj_str(v, "name"));
		fputs("</td><td>", fp);
		json_array_foreach(rj_arr(v, "commands"), j, c) {
			fputs(j ? ", " : "", fp);
			E(json_string_value(c));
		}
		fputs("</td><td>", fp);
		E(rj_strd(v, "container", "-"));
		fputs(" / ", fp);
		E(rj_strd(v, "wsl", "-"));
		fputs("</td><td class=\"muted\">", fp);
		json_array_foreach(rj_arr(v, "files"), j, c) {
			fputs(j ? "<br>" : "", fp);
			E(json_string_value(c));
		}
		json_array_foreach(rj_arr(v, "errors"), j, c) {
			fputs("<br>error: ", fp);
			E(rj_str(c, "step"));
			fputs(": ", fp);
			E(rj_str(c, "message"));
		}
		fputs("</td></tr>\n", fp);
	}
	fputs("</table>\n", fp);
	if (json_array_size(rj_arr(rep, "skipped")) > 0) {
		fputs("<h3>Files that could not be used</h3><ul>\n", fp);
		json_array_foreach(rj_arr(rep, "skipped"), i, v) {
			fputs("<li><span class=\"code\">", fp);
			E(rj_str(v, "file"));
			if (rj_int(v, "line", 0) > 0)
				fprintf(fp, ":%lld:%lld", rj_int(v, "line", 0),
					rj_int(v, "column", 0));
			fputs("</span>: ", fp);
			E(rj_str(v, "why"));
			fputs("</li>\n", fp);
		}
		fputs("</ul>\n", fp);
	}
}

int report_render_html(const json_t *rep, FILE *fp)
{
	const char *v = rj_str(rep, "verdict");
	const json_t *n = json_object_get(rep, "counts");
	const char *word = strcmp(v, "fault") == 0	? "FAULT"
			   : strcmp(v, "warning") == 0 ? "WARNING"
							: "PASS";

	fprintf(fp, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
		    "charset=\"utf-8\">\n<meta name=\"viewport\" "
		    "content=\"width=device-width\">\n<title>netprobe report: "
		    "%s</title>\n<style>%s</style></head>\n<body>\n",
		word, css);
	fprintf(fp, "<div class=\"verdict v-%s\"><h1>netprobe report: %s</h1>"
		    "<p>%lld fault(s), %lld warning(s) on %lld node(s), from "
		    "%lld document(s)",
		strcmp(v, "fault") == 0	    ? "fault"
		: strcmp(v, "warning") == 0 ? "warning"
					    : "pass",
		word, rj_int(n, "faults", 0), rj_int(n, "warnings", 0),
		rj_int(n, "nodes", 0), rj_int(n, "inputs", 0));
	if (rj_int(n, "skipped", 0) > 0)
		fprintf(fp, "; %lld file(s) could not be used",
			rj_int(n, "skipped", 0));
	fputs(".</p></div>\n<main>\n", fp);
	findings(fp, rep, 2, "Faults", "fault");
	findings(fp, rep, 1, "Warnings", "warning");
	conflicts(fp, rep);
	recommendation(fp, rep);
	matrix(fp, rep);
	charts(fp, rep);
	inputs(fp, rep);
	fputs("<p class=\"muted\">Written by netprobe report ", fp);
	E(rj_str(rep, "version"));
	fputs(" (schema ", fp);
	E(rj_str(rep, "schema"));
	fputs(").</p>\n</main></body></html>\n", fp);
	return fflush(fp) == EOF || ferror(fp) ? -1 : 0;
}
