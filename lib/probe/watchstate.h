/* netprobe mesh --watch: what one round of light probes toward a peer
 * says about the pair (up, degraded, lossy, down), and the hysteresis
 * that turns rounds into changes, each logged once with the time it
 * began and how long the state before it lasted. Pure functions. */
#ifndef NP_WATCHSTATE_H
#define NP_WATCHSTATE_H

#include <stdbool.h>
#include <stddef.h>

enum watch_state {
	WATCH_UP = 0,
	WATCH_DEGRADED, /* one transport fails while the other answers, or
	                 * the RTT rose far above its best */
	WATCH_LOSSY,    /* both answer, but echoes are lost */
	WATCH_DOWN,     /* nothing answers */
	WATCH_NSTATES,
};

#define WATCH_LOSSY_PCT 20u /* echoes lost in a round, percent */
#define WATCH_RTT_FACTOR 4    /* median over the best median ... */
/* ... and by at least this much: a loaded host (a training job on every
 * core, softirqs deferred) delays echoes by tens of milliseconds, which is
 * no fault of the link */
#define WATCH_RTT_SLACK_US 200000LL
#define WATCH_CONFIRM 2 /* rounds a new state must hold to count */

/* One round toward one peer. */
struct watch_round {
	bool tcp_ok;          /* a TCP connect to its responder completed */
	int tcp_errno;        /* why it failed (ETIMEDOUT: no answer) */
	long long connect_us; /* tcp_ok: the handshake's time */
	unsigned sent, answered; /* UDP echoes */
	long long rtt_med_us; /* median of the answered, -1 none */
	long long rtt_max_us;
};

/* The pair's watch: the state, when it began, and a candidate state
 * that must hold WATCH_CONFIRM rounds. */
struct watch_pair {
	enum watch_state state;
	long long since_us;      /* when the state began (wall clock) */
	enum watch_state cand;   /* == state: no candidate */
	int cand_rounds;
	long long cand_since_us; /* the candidate's first round */
	long long best_med_us;   /* the lowest median while up, -1 none */
	unsigned long long changes;
};

/* A change, as the pair's log keeps it. */
struct watch_change {
	enum watch_state was, now;
	long long at_us;      /* wall clock, microseconds since the epoch */
	long long lasted_us;  /* how long `was` held */
};

/* "up", "degraded", "lossy" or "down". */
const char *watch_state_name(enum watch_state s);

/* The state one round shows, given the pair's best median so far (-1
 * none). Pure. */
enum watch_state watch_classify(const struct watch_round *r,
                                long long best_med_us);

/* Starts a pair as up since start_us. */
void watch_pair_init(struct watch_pair *p, long long start_us);

/* Feeds one round taken at at_us. Returns true with *ch filled when the
 * pair's state changed (the change dated by the candidate's first
 * round). Pure. */
bool watch_pair_feed(struct watch_pair *p, const struct watch_round *r,
                     long long at_us, struct watch_change *ch);

/* The round's evidence for a log line: "tcp connect: timed out; udp
 * echo: 0 of 10 answered", into buf. */
void watch_evidence(const struct watch_round *r, char *buf, size_t len);

#endif
