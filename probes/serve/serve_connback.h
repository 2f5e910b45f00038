/* netprobe serve's connect-back jobs: non-blocking connects to the
 * requester's own address, each settled by its socket error or ICMP, the
 * reply sent when all settled or at the deadline. */
#ifndef NP_SERVE_CONNBACK_H
#define NP_SERVE_CONNBACK_H

#include <stddef.h>
#include <stdint.h>

#include "serve/serve_int.h"

/* CONNECT_BACK: starts c's job within its grant. Returns 0, or -1 when
 * the connection was closed. */
int sv_on_connect_back(struct server *s, struct conn *c, const uint8_t *p,
                       size_t n);

/* A connect-back socket became writable: its SO_ERROR settles it. */
void sv_cb_event(struct server *s, struct cb_sock *k);

/* Sends the reply of c's job, ports still pending as filtered, and ends
 * the job. */
void sv_cb_finish(struct server *s, struct conn *c);

#endif
