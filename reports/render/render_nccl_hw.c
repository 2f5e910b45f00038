/* netprobe report, render: the hardware part of an ncclcheck run (its
 * "hardware" and "pairs" keys, passed through by decide_nccl.c): the
 * bound the topology allows and each collective's share of it, every
 * GPU as it measured alone, and the pair matrix drawn as a grid. */
#include <string.h>

#include "report.h"
#include "report_emit.h"

/* The pair test's sentence, the same in every format: its rounds and
 * slow pairs, the rank they share, and the Slurm option that leaves it
 * out, between pre and post (the format's code markup). */
static void pairs_said(const struct out *o, const json_t *pr,
		       const char *pre, const char *post)
{
	out_f(o, "%lld rounds, %.2f s, %zu slow pair(s)",
	      rj_int(pr, "rounds", 0), rj_num(pr, "seconds", 0),
	      json_array_size(rj_arr(pr, "slow")));
	if (json_is_integer(json_object_get(pr, "common_rank")))
		out_f(o, ", rank %lld common to them",
		      rj_int(pr, "common_rank", -1));
	if (rj_str(pr, "slurm_exclude") != NULL)
		out_f(o, "; leave out: %-s--exclude=%s%-s", pre,
		      rj_str(pr, "slurm_exclude"), post);
}

/* The bound, the shares, one line per GPU; the pairs' summary and, up to
 * 16 ranks, the matrix. Text and Markdown (a list item per line). */
void text_nccl_hw(const struct out *o, const json_t *run, const char *lead)
{
	const json_t *hw = json_object_get(run, "hardware");
	const json_t *pr = json_object_get(run, "pairs");
	const char *k;
	json_t *v;
	size_t j;

	if (json_is_object(hw)) {
		double b = rj_num(hw, "bound_gbps", 0);

		if (b > 0)
			out_f(o, "%-shardware bound %.1f GB/s busbw (%s)\n",
			      lead, b, rj_str(hw, "bound_how"));
		else
			out_f(o, "%-shardware bound: cannot tell: %s\n", lead,
			      rj_str(hw, "bound_how"));
		json_object_foreach(json_object_get(hw, "efficiency_pct"), k,
				    v)
			out_f(o, "%-s%s: peak busbw %.1f %% of the bound\n",
			      lead, k, json_number_value(v));
		json_array_foreach(rj_arr(hw, "gpus"), j, v)
			out_f(o, "%-sGPU of rank %lld on %s: copy %.0f GB/s, "
			      "host-to-device %.1f, device-to-host %.1f GB/s, "
			      "PCIe Gen%lld x%lld (max Gen%lld x%lld), %lld "
			      "NVLink links\n", lead, rj_int(v, "rank", -1),
			      rj_strd(v, "host", "?"), rj_num(v, "copy_gbps", 0),
			      rj_num(v, "h2d_gbps", 0), rj_num(v, "d2h_gbps", 0),
			      rj_int(v, "pcie_gen", 0), rj_int(v, "pcie_width", 0),
			      rj_int(v, "pcie_max_gen", 0),
			      rj_int(v, "pcie_max_width", 0),
			      rj_int(v, "nvlinks", 0));
	}
	if (!json_is_object(pr))
		return;
	out_f(o, "%-spairs: ", lead);
	pairs_said(o, pr, "", "");
	out_f(o, "\n");
}

/* The colour of a pair: its share of the best pair. */
static const char *shade(double v, double best)
{
	double r = best > 0 ? v / best : 0;

	return r >= 0.9 ? "#c8e6c9" : r >= 0.75 ? "#fff9c4" : "#ffcdd2";
}

/* Tables: the bound and shares, the GPUs, then the pair matrix as a grid
 * coloured by each pair's share of the best (up to 64 ranks). */
void html_nccl_hw(const struct out *o, const json_t *run)
{
	const json_t *hw = json_object_get(run, "hardware");
	const json_t *pr = json_object_get(run, "pairs");
	const json_t *m = rj_arr(pr, "matrix_gbps");
	const char *k;
	json_t *v, *row, *cell;
	size_t j, i, n = json_array_size(m);
	double best = 0;

	if (json_is_object(hw)) {
		double b = rj_num(hw, "bound_gbps", 0);

		out_f(o, "<h3>Hardware</h3>\n<p>");
		if (b > 0)
			out_f(o, "Bound %.1f GB/s busbw (%s).", b,
			      rj_str(hw, "bound_how"));
		else
			out_f(o, "Bound: cannot tell: %s.",
			      rj_str(hw, "bound_how"));
		json_object_foreach(json_object_get(hw, "efficiency_pct"), k,
				    v)
			out_f(o, " %s: %.1f %% of it.", k,
			      json_number_value(v));
		out_f(o, "</p>\n<table><tr><th>rank</th><th>host</th><th>copy "
			 "GB/s</th><th>H2D GB/s</th><th>D2H GB/s</th><th>PCIe"
			 " (max)</th><th>NVLink</th></tr>\n");
		json_array_foreach(rj_arr(hw, "gpus"), j, v)
			out_f(o, "<tr><td>%lld</td><td>%s</td><td>%.0f</td><td>"
			      "%.1f</td><td>%.1f</td><td>Gen%lld x%lld (Gen%lld"
			      " x%lld)</td><td>%lld</td></tr>\n",
			      rj_int(v, "rank", -1), rj_strd(v, "host", "?"),
			      rj_num(v, "copy_gbps", 0), rj_num(v, "h2d_gbps", 0),
			      rj_num(v, "d2h_gbps", 0), rj_int(v, "pcie_gen", 0),
			      rj_int(v, "pcie_width", 0),
			      rj_int(v, "pcie_max_gen", 0),
			      rj_int(v, "pcie_max_width", 0),
			      rj_int(v, "nvlinks", 0));
		out_f(o, "</table>\n");
	}
	if (!json_is_object(pr))
		return;
	out_f(o, "<h3>Pairs</h3>\n<p>");
	pairs_said(o, pr, "<code>", "</code>");
	out_f(o, ".</p>\n");
	if (n == 0 || n > 64)
		return;
	json_array_foreach(m, i, row)
		json_array_foreach(row, j, cell)
			if (json_number_value(cell) > best)
				best = json_number_value(cell);
	out_f(o, "<table class=\"matrix\"><tr><th>GB/s</th>");
	for (i = 0; i < n; i++)
		out_f(o, "<th>%zu</th>", i);
	out_f(o, "</tr>\n");
	json_array_foreach(m, i, row) {
		out_f(o, "<tr><th>%zu</th>", i);
		json_array_foreach(row, j, cell) {
			if (!json_is_number(cell)) {
				out_f(o, "<td></td>");
				continue;
			}
			out_f(o, "<td style=\"background:%-s\">%.0f</td>",
			      shade(json_number_value(cell), best),
			      json_number_value(cell));
		}
		out_f(o, "</tr>\n");
	}
	out_f(o, "</table>\n");
}
