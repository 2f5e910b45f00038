/* A client connection of netprobe serve: its replies queued and flushed,
 * ERROR frames, and its end (with whatever it owns). Memory of what ended
 * during an event batch is freed after the batch, by sv_reap. */
#ifndef NP_SERVE_CONN_H
#define NP_SERVE_CONN_H

#include <stddef.h>
#include <stdint.h>

#include "serve/serve_int.h"

/* Ends c's connect-back job, if any: its sockets close now, its memory
 * goes with sv_reap. */
void sv_conn_end_job(struct server *s, struct conn *c);

/* Closes c now (why logged when not NULL); its memory goes with sv_reap. */
void sv_conn_close(struct server *s, struct conn *c, const char *why);

/* Drops c: an ERROR frame (code dropped) with why is queued behind its
 * replies and given one non-blocking send, then c is closed ("tag: why"
 * logged). For closes the client did not ask for: the table full, a
 * deadline. */
void sv_conn_drop(struct server *s, struct conn *c, const char *tag,
                  const char *why);

/* Takes c out of the loop without closing its socket, for a handoff:
 * the caller owns c->ev.fd from then on; c's memory goes with sv_reap. */
void sv_conn_detach(struct server *s, struct conn *c);

/* Sends what is queued; arms EPOLLOUT while some remains. */
void sv_conn_flush(struct server *s, struct conn *c);

/* Queues one frame; a client that does not read its replies is closed.
 * Returns 0, or -1 when the connection was closed. */
int sv_conn_send(struct server *s, struct conn *c, uint8_t type,
                 const uint8_t *payload, size_t len);

/* Queues an ERROR frame with code and message; the connection stays.
 * Returns 0, or -1 when the connection had to be closed. */
__attribute__((format(printf, 4, 5))) int sv_conn_error(struct server *s,
                                                        struct conn *c,
                                                        enum proto_err code,
                                                        const char *fmt, ...);

/* Sends an ERROR and closes: the input cannot be trusted any further. */
void sv_conn_fatal(struct server *s, struct conn *c, const char *why);

/* Frees the connections and connect-back jobs closed during the batch. */
void sv_reap(struct server *s);

#endif
