/* Client side of the responder protocol: a deadline on every call, frames
 * read with poll and non-blocking sockets, foreign replies recognised. */
#include "wire/client.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/errqueue.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wire/auth.h"

#define CLIENT_BUF (PROTO_HDR_LEN + PROTO_MAX_PAYLOAD)

/* CLOCK_MONOTONIC in microseconds. */
long long client_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* Records a failure in c and returns -1, so callers `return fail(...)`. */
__attribute__((format(printf, 3, 4))) static int
fail(struct np_client *c, enum client_code code, const char *fmt, ...)
{
	va_list ap;

	c->code = code;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* Splits HOST[:PORT], [V6]:PORT or a bare IPv6 address; see client.h. */
int client_parse_peer(const char *spec, unsigned def_port, char *host,
                      size_t hostlen, unsigned *port, char *err, size_t errlen)
{
	const char *colon, *hend, *pstr = NULL;
	char *end;
	unsigned long v;
	size_t n;

	if (!spec || !*spec) {
		snprintf(err, errlen, "empty peer");
		return -1;
	}
	if (spec[0] == '[') {
		hend = strchr(spec, ']');
		if (!hend) {
			snprintf(err, errlen, "invalid peer '%s': missing ']'",
			         spec);
			return -1;
		}
		n = (size_t)(hend - spec - 1);
		spec++;
		if (hend[1] == ':')
			pstr = hend + 2;
		else if (hend[1] != '\0') {
			snprintf(err, errlen, "invalid peer '%s'", spec - 1);
			return -1;
		}
	} else {
		colon = strchr(spec, ':');
		if (colon && strchr(colon + 1, ':'))
			colon = NULL; /* a bare IPv6 address */
		n = colon ? (size_t)(colon - spec) : strlen(spec);
		pstr = colon ? colon + 1 : NULL;
	}
	if (n == 0 || n >= hostlen) {
		snprintf(err, errlen, "invalid peer '%s': bad host", spec);
		return -1;
	}
	memcpy(host, spec, n);
	host[n] = '\0';
	*port = def_port;
	if (pstr) {
		errno = 0;
		v = strtoul(pstr, &end, 10);
		if (!*pstr || *end || errno || v < 1 || v > 65535 ||
		    *pstr == '-' || *pstr == '+' || *pstr == ' ') {
			snprintf(err, errlen, "invalid port '%s'", pstr);
			return -1;
		}
		*port = (unsigned)v;
	}
	return 0;
}

/* getaddrinfo, first answer, retried without AI_ADDRCONFIG for
 * namespaces that have only loopback; see client.h. */
int client_resolve(const char *host, unsigned port, int socktype,
                   struct sockaddr_storage *ss, socklen_t *sslen, char *err,
                   size_t errlen)
{
	struct addrinfo hints = {0}, *res = NULL;
	char pbuf[8];
	int rc;

	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = socktype;
	hints.ai_flags = AI_ADDRCONFIG;
	snprintf(pbuf, sizeof(pbuf), "%u", port);
	rc = getaddrinfo(host, pbuf, &hints, &res);
	if (rc == EAI_ADDRFAMILY || rc == EAI_NONAME) {
		hints.ai_flags = 0; /* lab namespaces may lack addresses */
		rc = getaddrinfo(host, pbuf, &hints, &res);
	}
	if (rc != 0 || !res) {
		snprintf(err, errlen, "cannot resolve '%s': %s", host,
		         rc ? gai_strerror(rc) : "no address");
		return -1;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*sslen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/* Numeric address and port of a sockaddr. */
static void sa_format(const struct sockaddr_storage *ss, char *addr, size_t len,
                      unsigned *port)
{
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)ss;

		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
			inet_ntop(AF_INET, &s6->sin6_addr.s6_addr[12], addr,
			          (socklen_t)len);
		else
			inet_ntop(AF_INET6, &s6->sin6_addr, addr,
			          (socklen_t)len);
		if (port)
			*port = ntohs(s6->sin6_port);
	} else {
		const struct sockaddr_in *s4 = (const void *)ss;

		inet_ntop(AF_INET, &s4->sin_addr, addr, (socklen_t)len);
		if (port)
			*port = ntohs(s4->sin_port);
	}
}

/* Milliseconds left until deadline for poll, never negative. */
static int ms_left(long long deadline_us)
{
	long long left = deadline_us - client_now_us();

	if (left <= 0)
		return 0;
	return left / 1000 > 60000 ? 60000 : (int)((left + 999) / 1000);
}

/* Waits for events on fd until deadline. Returns revents, 0 on timeout,
 * -1 on error. */
static int wait_fd(int fd, short events, long long deadline_us)
{
	struct pollfd pfd = {.fd = fd, .events = events};

	for (;;) {
		int ms = ms_left(deadline_us);
		int r = poll(&pfd, 1, ms);

		if (r > 0)
			return pfd.revents;
		if (r == 0) {
			if (client_now_us() >= deadline_us)
				return 0;
			continue;
		}
		if (errno != EINTR)
			return -1;
		if (client_now_us() >= deadline_us)
			return 0;
	}
}

/* Sends all of buf before the deadline. Returns 0, or -1 with c set. */
static int send_all(struct np_client *c, const uint8_t *buf, size_t len,
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
			return fail(c,
			            errno == EPIPE || errno == ECONNRESET
			                ? CLIENT_E_CLOSED
			                : CLIENT_E_IO,
			            "send to %s:%u: %s", c->addr, c->port,
			            strerror(errno));
		int r = wait_fd(c->fd, POLLOUT, deadline_us);

		if (r == 0)
			return fail(c, CLIENT_E_TIMEOUT,
			            "responder at %s:%u did not take the "
			            "request in time",
			            c->addr, c->port);
		if (r < 0)
			return fail(c, CLIENT_E_IO, "poll: %s",
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
			return fail(c,
			            errno == ECONNRESET ? CLIENT_E_CLOSED
			                                : CLIENT_E_IO,
			            "receive from %s:%u: %s", c->addr, c->port,
			            strerror(errno));
		int w = wait_fd(c->fd, POLLIN, deadline_us);

		if (w == 0)
			return fail(c, CLIENT_E_TIMEOUT,
			            "responder at %s:%u did not answer within "
			            "%.3gs",
			            c->addr, c->port,
			            (double)c->timeout_us / 1e6);
		if (w < 0)
			return fail(c, CLIENT_E_IO, "poll: %s",
			            strerror(errno));
	}
	return (ssize_t)*got;
}

/* The error for a peer whose first bytes are not a frame header. */
static int foreign(struct np_client *c, const uint8_t *p, size_t n)
{
	char shown[48];

	proto_printable(p, n, shown, sizeof(shown));
	return fail(c, CLIENT_E_PROTOCOL,
	            "peer at %s:%u does not speak netprobe protocol (got "
	            "'%s')",
	            c->addr, c->port, shown);
}

/* Reads one frame into c->buf. Returns its type with *len the payload
 * length, or -1 with c set. An ERROR frame is turned into -1 with
 * CLIENT_E_REFUSED and the responder's message. */
static int recv_frame(struct np_client *c, size_t *len, long long deadline_us)
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
		return fail(c, CLIENT_E_CLOSED,
		            "responder at %s:%u closed the connection", c->addr,
		            c->port);
	}
	if (proto_hdr_decode(c->buf, PROTO_HDR_LEN, &h, &why) < 0) {
		if (memcmp(c->buf, "NPRB", 4) != 0) {
			/* show a little more of what the peer said */
			size_t more = 0;
			long long short_dl = client_now_us() + 50000;

			recv_exact(c, c->buf + PROTO_HDR_LEN, 36,
			           short_dl < deadline_us ? short_dl
			                                  : deadline_us,
			           &more);
			return foreign(c, c->buf, PROTO_HDR_LEN + more);
		}
		return fail(c, CLIENT_E_PROTOCOL,
		            "responder at %s:%u sent a bad frame: %s", c->addr,
		            c->port, why);
	}
	r = recv_exact(c, c->buf + PROTO_HDR_LEN, h.length, deadline_us, &got);
	if (r < 0)
		return -1;
	if (got < h.length)
		return fail(c, CLIENT_E_CLOSED,
		            "responder at %s:%u closed the connection "
		            "mid-frame",
		            c->addr, c->port);
	*len = h.length;
	if (h.type == PROTO_ERROR) {
		struct proto_error e;

		if (proto_error_decode(c->buf + PROTO_HDR_LEN, h.length, &e,
		                       &why) < 0)
			return fail(c, CLIENT_E_PROTOCOL,
			            "responder at %s:%u sent a bad error "
			            "frame: %s",
			            c->addr, c->port, why);
		c->err_code = e.code;
		return fail(c, CLIENT_E_REFUSED,
		            "responder at %s:%u refused: "
		            "%s (%s)",
		            c->addr, c->port, e.msg, proto_err_name(e.code));
	}
	return h.type;
}

/* Sends one frame whose payload already sits at c->buf + PROTO_HDR_LEN. */
static int send_frame(struct np_client *c, uint8_t type, size_t len,
                      long long deadline_us)
{
	proto_hdr_encode(c->buf, type, 0, (uint32_t)len);
	return send_all(c, c->buf, PROTO_HDR_LEN + len, deadline_us);
}

/* Sends a request and waits for a reply of type want, skipping stale echo
 * replies of a pipelined heartbeat. Returns the payload length, or -1. */
static ssize_t call(struct np_client *c, uint8_t type, size_t len, uint8_t want)
{
	long long deadline = client_now_us() + c->timeout_us;
	size_t plen;
	int t;

	if (c->fd < 0)
		return fail(c, CLIENT_E_USAGE, "not connected");
	c->err_code = 0;
	if (send_frame(c, type, len, deadline) < 0)
		return -1;
	for (int i = 0; i < 1024; i++) {
		t = recv_frame(c, &plen, deadline);
		if (t < 0)
			return -1;
		if (t == want)
			return (ssize_t)plen;
		if (t != PROTO_ECHO_REPLY)
			return fail(c, CLIENT_E_PROTOCOL,
			            "responder at %s:%u answered %s to %s",
			            c->addr, c->port, proto_type_name(t),
			            proto_type_name(type));
	}
	return fail(c, CLIENT_E_PROTOCOL, "responder at %s:%u floods replies",
	            c->addr, c->port);
}

/* Non-blocking connect with a deadline. Returns the socket, or -1. */
static int connect_deadline(struct np_client *c, long long deadline_us)
{
	int fd, r, soerr = 0;
	socklen_t sl = sizeof(soerr);

	fd = socket(c->peer.ss_family,
	            SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(c, CLIENT_E_IO, "socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&c->peer, c->peerlen) < 0) {
		if (errno != EINPROGRESS) {
			soerr = errno;
			goto bad;
		}
		r = wait_fd(fd, POLLOUT, deadline_us);
		if (r == 0) {
			close(fd);
			return fail(c, CLIENT_E_CONNECT,
			            "cannot connect to %s:%u: timed out",
			            c->addr, c->port);
		}
		if (r < 0 ||
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
			soerr = errno;
		if (soerr)
			goto bad;
	}
	return fd;
bad:
	close(fd);
	return fail(c, CLIENT_E_CONNECT, "cannot connect to %s:%u: %s", c->addr,
	            c->port, strerror(soerr));
}

/* HELLO both ways; a silent peer is named as not a responder. */
int client_hello(struct np_client *c)
{
	struct proto_hello h = {.proto_version = PROTO_VERSION};
	const char *why;
	ssize_t n;
	int len;

	if (gethostname(h.node, sizeof(h.node)) < 0)
		strcpy(h.node, "unknown");
	h.node[PROTO_NODE_MAX] = '\0';
	for (char *p = h.node; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			*p = '?';
	snprintf(h.software, sizeof(h.software), "netprobe %s",
	         NETPROBE_VERSION);
	len = proto_hello_encode(&h, c->buf + PROTO_HDR_LEN, PROTO_MAX_PAYLOAD);
	if (len < 0)
		return fail(c, CLIENT_E_USAGE, "cannot encode hello");
	n = call(c, PROTO_HELLO, (size_t)len, PROTO_HELLO);
	if (n < 0 && c->code == CLIENT_E_TIMEOUT && !c->have_hello)
		return fail(c, CLIENT_E_PROTOCOL,
		            "peer at %s:%u accepted the connection but sent "
		            "no hello within %.3gs (not a netprobe responder?)",
		            c->addr, c->port, (double)c->timeout_us / 1e6);
	if (n < 0)
		return -1;
	if (proto_hello_decode(c->buf + PROTO_HDR_LEN, (size_t)n, &c->hello,
	                       &why) < 0)
		return fail(c, CLIENT_E_PROTOCOL,
		            "responder at %s:%u sent a bad hello: %s", c->addr,
		            c->port, why);
	c->have_hello = true;
	return 0;
}

/* Challenge and response with the shared token. Returns 0, or -1. */
static int client_auth(struct np_client *c, const char *token_file)
{
	struct auth_key k;
	uint8_t nonce[PROTO_NONCE_LEN], ok;
	const char *why;
	ssize_t n;
	int rc = -1;

	if (auth_load(token_file, &k) < 0)
		return fail(c, CLIENT_E_USAGE,
		            "cannot read token file '%s': "
		            "%s",
		            token_file,
		            errno == EINVAL ? "needs one line of 8 to 256 bytes"
		                            : strerror(errno));
	n = call(c, PROTO_AUTH_CHALLENGE, 0, PROTO_AUTH_CHALLENGE);
	if (n < 0)
		goto out;
	if (proto_fixed_decode(c->buf + PROTO_HDR_LEN, (size_t)n,
	                       PROTO_NONCE_LEN, nonce, &why) < 0) {
		fail(c, CLIENT_E_PROTOCOL, "bad challenge: %s", why);
		goto out;
	}
	if (auth_mac(&k, nonce, c->buf + PROTO_HDR_LEN) < 0) {
		fail(c, CLIENT_E_IO, "hmac failed");
		goto out;
	}
	n = call(c, PROTO_AUTH_RESPONSE, PROTO_MAC_LEN, PROTO_AUTH_RESPONSE);
	if (n < 0)
		goto out;
	if (proto_fixed_decode(c->buf + PROTO_HDR_LEN, (size_t)n, 1, &ok,
	                       &why) < 0 ||
	    ok != 1) {
		fail(c, CLIENT_E_PROTOCOL, "bad authentication reply");
		goto out;
	}
	c->authed = true;
	rc = 0;
out:
	explicit_bzero(&k, sizeof(k));
	return rc;
}

/* Resolve, connect, hello and authenticate, each within the timeout. */
int client_open(struct np_client *c, const char *host, unsigned port,
                long long timeout_us, const char *token_file)
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
	snprintf(c->addr, sizeof(c->addr), "%.*s", (int)sizeof(c->addr) - 1,
	         c->host);
	if (!host || !*host || port < 1 || port > 65535)
		return fail(c, CLIENT_E_USAGE, "invalid peer");
	c->buf = malloc(CLIENT_BUF);
	if (!c->buf)
		return fail(c, CLIENT_E_IO, "out of memory");
	if (client_resolve(host, port, SOCK_STREAM, &c->peer, &c->peerlen,
	                   c->err, sizeof(c->err)) < 0) {
		c->code = CLIENT_E_RESOLVE;
		return -1;
	}
	sa_format(&c->peer, c->addr, sizeof(c->addr), NULL);
	t0 = client_now_us();
	deadline = t0 + c->timeout_us;
	c->fd = connect_deadline(c, deadline);
	if (c->fd < 0)
		return -1;
	c->connect_us = client_now_us() - t0;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (getsockname(c->fd, (struct sockaddr *)&local, &ll) == 0)
		sa_format(&local, c->local_addr, sizeof(c->local_addr),
		          &c->local_port);
	if (client_hello(c) < 0)
		return -1;
	/* a second hello learns the limits granted after authentication */
	if (token_file &&
	    (client_auth(c, token_file) < 0 || client_hello(c) < 0))
		return -1;
	return 0;
}

/* REFLECT: the address and port the responder saw. */
int client_reflect(struct np_client *c, char *addr, size_t addrlen,
                   unsigned *port)
{
	struct proto_reflect_reply r;
	const char *why;
	ssize_t n = call(c, PROTO_REFLECT, 0, PROTO_REFLECT_REPLY);

	if (n < 0)
		return -1;
	if (proto_reflect_reply_decode(c->buf + PROTO_HDR_LEN, (size_t)n, &r,
	                               &why) < 0)
		return fail(c, CLIENT_E_PROTOCOL, "bad reflect reply: %s", why);
	if (!inet_ntop(r.family == 4 ? AF_INET : AF_INET6, r.addr, addr,
	               (socklen_t)addrlen))
		return fail(c, CLIENT_E_USAGE, "address buffer too small");
	if (port)
		*port = r.port;
	return 0;
}

/* Queues one ECHO without waiting for its reply. */
int client_echo_send(struct np_client *c, const void *payload, size_t len)
{
	if (c->fd < 0)
		return fail(c, CLIENT_E_USAGE, "not connected");
	if (len > PROTO_MAX_PAYLOAD)
		return fail(c, CLIENT_E_USAGE, "echo payload too large");
	uint8_t frame[PROTO_HDR_LEN + 256];
	uint8_t *buf = len <= 256 ? frame : c->buf;

	if (len)
		memcpy(buf + PROTO_HDR_LEN, payload, len);
	proto_hdr_encode(buf, PROTO_ECHO, 0, (uint32_t)len);
	return send_all(c, buf, PROTO_HDR_LEN + len,
	                client_now_us() + c->timeout_us);
}

/* Reads one ECHO_REPLY before the deadline. */
int client_echo_recv(struct np_client *c, void *payload, size_t cap,
                     size_t *len, long long deadline_us)
{
	size_t plen;
	int t;

	if (c->fd < 0)
		return fail(c, CLIENT_E_USAGE, "not connected");
	t = recv_frame(c, &plen, deadline_us);
	if (t < 0)
		return -1;
	if (t != PROTO_ECHO_REPLY)
		return fail(c, CLIENT_E_PROTOCOL,
		            "responder at %s:%u answered %s to echo", c->addr,
		            c->port, proto_type_name(t));
	memcpy(payload, c->buf + PROTO_HDR_LEN, plen < cap ? plen : cap);
	*len = plen;
	return 0;
}

/* One ECHO and its matching reply; other echo replies are skipped. */
int client_echo_tcp(struct np_client *c, const void *payload, size_t len,
                    long long *rtt_us)
{
	long long t0 = client_now_us(), deadline = t0 + c->timeout_us;
	size_t plen;
	int t;

	if (c->fd < 0)
		return fail(c, CLIENT_E_USAGE, "not connected");
	if (len > PROTO_MAX_PAYLOAD)
		return fail(c, CLIENT_E_USAGE, "echo payload too large");
	if (len)
		memmove(c->buf + PROTO_HDR_LEN, payload, len);
	if (send_frame(c, PROTO_ECHO, len, deadline) < 0)
		return -1;
	for (int i = 0; i < 1024; i++) {
		t = recv_frame(c, &plen, deadline);
		if (t < 0)
			return -1;
		if (t != PROTO_ECHO_REPLY)
			return fail(c, CLIENT_E_PROTOCOL,
			            "responder answered %s to echo",
			            proto_type_name(t));
		if (plen == len && (len == 0 || memcmp(c->buf + PROTO_HDR_LEN,
		                                       payload, len) == 0)) {
			if (rtt_us)
				*rtt_us = client_now_us() - t0;
			return 0;
		}
	}
	return fail(c, CLIENT_E_PROTOCOL, "echo reply never matched");
}

/* LISTEN and its reply; ports NULL with EPHEMERAL. Returns 0, or -1. */
static int do_listen(struct np_client *c, struct proto_listen *req,
                     struct proto_listen_reply *rep)
{
	const char *why;
	ssize_t n;
	int len;

	len =
	    proto_listen_encode(req, c->buf + PROTO_HDR_LEN, PROTO_MAX_PAYLOAD);
	if (len < 0)
		return fail(c, CLIENT_E_USAGE, "invalid listen request");
	n = call(c, PROTO_LISTEN, (size_t)len, PROTO_LISTEN_REPLY);
	if (n < 0)
		return -1;
	if (proto_listen_reply_decode(c->buf + PROTO_HDR_LEN, (size_t)n, rep,
	                              &why) < 0)
		return fail(c, CLIENT_E_PROTOCOL, "bad listen reply: %s", why);
	return 0;
}

/* Clamps a lifetime in microseconds to the u32 milliseconds on the wire. */
static uint32_t to_ms(long long us)
{
	if (us <= 0)
		return 0;
	if (us / 1000 > 0xffffffffLL)
		return 0xffffffffu;
	return (uint32_t)((us + 999) / 1000);
}

/* LISTEN on the given ports; opened[i] per port. */
int client_listen(struct np_client *c, int proto, const uint16_t *ports,
                  size_t n, long long lifetime_us, bool *opened)
{
	struct proto_listen req = {0};
	struct proto_listen_reply *rep;
	int rc = -1;

	if (n == 0 || n > PROTO_MAX_PORTS)
		return fail(c, CLIENT_E_USAGE, "between 1 and %d ports",
		            PROTO_MAX_PORTS);
	rep = malloc(sizeof(*rep));
	if (!rep)
		return fail(c, CLIENT_E_IO, "out of memory");
	req.proto = (uint8_t)proto;
	req.lifetime_ms = to_ms(lifetime_us);
	req.nports = (uint16_t)n;
	memcpy(req.ports, ports, n * sizeof(*ports));
	if (do_listen(c, &req, rep) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		opened[i] = false;
		for (size_t j = 0; j < rep->nports; j++)
			if (rep->ports[j] == ports[i] &&
			    rep->status[j] == PROTO_LS_OPENED)
				opened[i] = true;
	}
	rc = 0;
out:
	free(rep);
	return rc;
}

/* LISTEN with the EPHEMERAL flag: the responder picks the ports. */
int client_listen_ephemeral(struct np_client *c, int proto, size_t nsamples,
                            long long lifetime_us, uint16_t *ports_out,
                            size_t *nout, unsigned *range_lo,
                            unsigned *range_hi)
{
	struct proto_listen req = {0};
	struct proto_listen_reply *rep;
	int rc = -1;

	*nout = 0;
	if (nsamples == 0 || nsamples > PROTO_MAX_PORTS)
		return fail(c, CLIENT_E_USAGE, "between 1 and %d samples",
		            PROTO_MAX_PORTS);
	rep = malloc(sizeof(*rep));
	if (!rep)
		return fail(c, CLIENT_E_IO, "out of memory");
	req.proto = (uint8_t)proto;
	req.flags = PROTO_LISTEN_EPHEMERAL;
	req.lifetime_ms = to_ms(lifetime_us);
	req.nports = (uint16_t)nsamples;
	if (do_listen(c, &req, rep) < 0)
		goto out;
	for (size_t j = 0; j < rep->nports && *nout < nsamples; j++)
		if (rep->status[j] == PROTO_LS_OPENED)
			ports_out[(*nout)++] = rep->ports[j];
	if (range_lo)
		*range_lo = rep->range_lo;
	if (range_hi)
		*range_hi = rep->range_hi;
	rc = 0;
out:
	free(rep);
	return rc;
}

/* CONNECT_BACK; the call waits for the responder's own timeout too. */
int client_connect_back(struct np_client *c, int proto, const uint16_t *ports,
                        size_t n, long long timeout_us, enum port_state *states,
                        char reasons[][CLIENT_REASON_MAX], long long *rtt_us)
{
	struct proto_connect_back req = {0};
	struct proto_connect_back_reply *rep;
	long long saved = c->timeout_us;
	const char *why;
	ssize_t len;
	int elen, rc = -1;

	if (n == 0 || n > PROTO_MAX_PORTS)
		return fail(c, CLIENT_E_USAGE, "between 1 and %d ports",
		            PROTO_MAX_PORTS);
	rep = malloc(sizeof(*rep));
	if (!rep)
		return fail(c, CLIENT_E_IO, "out of memory");
	req.proto = (uint8_t)proto;
	req.timeout_ms = to_ms(timeout_us);
	req.nports = (uint16_t)n;
	memcpy(req.ports, ports, n * sizeof(*ports));
	elen = proto_connect_back_encode(&req, c->buf + PROTO_HDR_LEN,
	                                 PROTO_MAX_PAYLOAD);
	if (elen < 0) {
		fail(c, CLIENT_E_USAGE, "invalid connect-back request");
		goto out;
	}
	/* the responder needs up to its own timeout before it answers */
	c->timeout_us = saved + (timeout_us > 0 ? timeout_us : 0);
	len =
	    call(c, PROTO_CONNECT_BACK, (size_t)elen, PROTO_CONNECT_BACK_REPLY);
	c->timeout_us = saved;
	if (len < 0)
		goto out;
	if (proto_connect_back_reply_decode(c->buf + PROTO_HDR_LEN, (size_t)len,
	                                    rep, &why) < 0) {
		fail(c, CLIENT_E_PROTOCOL, "bad connect-back reply: %s", why);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		states[i] = PORT_UNKNOWN;
		snprintf(reasons[i], CLIENT_REASON_MAX, "no answer");
		if (rtt_us)
			rtt_us[i] = -1;
		for (size_t j = 0; j < rep->nports; j++) {
			if (rep->r[j].port != ports[i])
				continue;
			states[i] = (enum port_state)rep->r[j].state;
			snprintf(reasons[i], CLIENT_REASON_MAX, "%s",
			         rep->r[j].reason);
			if (rtt_us && rep->r[j].rtt_us != 0xffffffffu)
				rtt_us[i] = rep->r[j].rtt_us;
		}
	}
	rc = 0;
out:
	free(rep);
	return rc;
}

/* Reads an ICMP error from the error queue into state and reason. Returns
 * true when one was there. */
static bool icmp_verdict(int fd, enum port_state *state, char *reason)
{
	char cbuf[512];
	uint8_t dummy[64];
	struct iovec iov = {dummy, sizeof(dummy)};
	struct msghdr mh = {.msg_iov = &iov,
	                    .msg_iovlen = 1,
	                    .msg_control = cbuf,
	                    .msg_controllen = sizeof(cbuf)};

	if (recvmsg(fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
		return false;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm;
	     cm = CMSG_NXTHDR(&mh, cm)) {
		struct sock_extended_err ee;

		if (!((cm->cmsg_level == IPPROTO_IP &&
		       cm->cmsg_type == IP_RECVERR) ||
		      (cm->cmsg_level == IPPROTO_IPV6 &&
		       cm->cmsg_type == IPV6_RECVERR)))
			continue;
		memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
		if (ee.ee_origin != SO_EE_ORIGIN_ICMP &&
		    ee.ee_origin != SO_EE_ORIGIN_ICMP6)
			continue;
		snprintf(reason, CLIENT_REASON_MAX, "icmp%s type %u code %u",
		         ee.ee_origin == SO_EE_ORIGIN_ICMP6 ? "6" : "",
		         ee.ee_type, ee.ee_code);
		if (ee.ee_origin == SO_EE_ORIGIN_ICMP)
			*state = ee.ee_code == 3 ? PORT_CLOSED
			         : (ee.ee_code == 9 || ee.ee_code == 10 ||
			            ee.ee_code == 13)
			             ? PORT_PROHIBITED
			             : PORT_UNREACHABLE;
		else
			*state = ee.ee_code == 4   ? PORT_CLOSED
			         : ee.ee_code == 1 ? PORT_PROHIBITED
			                           : PORT_UNREACHABLE;
		return true;
	}
	return false;
}

/* One UDP ECHO on a connected socket and its matching reply. */
int client_udp_echo(int fd, const void *payload, size_t len,
                    long long deadline_us, long long *rtt_us)
{
	uint8_t out[PROTO_HDR_LEN + 256], in[PROTO_HDR_LEN + 256];
	long long t0 = client_now_us();
	struct proto_hdr h;
	const char *why;

	if (len > 256) {
		errno = EMSGSIZE;
		return -1;
	}
	proto_hdr_encode(out, PROTO_ECHO, 0, (uint32_t)len);
	if (len)
		memcpy(out + PROTO_HDR_LEN, payload, len);
	if (send(fd, out, PROTO_HDR_LEN + len, MSG_NOSIGNAL) < 0)
		return -1;
	for (int i = 0; i < 64; i++) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int r = poll(&pfd, 1, ms_left(deadline_us));
		ssize_t n;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 1;
		n = recv(fd, in, sizeof(in), MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -1;
		}
		if (proto_hdr_decode(in, (size_t)n, &h, &why) == 0 &&
		    h.type == PROTO_ECHO_REPLY &&
		    h.length == (size_t)n - PROTO_HDR_LEN && h.length == len &&
		    (len == 0 ||
		     memcmp(in + PROTO_HDR_LEN, payload, len) == 0)) {
			if (rtt_us)
				*rtt_us = client_now_us() - t0;
			return 0;
		}
	}
	return 1;
}

/* UDP reachability through a responder: three tries within the
 * timeout, ICMP errors read from the error queue. */
int client_udp_probe(const char *host, unsigned port, long long timeout_us,
                     enum port_state *state, char *reason, long long *rtt_us)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	char err[CLIENT_ERR_MAX];
	long long deadline, now;
	int fd, one = 1, tries = 3;
	uint8_t stamp[PROTO_ECHO_STAMP_LEN];

	*state = PORT_UNKNOWN;
	if (rtt_us)
		*rtt_us = -1;
	if (client_resolve(host, port, SOCK_DGRAM, &ss, &sl, err, sizeof(err)) <
	    0) {
		*state = PORT_RESOLVE;
		snprintf(reason, CLIENT_REASON_MAX, "resolve");
		return 0;
	}
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &one, sizeof(one));
	else
		setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&ss, sl) < 0) {
		int e = errno;

		close(fd);
		*state = PORT_UNREACHABLE;
		snprintf(reason, CLIENT_REASON_MAX, "%s", strerror(e));
		return 0;
	}
	deadline = client_now_us() + (timeout_us > 0 ? timeout_us : 1000000);
	for (int i = 0; i < tries; i++) {
		struct proto_echo_stamp st = {(uint32_t)i,
		                              (uint64_t)client_now_us()};
		long long slice, rtt;
		int r;

		now = client_now_us();
		if (now >= deadline)
			break;
		slice = (deadline - now) / (tries - i);
		proto_echo_stamp_encode(&st, stamp, sizeof(stamp));
		r = client_udp_echo(fd, stamp, sizeof(stamp), now + slice,
		                    &rtt);
		if (r == 0) {
			*state = PORT_OPEN;
			snprintf(reason, CLIENT_REASON_MAX, "responder");
			if (rtt_us)
				*rtt_us = rtt;
			close(fd);
			return 0;
		}
		if (r < 0) {
			if (icmp_verdict(fd, state, reason)) {
				close(fd);
				return 0;
			}
			if (errno == ECONNREFUSED) {
				*state = PORT_CLOSED;
				snprintf(reason, CLIENT_REASON_MAX,
				         "icmp type 3 code 3");
				close(fd);
				return 0;
			}
			if (errno == EHOSTUNREACH || errno == ENETUNREACH) {
				*state = PORT_UNREACHABLE;
				snprintf(reason, CLIENT_REASON_MAX, "%s",
				         strerror(errno));
				close(fd);
				return 0;
			}
			if (errno != EAGAIN && errno != EINTR) {
				int e = errno;

				close(fd);
				errno = e;
				return -1;
			}
		}
	}
	*state = PORT_FILTERED;
	snprintf(reason, CLIENT_REASON_MAX, "timeout");
	close(fd);
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
