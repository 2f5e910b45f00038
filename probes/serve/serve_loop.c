/* netprobe serve's event loop: the TCP and UDP sockets on the serve port,
 * clients accepted, timers, and every event handed to the file that owns
 * its handle. */
#include "serve/serve.h"

#include <errno.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "serve/serve_client.h"
#include "serve/serve_conn.h"
#include "serve/serve_guard.h"
#include "serve/serve_connback.h"
#include "serve/serve_int.h"
#include "serve/serve_listen.h"
#include "serve/serve_log.h"
#include "serve/serve_sock.h"
#include "serve/serve_udp.h"
#include "wire/client.h"

/* The defaults of `netprobe serve`. */
void serve_opts_init(struct serve_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->port = PROTO_DEFAULT_PORT;
	o->max_clients = 1024;
}

int sv_adopt(struct server *s, int fd, const struct sockaddr_storage *ss,
             socklen_t sl)
{
	struct conn *c;
	unsigned slot;
	int one = 1;

	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		sv_log(s, "out of memory for a client");
		return -1;
	}
	for (slot = 0; slot < s->o.max_clients && s->conns[slot]; slot++)
		;
	c->slot = slot;
	c->ev.kind = EV_CONN;
	c->ev.fd = fd;
	c->peer = *ss;
	c->peerlen = sl;
	c->last_us = c->accepted_us = mono_now_us();
	sv_sa_name(ss, c->name, sizeof(c->name));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (slot >= s->o.max_clients || sv_ep_add(s, &c->ev, EPOLLIN) < 0) {
		close(fd);
		free(c);
		return -1;
	}
	s->conns[slot] = c;
	s->nconns++;
	s->st.accepted++;
	return 0;
}

/* Refuses a client with an ERROR frame (PROTO_E_LIMIT) and closes it;
 * full says the table is full (not the address's cap). */
static void refuse(struct server *s, int fd, const struct sockaddr_storage *ss,
                   const char *why, bool full)
{
	struct proto_error e = {.code = PROTO_E_LIMIT};
	uint8_t frame[PROTO_HDR_LEN + PROTO_ERRMSG_MAX + 2];
	char name[INET6_ADDRSTRLEN + 8];
	int n;

	snprintf(e.msg, sizeof(e.msg), "%s", why);
	n = proto_error_encode(&e, frame + PROTO_HDR_LEN,
	                       sizeof(frame) - PROTO_HDR_LEN);
	if (n >= 0) {
		proto_hdr_encode(frame, PROTO_ERROR, 0, (uint32_t)n);
		send(fd, frame, PROTO_HDR_LEN + (size_t)n,
		     MSG_NOSIGNAL | MSG_DONTWAIT);
	}
	close(fd);
	serve_stats_refused(&s->st, why);
	/* a churn of reconnecting clients is refused thousands of times a
	 * second: one line a second says so */
	if (full && mono_now_us() - s->refused_t_us < 1000000) {
		s->refused_quiet++;
		return;
	}
	sv_sa_name(ss, name, sizeof(name));
	if (!full) {
		sv_log(s, "refused %s: %s (%u clients)", name, why,
		       s->nconns);
		return;
	}
	sv_log(s, "refused %s: %s (%u clients; %ld more refused in the "
	          "last second)",
	       name, why, s->nconns, s->refused_quiet);
	s->refused_t_us = mono_now_us();
	s->refused_quiet = 0;
}

/* Accepts pending clients; sv_admit decides who gets a slot (per-address
 * caps, eviction when full); the refused get an ERROR frame. */
static void on_accept(struct server *s)
{
	for (int i = 0; i < 64; i++) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		const char *why;
		int fd;

		fd = accept4(s->tcp.fd, (struct sockaddr *)&ss, &sl,
		             SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno != EAGAIN && errno != EINTR &&
			    errno != ECONNABORTED)
				sv_log(s, "accept: %s", strerror(errno));
			return;
		}
		if (sv_admit(s, &ss, &why) < 0) {
			refuse(s, fd, &ss, why,
			       strncmp(why, "too many clients", 16) == 0);
			continue;
		}
		if (sv_adopt(s, fd, &ss, sl) < 0)
			continue;
		if (s->o.verbose) {
			char name[INET6_ADDRSTRLEN + 8];

			sv_sa_name(&ss, name, sizeof(name));
			sv_log(s, "client %s (%u connected)", name,
			       s->nconns);
		}
	}
}

/* Expires temporary listeners, connect-backs, stuck and idle clients.
 * Returns the milliseconds until the next thing is due (at most 1000). */
static int serve_timers(struct server *s)
{
	long long now = mono_now_us(), next = now + 1000000;
	const char *why;

	for (unsigned i = 0; i < SERVE_MAX_TEMP; i++) {
		struct temp *t = &s->temps[i];

		if (t->ev.fd < 0)
			continue;
		if (t->expires_us <= now)
			sv_temp_close(s, t);
		else if (t->expires_us < next)
			next = t->expires_us;
	}
	for (unsigned i = 0; i < s->o.max_clients; i++) {
		struct conn *c = s->conns[i];

		if (!c)
			continue;
		if (c->job && c->job->deadline_us <= now)
			sv_cb_finish(s, c);
		else if (c->job && c->job->deadline_us < next)
			next = c->job->deadline_us;
		why = c->dead ? NULL : sv_conn_due(c, now, &next);
		if (why)
			sv_conn_drop(s, c, NULL, why);
	}
	return (int)((next - now + 999) / 1000);
}

/* Opens the TCP and UDP sockets on the serve port and registers them.
 * Returns 0, or -1 with err filled. */
static int serve_open(struct server *s, char *err, size_t errlen)
{
	int one = 1, fd, e;

	s->family = AF_INET6;
	fd = s->o.bind ? -1 : socket(AF_INET6, SOCK_DGRAM, 0);
	if (fd < 0)
		s->family = AF_INET;
	else
		close(fd);
	s->tcp.kind = EV_TCP_LISTEN;
	s->tcp.fd = sv_bind_socket(s, SOCK_STREAM, s->o.port);
	if (s->tcp.fd < 0 && !s->o.bind && s->family == AF_INET6 &&
	    errno == EAFNOSUPPORT) {
		s->family = AF_INET;
		s->tcp.fd = sv_bind_socket(s, SOCK_STREAM, s->o.port);
	}
	if (s->tcp.fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot listen on tcp port '%u': %s",
		         s->o.port, strerror(e));
		errno = e; /* the caller names a holder on EADDRINUSE */
		return -1;
	}
	s->udp.kind = EV_UDP;
	s->udp.fd = sv_bind_socket(s, SOCK_DGRAM, s->o.port);
	if (s->udp.fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot bind udp port '%u': %s",
		         s->o.port, strerror(e));
		errno = e;
		return -1;
	}
	setsockopt(s->udp.fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one));
	setsockopt(s->udp.fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, &one,
	           sizeof(one));
	/* the kernel's receive time, for the timed echo's held_us; without
	 * it the held time is not told, never guessed */
	setsockopt(s->udp.fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	if (sv_ep_add(s, &s->tcp, EPOLLIN) < 0 ||
	    sv_ep_add(s, &s->udp, EPOLLIN) < 0) {
		snprintf(err, errlen, "epoll: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Everything before the loop, in the order the errors are worth telling:
 * bind address, token, then the sockets. */
struct server *serve_start(const struct serve_opts *o, char *err, size_t errlen)
{
	struct server *s = calloc(1, sizeof(*s));
	int e;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->o = *o;
	s->ep = s->tcp.fd = s->udp.fd = -1;
	for (unsigned i = 0; i < SERVE_MAX_TEMP; i++)
		s->temps[i].ev.fd = -1;
	if (s->o.bind) {
		struct sockaddr_storage ss;
		socklen_t sl;
		char why[CLIENT_ERR_MAX];

		if (client_resolve(s->o.bind, s->o.port, SOCK_STREAM, &ss, &sl,
		                   why, sizeof(why)) < 0) {
			snprintf(err, errlen, "invalid bind address '%s': %s",
			         s->o.bind, why);
			goto fail;
		}
		s->family = ss.ss_family;
	}
	if (s->o.token_file) {
		if (auth_load(s->o.token_file, &s->key) < 0) {
			snprintf(err, errlen, "cannot read token file '%s': %s",
			         s->o.token_file,
			         errno == EINVAL
			             ? "needs one line of 8 to 256 bytes"
			             : strerror(errno));
			goto fail;
		}
		s->have_key = true;
	}
	if (gethostname(s->node, sizeof(s->node)) < 0)
		snprintf(s->node, sizeof(s->node), "unknown");
	s->node[PROTO_NODE_MAX] = '\0';
	for (char *p = s->node; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			*p = '?';
	s->o.max_clients = sv_fd_budget(s->o.max_clients);
	s->conns = calloc(s->o.max_clients, sizeof(*s->conns));
	s->ep = epoll_create1(EPOLL_CLOEXEC);
	if (!s->conns || s->ep < 0) {
		snprintf(err, errlen, "cannot start: %s", strerror(errno));
		goto fail;
	}
	if (serve_open(s, err, errlen) < 0)
		goto fail;
	return s;
fail:
	e = errno;
	serve_free(s);
	errno = e;
	return NULL;
}

/* One batch: timers, the wait, every event to its owner, then the memory
 * of what closed during the batch freed. */
int serve_poll(struct server *s, int max_ms, const sigset_t *sigmask)
{
	struct epoll_event evs[128];
	int ms = serve_timers(s), n;

	if (max_ms >= 0 && max_ms < ms)
		ms = max_ms;
	sv_reap(s);
	n = epoll_pwait(s->ep, evs, 128, ms, sigmask);
	if (n < 0)
		return errno == EINTR ? 0 : -1;
	for (int i = 0; i < n; i++) {
		struct ev *e = evs[i].data.ptr;

		switch (e->kind) {
		case EV_TCP_LISTEN:
			on_accept(s);
			break;
		case EV_UDP:
			sv_udp_read(s);
			break;
		case EV_TEMP:
			if (e->fd >= 0)
				sv_temp_event(s, (struct temp *)e);
			break;
		case EV_CB:
			sv_cb_event(s, (struct cb_sock *)e);
			break;
		case EV_CONN: {
			struct conn *c = (struct conn *)e;

			if (c->dead)
				break;
			if (evs[i].events & EPOLLOUT)
				sv_conn_flush(s, c);
			if (!c->dead &&
			    (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP)))
				sv_client_read(s, c);
			break;
		}
		}
	}
	sv_reap(s);
	return 0;
}

/* Closes every socket and frees everything, s too. Safe on NULL and on a
 * half-built server. */
void serve_free(struct server *s)
{
	if (!s)
		return;
	for (unsigned i = 0; s->conns && i < s->o.max_clients; i++)
		if (s->conns[i])
			sv_conn_close(s, s->conns[i], NULL);
	sv_reap(s);
	for (unsigned i = 0; i < SERVE_MAX_TEMP; i++)
		sv_temp_close(s, &s->temps[i]);
	if (s->tcp.fd >= 0)
		close(s->tcp.fd);
	if (s->udp.fd >= 0)
		close(s->udp.fd);
	if (s->ep >= 0)
		close(s->ep);
	free(s->conns);
	explicit_bzero(&s->key, sizeof(s->key));
	free(s);
}
