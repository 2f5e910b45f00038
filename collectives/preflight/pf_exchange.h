/* What the pre-flight exchanges carry besides one rank's info: the block
 * of a process's pair results, the gathered infos sorted by rank, process
 * and host (the findings the run keeps: results/pf_verdict.c). No CUDA,
 * no NCCL. */
#ifndef NC_PF_EXCHANGE_H
#define NC_PF_EXCHANGE_H

#include <stdbool.h>

#include "preflight/preflight.h"

/* One process's block of pair results: byte 3 holds the count, the pairs
 * (NC_PAIR_WIRE bytes each) follow from byte 4. */
#define NC_PAIR_BLOCK (4 + NC_PREFLIGHT_MAX_TARGETS * NC_PAIR_WIRE)

/* Packs n pair results (at most NC_PREFLIGHT_MAX_TARGETS) into a zeroed
 * block of NC_PAIR_BLOCK bytes. */
void nc_pair_block_pack(const struct nc_pair *pr, int n, unsigned char *b);

/* Unpacks a block into out (room for NC_PREFLIGHT_MAX_TARGETS). Returns
 * the count, cut to that room when a block claims more. */
int nc_pair_block_unpack(const unsigned char *b, struct nc_pair *out);

/* Sorts the gathered infos (nprocs blocks of ndev packed infos each):
 * every info by NCCL rank into ranks[nranks] (ranks out of range are
 * dropped), each process's first into byproc[p] and its host into
 * hosts[p]. Returns the number of distinct hosts. */
int nc_pf_sort_infos(const unsigned char *all, int nprocs, int ndev,
		     struct nc_rankinfo *ranks, int nranks,
		     struct nc_rankinfo *byproc, char (*hosts)[64]);

#endif
