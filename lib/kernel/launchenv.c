/* The launchers' variables as one table (launchenv.h), and the readers
 * ncclcheck's and netprobe mesh's detection share. */
#include "kernel/launchenv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/parse.h"

/* Each launcher's own names, as its documentation spells them. */
const struct launch_source launch_sources[LAUNCH_NSRC] = {
	[LAUNCH_OMPI] = {"Open MPI", "OMPI_COMM_WORLD_SIZE",
	                 "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
	                 NULL, NULL, {NULL, NULL}},
	[LAUNCH_PMI] = {"PMI", "PMI_SIZE", "PMI_RANK", "MPI_LOCALRANKID", NULL,
	                NULL, {NULL, NULL}},
	[LAUNCH_PMIX] = {"PMIx", "PMIX_SIZE", "PMIX_RANK", "PMIX_LOCAL_RANK",
	                 NULL, NULL, {NULL, NULL}},
	[LAUNCH_TORCHRUN] = {"torchrun-style variables", "WORLD_SIZE", "RANK",
	                     "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT",
	                     {NULL, NULL}},
	[LAUNCH_TORCH_NODES] = {"torchrun-style variables (nodes)", "NNODES",
	                        "NODE_RANK", "LOCAL_RANK", "MASTER_ADDR",
	                        "MASTER_PORT", {NULL, NULL}},
	[LAUNCH_SLURM_TASKS] = {"Slurm", "SLURM_NTASKS", "SLURM_PROCID",
	                        "SLURM_LOCALID", "MASTER_ADDR", "MASTER_PORT",
	                        {"SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST"}},
	[LAUNCH_SLURM_NODES] = {"Slurm (nodes)", NULL, "SLURM_NODEID",
	                        "SLURM_LOCALID", NULL, NULL,
	                        {"SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST"}},
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

/* See launchenv.h. */
const char *launch_env_str(env_get_fn get, void *ctx, const char *name)
{
	const char *v = name != NULL ? get(name, ctx) : NULL;

	return v != NULL && *v != '\0' ? v : NULL;
}

/* See launchenv.h. */
int launch_env_int(env_get_fn get, void *ctx, const char *name, long long lo,
                   long long hi, int *out, char *err, size_t errlen)
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

/* See launchenv.h. */
int launch_read(env_get_fn get, void *ctx, enum launch_src s,
                struct launch_vals *v, char *err, size_t errlen)
{
	const struct launch_source *src = &launch_sources[s];
	int r;

	v->size = v->rank = v->local_rank = v->port = -1;
	v->node0 = launch_env_str(get, ctx, src->node0);
	v->hosts = v->hosts_var = NULL;
	for (size_t i = 0; i < 2 && v->hosts == NULL; i++)
		if ((v->hosts = launch_env_str(get, ctx, src->hosts[i])) != NULL)
			v->hosts_var = src->hosts[i];
	r = launch_env_int(get, ctx, src->rank, 0, LAUNCH_SIZE_MAX - 1,
	                   &v->rank, err, errlen);
	if (r <= 0)
		return r;
	if ((src->size != NULL &&
	     launch_env_int(get, ctx, src->size, 1, LAUNCH_SIZE_MAX, &v->size,
	                    err, errlen) < 0) ||
	    (src->local_rank != NULL &&
	     launch_env_int(get, ctx, src->local_rank, 0, LAUNCH_SIZE_MAX,
	                    &v->local_rank, err, errlen) < 0) ||
	    (src->port != NULL &&
	     launch_env_int(get, ctx, src->port, 1, 65535, &v->port, err,
	                    errlen) < 0))
		return -1;
	if (v->size > 0 && v->rank >= v->size)
		return launch_fail(err, errlen, "%s=%d is not below %s=%d",
		                   src->rank, v->rank, src->size, v->size);
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
