/* netprobe report, decide: the mesh's hop probe read into the
 * elimination's evidence (decide_hop.c, issue 48). */
#ifndef NP_REPORT_DECIDE_HOP_H
#define NP_REPORT_DECIDE_HOP_H

#include <stdbool.h>
#include <stddef.h>

#include "elim.h"
#include "report_decide.h"

/* The hop probe of peer entry en (node x's, toward node y), if it ran,
 * into *box (1 a box before the peer, 0 at its distance or address, -1
 * cannot tell), *answered (the port's walk got a reset or an ICMP
 * refusal), hop (the hop it names), fact (what it shows, short, for a
 * why line) and walk (the same with every TTL's answer), fact and walk
 * flen bytes each;
 * *box stays as it was when none ran. */
void rd_hop_of(const json_t *en, const char *x, const char *y, int *box,
	       bool *answered, char *hop, size_t hlen, char *fact,
	       char *walk, size_t flen);

/* The walk of peer entry en, if one ran: its path length into *len (0
 * unknown), and into *gap whether a TTL of it went silent before a
 * later one answered; both stay as they were when none ran. */
void rd_hop_shape(const json_t *en, int *len, bool *gap);

/* The hop probes' facts of pair e into path cause k's evidence, once
 * each and a few at most. */
void rd_hop_lines(json_t *k, const struct elim_ev *e);

/* Offers pair e's hops and gateways to name path cause pk (first: e's a
 * is on the cause's first subnet): a hop probe that saw the box before
 * the peer, else the first side's gateway, else another hop; and the
 * second side's own view of the box, which its words add where it
 * differs (issue 48). */
void rd_hop_offer(json_t *pk, const struct elim_ev *e, bool first);

/* Settles path cause k's name once its pairs are in: the best offer
 * that pins the box (rd_hop_offer's), else its subnets; its id and its
 * fix's node with it. */
void rd_path_name(json_t *k);

/* Why path cause k (named by its subnets) names no box, and which to
 * look at, into buf (at most len bytes); the bytes written. Its walks
 * did not pin one (a box past the gateway stayed silent, its ICMP
 * errors rate-limited or off), and its path crosses more than one:
 * naming the gateway would put the fix on a box that may pass the
 * ports (issue 48). */
size_t rd_path_unpinned(json_t *k, char *buf, size_t len);

#endif
