/* netprobe report, decide: what the files of the root causes share
 * (decide_causes.c, decide_cause_index.c, decide_cause_node.c,
 * decide_cause_owner.c); the rest of the report calls rd_causes and
 * rd_own_errors (report_decide.h). */
#ifndef NP_DECIDE_CAUSES_H
#define NP_DECIDE_CAUSES_H

#include "report_decide.h"

/* The causes' store (decide_cause_index.c). cause_of: the cause of kind
 * on node in causes, or NULL. cause_in: the same through ix when there is
 * one. cause_pair_in: rd_pair_cause, through ix when there is one.
 * cause_mtu_in: the first MTU cause on node or sub, or whose peer is node.
 * causes_index: the index of causes, NULL on no memory (callers then
 * scan); the caller frees it. cause_new: a new cause appended to causes,
 * cmds taken; NULL on no memory. */
json_t *cause_of(const json_t *causes, const char *kind, const char *node);
json_t *cause_in(const json_t *ix, const json_t *causes, const char *kind,
		 const char *node);
json_t *cause_pair_in(const json_t *ix, const json_t *causes, const char *a,
		      const char *b);
json_t *cause_mtu_in(const json_t *ix, const json_t *causes,
		     const char *node, const char *sub);
json_t *causes_index(const json_t *causes);
json_t *cause_new(json_t *causes, const char *kind, const char *node,
		  const char *summary, const char *fix, json_t *cmds);

/* The causes of one node (decide_cause_node.c), each appended to causes
 * and marking the recommendation's entries that fix it. */
void causes_nat(const struct rctx *c, json_t *rec, json_t *causes);
void causes_hostname(const struct rctx *c, json_t *causes);
void causes_firewall(json_t *rec, json_t *causes);
void causes_mtu(json_t *rec, json_t *causes);

/* The cause that explains finding f, or NULL (decide_cause_owner.c):
 * through ix when there is one, or scanning the causes while they grow. */
json_t *cause_owner_ix(const struct rctx *c, const json_t *causes,
		       const json_t *f, const json_t *ix);
json_t *cause_owner(const struct rctx *c, const json_t *causes,
		    const json_t *f);

#endif
