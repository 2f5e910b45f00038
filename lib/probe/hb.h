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

/* How the first lost held connection ended, and what settles whether
 * its state was dropped (NAT, a firewall) or the path lost packets. */
enum hb_drop_kind {
	HB_DROP_NONE = 0,
	HB_DROP_CLOSED, /* the peer closed or reset it */
	HB_DROP_SILENT, /* silent past the kernel's retransmissions */
};

struct hb_drop {
	enum hb_drop_kind kind;
	int retransmits;        /* tcpi_retransmits when declared */
	int needed;             /* the retransmissions the loss asked for */
	long long rto_us;       /* tcpi_rto when declared */
	double loss_pct;        /* the loss measured when declared */
	long long udp_answered; /* UDP echoes sent after the last TCP
	                         * answer that were answered */
	bool reconnected;       /* a new connection was answered after */
	long long lost;         /* echoes in flight when it was dropped */
	long long retrans;      /* segments retransmitted in its silence */
};

struct hb_side {
	bool enabled;
	long long sent, received, lost;
	long long reconnects;       /* TCP only */
	long long dropped_after_us; /* TCP: connection age at its last
	                             * answer when it went silent; -1 none */
	long long detect_us;        /* TCP: silence before it was declared
	                             * dropped (or the close seen) */
	struct hb_drop drop;        /* TCP: the first drop's evidence */
	long long retrans;          /* TCP: segments the kernel sent again,
	                             * over every connection (TCP_INFO) */
	long long segs_out;         /* TCP: segments sent; 0 unknown */
	long long *rtt_us;          /* received RTTs, in arrival order */
	size_t nrtt, caprtt;
};

/* The part of TCP_INFO the heartbeat reads. */
struct hb_tcpinfo {
	bool valid;
	long long rto_us;       /* tcpi_rto: the current, backed-off RTO */
	int retransmits;        /* tcpi_retransmits: RTO timeouts of the
	                         * oldest unacknowledged segment */
	int unacked;            /* tcpi_unacked */
	long long total_retrans; /* tcpi_total_retrans */
	long long segs_out;     /* tcpi_segs_out */
};

#define HB_RETX_MAX 4       /* retransmissions asked for at most */
#define HB_NOINFO_US 1000000LL /* without TCP_INFO: silence past timeout */

/* Reads TCP_INFO of a connected socket into ti (ti->valid false when it
 * cannot be read). */
void hb_tcpinfo_read(int fd, struct hb_tcpinfo *ti);

/* How many retransmissions of the oldest unanswered segment must go
 * unanswered before silence is more than loss: the fewest k >= 1 for
 * which q^(k+1) <= 1e-6, q = (lost + 1) / (sent + 1) the loss measured so
 * far (so a short run is not trusted), at most HB_RETX_MAX. Pure. */
int hb_retx_needed(long long lost, long long sent);

/* Whether a held connection with echoes unanswered for silence_us must be
 * declared silent: past timeout_us, with data the peer has not
 * acknowledged (an acknowledgement means the path and the peer's kernel
 * work), retransmitted by the kernel at least need times, the last of
 * those unanswered for timeout_us too (since_retx_us; -1 when the count
 * was not reached). Without TCP_INFO: past timeout_us plus HB_NOINFO_US.
 * Pure. */
bool hb_silent_past_retx(long long silence_us, long long timeout_us,
                         const struct hb_tcpinfo *ti, int need,
                         long long since_retx_us);

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

/* The `tcp` or `udp` object of the JSON contract; NULL on no memory. */
json_t *hb_side_json(const struct hb_side *s, bool tcp);

/* Up to HB_SAMPLES_OUT TCP RTTs evenly picked, for `samples_us`. */
json_t *hb_samples_json(const struct hb_side *s);

#endif
