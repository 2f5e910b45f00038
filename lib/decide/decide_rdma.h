/* The RDMA side judged as NCCL judges it: each fault with its evidence,
 * the line NCCL prints, and the exact fix. Pure. */
#ifndef NP_DECIDE_RDMA_H
#define NP_DECIDE_RDMA_H

#include <stdbool.h>
#include <stddef.h>

#include "decide/ib_select.h"
#include "doc/doc.h"
#include "kernel/rdma.h"
#include "layers/layers.h"

/* Below this RLIMIT_MEMLOCK NCCL's registrations fail; NCCL's own
 * documentation and every container recipe ask for unlimited. */
#define RDMA_MEMLOCK_MIN (64LL * 1024 * 1024)

struct rdma_verdict {
	struct ib_choice choice;
	/* what --export may print: only set where proven */
	char export_hca[512];     /* "=mlx5_0:1,mlx5_1:1", "" none */
	int export_gid_index;     /* -1 none */
	/* the user's NCCL_IB_HCA and NCCL_IB_GID_INDEX judged in words
	 * ("right for this node: ..."), "" when unset */
	char hca_note[640];
	char gid_note[256];
};

/* Adds the rdma-* findings for this node (ct: the container the layering
 * saw, CONTAINER_NONE on a host; the fixes are written for it). Fills v. */
int decide_rdma(const struct rdma_info *info, const struct ib_env *e,
		 enum layer_container ct, struct rdma_verdict *v,
		 struct doc *d);

#endif
