/* What the side channel's exchanges (bootstrap_xchg.c) use of its core
 * (bootstrap.c); nothing else includes it. */
#ifndef NC_BOOTSTRAP_INT_H
#define NC_BOOTSTRAP_INT_H

#include "bootstrap/bootstrap.h"

/* Records the first failure in sc->why (later ones are dropped). */
void sc_why(struct sc *sc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The hub marks process r lost, closes it and tells the others. */
void sc_hub_lost(struct sc *sc, int r, const char *what);

/* Sends the heartbeat when due and handles what arrives for up to
 * wait_ms. Returns 0, or -1 once the run has failed. */
int sc_service(struct sc *sc, int wait_ms);

#endif
