/* ncclcheck's bounded waits: every completion is polled through CUDA
 * events, NCCL's asynchronous error and the side channel against a
 * deadline. A failure goes down to nc_fail_step (gpu_exit.c), which names
 * the step, who had arrived and who stopped responding, aborts NCCL and
 * exits. */
#include "gpu/harness.h"

#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/parse.h"

/* The side channel is looked at this often while a wait spins. */
#define CHANNEL_EVERY_US 1000
/* Past this the wait sleeps between looks: nothing that long is timed
 * to the microsecond. */
#define SPIN_US 200000

/* A timeout names the limit; the step description comes from the
 * caller. */
static void timed_out(struct ctx *c, const char *what)
{
	char why[128], t[64];

	snprintf(why, sizeof(why), "did not complete within %s",
		 fmt_duration(c->o.timeout_us, t, sizeof(t)));
	nc_fail_step(c, what, why, true);
}

/* Waits for every device's `done` event: cudaEventQuery and NCCL's
 * asynchronous error each turn, as nccl-tests' testStreamSynchronize
 * does with its stream; the side channel once a millisecond. */
void nc_wait_done(struct ctx *c, const char *what, long long deadline)
{
	long long t0 = mono_now_us(), last = t0;

	for (;;) {
		int ready = 0;
		char why[512];
		long long now;

		for (int i = 0; i < c->ndev; i++) {
			cudaError_t e = cudaEventQuery(c->d[i].done);
			ncclResult_t ar = ncclSuccess;

			if (e == cudaSuccess) {
				ready++;
				continue;
			}
			if (e != cudaErrorNotReady) {
				snprintf(why, sizeof(why), "CUDA error on GPU "
					 "%d: %s", c->d[i].id,
					 cudaGetErrorString(e));
				nc_fail_step(c, what, why, false);
			}
			if (c->comms_ready &&
			    ncclCommGetAsyncError(c->d[i].comm, &ar) ==
				    ncclSuccess &&
			    ar != ncclSuccess && ar != ncclInProgress) {
				snprintf(why, sizeof(why), "NCCL error on rank "
					 "%d: %s (%s)", c->d[i].rank,
					 ncclGetErrorString(ar),
					 ncclGetLastError(c->d[i].comm));
				nc_fail_step(c, what, why, false);
			}
		}
		if (ready == c->ndev)
			return;
		now = mono_now_us();
		if (now - last >= CHANNEL_EVERY_US) {
			last = now;
			if (sc_poll(&c->sc) < 0)
				nc_fail_step(c, what, c->sc.why, false);
			if (now > deadline)
				timed_out(c, what);
		}
		if (now - t0 > SPIN_US)
			usleep(200);
		else
			sched_yield();
	}
}

/* Waits until no communicator reports ncclInProgress (init, group end on
 * non-blocking communicators, finalize). */
void nc_wait_comms(struct ctx *c, const char *what, long long deadline)
{
	long long t0 = mono_now_us();

	for (unsigned long spins = 0;; spins++) {
		int busy = 0;

		for (int k = 0; k < c->ndev; k++) {
			ncclComm_t cm = c->d[k].comm;
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
		if (mono_now_us() > deadline) {
			c->comms_ready = true;
			timed_out(c, what);
		}
		/* spin first: a launch is handed to NCCL's thread and is back
		 * in microseconds; sleep only when it is really slow (init) */
		if (mono_now_us() - t0 > 20000)
			usleep(200);
	}
}
