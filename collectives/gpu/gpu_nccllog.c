/* NCCL's own debug output on the GPU side: where it is sent, and what it
 * said about the transports every process used, merged into the run. The
 * parsing is pure (nccllog.h). */
#include "gpu/harness.h"
#include "results/nccllog.h"
#include "bootstrap/watchdog.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"

/* Sets NCCL's debug output to a file ncclcheck reads afterwards, unless
 * the user chose their own: then their output stays where they want it
 * and the summary names no transports. */
void nc_debug_env(struct ctx *c)
{
	char host[64] = "unknown";

	if (getenv("NCCL_DEBUG") != NULL || getenv("NCCL_DEBUG_FILE") != NULL)
		return;
	gethostname(host, sizeof(host) - 1);
	setenv("NCCL_DEBUG", "INFO", 1);
	setenv("NCCL_DEBUG_SUBSYS", "INIT,NET,GRAPH", 1);
	setenv("NCCL_DEBUG_FILE", "/tmp/ncclcheck.%h.%p", 1);
	snprintf(c->debug_file, sizeof(c->debug_file), "/tmp/ncclcheck.%s.%d",
		 host, (int)getpid());
	c->own_debug = true;
}

/* Each process only sees its own links: every process sends what its
 * file said to rank 0, whose summary lists the union. The file is removed
 * unless -v asked to keep it. A failed exchange leaves the list empty. */
int nc_gather_transports(struct ctx *c)
{
	struct nc_nccllog lg;
	char blob[NC_NCCLLOG_BLOB] = "", *all = NULL;
	long long dl = mono_now_us() + c->o.timeout_us;

	memset(&lg, 0, sizeof(lg));
	if (c->own_debug && nc_nccllog_file(&lg, c->debug_file) == 0) {
		nc_nccllog_pack(&lg, blob, sizeof(blob));
		if (c->o.verbose == 0)
			unlink(c->debug_file);
	}
	if (c->l.rank == 0 &&
	    (all = calloc((size_t)c->sc.nprocs, sizeof(blob))) == NULL)
		return 0;
	nc_wd_arm(dl + GRACE_US, "transport exchange");
	if (sc_gather(&c->sc, blob, sizeof(blob), all, dl) < 0) {
		free(all);
		nc_wd_disarm();
		return -1;
	}
	nc_wd_disarm();
	memset(&c->run.nccl, 0, sizeof(c->run.nccl));
	for (int p = 0; all != NULL && p < c->sc.nprocs; p++)
		nc_nccllog_merge(&c->run.nccl, all + (size_t)p * sizeof(blob),
				 sizeof(blob));
	free(all);
	return 0;
}
