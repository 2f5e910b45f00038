/* netprobe explain's decider: from the signatures matched in a log (their
 * line numbers and captured facts) to the causes the log proves, the ones
 * it leaves open with the one command that would decide them, and then
 * what this node's measurements prove or refute. Pure: no I/O. */
#ifndef NP_EXPLAIN_H
#define NP_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "doc/logmatch.h"

/* Every match is kept up to EXPLAIN_MAX_HITS; past it only a match whose
 * signature (row and captures) is new, up to EXPLAIN_MAX_DISTINCT kept in
 * all, each repeat counted (explain_hit's seen, unkept, last_*). No log
 * of the corpora (tests/explain, tests/explain/wild) has more than 10
 * distinct signatures; at the bound the hits take about 25 MB. */
#define EXPLAIN_MAX_HITS 2048
#define EXPLAIN_MAX_DISTINCT 16384
#define EXPLAIN_SIG_SLOTS 512  /* signature rows a log's facts are counted by */
#define EXPLAIN_FACT_KEEP 32   /* matches of one fact row kept */
#define EXPLAIN_MAX_CAUSES 32
#define EXPLAIN_MAX_LINES 8    /* line references kept per cause */
#define EXPLAIN_MAX_CODES 8
/* bytes of a matched line kept: the generic rows read the address a
 * line names from it, and a wrapped error puts it late (Docker's "...
 * Bind for 0.0.0.0:80: ... EADDRINUSE" at byte 230, Akka's cause after
 * 250: issue 42, blind42k c10); the text output shows the first
 * EXPLAIN_TEXT_SHOW */
#define EXPLAIN_TEXT_MAX 512
#define EXPLAIN_TEXT_SHOW 200

/* One matched line. */
struct explain_hit {
	struct logmatch m;
	int file;  /* index into the files read */
	long line; /* 1-based */
	char text[EXPLAIN_TEXT_MAX]; /* the line as matched, cut */
	/* on the first match of a signature: its matches in all, the last
	 * one's place, and how many were not kept (repeats past
	 * EXPLAIN_MAX_HITS); 0 on the later ones */
	long seen, unkept;
	int last_file;
	long last_line;
	/* a line that says how a connect failed and not where: the
	 * endpoint a line near it names, and that line (explain_near.h);
	 * "" and 0 when none does */
	char near_addr[64], near_port[8];
	long near_line;
};

/* What the log holds: counts and the matches (decide/explain_log.c). */
struct explain_log {
	long lines, matched, unknown, binary, truncated;
	struct explain_hit *hits; /* owned, EXPLAIN_MAX_DISTINCT at most */
	size_t nhits, cap;
	long dropped; /* matches not kept: repeats, facts past their keep */
	long distinct_dropped; /* new signatures past EXPLAIN_MAX_DISTINCT */
	unsigned kept[EXPLAIN_SIG_SLOTS]; /* facts kept, per signature row */
	size_t row_last[EXPLAIN_SIG_SLOTS]; /* a row's last kept hit + 1 */
	uint32_t *slots; /* owned: the signatures kept, hit index + 1 */
	/* the last line a row read: a generic row (LOGSIG_GENERIC, last
	 * in the table) reads only a line no row read before it */
	int claimed_file;
	long claimed_line;
	/* the log names a host or an address other than loopback (the
	 * reader's explain_origin_other_hosts): without one, 127.0.0.1 is
	 * one host's processes meeting there, not a rank that advertised
	 * it */
	bool other_hosts;
};

enum explain_state {
	EXPLAIN_UNMEASURED = 0, /* the log says so; nothing measured here */
	EXPLAIN_PROVED,		/* measured here: the same fault is present */
	EXPLAIN_NOT_SEEN,	/* measured here: not present on this node */
};

struct explain_ref {
	int file;
	long line;
};

/* What an entry of the result is: a network cause (decided or open), a
 * cause that is not the network (codes[0] is its kind, not a finding
 * code), or a symptom that decides nothing (codes[0] is its signature). */
enum explain_kind {
	EXPLAIN_NET = 0,
	EXPLAIN_OTHER,
	EXPLAIN_SYMPTOM,
};

/* A cause the log proves (open == false), or a set of causes it leaves
 * open (open == true, codes[0..ncodes)), with what decides it. */
struct explain_cause {
	enum explain_kind kind;
	bool open;
	char codes[EXPLAIN_MAX_CODES][48];
	size_t ncodes;
	struct explain_ref refs[EXPLAIN_MAX_LINES];
	size_t nrefs;
	long count;          /* matched lines behind it */
	char why[256];       /* from the log: what the lines say */
	char fix[768];       /* exact fix ("" for the catalogue's) */
	char next[512];      /* the one command that decides (open causes) */
	enum explain_state state;
	char measured[256];  /* what the measurement here showed */
	char addr[64];       /* the address the decision is about, or "" */
	char contra[256];    /* the line that contradicted it, or "" */
	/* NCCL's fallback to sockets: normal operation unless this node's
	 * measurement proves one of the codes (explain_drop_normal) */
	bool normal_unless_measured;
};

struct explain_result {
	struct explain_cause causes[EXPLAIN_MAX_CAUSES];
	size_t ncauses;
};

/* What was measured on this node: codes found, and codes the measurement
 * was able to see (so their absence means "not here"). */
struct explain_measured {
	bool ran;
	const char *found[64];
	size_t nfound;
	const char *checked[64];
	size_t nchecked;
	const char *note[64]; /* evidence per found code, may be NULL */
	const char *fix[64];  /* the measurement's exact fix, may be NULL */
};

/* Adds a hit: kept, or counted as a repeat of a signature kept (see
 * EXPLAIN_MAX_HITS). Returns 0, or -1 on no memory (errno ENOMEM). */
int explain_log_add(struct explain_log *lg, const struct logmatch *m,
		    int file, long line);
/* The same, keeping the line's text (may be NULL) as evidence. */
int explain_log_add_text(struct explain_log *lg, const struct logmatch *m,
			 int file, long line, const char *text);

/* Releases the hits. */
void explain_log_free(struct explain_log *lg);

/* The causes of a log, from its hits alone. */
void explain_decide(const struct explain_log *lg, struct explain_result *r);

/* Marks each cause proved or not seen from what this node measured; an
 * open cause one of whose codes is measured becomes that cause. */
void explain_apply_measured(struct explain_result *r,
			    const struct explain_measured *ms);

/* Drops the open causes that stand only where this node's measurement
 * proved one of their codes (NCCL's fallback to sockets without RDMA in
 * the job's settings): otherwise the lines were normal operation. */
void explain_drop_normal(struct explain_result *r);

/* The broader finding code a code refines, or NULL: name-unresolved is
 * the cause behind a host-unreachable (a peer that cannot be reached
 * because its name finds no address). explain's JSON lists it beside
 * the code ("refines"), so a consumer that asks for host-unreachable
 * finds the refinement, as a subtype names its parent (issue 42). */
const char *explain_refines(const char *code);

/* The class of an address a log names: "loopback", "docker-bridge",
 * "podman-bridge", "docker-gwbridge", "nomad-bridge", "vm-nat",
 * "link-local" (IPv6
 * fe80::/10), "link-local4" (IPv4 169.254/16) or NULL for an ordinary
 * one. */
const char *explain_addr_class(const char *addr);

/* True when an interface name is a virtual kind NCCL's default filter
 * lets through (veth, br-, cni, flannel, cali, docker, virbr...). */
bool explain_iface_virtual(const char *name);

/* The last value a log echoes for a setting (NCCL_SOCKET_IFNAME...), or
 * NULL. */
const char *explain_setting(const struct explain_log *lg, const char *name);

#endif
