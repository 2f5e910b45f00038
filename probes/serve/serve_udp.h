/* netprobe serve's UDP port: ECHO, MTU_PROBE and REFLECT datagrams
 * answered from the address they were sent to. */
#ifndef NP_SERVE_UDP_H
#define NP_SERVE_UDP_H

#include "serve/serve_int.h"

/* Reads the pending datagrams (at most 64) and answers each. */
void sv_udp_read(struct server *s);

#endif
