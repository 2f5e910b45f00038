/* The idle probe's decider (issue 48): a connection held idle and then
 * never acknowledged, while fresh connections to the same responder
 * passed, is idle-connection-killed. Pure but for the document. */
#ifndef NP_DECIDE_IDLE_H
#define NP_DECIDE_IDLE_H

#include <jansson.h>

#include "doc/doc.h"
#include "probe/idleprobe.h"

/* Writes r into the peer object obj as "idle" ({state, held_ms,
 * wait_ms, port, error}) when it ran, and adds idle-connection-killed to
 * d when it was killed; peer and addr name the peer. Nothing when r is
 * untested. Returns 0, or -1 on no memory. */
int idle_decide(const struct idle_result *r, const char *peer,
                const char *addr, json_t *obj, struct doc *d);

#endif
