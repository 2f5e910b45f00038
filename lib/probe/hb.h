/* Heartbeat results: the statistics of one run over a held TCP connection
 * and over UDP, the pure decider that turns them into findings, and their
 * JSON form (man/netprobe-json.5, heartbeat). */
#ifndef NP_HB_H
#define NP_HB_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "doc/doc.h"

#define HB_SAMPLES_OUT 1000 /* RTTs written to samples_us */

struct hb_side {
	bool enabled;
	long long sent, received, lost;
	long long reconnects;       /* TCP only */
	long long dropped_after_us; /* TCP: connection age at its last
	                             * answer when it went silent; -1 none */
	long long detect_us;        /* TCP: silence before it was declared
	                             * dropped (or the close seen) */
	long long *rtt_us;          /* received RTTs, in arrival order */
	size_t nrtt, caprtt;
};

struct hb_stats {
	double loss_pct;
	long long min, median, p90, p99, max; /* -1 when no samples */
	long long jitter_us; /* mean |rtt[i] - rtt[i-1]|, -1 unknown */
};

struct hb_gate {
	long long max_rtt_us; /* p99 above it misses; -1 no gate */
	double max_loss_pct;  /* loss above it misses; < 0 no gate */
};

/* Appends one RTT. Returns 0, or -1 with errno ENOMEM (the sample is then
 * counted but not kept). */
int hb_side_add(struct hb_side *s, long long rtt_us);

/* Frees the samples. Safe on a zeroed side. */
void hb_side_free(struct hb_side *s);

/* Formats microseconds for people: "812us", "1.25ms", "3.40s". */
char *hb_fmt_us(long long us, char *buf, size_t len);

/* Computes loss, percentiles (nearest rank) and jitter. Pure. */
void hb_stats_compute(const struct hb_side *s, struct hb_stats *st);

/* Adds findings to d: heartbeat-dropped (fault) when the held connection
 * went silent, heartbeat-loss (warning) on loss above 1 % or jitter above
 * the median and 1 ms, and heartbeat-loss as a fault for a missed gate.
 * Returns the number of gate checks missed. Pure but for d. */
int hb_decide(const struct hb_side *tcp, const struct hb_side *udp,
              const struct hb_gate *g, long long interval_us, struct doc *d);

/* The `tcp` or `udp` object of the JSON contract; NULL on no memory. */
json_t *hb_side_json(const struct hb_side *s, bool tcp);

/* Up to HB_SAMPLES_OUT TCP RTTs evenly picked, for `samples_us`. */
json_t *hb_samples_json(const struct hb_side *s);

#endif
