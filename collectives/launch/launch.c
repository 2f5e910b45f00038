/* Launch detection (launch.h): which launcher, which rank, where rank 0
 * listens, and the refusals for a run that would measure nothing. */
#include "launch/launch.h"

#include <stdio.h>
#include <string.h>

/* Reads an integer variable in [lo, hi]: 1 when set and valid, 0 unset,
 * -1 set but invalid (the caller words the refusal). */
static int env_int(env_get_fn get, void *ctx, const char *name, long long lo,
		   long long hi, int *out)
{
	return launch_env_int(get, ctx, name, lo, hi, out, NULL, 0);
}

/* The MPI launchers' variables: Open MPI, then PMI (MPICH, Slurm). */
static int mpi_env(env_get_fn get, void *ctx, struct nc_launch *o,
		   char *err, size_t len)
{
	static const enum launch_src order[] = { LAUNCH_OMPI, LAUNCH_PMI,
						 LAUNCH_PMIX };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const struct launch_source *v = &launch_sources[order[i]];
		int rs = env_int(get, ctx, v->size, 1, LAUNCH_SIZE_MAX,
				 &o->nprocs);

		if (rs == 0 && order[i] == LAUNCH_PMIX &&
		    get(v->rank, ctx) != NULL) {
			/* PMIx alone: the size comes from MPI itself */
			o->nprocs = 0;
			rs = 1;
		}
		if (rs == 0)
			continue;
		if (rs < 0 || env_int(get, ctx, v->rank, 0, LAUNCH_SIZE_MAX,
				      &o->rank) <= 0)
			return launch_fail(err, len, "invalid %s or %s",
					   v->size, v->rank);
		if (env_int(get, ctx, v->local_rank, 0, 4096,
			    &o->local_rank) <= 0)
			o->local_rank = -1;
		o->source = v->size;
		return 1;
	}
	return 0;
}

/* torchrun-style variables: 1 used, 0 absent, 2 a world of one under an
 * MPI launcher (MPI decides), -1 refused. */
static int torch_env(env_get_fn get, void *ctx, int m, struct nc_launch *o,
		     char *err, size_t len)
{
	const struct launch_source *t = &launch_sources[LAUNCH_TORCHRUN];
	const char *ma, *as;
	int r, s, size;

	r = env_int(get, ctx, t->rank, 0, LAUNCH_SIZE_MAX, &o->rank);
	s = env_int(get, ctx, t->size, 1, LAUNCH_SIZE_MAX, &size);
	if (r < 0 || s < 0)
		return launch_fail(err, len, "invalid %s or %s", t->rank,
				   t->size);
	if (r == 0 && s == 0)
		return 0;
	if (r == 0 || s == 0)
		return launch_fail(err, len, "%s is set but %s is not: set "
				   "%s, %s, %s and %s together",
				   r ? t->rank : t->size, r ? t->size : t->rank,
				   t->rank, t->size, t->node0, t->port);
	o->nprocs = size;
	if (o->rank >= o->nprocs)
		return launch_fail(err, len, "%s=%d is not below %s=%d",
				   t->rank, o->rank, t->size, o->nprocs);
	if (m > 0 && o->nprocs == 1)
		return 2;
	ma = launch_env_str(get, ctx, t->node0);
	if (ma == NULL)
		return launch_fail(err, len, "%s and %s are set but %s is not",
				   t->rank, t->size, t->node0);
	if (env_int(get, ctx, t->port, 1, 65535, &o->master_port) <= 0)
		return launch_fail(err, len, "%s is missing or not a port "
				   "number", t->port);
	snprintf(o->master_addr, sizeof(o->master_addr), "%s", ma);
	if (env_int(get, ctx, t->local_rank, 0, 4096, &o->local_rank) <= 0)
		o->local_rank = o->rank;
	o->kind = NC_LAUNCH_TORCHRUN;
	o->source = "RANK/WORLD_SIZE";
	/* torchrun's agent serves its store on MASTER_PORT */
	as = get("TORCHELASTIC_USE_AGENT_STORE", ctx);
	o->agent_store = as != NULL && strcmp(as, "True") == 0;
	return 1;
}

/* srun without MPI: 1 used, 0 not a step of several tasks, -1 refused.
 * Node 0 is MASTER_ADDR, else the first host of the node list; the port
 * MASTER_PORT, else one derived from the job and step. */
static int slurm_env(env_get_fn get, void *ctx, struct nc_launch *o,
		     char *err, size_t len)
{
	const struct launch_source *sl = &launch_sources[LAUNCH_SLURM_TASKS];
	const char *list, *ma, *step = get("SLURM_STEP_ID", ctx);
	int jobid = 0, stepid = 0, n;
	char host[256];

	if (env_int(get, ctx, sl->size, 1, LAUNCH_SIZE_MAX, &n) <= 0 || n < 2)
		return 0;
	if (step == NULL)
		return launch_fail(err, len, "%s=%d but this is not an srun "
				   "step: one process would run alone; start "
				   "ncclcheck with srun", sl->size, n);
	o->nprocs = n;
	if (env_int(get, ctx, sl->rank, 0, LAUNCH_SIZE_MAX, &o->rank) <= 0 ||
	    o->rank >= o->nprocs)
		return launch_fail(err, len, "invalid %s", sl->rank);
	if (env_int(get, ctx, sl->local_rank, 0, 4096, &o->local_rank) <= 0)
		o->local_rank = 0;
	list = get(sl->hosts[0], ctx);
	if (list == NULL)
		list = get(sl->hosts[1], ctx);
	ma = get(sl->node0, ctx);
	if (ma != NULL)
		snprintf(o->master_addr, sizeof(o->master_addr), "%s", ma);
	else if (launch_first_host(list, host, sizeof(host)) == 0)
		snprintf(o->master_addr, sizeof(o->master_addr), "%s", host);
	else
		return launch_fail(err, len, "srun: cannot tell the first "
				   "node from %s; set %s", sl->hosts[0],
				   sl->node0);
	if (env_int(get, ctx, sl->port, 1, 65535, &o->master_port) <= 0) {
		env_int(get, ctx, "SLURM_JOB_ID", 0, 1 << 30, &jobid);
		env_int(get, ctx, "SLURM_STEP_ID", 0, 1 << 30, &stepid);
		o->master_port = 20000 + (jobid * 16 + stepid) % 20000;
	}
	o->kind = NC_LAUNCH_SLURM;
	o->source = "SLURM_PROCID/SLURM_NTASKS";
	return 1;
}

/* MPI variables first, then torchrun-style, then Slurm. */
int nc_launch_detect(env_get_fn get, void *ctx, bool have_mpi,
		     struct nc_launch *o, char *err, size_t len)
{
	int m, t, s;

	memset(o, 0, sizeof(*o));
	o->kind = NC_LAUNCH_SINGLE;
	o->nprocs = 1;
	o->source = "no launcher";
	m = mpi_env(get, ctx, o, err, len);
	if (m < 0)
		return -1;
	if (m > 0 && have_mpi) {
		o->kind = NC_LAUNCH_MPI;
		return 0;
	}
	/* torchrun-style variables take over when MPI is not linked */
	t = torch_env(get, ctx, m, o, err, len);
	if (t < 0)
		return -1;
	if (t == 1)
		return 0;
	if (m > 0) {
		if (o->nprocs != 1)
			return launch_fail(err, len, "built without MPI but "
					   "started by an MPI launcher (%s=%d): "
					   "every process would run alone and "
					   "report a bus bandwidth of 0; "
					   "rebuild with MPI, or launch with "
					   "RANK, WORLD_SIZE, MASTER_ADDR and "
					   "MASTER_PORT", o->source, o->nprocs);
	} else {
		s = slurm_env(get, ctx, o, err, len);
		if (s != 0)
			return s < 0 ? -1 : 0;
	}
	o->kind = NC_LAUNCH_SINGLE;
	o->rank = 0;
	o->nprocs = 1;
	o->local_rank = 0;
	return 0;
}
