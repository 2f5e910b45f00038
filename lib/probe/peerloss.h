/* The link's loss and tail latency toward one responder (issue 31): UDP
 * echoes one at a time, timed so that what the two hosts held the
 * datagrams for (a loaded host's scheduling) is not read as the link's. */
#ifndef NP_PEERLOSS_H
#define NP_PEERLOSS_H

#include "probe/peer.h"
#include "wire/client.h"

/* Fills v's udp_sent, udp_lost, rtt_p50_us, rtt_p99_us and the held
 * figures from PEER_LOSS_ECHOES timed echoes to c's peer, within
 * PEER_LOSS_BOUND_US. Nothing is measured (udp_sent 0) where the socket
 * cannot be made or an ICMP error answers. */
void peerloss_probe(const struct np_client *c, struct peer_verdict *v);

/* The link's part of one echo's round trip: raw_us (send to our reading
 * it) less late_us (the reply waited here after the kernel received it)
 * and held_us (the request waited at the responder; <0 not told). A
 * figure out of range (a clock that stepped) is not taken out. Sets
 * *hosts_us to what was taken out. */
long long peerloss_link_rtt(long long raw_us, long long late_us,
                            long long held_us, long long *hosts_us);

#endif
