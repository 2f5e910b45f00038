/* netprobe report, stage 2 of 4 (load, merge, decide, model): what every
 * loaded document says, put together. Which node each document and address
 * belongs to, and every finding of every input merged into one sorted list.
 * The deciders read this; nothing here calls a decider. */
#ifndef NP_REPORT_MERGE_H
#define NP_REPORT_MERGE_H

#include "doc/finding.h"
#include "report.h"

/* The state one report is decided from: the loaded set and what the merge
 * derived from it. */
struct rctx {
	const struct report_set *set;
	json_t *nodes;    /* sorted node names */
	json_t *addrs;    /* address -> node name, or null when ambiguous */
	json_t *findings; /* merged findings (rf_merge) */
	/* the index (rx_inputs, rx_findings), NULL before; each name ->
	 * an array in the order of the array it indexes */
	json_t *by_node; /* node -> its findings */
	json_t *by_code; /* code -> the findings with it */
	json_t *by_host; /* host -> numbers of the inputs it wrote */
	json_t *by_path; /* path -> numbers of the inputs read from it */
	json_t *lossy;   /* node -> true: a loss finding's node or other
			  * end (rd_index_lossy) */
};

/* Fills c->nodes and c->addrs from every document. Returns 0 or -1. */
int rn_build(struct rctx *c);

/* The index of the lookups every decider makes (merge_index.c), so that
 * none costs a scan. rx_inputs indexes the inputs by host and path (after
 * rn_build); rx_findings indexes c->findings by node and code, once they
 * are complete: no finding is added, or changes its node or code, after
 * it (a decider may change a finding's other fields). Each returns 0, or
 * -1 on no memory. rx_free frees both; either may be built again. */
int rx_inputs(struct rctx *c);
int rx_findings(struct rctx *c);
void rx_free(struct rctx *c);
/* The findings of node (or with code), in c->findings' order: NULL when
 * none; before rx_findings, every finding (the caller still checks). */
const json_t *rx_node_findings(const struct rctx *c, const char *node);
const json_t *rx_code_findings(const struct rctx *c, enum finding_code code);
/* The numbers (JSON integers, ascending) of the inputs whose host, or
 * whose path, is the one given; NULL when none. Needs rx_inputs. */
const json_t *rx_host_inputs(const struct rctx *c, const char *host);
const json_t *rx_path_inputs(const struct rctx *c, const char *path);

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

/* One entry per node: the commands that ran there, its files, the errors
 * its documents hold, its container/WSL layering and chosen interface.
 * Returns a new array, or NULL on no memory. */
json_t *rn_table(const struct rctx *c);

/* Every finding of every input, tagged with its node, class and source
 * files; equal ones (node, code, summary) merged. Sorted: faults first,
 * then by node, code and summary. Returns a new array or NULL. */
json_t *rf_merge(const struct report_set *s);

/* Gives probe findings toward an address behind NAT the NAT node's finding
 * as their cause and fix (opening ports there cannot help). */
void rf_annotate_nat(struct rctx *c);
/* A NAT guess (FF_GUESS) on a node that node 0, on another subnet, saw
 * connect from the node's own address becomes info, marked
 * "contradicted", with that evidence. */
void rf_nat_contradicted(struct rctx *c);

/* hostname-loopback becomes a warning where every other node's scan is in
 * the set and its Gloo address sorts below this node's (Gloo's higher
 * address connects, so this node connects to each); the summary says so. */
void rf_hostname_order(struct rctx *c);

/* True when code says a node sits behind NAT (container bridge, WSL2,
 * both, or NAT seen by a peer). */
bool rf_is_nat(const char *code);

/* True when the document carries a finding that a failed reachability
 * probe produces: only then does a peer with responded false mean "no
 * answer" rather than "not probed". */
bool rf_probe_failed(const json_t *doc);

#endif
