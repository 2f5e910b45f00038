/* The last-resort watchdog: a thread that ends the process with a named
 * error when the main thread stays blocked (inside CUDA, NCCL or MPI) past
 * its deadline. Armed around every step; disarmed between. */
#ifndef NC_WATCHDOG_H
#define NC_WATCHDOG_H

/* Starts the thread; prefix goes before every message ("ncclcheck: rank 3
 * on gpu-b"). Returns 0, or -1 with errno. */
int nc_wd_start(const char *prefix);
/* Sets the deadline (sc_now_us clock) and what is being waited for. */
void nc_wd_arm(long long deadline_us, const char *what);
void nc_wd_disarm(void);
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
/* Stops the thread (tests; normal exits need not). */
void nc_wd_stop(void);

#endif
