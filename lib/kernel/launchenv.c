/* The launchers' variables as one table (launchenv.h), and the readers
 * ncclcheck's and netprobe mesh's detection share. */
#include "kernel/launchenv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/parse.h"

/* Each launcher's own names, as its documentation spells them; a field
 * left out is a name the launcher does not set. */
const struct launch_source launch_sources[LAUNCH_NSRC] = {
    [LAUNCH_OMPI] = {.name = "Open MPI",
                     .size = "OMPI_COMM_WORLD_SIZE",
                     .rank = "OMPI_COMM_WORLD_RANK",
                     .local_rank = "OMPI_COMM_WORLD_LOCAL_RANK"},
    [LAUNCH_PMI] = {.name = "PMI",
                    .size = "PMI_SIZE",
                    .rank = "PMI_RANK",
                    .local_rank = "MPI_LOCALRANKID"},
    [LAUNCH_PMIX] = {.name = "PMIx",
                     .size = "PMIX_SIZE",
                     .rank = "PMIX_RANK",
                     .local_rank = "PMIX_LOCAL_RANK"},
    [LAUNCH_TORCHRUN] = {.name = "torchrun-style variables",
                         .size = "WORLD_SIZE",
                         .rank = "RANK",
                         .local_rank = "LOCAL_RANK",
                         .node0 = "MASTER_ADDR",
                         .port = "MASTER_PORT"},
    [LAUNCH_TORCH_NODES] = {.name = "torchrun-style variables (nodes)",
                            .size = "NNODES",
                            .rank = "NODE_RANK",
                            .local_rank = "LOCAL_RANK",
                            .node0 = "MASTER_ADDR",
                            .port = "MASTER_PORT"},
    [LAUNCH_SLURM_TASKS] = {.name = "Slurm",
                            .size = "SLURM_NTASKS",
                            .rank = "SLURM_PROCID",
                            .local_rank = "SLURM_LOCALID",
                            .node0 = "MASTER_ADDR",
                            .port = "MASTER_PORT",
                            .hosts = {"SLURM_STEP_NODELIST",
                                      "SLURM_JOB_NODELIST"}},
    /* the node count is the list's length */
    [LAUNCH_SLURM_NODES] = {.name = "Slurm (nodes)",
                            .rank = "SLURM_NODEID",
                            .local_rank = "SLURM_LOCALID",
                            .hosts = {"SLURM_STEP_NODELIST",
                                      "SLURM_JOB_NODELIST"}},
};

/* Node level only: a process rank (RANK, SLURM_PROCID) counts GPUs. */
const char *const launch_node_rank_vars[] = {
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
