/* netprobe report: the HTML report's data views. The connectivity matrix
 * as a coloured grid, each NCCL run with its charts, gate and ranks, and
 * the nodes with the files they wrote. Every string from a document is
 * escaped (%s). */
#include <stdio.h>
#include <string.h>

#include "report_emit.h"

/* The items of a string array joined by sep (markup). */
static void html_joined(const struct out *o, const json_t *arr, const char *sep)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		out_f(o, "%-s%s", i ? sep : "", json_string_value(v));
}

/* One node's row: what ran, its layering, its files and errors. */
static void node_row(const struct out *o, const json_t *v)
{
	size_t j;
	json_t *c;

	out_f(o, "<tr><td>%s</td><td>", rj_str(v, "name"));
	html_joined(o, rj_arr(v, "commands"), ", ");
	out_f(o, "</td><td>%s / %s</td><td class=\"muted\">",
	      rj_strd(v, "container", "-"), rj_strd(v, "wsl", "-"));
	json_array_foreach(rj_arr(v, "files"), j, c) /* names only */
		out_f(o, "%-s%s", j ? "<br>" : "",
		      rj_basename(json_string_value(c)));
	json_array_foreach(rj_arr(v, "errors"), j, c)
		out_f(o, "<br>error: %s: %s%s%s%s", rj_str(c, "step"),
		      rj_str(c, "message"),
		      rj_str(c, "root_cause") ? " (root cause " : "",
		      rj_strd(c, "root_cause", ""),
		      rj_str(c, "root_cause") ? ")" : "");
	out_f(o, "</td></tr>\n");
}

/* HTML shows the nodes with the inputs, at the end, in one table. */
void html_nodes(const struct out *o, const json_t *nodes)
{
	size_t i;
	json_t *v;

	out_f(o, "<h2>Nodes and inputs</h2>\n<table><tr><th>node</th>"
		 "<th>ran</th><th>container / WSL</th><th>files</th></tr>\n");
	json_array_foreach(nodes, i, v)
		node_row(o, v);
	out_f(o, "</table>\n");
}

/* One cell of the grid, its observations in the tooltip. */
static void grid_cell(const struct out *o, const json_t *c, bool self)
{
	size_t k;
	json_t *d;
	char b[32];

	if (self) {
		out_f(o, "<td class=\"self\"></td>");
		return;
	}
	if (c == NULL) {
		out_f(o, "<td class=\"unknown\">not measured</td>");
		return;
	}
	out_f(o, "<td class=\"%s\" title=\"", rj_str(c, "state"));
	json_array_foreach(rj_arr(c, "details"), k, d)
		out_f(o, "%s&#10;", json_string_value(d));
	out_f(o, "\"><b>%s</b>", rj_str(c, "state"));
	if (json_is_number(json_object_get(c, "rtt_us")))
		out_f(o, "<br>%s",
		      rj_fmt_us(rj_num(c, "rtt_us", 0), b, sizeof(b)));
	if (json_is_number(json_object_get(c, "loss_pct")))
		out_f(o, "<br>loss %.2f%%", rj_num(c, "loss_pct", 0));
	if (json_is_number(json_object_get(c, "path_mtu")))
		out_f(o, "<br>mtu %lld", rj_int(c, "path_mtu", 0));
	out_f(o, "</td>");
}

/* The mesh: its summary, and the nodes that did not take part to the
 * end with why. */
void html_mesh(const struct out *o, const json_t *mesh)
{
	size_t i;
	json_t *p;

	out_f(o, "<h2>Mesh</h2>\n<p>%s</p>\n", rj_str(mesh, "summary"));
	if (json_array_size(rj_arr(mesh, "problems")) == 0)
		return;
	out_f(o, "<table><tr><th>node</th><th>state</th><th>why</th></tr>\n");
	json_array_foreach(rj_arr(mesh, "problems"), i, p)
		out_f(o,
		      "<tr><td>%s</td><td class=\"unreachable\">%s</td>"
		      "<td>%s</td></tr>\n",
		      rj_str(p, "name"), rj_str(p, "state"),
		      rj_strd(p, "why", ""));
	out_f(o, "</table>\n");
}

/* The connectivity matrix as a coloured grid. */
void html_matrix(const struct out *o, const struct rm_matrix *mx)
{
	out_f(o, "<h2>Connectivity</h2>\n<p class=\"muted\">Row: from, "
		 "column: to. Green reachable, amber NAT, one way or some "
		 "ports filtered, red filtered or unreachable, grey not "
		 "measured.</p>\n<table>"
		 "<tr><th></th>");
	for (size_t j = 0; j < mx->n; j++)
		out_f(o, "<th>%s</th>", mx->nodes[j]);
	out_f(o, "</tr>\n");
	for (size_t i = 0; i < mx->n; i++) {
		out_f(o, "<tr><th>%s</th>", mx->nodes[i]);
		for (size_t j = 0; j < mx->n; j++)
			grid_cell(o, rm_cell(mx, mx->nodes[i], mx->nodes[j]),
				  i == j);
		out_f(o, "</tr>\n");
	}
	out_f(o, "</table>\n");
}

/* The gate checks of a run, pass or fail. */
static void gate_table(const struct out *o, const json_t *checks)
{
	size_t j;
	json_t *c;

	out_f(o, "<table><tr><th>gate check</th><th>result</th><th>detail"
		 "</th></tr>\n");
	json_array_foreach(checks, j, c)
		out_f(o,
		      json_is_true(json_object_get(c, "passed"))
			      ? "<tr><td>%s</td><td><span class=\"badge "
				"b-pass\">pass</span></td><td>%s</td></tr>\n"
			      : "<tr><td>%s</td><td><span class=\"badge "
				"b-fail\">fail</span></td><td>%s</td></tr>\n",
		      rj_str(c, "name"), rj_str(c, "detail"));
	out_f(o, "</table>\n");
}

/* The ranks of a run: where each ran and with what. */
static void ranks_table(const struct out *o, const json_t *ranks)
{
	size_t j;
	json_t *c;

	out_f(o, "<table><tr><th>rank</th><th>host</th><th>GPU</th><th>"
		 "NCCL</th><th>CUDA</th><th>driver</th><th>interface</th>"
		 "<th>address</th></tr>\n");
	json_array_foreach(ranks, j, c) {
		out_f(o, "<tr><td>%lld</td><td>%s</td><td>",
		      rj_int(c, "rank", -1), rj_strd(c, "host", "?"));
		if (rj_str(c, "gpu") != NULL)
			out_f(o, "%s", rj_str(c, "gpu"));
		else
			out_f(o, "%lld", rj_int(c, "gpu", -1));
		out_f(o,
		      "</td><td>%s</td><td>%s</td><td>%s</td><td "
		      "class=\"code\">%s</td><td class=\"code\">%s</td></tr>\n",
		      rj_strd(c, "nccl_version", "?"),
		      rj_strd(c, "cuda_runtime", "?"),
		      rj_strd(c, "driver", "?"), rj_strd(c, "iface", "?"),
		      rj_strd(c, "address", "?"));
	}
	out_f(o, "</table>\n");
}

/* A run's bandwidth charts, gate and ranks. */
void html_nccl(const struct out *o, const struct rm_nccl *r)
{
	const json_t *checks =
		rj_arr(json_object_get(r->run, "gate"), "checks");
	const json_t *ranks = rj_arr(r->run, "ranks");

	const char *st = rj_strd(r->run, "started", "");
	json_t *hosts = json_array(), *c;
	size_t j;

	/* each run its own heading: when it started and where its ranks
	 * ran, so runs from one host are told apart */
	json_array_foreach(ranks, j, c)
		rj_add_unique(hosts, rj_strd(c, "host", "?"));
	out_f(o, "<h2>NCCL run");
	if (strlen(st) >= 19) { /* out_f's %s takes no precision */
		char when[40];

		snprintf(when, sizeof(when), " of %.10s %.8s UTC", st, st + 11);
		out_f(o, "%s", when);
	}
	out_f(o, ": %zu rank(s)", json_array_size(ranks));
	json_array_foreach(hosts, j, c) /* escaped: names from documents */
		out_f(o, "%-s%s", j ? ", " : " on ", json_string_value(c));
	out_f(o,
	      " <span class=\"muted\">(ncclcheck from <span class=\"node\">"
	      "%s</span>)</span></h2>\n<div class=\"charts\">",
	      rj_str(r->run, "host"));
	json_decref(hosts);
	for (size_t i = 0; i < r->n; i++)
		svg_bandwidth(o, &r->series[i]);
	out_f(o, "</div>\n");
	if (json_array_size(checks) > 0)
		gate_table(o, checks);
	html_nccl_hw(o, r->run);
	if (json_array_size(ranks) > 0)
		ranks_table(o, ranks);
}
