/* Launch detection (launch.h): kernel/launchenv.c reads the launcher;
 * this file says how ncclcheck's ranks then find each other. */
#include "launch/launch.h"

#include <stdio.h>
#include <string.h>

/* See launch.h. */
int nc_launch_detect(env_get_fn get, void *ctx, bool have_mpi,
		     struct nc_launch *o, char *err, size_t len)
{
	struct launch_proc p;
	int r = launch_detect_proc(get, ctx, have_mpi, &p, err, len);

	memset(o, 0, sizeof(*o));
	o->boot = p.boot;
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
