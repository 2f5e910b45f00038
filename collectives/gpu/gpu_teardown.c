/* After the verdict: the communicators, the buffers, MPI_Finalize and the
 * exit, all bounded by the watchdog in its teardown mode, so a peer that
 * stopped now (frozen, killed) cannot turn a printed verdict into a hang:
 * the verdict and its exit status stand, and the rank that did not finish
 * is named in a warning. */
#include "gpu/harness.h"
#include "bootstrap/watchdog.h"

#include <stdio.h>
#include <unistd.h>

#ifdef NC_HAVE_MPI
#include <mpi.h>
#endif

/* The inverse of gpu_nccl.c's buf_alloc. */
static void buf_free(struct ctx *c, void *p)
{
	if (p == NULL)
		return;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
	if (c->nccl_version >= NCCL_VERSION(2, 19, 0)) {
		ncclMemFree(p);
		return;
	}
#endif
	cudaFree(p);
}

/* Finalize, then destroy, so the destroy does not race NCCL's own
 * thread. An error, or a finalize still in progress when a peer is seen
 * stopping, turns into an abort. Returns false when it aborted. */
static bool destroy_comms(struct ctx *c)
{
	char who[640];

	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		ncclCommFinalize(c->d[i].comm);
	}
	for (;;) {
		int busy = 0;

		for (int i = 0; i < c->ndev; i++) {
			ncclResult_t ar = ncclSuccess;

			if (ncclCommGetAsyncError(c->d[i].comm, &ar) !=
				    ncclSuccess ||
			    (ar != ncclSuccess && ar != ncclInProgress))
				return false;
			busy += ar == ncclInProgress;
		}
		if (busy == 0)
			break;
		if (nc_wd_stopped_peers(who, sizeof(who)) > 0)
			return false;
		usleep(1000); /* the watchdog bounds this loop */
	}
	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		ncclCommDestroy(c->d[i].comm);
		c->d[i].comm = NULL;
	}
	c->comms_ready = false;
	return true;
}

/* Every way out after the verdict goes through here. */
void nc_teardown(struct ctx *c, int rc, bool peer_gone)
{
	char who[640] = "";

	nc_wd_teardown(rc, "communicator destroy");
	if (nc_wd_stopped_peers(who, sizeof(who)) > 0)
		peer_gone = true;
	if (c->comms_ready) {
		if (peer_gone || !destroy_comms(c)) {
			nc_wd_teardown(rc, "ncclCommAbort");
			for (int i = 0; i < c->ndev; i++)
				if (c->d[i].comm != NULL)
					ncclCommAbort(c->d[i].comm);
			c->comms_ready = false;
			peer_gone = true;
		}
		for (int i = 0; i < c->ndev; i++) {
			cudaSetDevice(c->d[i].id);
			buf_free(c, c->d[i].send);
			buf_free(c, c->d[i].recv);
			cudaFree(c->d[i].wrong);
			c->d[i].send = c->d[i].recv = NULL;
			c->d[i].wrong = NULL;
		}
	}
	if (peer_gone) {
		if (who[0] == '\0')
			nc_wd_stopped_peers(who, sizeof(who));
		nc_say(c, "warning: teardown: %s; NCCL aborted%s; the verdict "
		    "above stands (exit status %d)",
		    who[0] ? who : "a rank did not finish the run",
		    c->l.boot == LAUNCH_BOOT_MPI ?
			    " and MPI_Finalize skipped (it would wait for that "
			    "rank)" : "", rc);
	}
#ifdef NC_HAVE_MPI
	if (c->l.boot == LAUNCH_BOOT_MPI && !peer_gone) {
		nc_wd_teardown(rc, "MPI_Finalize");
		MPI_Finalize();
	}
#endif
	sc_close(&c->sc);
	nc_wd_done();
	fflush(stdout);
	fflush(stderr);
	_exit(rc);
}
