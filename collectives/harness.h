/* The GPU side of ncclcheck's harness, shared by its three files:
 * ncclcheck.c (launch, pre-flight, communicators, outputs), gpu_sweep.c
 * (sweep, timing, checks) and gpu_poll.c (every wait bounded, failure
 * reports). Includes CUDA and NCCL: never built for the CPU tests. */
#ifndef NC_HARNESS_H
#define NC_HARNESS_H

#include <cuda_runtime.h>
#include <nccl.h>
#include <stdbool.h>
#include <stdint.h>

#include "bootstrap.h"
#include "launch.h"
#include "nc.h"
#include "output.h"

#define GRACE_US 3000000LL /* after a deadline: describe, abort, exit */
#define MAX_GPUS 64

struct dev {
	int id, rank;
	cudaStream_t s;
	ncclComm_t comm;   /* non-blocking: init, errors, abort */
	ncclComm_t fast;   /* blocking split of comm for the sweep, or NULL */
	void *send, *recv;
	unsigned long long *wrong;
	cudaEvent_t e0, e1, done;
};

/* The whole state of one process's run. */
struct ctx {
	struct nc_opts o;
	struct nc_launch l;
	struct nc_run run;
	struct sc sc;
	struct dev d[MAX_GPUS];
	int ndev, nranks;
	size_t bufbytes;
	uint32_t step;
	char prefix[160];   /* "ncclcheck: rank 2 on gpu-b" */
	char debug_file[300];
	bool own_debug;
	bool comms_ready;
	bool tty;
	int corrupt_rank;   /* NCCLCHECK_TEST_CORRUPT: -1 off */
	int kill_rank;      /* NCCLCHECK_TEST_KILL rank:bytes */
	unsigned long long kill_bytes;
	int stall_rank;     /* NCCLCHECK_TEST_STALL rank:step */
	unsigned stall_step;
};

struct step {
	int coll, dtype, op, root, vmax;
	bool in_place;
	size_t count, sc, rc, soff, roff; /* elements */
	char what[160];
};

/* The communicator the sweep runs on: the blocking split when there is
 * one (enqueues return at once, as in nccl-tests), else the non-blocking
 * one (every call then waits for NCCL's asynchronous launch). */
static inline ncclComm_t run_comm(const struct dev *d)
{
	return d->fast != NULL ? d->fast : d->comm;
}

/* One error line on stderr with the rank prefix (house style). */
void nc_say(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Writes the outputs (rank 0) and returns the exit status. */
int nc_finish(struct ctx *c, bool ran);
/* Aborts the communicators, bounded by the watchdog. */
void nc_abort_comms(struct ctx *c);
/* Reports a failed step to everyone and exits 1; never returns. */
void nc_fail_step(struct ctx *c, const char *what, const char *reason,
		  bool timed_out) __attribute__((noreturn));
/* Waits for every device's done event until the deadline, or fails. */
void nc_wait_done(struct ctx *c, const char *what, long long deadline);
/* Waits until no communicator is in progress, or fails. */
void nc_wait_comms(struct ctx *c, const char *what, long long deadline);
/* Runs the whole sweep, filling c->run.res and printing the table. */
void nc_sweep(struct ctx *c);

#endif
