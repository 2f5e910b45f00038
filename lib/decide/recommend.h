/* The scan's recommendation: one interface and address for NCCL, Gloo,
 * torch, Ray and Open MPI, with the reasons it won and why each other
 * interface lost; or none, with what to change instead. A pure function
 * over the interface list, the layering, the routes and the peers. */
#ifndef NP_RECOMMEND_H
#define NP_RECOMMEND_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "kernel/iface.h"
#include "layers/layers.h"
#include "probe/peer.h"

#define REC_MAX_ENV 8
#define REC_MAX_REASONS 16
#define REC_TEXT 320

struct rec_input {
	const struct iface_list *ifaces;
	const struct layers *layers;        /* NULL when not known */
	const char *const *default_ifnames; /* default routes' out interfaces,
	                                     * best first (IPv4 first) */
	size_t ndefault;
	/* What is known about each peer: from the route toward it
	 * (local_ifname, nat -1, inbound -1) or from the peer probes. */
	const struct peer_verdict *peers;
	size_t npeers;
	bool routes_known; /* false: routes could not be read (sysroot
	                    * without them, netlink refused) */
};

struct rec_env {
	char name[40];
	char value[INET6_ADDRSTRLEN + IF_NAMESIZE];
};

struct rec_reject {
	char interface[IF_NAMESIZE];
	char reason[REC_TEXT];
};

enum rec_none {
	REC_CHOSEN = 0,  /* an interface was chosen */
	REC_NONE_NAT,    /* behind NAT: no interface can work */
	REC_NONE_TIE,    /* cannot tell between candidates */
	REC_NONE_NOCAND, /* no candidate at all */
	REC_NONE_PEERS,  /* peers disagree, or their route is unusable */
	REC_NONE_LAYERS, /* WSL2 in an unknown networking mode: NAT, its
	                  * default, not ruled out */
};

struct recommendation {
	const struct iface *ifc;       /* NULL: no interface */
	const struct iface_addr *addr; /* NULL with ifc */
	enum rec_none none;
	struct rec_env env[REC_MAX_ENV];
	int nenv;
	char reasons[REC_MAX_REASONS][REC_TEXT];
	int nreasons;
	struct rec_reject *rejected; /* owned */
	size_t nrejected, caprejected;
};

/* Decides. Returns 0, or -1 with errno ENOMEM (out is then still safe to
 * free). Call recommendation_free afterwards in both cases. */
int recommend(const struct rec_input *in, struct recommendation *out);

/* Releases the rejected list and zeroes the struct. */
void recommendation_free(struct recommendation *r);

/* The value of one env setting, or NULL when not recommended. */
const char *recommendation_env(const struct recommendation *r,
                               const char *name);

/* The reason an interface was rejected, or NULL. */
const char *recommendation_rejected(const struct recommendation *r,
                                    const char *ifname);

/* The `recommendation` object of the scan document (new reference, NULL
 * on no memory). */
json_t *recommendation_to_json(const struct recommendation *r);

#endif
