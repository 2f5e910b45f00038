/* netprobe report: the HTML report's charts as inline SVG. A histogram of
 * a heartbeat's RTT samples, and bus bandwidth against message size (log
 * scale) with the gate threshold dashed. The model holds the data, the
 * ranges and the ticks (model_charts.c); this file maps them to pixels
 * and sizes the margins to the labels, so none is clipped. */
#include <math.h>
#include <string.h>

#include "report_emit.h"

#define HW 520   /* chart size, pixels */
#define HH 230
#define MT 28    /* above the plot: the title */
#define MB 44    /* below: tick labels and the axis title */
#define CHAR_W 7 /* an 11px label's widest average glyph, pixels */

/* The plot area of one chart: margins from its labels. */
struct frame {
	int ml, mr; /* left (y labels, axis title), right (last x label) */
};

/* Pixels a label takes. */
static int text_w(const char *s)
{
	return (int)strlen(s) * CHAR_W;
}

/* A linear tick's label ("%g": 0, 2.5, 100, 1e+06 never reached). */
static void num(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%g", v);
}

/* Margins for y labels ylab[0..ny) and the x axis' last label. */
static struct frame frame_for(char ylab[][32], int ny, const char *xlast)
{
	struct frame f = {0, 14};
	int w = 0;

	for (int i = 0; i < ny; i++)
		if (text_w(ylab[i]) > w)
			w = text_w(ylab[i]);
	f.ml = 24 + w + 8; /* the rotated axis title, labels, a gap */
	if (xlast != NULL && text_w(xlast) / 2 + 4 > f.mr)
		f.mr = text_w(xlast) / 2 + 4;
	return f;
}

/* The frame and the title's start: <svg ...><text ...>. */
static void svg_open(const struct out *o, const struct frame *f)
{
	fprintf(o->fp,
		"<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\"><text x=\"%d\" y=\"17\" "
		"font-weight=\"600\">",
		HW, HH, HW, HH, f->ml);
}

/* Horizontal grid lines with their labels up the side. */
static void y_grid(const struct out *o, const struct frame *f,
		   const struct rm_axis *a, char lab[][32])
{
	int ph = HH - MT - MB;

	for (int t = 0; t < a->nticks; t++) {
		double py = MT + ph - (a->ticks[t] - a->lo) / (a->hi - a->lo) *
					      ph;

		fprintf(o->fp,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"#eaecf0\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%s</text>\n",
			f->ml, py, HW - f->mr, py, f->ml - 6, py + 4, lab[t]);
	}
}

/* The axes' lines, the x tick labels and both axis titles (units in
 * them). */
static void axes(const struct out *o, const struct frame *f, double *xs,
		 char xlab[][32], int nx, const char *xtitle,
		 const char *ytitle)
{
	int y0 = HH - MB, mid = (MT + HH - MB) / 2;

	fprintf(o->fp,
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"#667085\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\" stroke=\"#667085\"/>\n",
		f->ml, y0, HW - f->mr, y0, f->ml, MT, f->ml, y0);
	for (int t = 0; t < nx; t++)
		fprintf(o->fp,
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"#667085\"/><text x=\"%.1f\" y=\"%d\" "
			"text-anchor=\"middle\">%s</text>\n",
			xs[t], y0, xs[t], y0 + 4, xs[t], y0 + 17, xlab[t]);
	fprintf(o->fp,
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n"
		"<text x=\"13\" y=\"%d\" transform=\"rotate(-90 13 %d)\" "
		"text-anchor=\"middle\">%s</text>\n",
		(f->ml + HW - f->mr) / 2, HH - 8, xtitle, mid, mid, ytitle);
}

/* The unit an RTT axis reads in: its divisor and name. */
static double rtt_unit(double hi_us, const char **name)
{
	if (hi_us >= 1e6) {
		*name = "s";
		return 1e6;
	}
	if (hi_us >= 1e4) {
		*name = "ms";
		return 1e3;
	}
	*name = "\xc2\xb5s"; /* micro sign, UTF-8 */
	return 1;
}

void svg_histogram(const struct out *o, const struct rm_heartbeat *h)
{
	char ylab[RM_TICKS_MAX][32], xlab[RM_TICKS_MAX][32], title[64];
	double xs[RM_TICKS_MAX], w, div;
	const char *unit;
	struct frame f;
	int pw, ph = HH - MT - MB;

	if (h->nsamples == 0)
		return;
	div = rtt_unit(h->x.hi, &unit);
	for (int t = 0; t < h->y.nticks; t++)
		num(h->y.ticks[t], ylab[t], sizeof(ylab[t]));
	for (int t = 0; t < h->x.nticks; t++)
		num(h->x.ticks[t] / div, xlab[t], sizeof(xlab[t]));
	f = frame_for(ylab, h->y.nticks,
		      h->x.nticks ? xlab[h->x.nticks - 1] : NULL);
	pw = HW - f.ml - f.mr;
	w = (double)pw / RM_BINS;
	svg_open(o, &f);
	out_f(o, "%s &#8594; %s: %s round trips, %zu samples</text>\n",
	      h->from, h->to, h->proto, h->nsamples);
	y_grid(o, &f, &h->y, ylab);
	for (int k = 0; k < RM_BINS; k++) {
		double ht = (double)h->bins[k] / h->y.hi * ph;

		if (h->bins[k] == 0)
			continue;
		fprintf(o->fp,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"#2e90fa\"/>\n",
			f.ml + k * w + 1, HH - MB - ht, w - 2, ht);
	}
	for (int t = 0; t < h->x.nticks; t++)
		xs[t] = f.ml + (h->x.ticks[t] - h->x.lo) /
				       (h->x.hi - h->x.lo) * pw;
	snprintf(title, sizeof(title), "round-trip time (%s)", unit);
	axes(o, &f, xs, xlab, h->x.nticks, title, "samples");
	fputs("</svg>\n", o->fp);
}

/* A point's position in the bandwidth chart; values above the axis stay
 * on its top edge. */
static void place(const struct rm_series *s, const struct frame *f,
		  const struct rm_point *p, double *px, double *py)
{
	int pw = HW - f->ml - f->mr, ph = HH - MT - MB;
	double y = p->busbw_gbps < s->y.hi ? p->busbw_gbps : s->y.hi;

	*px = f->ml + (p->x - s->x.lo) / (s->x.hi - s->x.lo) * pw;
	*py = MT + ph - (y - s->y.lo) / (s->y.hi - s->y.lo) * ph;
}

/* The gate: a dashed line where it falls on the chart, or a note at the
 * top when it lies far above the data. */
static void gate(const struct out *o, const struct rm_series *s,
		 const struct frame *f)
{
	int ph = HH - MT - MB;
	double th = s->threshold_gbps, py;

	if (th < 0)
		return;
	if (s->gate_above) {
		fprintf(o->fp,
			"<text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
			"fill=\"#d92d20\">&#8593; gate %g GB/s, above this "
			"scale</text>\n",
			HW - f->mr, MT + 12, th);
		return;
	}
	py = MT + ph - (th - s->y.lo) / (s->y.hi - s->y.lo) * ph;
	fprintf(o->fp,
		"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		"stroke=\"#d92d20\" stroke-dasharray=\"6 4\"/>"
		"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
		"fill=\"#d92d20\">gate %g GB/s</text>\n",
		f->ml, py, HW - f->mr, py, HW - f->mr, py - 4, th);
}

void svg_bandwidth(const struct out *o, const struct rm_series *s)
{
	char ylab[RM_TICKS_MAX][32], xlab[RM_TICKS_MAX][32];
	double xs[RM_TICKS_MAX], px, py;
	struct frame f;

	if (s->n == 0)
		return;
	for (int t = 0; t < s->y.nticks; t++)
		num(s->y.ticks[t], ylab[t], sizeof(ylab[t]));
	for (int t = 0; t < s->x.nticks; t++)
		rj_fmt_bytes(ldexp(1, (int)s->x.ticks[t]), xlab[t],
			     sizeof(xlab[t]));
	f = frame_for(ylab, s->y.nticks,
		      s->x.nticks ? xlab[s->x.nticks - 1] : NULL);
	svg_open(o, &f);
	out_f(o, "%s: bus bandwidth by message size</text>\n",
	      rj_str(s->coll, "name"));
	y_grid(o, &f, &s->y, ylab);
	gate(o, s, &f);
	fputs("<polyline fill=\"none\" stroke=\"#1570ef\" stroke-width=\"2\" "
	      "points=\"",
	      o->fp);
	for (size_t i = 0; i < s->n; i++) {
		place(s, &f, &s->pts[i], &px, &py);
		fprintf(o->fp, "%s%.1f,%.1f", i ? " " : "", px, py);
	}
	fputs("\"/>\n", o->fp);
	for (size_t i = 0; i < s->n; i++) {
		place(s, &f, &s->pts[i], &px, &py);
		fprintf(o->fp,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
			"fill=\"%s\"/>\n",
			px, py, s->pts[i].wrong ? "#d92d20" : "#1570ef");
	}
	for (int t = 0; t < s->x.nticks; t++)
		xs[t] = f.ml + (s->x.ticks[t] - s->x.lo) /
				       (s->x.hi - s->x.lo) *
				       (HW - f.ml - f.mr);
	axes(o, &f, xs, xlab, s->x.nticks,
	     "message size (bytes, log scale)", "bus bandwidth (GB/s)");
	fputs("</svg>\n", o->fp);
}
