/* The NCCL lifecycle of one process: communicators created non-blocking
 * (so every init can be bounded and aborted), a blocking split for the
 * sweep, the buffers, and the teardown after a good run. The abort of a
 * failed run is part of the exit path (gpu_exit.c). */
#include "harness.h"
#include "watchdog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Splits a blocking copy of every communicator for the sweep, so that an
 * enqueue returns at once as in nccl-tests; completion is still polled
 * through events with a deadline. Falls back to the non-blocking
 * communicator when the split fails. */
static void split_blocking(struct ctx *c, long long dl)
{
	ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
	ncclResult_t rc = ncclSuccess, rg = ncclSuccess;

	cfg.blocking = 1;
	nc_wd_arm(dl + GRACE_US, "communicator split");
	if (c->ndev > 1)
		rc = ncclGroupStart();
	for (int i = 0; i < c->ndev && rc == ncclSuccess; i++) {
		cudaSetDevice(c->d[i].id);
		rc = ncclCommSplit(c->d[i].comm, 0, c->d[i].rank, &c->d[i].fast,
				   &cfg);
	}
	if (c->ndev > 1)
		rg = ncclGroupEnd();
	if (rc != ncclSuccess && rc != ncclInProgress)
		goto fallback;
	if (rg != ncclSuccess && rg != ncclInProgress)
		goto fallback;
	/* with a non-blocking parent the split finishes on NCCL's thread,
	 * which fills in the new communicator only at the end */
	for (unsigned long spins = 0;; spins++) {
		int ready = 0;

		for (int i = 0; i < c->ndev; i++) {
			ncclComm_t f = *(ncclComm_t volatile *)&c->d[i].fast;
			ncclResult_t ar = ncclSuccess;

			ncclCommGetAsyncError(c->d[i].comm, &ar);
			if (ar != ncclSuccess && ar != ncclInProgress) {
				rc = ar;
				goto fallback;
			}
			if (f == NULL)
				continue;
			ncclCommGetAsyncError(f, &ar);
			if (ar == ncclSuccess)
				ready++;
			else if (ar != ncclInProgress) {
				rc = ar;
				goto fallback;
			}
		}
		if (ready == c->ndev)
			return;
		if ((spins & 255) == 0 && sc_poll(&c->sc) < 0)
			nc_fail_step(c, "communicator split", c->sc.why, false);
		if (sc_now_us() > dl)
			nc_fail_step(c, "communicator split",
				     "did not complete in time", true);
		usleep(spins > 1000 ? 1000 : 10);
	}
fallback:
	nc_say(c, "warning: blocking split failed (%s); the sweep runs on the "
	    "non-blocking communicator",
	    ncclGetErrorString(rc != ncclSuccess ? rc : rg));
	for (int i = 0; i < c->ndev; i++)
		c->d[i].fast = NULL;
}

/* Creates the communicators (non-blocking, so that init can be bounded
 * and aborted) and the buffers, sized for the largest step. Every rank
 * arrives first, so a rank that never comes is named, not waited on. */
void nc_start_nccl(struct ctx *c)
{
	ncclUniqueId id, *ids;
	ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
	long long dl = sc_now_us() + c->o.timeout_us;
	ncclResult_t rc = ncclSuccess;
	unsigned long long sizes[NC_MAX_SIZES];
	int ns = nc_sweep_sizes(&c->o, sizes, NC_MAX_SIZES);

	memset(&id, 0, sizeof(id));
	c->step++;
	nc_wd_arm(dl + GRACE_US, "communicator init");
	if (sc_arrive(&c->sc, c->step) < 0)
		nc_fail_step(c, "communicator init", c->sc.why, false);
	if (c->l.rank == 0 && (rc = ncclGetUniqueId(&id)) != ncclSuccess) {
		char why[256];

		snprintf(why, sizeof(why), "ncclGetUniqueId: %s (%s)",
			 ncclGetErrorString(rc), ncclGetLastError(NULL));
		nc_fail_step(c, "communicator init", why, false);
	}
	ids = calloc((size_t)c->sc.nprocs, sizeof(*ids));
	if (ids == NULL || sc_allgather(&c->sc, &id, sizeof(id), ids, dl) < 0)
		nc_fail_step(c, "communicator init", c->sc.why, c->sc.timed_out);
	id = ids[0];
	free(ids);
	if (c->hooks.stall_rank == c->l.rank &&
	    c->hooks.stall_step == c->step) {
		nc_say(c, "test: stalling before communicator init "
		    "(NCCLCHECK_TEST_STALL)");
		for (;;)
			pause();
	}
	cfg.blocking = 0;
	if (c->ndev > 1)
		ncclGroupStart();
	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		rc = ncclCommInitRankConfig(&c->d[i].comm, c->nranks, id,
					    c->d[i].rank, &cfg);
		if (rc != ncclSuccess && rc != ncclInProgress)
			break;
	}
	if (c->ndev > 1) {
		ncclResult_t rg = ncclGroupEnd();

		if (rc == ncclSuccess)
			rc = rg;
	}
	if (rc != ncclSuccess && rc != ncclInProgress) {
		char why[256];

		snprintf(why, sizeof(why), "ncclCommInitRankConfig: %s (%s)",
			 ncclGetErrorString(rc), ncclGetLastError(NULL));
		nc_fail_step(c, "communicator init", why, false);
	}
	nc_wait_comms(c, "communicator init", dl);
	c->comms_ready = true;
	if (!c->o.nonblocking)
		split_blocking(c, dl);
	for (int i = 0; i < ns; i++) {
		size_t b = sizes[i] + 256;

		if (b > c->bufbytes)
			c->bufbytes = b;
	}
	for (int i = 0; i < c->ndev; i++) {
		struct dev *d = &c->d[i];

		cudaSetDevice(d->id);
		if (cudaMalloc(&d->send, c->bufbytes) != cudaSuccess ||
		    cudaMalloc(&d->recv, c->bufbytes) != cudaSuccess ||
		    cudaMalloc((void **)&d->wrong, 64) != cudaSuccess) {
			char why[256];

			snprintf(why, sizeof(why), "cannot allocate 2 x %zu "
				 "bytes on GPU %d", c->bufbytes, d->id);
			nc_fail_step(c, "buffer allocation", why, false);
		}
	}
	nc_wd_disarm();
}

/* Releases the communicators after a good run: finalize first, so the
 * destroy does not race NCCL's own thread; bounded by the watchdog. */
void nc_stop_nccl(struct ctx *c)
{
	long long dl = sc_now_us() + c->o.timeout_us;

	nc_wd_arm(dl + GRACE_US, "communicator teardown");
	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		if (c->d[i].fast != NULL)
			ncclCommDestroy(c->d[i].fast);
		c->d[i].fast = NULL;
	}
	for (int i = 0; i < c->ndev; i++)
		ncclCommFinalize(c->d[i].comm);
	nc_wait_comms(c, "communicator teardown", dl);
	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		ncclCommDestroy(c->d[i].comm);
		cudaFree(c->d[i].send);
		cudaFree(c->d[i].recv);
		cudaFree(c->d[i].wrong);
		c->d[i].comm = NULL;
	}
	c->comms_ready = false;
	nc_wd_disarm();
}
