/* What probing one peer established, as the scan's recommendation reads it.
 * Filled by the peer probes (serve's client side, path); read by recommend
 * and by the deciders (decide/decide_peerprobe.h). */
#ifndef NP_PEER_H
#define NP_PEER_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

#include "kernel/nl.h"
#include "wire/portstate.h"

#define PEER_BACK_MAX 8     /* connect-back checks of one probe */
#define PEER_REASON_MAX 33  /* CLIENT_REASON_MAX (wire/client.h) */

/* One connect-back check: the responder connecting to a port of ours. */
struct peer_back {
	unsigned port;
	enum port_state state;
	char reason[PEER_REASON_MAX]; /* what settled it */
	bool synack_lost; /* timed out while our kernel holds its SYN half
			   * open: it came in, our answer did not get back */
};

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
	bool turned_away;   /* its responder refused us (its table full)
			     * or dropped us and said why: not the
			     * network's doing */
	unsigned local_port;    /* our source port toward it, 0 unknown */
	unsigned observed_port; /* the source port the responder saw, 0 */
	/* the connect-back checks, in the order made (inbound says
	 * whether all were open) */
	struct peer_back back[PEER_BACK_MAX];
	size_t nback;
	/* the loss and tail latency of the link (issue 31): UDP echoes
	 * sent and unanswered, their median and tail RTT; udp_sent 0:
	 * not measured */
	int udp_sent, udp_lost;
	long long rtt_p50_us, rtt_p99_us;
	/* the longest time the two hosts held one echo (the kernel's
	 * receive stamps on both ends): taken out of the RTTs above, so a
	 * stalled host is not a slow link */
	long long hosts_held_max_us;
	/* the tables' own route toward the peer (issue 48), read where it
	 * decides: a multipath route (its next hops, with their gateways'
	 * neighbour states once the peer failed) or a blackhole,
	 * unreachable or prohibit route (the lookup's errno named it) */
	char gateway[INET6_ADDRSTRLEN]; /* the lookup's next hop, "" */
	bool have_match;
	struct route_info match;
	bool have_fallback; /* a unicast route holds the peer behind the
			     * drop route (deleting it leaves that one) */
	char fallback[INET6_ADDRSTRLEN * 2 + IF_NAMESIZE + 16];
};

/* True when the connect-back failed (inbound 0) and every failed check
 * came in and was answered here (synack_lost): the answers are lost on
 * the way back (reply-blocked), this node's firewall is not the cause. */
static inline bool peer_replies_lost(const struct peer_verdict *v)
{
	bool any = false;

	if (v->inbound != 0)
		return false;
	for (size_t k = 0; k < v->nback && k < PEER_BACK_MAX; k++) {
		if (v->back[k].state == PORT_OPEN)
			continue;
		if (!v->back[k].synack_lost)
			return false;
		any = true;
	}
	return any;
}

#endif
