/* netprobe serve's addresses and sockets: a peer's name for logs, the
 * reflection of an address, and sockets bound to the serve address. */
#ifndef NP_SERVE_SOCK_H
#define NP_SERVE_SOCK_H

#include <stddef.h>
#include <sys/socket.h>

#include "wire/proto_msg.h"

struct server;

/* "addr:port" of a sockaddr, unmapping IPv4-mapped IPv6. */
void sv_sa_name(const struct sockaddr_storage *ss, char *out, size_t len);

/* The reflection of an address: IPv4-mapped addresses go out as IPv4. */
void sv_reflect_of(const struct sockaddr_storage *ss,
                   struct proto_reflect_reply *r);

/* A socket of type (SOCK_STREAM listening, or SOCK_DGRAM) of the
 * listening family bound to the serve address and port. Returns the fd,
 * or -1 with errno. */
int sv_bind_socket(struct server *s, int type, unsigned port);

#endif
