/* Test-only switches read from NCCLCHECK_TEST_* variables, so the GPU
 * tests can make one rank corrupt its output, die, stall or advertise an
 * address nobody reaches. Unset, each is off. No CUDA, no NCCL. */
#ifndef NC_HOOKS_H
#define NC_HOOKS_H

#include <stdbool.h>

#include "launch/launch.h"

struct nc_hooks {
	int corrupt_rank;              /* CORRUPT=RANK: -1 off */
	int kill_rank;                 /* KILL=RANK:BYTES: -1 off */
	unsigned long long kill_bytes;
	int stall_rank;                /* STALL=RANK:STEP: -1 off */
	unsigned stall_step;
	long long advertise_rank;      /* ADVERTISE=RANK:ADDRESS: -1 off */
	char advertise[64];            /* as long as nc_rankinfo.address */
};

/* Reads the four variables through get (getenv, or a table in tests). A
 * value is "A" or "A:B" with A a decimal number. Only in a test build
 * (NC_TEST_HOOKS); otherwise every switch stays off. */
void nc_hooks_read(env_get_fn get, void *ctx, struct nc_hooks *h);

/* True in a test build, where the variables work. */
extern const bool nc_hooks_built;

#endif
