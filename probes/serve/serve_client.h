/* What netprobe serve does with a client's bytes: frames cut out of the
 * stream, HELLO, REFLECT, ECHO and authentication answered, LISTEN and
 * CONNECT_BACK handed to their files. */
#ifndef NP_SERVE_CLIENT_H
#define NP_SERVE_CLIENT_H

#include "serve/serve_int.h"

/* Reads what c's socket holds and handles every whole frame in it. */
void sv_client_read(struct server *s, struct conn *c);

#endif
