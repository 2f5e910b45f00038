/* netprobe serve's admission: how many connections one source address may
 * hold, which connection gives way when the table is full, and the
 * deadlines that free the slots of clients that never send a frame. */
#ifndef NP_SERVE_GUARD_H
#define NP_SERVE_GUARD_H

#include <stdbool.h>
#include <sys/socket.h>

#include "serve/serve_int.h"

/* The most connections one source address may hold (a quarter of
 * max_clients, at least 4 or max_clients), and of those the most that are
 * not authenticated (the same without a token; a sixteenth with one). */
unsigned sv_addr_cap(const struct server *s);

/* Whether connection c may give way to a newcomer when the table is
 * full, at now (monotonic microseconds): 0 never (authenticated, or being
 * served: it made a request after its handshake and sent a frame within
 * SERVE_SERVED_IDLE_S); 2 it has not finished its first frame; 1 it made
 * no request within SERVE_REQUEST_S of its last handshake frame (HELLO,
 * AUTH), or has been silent SERVE_SERVED_IDLE_S. Pure. */
int sv_give_way(const struct conn *c, long long now);

/* The connection that gives way to a newcomer from ss when the table is
 * full, or NULL (then the newcomer is refused): one that sv_give_way
 * allows, from an address that holds at least two more connections than
 * the newcomer's (so equals never swap places and churn); a silent one
 * before one that spoke, then the address holding most, then the longest
 * silent. Reads s->conns only. */
struct conn *sv_victim(const struct server *s,
                       const struct sockaddr_storage *ss, long long now);

/* Decides whether a new connection from ss gets a slot: refused when its
 * address is at its cap; when the table is full, sv_victim's connection
 * is dropped (told why) to make room, or the newcomer is refused ("too
 * many clients"). Returns 0, or -1 with *why the refusal's message. */
int sv_admit(struct server *s, const struct sockaddr_storage *ss,
             const char **why);

/* serve_loop.c: gives fd (non-blocking, from accept or a fuzzer's
 * socketpair) a slot as a client from ss; the caller checked sv_admit.
 * Returns 0, or -1 with fd closed. */
int sv_adopt(struct server *s, int fd, const struct sockaddr_storage *ss,
             socklen_t sl);

/* The deadlines of one connection at now: the first whole frame within
 * SERVE_FIRST_FRAME_S of the accept, every frame whole within
 * SERVE_FRAME_S of its first byte, and SERVE_IDLE_S of silence. Returns
 * why it is due to close, or NULL; *next is lowered to its next deadline. */
const char *sv_conn_due(const struct conn *c, long long now, long long *next);

#endif
