/* Everything one peer is checked for, as `scan --peer` and `netprobe
 * mesh` run it: the peer probe (hello, reflection, connect-back, a short
 * heartbeat), the path MTU toward it, and outbound connects to its
 * ephemeral samples and the ports asked for. Collection only: errors go
 * to a document; the findings and what the ports ask to open are decided
 * by peercheck_decide (decide/peerdecide.h). Safe to run
 * in several threads at once, each with its own struct and document. */
#ifndef NP_PEERCHECK_H
#define NP_PEERCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "doc/doc.h"
#include "probe/pathprobe.h"
#include "probe/peer.h"
#include "probe/portrun.h"

struct peercheck_opts {
	long long step_us;      /* each request's deadline; 0: 1 s */
	long long heartbeat_us; /* heartbeat length; 0: 1 s, < 0: none */
	long long path_us;      /* path MTU search; 0: 2 s, < 0: none */
	bool outbound;          /* connect to the peer's ephemeral samples */
	const char *ports;      /* more outbound ports (portspec), or NULL */
	const char *token_file; /* NULL: no authentication */
	/* listeners the caller holds for connect-back (NULL: the probe
	 * opens its own on samples of our ephemeral range) */
	const uint16_t *inbound_ports;
	size_t ninbound;
	int open_tries; /* peerprobe_opts.open_tries */
	/* appended to the error when no responder answers, NULL none */
	const char *no_responder_hint;
	/* the peer's responder holds every free port of `ports` (netprobe
	 * mesh): a reset from one is a firewall's reject */
	bool ports_held;
};

struct peercheck {
	/* in: peer (HOST[:PORT]) and the route's view (peer_addr,
	 * local_ifname, local_addr); out: what the probes established */
	struct peer_verdict v;
	/* the `peers` object, owned; NULL when the probe learnt nothing
	 * (invalid peer, no memory): the caller writes the route's view
	 * (peer_verdict_to_json) */
	json_t *obj;
	int rc;               /* peerprobe_run's: 0 answered, 1 silent */
	struct ports_run out; /* the outbound connects, for the deciders */
	bool out_ran;
	bool ports_held; /* peercheck_opts.ports_held */
	/* the path toward the peer as measured, owned; NULL when the path
	 * was not probed or nothing was measured (decide/decide_path.h) */
	struct path_result *path;
};

/* Checks pc->v.peer within about step + heartbeat + path + 2 steps.
 * Errors go to d; the findings are peercheck_decide's. */
void peercheck_run(struct peercheck *pc, const struct peercheck_opts *o,
                   struct doc *d);

/* Releases the object and the port results; safe on a zeroed struct. */
void peercheck_free(struct peercheck *pc);

#endif
