/* netprobe ifaces' RDMA table (ifaces_rdma.c). */
#ifndef NP_IFACES_RDMA_H
#define NP_IFACES_RDMA_H

#include "kernel/rdma.h"

/* Writes the ibdev2netdev map and the show_gids table to stdout. */
void ifaces_rdma_text(const struct rdma_info *in);

#endif
