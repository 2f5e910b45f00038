/* netprobe explain --job: the hung job's state from NCCL's RAS service
 * (NCCL 2.24+), and the nodes of the ranks it names as peers to probe. */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "explain/explain_int.h"
#include "kernel/linkfacts.h"
#include "probe/ras.h"

#define RAS_CONNECT_MS 1500

/* True when node is one of this host's own addresses: RAS names nodes by
 * address, and this node needs no probe toward itself. */
bool explain_is_local_addr(const char *node)
{
	struct ifaddrs *ifa, *i;
	char buf[INET6_ADDRSTRLEN];
	bool local = false;

	if (getifaddrs(&ifa) < 0)
		return false;
	for (i = ifa; i && !local; i = i->ifa_next) {
		const void *a;

		if (i->ifa_addr == NULL)
			continue;
		if (i->ifa_addr->sa_family == AF_INET)
			a = &((struct sockaddr_in *)(void *)i->ifa_addr)
				     ->sin_addr;
		else if (i->ifa_addr->sa_family == AF_INET6)
			a = &((struct sockaddr_in6 *)(void *)i->ifa_addr)
				     ->sin6_addr;
		else
			continue;
		if (inet_ntop(i->ifa_addr->sa_family, a, buf, sizeof(buf)) &&
		    strcmp(buf, node) == 0)
			local = true;
	}
	freeifaddrs(ifa);
	return local;
}

/* What RAS answered made UTF-8: a node name, a version, or the bytes a
 * port that is no RAS answered with (quoted in ras_why) go into the
 * document, which jansson refuses when one is not UTF-8. */
static void ras_utf8(struct explain_run *r)
{
	struct ras_state *st = &r->ras;

	explain_utf8(r->ras_addr, sizeof(r->ras_addr));
	explain_utf8(r->ras_why, sizeof(r->ras_why));
	/* the monitor's refusal quotes the service's bytes */
	explain_utf8(r->ras_monitor, sizeof(r->ras_monitor));
	explain_utf8(st->nccl_version, sizeof(st->nccl_version));
	for (size_t i = 0; i < st->nprocs && i < RAS_MAX_PROCS; i++) {
		struct ras_proc *p = &st->procs[i];

		explain_utf8(p->node, sizeof(p->node));
		explain_utf8(p->gpu, sizeof(p->gpu));
		explain_utf8(p->comm, sizeof(p->comm));
	}
	for (size_t i = 0; i < st->ncomms && i < RAS_MAX_COMMS; i++) {
		explain_utf8(st->comms[i].id, sizeof(st->comms[i].id));
		explain_utf8(st->comms[i].what, sizeof(st->comms[i].what));
	}
}

/* Adds node to the nodes probed as peers, unless it is this host. */
static void add_job_node(struct explain_run *r, const char *node)
{
	char self[256];
	bool dup;

	if (gethostname(self, sizeof(self)) < 0)
		self[0] = '\0';
	self[sizeof(self) - 1] = '\0';
	dup = node[0] == '\0' || strcmp(node, self) == 0 ||
	      strcmp(node, "localhost") == 0 || strcmp(node, "unknown") == 0 ||
	      explain_is_local_addr(node);
	for (int j = 0; j < r->njob_nodes && !dup; j++)
		dup = strcmp(r->job_nodes[j], node) == 0;
	if (!dup && r->njob_nodes < 4)
		snprintf(r->job_nodes[r->njob_nodes++],
			 sizeof(r->job_nodes[0]), "%s", node);
}

/* True when node (as RAS names it: an address) is this host. */
static bool node_is_here(const char *node)
{
	char self[256];

	if (gethostname(self, sizeof(self)) < 0)
		self[0] = '\0';
	self[sizeof(self) - 1] = '\0';
	return node[0] != '\0' && (strcmp(node, self) == 0 ||
				   explain_is_local_addr(node));
}

/* One question to the service, its answer parsed into st. */
static int ras_look(struct explain_run *r, const char *host,
		    const char *port, long long deadline,
		    struct ras_state *st)
{
	struct ras_ask a = {RAS_CONNECT_MS, r->o.ras_timeout_s, true,
			    deadline};
	char *answer = NULL;
	bool json = false;
	int rc;

	if (ras_ask_status(host, port, &a, &answer, &json, r->ras_why,
			   sizeof(r->ras_why)) < 0)
		return -1;
	rc = json && ras_answer_is_json(answer) ? ras_parse_json(answer, st)
						: ras_parse(answer, st);
	if (rc < 0)
		snprintf(r->ras_why, sizeof(r->ras_why), "%s answered, but not "
			 "with a RAS status", r->ras_addr);
	else
		r->ras_json = st->json;
	free(answer);
	return rc;
}

/* The suspect's node name when its host is this one (its links are
 * then read here), else NULL. */
static const char *suspect_here(const struct explain_run *r)
{
	for (size_t i = 0; i < r->ras.nprocs; i++)
		if (node_is_here(r->ras.procs[i].node))
			return r->ras.procs[i].node;
	for (size_t i = 0; i < r->nstragglers; i++)
		if (straggle_suspect(r->stragglers[i].kind) &&
		    node_is_here(r->stragglers[i].node))
			return r->stragglers[i].node;
	return NULL;
}

/* The host's link changes into the timeline, for this host's suspects. */
static void host_changes(struct explain_run *r, const struct lf_change *c,
			 size_t n, const char *host)
{
	for (size_t i = 0; i < n; i++) {
		jv_event(&r->jv, c[i].at_ms, NULL, "host", host, "%s %s",
			 c[i].subject, c[i].text);
		r->nlink_changes++;
	}
}

/* The monitor stream's events (peers dead or new) into the timeline. */
static void monitor_events(struct explain_run *r, char *buf, size_t cap)
{
	struct ras_event ev[32];
	size_t used, n = ras_parse_events(buf, ev, 32, &used);

	for (size_t i = 0; i < n; i++)
		jv_event(&r->jv, 0, ev[i].when, "ras", ev[i].node,
			 "RAS monitor: %s (process %ld)%s%s", ev[i].event,
			 ev[i].pid, ev[i].details[0] ? " " : "",
			 ev[i].details);
	/* what was read is dropped; a partial event stays, unless it
	 * fills half the room and still does not parse: then it is junk */
	memmove(buf, buf + used, strlen(buf + used) + 1);
	if (strlen(buf) > cap / 2)
		buf[0] = '\0';
}

static long long wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --watch: the window between the two looks, its MONITOR stream (NCCL
 * 2.29+) and, when a suspect is on this host, its links every 200 ms. */
static void watch_window(struct explain_run *r, const char *host,
			 const char *port, long long deadline)
{
	struct ras_ask a = {RAS_CONNECT_MS, r->o.ras_timeout_s, true,
			    deadline};
	struct linkfacts lf[2];
	struct lf_change ch[32];
	struct sysroot sr;
	char mon[8192], why[256];
	const char *node = suspect_here(r);
	bool json, here = node != NULL && !r->o.no_probe;
	long long end = ras_now_ms() + (long long)r->o.watch_s * 1000;
	int fd, cur = 0;

	if (end > deadline - 15000)
		end = deadline - 15000; /* room for the second look */
	/* the links' first look comes before the stream opens: a change
	 * from then on is seen with its time */
	if (here && (sysroot_init(&sr, r->o.sysroot) < 0 ||
		     linkfacts_read(&lf[0], &sr, wall_ms()) < 0))
		here = false;
	fd = ras_monitor_open(host, port, &a, &json, mon, sizeof(mon), why,
			      sizeof(why));
	snprintf(r->ras_monitor, sizeof(r->ras_monitor), "%s",
		 fd >= 0 ? (json ? "monitor stream (JSON)"
				 : "monitor stream (text)")
			 : "polled: the service has no MONITOR (NCCL "
			   "before 2.29)");
	if (fd == -1)
		snprintf(r->ras_monitor, sizeof(r->ras_monitor),
			 "polled: %.140s", why);
	for (int i = 0; i < 600 && ras_now_ms() < end; i++) {
		if (fd >= 0) {
			if (ras_monitor_read(fd, mon, sizeof(mon), 200) != 0) {
				close(fd);
				fd = -1;
			}
			monitor_events(r, mon, sizeof(mon));
		} else {
			struct timespec t = {0, 200 * 1000000L};

			nanosleep(&t, NULL);
		}
		if (here && linkfacts_read(&lf[!cur], &sr, wall_ms()) == 0) {
			host_changes(r, ch, linkfacts_diff(&lf[cur], &lf[!cur],
							   ch, 32),
				     node);
			cur = !cur;
		}
	}
	if (fd >= 0)
		close(fd);
}

/* The suspects' host, read once (no --watch): what one look shows. */
static void host_once(struct explain_run *r)
{
	struct linkfacts lf;
	struct lf_change ch[32];
	struct sysroot sr;
	const char *node = suspect_here(r);

	if (node == NULL || r->o.no_probe ||
	    sysroot_init(&sr, r->o.sysroot) < 0 ||
	    linkfacts_read(&lf, &sr, wall_ms()) < 0)
		return;
	host_changes(r, ch, linkfacts_now(&lf, ch, 32), node);
}

/* Asks the RAS service (twice with --watch) and reads the answers into
 * r->ras (the last) and r->ras_before (the first). */
static int ras_ask(struct explain_run *r, long long deadline)
{
	const char *spec = r->o.ras ? r->o.ras : getenv("NCCL_RAS_ADDR");
	char host[96], port[16];

	r->ras_tried = true;
	if (ras_addr_split(spec, host, sizeof(host), port, sizeof(port)) < 0) {
		snprintf(r->ras_why, sizeof(r->ras_why),
			 "invalid RAS address '%s'", spec);
		return -1;
	}
	snprintf(r->ras_addr, sizeof(r->ras_addr), "%s:%s", host, port);
	if (ras_look(r, host, port, deadline, &r->ras) < 0)
		return -1;
	r->ras_answered = true;
	r->nstragglers = ras_stragglers(&r->ras, NULL, r->stragglers,
					RAS_MAX_STRAGGLERS);
	if (r->o.watch_s > 0) {
		r->ras_before = r->ras;
		watch_window(r, host, port, deadline);
		if (ras_look(r, host, port, deadline, &r->ras) < 0) {
			/* the second look failed: keep the first */
			r->ras = r->ras_before;
			snprintf(r->ras_monitor + strlen(r->ras_monitor),
				 sizeof(r->ras_monitor) -
					 strlen(r->ras_monitor),
				 "; no second look");
		} else {
			r->nstragglers = ras_stragglers(
				&r->ras, &r->ras_before, r->stragglers,
				RAS_MAX_STRAGGLERS);
		}
	} else {
		host_once(r);
	}
	for (size_t i = 0; i < r->ras.nprocs; i++)
		add_job_node(r, r->ras.procs[i].node);
	for (size_t i = 0; i < r->nstragglers; i++)
		if (straggle_suspect(r->stragglers[i].kind))
			add_job_node(r, r->stragglers[i].node);
	return 0;
}

/* RAS's suspects: the dead and missing ranks, then the stragglers. */
static void ras_suspects(struct explain_run *r)
{
	for (size_t i = 0; i < r->ras.nprocs; i++) {
		const struct ras_proc *p = &r->ras.procs[i];
		struct jv_suspect s = {"ras", p->rank, "", "", p->pid, 0, "",
				       "", false};

		snprintf(s.host, sizeof(s.host), "%s", p->node);
		snprintf(s.gpu, sizeof(s.gpu), "%s", p->gpu);
		s.weight = p->kind == RAS_PROC_DEAD ? JV_W_DEAD : JV_W_MISSING;
		snprintf(s.what, sizeof(s.what), "%s%s%s",
			 p->kind == RAS_PROC_DEAD ? "is considered dead"
						  : "did not answer RAS",
			 p->comm[0] ? " for communicator " : "", p->comm);
		jv_suspect(&r->jv, &s);
	}
	for (size_t i = 0; i < r->nstragglers; i++) {
		const struct ras_straggler *g = &r->stragglers[i];
		struct jv_suspect s = {"ras", g->rank, "", "", g->pid, 0, "",
				       "", false};
		static const int w[] = {JV_W_BEHIND, JV_W_STOPPED, JV_W_SLOW,
					0, 0};

		if (!straggle_suspect(g->kind) || g->rank < 0)
			continue;
		snprintf(s.host, sizeof(s.host), "%s", g->node);
		snprintf(s.gpu, sizeof(s.gpu), "%s", g->gpu);
		s.weight = w[g->kind];
		snprintf(s.what, sizeof(s.what), "%s at %s #%llu of %.40s "
			 "while %d rank(s) launched #%llu%s",
			 g->kind == STRAGGLE_STOPPED ? "stopped" :
			 g->kind == STRAGGLE_SLOW ? "is slow, falling behind" :
			 "is behind", g->op, g->count, g->comm, g->nahead,
			 g->ahead, g->kind == STRAGGLE_STOPPED
			 ? " (its count did not move while watched)" : "");
		jv_suspect(&r->jv, &s);
	}
}

/* What each source told and could not tell. */
static void sources(struct explain_run *r)
{
	char said[256];

	if (!r->ras_answered) {
		jv_source(&r->jv, "ras", false, r->ras_why, "which ranks "
			  "stopped: no RAS answered");
		return;
	}
	snprintf(said, sizeof(said), "NCCL %s answered in %s; %zu "
		 "straggler(s), %d dead, %d not answering%s%s",
		 r->ras.nccl_version, r->ras_json ? "JSON" : "text",
		 r->nstragglers, r->ras.ndead, r->ras.nmissing_procs,
		 r->ras_monitor[0] ? "; " : "", r->ras_monitor);
	jv_source(&r->jv, "ras", true, said,
		  r->o.watch_s > 0 ? "which collective call (sequence, "
		  "sizes, Python frame) a rank is in: torch's Flight "
		  "Recorder tells" : "whether a rank behind stopped or is "
		  "slow: one look (--watch N asks twice)");
	if (suspect_here(r))
		jv_source(&r->jv, "host", true, r->nlink_changes > 0 ?
			  "this host holds a suspect; its links changed" :
			  "this host holds a suspect; its links showed no "
			  "change", r->o.watch_s > 0 ? "changes before the "
			  "window or faster than 200 ms between two looks "
			  "(carrier_changes still counts them)" : "when: "
			  "one look (--watch N times the changes)");
	else
		jv_source(&r->jv, "host", false, "no suspect runs on this "
			  "host", "the suspects' links: run this command "
			  "on their hosts (srun -w NODE, or by hand)");
}

/* The host's changes in one clause: "its eth0 lost its carrier (link
 * down) at 11:02:13.250Z, ...". */
static void host_why(const struct explain_run *r, char *why, size_t len)
{
	size_t n = 0, shown = 0;

	n += (size_t)snprintf(why, len, "its");
	for (size_t i = 0; i < r->jv.nevents && n + 8 < len; i++) {
		const struct jv_event *e = &r->jv.events[i];
		char t[40];

		if (strcmp(e->source, "host") != 0)
			continue;
		if (shown++ == 3) {
			snprintf(why + n, len - n, ", ...");
			break;
		}
		jv_time(e, t, sizeof(t));
		n += (size_t)snprintf(why + n, len - n, "%s %s %s%s",
				      shown > 1 ? "," : "", e->text,
				      e->at_ms ? "at " : "(", e->at_ms ? t :
				      "when unknown)");
	}
}

/* Where the leading suspect is this host and its links changed, the
 * action is the command that drains it: Slurm's name for this node
 * (SLURMD_NODENAME in a step), else the short hostname. */
static void drain_here(struct explain_run *r)
{
	const struct jv_suspect *s = &r->jv.suspects[0];
	const char *slurm = getenv("SLURMD_NODENAME");
	char name[65];

	if (r->jv.nsuspects == 0 || s->host_why[0] == '\0' ||
	    !node_is_here(s->host))
		return;
	if (slurm != NULL && *slurm != '\0')
		snprintf(name, sizeof(name), "%s", slurm);
	else if (gethostname(name, sizeof(name)) < 0)
		return;
	name[sizeof(name) - 1] = '\0';
	name[strcspn(name, ".")] = '\0';
	/* a name a shell would split or expand is no command to paste */
	if (name[0] == '\0' || name[0] == '-' ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789-_") != strlen(name))
		return;
	snprintf(r->jv.action, sizeof(r->jv.action), "drain %s (scontrol "
		 "update nodename=%s state=drain reason=\"link changed, "
		 "netprobe\") or reseat the link", name, name);
}

int explain_job(struct explain_run *r)
{
	long long deadline = ras_now_ms() + EXPLAIN_JOB_BUDGET_S * 1000LL;
	int rc;

	r->job_t0_ms = ras_now_ms();
	rc = ras_ask(r, deadline);

	ras_utf8(r);
	ras_suspects(r);
	for (size_t i = 0; i < r->jv.nsuspects; i++)
		if (node_is_here(r->jv.suspects[i].host)) {
			char why[256];

			host_why(r, why, sizeof(why));
			jv_host(&r->jv, r->jv.suspects[i].host,
				r->nlink_changes > 0, why);
		}
	sources(r);
	return rc;
}

void explain_job_finish(struct explain_run *r)
{
	char said[256] = "";

	for (int i = 0; i < r->nprobed; i++) {
		size_t l = strlen(said);

		jv_probe(&r->jv, r->probed[i].node, r->probed[i].answered,
			 r->probed[i].what);
		snprintf(said + l, sizeof(said) - l, "%s%.60s %s", l ? "; " : "",
			 r->probed[i].node, r->probed[i].answered ? "reachable"
			 : "not reachable");
	}
	if (r->ras_answered)
		jv_source(&r->jv, "probe", r->nprobed > 0, r->nprobed > 0 ?
			  said : "no other node to probe", r->o.no_probe ?
			  "reachability: --no-probe" : r->nprobed > 0 ?
			  "the job's own ports (never probed: NCCL would "
			  "abort)" : "");
	/* torch's Flight Recorder (explain_fr_join) has added its
	 * suspects, times and limits to r->jv by now: jv_decide ranks
	 * every source's together. */
	jv_decide(&r->jv);
	drain_here(r);
}
