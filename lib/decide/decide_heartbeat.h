/* heartbeat's deciders (decide_heartbeat.c): the findings of one
 * heartbeat run, from what lib/probe/hb.c collected. */
#ifndef NP_DECIDE_HEARTBEAT_H
#define NP_DECIDE_HEARTBEAT_H

#include "doc/doc.h"
#include "probe/hb.h"

/* Adds findings to d: heartbeat-dropped (fault) when the peer closed the
 * held connection, or when it went silent past the kernel's
 * retransmissions while the UDP echoes kept being answered or a new
 * connection was; heartbeat-loss as a fault when it went silent and
 * nothing else got through either (the path or the peer went away);
 * heartbeat-loss (warning) with the rate on loss or TCP retransmissions
 * above 1 % or jitter above the median and 1 ms; heartbeat-loss as a
 * fault for a missed gate. Returns the number of gate checks missed, or
 * -1 on no memory. Pure but for d. */
int decide_heartbeat(const struct hb_side *tcp, const struct hb_side *udp,
                     const struct hb_gate *g, long long interval_us,
                     struct doc *d);

#endif
