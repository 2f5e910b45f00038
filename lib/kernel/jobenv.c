/* The frameworks' variables read from the live process (the recorded
 * ones: jobenv_record.c): deciders only ever see the structs of
 * kernel/jobenv.h. */
#include "kernel/jobenv.h"

#include <stdlib.h>
#include <string.h>

#include "base/parse.h"

/* The three variables NCCL's interface selection reads. */
void nccl_env_from_process(struct nccl_env *env)
{
	env->socket_ifname = getenv("NCCL_SOCKET_IFNAME");
	env->socket_family = getenv("NCCL_SOCKET_FAMILY");
	env->comm_id = getenv("NCCL_COMM_ID");
}

/* A node count from one variable; 0 when unset or not a number. */
static int env_count(const char *v)
{
	const char *errstr;
	long long n;

	if (v == NULL || parse_num(v, 1, 1000000, &n, &errstr) < 0)
		return 0;
	return (int)n;
}

/* getenv in the shape scan_env_fill takes. */
static const char *process_get(const char *name, void *ctx)
{
	(void)ctx;
	return getenv(name);
}

/* The live process's environment. */
void scan_env_from_process(struct scan_env *e)
{
	scan_env_fill(e, process_get, NULL);
}

/* The scan's settings, and how many nodes the launcher says the job has. */
void scan_env_fill(struct scan_env *e,
                   const char *(*get)(const char *name, void *ctx), void *ctx)
{
	static const char *const node_vars[] = {
	    "NNODES",
	    "SLURM_JOB_NUM_NODES",
	    "SLURM_NNODES",
	};
	int world, local;

	memset(e, 0, sizeof(*e));
	e->nccl_socket_ifname = get("NCCL_SOCKET_IFNAME", ctx);
	e->nccl_socket_family = get("NCCL_SOCKET_FAMILY", ctx);
	e->nccl_comm_id = get("NCCL_COMM_ID", ctx);
	e->gloo_socket_ifname = get("GLOO_SOCKET_IFNAME", ctx);
	e->ompi_if_include = get("OMPI_MCA_btl_tcp_if_include", ctx);
	e->ompi_if_exclude = get("OMPI_MCA_btl_tcp_if_exclude", ctx);
	e->master_addr = get("MASTER_ADDR", ctx);
	for (size_t i = 0; i < sizeof(node_vars) / sizeof(node_vars[0]); i++) {
		if ((e->nodes = env_count(get(node_vars[i], ctx))) > 0)
			return;
	}
	/* torchrun: more ranks in the world than on this node */
	world = env_count(get("WORLD_SIZE", ctx));
	local = env_count(get("LOCAL_WORLD_SIZE", ctx));
	if (world > 0 && local > 0)
		e->nodes = world > local ? 2 : 1;
}
