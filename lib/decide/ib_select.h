/* NCCL 2.28's choice of InfiniBand/RoCE devices, ports and GIDs, and its
 * fallback to sockets, predicted from the RDMA model (kernel/rdma.h) and
 * the NCCL_IB_* settings. Every rule names its source in
 * docs/nccl-ib-rules.md. Pure. */
#ifndef NP_IB_SELECT_H
#define NP_IB_SELECT_H

#include <stdbool.h>

#include <jansson.h>

#include "kernel/rdma.h"

/* The settings NCCL's IB transport reads, NULL when unset. */
struct ib_env {
	const char *hca, *gid_index, *addr_family, *roce_version, *addr_range;
	const char *disable, *net, *gdr_level, *routable_flid_index;
};

/* Fills e through get (getenv, or a recorded environment). */
void ib_env_fill(struct ib_env *e, const char *(*get)(const char *, void *),
		 void *ctx);

/* One port NCCL takes, with the GID index it uses. */
struct ib_pick {
	int dev, port;    /* indexes into rdma_info devs and their ports */
	int gid_index;
	bool gid_forced;  /* NCCL_IB_GID_INDEX set (RoCE) */
};

#define IB_MAX_PICKS 32 /* MAX_IB_DEVS */

struct ib_choice {
	struct ib_pick v[IB_MAX_PICKS];
	int n;
	bool fallback;    /* NCCL would use NET/Socket */
	char why[256];    /* why it falls back, "" otherwise */
	char nccl_says[192]; /* the line NCCL prints then */
	bool gdr_peermem; /* nvidia-peermem loaded: NCCL_PTR_CUDA */
};

/* NCCL's ncclIbInit filter for one port: NCCL_IB_HCA as
 * parseStringList and matchIfList read it ('^' then '=' marks, prefixes,
 * ":port"). */
bool ib_hca_match(const char *hca, const char *dev, unsigned port);

/* NCCL's ncclIbGetGidIndex for one port with NCCL_IB_GID_INDEX
 * ignored: the automatic choice (family, RoCE version, range). */
int ib_gid_auto(const struct rdma_port *p, const struct ib_env *e);

/* True for fe80::/64 (NCCL's linkLocalGid). */
bool ib_gid_link_local(const unsigned char raw[16]);

/* Predicts NCCL's IB choice. Never fails. */
void ib_select(const struct rdma_info *info, const struct ib_env *e,
	       struct ib_choice *out);

/* The `nccl_ib` object of netprobe-json(5). NULL on no memory. */
json_t *ib_choice_to_json(const struct rdma_info *info,
			  const struct ib_choice *c);

#endif
