/* netprobe report: the HTML report's charts as inline SVG. A histogram of
 * a heartbeat's RTT samples, and bus bandwidth against message size (log
 * scale) with the gate threshold dashed. The model holds the data and the
 * ranges (model_charts.c); this file only maps them to pixels. */
#include <math.h>

#include "report_emit.h"

#define HW 520 /* chart size and margins, pixels */
#define HH 220
#define ML 52
#define MR 14
#define MT 26
#define MB 40

/* The frame and the title's start: <svg ...><text ...>. */
static void svg_open(const struct out *o)
{
	fprintf(o->fp,
		"<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\"><text x=\"%d\" y=\"16\">",
		HW, HH, HW, HH, ML);
}

/* The x axis line at height y. */
static void x_axis(const struct out *o, int y)
{
	fprintf(o->fp,
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"#667085\"/>\n",
		ML, y, HW - MR, y);
}

/* A tick label under the x axis. */
static void x_label(const struct out *o, double x, const char *label)
{
	fprintf(o->fp,
		"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
		x, HH - MB + 16, label);
}

void svg_histogram(const struct out *o, const struct rm_heartbeat *h)
{
	double w = (double)(HW - ML - MR) / RM_BINS;
	char b[32];

	if (h->nsamples == 0)
		return;
	svg_open(o);
	out_f(o, "%s &#8594; %s: RTT of %zu samples</text>\n", h->from, h->to,
	      h->nsamples);
	for (int k = 0; k < RM_BINS; k++) {
		double ht = (double)h->bins[k] / h->peak * (HH - MT - MB);

		fprintf(o->fp,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"#2e90fa\"/>\n",
			ML + k * w + 1, HH - MB - ht, w - 2, ht);
	}
	x_axis(o, HH - MB);
	for (int t = 0; t <= 4; t++)
		x_label(o, ML + (double)(HW - ML - MR) * t / 4,
			rj_fmt_us(h->lo_us + (h->hi_us - h->lo_us) * t / 4, b,
				  sizeof(b)));
	fprintf(o->fp,
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">round-trip "
		"time</text>\n<text x=\"12\" y=\"%d\" transform=\"rotate(-90 "
		"12 %d)\" text-anchor=\"middle\">samples</text>\n</svg>\n",
		(HW + ML) / 2, HH - 6, (HH - MB + MT) / 2, (HH - MB + MT) / 2);
}

/* A point's position in the bandwidth chart. */
static void place(const struct rm_series *s, const struct rm_point *p,
		  double *px, double *py)
{
	int pw = HW - ML - MR, ph = HH - MT - MB;

	*px = ML + (p->x - s->xmin) / (s->xmax - s->xmin) * pw;
	*py = MT + ph - p->busbw_gbps / s->ymax * ph;
}

/* Grid lines and labels: GB/s up the side, sizes every 16x along. */
static void bw_axes(const struct out *o, const struct rm_series *s)
{
	int pw = HW - ML - MR, ph = HH - MT - MB;
	char b[32];

	for (int t = 0; t <= 4; t++) {
		double py = MT + ph - (double)ph * t / 4;

		fprintf(o->fp,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"#eaecf0\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%.*f</text>\n",
			ML, py, HW - MR, py, ML - 6, py + 4,
			s->ymax < 4 ? 2 : 1, s->ymax * t / 4);
	}
	for (int e = (int)ceil(s->xmin); e <= (int)floor(s->xmax); e++)
		if ((e - (int)ceil(s->xmin)) % 4 == 0)
			x_label(o,
				ML + (e - s->xmin) / (s->xmax - s->xmin) * pw,
				rj_fmt_bytes(ldexp(1, e), b, sizeof(b)));
	x_axis(o, MT + ph);
}

void svg_bandwidth(const struct out *o, const struct rm_series *s)
{
	double px, py, th = s->threshold_gbps;

	if (s->n == 0)
		return;
	svg_open(o);
	out_f(o, "%s: bus bandwidth (GB/s) by message size</text>\n",
	      rj_str(s->coll, "name"));
	bw_axes(o, s);
	if (th >= 0) {
		py = MT + (HH - MT - MB) - th / s->ymax * (HH - MT - MB);
		fprintf(o->fp,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"#d92d20\" stroke-dasharray=\"6 4\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
			"fill=\"#d92d20\">gate %.1f GB/s</text>\n",
			ML, py, HW - MR, py, HW - MR, py - 4, th);
	}
	fputs("<polyline fill=\"none\" stroke=\"#1570ef\" stroke-width=\"2\" "
	      "points=\"",
	      o->fp);
	for (size_t i = 0; i < s->n; i++) {
		place(s, &s->pts[i], &px, &py);
		fprintf(o->fp, "%s%.1f,%.1f", i ? " " : "", px, py);
	}
	fputs("\"/>\n", o->fp);
	for (size_t i = 0; i < s->n; i++) {
		place(s, &s->pts[i], &px, &py);
		fprintf(o->fp,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
			"fill=\"%s\"/>\n",
			px, py, s->pts[i].wrong ? "#d92d20" : "#1570ef");
	}
	fprintf(o->fp,
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">message "
		"size (log scale)</text>\n</svg>\n",
		(HW + ML) / 2, HH - 6);
}
