/* netprobe mesh --watch (mesh_watch.h): the rounds of light probes toward
 * this node's targets, every peer at once from one poll loop (so a round
 * takes about one second however many peers); the pairs' states
 * (probe/watchstate.h); the change log, sent to node 0 over the
 * rendezvous connection as one RESULT frame a change. The figures for
 * Prometheus are mesh_watch_prom.c's; what both share, mesh_watch_int.h. */
#include "base/monoclock.h"
#include "base/sock.h"
#include "mesh/mesh_watch.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "mesh/mesh_int.h"
#include "mesh/mesh_watch_int.h"
#include "probe/pmtu.h"
#include "probe/watchstate.h"
#include "wire/client_conn.h"
#include "wire/client_mesh.h"

/* this process ran this late against its own schedule: a round it could
 * not time says nothing of the pairs */
#define WATCH_STALL_US 250000LL

static volatile sig_atomic_t watch_signal;

/* Only sets a flag; the loops look at it at least every 100 ms. */
static void on_signal(int sig)
{
	watch_signal = sig;
}

/* Wall-clock microseconds since the epoch: the change log's times. */
static long long wall_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* RFC 3339 UTC with milliseconds. */
static void fmt_time(long long us, char *buf, size_t len)
{
	time_t t = (time_t)(us / 1000000);
	struct tm tm;
	char s[32];

	gmtime_r(&t, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03dZ", s, (int)(us % 1000000 / 1000));
}

/* True when the watch must stop: a signal, or past --duration. */
static bool stopping(const struct mesh *ms, const struct mesh_watch *w)
{
	return watch_signal != 0 ||
	       (ms->o.watch_duration_us > 0 && wall_us() >= w->end_wall_us);
}

/* Opens the round's sockets toward p: the UDP one once, a TCP connect
 * each round. */
static void open_peer(struct watch_peer *p, long long now)
{
	int fam = p->ss.ss_family;

	p->tcp_done = false;
	p->r = (struct watch_round){false, 0, 0, 0, 0, -1, -1};
	memset(p->seen, 0, sizeof(p->seen));
	if (!p->resolved) {
		p->tcp_done = true;
		p->r.tcp_errno = EHOSTUNREACH;
		return;
	}
	if (p->udp < 0) {
		p->udp = socket(fam, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		                0);
		if (p->udp >= 0 && (client_bind_source(p->udp, fam) < 0 ||
		                    connect(p->udp, (struct sockaddr *)&p->ss,
		                            p->sl) < 0)) {
			close(p->udp);
			p->udp = -1;
		}
	}
	p->tcp = socket(fam, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	p->tcp_start_us = now;
	if (p->tcp < 0 || client_bind_source(p->tcp, fam) < 0 ||
	    sock_connect_start(p->tcp, (struct sockaddr *)&p->ss, p->sl) < 0) {
		p->r.tcp_errno = errno;
		p->tcp_done = true;
		if (p->tcp >= 0)
			close(p->tcp);
		p->tcp = -1;
	}
}

/* Sends echo seq of round id to p. */
static void send_echo(struct watch_peer *p, uint32_t id, unsigned seq)
{
	uint8_t f[PROTO_HDR_LEN + 16];
	long long now = mono_now_us();

	if (p->udp < 0)
		return;
	proto_hdr_encode(f, PROTO_ECHO, 0, 16);
	memcpy(f + PROTO_HDR_LEN, &id, 4);
	memcpy(f + PROTO_HDR_LEN + 4, &seq, 4);
	memcpy(f + PROTO_HDR_LEN + 8, &now, 8);
	p->r.sent++;
	if (send(p->udp, f, sizeof(f), MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		return; /* counted as sent and lost: the path refused it */
}

/* Reads the answers waiting on p's UDP socket. */
static void read_echoes(struct watch_peer *p, uint32_t id)
{
	for (int k = 0; k < 64; k++) {
		uint8_t f[PROTO_HDR_LEN + 64];
		struct proto_hdr h;
		const char *why;
		uint32_t rid, seq;
		long long sent;
		ssize_t n = recv(p->udp, f, sizeof(f), MSG_DONTWAIT);

		if (n < 0 && errno != EAGAIN && errno != EINTR)
			continue; /* an ICMP error: the echo is lost */
		if (n < 0)
			return;
		if ((size_t)n != PROTO_HDR_LEN + 16 ||
		    proto_hdr_decode(f, (size_t)n, &h, &why) < 0 ||
		    h.type != PROTO_ECHO_REPLY)
			continue;
		memcpy(&rid, f + PROTO_HDR_LEN, 4);
		memcpy(&seq, f + PROTO_HDR_LEN + 4, 4);
		memcpy(&sent, f + PROTO_HDR_LEN + 8, 8);
		if (rid != id || seq >= WATCH_ECHOES || p->seen[seq])
			continue;
		p->seen[seq] = true;
		p->rtt[p->r.answered++] = mono_now_us() - sent;
	}
}

/* The TCP connect settled (or not yet: nothing changes). */
static void tcp_settle(struct watch_peer *p)
{
	int err = sock_error(p->tcp);

	p->tcp_done = true;
	p->r.tcp_ok = err == 0;
	p->r.tcp_errno = err;
	p->r.connect_us = mono_now_us() - p->tcp_start_us;
	close(p->tcp);
	p->tcp = -1;
}

/* Sorts RTTs for the median. */
static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* The round's figures for p, and p's running figures unless this host
 * stalled (its lateness is no loss of the pair's). */
static void close_round(struct watch_peer *p, bool stalled)
{
	if (p->tcp >= 0) {
		close(p->tcp);
		p->tcp = -1;
		p->r.tcp_errno = ETIMEDOUT;
	}
	for (unsigned i = 0; i < p->r.answered && !stalled; i++) {
		p->rtt_sum_s += (double)p->rtt[i] / 1e6;
		p->rtt_count++;
		for (size_t k = 0; k < WATCH_RTT_BUCKETS; k++)
			if ((double)p->rtt[i] / 1e6 <= watch_rtt_le[k]) {
				p->rtt_hist[k]++;
				break;
			}
	}
	if (!stalled) {
		p->sent_total += p->r.sent;
		p->lost_total += p->r.sent - p->r.answered;
	}
	if (p->r.answered > 0) {
		qsort(p->rtt, p->r.answered, sizeof(p->rtt[0]), cmp_ll);
		p->r.rtt_med_us = p->rtt[p->r.answered / 2];
		p->r.rtt_max_us = p->rtt[p->r.answered - 1];
	}
}

/* One round toward every peer at once: a TCP connect to each responder
 * and WATCH_ECHOES UDP echoes, WATCH_GAP_US apart, answers awaited
 * WATCH_WAIT_US after the last. Bounded by about one second. */
static void run_round(struct mesh_watch *w)
{
	struct pollfd *pf = calloc(2 * w->np + 1, sizeof(*pf));
	long long t0 = mono_now_us();
	long long end = t0 + (WATCH_ECHOES - 1) * WATCH_GAP_US + WATCH_WAIT_US;
	unsigned next_seq = 0;

	if (pf == NULL)
		return;
	w->round_id++;
	w->stalled = false;
	for (size_t i = 0; i < w->np; i++)
		open_peer(&w->p[i], t0);
	for (;;) {
		long long now = mono_now_us(), due;
		size_t n = 0;
		bool pending = false;
		int ms;

		while (next_seq < WATCH_ECHOES &&
		       now >= t0 + next_seq * WATCH_GAP_US) {
			for (size_t i = 0; i < w->np; i++)
				send_echo(&w->p[i], w->round_id, next_seq);
			next_seq++;
		}
		if (now >= end || watch_signal)
			break;
		for (size_t i = 0; i < w->np; i++) {
			struct watch_peer *p = &w->p[i];

			pending |= !p->tcp_done || p->r.answered < p->r.sent ||
			           next_seq < WATCH_ECHOES;
			if (p->udp >= 0)
				pf[n++] = (struct pollfd){p->udp, POLLIN, 0};
			if (!p->tcp_done) {
				if (now - p->tcp_start_us >= WATCH_CONNECT_US) {
					close(p->tcp);
					p->tcp = -1;
					p->tcp_done = true;
					p->r.tcp_errno = ETIMEDOUT;
				} else {
					pf[n++] = (struct pollfd){p->tcp,
					                          POLLOUT, 0};
				}
			}
		}
		if (!pending)
			break;
		due = next_seq < WATCH_ECHOES ? t0 + next_seq * WATCH_GAP_US
		                              : end;
		ms = (int)((due - now + 999) / 1000);
		if (ms > 100)
			ms = 100;
		if (poll(pf, n, ms) < 0 && errno != EINTR)
			break;
		if (mono_now_us() - now > ms * 1000LL + WATCH_STALL_US)
			w->stalled = true;
		for (size_t i = 0; i < w->np; i++) {
			struct watch_peer *p = &w->p[i];

			if (p->udp >= 0)
				read_echoes(p, w->round_id);
			if (!p->tcp_done && sock_connect_done(p->tcp))
				tcp_settle(p);
		}
	}
	if (mono_now_us() > end + WATCH_STALL_US)
		w->stalled = true;
	for (size_t i = 0; i < w->np; i++)
		close_round(&w->p[i], w->stalled);
	w->last_round_s = (double)(mono_now_us() - t0) / 1e6;
	free(pf);
}

/* Searches the path MTU toward p, bounded by WATCH_PMTU_US. */
static void measure_mtu(struct watch_peer *p)
{
	struct pmtu_config cfg;
	struct pmtu_result res;
	struct pmtu_ops ops;
	struct pmtu_udp u;
	unsigned ifmtu;

	if (!p->resolved ||
	    pmtu_udp_open(&u, (struct sockaddr *)&p->ss, p->sl) < 0)
		return;
	ifmtu = pmtu_udp_kernel_pmtu(&u);
	if (ifmtu == 0)
		ifmtu = 1500;
	pmtu_config_default(&cfg, p->ss.ss_family, ifmtu);
	cfg.deadline_us = WATCH_PMTU_US;
	pmtu_udp_ops(&u, &ops);
	memset(&res, 0, sizeof(res));
	if (pmtu_search(&cfg, &ops, &res) == 0 && res.responded)
		p->path_mtu = res.largest_ok;
	pmtu_udp_close(&u);
}

/* This node's own change into its log, within the caps of mesh_guard.h
 * as the others' on node 0. */
static void log_add(struct mesh *ms, json_t *ev)
{
	size_t len = json_dumpb(ev, NULL, 0, JSON_COMPACT | JSON_SORT_KEYS);

	if (!mesh_watch_admit(ms, (size_t)ms->rank, len)) {
		json_decref(ev);
		return;
	}
	mesh_watch_keep_change(ms, (size_t)ms->rank, ev, len);
}

/* One change: a line on stderr, into the log, and to node 0. */
static void log_change(struct mesh *ms, struct mesh_watch *w,
                       struct watch_peer *p, const struct watch_change *ch)
{
	const struct mesh_member *me = &ms->m[ms->rank];
	const struct mesh_member *t = &ms->m[p->member];
	char at[40], ev[400];
	json_t *e;
	char *text;

	fmt_time(ch->at_us, at, sizeof(at));
	watch_evidence(&p->r, ev, sizeof(ev));
	cmd_note(&ms->run,
	         "watch: %s: %s -> %s: %s -> %s after %.1f s "
	         "(%s)",
	         at, me->name, t->name, watch_state_name(ch->was),
	         watch_state_name(ch->now), (double)ch->lasted_us / 1e6, ev);
	e = json_pack("{s:s, s:I, s:s, s:s, s:s, s:s, s:s, s:I, s:f, s:o}",
	              "at", at, "t_ms",
	              (json_int_t)((ch->at_us - w->start_wall_us) / 1000),
	              "from", me->name, "to", t->name, "was",
	              watch_state_name(ch->was), "now",
	              watch_state_name(ch->now), "evidence", ev, "lasted_ms",
	              (json_int_t)(ch->lasted_us / 1000), "loss_ratio",
	              p->r.sent ? 1.0 - (double)p->r.answered / p->r.sent : 0.0,
	              "rtt_ms",
	              p->r.rtt_med_us >= 0
	                  ? json_real((double)p->r.rtt_med_us / 1e3)
	                  : json_null());
	if (e == NULL)
		return;
	if (ms->rank != 0 && !w->node0_gone && ms->c.fd >= 0) {
		text = json_dumps(e, JSON_COMPACT | JSON_SORT_KEYS);
		if (text == NULL ||
		    client_mesh_result(&ms->c, text, strlen(text),
		                       mono_now_us() + MESH_STEP_US) < 0) {
			cmd_note(&ms->run,
			         "watch: cannot tell node 0 of "
			         "the change: %s",
			         ms->c.err);
			w->node0_gone = true;
		}
		free(text);
	}
	log_add(ms, e);
}

/* The peers: this node's targets of the plan, resolved once. */
static int make_peers(struct mesh *ms, struct mesh_watch *w)
{
	w->p = calloc(ms->ntargets ? ms->ntargets : 1, sizeof(*w->p));
	if (w->p == NULL)
		return -1;
	w->np = ms->ntargets;
	for (size_t k = 0; k < w->np; k++) {
		struct watch_peer *p = &w->p[k];
		const struct mesh_member *t = &ms->m[ms->targets[k]];
		char err[CLIENT_ERR_MAX];

		p->member = ms->targets[k];
		p->udp = p->tcp = -1;
		p->resolved = client_resolve(t->target, t->port, SOCK_STREAM,
		                             &p->ss, &p->sl, err,
		                             sizeof(err)) == 0;
		if (!p->resolved)
			cmd_note(&ms->run, "watch: %s", err);
		watch_pair_init(&p->pair, w->start_wall_us);
	}
	return 0;
}

/* Waits until mono_us (or a stop), keeping node 0's rendezvous served,
 * and noticing on a member when node 0 went away. */
static void wait_until(struct mesh *ms, struct mesh_watch *w, long long until)
{
	for (int guard = 0; guard < 100000; guard++) {
		long long left = until - mono_now_us();
		int ms_left = (int)(left / 1000);

		if (left <= 0 || watch_signal)
			return;
		if (ms_left > 100)
			ms_left = 100;
		if (ms->rank == 0) {
			mesh_rdv_pump(ms, ms_left);
			continue;
		}
		if (!w->node0_gone && ms->c.fd >= 0) {
			struct pollfd q = {ms->c.fd, POLLIN, 0};

			if (poll(&q, 1, ms_left) > 0) {
				char junk[256];
				ssize_t r = recv(ms->c.fd, junk, sizeof(junk),
				                 MSG_DONTWAIT);

				if (r == 0 || (r < 0 && errno != EAGAIN &&
				               errno != EINTR)) {
					cmd_failf(
					    &ms->run, "mesh",
					    "watch: node 0 "
					    "closed the connection; changes "
					    "are logged here only");
					w->node0_gone = true;
				}
			}
		} else {
			nanosleep(&(struct timespec){0,
			                             (long)ms_left * 1000000L},
			          NULL);
		}
	}
}

/* The members node 0 did not keep every change of, [{rank, name,
 * dropped, too_large, kept_bytes}]; NULL on no memory. */
static json_t *dropped_json(const struct mesh *ms)
{
	json_t *a = json_array();

	for (size_t i = 0; a != NULL && i < ms->n; i++) {
		const struct mesh_member *m = &ms->m[i];

		if (m->watch_dropped == 0)
			continue;
		if (json_array_append_new(
		        a, json_pack("{s:I, s:s, s:I, s:I, s:I}", "rank",
		                     (json_int_t)i, "name", m->name, "dropped",
		                     (json_int_t)m->watch_dropped, "too_large",
		                     (json_int_t)m->watch_refused, "kept_bytes",
		                     (json_int_t)m->watch_bytes)) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* Node 0's `watch` object of the mesh document. */
static json_t *watch_json(const struct mesh *ms)
{
	const struct mesh_watch *w = ms->watch;
	char start[40], end[40];

	if (w == NULL)
		return NULL;
	fmt_time(w->start_wall_us, start, sizeof(start));
	fmt_time(w->ended_wall_us, end, sizeof(end));
	return json_pack("{s:f, s:f, s:s, s:s, s:I, s:I, s:I, s:s?, s:i, "
	                 "s:O, s:o, s:{s:i, s:I, s:I, s:i}}",
	                 "interval_s", (double)ms->o.watch_us / 1e6,
	                 "duration_s", (double)ms->o.watch_duration_us / 1e6,
	                 "started", start, "ended", end, "rounds",
	                 (json_int_t)w->rounds, "rounds_stalled",
	                 (json_int_t)w->stalls, "changes_dropped",
	                 (json_int_t)ms->watch_dropped, "stopped_by",
	                 w->stopped_by, "echoes_per_round", WATCH_ECHOES,
	                 "changes", ms->watch_log, "dropped_by",
	                 dropped_json(ms), "caps", "change_bytes",
	                 MESH_WATCH_CHANGE_MAX, "member_bytes",
	                 (json_int_t)MESH_WATCH_MEMBER_BYTES, "total_bytes",
	                 (json_int_t)MESH_WATCH_TOTAL_BYTES, "changes",
	                 MESH_WATCH_LOG_MAX);
}

/* See mesh_watch.h. */
void mesh_watch_free(struct mesh *ms)
{
	struct mesh_watch *w = ms->watch;

	if (w == NULL)
		return;
	mesh_watch_end_textfile(ms, w); /* the watch ended on an error */
	for (size_t i = 0; i < w->np; i++) {
		if (w->p[i].udp >= 0)
			close(w->p[i].udp);
		if (w->p[i].tcp >= 0)
			close(w->p[i].tcp);
	}
	free(w->p);
	json_decref(ms->watch_log);
	ms->watch_log = NULL;
	json_decref(ms->watch_json);
	ms->watch_json = NULL;
	json_decref(w->findings);
	free(w);
	ms->watch = NULL;
}

/* See mesh_watch.h. */
int mesh_watch_run(struct mesh *ms, int first)
{
	struct mesh_watch *w = calloc(1, sizeof(*w));
	struct sigaction sa = {0};
	long long next;
	int rc = first;

	if (w == NULL || (ms->watch_log = json_array()) == NULL) {
		free(w);
		cmd_failf(&ms->run, "mesh", "out of memory");
		return 2;
	}
	ms->watch = w;
	w->start_wall_us = wall_us();
	w->end_wall_us = w->start_wall_us + ms->o.watch_duration_us;
	w->findings = mesh_watch_findings(ms);
	w->mo.textfile_dir = ms->o.textfile;
	w->mo.textfile_name = "netprobe_mesh.prom";
	w->mo.http = ms->metrics_http;
	if (make_peers(ms, w) < 0) {
		cmd_failf(&ms->run, "mesh", "out of memory");
		return 2;
	}
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed terminal ends the watch as SIGTERM does: the report and
	 * the change log are written (issue 45) */
	sigaction(SIGHUP, &sa, NULL);
	cmd_note(&ms->run, "watching %zu peer%s every %.1f s%s%s", w->np,
	         w->np == 1 ? "" : "s", (double)ms->o.watch_us / 1e6,
	         ms->o.watch_duration_us ? " for " : " until SIGTERM",
	         ms->o.watch_duration_us ? "the duration" : "");
	mesh_watch_publish(ms, w, wall_us(), true);
	atomic_store(&ms->watching, true);
	next = mono_now_us();
	while (!stopping(ms, w)) {
		wait_until(ms, w, next);
		if (stopping(ms, w))
			break;
		run_round(w);
		/* a round cut short by a signal says nothing of the pairs */
		if (watch_signal)
			break;
		w->rounds++;
		if (w->stalled) {
			w->stalls++;
			if (ms->o.verbose)
				cmd_note(&ms->run,
				         "watch: round %llu not "
				         "judged: this host stalled (%.2f s)",
				         w->rounds, w->last_round_s);
		}
		for (size_t i = 0; i < w->np && !w->stalled; i++) {
			struct watch_change ch;
			struct watch_peer *p = &w->p[i];

			if (watch_pair_feed(&p->pair, &p->r,
			                    wall_us() - (long long)(w->last_round_s *
			                                            1e6),
			                    &ch))
				log_change(ms, w, p, &ch);
		}
		if (w->np > 0 && (w->rounds - 1) % WATCH_PMTU_EVERY == 0) {
			struct watch_peer *p =
			    &w->p[((w->rounds - 1) / WATCH_PMTU_EVERY) % w->np];

			if (p->pair.state == WATCH_UP)
				measure_mtu(p);
		}
		mesh_watch_publish(ms, w, wall_us(), false);
		next += ms->o.watch_us;
		if (next < mono_now_us())
			next = mono_now_us();
	}
	w->ended_wall_us = wall_us();
	w->stopped_by = watch_signal == SIGTERM  ? "SIGTERM"
	                : watch_signal == SIGINT ? "SIGINT"
	                : watch_signal == SIGHUP ? "SIGHUP"
	                                         : "duration";
	mesh_watch_publish(ms, w, wall_us(), true);
	mesh_watch_end_textfile(ms, w);
	cmd_note(&ms->run,
	         "watch ended (%s) after %llu rounds; "
	         "changes in the log: %zu, not kept: %llu",
	         w->stopped_by, w->rounds, json_array_size(ms->watch_log),
	         ms->watch_dropped);
	/* the others' last rounds still find this responder, and node 0
	 * takes their last changes */
	watch_signal = 0;
	wait_until(ms, w, mono_now_us() + WATCH_LINGER_US);
	if (ms->rank == 0) {
		ms->watch_json = watch_json(ms);
		rc = mesh_report(ms);
	}
	return rc;
}
