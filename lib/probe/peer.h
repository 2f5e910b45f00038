/* What probing one peer established, as the scan's recommendation reads it.
 * Filled by the peer probes (serve's client side, path); read by recommend. */
#ifndef NP_PEER_H
#define NP_PEER_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>

struct peer_verdict {
	char peer[256];                        /* as given: HOST[:PORT] */
	char host[256];  /* peer split once (base/hostport.h); "" not yet */
	unsigned port;   /* its port, the responder's default when none */
	char peer_addr[INET6_ADDRSTRLEN];      /* resolved address */
	bool responded;                        /* a responder said hello */
	char local_addr[INET6_ADDRSTRLEN];     /* our source toward it */
	char local_ifname[IF_NAMESIZE];        /* the route's out interface */
	char observed_addr[INET6_ADDRSTRLEN];  /* what the responder saw, "" */
	int nat;        /* 1 NAT between us, 0 none, -1 unknown */
	int inbound;    /* 1 connect-back reached us, 0 blocked, -1 untested */
	long long rtt_us;   /* median heartbeat RTT, -1 unknown */
	int path_mtu;       /* largest packet that crosses, -1 unknown */
	int connect_errno;  /* no answer: connect's errno (ETIMEDOUT for a
			     * timeout), EPROTO when it connected but did
			     * not answer as a responder; 0 otherwise */
};

#endif
