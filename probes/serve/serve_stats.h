/* netprobe serve's counters for --metrics and --textfile: clients,
 * echoes, refusals by reason and rejected frames by error code, counted
 * by the loop's own thread (no locks: the loop renders them too). */
#ifndef NP_SERVE_STATS_H
#define NP_SERVE_STATS_H

#define SERVE_STATS_CODES 16 /* enum proto_err values counted */

enum serve_refusal {
	SERVE_REFUSE_PER_ADDRESS, /* too many connections from the address */
	SERVE_REFUSE_FULL,        /* the table is full, nobody to evict */
	SERVE_REFUSE_OTHER,
	SERVE_REFUSE_N,
};

struct serve_stats {
	unsigned long long accepted, evicted;
	unsigned long long echo_tcp, echo_udp;
	unsigned long long refused[SERVE_REFUSE_N];
	unsigned long long rejected[SERVE_STATS_CODES]; /* ERRORs by code */
	unsigned long long udp_dropped, udp_rate;
};

/* Counts a refused client by the reason the admission gave. */
void serve_stats_refused(struct serve_stats *st, const char *why);

/* Counts an ERROR frame sent, by its code (an unknown one as 0). */
void serve_stats_rejected(struct serve_stats *st, unsigned code);

#endif
