/* The one place the frameworks' variables are read from the process:
 * deciders only ever see the structs of kernel/jobenv.h. */
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
static int env_count(const char *name)
{
	const char *v = getenv(name), *errstr;
	long long n;

	if (v == NULL || parse_num(v, 1, 1000000, &n, &errstr) < 0)
		return 0;
	return (int)n;
}

/* The scan's settings, and how many nodes the launcher says the job has. */
void scan_env_from_process(struct scan_env *e)
{
	static const char *const node_vars[] = {
	    "NNODES",
	    "SLURM_JOB_NUM_NODES",
	    "SLURM_NNODES",
	};
	int world, local;

	memset(e, 0, sizeof(*e));
	e->nccl_socket_ifname = getenv("NCCL_SOCKET_IFNAME");
	e->nccl_socket_family = getenv("NCCL_SOCKET_FAMILY");
	e->nccl_comm_id = getenv("NCCL_COMM_ID");
	e->gloo_socket_ifname = getenv("GLOO_SOCKET_IFNAME");
	e->ompi_if_include = getenv("OMPI_MCA_btl_tcp_if_include");
	e->ompi_if_exclude = getenv("OMPI_MCA_btl_tcp_if_exclude");
	e->master_addr = getenv("MASTER_ADDR");
	for (size_t i = 0; i < sizeof(node_vars) / sizeof(node_vars[0]); i++) {
		if ((e->nodes = env_count(node_vars[i])) > 0)
			return;
	}
	/* torchrun: more ranks in the world than on this node */
	world = env_count("WORLD_SIZE");
	local = env_count("LOCAL_WORLD_SIZE");
	if (world > 0 && local > 0)
		e->nodes = world > local ? 2 : 1;
}
