/* Heartbeat statistics, findings and JSON: pure functions over the
 * samples a run collected. */
#include "probe/hb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grows the sample array by doubling, up to ten million samples. */
int hb_side_add(struct hb_side *s, long long rtt_us)
{
	if (s->nrtt == s->caprtt) {
		size_t cap = s->caprtt ? s->caprtt * 2 : 256;
		long long *v;

		if (cap > 10000000) {
			errno = ENOMEM;
			return -1;
		}
		v = realloc(s->rtt_us, cap * sizeof(*v));
		if (!v)
			return -1;
		s->rtt_us = v;
		s->caprtt = cap;
	}
	s->rtt_us[s->nrtt++] = rtt_us;
	return 0;
}

/* Frees the samples. */
void hb_side_free(struct hb_side *s)
{
	free(s->rtt_us);
	s->rtt_us = NULL;
	s->nrtt = s->caprtt = 0;
}

/* us below 1ms, ms with two decimals below 1s, else s. */
char *hb_fmt_us(long long us, char *buf, size_t len)
{
	if (us < 0)
		snprintf(buf, len, "-");
	else if (us < 1000)
		snprintf(buf, len, "%lldus", us);
	else if (us < 1000000)
		snprintf(buf, len, "%.2fms", (double)us / 1e3);
	else
		snprintf(buf, len, "%.2fs", (double)us / 1e6);
	return buf;
}

/* qsort order for long long. */
static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted v (n > 0). */
static long long pct(const long long *v, size_t n, int p)
{
	size_t rank = (size_t)((p * n + 99) / 100);

	if (rank == 0)
		rank = 1;
	return v[rank - 1];
}

/* Loss over sent; percentiles by nearest rank over a sorted copy. */
void hb_stats_compute(const struct hb_side *s, struct hb_stats *st)
{
	long long *v;
	long long jsum = 0;

	st->loss_pct =
	    s->sent ? 100.0 * (double)s->lost / (double)s->sent : 0.0;
	st->min = st->median = st->p90 = st->p99 = st->max = -1;
	st->jitter_us = -1;
	if (s->nrtt == 0)
		return;
	for (size_t i = 1; i < s->nrtt; i++) {
		long long d = s->rtt_us[i] - s->rtt_us[i - 1];

		jsum += d < 0 ? -d : d;
	}
	st->jitter_us = s->nrtt > 1 ? jsum / (long long)(s->nrtt - 1) : 0;
	v = malloc(s->nrtt * sizeof(*v));
	if (!v)
		return;
	memcpy(v, s->rtt_us, s->nrtt * sizeof(*v));
	qsort(v, s->nrtt, sizeof(*v), cmp_ll);
	st->min = v[0];
	st->max = v[s->nrtt - 1];
	st->median = pct(v, s->nrtt, 50);
	st->p90 = pct(v, s->nrtt, 90);
	st->p99 = pct(v, s->nrtt, 99);
	free(v);
}

/* Findings from the statistics; see hb.h. */
int hb_decide(const struct hb_side *tcp, const struct hb_side *udp,
              const struct hb_gate *g, long long interval_us, struct doc *d)
{
	struct hb_stats ts, us;
	char a[32], b[32];
	int missed = 0;

	hb_stats_compute(tcp, &ts);
	hb_stats_compute(udp, &us);
	if (tcp->dropped_after_us >= 0) {
		json_t *ev = NULL;

		evidence_add(&ev, "heartbeat",
		             "last answer %s after the "
		             "connection opened",
		             hb_fmt_us(tcp->dropped_after_us, a, sizeof(a)));
		evidence_add(&ev, "heartbeat",
		             "declared dropped %s after "
		             "the last answer (interval %s)",
		             hb_fmt_us(tcp->detect_us, b, sizeof(b)),
		             hb_fmt_us(interval_us, a, sizeof(a)));
		doc_add_finding(d, "heartbeat-dropped", -1, ev, NULL,
		                "the held connection stopped being answered "
		                "%s after it opened",
		                hb_fmt_us(tcp->dropped_after_us, a, sizeof(a)));
	}
	for (int i = 0; i < 2; i++) {
		const struct hb_side *s = i ? udp : tcp;
		const struct hb_stats *st = i ? &us : &ts;
		const char *name = i ? "udp" : "tcp";
		json_t *ev = NULL;

		if (!s->enabled || s->sent == 0)
			continue;
		if (st->loss_pct > 1.0 ||
		    (st->median >= 0 && st->jitter_us > st->median &&
		     st->jitter_us > 1000)) {
			evidence_add(&ev, "heartbeat",
			             "%s: %lld of %lld lost "
			             "(%.1f%%), jitter %lldus, median %lldus",
			             name, s->lost, s->sent, st->loss_pct,
			             st->jitter_us, st->median);
			doc_add_finding(d, "heartbeat-loss", -1, ev, NULL,
			                "%s heartbeats: %.1f%% lost, jitter "
			                "%lldus",
			                name, st->loss_pct, st->jitter_us);
		}
		if (g->max_loss_pct >= 0 && st->loss_pct > g->max_loss_pct) {
			missed++;
			doc_add_finding(d, "heartbeat-loss", SEV_FAULT, NULL,
			                NULL,
			                "%s loss %.1f%% above --max-loss "
			                "%.1f%%",
			                name, st->loss_pct, g->max_loss_pct);
		}
		if (g->max_rtt_us >= 0 && st->p99 > g->max_rtt_us) {
			missed++;
			doc_add_finding(d, "heartbeat-loss", SEV_FAULT, NULL,
			                NULL,
			                "%s p99 RTT %s above --max-rtt "
			                "%s",
			                name, hb_fmt_us(st->p99, a, sizeof(a)),
			                hb_fmt_us(g->max_rtt_us, b, sizeof(b)));
		}
		if (g->max_rtt_us >= 0 && st->p99 < 0 && s->sent > 0) {
			missed++;
			doc_add_finding(d, "heartbeat-loss", SEV_FAULT, NULL,
			                NULL,
			                "%s: no answer at all, --max-rtt "
			                "missed",
			                name);
		}
	}
	return missed;
}

/* A number, or null when negative (unknown). */
static json_t *num_or_null(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* The tcp or udp object; unknown values are null. */
json_t *hb_side_json(const struct hb_side *s, bool tcp)
{
	struct hb_stats st;
	json_t *o;

	hb_stats_compute(s, &st);
	o = json_pack(
	    "{s:I, s:I, s:I, s:f, s:{s:o, s:o, s:o, s:o, s:o}, "
	    "s:o}",
	    "sent", (json_int_t)s->sent, "received", (json_int_t)s->received,
	    "lost", (json_int_t)s->lost, "loss_pct", st.loss_pct, "rtt_us",
	    "min", num_or_null(st.min), "median", num_or_null(st.median), "p90",
	    num_or_null(st.p90), "p99", num_or_null(st.p99), "max",
	    num_or_null(st.max), "jitter_us", num_or_null(st.jitter_us));
	if (o && tcp) {
		json_object_set_new(o, "reconnects",
		                    json_integer(s->reconnects));
		json_object_set_new(o, "dropped_after_us",
		                    num_or_null(s->dropped_after_us));
	}
	return o;
}

/* All samples up to HB_SAMPLES_OUT, else an even pick. */
json_t *hb_samples_json(const struct hb_side *s)
{
	json_t *a = json_array();
	size_t n = s->nrtt;

	if (!a)
		return NULL;
	if (n <= HB_SAMPLES_OUT) {
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, json_integer(s->rtt_us[i]));
		return a;
	}
	for (size_t k = 0; k < HB_SAMPLES_OUT; k++)
		json_array_append_new(
		    a, json_integer(s->rtt_us[k * n / HB_SAMPLES_OUT]));
	return a;
}
