/* The client's connection and framing: connect, send and receive whole
 * frames, each bounded by a deadline (poll on non-blocking sockets), and
 * foreign replies recognised. The requests themselves live in the other
 * client_*.c files. */
#include "wire/client_conn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"

#define CLIENT_BUF (PROTO_HDR_LEN + PROTO_MAX_PAYLOAD)

/* See client_conn.h. */
long long client_us_since_stamp(const struct timespec *rx)
{
	struct timespec now;
	long long us;

	if (rx == NULL || (rx->tv_sec == 0 && rx->tv_nsec == 0) ||
	    clock_gettime(CLOCK_REALTIME, &now) < 0)
		return -1;
	us = (long long)(now.tv_sec - rx->tv_sec) * 1000000LL +
	     (now.tv_nsec - rx->tv_nsec) / 1000;
	return us >= 0 ? us : -1;
}

/* Records a failure in c and returns -1, so that callers can return it. */
int client_fail(struct np_client *c, enum client_code code, const char *fmt,
                ...)
{
	va_list ap;

	c->code = code;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* Sends all of buf before the deadline. Returns 0, or -1 with c set. */
static int client_send_all(struct np_client *c, const uint8_t *buf, size_t len,
                           long long deadline_us)
{
	size_t off = 0;

	while (off < len) {
		ssize_t w = send(c->fd, buf + off, len - off,
		                 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w > 0) {
			off += (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR)
			return client_fail(c,
			                   errno == EPIPE || errno == ECONNRESET
			                       ? CLIENT_E_CLOSED
			                       : CLIENT_E_IO,
			                   "send to %s:%u: %s", c->addr,
			                   c->port, strerror(errno));
		int r = sock_wait(c->fd, POLLOUT, deadline_us);

		if (r == 0)
			return client_fail(
			    c, CLIENT_E_TIMEOUT,
			    "responder at %s:%u did not take the "
			    "request in time",
			    c->addr, c->port);
		if (r < 0)
			return client_fail(c, CLIENT_E_IO, "poll: %s",
			                   strerror(errno));
	}
	return 0;
}

/* Reads exactly len bytes into buf before the deadline. Returns the bytes
 * read (len), fewer when the peer closed, or -1 with c set on timeout or
 * error. */
static ssize_t recv_exact(struct np_client *c, uint8_t *buf, size_t len,
                          long long deadline_us, size_t *got)
{
	long long start_us = mono_now_us();

	*got = 0;
	while (*got < len) {
		ssize_t r = recv(c->fd, buf + *got, len - *got, MSG_DONTWAIT);

		if (r > 0) {
			*got += (size_t)r;
			continue;
		}
		if (r == 0)
			return (ssize_t)*got;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return client_fail(c,
			                   errno == ECONNRESET ? CLIENT_E_CLOSED
			                                       : CLIENT_E_IO,
			                   "receive from %s:%u: %s", c->addr,
			                   c->port, strerror(errno));
		int w = sock_wait(c->fd, POLLIN, deadline_us);

		if (w == 0)
			return client_fail(
			    c, CLIENT_E_TIMEOUT,
			    "responder at %s:%u did not answer within "
			    "%.3gs",
			    c->addr, c->port,
			    /* the wait this call had (a mesh member waits
			     * minutes for node 0), not the per-call timeout */
			    (double)(mono_now_us() - start_us) / 1e6);
		if (w < 0)
			return client_fail(c, CLIENT_E_IO, "poll: %s",
			                   strerror(errno));
	}
	return (ssize_t)*got;
}

/* The error for a peer whose first bytes are not a frame header. */
static int foreign(struct np_client *c, const uint8_t *p, size_t n)
{
	char shown[48];

	proto_printable(p, n, shown, sizeof(shown));
	return client_fail(
	    c, CLIENT_E_PROTOCOL,
	    "peer at %s:%u does not speak netprobe protocol (got "
	    "'%s')",
	    c->addr, c->port, shown);
}

/* Reads one frame into c->buf. Returns its type with *len the payload
 * length, or -1 with c set. An ERROR frame is turned into -1 with
 * CLIENT_E_REFUSED and the responder's message. */
int client_recv_frame(struct np_client *c, size_t *len, long long deadline_us)
{
	struct proto_hdr h;
	const char *why;
	size_t got;
	ssize_t r;

	r = recv_exact(c, c->buf, PROTO_HDR_LEN, deadline_us, &got);
	if (r < 0) {
		if (got > 0 && got < 4)
			return foreign(c, c->buf, got);
		if (got >= 4 && memcmp(c->buf, "NPRB", 4) != 0)
			return foreign(c, c->buf, got);
		return -1;
	}
	if (got < PROTO_HDR_LEN) {
		if (got > 0 && (got < 4 || memcmp(c->buf, "NPRB", 4) != 0))
			return foreign(c, c->buf, got);
		return client_fail(c, CLIENT_E_CLOSED,
		                   "responder at %s:%u closed the connection",
		                   c->addr, c->port);
	}
	if (proto_hdr_decode(c->buf, PROTO_HDR_LEN, &h, &why) < 0) {
		if (memcmp(c->buf, "NPRB", 4) != 0) {
			/* show a little more of what the peer said */
			size_t more = 0;
			long long short_dl = mono_now_us() + 50000;

			recv_exact(c, c->buf + PROTO_HDR_LEN, 36,
			           short_dl < deadline_us ? short_dl
			                                  : deadline_us,
			           &more);
			return foreign(c, c->buf, PROTO_HDR_LEN + more);
		}
		return client_fail(c, CLIENT_E_PROTOCOL,
		                   "responder at %s:%u sent a bad frame: %s",
		                   c->addr, c->port, why);
	}
	r = recv_exact(c, c->buf + PROTO_HDR_LEN, h.length, deadline_us, &got);
	if (r < 0)
		return -1;
	if (got < h.length)
		return client_fail(c, CLIENT_E_CLOSED,
		                   "responder at %s:%u closed the connection "
		                   "mid-frame",
		                   c->addr, c->port);
	*len = h.length;
	if (h.type == PROTO_ERROR) {
		struct proto_error e;

		if (proto_error_decode(c->buf + PROTO_HDR_LEN, h.length, &e,
		                       &why) < 0)
			return client_fail(
			    c, CLIENT_E_PROTOCOL,
			    "responder at %s:%u sent a bad error "
			    "frame: %s",
			    c->addr, c->port, why);
		c->err_code = e.code;
		if (e.code == PROTO_E_DROPPED)
			return client_fail(c, CLIENT_E_DROPPED,
			                   "the responder at %s:%u dropped us: "
			                   "%s",
			                   c->addr, c->port, e.msg);
		return client_fail(c, CLIENT_E_REFUSED,
		                   "responder at %s:%u refused: "
		                   "%s (%s)",
		                   c->addr, c->port, e.msg,
		                   proto_err_name(e.code));
	}
	return h.type;
}

/* Sends one frame whose payload already sits at c->buf + PROTO_HDR_LEN. */
int client_send_frame(struct np_client *c, uint8_t type, size_t len,
                      long long deadline_us)
{
	proto_hdr_encode(c->buf, type, 0, (uint32_t)len);
	return client_send_all(c, c->buf, PROTO_HDR_LEN + len, deadline_us);
}

/* Sends a request and waits for a reply of type want, skipping stale echo
 * replies of a pipelined heartbeat. Returns the payload length, or -1. */
ssize_t client_call(struct np_client *c, uint8_t type, size_t len, uint8_t want)
{
	long long deadline = mono_now_us() + c->timeout_us;
	size_t plen;
	int t;

	if (c->fd < 0)
		return client_fail(c, CLIENT_E_USAGE, "not connected");
	c->err_code = 0;
	if (client_send_frame(c, type, len, deadline) < 0)
		return -1;
	for (int i = 0; i < 1024; i++) {
		t = client_recv_frame(c, &plen, deadline);
		if (t < 0)
			return -1;
		if (t == want)
			return (ssize_t)plen;
		if (t != PROTO_ECHO_REPLY)
			return client_fail(
			    c, CLIENT_E_PROTOCOL,
			    "responder at %s:%u answered %s to %s", c->addr,
			    c->port, proto_type_name(t), proto_type_name(type));
	}
	return client_fail(c, CLIENT_E_PROTOCOL,
	                   "responder at %s:%u floods replies", c->addr,
	                   c->port);
}

/* Binds fd to c's device and source, when set (client_connect_via).
 * Returns 0, or -1 with errno. */
static int via_bind(const struct np_client *c, int fd)
{
	struct sockaddr_storage sa;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&sa;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&sa;
	socklen_t len = 0;

	if (c->via_dev[0] != '\0' &&
	    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, c->via_dev,
	               (socklen_t)strlen(c->via_dev)) < 0)
		return -1;
	if (c->via_src[0] == '\0')
		return 0;
	memset(&sa, 0, sizeof(sa));
	if (c->peer.ss_family == AF_INET &&
	    inet_pton(AF_INET, c->via_src, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		len = sizeof(*a4);
	} else if (c->peer.ss_family == AF_INET6 &&
	           inet_pton(AF_INET6, c->via_src, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		len = sizeof(*a6);
	} else {
		errno = EAFNOSUPPORT;
		return -1;
	}
	return bind(fd, (struct sockaddr *)&sa, len);
}

/* Non-blocking connect with a deadline. Returns the socket, or -1. */
static int connect_deadline(struct np_client *c, long long deadline_us)
{
	int fd, r, soerr = 0;

	fd = socket(c->peer.ss_family,
	            SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return client_fail(c, CLIENT_E_IO, "socket: %s",
		                   strerror(errno));
	if (via_bind(c, fd) < 0 ||
	    client_bind_source(fd, c->peer.ss_family) < 0) {
		soerr = errno;
		close(fd);
		return client_fail(c, CLIENT_E_IO, "bind source: %s",
		                   strerror(soerr));
	}
	/* before the SYN, so the peer's segments are that small too */
	if (c->mss > 0)
		setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &c->mss,
		           sizeof(c->mss));
	r = sock_connect(fd, (struct sockaddr *)&c->peer, c->peerlen,
	                 deadline_us);
	if (r == 0)
		return fd;
	close(fd);
	if (r == SOCK_EXPIRED) {
		c->sys_errno = ETIMEDOUT;
		c->connect_silent = true;
		return client_fail(c, CLIENT_E_CONNECT,
		                   "cannot connect to %s:%u: timed out",
		                   c->addr, c->port);
	}
	soerr = errno;
	c->sys_errno = soerr;
	return client_fail(c, CLIENT_E_CONNECT, "cannot connect to %s:%u: %s",
	                   c->addr, c->port, strerror(soerr));
}

/* Everything of client_open up to the HELLO: the client set up, the host
 * resolved, the connection made within the timeout, our address read. */
int client_connect(struct np_client *c, const char *host, unsigned port,
                   long long timeout_us)
{
	return client_connect_mss(c, host, port, timeout_us, 0);
}

/* See client_conn.h. */
int client_connect_mss(struct np_client *c, const char *host, unsigned port,
                       long long timeout_us, int mss)
{
	return client_connect_via(c, host, port, timeout_us, mss, NULL, NULL);
}

/* See client_conn.h. */
int client_connect_via(struct np_client *c, const char *host, unsigned port,
                       long long timeout_us, int mss, const char *dev,
                       const char *src)
{
	struct sockaddr_storage local;
	socklen_t ll = sizeof(local);
	long long t0, deadline;
	int one = 1;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->timeout_us = timeout_us > 0 ? timeout_us : 2000000;
	c->port = port;
	snprintf(c->host, sizeof(c->host), "%s", host ? host : "");
	snprintf(c->via_dev, sizeof(c->via_dev), "%s", dev ? dev : "");
	snprintf(c->via_src, sizeof(c->via_src), "%s", src ? src : "");
	snprintf(c->addr, sizeof(c->addr), "%.*s", (int)sizeof(c->addr) - 1,
	         c->host);
	if (!host || !*host || port < 1 || port > 65535)
		return client_fail(c, CLIENT_E_USAGE, "invalid peer");
	c->buf = malloc(CLIENT_BUF);
	if (!c->buf)
		return client_fail(c, CLIENT_E_IO, "out of memory");
	if (client_resolve(host, port, SOCK_STREAM, &c->peer, &c->peerlen,
	                   c->err, sizeof(c->err)) < 0) {
		c->code = CLIENT_E_RESOLVE;
		return -1;
	}
	client_sa_format(&c->peer, c->addr, sizeof(c->addr), NULL);
	c->mss = mss;
	t0 = mono_now_us();
	deadline = t0 + c->timeout_us;
	c->fd = connect_deadline(c, deadline);
	if (c->fd < 0)
		return -1;
	c->connect_us = mono_now_us() - t0;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (getsockname(c->fd, (struct sockaddr *)&local, &ll) == 0)
		client_sa_format(&local, c->local_addr, sizeof(c->local_addr),
		                 &c->local_port);
	return 0;
}

/* Closes the socket and frees the frame buffer. */
void client_close(struct np_client *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	free(c->buf);
	c->buf = NULL;
}
