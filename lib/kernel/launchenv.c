/* The launchers' variables as one table (launchenv.h), the readers, and
 * the detections over it: ncclcheck's (a process per GPU), netprobe
 * mesh's (a process per node) and the job's node count. The only file
 * that reads a launcher's variable. */
#include "kernel/launchenv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"

/* Each launcher's own names, as its documentation spells them; a field
 * left out is a name the launcher does not set. */
const struct launch_source launch_sources[LAUNCH_NSRC] = {
    [LAUNCH_OMPI] = {.name = "Open MPI",
                     .label = "Open MPI",
                     .boot = LAUNCH_BOOT_MPI,
                     .size = "OMPI_COMM_WORLD_SIZE",
                     .rank = "OMPI_COMM_WORLD_RANK",
                     .local_rank = "OMPI_COMM_WORLD_LOCAL_RANK"},
    [LAUNCH_PMI] = {.name = "PMI",
                    .label = "PMI",
                    .boot = LAUNCH_BOOT_MPI,
                    .size = "PMI_SIZE",
                    .rank = "PMI_RANK",
                    .local_rank = "MPI_LOCALRANKID"},
    [LAUNCH_PMIX] = {.name = "PMIx",
                     .label = "PMIx",
                     .boot = LAUNCH_BOOT_MPI,
                     .size = "PMIX_SIZE",
                     .rank = "PMIX_RANK",
                     .local_rank = "PMIX_LOCAL_RANK"},
    [LAUNCH_TORCHRUN] = {.name = "torchrun-style variables",
                         .label = "torchrun-style variables",
                         .boot = LAUNCH_BOOT_TORCHRUN,
                         .size = "WORLD_SIZE",
                         .rank = "RANK",
                         .local_rank = "LOCAL_RANK",
                         .node0 = "MASTER_ADDR",
                         .port = "MASTER_PORT",
                         .local_size = "LOCAL_WORLD_SIZE",
                         .store = "TORCHELASTIC_USE_AGENT_STORE",
                         .run_id = "TORCHELASTIC_RUN_ID",
                         .restart = "TORCHELASTIC_RESTART_COUNT"},
    [LAUNCH_TORCH_NODES] = {.name = "torchrun-style variables (nodes)",
                            .label = "torchrun-style variables",
                            .boot = LAUNCH_BOOT_TORCHRUN,
                            .size = "NNODES",
                            .rank = "NODE_RANK",
                            .local_rank = "LOCAL_RANK",
                            .node0 = "MASTER_ADDR",
                            .port = "MASTER_PORT",
                            .nodes = {"NNODES"}},
    [LAUNCH_SLURM_TASKS] = {.name = "Slurm",
                            .label = "Slurm",
                            .boot = LAUNCH_BOOT_OWN,
                            .size = "SLURM_NTASKS",
                            .rank = "SLURM_PROCID",
                            .local_rank = "SLURM_LOCALID",
                            .node0 = "MASTER_ADDR",
                            .port = "MASTER_PORT",
                            .hosts = {"SLURM_STEP_NODELIST",
                                      "SLURM_JOB_NODELIST"},
                            .job = "SLURM_JOB_ID",
                            .step = "SLURM_STEP_ID"},
    /* the node count is the list's length */
    [LAUNCH_SLURM_NODES] = {.name = "Slurm (nodes)",
                            .label = "Slurm",
                            .boot = LAUNCH_BOOT_OWN,
                            .rank = "SLURM_NODEID",
                            .local_rank = "SLURM_LOCALID",
                            .hosts = {"SLURM_STEP_NODELIST",
                                      "SLURM_JOB_NODELIST"},
                            .nodes = {"SLURM_JOB_NUM_NODES",
                                      "SLURM_NNODES"}},
};

/* See launchenv.h; in enum launch_boot's order. */
const char *const launch_boot_words[] = {
    [LAUNCH_BOOT_SINGLE] = "single",
    [LAUNCH_BOOT_MPI] = "mpi",
    [LAUNCH_BOOT_OWN] = "slurm",
    [LAUNCH_BOOT_TORCHRUN] = "torchrun",
};

/* Ignores ctx; reads the process environment. */
const char *env_get_process(const char *name, void *ctx)
{
	(void)ctx;
	return getenv(name);
}

/* See launchenv.h. */
int launch_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The value of name when set and not empty, else NULL. */
static const char *launch_env_str(env_get_fn get, void *ctx, const char *name)
{
	const char *v = name != NULL ? get(name, ctx) : NULL;

	return v != NULL && *v != '\0' ? v : NULL;
}

/* Reads integer variable name in [lo, hi] through the project's checked
 * parser. Returns 1 set and valid (*out filled), 0 unset or empty, -1
 * invalid with err naming it ("SLURM_NODEID='x': not a number"). */
static int launch_env_int(env_get_fn get, void *ctx, const char *name,
                          long long lo, long long hi, int *out, char *err,
                          size_t errlen)
{
	const char *s = launch_env_str(get, ctx, name), *why;
	long long v;

	if (s == NULL)
		return 0;
	if (parse_num(s, lo, hi, &v, &why) < 0)
		return launch_fail(err, errlen, "%s='%.40s': %s", name, s, why);
	*out = (int)v;
	return 1;
}

/* Node level only: a process rank (RANK, SLURM_PROCID) counts GPUs. */
static const char *const launch_node_rank_vars[] = {
    "NODE_RANK", "GROUP_RANK", "SLURM_NODEID", NULL};

/* See launchenv.h. */
int launch_node_rank(env_get_fn get, void *ctx, int size, int *rank,
                     const char **var, char *err, size_t errlen)
{
	for (size_t i = 0; launch_node_rank_vars[i] != NULL; i++) {
		const char *name = launch_node_rank_vars[i];
		int v, r = launch_env_int(get, ctx, name, 0, LAUNCH_SIZE_MAX,
		                          &v, err, errlen);

		if (r == 0)
			continue;
		if (r < 0)
			return -1;
		if (v >= size)
			return launch_fail(err, errlen,
			                   "%s=%d, past the %d members", name,
			                   v, size);
		*rank = v;
		*var = name;
		return 1;
	}
	return 0;
}

/* See launchenv.h. */
int launch_read(env_get_fn get, void *ctx, enum launch_src s, int max,
                struct launch_vals *v, char *err, size_t errlen)
{
	const struct launch_source *src = &launch_sources[s];
	int r;

	v->size = v->rank = v->local_rank = v->port = -1;
	v->node0 = launch_env_str(get, ctx, src->node0);
	v->hosts = v->hosts_var = NULL;
	for (size_t i = 0; i < 2 && v->hosts == NULL; i++)
		if ((v->hosts = launch_env_str(get, ctx, src->hosts[i])) !=
		    NULL)
			v->hosts_var = src->hosts[i];
	r = launch_env_int(get, ctx, src->rank, 0, max - 1, &v->rank, err,
	                   errlen);
	if (r <= 0)
		return r;
	if ((src->size != NULL && launch_env_int(get, ctx, src->size, 1, max,
	                                         &v->size, err, errlen) < 0) ||
	    (src->local_rank != NULL &&
	     launch_env_int(get, ctx, src->local_rank, 0, LAUNCH_SIZE_MAX,
	                    &v->local_rank, err, errlen) < 0) ||
	    (src->port != NULL && launch_env_int(get, ctx, src->port, 1, 65535,
	                                         &v->port, err, errlen) < 0))
		return -1;
	if (v->size > 0 && v->rank >= v->size)
		return launch_fail(err, errlen, "%s=%d but %s=%d", src->rank,
		                   v->rank, src->size, v->size);
	return 1;
}

/* Handles "prefix[range,...]suffix", several bracket groups and plain
 * names: each group gives its first number, the text around is kept. */
int launch_first_host(const char *list, char *out, size_t len)
{
	size_t i = 0, o = 0;

	if (list == NULL || *list == '\0' || len == 0)
		return -1;
	while (list[i] != '\0' && list[i] != ',') {
		if (list[i] != '[') {
			if (list[i] == ']' || o + 1 >= len)
				return -1;
			out[o++] = list[i++];
			continue;
		}
		i++;
		if (list[i] < '0' || list[i] > '9')
			return -1;
		while (list[i] >= '0' && list[i] <= '9' && o + 1 < len)
			out[o++] = list[i++];
		if (list[i] != '-' && list[i] != ',' && list[i] != ']')
			return -1;
		while (list[i] != '\0' && list[i] != ']')
			i++;
		if (list[i] != ']')
			return -1;
		i++;
	}
	out[o] = '\0';
	return o > 0 ? 0 : -1;
}

/* ---- a process per GPU: ncclcheck's detection ---- */

/* An integer variable in [lo, hi]: 1 set and valid, 0 unset, -1 set but
 * invalid (the caller words the refusal). */
static int env_int(env_get_fn get, void *ctx, const char *name, long long lo,
                   long long hi, int *out)
{
	return launch_env_int(get, ctx, name, lo, hi, out, NULL, 0);
}

/* The MPI launchers' variables: Open MPI, then PMI (MPICH, Slurm), then
 * PMIx. 1 used, 0 absent, -1 refused. */
static int proc_mpi(env_get_fn get, void *ctx, struct launch_proc *o, char *err,
                    size_t len)
{
	static const enum launch_src order[] = {LAUNCH_OMPI, LAUNCH_PMI,
	                                        LAUNCH_PMIX};

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
		o->src = order[i];
		o->source = v->size;
		return 1;
	}
	return 0;
}

/* torchrun-style variables: 1 used, 0 absent, 2 a world of one under an
 * MPI launcher (MPI decides), -1 refused. */
static int proc_torch(env_get_fn get, void *ctx, int m, struct launch_proc *o,
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
		return launch_fail(err, len,
		                   "%s is set but %s is not: set "
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
		return launch_fail(err, len,
		                   "%s is missing or not a port "
		                   "number",
		                   t->port);
	snprintf(o->master_addr, sizeof(o->master_addr), "%s", ma);
	if (env_int(get, ctx, t->local_rank, 0, 4096, &o->local_rank) <= 0)
		o->local_rank = o->rank;
	o->src = LAUNCH_TORCHRUN;
	o->source = "RANK/WORLD_SIZE";
	/* torchrun's agent serves its store on MASTER_PORT */
	as = get(t->store, ctx);
	o->agent_store = as != NULL && strcmp(as, "True") == 0;
	o->run_id = get(t->run_id, ctx);
	o->restart = get(t->restart, ctx);
	return 1;
}

/* srun without MPI: 1 used, 0 not a step of several tasks, -1 refused.
 * Node 0 is MASTER_ADDR, else the first host of the node list; the port
 * MASTER_PORT, else one derived from the job and step. */
static int proc_slurm(env_get_fn get, void *ctx, struct launch_proc *o,
                      char *err, size_t len)
{
	const struct launch_source *sl = &launch_sources[LAUNCH_SLURM_TASKS];
	const char *list, *ma, *step = get(sl->step, ctx);
	int jobid = 0, stepid = 0, n;
	char host[256];

	if (env_int(get, ctx, sl->size, 1, LAUNCH_SIZE_MAX, &n) <= 0 || n < 2)
		return 0;
	if (step == NULL)
		return launch_fail(err, len,
		                   "%s=%d but this is not an srun "
		                   "step: one process would run alone; start "
		                   "ncclcheck with srun",
		                   sl->size, n);
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
		return launch_fail(err, len,
		                   "srun: cannot tell the first "
		                   "node from %s; set %s",
		                   sl->hosts[0], sl->node0);
	if (env_int(get, ctx, sl->port, 1, 65535, &o->master_port) <= 0) {
		env_int(get, ctx, sl->job, 0, 1 << 30, &jobid);
		env_int(get, ctx, sl->step, 0, 1 << 30, &stepid);
		o->master_port = 20000 + (jobid * 16 + stepid) % 20000;
	}
	o->src = LAUNCH_SLURM_TASKS;
	o->source = "SLURM_PROCID/SLURM_NTASKS";
	return 1;
}

/* MPI variables first, then torchrun-style, then srun: the row that
 * started us into o->src (LAUNCH_NSRC: none). 0, or -1 refused. */
static int proc_detect(env_get_fn get, void *ctx, bool have_mpi,
                       struct launch_proc *o, char *err, size_t len)
{
	const struct launch_source *t = &launch_sources[LAUNCH_TORCHRUN];
	int m, r, s;

	memset(o, 0, sizeof(*o));
	o->src = LAUNCH_NSRC;
	o->nprocs = 1;
	o->source = "no launcher";
	m = proc_mpi(get, ctx, o, err, len);
	if (m < 0)
		return -1;
	if (m > 0 && have_mpi)
		return 0;
	/* torchrun-style variables take over when MPI is not linked */
	r = proc_torch(get, ctx, m, o, err, len);
	if (r < 0)
		return -1;
	if (r == 1)
		return 0;
	if (m > 0) {
		if (o->nprocs != 1)
			return launch_fail(err, len,
			                   "built without MPI but "
			                   "started by an MPI launcher (%s=%d): "
			                   "every process would run alone and "
			                   "report a bus bandwidth of 0; "
			                   "rebuild with MPI, or launch with "
			                   "%s, %s, %s and %s",
			                   o->source, o->nprocs, t->rank, t->size,
			                   t->node0, t->port);
	} else {
		s = proc_slurm(get, ctx, o, err, len);
		if (s != 0)
			return s < 0 ? -1 : 0;
	}
	o->src = LAUNCH_NSRC;
	o->rank = 0;
	o->nprocs = 1;
	o->local_rank = 0;
	return 0;
}

/* See launchenv.h. The bootstrap is the row's column, so no launcher
 * is named twice. */
int launch_detect_proc(env_get_fn get, void *ctx, bool have_mpi,
                       struct launch_proc *o, char *err, size_t len)
{
	int r = proc_detect(get, ctx, have_mpi, o, err, len);

	o->boot = o->src < LAUNCH_NSRC ? launch_sources[o->src].boot
	                               : LAUNCH_BOOT_SINGLE;
	return r;
}

/* ---- a process per node: netprobe mesh's detection ---- */

/* Slurm: the step's node list (srun) or the job's, and SLURM_NODEID.
 * Returns 1 when used, 0 when Slurm did not start us, -1 on bad values. */
static int node_slurm(env_get_fn get, void *ctx, int max, struct launch_node *o,
                      char *err, size_t errlen)
{
	const struct launch_source *sl = &launch_sources[LAUNCH_SLURM_NODES];
	const char *var = sl->hosts[0];
	const char *list = launch_env_str(get, ctx, var);
	int r;

	if (list == NULL) {
		var = sl->hosts[1];
		list = launch_env_str(get, ctx, var);
	}
	if (list == NULL)
		return 0;
	r = launch_env_int(get, ctx, sl->rank, 0, max - 1, &o->rank, err,
	                   errlen);
	if (r <= 0)
		return r < 0 ? -1
		             : launch_fail(err, errlen,
		                           "%s is set but %s is not "
		                           "(run netprobe mesh under srun)",
		                           var, sl->rank);
	if (launch_env_int(get, ctx, sl->local_rank, 0, LAUNCH_SIZE_MAX,
	                   &o->local_rank, err, errlen) < 0)
		return -1;
	o->src = LAUNCH_SLURM_NODES;
	o->hosts = list;
	o->hosts_var = var;
	snprintf(o->vars, sizeof(o->vars), "%s, %s", var, sl->rank);
	return 1;
}

/* torchrun-style: MASTER_ADDR with NODE_RANK and NNODES, else RANK and
 * WORLD_SIZE (a row each, read whole). Returns 1 when used, 0 when
 * absent, -1 on bad values. */
static int node_torch(env_get_fn get, void *ctx, int max, struct launch_node *o,
                      char *err, size_t errlen)
{
	enum launch_src src = LAUNCH_TORCH_NODES;
	const struct launch_source *t = &launch_sources[src];
	const char *addr = launch_env_str(get, ctx, t->node0);
	struct launch_vals v;
	int r;

	if (addr == NULL)
		return 0;
	if (launch_env_str(get, ctx, t->rank) == NULL ||
	    launch_env_str(get, ctx, t->size) == NULL) {
		src = LAUNCH_TORCHRUN;
		t = &launch_sources[src];
	}
	r = launch_read(get, ctx, src, max, &v, err, errlen);
	if (r < 0)
		return -1;
	if (r == 0 || v.size < 0)
		return launch_fail(err, errlen,
		                   "%s is set but %s or %s is not (set "
		                   "%s and %s, or %s and %s)",
		                   t->node0, t->rank, t->size,
		                   launch_sources[LAUNCH_TORCH_NODES].rank,
		                   launch_sources[LAUNCH_TORCH_NODES].size,
		                   launch_sources[LAUNCH_TORCHRUN].rank,
		                   launch_sources[LAUNCH_TORCHRUN].size);
	o->rank = v.rank;
	o->size = v.size;
	o->port = v.port > 0 ? (unsigned)v.port : 0;
	if (v.local_rank >= 0)
		o->local_rank = v.local_rank;
	o->node0 = addr;
	o->src = LAUNCH_TORCHRUN;
	snprintf(o->vars, sizeof(o->vars), "%s, %s, %s", t->node0, t->rank,
	         t->size);
	return 1;
}

/* Open MPI, then PMIx: a rank and a size; node 0's address from
 * MASTER_ADDR when set. Returns 1 when used, 0 when absent, -1 bad. */
static int node_mpi(env_get_fn get, void *ctx, int max, struct launch_node *o,
                    char *err, size_t errlen)
{
	const struct launch_source *om = &launch_sources[LAUNCH_OMPI];
	const struct launch_source *px = &launch_sources[LAUNCH_PMIX];
	const struct launch_source *t = &launch_sources[LAUNCH_TORCHRUN];
	int r, port = 0;

	r = launch_env_int(get, ctx, om->rank, 0, max - 1, &o->rank, err,
	                   errlen);
	if (r < 0)
		return -1;
	if (r > 0) {
		o->src = LAUNCH_OMPI;
		snprintf(o->vars, sizeof(o->vars), "%s, %s", om->rank,
		         om->size);
		if (launch_env_int(get, ctx, om->local_rank, 0,
		                   LAUNCH_SIZE_MAX, &o->local_rank, err,
		                   errlen) < 0)
			return -1;
	} else {
		r = launch_env_int(get, ctx, px->rank, 0, max - 1, &o->rank,
		                   err, errlen);
		if (r <= 0)
			return r;
		o->src = LAUNCH_PMIX;
		snprintf(o->vars, sizeof(o->vars), "%s, %s", px->rank,
		         launch_env_str(get, ctx, om->size) ? om->size
		                                            : t->size);
	}
	/* PMIx alone names no size mpirun would: Open MPI's, else torch's */
	r = launch_env_int(get, ctx, om->size, 1, max, &o->size, err, errlen);
	if (r == 0 && o->src == LAUNCH_PMIX)
		r = launch_env_int(get, ctx, t->size, 1, max, &o->size, err,
		                   errlen);
	if (r < 0)
		return -1;
	if (r == 0)
		return launch_fail(err, errlen,
		                   "%s gives this process's rank but nothing "
		                   "gives the number of nodes: pass --hosts",
		                   o->src == LAUNCH_OMPI ? om->rank : px->rank);
	if (o->rank >= o->size)
		return launch_fail(err, errlen, "rank %d but only %d processes",
		                   o->rank, o->size);
	o->node0 = launch_env_str(get, ctx, t->node0);
	if (launch_env_int(get, ctx, t->port, 1, 65535, &port, err, errlen) <
	    0)
		return -1;
	o->port = (unsigned)port;
	return 1;
}

/* See launchenv.h. */
int launch_detect_node(env_get_fn get, void *ctx, int max,
                       struct launch_node *o, char *err, size_t errlen)
{
	int r;

	memset(o, 0, sizeof(*o));
	o->src = LAUNCH_NSRC;
	o->rank = o->size = -1;
	if ((r = node_slurm(get, ctx, max, o, err, errlen)) == 0 &&
	    (r = node_torch(get, ctx, max, o, err, errlen)) == 0)
		r = node_mpi(get, ctx, max, o, err, errlen);
	return r;
}

/* ---- the job as the scan sees it ---- */

/* A node count from one variable; 0 when unset or not a number. */
static int env_count(const char *v)
{
	const char *errstr;
	long long n;

	if (v == NULL || parse_num(v, 1, 1000000, &n, &errstr) < 0)
		return 0;
	return (int)n;
}

/* See launchenv.h. torchrun's NNODES, then Slurm's counts, then the
 * world over this node's share. */
int launch_job_nodes(env_get_fn get, void *ctx)
{
	static const enum launch_src order[] = {LAUNCH_TORCH_NODES,
	                                        LAUNCH_SLURM_NODES};
	const struct launch_source *t = &launch_sources[LAUNCH_TORCHRUN];
	int n, world, local;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		for (size_t j = 0; j < 2; j++) {
			const char *var = launch_sources[order[i]].nodes[j];

			if (var != NULL && (n = env_count(get(var, ctx))) > 0)
				return n;
		}
	/* torchrun: more ranks in the world than on this node */
	world = env_count(get(t->size, ctx));
	local = env_count(get(t->local_size, ctx));
	if (world > 0 && local > 0)
		return world > local ? 2 : 1;
	return 0;
}

/* See launchenv.h. */
const char *launch_job_master(env_get_fn get, void *ctx)
{
	return get(launch_sources[LAUNCH_TORCHRUN].node0, ctx);
}
