/* The pre-flight exchange's data (pf_exchange.h): every process packs and
 * sorts the same way, so every process decides the same from the same
 * bytes. No CUDA, no NCCL. */
#include "preflight/pf_exchange.h"

#include <stdio.h>
#include <string.h>

#include "bootstrap/bootstrap_wire.h"

/* The count goes first (a u32), so a block with fewer pairs than its
 * room still reads back exactly. */
void nc_pair_block_pack(const struct nc_pair *pr, int n, unsigned char *b)
{
	if (n > NC_PREFLIGHT_MAX_TARGETS)
		n = NC_PREFLIGHT_MAX_TARGETS;
	memset(b, 0, NC_PAIR_BLOCK);
	sc_u32_pack((uint32_t)n, b);
	for (int i = 0; i < n; i++)
		nc_pair_pack(&pr[i], b + 4 + (size_t)i * NC_PAIR_WIRE);
}

/* The count comes from another host: never past the block's room. */
int nc_pair_block_unpack(const unsigned char *b, struct nc_pair *out)
{
	uint32_t c = sc_u32_unpack(b);
	int n = c > NC_PREFLIGHT_MAX_TARGETS ? NC_PREFLIGHT_MAX_TARGETS :
					       (int)c;

	for (int i = 0; i < n; i++)
		nc_pair_unpack(b + 4 + (size_t)i * NC_PAIR_WIRE, &out[i]);
	return n;
}

/* Counted from the sorted hosts, so two processes on one host count once
 * (tree algorithms across hosts can lift busbw). */
int nc_pf_sort_infos(const unsigned char *all, int nprocs, int ndev,
		     struct nc_rankinfo *ranks, int nranks,
		     struct nc_rankinfo *byproc, char (*hosts)[64])
{
	size_t per = (size_t)ndev * NC_RANKINFO_WIRE;
	int nhosts = 0;

	for (int p = 0; p < nprocs; p++)
		for (int i = 0; i < ndev; i++) {
			struct nc_rankinfo ri;

			nc_rankinfo_unpack(all + (size_t)p * per +
						   (size_t)i * NC_RANKINFO_WIRE,
					   &ri);
			if (ri.rank >= 0 && ri.rank < nranks)
				ranks[ri.rank] = ri;
			if (i == 0) {
				byproc[p] = ri;
				snprintf(hosts[p], 64, "%s", ri.host);
			}
		}
	for (int p = 0; p < nprocs; p++) {
		bool seen = false;

		for (int q = 0; q < p; q++)
			seen |= strcmp(hosts[p], hosts[q]) == 0;
		nhosts += !seen;
	}
	return nhosts;
}
