/* The peer probe's deciders (decide_peerprobe.c): nat-detected and
 * inbound-blocked from what probe/peerprobe.c established about one peer
 * (its peer_verdict). Pure but for the document. */
#ifndef NP_DECIDE_PEERPROBE_H
#define NP_DECIDE_PEERPROBE_H

#include "doc/doc.h"
#include "probe/peer.h"

/* Adds to d nat-detected when the responder saw this host under another
 * address than its own (v->nat 1; the evidence names both sockets and
 * which side of a Gloo pair connects), and inbound-blocked when a
 * connect-back failed (v->inbound 0; the evidence names each failed
 * port). A peer that did not answer raises nothing. Returns 0, or -1 on
 * no memory. */
int peerprobe_decide(const struct peer_verdict *v, struct doc *d);

#endif
