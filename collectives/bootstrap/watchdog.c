/* Watchdog thread (watchdog.h). Its state is one struct guarded by a
 * mutex; nc_wd_stop resets it. */
#include "bootstrap/watchdog.h"
#include "bootstrap/bootstrap.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct {
	pthread_mutex_t mu;
	pthread_t th;
	bool running, stop, armed;
	long long deadline_us;
	char what[256];
	char prefix[128];
} wd = { .mu = PTHREAD_MUTEX_INITIALIZER };

/* Checks the deadline every 100 ms; past it, writes the named error and
 * _exit(1)s without running atexit handlers that could block. */
static void *loop(void *arg)
{
	(void)arg;
	for (;;) {
		char msg[512];
		bool fire;

		usleep(100000);
		pthread_mutex_lock(&wd.mu);
		if (wd.stop) {
			pthread_mutex_unlock(&wd.mu);
			return NULL;
		}
		fire = wd.armed && sc_now_us() > wd.deadline_us;
		if (fire)
			snprintf(msg, sizeof(msg), "%s: collective-timeout: %s "
				 "did not return in time (blocked inside "
				 "CUDA, NCCL or MPI); exiting\n", wd.prefix,
				 wd.what);
		pthread_mutex_unlock(&wd.mu);
		if (fire) {
			ssize_t n = write(2, msg, strlen(msg));

			(void)n;
			_exit(1);
		}
	}
}

/* Starts the thread once; later calls only reset prefix and arming. */
int nc_wd_start(const char *prefix)
{
	pthread_mutex_lock(&wd.mu);
	snprintf(wd.prefix, sizeof(wd.prefix), "%s", prefix);
	wd.stop = false;
	wd.armed = false;
	if (!wd.running && pthread_create(&wd.th, NULL, loop, NULL) == 0)
		wd.running = true;
	pthread_mutex_unlock(&wd.mu);
	return wd.running ? 0 : -1;
}

/* Replaces the deadline and the description. */
void nc_wd_arm(long long deadline_us, const char *what)
{
	pthread_mutex_lock(&wd.mu);
	wd.deadline_us = deadline_us;
	snprintf(wd.what, sizeof(wd.what), "%s", what);
	wd.armed = true;
	pthread_mutex_unlock(&wd.mu);
}

/* Between steps the watchdog does nothing. */
void nc_wd_disarm(void)
{
	pthread_mutex_lock(&wd.mu);
	wd.armed = false;
	pthread_mutex_unlock(&wd.mu);
}

/* A copy under the lock. */
void nc_wd_save(struct nc_wd_state *s)
{
	pthread_mutex_lock(&wd.mu);
	s->armed = wd.armed;
	s->deadline_us = wd.deadline_us;
	snprintf(s->what, sizeof(s->what), "%s", wd.what);
	pthread_mutex_unlock(&wd.mu);
}

/* Puts a saved state back, armed or not. */
void nc_wd_restore(const struct nc_wd_state *s)
{
	pthread_mutex_lock(&wd.mu);
	wd.armed = s->armed != 0;
	wd.deadline_us = s->deadline_us;
	snprintf(wd.what, sizeof(wd.what), "%s", s->what);
	pthread_mutex_unlock(&wd.mu);
}

/* Used once the rank and host are known. */
void nc_wd_prefix(const char *prefix)
{
	pthread_mutex_lock(&wd.mu);
	snprintf(wd.prefix, sizeof(wd.prefix), "%s", prefix);
	pthread_mutex_unlock(&wd.mu);
}

/* Joins the thread; state is ready for another start. */
void nc_wd_stop(void)
{
	bool join;

	pthread_mutex_lock(&wd.mu);
	wd.stop = true;
	join = wd.running;
	wd.running = false;
	pthread_mutex_unlock(&wd.mu);
	if (join)
		pthread_join(wd.th, NULL);
}
