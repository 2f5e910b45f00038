/* How ncclcheck was started (mpirun, srun, torchrun-style variables, or
 * alone) and so how it bootstraps: kernel/launchenv.c's detection of a
 * process per GPU (which also refuses the runs that fall into
 * nccl-tests' busbw = 0 trap), read into ncclcheck's own struct. No CUDA,
 * no NCCL, no MPI. */
#ifndef NC_LAUNCH_H
#define NC_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/launchenv.h"

struct nc_launch {
	enum launch_boot boot;   /* how the ranks find each other: the
	                          * launcher's row says (launchenv.h) */
	int rank, nprocs;
	int local_rank;          /* -1: ask MPI (shared-memory split) */
	char master_addr[256];   /* SLURM and TORCHRUN */
	int master_port;
	bool agent_store;        /* TORCHRUN: MASTER_PORT is torch's store */
	const char *run_id, *restart; /* TORCHRUN: its agent store's key */
	const char *source;      /* which variables said so */
	enum launch_src src;     /* the launcher; LAUNCH_NSRC: none */
};

/* Decides the launch through launch_detect_proc (kernel/launchenv.h):
 * MPI (Open MPI, PMI, PMIx), then torchrun-style, then srun. have_mpi:
 * this binary was built with MPI. Returns 0, or -1 with a one-line reason
 * in err (the caller exits 2). */
int nc_launch_detect(env_get_fn get, void *ctx, bool have_mpi,
		     struct nc_launch *out, char *err, size_t errlen);

#endif
