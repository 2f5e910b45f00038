/* Heartbeat statistics, findings and JSON: pure functions over the
 * samples a run collected. */
#include "probe/hb.h"

#include <errno.h>
#include <linux/tcp.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

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

/* The kernel's own view of the held connection. */
void hb_tcpinfo_read(int fd, struct hb_tcpinfo *ti)
{
	struct tcp_info i;
	socklen_t l = sizeof(i);

	memset(ti, 0, sizeof(*ti));
	memset(&i, 0, sizeof(i));
	if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &i, &l) < 0 ||
	    l < offsetof(struct tcp_info, tcpi_total_retrans) +
	            sizeof(i.tcpi_total_retrans))
		return;
	ti->valid = true;
	ti->rto_us = i.tcpi_rto;
	ti->retransmits = i.tcpi_retransmits;
	ti->unacked = (int)i.tcpi_unacked;
	ti->total_retrans = i.tcpi_total_retrans;
	/* tcpi_segs_out came with Linux 4.2 */
	if (l >=
	    offsetof(struct tcp_info, tcpi_segs_out) + sizeof(i.tcpi_segs_out))
		ti->segs_out = i.tcpi_segs_out;
}

/* q^(k+1) is the chance that one segment and its k retransmissions are
 * all lost on a path that loses q of its round trips. */
int hb_retx_needed(long long lost, long long sent)
{
	double q;
	int k;

	if (lost < 0)
		lost = 0;
	if (sent < lost)
		sent = lost;
	q = (double)(lost + 1) / (double)(sent + 1);
	if (q >= 1.0)
		return HB_RETX_MAX;
	for (k = 1; k < HB_RETX_MAX; k++)
		if (pow(q, k + 1) <= 1e-6)
			break;
	return k;
}

/* See hb.h: the kernel's retransmissions, not a timer of ours, say when
 * silence stops being loss. */
bool hb_silent_past_retx(long long silence_us, long long timeout_us,
                         const struct hb_tcpinfo *ti, int need,
                         long long since_retx_us)
{
	if (silence_us < timeout_us)
		return false;
	if (!ti->valid)
		return silence_us >= timeout_us + HB_NOINFO_US;
	if (ti->unacked == 0)
		return false;
	if (ti->retransmits < need || since_retx_us < 0)
		return false;
	return since_retx_us >= timeout_us;
}

/* A number, or null when negative (unknown). */
static json_t *num_or_null(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* "silent", "closed" or null. */
static json_t *drop_json(enum hb_drop_kind k)
{
	if (k == HB_DROP_SILENT)
		return json_string("silent");
	if (k == HB_DROP_CLOSED)
		return json_string("closed");
	return json_null();
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
		json_object_set_new(o, "drop", drop_json(s->drop.kind));
		json_object_set_new(o, "retransmits",
		                    s->segs_out > 0 ? json_integer(s->retrans)
		                                    : json_null());
		json_object_set_new(o, "segments_out",
		                    s->segs_out > 0 ? json_integer(s->segs_out)
		                                    : json_null());
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
