/* Launch detection (launch.h): kernel/launchenv.c reads the launcher;
 * this file says how ncclcheck's ranks then find each other. */
#include "launch/launch.h"

#include <stdio.h>
#include <string.h>

/* The bootstrap a launcher gives: MPI's own, ours over srun, torchrun's
 * variables (and store), or none. */
static enum nc_launcher nc_kind(enum launch_src s)
{
	switch (s) {
	case LAUNCH_OMPI:
	case LAUNCH_PMI:
	case LAUNCH_PMIX:
		return NC_LAUNCH_MPI;
	case LAUNCH_SLURM_TASKS:
		return NC_LAUNCH_SLURM;
	case LAUNCH_TORCHRUN:
		return NC_LAUNCH_TORCHRUN;
	default:
		return NC_LAUNCH_SINGLE;
	}
}

/* See launch.h. */
int nc_launch_detect(env_get_fn get, void *ctx, bool have_mpi,
		     struct nc_launch *o, char *err, size_t len)
{
	struct launch_proc p;
	int r = launch_detect_proc(get, ctx, have_mpi, &p, err, len);

	memset(o, 0, sizeof(*o));
	o->kind = nc_kind(p.src);
	o->src = p.src;
	o->rank = p.rank;
	o->nprocs = p.nprocs;
	o->local_rank = p.local_rank;
	snprintf(o->master_addr, sizeof(o->master_addr), "%s", p.master_addr);
	o->master_port = p.master_port;
	o->agent_store = p.agent_store;
	o->run_id = p.run_id;
	o->restart = p.restart;
	o->source = p.source;
	return r;
}
