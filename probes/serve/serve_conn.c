/* A client connection of netprobe serve: queued replies flushed as the
 * socket takes them, ERROR frames, and the connection's end. */
#include "serve/serve_conn.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve/serve_log.h"

/* Ends a connect-back job: its sockets close now, its memory goes at the
 * end of the event batch (events already fetched may still name it). */
void sv_conn_end_job(struct server *s, struct conn *c)
{
	struct cb_job *j = c->job;

	if (!j)
		return;
	for (int i = 0; i < j->n; i++)
		if (j->socks[i].ev.fd >= 0) {
			close(j->socks[i].ev.fd);
			j->socks[i].ev.fd = -1;
			s->ncb_socks--;
		}
	j->next_dead = s->dead_jobs;
	s->dead_jobs = j;
	c->job = NULL;
}

/* Closes a connection now; its memory goes at the end of the batch. */
void sv_conn_close(struct server *s, struct conn *c, const char *why)
{
	if (c->dead)
		return;
	if (why)
		sv_log(s, "closed %s: %s", c->name, why);
	else if (s->o.verbose)
		sv_log(s, "closed %s", c->name);
	sv_conn_end_job(s, c);
	/* out of the epoll set first: a child forked meanwhile (the
	 * scan's nft, in another thread) keeps the socket open after
	 * close, and epoll would go on reporting c after it is freed */
	epoll_ctl(s->ep, EPOLL_CTL_DEL, c->ev.fd, NULL);
	close(c->ev.fd);
	c->ev.fd = -1;
	c->dead = true;
	s->conns[c->slot] = NULL;
	s->nconns--;
	c->next_dead = s->dead;
	s->dead = c;
}

/* Tells the client why in an ERROR frame (code dropped) queued behind
 * the replies already queued, gives the socket one try to take it, then
 * closes: a client learns it was dropped by the responder, not the
 * network. The frame is skipped when it does not fit (a client that does
 * not read its replies). */
void sv_conn_drop(struct server *s, struct conn *c, const char *tag,
                  const char *why)
{
	struct proto_error e = {.code = PROTO_E_DROPPED};
	uint8_t buf[PROTO_ERRMSG_MAX + 2];
	char line[PROTO_ERRMSG_MAX + 32];
	int n;

	if (c->dead)
		return;
	snprintf(e.msg, sizeof(e.msg), "%s", why);
	n = proto_error_encode(&e, buf, sizeof(buf));
	if (c->woff > 0) {
		memmove(c->wbuf, c->wbuf + c->woff, c->wlen - c->woff);
		c->wlen -= c->woff;
		c->woff = 0;
	}
	if (n >= 0 && c->wlen + PROTO_HDR_LEN + (size_t)n <= SERVE_WBUF) {
		proto_hdr_encode(c->wbuf + c->wlen, PROTO_ERROR, 0,
		                 (uint32_t)n);
		memcpy(c->wbuf + c->wlen + PROTO_HDR_LEN, buf, (size_t)n);
		c->wlen += PROTO_HDR_LEN + (size_t)n;
		while (c->woff < c->wlen) {
			ssize_t w = send(c->ev.fd, c->wbuf + c->woff,
			                 c->wlen - c->woff,
			                 MSG_NOSIGNAL | MSG_DONTWAIT);

			if (w <= 0)
				break;
			c->woff += (size_t)w;
		}
	}
	if (tag)
		snprintf(line, sizeof(line), "%s: %s", tag, why);
	else
		snprintf(line, sizeof(line), "%s", why);
	/* a FIN, not a reset, while the client may still be reading */
	shutdown(c->ev.fd, SHUT_WR);
	sv_conn_close(s, c, line);
}

/* Takes c out of the loop, its socket left open for a new owner. */
void sv_conn_detach(struct server *s, struct conn *c)
{
	if (c->dead)
		return;
	epoll_ctl(s->ep, EPOLL_CTL_DEL, c->ev.fd, NULL);
	sv_conn_end_job(s, c);
	c->ev.fd = -1;
	c->dead = true;
	s->conns[c->slot] = NULL;
	s->nconns--;
	c->next_dead = s->dead;
	s->dead = c;
}

/* Sends what is queued; arms EPOLLOUT while some remains. */
void sv_conn_flush(struct server *s, struct conn *c)
{
	while (c->woff < c->wlen) {
		ssize_t w = send(c->ev.fd, c->wbuf + c->woff, c->wlen - c->woff,
		                 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w > 0) {
			c->woff += (size_t)w;
			continue;
		}
		if (w < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		sv_conn_close(s, c, w < 0 ? strerror(errno) : "send failed");
		return;
	}
	if (c->woff == c->wlen)
		c->woff = c->wlen = 0;
	bool want = c->wlen > 0;

	if (want != c->want_out) {
		sv_ep_mod(s, &c->ev, EPOLLIN | (want ? EPOLLOUT : 0));
		c->want_out = want;
	}
}

/* Queues one frame; a client that does not read its replies is closed.
 * Returns 0, or -1 when the connection was closed. */
int sv_conn_send(struct server *s, struct conn *c, uint8_t type,
                 const uint8_t *payload, size_t len)
{
	if (c->dead)
		return -1;
	if (c->woff > 0 && c->wlen + PROTO_HDR_LEN + len > SERVE_WBUF) {
		memmove(c->wbuf, c->wbuf + c->woff, c->wlen - c->woff);
		c->wlen -= c->woff;
		c->woff = 0;
	}
	if (c->wlen + PROTO_HDR_LEN + len > SERVE_WBUF) {
		sv_conn_close(s, c, "client does not read its replies");
		return -1;
	}
	proto_hdr_encode(c->wbuf + c->wlen, type, 0, (uint32_t)len);
	if (len)
		memcpy(c->wbuf + c->wlen + PROTO_HDR_LEN, payload, len);
	c->wlen += PROTO_HDR_LEN + len;
	sv_conn_flush(s, c);
	return c->dead ? -1 : 0;
}

/* Queues an ERROR frame with code and message; the connection stays.
 * Returns 0, or -1 when the connection had to be closed. */
int sv_conn_error(struct server *s, struct conn *c, enum proto_err code,
                  const char *fmt, ...)
{
	struct proto_error e = {.code = code};
	uint8_t buf[PROTO_ERRMSG_MAX + 2];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	va_end(ap);
	n = proto_error_encode(&e, buf, sizeof(buf));
	serve_stats_rejected(&s->st, code);
	if (s->o.verbose)
		sv_log(s, "%s: refused: %s", c->name, e.msg);
	return n < 0 ? -1 : sv_conn_send(s, c, PROTO_ERROR, buf, (size_t)n);
}

/* Sends an ERROR and closes: the input cannot be trusted any further. */
void sv_conn_fatal(struct server *s, struct conn *c, const char *why)
{
	sv_conn_error(s, c, PROTO_E_MALFORMED, "%s", why);
	sv_conn_close(s, c, why);
}

/* Frees the connections and connect-back jobs closed during the batch. */
void sv_reap(struct server *s)
{
	while (s->dead_jobs) {
		struct cb_job *j = s->dead_jobs;

		s->dead_jobs = j->next_dead;
		free(j);
	}
	while (s->dead) {
		struct conn *c = s->dead;

		s->dead = c->next_dead;
		free(c);
	}
}
