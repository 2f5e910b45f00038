/* netprobe report, model: the data behind the charts. Heartbeat statistics
 * per protocol and the histogram of RTT samples; per collective the bus
 * bandwidth by message size (log2), the range a chart shows and the gate
 * threshold that applies to it. Renderers draw these; they compute none. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_model.h"

/* One protocol's statistics (zeros for what was not measured). */
static struct rm_stats stats_of(const json_t *s, const char *proto)
{
	const json_t *rtt = json_object_get(s, "rtt_us");

	return (struct rm_stats){proto, rj_num(rtt, "median", 0),
				 rj_num(rtt, "p99", 0),
				 rj_num(s, "loss_pct", 0)};
}

/* The smallest "nice" step (1, 2 or 5 times a power of ten) at least
 * raw. */
static double nice_step(double raw)
{
	double p = pow(10, floor(log10(raw))), f = raw / p;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/* A linear axis over [lo, hi] widened to whole nice steps, about five
 * ticks (never more than RM_TICKS_MAX); integral steps when whole says
 * so (counts). */
static void nice_axis(double lo, double hi, bool whole, struct rm_axis *a)
{
	double step;

	if (hi <= lo)
		hi = lo + (whole ? 1 : fabs(lo) > 0 ? fabs(lo) : 1);
	step = nice_step((hi - lo) / 5);
	if (whole && step < 1)
		step = 1;
	a->lo = floor(lo / step) * step;
	a->hi = ceil(hi / step) * step;
	for (a->nticks = 0; a->nticks < RM_TICKS_MAX; a->nticks++) {
		double t = a->lo + a->nticks * step;

		if (t > a->hi + step / 2)
			break;
		a->ticks[a->nticks] = fabs(t) < step / 1e6 ? 0 : t;
	}
}

/* A log2 axis over [lo, hi] (exponents): a tick every 1, 2, 4... powers of
 * two, at multiples of that step, six at most. */
static void log2_axis(double lo, double hi, struct rm_axis *a)
{
	int step = 1, first;

	a->lo = lo;
	a->hi = hi > lo ? hi : lo + 1;
	while ((floor(a->hi) - ceil(a->lo)) / step + 1 > 6)
		step *= 2;
	first = (int)ceil(a->lo / step) * step;
	a->nticks = 0;
	for (int e = first; e <= a->hi && a->nticks < RM_TICKS_MAX; e += step)
		a->ticks[a->nticks++] = e;
}

/* The histogram of the RTT samples: RM_BINS equal bins over the nice
 * range that holds them, so the ticks fall on bin edges. */
static void histogram(const json_t *samples, struct rm_heartbeat *h)
{
	double lo = 0, hi = 0;
	size_t i;
	json_t *v;

	h->nsamples = json_array_size(samples);
	h->peak = 1;
	if (h->nsamples == 0)
		return;
	json_array_foreach(samples, i, v) {
		double x = json_number_value(v);

		if (i == 0 || x < lo)
			lo = x;
		if (i == 0 || x > hi)
			hi = x;
	}
	nice_axis(lo, hi, false, &h->x);
	json_array_foreach(samples, i, v) {
		int k = (int)((json_number_value(v) - h->x.lo) /
			      (h->x.hi - h->x.lo) * RM_BINS);

		k = k < 0 ? 0 : k > RM_BINS - 1 ? RM_BINS - 1 : k;
		if (++h->bins[k] > h->peak)
			h->peak = h->bins[k];
	}
	nice_axis(0, h->peak, true, &h->y);
}

/* One heartbeat run of the document. */
static void heartbeat(const json_t *hb, struct rm_heartbeat *h)
{
	static const char *const proto[] = {"tcp", "udp"};
	const json_t *s;

	h->from = rj_str(hb, "from");
	h->to = rj_str(hb, "to");
	for (int p = 0; p < 2; p++)
		if (json_is_object(s = json_object_get(hb, proto[p])))
			h->stats[h->nstats++] = stats_of(s, proto[p]);
	s = json_object_get(hb, "tcp");
	h->main = json_is_object(s)
			  ? stats_of(s, "tcp")
			  : stats_of(json_object_get(hb, "udp"), "udp");
	h->proto = "TCP"; /* samples_us are TCP round trips */
	histogram(rj_arr(hb, "samples_us"), h);
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

		if (coll == NULL || !names_coll(name, coll))
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

/* log2 of a point's message size (1 byte at least). */
static double size_log2(const json_t *p)
{
	double b = rj_num(p, "bytes", 1);

	return log2(b > 1 ? b : 1);
}

/* One collective's series and the range its chart shows: every point
 * from 0 GB/s, and the gate threshold when it lies near the data; one far
 * above (more than twice the peak) would flatten the series under it, so
 * the chart keeps the data's scale and says where the gate is. Returns 0
 * or -1. */
static int series(struct report_model *m, const json_t *coll,
		  const json_t *gate, struct rm_series *s)
{
	const json_t *pts = rj_arr(coll, "points");
	double xmin = 0, xmax = 0, ymax = 0;
	size_t i;
	json_t *p;

	s->coll = coll;
	s->threshold_gbps = threshold(gate, rj_str(coll, "name"));
	if ((s->pts = rj_alloc(&m->mem, json_array_size(pts),
			       sizeof(*s->pts))) == NULL)
		return -1;
	json_array_foreach(pts, i, p) {
		struct rm_point *q = &s->pts[s->n++];

		q->x = size_log2(p);
		q->busbw_gbps = rj_num(p, "busbw_gbps", 0);
		q->wrong = rj_int(p, "wrong", 0) > 0;
		if (i == 0 || q->x < xmin)
			xmin = q->x;
		if (i == 0 || q->x > xmax)
			xmax = q->x;
		if (q->busbw_gbps > ymax)
			ymax = q->busbw_gbps;
	}
	if (s->threshold_gbps > ymax) {
		if (ymax > 0 && s->threshold_gbps > 2 * ymax)
			s->gate_above = true;
		else
			ymax = s->threshold_gbps;
	}
	nice_axis(0, ymax > 0 ? ymax * 1.05 : 1, false, &s->y);
	log2_axis(xmin, xmax, &s->x);
	return 0;
}

/* One ncclcheck run: a series per collective. Returns 0 or -1. */
static int nccl_run(struct report_model *m, const json_t *run,
		    struct rm_nccl *r)
{
	const json_t *colls = rj_arr(run, "collectives");
	const json_t *gate = json_object_get(run, "gate");
	size_t j;
	json_t *c;

	r->run = run;
	r->series =
		rj_alloc(&m->mem, json_array_size(colls), sizeof(*r->series));
	if (r->series == NULL)
		return -1;
	json_array_foreach(colls, j, c)
		if (series(m, c, gate, &r->series[r->n++]) < 0)
			return -1;
	return 0;
}

int rm_charts(struct report_model *m)
{
	const json_t *hbs = rj_arr(m->doc, "heartbeats");
	const json_t *nccl = rj_arr(m->doc, "nccl");
	size_t i;
	json_t *v;

	m->hbs = rj_alloc(&m->mem, json_array_size(hbs), sizeof(*m->hbs));
	m->nccl = rj_alloc(&m->mem, json_array_size(nccl), sizeof(*m->nccl));
	if (m->hbs == NULL || m->nccl == NULL)
		return -1;
	json_array_foreach(hbs, i, v)
		heartbeat(v, &m->hbs[m->nhbs++]);
	json_array_foreach(nccl, i, v)
		if (nccl_run(m, v, &m->nccl[m->nnccl++]) < 0)
			return -1;
	return 0;
}
