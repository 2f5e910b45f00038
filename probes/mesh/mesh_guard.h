/* netprobe mesh, what one member can make node 0 keep (issue 45): the
 * caps on a watch's change log and on the rendezvous's joins that have
 * not proved the token yet, as pure decisions the unit tests feed. */
#ifndef NP_MESH_GUARD_H
#define NP_MESH_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "report.h"

/* A change is one JSON object of about 300 to 1,200 bytes (two names of
 * at most 255, the evidence of at most 400): a frame over this is none. */
#define MESH_WATCH_CHANGE_MAX 4096
/* what node 0 keeps of one member's changes (about 2,000 honest ones),
 * and of every member's with its own: far under what a report reads */
#define MESH_WATCH_MEMBER_BYTES (1u << 20)
#define MESH_WATCH_TOTAL_BYTES (8u << 20)
#define MESH_WATCH_LOG_MAX 10000 /* changes node 0 keeps */
/* netprobe report refuses a document of REPORT_MAX_FILE_BYTES or more
 * (report.h); node 0's mesh document stays under half of it,
 * indentation included. */
#define MESH_REPORT_MAX_BYTES REPORT_MAX_FILE_BYTES

/* A join that has not proved the token: at most this long, and at most
 * this many at once (the oldest dropped first); node 0 keeps this many
 * descriptors spare for the members that prove it, and short of them
 * drops such a join after RDV_UNAUTH_SHORT_US (a member answers the
 * challenge within a round trip: it is not dropped mid-proof). */
#define RDV_UNAUTH_US 5000000LL
#define RDV_UNAUTH_MAX 64
#define RDV_FD_SPARE 32
#define RDV_UNAUTH_SHORT_US 1000000LL

/* What node 0 does with one change a member sent. */
enum mesh_keep {
	MESH_KEEP = 0,
	MESH_KEEP_TOO_LARGE,   /* over MESH_WATCH_CHANGE_MAX: refused */
	MESH_KEEP_MEMBER_FULL, /* the member's share is kept already */
	MESH_KEEP_LOG_FULL,    /* node 0's log is full */
};

/* Whether a change of len bytes is kept, given the bytes kept of its
 * member's, the bytes and the changes kept in all. */
enum mesh_keep mesh_watch_keep(size_t len, size_t member_bytes,
                               size_t total_bytes, size_t total_changes);

/* One join on the rendezvous as the unauthenticated cap sees it. */
struct rdv_unauth {
	bool unauth;        /* still before the token's proof */
	long long since_us; /* handed over to the rendezvous */
};

/* Which join to drop now: the oldest unauthenticated one when it is past
 * RDV_UNAUTH_US, when more than RDV_UNAUTH_MAX wait, or when node 0 is
 * short of descriptors and it is past RDV_UNAUTH_SHORT_US; -1 when
 * none. */
ssize_t rdv_unauth_victim(const struct rdv_unauth *c, size_t n,
                          long long now_us, bool fds_short);

/* True when the lowest free descriptor (-1: none, the open failed)
 * leaves fewer than RDV_FD_SPARE under limit (0: no limit). */
bool rdv_fds_short(long lowest_free, unsigned long long limit);

#endif
