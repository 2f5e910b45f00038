/* netprobe explain's RDMA rules: which rdma-* codes a node's RDMA model
 * lets explain judge, where each NCCL_IB_* setting comes from (the
 * environment, else the value the log echoes), and what to say when the
 * node has no RDMA hardware at all. Pure. */
#ifndef NP_EXPLAIN_RDMA_H
#define NP_EXPLAIN_RDMA_H

#include <stdbool.h>
#include <stddef.h>

#include "decide/explain.h"
#include "kernel/rdma.h"

/* True when the node shows RDMA hardware: an RDMA device, or a Mellanox
 * function on the PCI bus whose device this netns does not see. */
bool explain_rdma_present(const struct rdma_info *info);

/* The rdma-* codes decide_rdma can rule on for this node (their absence
 * then means "not here"); none on a node without RDMA hardware. Returns
 * how many were written to out (at most cap). */
size_t explain_rdma_checkable(const struct rdma_info *info, const char **out,
			      size_t cap);

/* A setting for the RDMA checks: env (the process's or the recorded
 * environment) wins; else the value the log echoes, and *from_log is
 * set. NULL when neither has it. */
const char *explain_ib_value(const char *env, const struct explain_log *lg,
			     const char *name, bool *from_log);

/* The note for a node without RDMA hardware: sockets are its transport,
 * and other vendors' RoCE NICs look like plain Ethernet on the bus.
 * Returns 0 and fills buf, or -1 when the node has RDMA hardware. */
int explain_rdma_absent_note(const struct rdma_info *info, char *buf,
			     size_t len);

/* On a node measured without RDMA hardware, the open causes that are
 * all rdma-* codes are expected there (NCCL's NET/IB : No device found.
 * on an Ethernet-only node): their "decide it" says so. Returns how many
 * were rewritten. */
size_t explain_rdma_settle(struct explain_result *r);

#endif
