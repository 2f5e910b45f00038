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

/* The histogram of the RTT samples: RM_BINS equal bins over their range. */
static void histogram(const json_t *samples, struct rm_heartbeat *h)
{
	size_t i;
	json_t *v;

	h->nsamples = json_array_size(samples);
	h->peak = 1;
	if (h->nsamples == 0)
		return;
	json_array_foreach(samples, i, v) {
		double x = json_number_value(v);

		if (i == 0 || x < h->lo_us)
			h->lo_us = x;
		if (i == 0 || x > h->hi_us)
			h->hi_us = x;
	}
	if (h->hi_us <= h->lo_us)
		h->hi_us = h->lo_us + 1;
	json_array_foreach(samples, i, v) {
		int k = (int)((json_number_value(v) - h->lo_us) /
			      (h->hi_us - h->lo_us) * RM_BINS);

		k = k < 0 ? 0 : k > RM_BINS - 1 ? RM_BINS - 1 : k;
		if (++h->bins[k] > h->peak)
			h->peak = h->bins[k];
	}
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

/* One collective's series and the range its chart shows: every point, the
 * threshold, and 15% headroom above. Returns 0 or -1. */
static int series(struct report_model *m, const json_t *coll,
		  const json_t *gate, struct rm_series *s)
{
	const json_t *pts = rj_arr(coll, "points");
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
		if (i == 0 || q->x < s->xmin)
			s->xmin = q->x;
		if (i == 0 || q->x > s->xmax)
			s->xmax = q->x;
		if (q->busbw_gbps > s->ymax)
			s->ymax = q->busbw_gbps;
	}
	if (s->threshold_gbps > s->ymax)
		s->ymax = s->threshold_gbps;
	s->ymax = s->ymax > 0 ? s->ymax * 1.15 : 1;
	if (s->xmax <= s->xmin)
		s->xmax = s->xmin + 1;
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
