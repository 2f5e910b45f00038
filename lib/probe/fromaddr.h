/* Whether a peer answers a connection made from one local address: the
 * measurement behind "this interface reaches that peer", for settings
 * such as NCCL_SOCKET_IFNAME that pin an interface other than the one the
 * route toward the peer leaves by. */
#ifndef NP_FROMADDR_H
#define NP_FROMADDR_H

#include <netinet/in.h>
#include <stddef.h>

struct fromaddr_req {
	char src[INET6_ADDRSTRLEN]; /* the local address to bind */
	char dst[INET6_ADDRSTRLEN]; /* the peer's address */
	unsigned port;              /* its responder's port */
	int answered;    /* out: 1 a SYN-ACK or RST came back to src, 0 no
	                  * answer or unreachable, -1 not tested */
	char reason[40]; /* out: "syn-ack", "rst", "timeout", "host
	                  * unreachable", or why it was not tested */
};

/* Connects from each src to its dst:port, all in parallel, each within
 * SYNRETRY_US so that the kernel's SYN retransmission is part of the
 * attempt: one lost packet cannot read as unreachable. Returns 0 (every
 * request settled, bounded by SYNRETRY_US), or -1 with errno when no
 * memory. */
int fromaddr_probe(struct fromaddr_req *v, size_t n);

#endif
