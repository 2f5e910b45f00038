/* The decider of `netprobe ports` and `scan --peer`: which ports fail and
 * why, as findings with the firewall commands that open them. */
#ifndef NP_PORTFIND_H
#define NP_PORTFIND_H

#include <stdbool.h>
#include <stddef.h>

#include "doc/doc.h"
#include "probe/portscan.h"

/* Who was probed, for findings' wording and fix commands. */
struct ports_target {
	const char *host;    /* as given */
	const char *addr;    /* numeric address */
	bool responder;      /* a responder answered (UDP, samples tested) */
	/* the target's ip_local_port_range as its responder said, 0 0
	 * unknown: the range to open (else the samples' ends, which are
	 * not the range's when its end ports were busy) */
	unsigned eph_lo, eph_hi;
	const char *next_hop;    /* no_host: whose ARP/ND entry failed */
	const char *neigh_state; /* ... and its state ("failed") */
	bool no_host;        /* nothing answered and the neighbour entry
			      * failed: no host answers there */
	bool held;           /* the peer's responder holds every free
			      * fixed port (netprobe mesh): a reset is a
			      * firewall's reject, not a missing service */
	/* this host's `firewall` object (kernel/fwrules.h's
	 * fwrules_to_json), NULL unread: the inbound fixes are written
	 * against it; the target's own ruleset is never known here */
	const json_t *ruleset;
	bool before_job;     /* ports --before-job: nothing is meant to
			      * listen yet; a reset is no fault unless the
			      * responder listened there (port-unused) */
};

/* The decider: adds to d the findings for outbound results out[] and
 * connect-back results in[] (NULL, 0 without --both-ways): port-closed,
 * port-filtered, port-prohibited, host-unreachable, listener-loopback-only,
 * ephemeral-range-blocked, inbound-blocked and, with t->before_job,
 * port-unused, each naming its ports and
 * carrying fix commands (nft, ufw, firewalld). With t->no_host the
 * outbound verdict is one host-unreachable "no host answers", never a
 * firewall fix. Pure over the structs.
 * Returns 0, or -1 on no memory. */
int ports_decide(struct doc *d, const struct ports_target *t,
		 const struct port_result *out, size_t nout,
		 const struct port_result *in, size_t nin);

#endif
