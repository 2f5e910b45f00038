/* The peer probe's deciders: nat-detected and inbound-blocked from the
 * peer_verdict that probe/peerprobe.c filled; pure but for the document. */
#include "decide/decide_peerprobe.h"

#include "probe/peerprobe.h"

/* The NAT finding's sentence on Gloo: which side of the pair with this
 * peer connects, so why Gloo works across this NAT or not. */
static void gloo_evidence(json_t **ev, const char *local, const char *peer)
{
	int o = peerprobe_gloo_order(local, peer);

	if (o > 0)
		evidence_add(ev, "gloo",
		             "%s sorts above %s: of a Gloo pair the higher "
		             "address connects (gloo/transport/tcp/device.cc), "
		             "so this rank connects out through the NAT and "
		             "Gloo may work with this peer; with a peer above "
		             "it, Gloo waits for a connection that cannot "
		             "arrive: the same job works on one cluster and "
		             "hangs on another",
		             local, peer);
	else if (o < 0)
		evidence_add(ev, "gloo",
		             "%s sorts below %s: of a Gloo pair the higher "
		             "address connects (gloo/transport/tcp/device.cc), "
		             "so this peer must connect to %s and cannot; with "
		             "peers below it Gloo would work, which is why the "
		             "same job works on one cluster and not on another",
		             local, peer, local);
}

/* nat-detected: the responder saw another source than ours. */
static int nat_finding(const struct peer_verdict *v, struct doc *d)
{
	json_t *ev = NULL;

	evidence_add(&ev, "socket", "our source address toward %s: %s:%u",
	             v->peer_addr, v->local_addr, v->local_port);
	evidence_add(&ev, "responder", "%s saw the connection come from %s:%u",
	             v->peer_addr, v->observed_addr, v->observed_port);
	gloo_evidence(&ev, v->local_addr, v->peer_addr);
	return doc_add_finding(
	    d, FINDING_NAT_DETECTED, -1, ev, NULL,
	    "%s sees this host as %s, not %s: peers cannot connect to %s; "
	    "NCCL and Open MPI fail, Gloo works or hangs depending on which "
	    "address is higher",
	    v->peer_addr, v->observed_addr, v->local_addr, v->local_addr);
}

/* inbound-blocked: a connect-back from the responder to us failed. */
static int inbound_finding(const struct peer_verdict *v, struct doc *d)
{
	const char *us = v->observed_addr[0] ? v->observed_addr : v->local_addr;
	json_t *ev = NULL;

	for (size_t k = 0; k < v->nback && k < PEER_BACK_MAX; k++)
		if (v->back[k].state != PORT_OPEN)
			evidence_add(&ev, "connect-back",
			             "%s -> %s:%u/tcp: %s (%s)", v->peer_addr,
			             us, v->back[k].port,
			             port_state_name(v->back[k].state),
			             v->back[k].reason);
	return doc_add_finding(d, FINDING_INBOUND_BLOCKED, -1, ev, NULL,
	                       "%s reaches %s:%u, but connections from it "
	                       "back to %s fail",
	                       v->local_addr, v->peer_addr, v->port, us);
}

/* reply-blocked: the connect-backs came in and were answered here, the
 * answers never got back to the peer (its input rules on its ephemeral
 * range, or a stateless ACL): nothing to open on this node. */
static int reply_finding(const struct peer_verdict *v, struct doc *d)
{
	const char *us = v->observed_addr[0] ? v->observed_addr : v->local_addr;
	json_t *ev = NULL;

	for (size_t k = 0; k < v->nback && k < PEER_BACK_MAX; k++)
		if (v->back[k].synack_lost)
			evidence_add(&ev, "connect-back",
			             "%s -> %s:%u/tcp: %s (%s); this host holds "
			             "the SYN half open, its SYN-ACK resent",
			             v->peer_addr, us, v->back[k].port,
			             port_state_name(v->back[k].state),
			             v->back[k].reason);
	return doc_add_finding(
	    d, FINDING_REPLY_BLOCKED, -1, ev, NULL,
	    "%s's connections back to %s arrive and are answered, but the "
	    "answers never get back to %s: its input rules drop the replies "
	    "to its own ephemeral ports, or a stateless ACL between does",
	    v->peer_addr, us, v->peer_addr);
}

/* See decide_peerprobe.h. */
int peerprobe_decide(const struct peer_verdict *v, struct doc *d)
{
	if (!v->responded)
		return 0;
	if (v->nat == 1 && nat_finding(v, d) < 0)
		return -1;
	if (v->inbound == 0 &&
	    (peer_replies_lost(v) ? reply_finding(v, d)
				  : inbound_finding(v, d)) < 0)
		return -1;
	return 0;
}
