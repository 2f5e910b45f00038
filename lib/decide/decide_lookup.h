/* The route lookup's decider (decide_lookup.c): what a failed lookup of
 * the route toward one destination (`netprobe ifaces --route`) says.
 * Pure but for the document. */
#ifndef NP_DECIDE_LOOKUP_H
#define NP_DECIDE_LOOKUP_H

#include "doc/doc.h"

/* The kernel answered RTM_GETROUTE toward dest with lookup_errno: for
 * ENETUNREACH or EHOSTUNREACH (no route) adds host-unreachable to d and
 * returns 1; for any other errno adds nothing and returns 0 (the lookup
 * itself failed: an error for the caller to report). Returns -1 on no
 * memory. */
int decide_route_lookup(const char *dest, int lookup_errno, struct doc *d);

#endif
