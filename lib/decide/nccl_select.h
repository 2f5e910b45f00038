/* NCCL's own socket-interface selection (src/misc/socket.cc and
 * src/os/linux.cc, ncclFindInterfaces), replicated as a pure function over
 * an interface list so netprobe and ncclcheck predict the same choice. */
#ifndef NP_NCCL_SELECT_H
#define NP_NCCL_SELECT_H

#include <stdbool.h>

#include "kernel/iface.h"
#include "kernel/jobenv.h"

#define NCCL_MAX_IFS 16

struct nccl_pick {
	const struct iface *ifc;
	const struct iface_addr *addr;
	const char *name; /* as getifaddrs names it: the interface, or an
			   * IPv4 alias's label ("eth0:1") */
};

struct nccl_choice {
	struct nccl_pick v[NCCL_MAX_IFS]; /* v[0] is what bootstrap uses */
	int n;
	/* which rule produced the list: "NCCL_SOCKET_IFNAME", "ib",
	 * "NCCL_COMM_ID subnet", "^docker,lo,virbr", "docker", "lo", "virbr",
	 * or "none" */
	const char *rule;
	bool ifname_ignored; /* NCCL_SOCKET_IFNAME set but one character long,
			      * which NCCL ignores */
	bool comm_id_unparsed; /* NCCL_COMM_ID not a numeric address */
};

/* Computes what NCCL would choose on this interface list. Returns the
 * number of interfaces chosen (0: NCCL fails with "no socket interface
 * found"). */
int nccl_select(const struct iface_list *l, const struct nccl_env *env,
		struct nccl_choice *out);

/* What NCCL's bootstrap listens on, modelled apart from the transport's
 * choice: with NCCL_COMM_ID set (even to text NCCL rejects), only the
 * interface whose subnet holds that address, NCCL_SOCKET_IFNAME and the
 * "ib" rule ignored (src/bootstrap.cc, bootstrapNetInit), rule "NCCL_COMM_ID
 * subnet"; none means NCCL fails with "NET/Socket : No usable listening
 * interface found". Without it, the first interface nccl_select picks.
 * Returns 1 with out->v[0] the bootstrap's interface, or 0 (out->rule
 * "none"; out->comm_id_unparsed when the address was not numeric). */
int nccl_select_bootstrap(const struct iface_list *l,
			  const struct nccl_env *env, struct nccl_choice *out);

/* Applies one NCCL_SOCKET_IFNAME-style list ("eth", "^docker,lo",
 * "=eth0,eth1", entries may carry ":port") to one interface name, as
 * NCCL's matchIfList does. */
bool nccl_ifname_match(const char *list, const char *name);

/* The socket family NCCL_SOCKET_FAMILY forces: AF_INET, AF_INET6, or -1. */
int nccl_env_family(const struct nccl_env *env);

#endif
