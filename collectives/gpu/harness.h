/* The GPU side of ncclcheck's harness: the state of one process's run and
 * the functions its files share. Calls go one way, from main down:
 *   ncclcheck.c    main: the order of the run
 *   gpu_launch.c   MPI start, this process's GPUs, the side channel
 *   gpu_preflight.c  what this rank reports, the pre-flight exchanges
 *   gpu_nccl.c     communicators and buffers: init, split, teardown
 *   gpu_nccllog.c  NCCL's debug file: where it goes, what it said
 *   gpu_sweep.c    sweep, timing, checks
 *   gpu_poll.c     every wait bounded by a deadline
 *   gpu_exit.c     messages, abort, the failed-step exit, the finish
 *   gpu_teardown.c after the verdict: destroy, finalize, exit (bounded)
 * Includes CUDA and NCCL: never built for the CPU tests. */
#ifndef NC_HARNESS_H
#define NC_HARNESS_H

#include <cuda_runtime.h>
#include <nccl.h>
#include <stdbool.h>
#include <stdint.h>

#include "bootstrap/bootstrap.h"
#include "launch/hooks.h"
#include "launch/launch.h"
#include "nc.h"
#include "results/output.h"

#define GRACE_US 3000000LL /* after a deadline: describe, abort, exit */
#define MAX_GPUS 64

struct dev {
	int id, rank;
	cudaStream_t s;
	ncclComm_t comm;   /* blocking (non-blocking with --nonblocking) */
	void *send, *recv;
	unsigned long long *wrong;
	cudaEvent_t done;
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
	int nccl_version;   /* the library's, ncclGetVersion */
	struct nc_hooks hooks; /* NCCLCHECK_TEST_*: all off unless set */
	char nccl_iface[32]; /* the interface NCCL will use, "" none */
};

struct step {
	int coll, dtype, op, root, vmax, contrib;
	bool in_place;
	size_t count, pc, sc, rc, soff, roff; /* elements */
	/* each device's buffers at iteration 0; iteration k adds
	 * shift * (k % slices) bytes */
	char *send[MAX_GPUS], *recv[MAX_GPUS];
	size_t shift, slices;
	char what[160];
};

/* gpu_exit.c */
/* One error line on stderr with the rank prefix (house style). */
void nc_say(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Writes the outputs (rank 0) and returns the exit status. */
int nc_finish(struct ctx *c, bool ran);
/* Reports a failed step to everyone and exits 1; never returns. */
void nc_fail_step(struct ctx *c, const char *what, const char *reason,
		  bool timed_out) __attribute__((noreturn));

/* gpu_poll.c */
/* Waits for every device's done event until the deadline, or fails.
 * Spins (yielding) as nccl-tests' stream synchronisation does, and looks
 * at the side channel at most once a millisecond, so a timed wait costs
 * what nccl-tests' costs. */
void nc_wait_done(struct ctx *c, const char *what, long long deadline);
/* Waits until no communicator is in progress, or fails. */
void nc_wait_comms(struct ctx *c, const char *what, long long deadline);

/* gpu_sweep.c */
/* Runs the whole sweep, filling c->run.res and printing the table. */
void nc_sweep(struct ctx *c);

/* gpu_launch.c */
#ifdef NC_HAVE_MPI
/* MPI_Init and the check that the launcher's MPI is ours. Returns 0, or
 * -1 (said) when the process must exit 2. */
int nc_mpi_start(struct ctx *c, int *argc, char ***argv);
#endif
/* Says "no GPU" (and what was looked for) when CUDA sees none. Returns
 * the number of visible GPUs, or -1 (said) when the process must exit 2:
 * the first refusal, before any other. */
int nc_count_gpus(struct ctx *c);
/* Picks this process's GPUs, makes streams and events. Returns 0, or -1
 * (said) when the process must exit 2. */
int nc_pick_gpus(struct ctx *c, int count);
/* Opens the side channel to the other processes; exits 1 or 2 on
 * failure. mine: this process's first rank info (where rank 0 listens). */
void nc_open_channel(struct ctx *c, const struct nc_rankinfo *mine);

/* gpu_preflight.c */
/* Pre-flight: gathers every rank's info, checks interfaces, versions and
 * reachability. Returns false when NCCL must not start. */
bool nc_gpu_preflight(struct ctx *c);

/* gpu_selftest.c */
/* Each rank's GPU measured alone (device copy, host-to-device and
 * device-to-host) and read through NVML (PCIe link, NVLink); rank 0
 * gathers them into c->run, with the bound and the slow GPU's finding.
 * Exits like a failed step when the side channel fails. */
void nc_gpu_selftest(struct ctx *c);

/* gpu_pairs.c */
/* --pairs: send/recv bandwidth of every pair of ranks, n-1 rounds of
 * disjoint pairs; rank 0 gets the matrix and the slow pairs' finding. */
void nc_pairs_run(struct ctx *c);

/* gpu_nccl.c */
/* Creates the communicators and the buffers; exits on failure. */
void nc_start_nccl(struct ctx *c);

/* gpu_teardown.c */
/* The end of every run that got past the launcher: communicators
 * destroyed (aborted where a peer is known stopped, or peer_gone says
 * so), MPI_Finalize (skipped then: it would wait for that peer), the
 * heartbeats' goodbye, and _exit(rc). The verdict is out: the watchdog
 * bounds all of it, and on expiry warns and still exits rc. */
void nc_teardown(struct ctx *c, int rc, bool peer_gone)
	__attribute__((noreturn));

/* gpu_nccllog.c */
/* Sends NCCL's debug output to a file of ours unless the user chose. */
void nc_debug_env(struct ctx *c);
/* Reads that file and merges every process's transports into c->run.
 * Returns 0, or -1 (c->sc.why) when a process did not take part. */
int nc_gather_transports(struct ctx *c);

#endif
