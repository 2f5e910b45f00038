/* The host's connection limits as findings (issue 48): port-range-narrow,
 * somaxconn-low and conn-rate-limit, each from this node's own sysctls,
 * counters and ruleset (kernel/hostlim.h), with the command that clears
 * it on this node. */
#ifndef NP_DECIDE_HOSTLIM_H
#define NP_DECIDE_HOSTLIM_H

#include <stddef.h>

#include "doc/doc.h"
#include "kernel/hostlim.h"

#define HL_MIN_PORTS 256      /* ephemeral ports below which connects fail */
#define HL_CONN_PER_NODE 8    /* connections per node to one listener */
#define HL_RATE_PER_NODE 64   /* new connections a second per node */

/* What the job needs of this host: the nodes (0 unknown: 2 assumed) and
 * the ports peers connect to besides the ephemeral range. */
struct hl_need {
	int nodes;
	const unsigned *ports;
	size_t nports;
};

/* Adds a finding for each limit below need, with its evidence and the
 * one command that clears it. Silent where a value is unread, and on
 * Debian's defaults (32768-60999, somaxconn 4096) and limits on ICMP or
 * on ports the job does not use. Returns 0, or -1 on no memory. */
int decide_host_limits(const struct host_limits *l, const struct hl_need *n,
                       struct doc *d);

#endif
