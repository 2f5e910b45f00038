/* netprobe mesh on node 0: the rendezvous. The responder hands each JOIN
 * connection over (serve.h); this file checks the join (token, list,
 * rank, twice), sends the plan and the members once the joins are in or
 * the join timeout passed, gathers every member's document while node 0
 * probes its own targets, and sends the verdict. One poll loop on the
 * main thread; every wait is bounded. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "mesh/mesh_rdv.h"
#include "probe/meshplan.h"
#include "wire/auth.h"

/* See mesh_int.h: runs on the responder's thread. */
int mesh_rdv_handoff(void *ctx, int fd, const struct sockaddr_storage *peer,
                     const uint8_t *in, size_t nin, const uint8_t *out,
                     size_t nout)
{
	struct mesh *ms = ctx;
	struct mesh_rdv *r = ms->rdv;
	struct rdv_pending p = {fd, *peer, NULL, NULL, nin, nout};
	int rc = -1;

	p.in = malloc(nin + 1);
	p.out = malloc(nout + 1);
	if (p.in == NULL || p.out == NULL)
		goto fail;
	memcpy(p.in, in, nin);
	if (nout)
		memcpy(p.out, out, nout);
	pthread_mutex_lock(&r->mu);
	if (r->npend + r->nc < RDV_MAX_CONNS) {
		if (r->npend == r->cappend) {
			size_t cap = r->cappend ? 2 * r->cappend : 64;
			void *v = realloc(r->pend, cap * sizeof(*r->pend));

			if (v != NULL) {
				r->pend = v;
				r->cappend = cap;
			}
		}
		if (r->npend < r->cappend) {
			r->pend[r->npend++] = p;
			rc = 0;
		}
	}
	pthread_mutex_unlock(&r->mu);
	if (rc == 0) {
		if (write(r->wake[1], "j", 1) < 0 && errno != EAGAIN)
			rc = 0; /* the loop polls at least every 200 ms */
		return 0;
	}
fail:
	free(p.in);
	free(p.out);
	return -1;
}

/* See mesh_int.h. */
int mesh_rdv_init(struct mesh *ms)
{
	struct mesh_rdv *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return -1;
	pthread_mutex_init(&r->mu, NULL);
	r->wake[0] = r->wake[1] = -1;
	ms->rdv = r;
	if (pipe2(r->wake, O_NONBLOCK | O_CLOEXEC) < 0)
		return -1;
	if (ms->o.token_file != NULL) {
		if (auth_load(ms->o.token_file, &r->key) < 0)
			return -1;
		r->have_key = true;
	}
	return 0;
}

/* Reads what c's socket holds. */
static void conn_read(struct mesh *ms, struct rdv_conn *c)
{
	for (int round = 0; round < 16 && c->st != RC_DEAD; round++) {
		ssize_t r;

		if (c->incap - c->nin < 4096) {
			size_t cap = c->incap ? 2 * c->incap : 8192;
			uint8_t *v;

			if (cap > RDV_FRAME_MAX + 4096)
				cap = RDV_FRAME_MAX + 4096;
			v = cap > c->incap ? realloc(c->in, cap) : NULL;
			if (v == NULL && c->incap == c->nin) {
				rdv_conn_gone(ms, c, "ran out of memory");
				return;
			}
			if (v != NULL) {
				c->in = v;
				c->incap = cap;
			}
		}
		r = recv(c->fd, c->in + c->nin, c->incap - c->nin,
		         MSG_DONTWAIT);
		if (r == 0) {
			rdv_conn_gone(ms, c, "closed");
			return;
		}
		if (r < 0) {
			if (errno != EAGAIN && errno != EINTR)
				rdv_conn_gone(ms, c, "was reset");
			return;
		}
		c->nin += (size_t)r;
		if (c->st != RC_CLOSING)
			rdv_conn_frames(ms, c);
	}
}

/* Moves the connections the responder handed over into the loop. */
static void take_pending(struct mesh *ms)
{
	struct mesh_rdv *r = ms->rdv;
	char drain[64];

	while (read(r->wake[0], drain, sizeof(drain)) > 0)
		;
	pthread_mutex_lock(&r->mu);
	for (size_t i = 0; i < r->npend; i++) {
		struct rdv_pending *p = &r->pend[i];
		struct rdv_conn *c = calloc(1, sizeof(*c));

		if (c != NULL && r->nc == r->capc) {
			size_t cap = r->capc ? 2 * r->capc : 64;
			void *v = realloc(r->c, cap * sizeof(*r->c));

			if (v == NULL) {
				free(c);
				c = NULL;
			} else {
				r->c = v;
				r->capc = cap;
			}
		}
		if (c == NULL) {
			close(p->fd);
			free(p->in);
			free(p->out);
			continue;
		}
		c->fd = p->fd;
		c->member = -1;
		c->since_us = mono_now_us();
		rdv_peer_addr(&p->peer, c->addr, sizeof(c->addr));
		c->in = p->in;
		c->nin = c->incap = p->nin;
		c->out = p->out;
		c->nout = p->nout;
		r->c[r->nc++] = c;
		rdv_conn_frames(ms, c);
	}
	r->npend = 0;
	pthread_mutex_unlock(&r->mu);
}

/* One round of the loop: new connections, then at most max_ms of
 * waiting for reads and writes. */
static void rdv_poll(struct mesh *ms, int max_ms)
{
	struct mesh_rdv *r = ms->rdv;
	long long now;
	size_t n = 0;

	take_pending(ms);
	rdv_guard(ms);
	rdv_reap(r);
	if (r->cappfd < r->nc + 1) {
		void *v = realloc(r->pfd, (r->nc + 64) * sizeof(*r->pfd));

		if (v == NULL)
			return;
		r->pfd = v;
		r->cappfd = r->nc + 64;
	}
	r->pfd[n++] = (struct pollfd){r->wake[0], POLLIN, 0};
	for (size_t i = 0; i < r->nc; i++) {
		struct rdv_conn *c = r->c[i];

		r->pfd[n++] = (struct pollfd){
		    c->fd,
		    (short)(POLLIN | (rdv_conn_pending(c) ? POLLOUT : 0)), 0};
	}
	if (poll(r->pfd, n, max_ms) < 0 && errno != EINTR)
		return;
	now = mono_now_us();
	for (size_t i = 0; i < r->nc; i++) {
		struct rdv_conn *c = r->c[i];
		short ev = r->pfd[i + 1].revents;

		if (c->st != RC_DEAD && (ev & POLLOUT))
			rdv_conn_write(ms, c);
		if (c->st != RC_DEAD && (ev & (POLLIN | POLLHUP | POLLERR)))
			conn_read(ms, c);
		if (c->st != RC_DEAD && rdv_conn_pending(c))
			rdv_conn_write(ms, c);
		if (c->st == RC_CLOSING &&
		    (!rdv_conn_pending(c) || now > c->close_by_us)) {
			close(c->fd);
			c->fd = -1;
			c->st = RC_DEAD;
		}
	}
	rdv_reap(r);
}

/* True when every entry that should join has. */
static bool all_joined(const struct mesh *ms)
{
	for (size_t i = 0; i < ms->n; i++)
		if (ms->m[i].state == PROTO_MS_MISSING)
			return false;
	return true;
}

/* True when every member that joined sent its document or is gone. */
static bool all_results(const struct mesh *ms)
{
	for (size_t i = 1; i < ms->n; i++)
		if (ms->m[i].state == PROTO_MS_JOINED &&
		    ms->m[i].fate == MESH_FATE_NONE)
			return false;
	return true;
}

/* The MEMBERS frames every member gets, built once. Returns 0, or -1. */
static int build_members(struct mesh *ms)
{
	struct mesh_rdv *r = ms->rdv;
	struct proto_member *batch = calloc(ms->n, sizeof(*batch));
	size_t cap = ms->n * (PROTO_HDR_LEN + 9 + 2 * 256) / 8 + 4096,
	       first = 0;
	uint8_t *buf = NULL;

	if (batch == NULL)
		return -1;
	for (size_t i = 0; i < ms->n; i++) {
		batch[i].rank = (uint32_t)i;
		batch[i].state = (uint8_t)ms->m[i].state;
		batch[i].port =
		    (uint16_t)(ms->m[i].state == PROTO_MS_JOINED ? ms->m[i].port
		                                                 : 0);
		snprintf(batch[i].name, sizeof(batch[i].name), "%s",
		         ms->m[i].name);
		snprintf(batch[i].target, sizeof(batch[i].target), "%s",
		         ms->m[i].target);
	}
	while (first < ms->n) {
		size_t k = 0, bytes = 6;
		int len;

		while (first + k < ms->n && k < 0xffff &&
		       bytes + proto_member_size(&batch[first + k]) <=
		           PROTO_MAX_PAYLOAD)
			bytes += proto_member_size(&batch[first + k++]);
		if (r->nmembers + PROTO_HDR_LEN + bytes > cap || buf == NULL) {
			uint8_t *v;

			cap = (r->nmembers + PROTO_HDR_LEN + bytes) * 2;
			v = realloc(buf, cap);
			if (v == NULL)
				goto fail;
			buf = v;
		}
		len = proto_members_encode((uint32_t)first, batch + first, k,
		                           buf + r->nmembers + PROTO_HDR_LEN,
		                           bytes);
		if (len < 0)
			goto fail;
		proto_hdr_encode(buf + r->nmembers, PROTO_MEMBERS, 0,
		                 (uint32_t)len);
		r->nmembers += PROTO_HDR_LEN + (size_t)len;
		first += k;
	}
	r->members = buf;
	free(batch);
	return 0;
fail:
	free(buf);
	free(batch);
	return -1;
}

/* Closes the joins: who is missing and why, the names, the plan; the
 * start and the members go to every member. Returns 0, or -1. */
static int rdv_start(struct mesh *ms)
{
	struct mesh_rdv *r = ms->rdv;
	size_t joined = 0;
	long long bound;

	r->started = true;
	for (size_t i = 0; i < ms->n; i++) {
		struct mesh_member *m = &ms->m[i];

		if (m->state == PROTO_MS_JOINED)
			joined++;
		if (m->state == PROTO_MS_MISSING && m->why[0] == '\0' &&
		    r->fds_short_joining)
			snprintf(m->why, sizeof(m->why),
			         "did not join node 0 (%.64s:%u) within the "
			         "join timeout of %.0f s, while node 0 ran out "
			         "of file descriptors (limit %llu): raise node "
			         "0's limit (ulimit -n)",
			         ms->node0, ms->port,
			         (double)ms->o.join_us / 1e6, r->fd_limit);
		else if (m->state == PROTO_MS_MISSING && m->why[0] == '\0')
			snprintf(m->why, sizeof(m->why),
			         "did not join node 0 (%.64s:%u) within the "
			         "join timeout of %.0f s",
			         ms->node0, ms->port,
			         (double)ms->o.join_us / 1e6);
	}
	mesh_probe_missing(ms);
	mesh_name_members(ms);
	bound = meshplan_bound_us(joined, ms->o.pairs, ms->o.concurrency,
	                          MESH_PEER_IDLE_US(&ms->o));
	ms->start = (struct proto_mesh_start){
	    .members = (uint32_t)ms->n,
	    .index = 0,
	    .pair_limit = ms->o.pairs,
	    .probe_ms = (uint32_t)((bound + MESH_START_SLACK_US) / 1000),
	    .result_ms = (uint32_t)((bound + MESH_START_SLACK_US +
	                             MESH_RESULT_SLACK_US) /
	                            1000),
	    .concurrency = (uint16_t)ms->o.concurrency,
	    .flags = ms->o.quick ? PROTO_START_QUICK : 0,
	};
	snprintf(ms->start.ports, sizeof(ms->start.ports), "%s",
	         ms->o.ports ? ms->o.ports : "");
	if (build_members(ms) < 0)
		return -1;
	for (size_t i = 0; i < r->nc; i++) {
		struct rdv_conn *c = r->c[i];
		struct proto_mesh_start st = ms->start;
		uint8_t buf[PROTO_MESH_PORTS_MAX + 64];
		int len;

		if (c->st != RC_IN)
			continue;
		st.index = (uint32_t)c->member;
		len = proto_mesh_start_encode(&st, buf, sizeof(buf));
		if (len < 0 ||
		    rdv_conn_queue(c, PROTO_MESH_START, buf, (size_t)len) < 0)
			return -1;
		c->shared = r->members;
		c->nshared = r->nmembers;
	}
	if (ms->o.verbose)
		cmd_note(&ms->run,
		         "%zu of %zu members joined after %.1f s; "
		         "probing bound %.1f s",
		         joined, ms->n, (double)mesh_elapsed_ms(ms) / 1e3,
		         (double)ms->start.probe_ms / 1e3);
	return 0;
}

/* Members that joined but sent nothing in time. */
static void mark_silent(struct mesh *ms)
{
	for (size_t i = 1; i < ms->n; i++) {
		struct mesh_member *m = &ms->m[i];

		if (m->state != PROTO_MS_JOINED || m->fate != MESH_FATE_NONE)
			continue;
		m->fate = MESH_FATE_SILENT;
		snprintf(m->why, sizeof(m->why),
		         "joined, but sent no results within %.0f s of the "
		         "start",
		         (double)ms->start.result_ms / 1e3);
	}
}

/* The verdict to every member still connected; bounded flush. */
static void send_verdicts(struct mesh *ms, int status)
{
	struct mesh_rdv *r = ms->rdv;
	struct proto_verdict v = {(uint8_t)status, ""};
	uint8_t buf[PROTO_MESH_MSG_MAX + 8];
	long long end = mono_now_us() + RDV_CLOSE_US;
	size_t joined = 0;
	int len;

	for (size_t i = 0; i < ms->n; i++)
		joined += ms->m[i].state == PROTO_MS_JOINED;
	snprintf(v.msg, sizeof(v.msg),
	         "mesh of %zu nodes (%zu joined): exit status %d; the report "
	         "is on node 0 (%.80s)",
	         ms->n, joined, status, ms->m[0].name);
	len = proto_verdict_encode(&v, buf, sizeof(buf));
	for (size_t i = 0; i < r->nc && len > 0; i++)
		if (r->c[i]->st == RC_IN) {
			rdv_conn_queue(r->c[i], PROTO_VERDICT, buf,
			               (size_t)len);
			/* watching: members send their changes here */
			if (ms->o.watch_us > 0)
				continue;
			r->c[i]->st = RC_CLOSING;
			r->c[i]->close_by_us = end;
		}
	while (ms->o.watch_us == 0 && r->nc > 0 && mono_now_us() < end)
		rdv_poll(ms, 50);
}

/* See mesh_int.h. */
int mesh_rdv_run(struct mesh *ms, int (*report)(struct mesh *))
{
	long long join_end = ms->t0_us + ms->o.join_us, res_end;
	int status;

	while (!all_joined(ms) && mono_now_us() < join_end) {
		long long left = (join_end - mono_now_us()) / 1000;

		rdv_poll(ms, left < 200 ? (int)(left > 0 ? left : 0) : 200);
	}
	if (rdv_start(ms) < 0) {
		cmd_failf(&ms->run, "mesh", "out of memory");
		return 2;
	}
	if (mesh_probe_start(ms) < 0) {
		cmd_failf(&ms->run, "mesh", "cannot start probing: %s",
		          strerror(errno));
		return 2;
	}
	res_end = mono_now_us() + (long long)ms->start.result_ms * 1000;
	while (mono_now_us() < res_end &&
	       !(all_results(ms) && mesh_probe_done(ms)))
		rdv_poll(ms, 100);
	mark_silent(ms);
	if (mesh_probe_finish(ms) < 0) {
		cmd_failf(&ms->run, "mesh", "out of memory");
		return 2;
	}
	status = report(ms);
	send_verdicts(ms, status);
	return status;
}

/* See mesh_int.h. */
void mesh_rdv_pump(struct mesh *ms, int max_ms)
{
	if (ms->rdv != NULL)
		rdv_poll(ms, max_ms);
}

/* See mesh_int.h. */
void mesh_rdv_free(struct mesh *ms)
{
	struct mesh_rdv *r = ms->rdv;

	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nc; i++) {
		if (r->c[i]->fd >= 0)
			close(r->c[i]->fd);
		r->c[i]->st = RC_DEAD;
	}
	rdv_reap(r);
	for (size_t i = 0; i < r->npend; i++) {
		close(r->pend[i].fd);
		free(r->pend[i].in);
		free(r->pend[i].out);
	}
	free(r->pend);
	free(r->c);
	free(r->pfd);
	free(r->unauth);
	free(r->members);
	if (r->wake[0] >= 0)
		close(r->wake[0]);
	if (r->wake[1] >= 0)
		close(r->wake[1]);
	explicit_bzero(&r->key, sizeof(r->key));
	pthread_mutex_destroy(&r->mu);
	free(r);
	ms->rdv = NULL;
}
