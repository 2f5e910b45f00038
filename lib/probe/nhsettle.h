/* The next hops of a multipath route toward a peer that failed (issue
 * 48): what the neighbour table says of each gateway once resolution had
 * its chance, the deciding read of an ECMP route that keeps a dead hop. */
#ifndef NP_NHSETTLE_H
#define NP_NHSETTLE_H

#include "kernel/nl.h"

/* Reads the neighbour entry of every gateway of r's next hops into
 * r->nh[].neigh; a gateway with no entry gets one datagram to its
 * discard port (the kernel then resolves it), and every entry still
 * resolving (incomplete, delay, probe) is read again until it settles
 * or until deadline_us (mono_now_us). Returns 0, or -1 with errno when
 * the table cannot be read. */
int nh_settle(struct route_info *r, long long deadline_us);

#endif
