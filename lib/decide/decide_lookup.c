/* A failed route lookup toward one destination: no route is a finding
 * (host-unreachable), any other failure the caller's error. */
#include "decide/decide_lookup.h"

#include <errno.h>
#include <string.h>

/* See decide_lookup.h. */
int decide_route_lookup(const char *dest, int lookup_errno, struct doc *d)
{
	json_t *ev = NULL;

	if (lookup_errno != ENETUNREACH && lookup_errno != EHOSTUNREACH)
		return 0;
	evidence_add(&ev, "netlink RTM_GETROUTE", "%s", strerror(lookup_errno));
	if (doc_add_finding(d, FINDING_HOST_UNREACHABLE, -1, ev, NULL,
	                    "no route to '%s'", dest) < 0)
		return -1;
	return 1;
}
