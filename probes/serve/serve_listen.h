/* netprobe serve's temporary listeners: opened by LISTEN on the ports
 * asked for or on samples of ip_local_port_range, each until it expires. */
#ifndef NP_SERVE_LISTEN_H
#define NP_SERVE_LISTEN_H

#include <stddef.h>
#include <stdint.h>

#include "serve/serve_int.h"

/* LISTEN: opens temporary listeners within c's grant and answers. Returns
 * 0, or -1 when the connection was closed. */
int sv_on_listen(struct server *s, struct conn *c, const uint8_t *p, size_t n);

/* A temporary listener is readable: TCP connections accepted and dropped,
 * UDP datagrams answered with ECHO_REPLY. */
void sv_temp_event(struct server *s, struct temp *t);

/* Closes a temporary listener and frees its slot. */
void sv_temp_close(struct server *s, struct temp *t);

#endif
