/* The client side of the responder protocol (docs/protocol.md): one TCP
 * connection to a `netprobe serve`, every call bounded by a deadline so a
 * silent or hostile peer can never make it hang past its timeout. Library
 * code: nothing printed; failures return -1 with a message in c->err. */
#ifndef NP_CLIENT_H
#define NP_CLIENT_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "wire/portstate.h"
#include "wire/proto_msg.h"

#define CLIENT_ERR_MAX 256
#define CLIENT_REASON_MAX (PROTO_REASON_MAX + 1)

/* Why a call failed (c->code), so callers can map it to an exit status. */
enum client_code {
	CLIENT_OK = 0,
	CLIENT_E_RESOLVE,  /* the host name did not resolve */
	CLIENT_E_CONNECT,  /* TCP connect refused, unreachable or timed out */
	CLIENT_E_TIMEOUT,  /* the responder did not answer in time */
	CLIENT_E_PROTOCOL, /* the peer does not speak the protocol */
	CLIENT_E_CLOSED,   /* the responder closed the connection */
	CLIENT_E_REFUSED,  /* the responder sent an ERROR frame */
	CLIENT_E_IO,       /* a local socket error */
	CLIENT_E_USAGE,    /* bad arguments */
	CLIENT_E_DROPPED,  /* the responder closed it and said why (an
	                    * ERROR "dropped": its table is full, a
	                    * deadline); not a network fault */
};

struct np_client {
	int fd;         /* -1 when closed */
	char host[256]; /* as given */
	unsigned port;
	char addr[INET6_ADDRSTRLEN];       /* the address connected to */
	char local_addr[INET6_ADDRSTRLEN]; /* our source address */
	unsigned local_port;
	struct sockaddr_storage peer; /* for UDP calls */
	socklen_t peerlen;
	long long timeout_us;     /* per call */
	long long connect_us;     /* how long connect took */
	struct proto_hello hello; /* the responder's HELLO */
	bool have_hello;
	bool authed;
	enum client_code code;    /* of the last failure */
	int sys_errno;            /* CLIENT_E_CONNECT: connect's errno,
	                           * ETIMEDOUT when it timed out */
	bool connect_silent;      /* the connect got no answer at all by
	                           * its deadline (a lost SYN looks so) */
	unsigned err_code;        /* ERROR frame code, or 0 */
	char err[CLIENT_ERR_MAX]; /* of the last failure */
	uint8_t *buf;             /* one frame, malloc'd */
	int mss;                  /* TCP_MAXSEG before connecting, 0 none */
	/* this connection only: the device it is bound to (SO_BINDTODEVICE)
	 * and the source it leaves from, "" for none (client_mesh_open_via) */
	char via_dev[IF_NAMESIZE];
	char via_src[INET6_ADDRSTRLEN];
};

/* Splits "HOST[:PORT]", "[V6]:PORT" or a bare IPv6 address into host and
 * port (def_port when none). Returns 0, or -1 with err filled. */
int client_parse_peer(const char *spec, unsigned def_port, char *host,
                      size_t hostlen, unsigned *port, char *err, size_t errlen);

/* Resolves host:port (numeric or a name) into ss. Returns 0, or -1 with
 * err filled ("cannot resolve 'x': Name or service not known"). */
int client_resolve(const char *host, unsigned port, int socktype,
                   struct sockaddr_storage *ss, socklen_t *sslen, char *err,
                   size_t errlen);

/* Makes every later client connection of this process leave from addr
 * (numeric, port 0; NULL: the kernel chooses again), so that many mesh
 * members can share one host on their own loopback addresses. Call it
 * before any thread connects. Returns 0, or -1 when addr is not a
 * numeric address. */
int client_set_source(const char *addr);

/* Connects to the responder at host:port within timeout_us, says HELLO and
 * reads its HELLO; with token_file (may be NULL) it also authenticates.
 * Returns 0, or -1 with c->code and c->err set (c stays safe to close). */
int client_open(struct np_client *c, const char *host, unsigned port,
                long long timeout_us, const char *token_file);

/* Sends HELLO again and refreshes c->hello. Returns 0, or -1. */
int client_hello(struct np_client *c);

/* Asks which source address and port the responder saw. Returns 0, or -1.
 * NAT sits between us when addr differs from c->local_addr. */
int client_reflect(struct np_client *c, char *addr, size_t addrlen,
                   unsigned *port);

/* Sends len bytes (at most PROTO_MAX_PAYLOAD) as ECHO over the held TCP
 * connection and waits for the same bytes back. *rtt_us gets the round
 * trip. Returns 0, or -1. */
int client_echo_tcp(struct np_client *c, const void *payload, size_t len,
                    long long *rtt_us);

/* Asks the responder to open short-lived listeners on ports (proto
 * PROTO_TCP or PROTO_UDP) for lifetime_us. opened[i] says which did.
 * Returns 0 when the responder answered (even if none opened), or -1. */
int client_listen(struct np_client *c, int proto, const uint16_t *ports,
                  size_t n, long long lifetime_us, bool *opened);

/* Asks the responder to open up to nsamples listeners at both ends of its
 * ip_local_port_range. ports_out (nsamples long) gets the ports opened,
 * *nout how many; *range_lo and *range_hi the range (0 unknown). Returns 0, or
 * -1. */
int client_listen_ephemeral(struct np_client *c, int proto, size_t nsamples,
                            long long lifetime_us, uint16_t *ports_out,
                            size_t *nout, unsigned *range_lo,
                            unsigned *range_hi);

/* Asks the responder to connect back to the address this connection comes
 * from, on each port (TCP), within timeout_us. states[i] and reasons[i]
 * ("syn-ack", "rst", "timeout", "icmp type 3 code 13") say what happened;
 * rtt_us may be NULL (-1 when unknown). Returns 0, or -1. */
int client_connect_back(struct np_client *c, int proto, const uint16_t *ports,
                        size_t n, long long timeout_us, enum port_state *states,
                        char reasons[][CLIENT_REASON_MAX], long long *rtt_us);

/* Proves UDP reachability of host:port where a responder (its UDP port or
 * a UDP temporary listener) answers: sends an ECHO datagram, retrying a
 * few times within timeout_us. *state: open (answered, reason
 * "responder"), closed (ICMP port unreachable, "icmp type 3 code 3"),
 * prohibited, unreachable, or filtered ("timeout"); resolve-failed when the
 * host does not resolve. reason needs CLIENT_REASON_MAX bytes. rtt_us may
 * be NULL. Returns 0 when a verdict was reached, -1 on a local error. */
int client_udp_probe(const char *host, unsigned port, long long timeout_us,
                     enum port_state *state, char *reason, long long *rtt_us);

/* Closes the connection. Safe on a zeroed or already closed client. */
void client_close(struct np_client *c);

#endif
