/* Loss is not a firewall: a TCP probe that got no answer at all is tried
 * once more, past the kernel's SYN retransmission time, before its port
 * is called filtered. One place for that rule, used by the outbound
 * connects (portscan_tcp) and the responder's connect-back. */
#ifndef NP_SYNRETRY_H
#define NP_SYNRETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "probe/portscan.h"
#include "wire/client.h"
#include "wire/portstate.h"

/* The kernel's first SYN retransmission comes 1 s after the SYN
 * (TCP_TIMEOUT_INIT, RFC 6298 section 2). */
#define SYNRETRY_RTO_US 1000000LL
/* An attempt this long sees the kernel's retransmission and leaves it
 * 400 ms to be answered. */
#define SYNRETRY_US 1400000LL

/* True when this host's kernel holds a SYN from peer (AF_INET or
 * AF_INET6) to local port half open with its SYN-ACK sent again
 * (/proc/net/tcp): the peer's connect came in and our answer never got
 * back, so it is not this host's firewall (reason PORT_REASON_SYNACK_LOST
 * of wire/portstate.h). Call it while the listener is open (closing it
 * drops the requests); false when it cannot tell. */
bool synretry_synack_lost(const struct sockaddr *peer, uint16_t port);

/* True when an attempt got no answer at all (filtered by its deadline):
 * the only verdict one lost packet can fake. An RST or an ICMP error is
 * an answer and stands. */
bool synretry_lost(enum port_state st, const char *reason);

/* The deadline of the retry after a first attempt of first_us, or 0 when
 * none is needed: an attempt of SYNRETRY_US or more already carried the
 * kernel's own retransmission. */
long long synretry_timeout(long long first_us);

/* Retries every lost TCP result of r once, in parallel, with the deadline
 * synretry_timeout(o->timeout_us), and sets their attempts to 2. Returns
 * how many were retried, or -1 with errno when portscan_tcp could not
 * run (results untouched). */
int synretry_tcp(const struct sockaddr *addr, socklen_t alen,
                 struct port_result *r, size_t n,
                 const struct portscan_opts *o);

/* The same for a connect-back of n ports that came back with st and
 * reasons after a request with first_us: asks the responder once more
 * for the lost ones and replaces their verdicts; attempts[i] (may be
 * NULL) becomes 2 for each port asked again. Returns how many were
 * retried, or -1 when the request failed (c->err says why; the first
 * verdicts stand). A refusal for the responder's rate limit is waited
 * out, 300 ms at a time, three times at most. */
int synretry_connect_back(struct np_client *c, const uint16_t *ports, size_t n,
                          long long first_us, enum port_state *st,
                          char reasons[][CLIENT_REASON_MAX], long long *rtt,
                          int *attempts);

/* client_open, once more with SYNRETRY_US when the first connect within
 * timeout_us got no answer at all: a responder behind one lost SYN is
 * not "no responder". Returns 0, or -1 with c->err as client_open. */
int synretry_open(struct np_client *c, const char *host, unsigned port,
                  long long timeout_us, const char *token_file);

#endif
