/* netprobe report internals shared by the decider files (not renderers). */
#ifndef NP_REPORT_INT_H
#define NP_REPORT_INT_H

#include "report.h"

/* The state one merge works on: the loaded set and what was derived. */
struct rctx {
	const struct report_set *set;
	json_t *nodes;    /* sorted node names */
	json_t *addrs;    /* address -> node name, or null when ambiguous */
	json_t *findings; /* merged findings */
};

/* Fills c->nodes and c->addrs from every document. Returns 0 or -1. */
int rn_build(struct rctx *c);

/* The node a host name or address belongs to, or NULL. */
const char *rn_resolve(const struct rctx *c, const char *host,
		       const char *addr);

/* The node a scan `peers` entry points at: a known node, else the peer's
 * host or address written into buf. NULL when nothing names it. */
const char *rn_peer(const struct rctx *c, const json_t *peer, char *buf,
		    size_t len);

/* The node a ports/heartbeat/path document's `target` names, else the
 * target's host or address in buf; NULL when none. */
const char *rn_target(const struct rctx *c, const json_t *doc, char *buf,
		      size_t len);

/* A citation {node, code}: the node and the finding code or measurement
 * a recommendation rests on. Returns a new object or NULL. */
json_t *rc_cite(const char *node, const char *code);

/* Appends a citation unless an equal one is there. */
void rc_cite_add(json_t *cites, const char *node, const char *code);

/* Builds `recommendation` (report_decide.c). Returns it or NULL. */
json_t *rd_recommend(struct rctx *c);

/* Builds `matrix` and `heartbeats` (report_matrix.c). Returns 0 or -1. */
int rm_matrix(struct rctx *c, json_t *rep);

/* Builds `nccl` (report_matrix.c). Returns it (an array) or NULL. */
json_t *rm_nccl(struct rctx *c);

/* True when the document carries a finding that a failed reachability
 * probe produces: only then does a peer with responded false mean "no
 * answer" rather than "not probed". */
bool rc_probe_failed(const json_t *doc);

/* The check class a finding code belongs to ("interfaces", "ports"...). */
const char *rc_class(const char *code);

#endif
