/* The gate: decides pass or fail over the results (busbw minima at the
 * peak or a size, latency, wrong elements, timeouts). Pure. */
#include "nc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void add(struct nc_gate *g, bool passed, const char *name,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Appends one check; a failed check fails the gate. */
static void add(struct nc_gate *g, bool passed, const char *name,
		const char *fmt, ...)
{
	struct nc_gate_check *c;
	va_list ap;

	if (!passed)
		g->passed = false;
	if (g->n == NC_GATE_MAX)
		return;
	c = &g->v[g->n++];
	c->passed = passed;
	snprintf(c->name, sizeof(c->name), "%s", name);
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
}

/* Best busbw of a collective at exactly `bytes` (either placement). */
static bool at_size(const struct nc_results *r, int coll,
		    unsigned long long bytes, double *busbw)
{
	bool any = false;

	*busbw = 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].coll == coll && r->v[i].bytes == bytes) {
			if (!any || r->v[i].busbw_gbps > *busbw)
				*busbw = r->v[i].busbw_gbps;
			any = true;
		}
	return any;
}

/* One --min-busbw rule against one collective. */
static void check_minbw(struct nc_gate *g, const struct nc_minbw *m,
			const struct nc_results *r, int coll)
{
	const char *cn = nc_coll_get(coll)->name;
	char name[64];
	unsigned long long bytes;
	double bw;

	if (m->bytes == 0) {
		snprintf(name, sizeof(name), "min-busbw %s", cn);
		if (!nc_peak(r, coll, &bw, &bytes)) {
			add(g, false, name, "no result for %s", cn);
			return;
		}
		add(g, bw >= m->gbps, name,
		    "peak busbw %.2f GB/s at %llu B, minimum %.2f GB/s", bw,
		    bytes, m->gbps);
		return;
	}
	snprintf(name, sizeof(name), "min-busbw %s@%llu", cn, m->bytes);
	if (!at_size(r, coll, m->bytes, &bw)) {
		add(g, false, name, "size %llu B was not measured for %s",
		    m->bytes, cn);
		return;
	}
	add(g, bw >= m->gbps, name,
	    "busbw %.2f GB/s at %llu B, minimum %.2f GB/s", bw, m->bytes,
	    m->gbps);
}

/* The latency rule: the time at the smallest measured size (or the given
 * size) of every collective must stay under the limit. */
static void check_latency(struct nc_gate *g, const struct nc_opts *o,
			  const struct nc_results *r, int coll)
{
	const char *cn = nc_coll_get(coll)->name;
	unsigned long long bytes = o->latency_bytes;
	double worst = -1;
	char name[64];

	if (bytes == 0) {
		bool any = false;

		for (size_t i = 0; i < r->n; i++)
			if (r->v[i].coll == coll &&
			    (!any || r->v[i].bytes < bytes)) {
				bytes = r->v[i].bytes;
				any = true;
			}
	}
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].coll == coll && r->v[i].bytes == bytes &&
		    r->v[i].time_us > worst)
			worst = r->v[i].time_us;
	snprintf(name, sizeof(name), "max-latency %s", cn);
	if (worst < 0) {
		add(g, false, name, "size %llu B was not measured for %s",
		    bytes, cn);
		return;
	}
	add(g, worst <= (double)o->max_latency_us, name,
	    "%.1f us at %llu B, maximum %lld us", worst, bytes,
	    o->max_latency_us);
}

/* Every configured rule becomes one check; g->passed is their AND. */
void nc_gate_eval(const struct nc_opts *o, const struct nc_results *r,
		  int nranks, bool timed_out, struct nc_gate *g)
{
	long long wrong = 0;

	memset(g, 0, sizeof(*g));
	g->passed = true;
	add(g, !timed_out, "no-timeout",
	    timed_out ? "a step did not complete in time" :
			"every step completed in time");
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].wrong > 0)
			wrong += r->v[i].wrong;
	}
	if (o->check)
		add(g, wrong == 0, "correct-results",
		    "%lld wrong elements over %zu results", wrong, r->n);
	for (int i = 0; i < o->nminbw; i++) {
		if (o->minbw[i].coll >= 0) {
			check_minbw(g, &o->minbw[i], r, o->minbw[i].coll);
			continue;
		}
		for (int c = 0; c < o->ncolls; c++)
			check_minbw(g, &o->minbw[i], r, o->colls[c]);
	}
	if (o->max_latency_us > 0)
		for (int c = 0; c < o->ncolls; c++)
			check_latency(g, o, r, o->colls[c]);
	if (nranks < 2)
		add(g, true, "ranks", "one rank: bus bandwidth is 0 by "
		    "definition and says nothing about links");
}
