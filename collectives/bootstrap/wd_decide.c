/* The watchdog's decision (wd_decide.h): pure, fed the time. */
#include "bootstrap/wd_decide.h"

#include <stdio.h>
#include <string.h>

static const char *const phase_names[NC_WD_NPHASES] = {
	"start", "launcher wire-up", "bootstrap", "pre-flight",
	"GPU self-test", "communicator init", "sweep", "pairs",
	"result exchange", "verdict", "teardown", "done",
};

/* Names for messages and the heartbeat's phase field. */
const char *nc_wd_phase_name(int phase)
{
	if (phase < 0 || phase >= NC_WD_NPHASES)
		return "unknown phase";
	return phase_names[phase];
}

/* Lost, or alive and silent too long; a peer never heard is not named:
 * nothing says it ever ran. */
static bool nc_wd_stopped(const struct nc_wd_peer *p, long long now)
{
	if (p->rank < 0)
		return false;
	if (p->state == NC_WD_LOST)
		return true;
	return p->state == NC_WD_ALIVE && now - p->last_us >= NC_WD_SILENT_US;
}

/* "rank 1 on gpu-b" plus what its heartbeat said of it. */
static size_t name_one(const struct nc_wd_peer *p, long long now, char *buf,
                       size_t len)
{
	char id[64] = "", at[48] = "";
	int n;

	if (p->pid > 0 && p->gpu >= 0)
		snprintf(id, sizeof(id), " (pid %d, GPU %d)", p->pid, p->gpu);
	else if (p->pid > 0)
		snprintf(id, sizeof(id), " (pid %d)", p->pid);
	if (p->phase == NC_WD_SWEEP || p->phase == NC_WD_PAIRS)
		snprintf(at, sizeof(at), ", step %u", p->step);
	if (p->state == NC_WD_LOST)
		n = snprintf(buf, len, "rank %d%s%s was lost (its connection "
			     "closed %.1f s ago) during %s%s%s", p->rank,
			     p->host[0] ? " on " : "", p->host,
			     (double)(now - p->last_us) / 1e6,
			     nc_wd_phase_name(p->phase), at, id);
	else
		n = snprintf(buf, len, "rank %d%s%s stopped responding %.1f s "
			     "ago during %s%s%s", p->rank,
			     p->host[0] ? " on " : "", p->host,
			     (double)(now - p->last_us) / 1e6,
			     nc_wd_phase_name(p->phase), at, id);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* The stopped peers, the longest silent first is not needed: rank order
 * reads best in a merged log. */
int nc_wd_name_stopped(const struct nc_wd_view *v, long long now, char *buf,
		       size_t len)
{
	size_t off = 0;
	int ns = 0;

	if (len > 0)
		buf[0] = '\0';
	for (int i = 0; i < v->npeers; i++) {
		const struct nc_wd_peer *p = &v->peers[i];

		if (p->rank == v->rank || !nc_wd_stopped(p, now))
			continue;
		if (ns < 4 && off + 2 < len) {
			if (ns > 0) {
				snprintf(buf + off, len - off, ", ");
				off += 2;
			}
			off += name_one(p, now, buf + off, len - off);
		}
		ns++;
	}
	if (ns > 4 && off < len)
		snprintf(buf + off, len - off, " and %d more", ns - 4);
	return ns;
}

/* Lost before silent, then the longest silent. */
int nc_wd_worst(const struct nc_wd_peer *peers, int n, int self,
		long long now)
{
	int best = -1;

	for (int i = 0; i < n; i++) {
		const struct nc_wd_peer *p = &peers[i];

		if (p->rank == self || !nc_wd_stopped(p, now))
			continue;
		if (best < 0 ||
		    (p->state == NC_WD_LOST && peers[best].state != NC_WD_LOST) ||
		    (p->state == peers[best].state &&
		     p->last_us < peers[best].last_us))
			best = i;
	}
	return best;
}

/* Why no rank is named, when none is. */
static void unnamed(const struct nc_wd_view *v, char *buf, size_t len)
{
	int heard = 0;

	for (int i = 0; i < v->npeers; i++)
		if (v->peers[i].rank >= 0 && v->peers[i].rank != v->rank &&
		    v->peers[i].state != NC_WD_UNHEARD)
			heard++;
	if (v->phase <= NC_WD_WIREUP)
		snprintf(buf, len, "no rank can be named before the launcher's "
			 "wire-up ends (ncclcheck's side channel starts after "
			 "it); the launcher reported %s; look for a process of "
			 "this job that is stopped (state T), gone, or never "
			 "started on its node",
			 v->launcher[0] ? v->launcher : "nothing");
	else if (v->nprocs <= 1)
		snprintf(buf, len, "this is the only process: it is the one "
			 "blocked");
	else if (!v->net || heard == 0)
		snprintf(buf, len, "no other rank's heartbeat was heard, so "
			 "none can be named (%d processes, launched by %s)",
			 v->nprocs, v->launcher[0] ? v->launcher : "unknown");
	else if (v->rank != 0)
		snprintf(buf, len, "rank 0 still answers and names no stopped "
			 "rank: this process is the one blocked");
	else
		snprintf(buf, len, "every other rank still answers: this "
			 "process is the one blocked");
}

/* Fires past the deadline only; the message names the phase and the
 * step, then who stopped (or why nobody can be named). */
void nc_wd_decide(const struct nc_wd_view *v, long long now,
		  struct nc_wd_out *out)
{
	char who[640], lim[32];
	const char *ph = nc_wd_phase_name(v->phase);
	bool sep = v->what[0] != '\0';

	memset(out, 0, sizeof(*out));
	if (!v->armed || now <= v->deadline_us)
		return;
	out->act = NC_WD_FIRE;
	snprintf(lim, sizeof(lim), "%g s", (double)v->limit_us / 1e6);
	if (v->self_gap_us >= NC_WD_SILENT_US)
		/* what it heard is as old as its own stop: judge nobody */
		snprintf(who, sizeof(who), "this process itself did not run "
			 "for %.1f s (stopped with SIGSTOP, or its node "
			 "suspended), so who else stopped cannot be told",
			 (double)v->self_gap_us / 1e6);
	else if (nc_wd_name_stopped(v, now, who, sizeof(who)) == 0)
		unnamed(v, who, sizeof(who));
	if (v->phase == NC_WD_TEARDOWN) {
		out->status = v->verdict_rc;
		snprintf(out->msg, sizeof(out->msg), "warning: teardown%s%s did "
			 "not finish within %s after the verdict; %s; the "
			 "verdict above stands (exit status %d)",
			 sep ? ": " : "", v->what, lim, who, v->verdict_rc);
		return;
	}
	out->status = 1;
	snprintf(out->msg, sizeof(out->msg), "collective-timeout: %s%s%s did "
		 "not return within %s (blocked inside CUDA, NCCL or MPI); "
		 "%s; exiting", ph, sep ? ": " : "", v->what, lim, who);
}
