/* One path toward a peer: the kernel's route (out interface, source,
 * gateway, MTUs) and the path MTU measured against its responder: the
 * facts decide/decide_path.h judges. Used by `netprobe path` and, for
 * each peer, by `scan --peer`. */
#ifndef NP_PATHPROBE_H
#define NP_PATHPROBE_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>

#include <jansson.h>

#include "doc/doc.h"
#include "kernel/nl.h"
#include "probe/peer.h"
#include "probe/pmtu.h"

struct path_opts {
	unsigned port;         /* responder port; 0: PROTO_DEFAULT_PORT */
	unsigned min_size;     /* 0: 576 (IPv4) or 1280 (IPv6) */
	unsigned max_size;     /* 0: the out interface's MTU */
	long long deadline_us; /* the whole MTU search; 0: 5 s */
};

struct path_result {
	char target[256]; /* as given: HOST[:PORT] */
	char host[256];
	unsigned port;
	char addr[INET6_ADDRSTRLEN]; /* resolved */
	int family;

	bool have_route;
	struct route_info route;
	char route_err[128]; /* why the lookup failed, "" none */
	unsigned if_mtu;     /* MTU of the out interface, 0 unknown */

	bool pmtu_ran; /* the responder answered */
	struct pmtu_result pmtu;
	unsigned kernel_pmtu; /* IP_MTU after the search, 0 unknown */
	unsigned search_max;  /* the largest size searched */
	char pmtu_err[256]; /* why no MTU was measured, "" none */

	/* no answer: the next hop's ARP/ND entry, read after the probes */
	char next_hop[INET6_ADDRSTRLEN]; /* whose entry, "" not read */
	char neigh_state[16];            /* its state, "" not read */
	bool no_host;                    /* failed or incomplete: no host
					  * answers there */

	/* scan's recommended interface, set through the hook; "" unset */
	char recommended_iface[IF_NAMESIZE];
};

/* Fills o with the defaults. */
void path_opts_default(struct path_opts *o);

/* Collects: parses and resolves target, asks the kernel for the route
 * and the out interface's MTU, then searches the path MTU against the
 * responder. A missing responder is not a failure: r->pmtu_ran stays
 * false and r->pmtu_err says why. Returns 0 when something was measured,
 * or -1 with err filled when the target is bad or nothing could be
 * measured (no route and no responder). */
int path_collect(const char *target, const struct path_opts *o,
                 struct path_result *r, char *err, size_t errlen);

/* The hook for scan's recommendation: records the interface scan
 * recommends (NULL or "" clears it), so the document says whether the
 * route leaves by it. */
void path_set_recommended_iface(struct path_result *r, const char *ifname);

/* Adds the collection's errors to d (no route, no path MTU measured);
 * the findings are path_decide's (decide/decide_path.h). Returns 0, or
 * -1 on no memory. */
int path_errors(const struct path_result *r, struct doc *d);

/* The `target`, `route`, `pmtu` and `recommended_iface` keys as one
 * object (new reference, NULL on no memory); path_to_doc moves them to
 * the top level of a path document. */
json_t *path_to_json(const struct path_result *r);
int path_to_doc(const struct path_result *r, struct doc *d);

/* For scan --peer: runs the whole path probe toward pv's host and port
 * (split once, by the peer probe),
 * sets pv->path_mtu (the largest size that crossed, -1 unknown) and fills
 * pv->local_ifname / local_addr from the route when they are empty, adds
 * errors to d, stores the path object in *out (new reference; NULL when
 * it could not be built) and what was measured in *facts (the caller
 * frees it; NULL when nothing was), for path_decide. Returns 0 when
 * something was measured, -1 otherwise (the error is in d). */
int path_for_peer(const struct path_opts *o, struct peer_verdict *pv,
                  json_t **out, struct path_result **facts, struct doc *d);

#endif
