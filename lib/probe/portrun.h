/* One whole port check against a host, as `netprobe ports` and `scan
 * --peer` run it: resolve, ask the responder (when one is needed) for
 * listeners on sample, ephemeral and UDP ports, connect to every TCP port
 * in parallel, probe UDP ports, and with both_ways have the responder
 * connect back. Collection only: nothing printed; feed the result to
 * ports_decide (decide/portfind.h) and portscan_json_ports. */
#ifndef NP_PORTRUN_H
#define NP_PORTRUN_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "doc/doc.h"
#include "probe/portscan.h"
#include "probe/portspec.h"

#define PORTS_RUN_RESOLVE (-2) /* ports_run: the host did not resolve */
#define PORTS_UDP_MAX 256       /* UDP ports tested (one after another) */
#define PORTS_INBOUND_MAX 1024  /* ports the responder connects back to */

struct ports_run_opts {
	long long timeout_us;   /* per port; 0: PORTSCAN_DEFAULT_TIMEOUT_US */
	int parallel;           /* connects in flight; 0: the default, always
				 * cut to the descriptor budget */
	unsigned resp_port;     /* the responder's port; 0: 7470 */
	bool both_ways;         /* ask the responder to connect back */
	const char *token_file; /* responder secret, or NULL */
	bool before_job;        /* the job has not started: a closed fixed
				 * TCP port is tried again on a listener of
				 * the responder, where one answers */
};

struct ports_run {
	char addr[INET6_ADDRSTRLEN];   /* the address tested */
	struct sockaddr_storage ss;
	socklen_t sslen;
	struct port_result *out;       /* outbound verdicts, request order
					* then ephemeral samples */
	size_t nout;
	struct port_result *in;        /* connect-back verdicts (both_ways) */
	size_t nin;
	bool responder;                /* a responder answered */
	bool local_target;             /* addr is ours: socket table read */
	unsigned peer_lo, peer_hi;     /* peer's ephemeral range, 0 unknown */
	bool no_host;                  /* nothing answered and the next
					* hop's neighbour entry failed:
					* no host answers there */
	char next_hop[INET6_ADDRSTRLEN]; /* whose ARP/ND entry was read */
	char neigh_state[16];          /* its state, "" when not read */
	long long elapsed_us;
	bool auth_failed;              /* the token was refused or could
					* not be read: could not run, as
					* heartbeat says for the same cause */
	bool turned_away;              /* the responder refused us (its
					* table full) or dropped us and
					* said why: could not run, as
					* heartbeat says for the same cause */
	char err[320];                 /* why ports_run failed */
};

/* Tests every port of pl on host (a name or an address). Responder steps
 * that fail become entries in d's errors and leave their ports unknown
 * ("no responder", "responder refused"). When no TCP port got any answer
 * from the host, the neighbour table says whether the next hop resolved:
 * a FAILED or INCOMPLETE entry makes every unanswered port unreachable
 * with reason "no host answers (ARP failed)" (ND for IPv6) and sets
 * no_host, whatever the timeout was. Returns 0 when the check ran
 * (verdicts in r), PORTS_RUN_RESOLVE when host did not resolve (every
 * port resolve-failed, r->err says why, an error in d), or -1 with errno
 * and r->err when memory or epoll failed. Free r with ports_run_free in
 * every case. Bounded: about one timeout for the TCP ports, plus one per
 * UDP port and one per connect-back batch, plus one retry of SYNRETRY_US
 * for the TCP ports and for each connect-back batch whose SYN got no
 * answer (probe/synretry.h). */
int ports_run(const char *host, const struct port_list *pl,
	      const struct ports_run_opts *o, struct ports_run *r,
	      struct doc *d);

/* Releases the verdict arrays; safe on a zeroed struct. */
void ports_run_free(struct ports_run *r);

#endif
