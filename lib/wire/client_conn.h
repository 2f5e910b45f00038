/* Inside the client (lib/wire/client_*.c only; callers use client.h): the
 * connection and framing every request is built on. Every wait here ends
 * by a deadline in mono_now_us microseconds (base/monoclock.h); every
 * failure is recorded in c->code and c->err and returned as -1. */
#ifndef NP_CLIENT_CONN_H
#define NP_CLIENT_CONN_H

#include <sys/types.h>
#include <time.h>

#include "base/monoclock.h"
#include "wire/auth.h"
#include "wire/client.h"

/* Records a failure in c and returns -1, so that callers can return it. */
__attribute__((format(printf, 3, 4))) int
client_fail(struct np_client *c, enum client_code code, const char *fmt, ...);

/* Numeric address and port (port may be NULL) of a sockaddr, IPv4-mapped
 * IPv6 shown as IPv4. */
void client_sa_format(const struct sockaddr_storage *ss, char *addr, size_t len,
                      unsigned *port);

/* Binds fd to the address client_set_source set, when one is set and of
 * this family. Returns 0, or -1 with errno. */
int client_bind_source(int fd, int family);

/* Microseconds from a kernel receive stamp (SO_TIMESTAMPNS, which is
 * CLOCK_REALTIME) to now: how long a datagram waited in this host before
 * it was read. -1 without a stamp, or when the clock stepped back. */
long long client_us_since_stamp(const struct timespec *rx);

/* Sets c up, resolves host and connects within timeout_us: everything of
 * client_open before the HELLO. Returns 0, or -1 (c stays safe to
 * close). */
int client_connect(struct np_client *c, const char *host, unsigned port,
                   long long timeout_us);

/* client_connect with TCP_MAXSEG set to mss (> 0) before the SYN, so
 * both directions use segments of at most mss bytes. */
int client_connect_mss(struct np_client *c, const char *host, unsigned port,
                       long long timeout_us, int mss);

/* client_connect_mss on one device from one source (dev, src: NULL or
 * "" for the kernel's choice): a mesh member whose route leaves by a
 * bridge's port joins by the bridge. */
int client_connect_via(struct np_client *c, const char *host, unsigned port,
                       long long timeout_us, int mss, const char *dev,
                       const char *src);

/* A mesh member's segments toward node 0: small enough to cross a hop
 * that drops larger packets silently (576-byte IPv4 minimum, less the
 * headers). */
#define CLIENT_MESH_MSS 536

/* Sends one frame whose payload already sits at c->buf + PROTO_HDR_LEN.
 * Returns 0, or -1. */
int client_send_frame(struct np_client *c, uint8_t type, size_t len,
                      long long deadline_us);

/* Reads one frame into c->buf. Returns its type with *len the payload
 * length, or -1; an ERROR frame is -1 with CLIENT_E_REFUSED and the
 * responder's message, a foreign peer CLIENT_E_PROTOCOL. */
int client_recv_frame(struct np_client *c, size_t *len, long long deadline_us);

/* Sends a request (payload at c->buf + PROTO_HDR_LEN) and waits, within
 * c->timeout_us, for a reply of type want, skipping stale echo replies of
 * a pipelined heartbeat. Returns the reply's payload length, or -1. */
ssize_t client_call(struct np_client *c, uint8_t type, size_t len,
                    uint8_t want);

/* client_auth.c: loads the token into k, with the usual message when it
 * cannot. Returns 0, or -1. */
int client_auth_load(struct np_client *c, const char *token_file,
		     struct auth_key *k);

/* Reads the challenge of n bytes in c->buf and writes the response's MAC
 * where its payload goes. Returns 0, or -1. */
int client_auth_sign(struct np_client *c, const struct auth_key *k,
		     ssize_t n);

/* Reads the reply of n bytes to the response; authenticated when it says
 * so. Returns 0, or -1. */
int client_auth_check(struct np_client *c, ssize_t n);

#endif
