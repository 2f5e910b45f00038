/* Whether a peer can reach one of this node's addresses: a TCP connection
 * to the peer's responder from a socket bound to that address. The peer's
 * answer (SYN-ACK or RST) is routed back to the bound address, so it
 * arrives only when the peer can send to it; nothing on the peer has to
 * know about the test. */
#ifndef NP_REACH_H
#define NP_REACH_H

#include <stddef.h>

#include "base/sysroot.h"

enum reachback {
	REACHBACK_UNTESTED = 0, /* no responder, NAT, or not asked */
	REACHBACK_YES,          /* the peer's answer came back to the address */
	REACHBACK_NO,           /* it did not: the peer cannot reach it */
	REACHBACK_UNKNOWN,      /* asked, but the answer cannot tell (a strict
	                     * reverse-path filter, an error here) */
};

/* Connects from local (a numeric address this node holds, on interface
 * local_if) to peer:port within timeout_us. A strict reverse-path filter
 * on local_if (net.ipv4.conf.{all,IF}.rp_filter = 1, read through sr)
 * drops an answer that arrives there from a peer routed elsewhere, so
 * the test is not made when local_if is not out_if (the route toward the
 * peer): REACHBACK_UNKNOWN. Returns the state, with what happened in detail
 * ("syn-ack", "rst", "no answer within 1000 ms", an errno text). */
enum reachback reach_probe(const struct sysroot *sr, const char *local,
                             const char *local_if, const char *out_if,
                             const char *peer, unsigned port,
                             long long timeout_us, char *detail, size_t len);

/* "yes", "no", "unknown" or "untested". */
const char *reach_state_name(enum reachback s);

#endif
