/* Where a log was written: the host names and addresses it names (an
 * NCCL line's host prefix, a store's "(host, port)", "[host]:port",
 * MASTER_ADDR, a launcher's "Could not resolve hostname", every IPv4
 * literal), and whether one of them is this host, so that explain
 * measures only the node the log is about (issue 42). Pure: no I/O. */
#ifndef NP_EXPLAIN_ORIGIN_H
#define NP_EXPLAIN_ORIGIN_H

#include <stdbool.h>
#include <stddef.h>

#define ORIGIN_MAX 16	    /* names and addresses kept, each */
#define ORIGIN_NAME_MAX 64

struct explain_origin {
	char hosts[ORIGIN_MAX][ORIGIN_NAME_MAX];
	size_t nhosts;
	char addrs[ORIGIN_MAX][ORIGIN_NAME_MAX];
	size_t naddrs;
};

enum origin_verdict {
	ORIGIN_UNNAMED = 0, /* the log names no host and no address */
	ORIGIN_HERE,	    /* it names this host's name or an address */
	ORIGIN_ELSEWHERE,   /* it names hosts, none of them this one */
};

/* Adds the host names and addresses one line names (bounded: past
 * ORIGIN_MAX of each, new ones are not kept). */
void explain_origin_line(struct explain_origin *o, const char *line);

/* Whether the log names a host or an address other than loopback:
 * a host name but localhost, an address but loopback and 0.0.0.0. */
bool explain_origin_other_hosts(const struct explain_origin *o);

/* Whether the log names this host: hostname (full or short, any case)
 * or one of its addresses (addrs, n of them). Loopback, link-local and
 * container-pool addresses name no one host. On ORIGIN_HERE, what matched is written into why. */
enum origin_verdict explain_origin_match(const struct explain_origin *o,
					 const char *hostname,
					 const char *const *addrs, size_t n,
					 char *why, size_t len);

#endif
