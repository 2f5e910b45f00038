/* qdisc-drops-frames (issue 48, blind48e 01 and 03): a queueing
 * discipline on the interface that carries the node's traffic that
 * cannot pass a full frame, from kernel/qdisc.h's dump and this node's
 * interfaces. Its evidence is the qdisc's own: never an MTU. */
#ifndef NP_DECIDE_QDISC_H
#define NP_DECIDE_QDISC_H

#include <stdbool.h>
#include <stddef.h>

#include "doc/doc.h"
#include "kernel/iface.h"
#include "kernel/qdisc.h"

/* The bytes a frame of ifc's MTU takes at its qdisc: the MTU plus the
 * hard header (psched_mtu: 14 on Ethernet, 18 on a VLAN device; 0 where
 * the link has no six-byte address). */
unsigned decide_qdisc_frame(const struct iface *ifc);

/* True when root qdisc q of an interface whose full frame is frame
 * bytes cannot pass it: a tbf with max_size below frame, or an htb with
 * a direct queue of 0 whose default class is not a leaf that exists
 * (with classes, also only once it dropped: a filter may classify
 * everything). */
bool decide_qdisc_drops(const struct qdisc_info *q, unsigned frame);

/* Adds a qdisc-drops-frames fault for each root qdisc of qs that
 * decide_qdisc_drops on an interface that carries the node's traffic:
 * carry[0..ncarry) by name (the chosen interface, the peers' route
 * interfaces; none given: every up interface with a global address),
 * each with its bridge's or bond's ports and a macvlan's, ipvlan's or
 * VLAN's lower device. The fix keeps the shaper where it can. Silent
 * for qs NULL or truncated. Returns 0, or -1 on no memory. */
int decide_qdisc(const struct qdisc_list *qs, const struct iface_list *l,
		 const char *const *carry, size_t ncarry, struct doc *d);

#endif
