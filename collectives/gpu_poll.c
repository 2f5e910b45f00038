/* ncclcheck's bounded waits: every completion is polled through CUDA
 * events, NCCL's asynchronous error and the side channel against a
 * deadline. A failure goes down to nc_fail_step (gpu_exit.c), which names
 * the step and who had arrived, aborts NCCL and exits. */
#include "harness.h"

#include <stdio.h>
#include <unistd.h>

#include "base/parse.h"

/* Waits for every device's `done` event, polling NCCL's async errors and
 * the side channel, until the deadline. Fails the step otherwise. */
void nc_wait_done(struct ctx *c, const char *what, long long deadline)
{
	for (unsigned long spins = 0;; spins++) {
		int ready = 0;
		char why[512];

		for (int i = 0; i < c->ndev; i++) {
			cudaError_t e = cudaEventQuery(c->d[i].done);
			ncclResult_t ar = ncclSuccess;

			if (e == cudaSuccess)
				ready++;
			else if (e != cudaErrorNotReady) {
				snprintf(why, sizeof(why), "CUDA error on GPU "
					 "%d: %s", c->d[i].id,
					 cudaGetErrorString(e));
				nc_fail_step(c, what, why, false);
			}
			if (c->comms_ready &&
			    ncclCommGetAsyncError(run_comm(&c->d[i]), &ar) ==
				    ncclSuccess &&
			    ar != ncclSuccess && ar != ncclInProgress) {
				snprintf(why, sizeof(why), "NCCL error on rank "
					 "%d: %s (%s)", c->d[i].rank,
					 ncclGetErrorString(ar),
					 ncclGetLastError(run_comm(&c->d[i])));
				nc_fail_step(c, what, why, false);
			}
		}
		if (ready == c->ndev)
			return;
		if ((spins & 63) == 0 && sc_poll(&c->sc) < 0)
			nc_fail_step(c, what, c->sc.why, false);
		if (sc_now_us() > deadline) {
			char t[64];

			snprintf(why, sizeof(why), "did not complete within %s",
				 fmt_duration(c->o.timeout_us, t, sizeof(t)));
			nc_fail_step(c, what, why, true);
		}
		if (spins > 1000)
			usleep(spins > 100000 ? 1000 : 20);
	}
}

/* Waits until no communicator reports ncclInProgress (init, group end on
 * non-blocking communicators). */
void nc_wait_comms(struct ctx *c, const char *what, long long deadline)
{
	long long t0 = sc_now_us();

	for (unsigned long spins = 0;; spins++) {
		int busy = 0;

		for (int k = 0; k < 2 * c->ndev; k++) {
			ncclComm_t cm = k < c->ndev ? c->d[k].comm :
						      c->d[k - c->ndev].fast;
			ncclResult_t ar = ncclSuccess;

			if (cm == NULL)
				continue;
			ncclCommGetAsyncError(cm, &ar);
			if (ar == ncclInProgress) {
				busy++;
			} else if (ar != ncclSuccess) {
				char why[512];

				snprintf(why, sizeof(why), "NCCL error: %s (%s)",
					 ncclGetErrorString(ar),
					 ncclGetLastError(cm));
				c->comms_ready = true;
				nc_fail_step(c, what, why, false);
			}
		}
		if (busy == 0)
			return;
		if ((spins & 255) == 0 && sc_poll(&c->sc) < 0) {
			c->comms_ready = true;
			nc_fail_step(c, what, c->sc.why, false);
		}
		if (sc_now_us() > deadline) {
			char why[128], t[64];

			snprintf(why, sizeof(why), "did not complete within %s",
				 fmt_duration(c->o.timeout_us, t, sizeof(t)));
			c->comms_ready = true;
			nc_fail_step(c, what, why, true);
		}
		/* spin first: a launch is handed to NCCL's thread and is back
		 * in microseconds; sleep only when it is really slow (init) */
		if (sc_now_us() - t0 > 20000)
			usleep(200);
	}
}
