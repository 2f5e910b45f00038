/* ncclcheck's messages and exits on the GPU side: the rank-prefixed line,
 * the bounded abort of NCCL, the failed-step exit that tells every rank,
 * and the finish. The lowest of the harness files: every other one calls
 * down to it, it calls none of them. */
#include "results/finish.h"
#include "gpu/harness.h"
#include "results/say.h"
#include "bootstrap/watchdog.h"
#include "doc/finding.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"

/* Every line carries the rank and host, so the merged output of many
 * ranks still says who spoke. */
void nc_say(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nc_vsay_to(stderr, c->prefix, fmt, ap);
	va_end(ap);
}

/* One way out for a good end and a failed step alike (finish.h). */
int nc_finish(struct ctx *c, bool ran)
{
	return nc_run_finish(&c->run, c->l.rank, ran, c->prefix);
}

/* ncclCommAbort can itself hang on a dead peer: the watchdog bounds it
 * with a deadline of its own (at most the caller's), and afterwards gets
 * back whatever the caller had armed (a failed step's report stays
 * guarded). */
static void nc_abort_comms(struct ctx *c)
{
	struct nc_wd_state outer;
	long long dl = mono_now_us() + 10000000;

	if (!c->comms_ready)
		return;
	nc_wd_save(&outer);
	/* never later than the caller's own deadline: the margin the man
	 * page states holds */
	if (outer.armed && outer.deadline_us > mono_now_us() &&
	    outer.deadline_us < dl)
		dl = outer.deadline_us;
	nc_wd_arm(dl, "ncclCommAbort");
	for (int i = 0; i < c->ndev; i++)
		if (c->d[i].comm != NULL)
			ncclCommAbort(c->d[i].comm);
	c->comms_ready = false;
	nc_wd_restore(&outer);
}

/* A step failed (timeout, lost peer, NCCL or CUDA error): names the step,
 * who stopped responding and who had arrived, tells the others, aborts
 * NCCL, writes what rank 0 knows, and exits 1 (never returns). A timeout
 * or a lost rank is the finding collective-timeout; an error NCCL or CUDA
 * returned is recorded as an error of the run ("nccl-error"). */
void nc_fail_step(struct ctx *c, const char *what, const char *reason,
		  bool timed_out)
{
	char table[768], silent[400], msg[1400], hb[640];
	long long dl = mono_now_us() + GRACE_US;
	bool peer = reason == c->sc.why || c->sc.from_peer;
	bool timeout = timed_out || peer;
	const char *label = timeout
				    ? finding_name(FINDING_COLLECTIVE_TIMEOUT)
				    : "nccl-error";

	nc_wd_arm(dl + 5000000, "reporting a failed step");
	if (c->sc.from_peer) {
		/* another rank stopped us; its message names step and table */
		snprintf(msg, sizeof(msg), "%s", reason);
	} else {
		sc_describe(&c->sc, c->step, dl, table, sizeof(table), silent,
			    sizeof(silent));
		if (silent[0] != '\0')
			snprintf(msg, sizeof(msg), "%s during %s (%s); %s",
				 silent, what, reason, table);
		else
			snprintf(msg, sizeof(msg), "%s: %s; %s", what, reason,
				 table);
		/* the heartbeats add pid and GPU, and see a rank that the
		 * side channel could not (its main thread blocked) */
		if (nc_wd_stopped_peers(hb, sizeof(hb)) > 0)
			snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
				 "; heartbeats: %s", hb);
		sc_abort(&c->sc, msg);
	}
	nc_say(c, "%s: %s", label, msg);
	nc_abort_comms(c);
	if (c->l.rank == 0) {
		/* let the others fetch the arrival table before going */
		long long until = mono_now_us() + 1500000;

		while (mono_now_us() < until && c->sc.nprocs > 1) {
			sc_poll(&c->sc);
			usleep(20000);
		}
		if (timeout)
			nc_run_finding(&c->run, FINDING_COLLECTIVE_TIMEOUT, -1,
				       "%s", msg);
		else
			nc_run_error(&c->run, "nccl", "%s", msg);
		nc_finish(c, false);
	}
	fflush(stdout);
	fflush(stderr);
	_exit(1);
}
