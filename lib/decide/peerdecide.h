/* What one checked peer's port results mean (probe/peercheck.h): the
 * failed connect-back checks and outbound connects into the plan of
 * ports to open, ephemeral-range-blocked when only this node's ephemeral
 * range failed, and the outbound findings of ports_decide. Pure over the
 * check's results. */
#ifndef NP_PEERDECIDE_H
#define NP_PEERDECIDE_H

#include "decide/fwcmd.h"
#include "doc/doc.h"
#include "probe/peercheck.h"

/* Adds pc's findings to d (the peer probe's first, peerprobe_decide,
 * then the path's, path_decide) and what its failures ask to open to
 * fw.
 * eph_lo and eph_hi are this node's ip_local_port_range (0 0 unknown).
 * Returns 0, or -1 on no memory (an error in d). */
int peercheck_decide(const struct peercheck *pc, unsigned eph_lo,
                     unsigned eph_hi, struct fw_plan *fw, struct doc *d);

/* For a peer known to run a responder (a mesh member that joined): no
 * answer from it is a fault of the path between, named by how the
 * connect failed: port-filtered (timed out), port-closed (refused),
 * host-unreachable (no route, ICMP unreachable), rank-unreachable
 * (connected, no answer). member names the peer, port its responder's.
 * Adds nothing when the peer answered. Returns 0, or -1 on no memory. */
int peercheck_decide_member(const struct peercheck *pc, const char *member,
                            unsigned port, struct doc *d);

#endif
