/* netprobe report, decide: the host limits of issue 48 (port-range-narrow,
 * somaxconn-low, conn-rate-limit) as root causes on the node whose scan
 * shows them, made before the pairs are blamed, so that what fails toward
 * or from that node is the limit's symptom and never a firewall or a
 * "cannot tell". */
#ifndef NP_DECIDE_LIMITS_H
#define NP_DECIDE_LIMITS_H

#include <jansson.h>

#include "report_decide.h"

/* Adds a setting cause (the finding's command its shell fix) on each node
 * with a limit finding of severity warning or above; setting_causes later
 * finds it by node and adds that node's other commands. */
void rd_limit_causes(const struct rctx *c, json_t *causes);

/* The limit cause that explains pair symptom f (a connection that timed
 * out, was refused or reset) between f's node and its peer: the peer's
 * rate limit or backlog (it receives the connections), else the node's
 * own (its port range, or its listeners); NULL when neither end has one
 * or f is no pair symptom. */
json_t *rd_limit_owner(const struct rctx *c, const json_t *causes,
                       const json_t *f);

#endif
