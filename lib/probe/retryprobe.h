/* The retry probe (issue 48): a connect to a port that failed silently,
 * tried again in turns with a connect to a port of the same peer that
 * passed (the mesh's own), so a rule that stops the one port is told from
 * loss on the path, which would stop some connects of both and pass some
 * of each. The mesh runs it on the member that saw the failure. */
#ifndef NP_RETRYPROBE_H
#define NP_RETRYPROBE_H

#include <stdint.h>

#define RETRY_TRIES 5           /* connects to each port */
#define RETRY_EACH_US 1500000LL /* each one's bound: its SYN and one resend */

struct retry_result {
	uint16_t port, control; /* the failed port; the port that passed */
	int tries, answered;    /* connects to port; those answered (an
	                         * accept, a reset, an ICMP error) */
	int refused;            /* of those answered, refused (a reset or
	                         * an ICMP error): an answer, no connection */
	int ctl_tries, ctl_answered;
	char err[160]; /* why none could be made ("" none) */
};

/* Connects to addr (numeric, either family) on port and control in
 * turns, up to RETRY_TRIES each, each bounded by RETRY_EACH_US, none
 * started past deadline_us (monoclock). Fills r. Returns 0, or -1 with
 * errno (EINVAL for an address that does not parse) and r->err. */
int retry_probe(const char *addr, uint16_t port, uint16_t control,
                long long deadline_us, struct retry_result *r);

#endif
