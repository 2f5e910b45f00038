/* The watchdog: a thread from the first instruction to the last that ends
 * the process with a named error when the main thread stays blocked
 * (inside CUDA, NCCL or MPI, or waiting on a stopped peer) past its
 * deadline. It always has one: the step's (nc_wd_arm), or, between steps
 * and at each new phase, -T plus a grace from then (nc_wd_limit). It
 * knows the phase, and through its own heartbeat channel (wd_net.h) which
 * process stopped responding, with its host, pid and GPU. After the
 * verdict (nc_wd_teardown) its expiry is a warning and the verdict's exit
 * status. The decision itself is wd_decide.h's pure function. */
#ifndef NC_WATCHDOG_H
#define NC_WATCHDOG_H

#include <stdbool.h>
#include <stddef.h>


/* Starts the thread; prefix goes before every message ("ncclcheck: rank 3
 * on gpu-b"). Returns 0, or -1 with errno. */
int nc_wd_start(const char *prefix);
/* -T and the grace after it: from now on the watchdog is never unarmed
 * (0: nc_wd_disarm unarms, as the unit tests want). */
void nc_wd_limit(long long limit_us, long long grace_us);
/* Who this process is, for its heartbeats and messages, and what the
 * launcher said (named while no rank can be). */
void nc_wd_self(int rank, int nprocs, int gpu, const char *host,
		const char *launcher);
/* A new phase (wd_decide.h) with a fresh deadline of -T plus grace. */
void nc_wd_phase(int phase, const char *what);
/* The step number the heartbeats carry. */
void nc_wd_step(unsigned step);
/* Sets the deadline (mono_now_us clock) and what is being waited for. */
void nc_wd_arm(long long deadline_us, const char *what);
/* Ends a step's deadline: -T plus grace from now (nothing before
 * nc_wd_limit). */
void nc_wd_disarm(void);
/* The verdict is out with exit status rc: from now on the watchdog warns
 * and exits rc. */
void nc_wd_teardown(int rc, const char *what);
/* Hands the heartbeat channel to the thread: process 0 its listener,
 * another process its connection to process 0. Returns 0, or -1. */
int nc_wd_net_hub(int listen_fd, int nprocs);
int nc_wd_net_client(int fd);
/* The processes the heartbeats show stopped (lost, or silent 3 s), named
 * with host, pid and GPU into buf. Returns how many (0: buf ""). */
int nc_wd_stopped_peers(char *buf, size_t len);
/* Tells the others this process ends normally (bounded, 300 ms). */
void nc_wd_done(void);
/* What the watchdog is armed with, so a nested bounded call (the abort
 * inside a failed step) can arm its own deadline and put the outer one
 * back. */
struct nc_wd_state {
	int armed;
	long long deadline_us;
	char what[256];
};
void nc_wd_save(struct nc_wd_state *s);
void nc_wd_restore(const struct nc_wd_state *s);
/* Changes the message prefix (once the host and rank are known). */
void nc_wd_prefix(const char *prefix);

#endif
