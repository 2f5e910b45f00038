/* Stragglers from NCCL RAS's collective counts: the ranks whose count of
 * some collective is behind the other ranks' of the same communicator,
 * and, given an earlier look, whether each stopped (its count stayed) or
 * is slow (it moved), and which caught up. Pure. */
#ifndef NP_RAS_STRAGGLE_H
#define NP_RAS_STRAGGLE_H

#include <stddef.h>

#include "decide/ras_parse.h"

#define RAS_MAX_STRAGGLERS 64

enum straggle_kind {
	STRAGGLE_BEHIND,    /* one look: behind, stopped or slow unknown */
	STRAGGLE_STOPPED,   /* behind in both looks, its count unmoved */
	STRAGGLE_SLOW,      /* moved, but fell further behind */
	STRAGGLE_CAUGHT_UP, /* behind in the first look, level now */
	STRAGGLE_KEEPING_UP, /* behind in both looks by no more than
			      * before: a healthy job's ranks launch a few
			      * collectives apart at any instant */
};

struct ras_straggler {
	enum straggle_kind kind;
	char comm[48];
	char op[16];
	int rank;   /* -1: nranks ranks the text answer did not name */
	int nranks;
	long pid;
	char node[128];
	char gpu[32];
	unsigned long long count; /* its count now */
	unsigned long long ahead; /* the leading ranks' count now */
	int nahead;               /* ranks at that count */
	unsigned long long moved; /* its count's rise since the first look */
};

/* The stragglers of now (compared with before, NULL for one look), the
 * ones furthest behind first. Returns how many were written (at most
 * max). */
size_t ras_stragglers(const struct ras_state *now,
		      const struct ras_state *before,
		      struct ras_straggler *out, size_t max);

/* True for the kinds that make a rank a suspect (behind, stopped, slow),
 * false for the ranks that caught up or keep up. */
int straggle_suspect(enum straggle_kind k);

/* "behind", "stopped", "slow", "caught up", "keeping up". */
const char *straggle_kind_name(enum straggle_kind k);

#endif
