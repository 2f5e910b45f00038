/* The path's deciders (decide_path.c): host-unreachable, mtu-blackhole
 * and mtu-mismatch from what the path probe collected (probe/pathprobe.h,
 * probe/pmtu.h). Pure but for the document. */
#ifndef NP_DECIDE_PATH_H
#define NP_DECIDE_PATH_H

#include <stdbool.h>

#include "doc/doc.h"
#include "probe/pathprobe.h"
#include "probe/pmtu.h"

/* The decider's conclusions over one search. */
struct pmtu_verdict {
	bool blackhole;         /* sizes above largest_ok vanish, no ICMP */
	bool mismatch;          /* our interface MTU differs from the peer's */
	bool mismatch_explains; /* the black hole sits at the smaller MTU */
	unsigned set_mtu;       /* the MTU to set on our interface, 0 none */
};

/* Decides from a search, our out interface's MTU (0 unknown) and the
 * route's MTU (0 none). Pure. */
void pmtu_decide(const struct pmtu_result *r, unsigned if_mtu,
                 struct pmtu_verdict *v);

/* Adds mtu-blackhole and mtu-mismatch findings with evidence and the
 * exact fix (the MTU to set on ifname). peer names the target. Returns 0,
 * or -1 on no memory. */
int pmtu_findings(const struct pmtu_result *r, const struct pmtu_verdict *v,
                  const char *ifname, unsigned if_mtu, const char *peer,
                  struct doc *d);

/* Adds the path's findings to d: host-unreachable when nothing answered
 * and the next hop's neighbour entry failed (r->no_host), then, when the
 * responder answered, mtu-blackhole and mtu-mismatch (pmtu_decide, with a
 * route MTU at the black hole's size counted as its workaround). Returns
 * 0, or -1 on no memory. */
int path_decide(const struct path_result *r, struct doc *d);

#endif
