/* Watchdog thread (watchdog.h). Its state is one struct guarded by a
 * mutex; the heartbeat channel belongs to the thread alone (the main
 * thread only hands it over). A process runs one watchdog; its tests
 * run it in child processes. */
#include "bootstrap/watchdog.h"
#include "bootstrap/bootstrap.h"
#include "bootstrap/wd_decide.h"
#include "bootstrap/wd_net.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"

#define LOOP_US 100000

static struct {
	pthread_mutex_t mu;
	pthread_t th;
	bool running, stop;
	struct nc_wd_view v; /* peers: none here, the thread's own */
	long long idle_us;   /* -T plus grace; 0 none */
	unsigned step;
	char prefix[160];
	/* the handover of the heartbeat channel */
	int net_kind;        /* 0 none, 1 hub, 2 client */
	int net_fd, net_nprocs;
	bool bye, bye_sent;
	char stopped[640];   /* the thread's last view of stopped peers */
	int nstopped;
} wd = { .mu = PTHREAD_MUTEX_INITIALIZER };

/* The thread's own: the channel, touched by nobody else. */
static struct wn net;
static bool net_up;

/* Takes a channel the main thread handed over (under the lock). */
static void take_net(long long now)
{
	int rc = -1;

	if (wd.net_kind == 0 || net_up)
		return;
	if (wd.net_kind == 1)
		rc = wn_open_hub(&net, wd.net_fd, wd.net_nprocs, now);
	else
		rc = wn_open_client(&net, wd.net_fd, wd.v.rank, wd.v.nprocs,
				    now);
	if (rc == 0)
		net_up = true;
	else if (wd.net_fd >= 0)
		close(wd.net_fd);
	wd.net_kind = 0;
}

/* Every 100 ms: the heartbeats both ways, then the decision (wd_decide.h)
 * over a copy of the state; past the deadline, the named message and
 * _exit, without atexit handlers that could block. */
static void *loop(void *arg)
{
	long long last = mono_now_us();

	(void)arg;
	for (;;) {
		struct nc_wd_view v;
		struct nc_wd_peer me;
		struct nc_wd_out out;
		char msg[1600];
		long long now;
		bool bye;

		usleep(LOOP_US);
		now = mono_now_us();
		pthread_mutex_lock(&wd.mu);
		if (wd.stop) {
			pthread_mutex_unlock(&wd.mu);
			return NULL;
		}
		take_net(now);
		v = wd.v;
		bye = wd.bye;
		memset(&me, 0, sizeof(me));
		me.rank = v.rank;
		me.pid = v.pid;
		me.gpu = v.gpu;
		me.phase = bye ? NC_WD_DONE : v.phase;
		me.step = wd.step;
		me.state = NC_WD_ALIVE;
		me.last_us = now;
		snprintf(me.host, sizeof(me.host), "%s", v.host);
		pthread_mutex_unlock(&wd.mu);

		if (net_up)
			wn_service(&net, &me, now);
		v.net = net_up;
		v.self_gap_us = now - last - LOOP_US;
		last = now;
		v.peers = net_up ? net.peers : NULL;
		v.npeers = net_up ? net.npeers : 0;
		nc_wd_decide(&v, now, &out);

		pthread_mutex_lock(&wd.mu);
		if (bye)
			wd.bye_sent = true;
		wd.nstopped = nc_wd_name_stopped(&v, now, wd.stopped,
						 sizeof(wd.stopped));
		snprintf(msg, sizeof(msg), "%s: %s\n", wd.prefix, out.msg);
		pthread_mutex_unlock(&wd.mu);
		if (out.act == NC_WD_FIRE) {
			ssize_t n = write(2, msg, strlen(msg));

			(void)n;
			_exit(out.status);
		}
	}
}

/* Starts the thread once; later calls only reset prefix and arming. */
int nc_wd_start(const char *prefix)
{
	pthread_mutex_lock(&wd.mu);
	snprintf(wd.prefix, sizeof(wd.prefix), "%s", prefix);
	wd.stop = false;
	wd.v.armed = false;
	wd.v.pid = (int)getpid();
	wd.v.gpu = -1;
	if (!wd.running && pthread_create(&wd.th, NULL, loop, NULL) == 0)
		wd.running = true;
	pthread_mutex_unlock(&wd.mu);
	return wd.running ? 0 : -1;
}

/* From here on every gap has a deadline. */
void nc_wd_limit(long long limit_us, long long grace_us)
{
	pthread_mutex_lock(&wd.mu);
	wd.v.limit_us = limit_us;
	wd.idle_us = limit_us > 0 ? limit_us + grace_us : 0;
	pthread_mutex_unlock(&wd.mu);
}

/* Identity for heartbeats and messages. */
void nc_wd_self(int rank, int nprocs, int gpu, const char *host,
		const char *launcher)
{
	pthread_mutex_lock(&wd.mu);
	wd.v.rank = rank;
	wd.v.nprocs = nprocs;
	wd.v.gpu = gpu;
	snprintf(wd.v.host, sizeof(wd.v.host), "%s", host ? host : "");
	if (launcher != NULL)
		snprintf(wd.v.launcher, sizeof(wd.v.launcher), "%s", launcher);
	pthread_mutex_unlock(&wd.mu);
}

/* Under the lock: -T plus grace from now, or unarmed without a limit. */
static void rearm_idle(const char *what)
{
	wd.v.armed = wd.idle_us > 0;
	wd.v.deadline_us = mono_now_us() + wd.idle_us;
	snprintf(wd.v.what, sizeof(wd.v.what), "%s", what);
}

/* A new phase starts its own clock. */
void nc_wd_phase(int phase, const char *what)
{
	pthread_mutex_lock(&wd.mu);
	wd.v.phase = phase;
	rearm_idle(what != NULL ? what : "");
	pthread_mutex_unlock(&wd.mu);
}

/* For the heartbeats. */
void nc_wd_step(unsigned step)
{
	pthread_mutex_lock(&wd.mu);
	wd.step = step;
	pthread_mutex_unlock(&wd.mu);
}

/* Replaces the deadline and the description. */
void nc_wd_arm(long long deadline_us, const char *what)
{
	pthread_mutex_lock(&wd.mu);
	wd.v.deadline_us = deadline_us;
	snprintf(wd.v.what, sizeof(wd.v.what), "%s", what);
	wd.v.armed = true;
	pthread_mutex_unlock(&wd.mu);
}

/* Between steps: the phase's own limit from now. */
void nc_wd_disarm(void)
{
	pthread_mutex_lock(&wd.mu);
	rearm_idle("");
	pthread_mutex_unlock(&wd.mu);
}

/* After the verdict: a warning and the verdict's status on expiry. */
void nc_wd_teardown(int rc, const char *what)
{
	pthread_mutex_lock(&wd.mu);
	wd.v.phase = NC_WD_TEARDOWN;
	wd.v.verdict_rc = rc;
	rearm_idle(what != NULL ? what : "");
	pthread_mutex_unlock(&wd.mu);
}

/* The thread takes the socket on its next turn. */
static int hand(int kind, int fd, int nprocs)
{
	pthread_mutex_lock(&wd.mu);
	wd.net_kind = kind;
	wd.net_fd = fd;
	wd.net_nprocs = nprocs;
	pthread_mutex_unlock(&wd.mu);
	return 0;
}

/* Process 0's listener for the heartbeats. */
int nc_wd_net_hub(int listen_fd, int nprocs)
{
	return listen_fd < 0 ? -1 : hand(1, listen_fd, nprocs);
}

/* Another process's connection to process 0's listener. */
int nc_wd_net_client(int fd)
{
	return fd < 0 ? -1 : hand(2, fd, 0);
}

/* The thread's last view, at most 100 ms old. */
int nc_wd_stopped_peers(char *buf, size_t len)
{
	int n;

	pthread_mutex_lock(&wd.mu);
	snprintf(buf, len, "%s", wd.stopped);
	n = wd.nstopped;
	pthread_mutex_unlock(&wd.mu);
	return n;
}

/* Asks the thread for a "done" heartbeat and waits for it (bounded). */
void nc_wd_done(void)
{
	pthread_mutex_lock(&wd.mu);
	wd.bye = true;
	wd.bye_sent = !wd.running || (!net_up && wd.net_kind == 0);
	pthread_mutex_unlock(&wd.mu);
	for (int i = 0; i < 30; i++) {
		bool sent;

		pthread_mutex_lock(&wd.mu);
		sent = wd.bye_sent;
		pthread_mutex_unlock(&wd.mu);
		if (sent)
			return;
		usleep(10000);
	}
}

/* A copy under the lock. */
void nc_wd_save(struct nc_wd_state *s)
{
	pthread_mutex_lock(&wd.mu);
	s->armed = wd.v.armed;
	s->deadline_us = wd.v.deadline_us;
	snprintf(s->what, sizeof(s->what), "%s", wd.v.what);
	pthread_mutex_unlock(&wd.mu);
}

/* Puts a saved state back, armed or not. */
void nc_wd_restore(const struct nc_wd_state *s)
{
	pthread_mutex_lock(&wd.mu);
	wd.v.armed = s->armed != 0;
	wd.v.deadline_us = s->deadline_us;
	snprintf(wd.v.what, sizeof(wd.v.what), "%s", s->what);
	pthread_mutex_unlock(&wd.mu);
}

/* Used once the rank and host are known. */
void nc_wd_prefix(const char *prefix)
{
	pthread_mutex_lock(&wd.mu);
	snprintf(wd.prefix, sizeof(wd.prefix), "%s", prefix);
	pthread_mutex_unlock(&wd.mu);
}
