/* The verdict on one port, shared by ports, connect-back, capture and
 * reports: what the probe saw and what settled it. */
#ifndef NP_PORTSTATE_H
#define NP_PORTSTATE_H

enum port_state {
	PORT_UNKNOWN = 0, /* not tested, or UDP with no responder */
	PORT_OPEN,        /* SYN-ACK, or the responder answered */
	PORT_CLOSED,      /* TCP RST */
	PORT_FILTERED,    /* no answer by the deadline */
	PORT_PROHIBITED,  /* ICMP administratively prohibited */
	PORT_UNREACHABLE, /* no route, host or net unreachable */
	PORT_RESOLVE,     /* the host name did not resolve */
};

/* "open", "closed", "filtered", "prohibited", "unreachable", "unknown",
 * "resolve-failed": the JSON `state` values. */
const char *port_state_name(enum port_state s);

/* The reason of a connect-back the responder saw time out while the
 * prober's kernel held its SYN half open, its SYN-ACK resent: the SYN came
 * in, the answer did not get back (probe/synretry.h; finding
 * reply-blocked). Readers of a document know it by this text. */
#define PORT_REASON_SYNACK_LOST "syn-ack unanswered"

#endif
