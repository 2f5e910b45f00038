/* Launch detection (launch.h): which launcher, which rank, where rank 0
 * listens, and the refusals for a run that would measure nothing. */
#include "launch.h"
#include "base/parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ignores ctx; reads the process environment. */
const char *nc_getenv_process(const char *name, void *ctx)
{
	(void)ctx;
	return getenv(name);
}

static int fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Formats the refusal and returns -1. */
static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Reads an integer variable in [lo, hi]: 1 when set and valid, 0 unset,
 * -1 set but invalid. */
static int env_int(nc_getenv_fn get, void *ctx, const char *name, long long lo,
		   long long hi, int *out)
{
	const char *s = get(name, ctx), *e;
	long long v;

	if (s == NULL || *s == '\0')
		return 0;
	if (parse_num(s, lo, hi, &v, &e) < 0)
		return -1;
	*out = (int)v;
	return 1;
}

/* Handles "prefix[range,...]suffix", several bracket groups and plain
 * names: each group gives its first number, the text around is kept. */
int nc_slurm_first_host(const char *list, char *out, size_t len)
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

/* The MPI launchers' variables: Open MPI, then PMI (MPICH, Slurm). */
static int mpi_env(nc_getenv_fn get, void *ctx, struct nc_launch *o,
		   char *err, size_t len)
{
	static const struct {
		const char *size, *rank, *local;
	} v[] = {
		{ "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK",
		  "OMPI_COMM_WORLD_LOCAL_RANK" },
		{ "PMI_SIZE", "PMI_RANK", "MPI_LOCALRANKID" },
		{ "PMIX_SIZE", "PMIX_RANK", "PMIX_LOCAL_RANK" },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		int rs = env_int(get, ctx, v[i].size, 1, 1 << 20, &o->nprocs);

		if (rs == 0 && strcmp(v[i].rank, "PMIX_RANK") == 0 &&
		    get("PMIX_RANK", ctx) != NULL) {
			/* PMIx alone: the size comes from MPI itself */
			o->nprocs = 0;
			rs = 1;
		}
		if (rs == 0)
			continue;
		if (rs < 0 || env_int(get, ctx, v[i].rank, 0, 1 << 20,
				      &o->rank) <= 0)
			return fail(err, len, "invalid %s or %s", v[i].size,
				    v[i].rank);
		if (env_int(get, ctx, v[i].local, 0, 4096, &o->local_rank) <= 0)
			o->local_rank = -1;
		o->source = v[i].size;
		return 1;
	}
	return 0;
}

/* MPI variables first, then torchrun-style, then Slurm. */
int nc_launch_detect(nc_getenv_fn get, void *ctx, bool have_mpi,
		     struct nc_launch *o, char *err, size_t len)
{
	int m, r, s, tmp;

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
	r = env_int(get, ctx, "RANK", 0, 1 << 20, &o->rank);
	s = env_int(get, ctx, "WORLD_SIZE", 1, 1 << 20, &tmp);
	if (r < 0 || s < 0)
		return fail(err, len, "invalid RANK or WORLD_SIZE");
	if (r > 0 || s > 0) {
		const char *ma = get("MASTER_ADDR", ctx);

		if (r == 0 || s == 0)
			return fail(err, len, "%s is set but %s is not: set "
				    "RANK, WORLD_SIZE, MASTER_ADDR and "
				    "MASTER_PORT together",
				    r ? "RANK" : "WORLD_SIZE",
				    r ? "WORLD_SIZE" : "RANK");
		o->nprocs = tmp;
		if (o->rank >= o->nprocs)
			return fail(err, len, "RANK=%d is not below "
				    "WORLD_SIZE=%d", o->rank, o->nprocs);
		if (m > 0 && o->nprocs == 1)
			goto nompi;
		if (ma == NULL || *ma == '\0')
			return fail(err, len, "RANK and WORLD_SIZE are set but "
				    "MASTER_ADDR is not");
		if (env_int(get, ctx, "MASTER_PORT", 1, 65535,
			    &o->master_port) <= 0)
			return fail(err, len, "MASTER_PORT is missing or not "
				    "a port number");
		snprintf(o->master_addr, sizeof(o->master_addr), "%s", ma);
		if (env_int(get, ctx, "LOCAL_RANK", 0, 4096, &o->local_rank)
		    <= 0)
			o->local_rank = o->rank;
		o->kind = NC_LAUNCH_TORCHRUN;
		o->source = "RANK/WORLD_SIZE";
		/* torchrun's agent serves its store on MASTER_PORT */
		const char *as = get("TORCHELASTIC_USE_AGENT_STORE", ctx);

		o->agent_store = as != NULL && strcmp(as, "True") == 0;
		return 0;
	}
	if (m > 0) {
nompi:
		if (o->nprocs == 1)
			goto single;
		return fail(err, len, "built without MPI but started by an "
			    "MPI launcher (%s=%d): every process would run "
			    "alone and report a bus bandwidth of 0; rebuild "
			    "with MPI, or launch with RANK, WORLD_SIZE, "
			    "MASTER_ADDR and MASTER_PORT", o->source,
			    o->nprocs);
	}
	r = env_int(get, ctx, "SLURM_NTASKS", 1, 1 << 20, &tmp);
	if (r > 0 && tmp > 1) {
		const char *list, *step = get("SLURM_STEP_ID", ctx);
		int jobid = 0, stepid = 0;
		char host[256];

		if (step == NULL)
			return fail(err, len, "SLURM_NTASKS=%d but this is not "
				    "an srun step: one process would run "
				    "alone; start ncclcheck with srun", tmp);
		o->nprocs = tmp;
		if (env_int(get, ctx, "SLURM_PROCID", 0, 1 << 20, &o->rank) <=
			    0 ||
		    o->rank >= o->nprocs)
			return fail(err, len, "invalid SLURM_PROCID");
		if (env_int(get, ctx, "SLURM_LOCALID", 0, 4096,
			    &o->local_rank) <= 0)
			o->local_rank = 0;
		list = get("SLURM_STEP_NODELIST", ctx);
		if (list == NULL)
			list = get("SLURM_JOB_NODELIST", ctx);
		if (get("MASTER_ADDR", ctx) != NULL)
			snprintf(o->master_addr, sizeof(o->master_addr), "%s",
				 get("MASTER_ADDR", ctx));
		else if (nc_slurm_first_host(list, host, sizeof(host)) == 0)
			snprintf(o->master_addr, sizeof(o->master_addr), "%s",
				 host);
		else
			return fail(err, len, "srun: cannot tell the first "
				    "node from SLURM_STEP_NODELIST; set "
				    "MASTER_ADDR");
		if (env_int(get, ctx, "MASTER_PORT", 1, 65535,
			    &o->master_port) <= 0) {
			env_int(get, ctx, "SLURM_JOB_ID", 0, 1 << 30, &jobid);
			env_int(get, ctx, "SLURM_STEP_ID", 0, 1 << 30, &stepid);
			o->master_port = 20000 + (jobid * 16 + stepid) % 20000;
		}
		o->kind = NC_LAUNCH_SLURM;
		o->source = "SLURM_PROCID/SLURM_NTASKS";
		return 0;
	}
single:
	o->kind = NC_LAUNCH_SINGLE;
	o->rank = 0;
	o->nprocs = 1;
	o->local_rank = 0;
	return 0;
}
