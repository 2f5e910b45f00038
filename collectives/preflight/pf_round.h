/* The pre-flight's exchanges over the side channel, centred on the hub so
 * that no process receives every other's data: every process sends its
 * infos to rank 0; rank 0 sends each process only the infos of those it
 * probes; every process probes and sends its pair results to rank 0;
 * rank 0 decides and sends the findings to all. O(N log N) bytes in all,
 * where gathering everything everywhere was O(N^2). No CUDA, no NCCL. */
#ifndef NC_PF_ROUND_H
#define NC_PF_ROUND_H

#include <stdbool.h>

#include "bootstrap/bootstrap.h"
#include "preflight/preflight.h"

struct nc_pf_in {
	const struct nc_rankinfo *mine; /* this process's infos, one a GPU */
	int ndev;                       /* GPUs per process */
	int nranks;                     /* NCCL ranks in all */
	bool probe;                     /* run the reachability test */
	int listen_fd;                  /* this process's probe listener */
	long long probe_timeout_us;
	const char *socket_ifname;      /* the hub's NCCL_SOCKET_IFNAME */
	long long deadline_us;          /* for every exchange */
};

/* What the round gives the hub, for the run (results/output.h's struct
 * nc_run holds the same fields: the caller copies them in and out). */
struct nc_pf_out {
	struct nc_rankinfo *ranks; /* nranks entries, NCCL rank order */
	int nhosts;
	struct nc_pair *pairs;
	int npairs;
	bool ran;                  /* the probe round's pairs are in */
};

/* Runs the pre-flight exchanges. Every process gets the same findings in
 * f (at most max). On the hub, also fills out->ranks (allocated here when
 * NULL), out->pairs, out->npairs, out->nhosts, out->ran and the channel's
 * host table. Returns the number of findings, or -1 with sc->why (a lost
 * peer, the deadline, no memory). */
int nc_pf_round(struct sc *sc, const struct nc_pf_in *in,
		struct nc_pf_out *run, struct nc_pf_finding *f, int max);

#endif
