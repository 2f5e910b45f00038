/* The peer probe of `netprobe scan --peer`: against one responder, says
 * hello, learns the address it sees (NAT), asks it to connect back to us
 * (inbound), measures a short heartbeat, and notes our route toward it. */
#ifndef NP_PEERPROBE_H
#define NP_PEERPROBE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "doc/doc.h"
#include "probe/peer.h"

/* After the heartbeat, the link's loss and tail latency (issue 31): this
 * many UDP echoes, one at a time, each waited for this long, all within
 * the bound. */
#define PEER_LOSS_ECHOES 100
#define PEER_LOSS_WAIT_US 100000LL
#define PEER_LOSS_BOUND_US 2500000LL

struct peerprobe_opts {
	unsigned default_port;  /* when peer has no :PORT; 0: 7470 */
	long long step_us;      /* each request's deadline; 0: 1s */
	long long heartbeat_us; /* heartbeat length; 0: 1s, <0: none */
	int ephemeral_samples;  /* local sample ports; 0: 4, <0: none */
	const char *token_file; /* NULL: no authentication */
	/* ports the caller already listens on (and accepts on) for the
	 * connect-back: with them, no listener is opened per probe, so many
	 * probes can run at once (netprobe mesh); NULL: open our own */
	const uint16_t *inbound_ports;
	size_t ninbound;
	/* connect and hello tried this many times when they time out (0
	 * or 1: once); the mesh, whose peers are known to run a responder,
	 * tries twice */
	int open_tries;
	/* peer already split (a peer_verdict's host and port): the probe
	 * uses them and does not parse peer again; NULL: it parses */
	const char *host;
	unsigned port;
};

/* Probes one peer (HOST[:PORT]) within a few seconds in all. Fills v,
 * *detail (when detail is not NULL) with the `peers` object of the scan
 * contract (peer, peer_addr, responded, local_addr, local_ifname,
 * observed_addr, nat, inbound, rtt_us, path_mtu, ports, plus node,
 * software and error), and adds to d (when not NULL) an error when the
 * peer could not be probed; what v holds is judged by peerprobe_decide
 * (decide/decide_peerprobe.h: nat-detected, inbound-blocked). Returns 0
 * when the responder answered, 1 when it did not (v->responded false, the
 * reason in the error), -1 for an invalid peer or no memory. */
int peerprobe_run(const char *peer, const struct peerprobe_opts *o,
                  struct peer_verdict *v, json_t **detail, struct doc *d);

/* Opens TCP listeners (dual-stack where IPv6 is there) on up to n
 * samples at both ends of this host's ip_local_port_range (lo, hi, lo+1,
 * hi-1 ...), skipping busy ports, for probes that share them
 * (inbound_ports). fds and ports get what opened. Returns the count. */
size_t peerprobe_listen_samples(size_t n, int *fds, uint16_t *ports);

/* Of a Gloo pair the side with the higher address connects (Gloo's
 * Device::isInitiator). Returns 1 when local sorts above peer, -1 below,
 * 0 when the two cannot be compared (different families, equal, or not
 * numeric addresses). */
int peerprobe_gloo_order(const char *local, const char *peer);

#endif
