/* netprobe report: diagnosis by elimination (issue 48). One table of
 * hypotheses, each a row with the test that keeps or eliminates it from
 * the evidence of one failed pair and the probe that decides it when the
 * evidence cannot; a new class is one row. Pure: it reads the evidence
 * struct the deciders fill (decide_elim.c) and writes nothing else. */
#ifndef NP_REPORT_ELIM_H
#define NP_REPORT_ELIM_H

#include <stdbool.h>
#include <stddef.h>

/* What the evidence says of one hypothesis. */
enum elim_state {
	ELIM_OPEN = 0, /* no evidence either way */
	ELIM_GONE,     /* a fact contradicts it */
	ELIM_KEPT,     /* a fact shows it */
	ELIM_NA,       /* it cannot explain this kind of failure at all */
};

/* The evidence about one failed pair: node a probed node b and some of
 * its connections failed. Strings are empty where unknown. */
struct elim_ev {
	char a[128], b[128];         /* the nodes */
	char net_a[56], net_b[56];   /* their subnets, "10.0.1.0/24",
				      * "fd84:1::/64" */
	char gw_a[64], gw_b[64];     /* the gateway each one's route lookup
				      * toward the other takes ("" on-link) */
	char port[32];               /* one failed port, "29500/tcp" */
	bool rules_a, rules_b;       /* that end's ruleset was read */
	bool drops_a, drops_b;       /* a firewall cause on that end */
	bool unsure_a, unsure_b;     /* a drop of that end's ruleset that
				      * the reader does not judge covers a
				      * failed port (firewall.unread) */
	bool route_a, route_b;       /* a route cause on that end */
	bool lookup_a, lookup_b;     /* its route lookup toward the other
				      * was recorded */
	bool nat;                    /* either end behind NAT */
	bool conflict;               /* an address either end's is held
				      * twice */
	bool lossy;                  /* the link was measured lossy */
	bool reset;                  /* every failed connect was answered
				      * (a reset, a refusal): not lost */
	bool control_ok;             /* the two reached each other on the
				      * mesh's own port, both ways */
	int inside_ok;               /* pairs inside one subnet that reach
				      * a port that failed here */
	char inside_fact[200];       /* one of them, for the why line */
	int inside_fail;             /* pairs inside one subnet that fail
				      * a port that failed here */
	bool idle_killed;            /* a connection held idle, then used,
				      * got no answer (--idle) */
	bool tracked_a, tracked_b;   /* that end's ruleset has blocks: a
				      * connection it forgot could meet
				      * them as new */
	char kept_a[160], kept_b[160]; /* an idle connection of that end
					* that lived on ("" none) */
	bool listener_ok;            /* another node reached b's port */
	char listener_fact[200];
	/* the mesh's retry probe (issue 48): one end connected to the
	 * port that failed and to the other's responder port in turns */
	int retry_tries, retry_answered;   /* to the failed port */
	int retry_refused; /* of those answered, refused (an older document:
			    * 0, its answers all counted as accepts) */
	int retry_ctl_tries, retry_ctl_answered; /* to the responder's */
	char retry_fact[200];        /* who, which ports, "" when none ran */
	/* {b}'s own responder held {b}'s failed port, listening, for the
	 * whole mesh (its document's mesh.ports.held) */
	bool held_b;
	/* each end's static neighbour entries (its scan's `neighbours`):
	 * read, and one of them names the other's address with a MAC the
	 * other does not have (decide_neigh.c) */
	bool neigh_read_a, neigh_read_b;
	bool neigh_stale_a, neigh_stale_b;
	/* both ends' scans were read (their interfaces), and both hold
	 * their address on a macvlan in VEPA or private mode on one subnet
	 * (decide_vepa.c) */
	bool vepa_read;
	bool vepa_both;
	/* each end's ruleset (rules_*) is iptables-legacy's, whose raw
	 * table is not read; and its scan's notrack-untracked-drop cuts it
	 * off from the other (packets exempted from tracking, accepted by
	 * no rule: decide_untracked.c) */
	bool legacy_a, legacy_b;
	bool untracked_a, untracked_b;
	/* each end's own routing table cuts it off from the other (its
	 * scan's ecmp-dead-nexthop, route-type-drop: decide_rtdrop.c) */
	bool ecmp_a, ecmp_b;
	bool rtdrop_a, rtdrop_b;
	/* the mesh's hop probe (issue 48): {a}'s TTL-limited walk toward
	 * {b}'s failed port (hop_box_a) and {b}'s toward {a}'s (hop_box_b):
	 * 1 the answer or the silence came from a box before the peer, 0 at
	 * the peer's own distance or address, -1 cannot tell, -2 none ran;
	 * the hop it names and what it saw */
	int hop_box_a, hop_box_b;
	bool hop_answered_a, hop_answered_b; /* that walk's connect to the
					      * failed port was answered (a
					      * reset, an ICMP refusal) */
	char hop_a[64], hop_b[64];
	/* that walk's path length (the TTL the peer's responder answers
	 * at, 0 unknown), and whether a TTL went silent before a later one
	 * answered (a box's ICMP errors rate-limited: its silence shows
	 * nothing) */
	int hop_len_a, hop_len_b;
	bool hop_gap_a, hop_gap_b;
	char hop_fact_a[400], hop_fact_b[400]; /* what it shows, short */
	char hop_walk_a[400], hop_walk_b[400]; /* with every TTL's answer */
	/* queueing disciplines (issue 48, decide_qdisc.c): each end's scan
	 * raised qdisc-drops-frames; both ends' root qdiscs were read; a
	 * path measurement of the pair carried less than the interfaces'
	 * MTU (large frames fail); both ends' MTUs are known and equal
	 * (mtu_eq, 0 unknown); {a}'s interface toward {b} ({ifa}) */
	bool qdisc_a, qdisc_b;
	bool qdisc_read;
	bool large_fail;
	unsigned mtu_eq;
	char if_a[16];
};

/* One hypothesis: its name ({a} and {b} stand for the nodes), the cause
 * kind it becomes, its test (writes why into why), and the command
 * that decides it where the evidence cannot. */
struct elim_row {
	const char *id;
	const char *hyp;
	const char *kind;
	enum elim_state (*test)(const struct elim_ev *e, char *why,
				size_t len);
	const char *probe;
};

#define ELIM_MAXROWS 32

/* What the table concluded for one pair: each row's state and why, in
 * the table's order, and how many rows remain (not eliminated). */
struct elim_out {
	size_t n;
	enum elim_state state[ELIM_MAXROWS];
	char why[ELIM_MAXROWS][320];
	size_t remain;
	size_t kept;
};

/* The table; its row count into n. */
const struct elim_row *elim_rows(size_t *n);

/* Runs every row over e into o. Returns the number of rows left. */
size_t elim_run(const struct elim_ev *e, struct elim_out *o);

/* text with {a}, {b} and {port} replaced by e's, into buf (truncated to
 * len). */
void elim_fill(const char *text, const struct elim_ev *e, char *buf,
	       size_t len);

/* The index of row id in the table, or -1. */
int elim_row_of(const char *id);

#endif
