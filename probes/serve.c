/* netprobe serve: the responder peers probe. One epoll loop over
 * non-blocking sockets; every client, listener, request and buffer is
 * bounded; bad input closes only the connection it came on. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/errqueue.h>
#include <net/if.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "wire/client.h"
#include "commands.h"
#include "base/parse.h"
#include "kernel/portrange.h"
#include "wire/portstate.h"
#include "serve.h"
#include "base/sysroot.h"

static volatile sig_atomic_t serve_stop;

/* Only sets a flag; the loop notices it when epoll_pwait returns. */
static void on_signal(int sig)
{
	serve_stop = sig;
}

/* Rate-limited log line on stderr, so a flood of bad datagrams cannot
 * flood the log. */
__attribute__((format(printf, 2, 3))) static void slog(struct server *s,
                                                       const char *fmt, ...)
{
	long long now = client_now_us();
	va_list ap;

	if (now - s->log_t_us >= 1000000) {
		if (s->log_suppressed)
			fprintf(stderr,
			        "netprobe serve: %ld log lines "
			        "suppressed\n",
			        s->log_suppressed);
		s->log_t_us = now;
		s->log_budget = 50;
		s->log_suppressed = 0;
	}
	if (s->log_budget <= 0) {
		s->log_suppressed++;
		return;
	}
	s->log_budget--;
	fputs("netprobe serve: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Refills by elapsed time, then takes one token if there is one. */
bool serve_bucket_take(struct bucket *b, double rate, double burst,
                       long long now_us)
{
	if (b->t_us == 0) {
		b->tokens = burst;
		b->t_us = now_us;
	}
	b->tokens += (double)(now_us - b->t_us) * rate / 1e6;
	if (b->tokens > burst)
		b->tokens = burst;
	b->t_us = now_us;
	if (b->tokens < 1.0)
		return false;
	b->tokens -= 1.0;
	return true;
}

/* "addr:port" of a sockaddr, unmapping IPv4-mapped IPv6. */
static void sa_name(const struct sockaddr_storage *ss, char *out, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;

	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)ss;

		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
			inet_ntop(AF_INET, &s6->sin6_addr.s6_addr[12], a,
			          sizeof(a));
		else
			inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof(a));
		port = ntohs(s6->sin6_port);
	} else if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s4 = (const void *)ss;

		inet_ntop(AF_INET, &s4->sin_addr, a, sizeof(a));
		port = ntohs(s4->sin_port);
	}
	snprintf(out, len, "%s:%u", a, port);
}

/* Registers a handle with the loop. Returns epoll_ctl's result. */
static int ep_add(struct server *s, struct ev *e, uint32_t events)
{
	struct epoll_event ee = {.events = events, .data.ptr = e};

	return epoll_ctl(s->ep, EPOLL_CTL_ADD, e->fd, &ee);
}

/* Changes the events a handle waits for (EPOLLOUT on and off). */
static void ep_mod(struct server *s, struct ev *e, uint32_t events)
{
	struct epoll_event ee = {.events = events, .data.ptr = e};

	epoll_ctl(s->ep, EPOLL_CTL_MOD, e->fd, &ee);
}

/* ---- connections ---------------------------------------------------- */

/* Ends a connect-back job: its sockets close now, its memory goes at the
 * end of the event batch (events already fetched may still name it). */
static void cb_job_free(struct server *s, struct conn *c)
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
static void conn_close(struct server *s, struct conn *c, const char *why)
{
	if (c->dead)
		return;
	if (why)
		slog(s, "closed %s: %s", c->name, why);
	else if (s->o.verbose)
		slog(s, "closed %s", c->name);
	cb_job_free(s, c);
	close(c->ev.fd);
	c->ev.fd = -1;
	c->dead = true;
	s->conns[c->slot] = NULL;
	s->nconns--;
	c->next_dead = s->dead;
	s->dead = c;
}

/* Sends what is queued; arms EPOLLOUT while some remains. */
static void conn_flush(struct server *s, struct conn *c)
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
		conn_close(s, c, w < 0 ? strerror(errno) : "send failed");
		return;
	}
	if (c->woff == c->wlen)
		c->woff = c->wlen = 0;
	bool want = c->wlen > 0;

	if (want != c->want_out) {
		ep_mod(s, &c->ev, EPOLLIN | (want ? EPOLLOUT : 0));
		c->want_out = want;
	}
}

/* Queues one frame; a client that does not read its replies is closed.
 * Returns 0, or -1 when the connection was closed. */
static int conn_send(struct server *s, struct conn *c, uint8_t type,
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
		conn_close(s, c, "client does not read its replies");
		return -1;
	}
	proto_hdr_encode(c->wbuf + c->wlen, type, 0, (uint32_t)len);
	if (len)
		memcpy(c->wbuf + c->wlen + PROTO_HDR_LEN, payload, len);
	c->wlen += PROTO_HDR_LEN + len;
	conn_flush(s, c);
	return c->dead ? -1 : 0;
}

/* Queues an ERROR frame with code and message; the connection stays.
 * Returns 0, or -1 when the connection had to be closed. */
__attribute__((format(printf, 4, 5))) static int
conn_error(struct server *s, struct conn *c, enum proto_err code,
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
	if (s->o.verbose)
		slog(s, "%s: refused: %s", c->name, e.msg);
	return n < 0 ? -1 : conn_send(s, c, PROTO_ERROR, buf, (size_t)n);
}

/* Sends an ERROR and closes: the input cannot be trusted any further. */
static void conn_fatal(struct server *s, struct conn *c, const char *why)
{
	conn_error(s, c, PROTO_E_MALFORMED, "%s", why);
	conn_close(s, c, why);
}

/* The responder's HELLO: its node, version and this connection's limits. */
static void fill_hello(struct server *s, bool authed, struct proto_hello *h)
{
	memset(h, 0, sizeof(*h));
	h->proto_version = PROTO_VERSION;
	h->flags = (s->have_key ? PROTO_HELLO_AUTH : 0) |
	           (authed ? PROTO_HELLO_AUTHED : 0);
	h->max_ports = authed ? PROTO_MAX_PORTS : SERVE_OPEN_PORTS;
	h->max_lifetime_ms = authed ? SERVE_AUTH_LIFE_MS : SERVE_OPEN_LIFE_MS;
	snprintf(h->node, sizeof(h->node), "%s", s->node);
	snprintf(h->software, sizeof(h->software), "netprobe %s",
	         NETPROBE_VERSION);
}

/* HELLO: logs the client's, answers ours. Returns 0, or -1 if closed. */
static int on_hello(struct server *s, struct conn *c, const uint8_t *p,
                    size_t n)
{
	struct proto_hello in, out;
	uint8_t buf[160];
	const char *why;
	int len;

	if (proto_hello_decode(p, n, &in, &why) < 0) {
		conn_fatal(s, c, why);
		return -1;
	}
	if (s->o.verbose)
		slog(s, "%s: hello from '%s' (%s)", c->name, in.node,
		     in.software);
	fill_hello(s, c->authed, &out);
	len = proto_hello_encode(&out, buf, sizeof(buf));
	return conn_send(s, c, PROTO_HELLO, buf, (size_t)len);
}

/* The reflection of an address: IPv4-mapped addresses go out as IPv4. */
static void reflect_of(const struct sockaddr_storage *ss,
                       struct proto_reflect_reply *r)
{
	memset(r, 0, sizeof(*r));
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)ss;

		r->port = ntohs(s6->sin6_port);
		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
			r->family = 4;
			memcpy(r->addr, &s6->sin6_addr.s6_addr[12], 4);
		} else {
			r->family = 6;
			memcpy(r->addr, &s6->sin6_addr, 16);
		}
	} else {
		const struct sockaddr_in *s4 = (const void *)ss;

		r->family = 4;
		r->port = ntohs(s4->sin_port);
		memcpy(r->addr, &s4->sin_addr, 4);
	}
}

/* REFLECT: answers the source address and port this connection came from. */
static int on_reflect(struct server *s, struct conn *c, size_t n)
{
	struct proto_reflect_reply r;
	uint8_t buf[32];
	int len;

	if (n != 0) {
		conn_fatal(s, c, "reflect with a payload");
		return -1;
	}
	reflect_of(&c->peer, &r);
	len = proto_reflect_reply_encode(&r, buf, sizeof(buf));
	return conn_send(s, c, PROTO_REFLECT_REPLY, buf, (size_t)len);
}

/* ---- temporary listeners --------------------------------------------- */

/* Reads ip_local_port_range; zeros when it cannot be read. */
static void local_range(unsigned *lo, unsigned *hi)
{
	struct sysroot sr;

	if (sysroot_init(&sr, NULL) < 0 || port_range_read(&sr, lo, hi) < 0)
		*lo = *hi = 0;
}

/* A socket of the listening family bound to the serve address and port.
 * Returns the fd, or -1 with errno. */
static int bind_socket(struct server *s, int type, unsigned port)
{
	struct sockaddr_storage ss = {0};
	socklen_t sl;
	int fd, one = 1, zero = 0;

	if (s->o.bind) {
		char err[CLIENT_ERR_MAX];

		if (client_resolve(s->o.bind, port, type, &ss, &sl, err,
		                   sizeof(err)) < 0) {
			errno = EADDRNOTAVAIL;
			return -1;
		}
	} else if (s->family == AF_INET6) {
		struct sockaddr_in6 *s6 = (void *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_any;
		s6->sin6_port = htons((uint16_t)port);
		sl = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (void *)&ss;

		s4->sin_family = AF_INET;
		s4->sin_addr.s_addr = htonl(INADDR_ANY);
		s4->sin_port = htons((uint16_t)port);
		sl = sizeof(*s4);
	}
	fd = socket(ss.ss_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (type == SOCK_STREAM)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, (struct sockaddr *)&ss, sl) < 0 ||
	    (type == SOCK_STREAM && listen(fd, 64) < 0)) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Closes a temporary listener and frees its slot. */
static void temp_close(struct server *s, struct temp *t)
{
	if (t->ev.fd < 0)
		return;
	close(t->ev.fd);
	t->ev.fd = -1;
	s->ntemps--;
}

/* Opens one temporary listener. Returns a PROTO_LS_* status. */
static uint8_t temp_open(struct server *s, uint8_t proto, uint16_t port,
                         long long expires_us)
{
	struct temp *t = NULL;
	int fd;

	for (unsigned i = 0; i < SERVE_MAX_TEMP; i++) {
		struct temp *x = &s->temps[i];

		if (x->ev.fd >= 0 && x->proto == proto && x->port == port) {
			/* already open: extend it */
			if (x->expires_us < expires_us)
				x->expires_us = expires_us;
			return PROTO_LS_OPENED;
		}
		if (x->ev.fd < 0 && !t)
			t = x;
	}
	if (!t)
		return PROTO_LS_LIMIT;
	if (port == s->o.port)
		return PROTO_LS_OPENED; /* the responder itself listens */
	fd =
	    bind_socket(s, proto == PROTO_TCP ? SOCK_STREAM : SOCK_DGRAM, port);
	if (fd < 0)
		return errno == EADDRINUSE ? PROTO_LS_IN_USE
		       : errno == EACCES   ? PROTO_LS_DENIED
		                           : PROTO_LS_FAILED;
	t->ev.kind = EV_TEMP;
	t->ev.fd = fd;
	t->proto = proto;
	t->port = port;
	t->expires_us = expires_us;
	if (ep_add(s, &t->ev, EPOLLIN) < 0) {
		close(fd);
		t->ev.fd = -1;
		return PROTO_LS_FAILED;
	}
	s->ntemps++;
	return PROTO_LS_OPENED;
}

/* Accepts and drops TCP connections (the handshake was the proof), or
 * answers a UDP datagram with an ECHO_REPLY frame. */
static void temp_event(struct server *s, struct temp *t)
{
	if (t->proto == PROTO_TCP) {
		for (int i = 0; i < 64; i++) {
			int fd = accept4(t->ev.fd, NULL, NULL, SOCK_CLOEXEC);

			if (fd < 0)
				break;
			close(fd);
		}
		return;
	}
	for (int i = 0; i < 64; i++) {
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		uint8_t in[512], out[PROTO_HDR_LEN + 512];
		struct proto_hdr h;
		const char *why;
		const uint8_t *pl = in;
		size_t plen;
		ssize_t n = recvfrom(t->ev.fd, in, sizeof(in), MSG_DONTWAIT,
		                     (struct sockaddr *)&from, &fl);

		if (n < 0)
			break;
		if (!serve_bucket_take(&s->udp_bucket, SERVE_UDP_RATE,
		                       SERVE_UDP_RATE, client_now_us()))
			continue;
		plen = (size_t)n < 64 ? (size_t)n : 64;
		if (proto_hdr_decode(in, (size_t)n, &h, &why) == 0 &&
		    h.type == PROTO_ECHO &&
		    h.length == (size_t)n - PROTO_HDR_LEN) {
			pl = in + PROTO_HDR_LEN;
			plen = h.length;
		}
		proto_hdr_encode(out, PROTO_ECHO_REPLY, 0, (uint32_t)plen);
		memcpy(out + PROTO_HDR_LEN, pl, plen);
		sendto(t->ev.fd, out, PROTO_HDR_LEN + plen, MSG_DONTWAIT,
		       (struct sockaddr *)&from, fl);
	}
}

/* Policy for this connection: ports per request and longest times. */
static int conn_limits(struct server *s, struct conn *c, unsigned *max_ports,
                       uint32_t *max_life, uint32_t *max_cb)
{
	if (s->have_key && !c->authed) {
		conn_error(s, c, PROTO_E_AUTH_REQUIRED,
		           "this responder needs a token for listen and "
		           "connect-back");
		return -1;
	}
	*max_ports = c->authed ? PROTO_MAX_PORTS : SERVE_OPEN_PORTS;
	*max_life = c->authed ? SERVE_AUTH_LIFE_MS : SERVE_OPEN_LIFE_MS;
	*max_cb = c->authed ? SERVE_AUTH_CB_MS : SERVE_OPEN_CB_MS;
	if (!serve_bucket_take(&c->heavy, SERVE_HEAVY_RATE,
	                       2 * SERVE_HEAVY_RATE, client_now_us())) {
		conn_error(s, c, PROTO_E_LIMIT, "too many requests");
		return -1;
	}
	return 0;
}

/* LISTEN: opens temporary listeners on the ports given, or on samples
 * of ip_local_port_range, within this connection's limits. Returns 0, or
 * -1 when the connection was closed. */
static int on_listen(struct server *s, struct conn *c, const uint8_t *p,
                     size_t n)
{
	struct proto_listen req;
	struct proto_listen_reply *rep;
	unsigned max_ports, lo, hi;
	uint32_t max_life, max_cb, life;
	long long expires;
	const char *why;
	uint8_t *buf;
	int len, rc = -1;

	if (proto_listen_decode(p, n, &req, &why) < 0) {
		conn_fatal(s, c, why);
		return -1;
	}
	if (conn_limits(s, c, &max_ports, &max_life, &max_cb) < 0)
		return 0;
	if (req.nports > max_ports)
		return conn_error(s, c, PROTO_E_REFUSED,
		                  "at most %u ports per request", max_ports);
	life = req.lifetime_ms ? req.lifetime_ms : SERVE_DEF_LIFE_MS;
	if (life > max_life)
		life = max_life;
	expires = client_now_us() + (long long)life * 1000;
	rep = calloc(1, sizeof(*rep));
	buf = malloc(PROTO_MAX_PORTS * 3 + 16);
	if (!rep || !buf) {
		rc = conn_error(s, c, PROTO_E_INTERNAL, "out of memory");
		goto out;
	}
	local_range(&lo, &hi);
	rep->proto = req.proto;
	rep->lifetime_ms = life;
	rep->range_lo = (uint16_t)lo;
	rep->range_hi = (uint16_t)hi;
	if (req.flags & PROTO_LISTEN_EPHEMERAL) {
		/* samples at both ends: lo, hi, lo+1, hi-1, ...; busy ports
		 * are skipped, at most four tries per sample */
		unsigned want = req.nports, got = 0, tries = 0;
		unsigned a = lo, b = hi;

		while (lo && got < want && tries < 4 * want && a <= b &&
		       rep->nports < PROTO_MAX_PORTS) {
			unsigned port = (tries % 2 == 0) ? a++ : b--;
			uint8_t st =
			    temp_open(s, req.proto, (uint16_t)port, expires);

			tries++;
			if (st == PROTO_LS_IN_USE)
				continue;
			rep->ports[rep->nports] = (uint16_t)port;
			rep->status[rep->nports++] = st;
			if (st == PROTO_LS_OPENED)
				got++;
			if (st == PROTO_LS_LIMIT)
				break;
		}
	} else {
		for (unsigned i = 0; i < req.nports; i++) {
			rep->ports[i] = req.ports[i];
			rep->status[i] =
			    temp_open(s, req.proto, req.ports[i], expires);
		}
		rep->nports = req.nports;
	}
	if (s->o.verbose)
		slog(s, "%s: listen %s on %u ports for %ums", c->name,
		     req.proto == PROTO_TCP ? "tcp" : "udp", rep->nports, life);
	len = proto_listen_reply_encode(rep, buf, PROTO_MAX_PORTS * 3 + 16);
	rc = len < 0 ? -1
	             : conn_send(s, c, PROTO_LISTEN_REPLY, buf, (size_t)len);
out:
	free(rep);
	free(buf);
	return rc;
}

/* ---- connect-back ---------------------------------------------------- */

/* Sends the reply of a finished connect-back job and frees it. */
static void cb_finish(struct server *s, struct conn *c)
{
	struct cb_job *j = c->job;
	size_t cap = (size_t)j->n * (7 + 1 + PROTO_REASON_MAX) + 8;
	uint8_t *buf = malloc(cap);
	int len;

	for (int i = 0; i < j->n; i++)
		if (j->socks[i].ev.fd >= 0) {
			struct proto_cb_result *r = &j->reply.r[i];

			r->state = PORT_FILTERED;
			snprintf(r->reason, sizeof(r->reason), "timeout");
		}
	j->reply.nports = j->n;
	j->reply.proto = j->proto;
	if (!buf) {
		cb_job_free(s, c);
		conn_error(s, c, PROTO_E_INTERNAL, "out of memory");
		return;
	}
	len = proto_connect_back_reply_encode(&j->reply, buf, cap);
	cb_job_free(s, c);
	if (len >= 0)
		conn_send(s, c, PROTO_CONNECT_BACK_REPLY, buf, (size_t)len);
	free(buf);
}

/* Settles one connect-back socket from its error. */
static void cb_settle(struct server *s, struct conn *c, int i, int err)
{
	struct cb_job *j = c->job;
	struct cb_sock *k = &j->socks[i];
	struct proto_cb_result *r = &j->reply.r[i];
	enum port_state st = PORT_UNREACHABLE;
	char reason[CLIENT_REASON_MAX];

	r->rtt_us = (uint32_t)(client_now_us() - j->start_us);
	if (err == 0) {
		st = PORT_OPEN;
		snprintf(reason, sizeof(reason), "syn-ack");
	} else if (err == ECONNREFUSED) {
		st = PORT_CLOSED;
		snprintf(reason, sizeof(reason), "rst");
	} else {
		char cbuf[512];
		uint8_t dummy[16];
		struct iovec iov = {dummy, sizeof(dummy)};
		struct msghdr mh = {.msg_iov = &iov,
		                    .msg_iovlen = 1,
		                    .msg_control = cbuf,
		                    .msg_controllen = sizeof(cbuf)};
		bool icmp = false;

		snprintf(reason, sizeof(reason), "%s", strerror(err));
		if (recvmsg(k->ev.fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0)
			for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm;
			     cm = CMSG_NXTHDR(&mh, cm)) {
				struct sock_extended_err ee;

				if (cm->cmsg_type != IP_RECVERR &&
				    cm->cmsg_type != IPV6_RECVERR)
					continue;
				memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
				if (ee.ee_origin != SO_EE_ORIGIN_ICMP &&
				    ee.ee_origin != SO_EE_ORIGIN_ICMP6)
					continue;
				icmp = true;
				snprintf(reason, sizeof(reason),
				         "icmp%s type %u code %u",
				         ee.ee_origin == SO_EE_ORIGIN_ICMP6
				             ? "6"
				             : "",
				         ee.ee_type, ee.ee_code);
				if (ee.ee_origin == SO_EE_ORIGIN_ICMP
				        ? (ee.ee_code == 9 ||
				           ee.ee_code == 10 || ee.ee_code == 13)
				        : ee.ee_code == 1)
					st = PORT_PROHIBITED;
				break;
			}
		if (!icmp && (err == ETIMEDOUT))
			st = PORT_FILTERED;
		r->rtt_us = 0xffffffffu;
	}
	r->state = (uint8_t)st;
	snprintf(r->reason, sizeof(r->reason), "%s", reason);
	close(k->ev.fd);
	k->ev.fd = -1;
	s->ncb_socks--;
	if (--j->pending == 0)
		cb_finish(s, c);
}

/* A connect-back socket became writable: its SO_ERROR settles it. */
static void cb_event(struct server *s, struct cb_sock *k)
{
	int err = 0;
	socklen_t el = sizeof(err);

	if (k->ev.fd < 0 || k->owner->dead || !k->owner->job)
		return;
	if (getsockopt(k->ev.fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0)
		err = errno;
	cb_settle(s, k->owner, k->idx, err);
}

/* CONNECT_BACK: starts non-blocking connects to the requester's own
 * address on each port; the reply goes when all settled or at the
 * deadline. Returns 0, or -1 when the connection was closed. */
static int on_connect_back(struct server *s, struct conn *c, const uint8_t *p,
                           size_t n)
{
	struct proto_connect_back req;
	unsigned max_ports;
	uint32_t max_life, max_cb, tmo;
	struct cb_job *j;
	const char *why;
	int one = 1;

	if (proto_connect_back_decode(p, n, &req, &why) < 0) {
		conn_fatal(s, c, why);
		return -1;
	}
	if (conn_limits(s, c, &max_ports, &max_life, &max_cb) < 0)
		return 0;
	if (req.proto != PROTO_TCP)
		return conn_error(s, c, PROTO_E_UNSUPPORTED,
		                  "connect-back tests TCP only; use listen "
		                  "for UDP");
	if (req.nports > max_ports)
		return conn_error(s, c, PROTO_E_REFUSED,
		                  "at most %u ports per request", max_ports);
	if (c->job)
		return conn_error(s, c, PROTO_E_BUSY,
		                  "a connect-back is already running");
	if (s->ncb_socks + req.nports > SERVE_MAX_CB_SOCKS)
		return conn_error(s, c, PROTO_E_LIMIT,
		                  "too many connect-backs at once");
	tmo = req.timeout_ms ? req.timeout_ms : 2000;
	if (tmo > max_cb)
		tmo = max_cb;
	j = calloc(1, sizeof(*j));
	if (!j)
		return conn_error(s, c, PROTO_E_INTERNAL, "out of memory");
	c->job = j;
	j->proto = req.proto;
	j->n = req.nports;
	j->start_us = client_now_us();
	j->deadline_us = j->start_us + (long long)tmo * 1000;
	for (int i = 0; i < j->n; i++)
		j->socks[i].ev.fd = -1;
	if (s->o.verbose)
		slog(s, "%s: connect-back on %u ports within %ums", c->name,
		     j->n, tmo);
	for (int i = 0; i < j->n; i++) {
		/* only ever the address the request came from */
		struct sockaddr_storage to = c->peer;
		struct cb_sock *k = &j->socks[i];
		struct proto_cb_result *r = &j->reply.r[i];
		int fd;

		r->port = req.ports[i];
		r->rtt_us = 0xffffffffu;
		if (to.ss_family == AF_INET6)
			((struct sockaddr_in6 *)&to)->sin6_port =
			    htons(req.ports[i]);
		else
			((struct sockaddr_in *)&to)->sin_port =
			    htons(req.ports[i]);
		fd = socket(to.ss_family,
		            SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			r->state = PORT_UNKNOWN;
			snprintf(r->reason, sizeof(r->reason), "socket: %s",
			         strerror(errno));
			continue;
		}
		if (to.ss_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &one,
			           sizeof(one));
		setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
		k->ev.kind = EV_CB;
		k->ev.fd = fd;
		k->owner = c;
		k->idx = i;
		s->ncb_socks++;
		j->pending++;
		if (connect(fd, (struct sockaddr *)&to, c->peerlen) == 0 ||
		    errno != EINPROGRESS) {
			int e = errno;

			if (e == EINPROGRESS)
				e = 0;
			/* settled at once; cb_settle may finish the job,
			 * so keep one pending until the loop is done */
			j->pending++;
			cb_settle(s, c, i, e);
			j->pending--;
			continue;
		}
		if (ep_add(s, &k->ev, EPOLLOUT) < 0) {
			j->pending++;
			cb_settle(s, c, i, errno);
			j->pending--;
		}
	}
	if (j->pending == 0)
		cb_finish(s, c);
	return c->dead ? -1 : 0;
}

/* ---- authentication --------------------------------------------------- */

static int on_auth_challenge(struct server *s, struct conn *c, size_t n)
{
	if (n != 0) {
		conn_fatal(s, c, "challenge request with a payload");
		return -1;
	}
	if (!s->have_key)
		return conn_error(s, c, PROTO_E_UNSUPPORTED,
		                  "this responder has no token");
	if (!serve_bucket_take(&c->heavy, SERVE_HEAVY_RATE,
	                       2 * SERVE_HEAVY_RATE, client_now_us()))
		return conn_error(s, c, PROTO_E_LIMIT, "too many requests");
	if (auth_nonce(c->nonce) < 0)
		return conn_error(s, c, PROTO_E_INTERNAL, "no random nonce");
	c->nonce_set = true;
	return conn_send(s, c, PROTO_AUTH_CHALLENGE, c->nonce, PROTO_NONCE_LEN);
}

/* AUTH_RESPONSE: compares the MAC with ours in constant time; one try
 * per nonce, a wrong one closes the connection. */
static int on_auth_response(struct server *s, struct conn *c, const uint8_t *p,
                            size_t n)
{
	uint8_t mac[PROTO_MAC_LEN], want[PROTO_MAC_LEN], ok = 1;
	const char *why;

	if (proto_fixed_decode(p, n, PROTO_MAC_LEN, mac, &why) < 0) {
		conn_fatal(s, c, why);
		return -1;
	}
	if (!s->have_key || !c->nonce_set) {
		conn_fatal(s, c, "authentication response without challenge");
		return -1;
	}
	c->nonce_set = false; /* one try per nonce */
	if (auth_mac(&s->key, c->nonce, want) < 0 ||
	    !auth_mac_equal(mac, want)) {
		conn_error(s, c, PROTO_E_AUTH_FAILED, "wrong token");
		conn_close(s, c, "authentication failed");
		return -1;
	}
	c->authed = true;
	if (s->o.verbose)
		slog(s, "%s: authenticated", c->name);
	return conn_send(s, c, PROTO_AUTH_RESPONSE, &ok, 1);
}

/* Handles one whole frame from a connection. Returns 0, or -1 when the
 * connection was closed. */
static int conn_frame(struct server *s, struct conn *c,
                      const struct proto_hdr *h, const uint8_t *p)
{
	size_t n = h->length;

	switch (h->type) {
	case PROTO_HELLO:
		return on_hello(s, c, p, n);
	case PROTO_REFLECT:
		return on_reflect(s, c, n);
	case PROTO_ECHO:
		if (!serve_bucket_take(&c->echo, SERVE_ECHO_RATE,
		                       SERVE_ECHO_RATE, client_now_us()))
			return conn_error(s, c, PROTO_E_LIMIT,
			                  "echo rate above %d/s",
			                  SERVE_ECHO_RATE);
		return conn_send(s, c, PROTO_ECHO_REPLY, p, n);
	case PROTO_LISTEN:
		return on_listen(s, c, p, n);
	case PROTO_CONNECT_BACK:
		return on_connect_back(s, c, p, n);
	case PROTO_AUTH_CHALLENGE:
		return on_auth_challenge(s, c, n);
	case PROTO_AUTH_RESPONSE:
		return on_auth_response(s, c, p, n);
	case PROTO_MTU_PROBE:
		return conn_error(s, c, PROTO_E_UNSUPPORTED,
		                  "mtu probes go over UDP");
	default:
		conn_fatal(s, c, "unexpected frame type");
		return -1;
	}
}

/* Reads what the socket holds and handles every whole frame in it. */
static void conn_read(struct server *s, struct conn *c)
{
	for (int round = 0; round < 16 && !c->dead; round++) {
		size_t off = 0;
		ssize_t r = recv(c->ev.fd, c->rbuf + c->rlen,
		                 sizeof(c->rbuf) - c->rlen, MSG_DONTWAIT);

		if (r == 0) {
			conn_close(s, c, c->rlen ? "closed mid-frame" : NULL);
			return;
		}
		if (r < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			/* a reset is the client's business, not bad input */
			conn_close(s, c,
			           errno == ECONNRESET && !s->o.verbose &&
			                   c->rlen == 0
			               ? NULL
			           : c->rlen ? "reset mid-frame"
			                     : strerror(errno));
			return;
		}
		c->rlen += (size_t)r;
		c->last_us = client_now_us();
		while (!c->dead && c->rlen - off >= PROTO_HDR_LEN) {
			struct proto_hdr h;
			const char *why;

			if (proto_hdr_decode(c->rbuf + off, c->rlen - off, &h,
			                     &why) < 0) {
				conn_fatal(s, c, why);
				return;
			}
			if (h.length > SERVE_TCP_MAX_PAYLOAD) {
				conn_fatal(s, c,
				           "frame larger than 4096 "
				           "bytes");
				return;
			}
			if (c->rlen - off < PROTO_HDR_LEN + h.length)
				break;
			if (conn_frame(s, c, &h,
			               c->rbuf + off + PROTO_HDR_LEN) < 0 &&
			    c->dead)
				return;
			off += PROTO_HDR_LEN + h.length;
		}
		if (c->dead)
			return;
		memmove(c->rbuf, c->rbuf + off, c->rlen - off);
		c->rlen -= off;
		c->partial_since_us = c->rlen ? c->last_us : 0;
		if ((size_t)r < sizeof(c->rbuf))
			return;
	}
}

/* Accepts pending clients, refusing those above --max-clients with an
 * ERROR frame. */
static void on_accept(struct server *s)
{
	for (int i = 0; i < 64; i++) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		struct conn *c;
		int fd, one = 1;
		unsigned slot;

		fd = accept4(s->tcp.fd, (struct sockaddr *)&ss, &sl,
		             SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno != EAGAIN && errno != EINTR &&
			    errno != ECONNABORTED)
				slog(s, "accept: %s", strerror(errno));
			return;
		}
		if (s->nconns >= s->o.max_clients) {
			static const char msg[] = "\0\4too many clients";
			uint8_t frame[PROTO_HDR_LEN + sizeof(msg)];
			char name[INET6_ADDRSTRLEN + 8];

			proto_hdr_encode(frame, PROTO_ERROR, 0,
			                 sizeof(msg) - 1);
			memcpy(frame + PROTO_HDR_LEN, msg, sizeof(msg) - 1);
			send(fd, frame, sizeof(frame) - 1,
			     MSG_NOSIGNAL | MSG_DONTWAIT);
			close(fd);
			sa_name(&ss, name, sizeof(name));
			slog(s, "refused %s: %u clients already", name,
			     s->nconns);
			continue;
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			close(fd);
			slog(s, "out of memory for a client");
			return;
		}
		for (slot = 0; slot < s->o.max_clients && s->conns[slot];
		     slot++)
			;
		c->slot = slot;
		c->ev.kind = EV_CONN;
		c->ev.fd = fd;
		c->peer = ss;
		c->peerlen = sl;
		c->last_us = client_now_us();
		sa_name(&ss, c->name, sizeof(c->name));
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (ep_add(s, &c->ev, EPOLLIN) < 0) {
			close(fd);
			free(c);
			continue;
		}
		s->conns[slot] = c;
		s->nconns++;
		if (s->o.verbose)
			slog(s, "client %s (%u connected)", c->name, s->nconns);
	}
}

/* ---- UDP -------------------------------------------------------------- */

/* MTU of an interface by index; 0 when unknown. */
static uint32_t if_mtu(int fd, unsigned ifindex)
{
	struct ifreq ifr = {0};

	if (!ifindex || !if_indextoname(ifindex, ifr.ifr_name))
		return 0;
	if (ioctl(fd, SIOCGIFMTU, &ifr) < 0)
		return 0;
	return ifr.ifr_mtu > 0 ? (uint32_t)ifr.ifr_mtu : 0;
}

/* Answers one datagram on the responder's UDP port. */
static void udp_one(struct server *s, size_t n,
                    const struct sockaddr_storage *from, socklen_t fl,
                    unsigned ifindex, const void *dst_pktinfo, size_t pilen,
                    int pilevel, int pitype)
{
	uint8_t *in = s->udpbuf, out[PROTO_HDR_LEN + 64];
	const uint8_t *reply = out;
	size_t rlen = 0;
	struct proto_hdr h;
	const char *why;
	char cbuf[CMSG_SPACE(sizeof(struct in6_pktinfo))];
	struct iovec iov;
	struct msghdr mh = {0};
	int len;

	if (proto_hdr_decode(in, n, &h, &why) < 0 ||
	    h.length != n - PROTO_HDR_LEN) {
		char name[INET6_ADDRSTRLEN + 8];

		sa_name(from, name, sizeof(name));
		slog(s, "dropped datagram from %s: %s", name,
		     why ? why : "length mismatch");
		return;
	}
	if (!serve_bucket_take(&s->udp_bucket, SERVE_UDP_RATE, SERVE_UDP_RATE,
	                       client_now_us()))
		return;
	switch (h.type) {
	case PROTO_ECHO:
		/* the reply header goes in front of the payload in place */
		proto_hdr_encode(in, PROTO_ECHO_REPLY, 0, h.length);
		reply = in;
		rlen = n;
		break;
	case PROTO_MTU_PROBE: {
		struct proto_mtu_reply m = {.bytes = (uint32_t)n};

		if (proto_mtu_probe_decode(in + PROTO_HDR_LEN, h.length, &m.seq,
		                           &why) < 0)
			return;
		m.ifmtu = if_mtu(s->udp.fd, ifindex);
		len = proto_mtu_reply_encode(&m, out + PROTO_HDR_LEN, 64);
		proto_hdr_encode(out, PROTO_MTU_REPLY, 0, (uint32_t)len);
		rlen = PROTO_HDR_LEN + (size_t)len;
		break;
	}
	case PROTO_REFLECT: {
		struct proto_reflect_reply r;

		reflect_of(from, &r);
		len = proto_reflect_reply_encode(&r, out + PROTO_HDR_LEN, 64);
		proto_hdr_encode(out, PROTO_REFLECT_REPLY, 0, (uint32_t)len);
		rlen = PROTO_HDR_LEN + (size_t)len;
		break;
	}
	default:
		return; /* nothing else is answered over UDP */
	}
	iov.iov_base = (void *)reply;
	iov.iov_len = rlen;
	mh.msg_name = (void *)from;
	mh.msg_namelen = fl;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (dst_pktinfo && pilen) {
		/* answer from the address the datagram was sent to */
		struct cmsghdr *cm;

		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(pilen);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = pilevel;
		cm->cmsg_type = pitype;
		cm->cmsg_len = CMSG_LEN(pilen);
		memcpy(CMSG_DATA(cm), dst_pktinfo, pilen);
	}
	sendmsg(s->udp.fd, &mh, MSG_DONTWAIT);
}

/* Reads pending datagrams on the responder's UDP port with the address
 * and interface they came to, and answers each. */
static void on_udp(struct server *s)
{
	for (int i = 0; i < 64; i++) {
		struct sockaddr_storage from;
		char cbuf[256];
		struct iovec iov = {s->udpbuf, sizeof(s->udpbuf)};
		struct msghdr mh = {.msg_name = &from,
		                    .msg_namelen = sizeof(from),
		                    .msg_iov = &iov,
		                    .msg_iovlen = 1,
		                    .msg_control = cbuf,
		                    .msg_controllen = sizeof(cbuf)};
		struct in_pktinfo pi4;
		struct in6_pktinfo pi6;
		const void *pi = NULL;
		size_t pilen = 0;
		int pilevel = 0, pitype = 0;
		unsigned ifindex = 0;
		ssize_t n = recvmsg(s->udp.fd, &mh, MSG_DONTWAIT);

		if (n < 0)
			return;
		if (mh.msg_flags & MSG_TRUNC)
			continue;
		for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm;
		     cm = CMSG_NXTHDR(&mh, cm)) {
			if (cm->cmsg_level == IPPROTO_IP &&
			    cm->cmsg_type == IP_PKTINFO) {
				memcpy(&pi4, CMSG_DATA(cm), sizeof(pi4));
				ifindex = (unsigned)pi4.ipi_ifindex;
				pi4.ipi_ifindex = 0;
				pi4.ipi_spec_dst = pi4.ipi_addr;
				pi = &pi4;
				pilen = sizeof(pi4);
				pilevel = IPPROTO_IP;
				pitype = IP_PKTINFO;
			} else if (cm->cmsg_level == IPPROTO_IPV6 &&
			           cm->cmsg_type == IPV6_PKTINFO) {
				memcpy(&pi6, CMSG_DATA(cm), sizeof(pi6));
				ifindex = pi6.ipi6_ifindex;
				pi6.ipi6_ifindex = 0;
				pi = &pi6;
				pilen = sizeof(pi6);
				pilevel = IPPROTO_IPV6;
				pitype = IPV6_PKTINFO;
			}
		}
		udp_one(s, (size_t)n, &from, mh.msg_namelen, ifindex, pi, pilen,
		        pilevel, pitype);
	}
}

/* ---- the loop --------------------------------------------------------- */

/* Expires temporary listeners, connect-backs, stuck and idle clients.
 * Returns the milliseconds until the next thing is due (at most 1000). */
static int serve_timers(struct server *s)
{
	long long now = client_now_us(), next = now + 1000000;

	for (unsigned i = 0; i < SERVE_MAX_TEMP; i++) {
		struct temp *t = &s->temps[i];

		if (t->ev.fd < 0)
			continue;
		if (t->expires_us <= now)
			temp_close(s, t);
		else if (t->expires_us < next)
			next = t->expires_us;
	}
	for (unsigned i = 0; i < s->o.max_clients; i++) {
		struct conn *c = s->conns[i];

		if (!c)
			continue;
		if (c->job && c->job->deadline_us <= now)
			cb_finish(s, c);
		else if (c->job && c->job->deadline_us < next)
			next = c->job->deadline_us;
		if (c->partial_since_us &&
		    now - c->partial_since_us > SERVE_PARTIAL_S * 1000000LL)
			conn_close(s, c, "frame left unfinished");
		else if (now - c->last_us > SERVE_IDLE_S * 1000000LL)
			conn_close(s, c, "idle");
	}
	return (int)((next - now + 999) / 1000);
}

/* Frees the connections and connect-back jobs closed during the batch. */
static void free_dead(struct server *s)
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

/* Opens the TCP and UDP sockets on the serve port. Returns 0, or -1 with
 * an error printed. */
static int serve_open(struct server *s)
{
	int one = 1, fd;

	s->family = AF_INET6;
	fd = s->o.bind ? -1 : socket(AF_INET6, SOCK_DGRAM, 0);
	if (fd < 0)
		s->family = AF_INET;
	else
		close(fd);
	s->tcp.kind = EV_TCP_LISTEN;
	s->tcp.fd = bind_socket(s, SOCK_STREAM, s->o.port);
	if (s->tcp.fd < 0 && !s->o.bind && s->family == AF_INET6 &&
	    errno == EAFNOSUPPORT) {
		s->family = AF_INET;
		s->tcp.fd = bind_socket(s, SOCK_STREAM, s->o.port);
	}
	if (s->tcp.fd < 0) {
		fprintf(stderr,
		        "netprobe serve: cannot listen on tcp port "
		        "'%u': %s\n",
		        s->o.port, strerror(errno));
		return -1;
	}
	s->udp.kind = EV_UDP;
	s->udp.fd = bind_socket(s, SOCK_DGRAM, s->o.port);
	if (s->udp.fd < 0) {
		fprintf(stderr,
		        "netprobe serve: cannot bind udp port '%u': "
		        "%s\n",
		        s->o.port, strerror(errno));
		return -1;
	}
	setsockopt(s->udp.fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one));
	setsockopt(s->udp.fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, &one,
	           sizeof(one));
	if (ep_add(s, &s->tcp, EPOLLIN) < 0 ||
	    ep_add(s, &s->udp, EPOLLIN) < 0) {
		fprintf(stderr, "netprobe serve: epoll: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* The event loop, until SIGINT or SIGTERM. Returns the exit status. */
static int serve_run(struct server *s)
{
	struct epoll_event evs[128];
	sigset_t block, orig;
	struct sigaction sa = {0};

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig);
	while (!serve_stop) {
		int ms = serve_timers(s), n;

		free_dead(s);
		n = epoll_pwait(s->ep, evs, 128, ms, &orig);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "netprobe serve: epoll: %s\n",
			        strerror(errno));
			sigprocmask(SIG_SETMASK, &orig, NULL);
			return 2;
		}
		for (int i = 0; i < n; i++) {
			struct ev *e = evs[i].data.ptr;

			switch (e->kind) {
			case EV_TCP_LISTEN:
				on_accept(s);
				break;
			case EV_UDP:
				on_udp(s);
				break;
			case EV_TEMP:
				if (e->fd >= 0)
					temp_event(s, (struct temp *)e);
				break;
			case EV_CB:
				cb_event(s, (struct cb_sock *)e);
				break;
			case EV_CONN: {
				struct conn *c = (struct conn *)e;

				if (c->dead)
					break;
				if (evs[i].events & EPOLLOUT)
					conn_flush(s, c);
				if (!c->dead &&
				    (evs[i].events &
				     (EPOLLIN | EPOLLERR | EPOLLHUP)))
					conn_read(s, c);
				break;
			}
			}
		}
		free_dead(s);
	}
	sigprocmask(SIG_SETMASK, &orig, NULL);
	if (s->o.verbose)
		fprintf(stderr, "netprobe serve: stopping on signal %d\n",
		        (int)serve_stop);
	return 0;
}

/* Closes every socket and frees everything. Safe on a half-built server. */
static void serve_free(struct server *s)
{
	for (unsigned i = 0; s->conns && i < s->o.max_clients; i++)
		if (s->conns[i])
			conn_close(s, s->conns[i], NULL);
	free_dead(s);
	for (unsigned i = 0; i < SERVE_MAX_TEMP; i++)
		temp_close(s, &s->temps[i]);
	if (s->tcp.fd >= 0)
		close(s->tcp.fd);
	if (s->udp.fd >= 0)
		close(s->udp.fd);
	if (s->ep >= 0)
		close(s->ep);
	free(s->conns);
	explicit_bzero(&s->key, sizeof(s->key));
}

/* Raises the open-file limit to what max_clients needs (clients, their
 * connect-backs, temporary listeners), or lowers max_clients to what the
 * hard limit allows. Returns the max_clients to use. */
static unsigned fd_budget(unsigned want)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)want + SERVE_MAX_TEMP + SERVE_MAX_CB_SOCKS + 32;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return want;
	if (rl.rlim_cur < need) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need
		                  ? need
		                  : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur < need) {
		rlim_t spare = SERVE_MAX_TEMP + SERVE_MAX_CB_SOCKS + 32;
		unsigned n = rl.rlim_cur > spare + 16
		                 ? (unsigned)(rl.rlim_cur - spare)
		                 : 16;

		fprintf(stderr,
		        "netprobe serve: open-file limit %llu allows "
		        "%u clients, not %u\n",
		        (unsigned long long)rl.rlim_cur, n, want);
		return n < want ? n : want;
	}
	return want;
}

/* Usage on stdout for --help, on stderr for misuse. */
static void usage(FILE *fp)
{
	fprintf(fp,
	        "usage: netprobe serve [-hv] [-p port] [-b address] "
	        "[-k token-file] [-m max-clients]\n"
	        "  -p, --port N          TCP and UDP port (default %d)\n"
	        "  -b, --bind ADDR       listen on this address only "
	        "(default all)\n"
	        "  -k, --token-file F    shared secret: clients must prove "
	        "it for listen and connect-back\n"
	        "  -m, --max-clients N   clients at once (default 1024)\n"
	        "  -v, --verbose         log every client and request\n",
	        PROTO_DEFAULT_PORT);
}

/* netprobe serve: parses options, opens the sockets, runs the loop.
 * Returns 0 after a signal, 2 when it could not start. */
int cmd_serve(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"port", required_argument, NULL, 'p'},
	    {"bind", required_argument, NULL, 'b'},
	    {"token-file", required_argument, NULL, 'k'},
	    {"max-clients", required_argument, NULL, 'm'},
	    {"verbose", no_argument, NULL, 'v'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct server *s;
	const char *errstr;
	long long v;
	int ch, rc = 2;

	s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "netprobe serve: out of memory\n");
		return 2;
	}
	s->o.port = PROTO_DEFAULT_PORT;
	s->o.max_clients = 1024;
	s->ep = s->tcp.fd = s->udp.fd = -1;
	for (unsigned i = 0; i < SERVE_MAX_TEMP; i++)
		s->temps[i].ev.fd = -1;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+p:b:k:m:vh", opts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'p':
			if (parse_num(optarg, 1, 65535, &v, &errstr) < 0) {
				fprintf(stderr,
				        "netprobe serve: invalid port "
				        "'%s': %s\n",
				        optarg, errstr);
				goto out;
			}
			s->o.port = (unsigned)v;
			break;
		case 'b':
			s->o.bind = optarg;
			break;
		case 'k':
			s->o.token_file = optarg;
			break;
		case 'm':
			if (parse_num(optarg, 1, 65536, &v, &errstr) < 0) {
				fprintf(stderr,
				        "netprobe serve: invalid "
				        "max-clients '%s': %s\n",
				        optarg, errstr);
				goto out;
			}
			s->o.max_clients = (unsigned)v;
			break;
		case 'v':
			s->o.verbose++;
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		default:
			usage(stderr);
			goto out;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "netprobe serve: unexpected argument '%s'\n",
		        argv[optind]);
		usage(stderr);
		goto out;
	}
	if (s->o.bind) {
		struct sockaddr_storage ss;
		socklen_t sl;
		char err[CLIENT_ERR_MAX];

		if (client_resolve(s->o.bind, s->o.port, SOCK_STREAM, &ss, &sl,
		                   err, sizeof(err)) < 0) {
			fprintf(stderr,
			        "netprobe serve: invalid bind address "
			        "'%s': %s\n",
			        s->o.bind, err);
			goto out;
		}
		s->family = ss.ss_family;
	}
	if (s->o.token_file) {
		if (auth_load(s->o.token_file, &s->key) < 0) {
			fprintf(stderr,
			        "netprobe serve: cannot read token "
			        "file '%s': %s\n",
			        s->o.token_file,
			        errno == EINVAL
			            ? "needs one line of 8 to 256 bytes"
			            : strerror(errno));
			goto out;
		}
		s->have_key = true;
	}
	if (gethostname(s->node, sizeof(s->node)) < 0)
		snprintf(s->node, sizeof(s->node), "unknown");
	s->node[PROTO_NODE_MAX] = '\0';
	for (char *p = s->node; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			*p = '?';
	s->o.max_clients = fd_budget(s->o.max_clients);
	s->conns = calloc(s->o.max_clients, sizeof(*s->conns));
	s->ep = epoll_create1(EPOLL_CLOEXEC);
	if (!s->conns || s->ep < 0) {
		fprintf(stderr, "netprobe serve: cannot start: %s\n",
		        strerror(errno));
		goto out;
	}
	if (serve_open(s) < 0)
		goto out;
	fprintf(stderr,
	        "netprobe serve: listening on tcp and udp port %u%s%s"
	        "%s\n",
	        s->o.port, s->o.bind ? " of " : "", s->o.bind ? s->o.bind : "",
	        s->have_key ? " (token required for listen and connect-back)"
	                    : "");
	rc = serve_run(s);
out:
	serve_free(s);
	free(s);
	serve_stop = 0;
	return rc;
}
