/* The side channel's sockets and frames (bootstrap_io.h). Every read,
 * write and connect has a deadline. */
#include "bootstrap/bootstrap_io.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"
#include "bootstrap/bootstrap_wire.h"

/* recv until len bytes came; end of file is ECONNRESET. */
int sc_read_full(int fd, void *buf, size_t len, long long deadline_us)
{
	char *p = buf;

	while (len > 0) {
		ssize_t n;

		if (sock_wait(fd, POLLIN, deadline_us) <= 0)
			return -1;
		n = recv(fd, p, len, 0);
		if (n == 0) {
			errno = ECONNRESET;
			return -1;
		}
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* send without SIGPIPE until len bytes went. */
int sc_write_full(int fd, const void *buf, size_t len, long long deadline_us)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n;

		if (sock_wait(fd, POLLOUT, deadline_us) <= 0)
			return -1;
		n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Header and payload in one buffer: one send for small frames. */
int sc_send_frame(int fd, uint32_t type, const void *payload, size_t len,
		  long long deadline_us)
{
	unsigned char h[2 * SC_U32_WIRE];
	char small[256];

	if (len > SC_FRAME_MAX) {
		errno = EMSGSIZE;
		return -1;
	}
	sc_u32_pack(type, h);
	sc_u32_pack((uint32_t)len, h + SC_U32_WIRE);
	if (len <= sizeof(small) - sizeof(h)) {
		memcpy(small, h, sizeof(h));
		if (len > 0)
			memcpy(small + sizeof(h), payload, len);
		return sc_write_full(fd, small, sizeof(h) + len, deadline_us);
	}
	if (sc_write_full(fd, h, sizeof(h), deadline_us) < 0)
		return -1;
	return sc_write_full(fd, payload, len, deadline_us);
}

/* Checks writability first; a frame once started is finished within the
 * usual grace, so the stream never holds half a frame. */
int sc_try_send_frame(int fd, uint32_t type, const void *payload,
		      size_t len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };

	if (poll(&pfd, 1, 0) <= 0 || !(pfd.revents & POLLOUT))
		return 1;
	return sc_send_frame(fd, type, payload, len,
			     mono_now_us() + SC_IO_GRACE_US);
}

/* A started frame must arrive whole within SC_IO_GRACE_US. */
int sc_recv_frame(int fd, uint32_t *type, void **payload, size_t *len)
{
	long long dl = mono_now_us() + SC_IO_GRACE_US;
	unsigned char h[2 * SC_U32_WIRE];
	void *p = NULL;

	*payload = NULL;
	*len = 0;
	if (sc_read_full(fd, h, sizeof(h), dl) < 0)
		return -1;
	*type = sc_u32_unpack(h);
	*len = sc_u32_unpack(h + SC_U32_WIRE);
	if (*len > SC_FRAME_MAX) {
		errno = EPROTO;
		return -1;
	}
	if (*len > 0) {
		p = malloc(*len);
		if (p == NULL)
			return -1;
		if (sc_read_full(fd, p, *len, dl) < 0) {
			free(p);
			return -1;
		}
	}
	*payload = p;
	return 0;
}

/* Binds and listens (SO_REUSEADDR, backlog 1024); port 0 is ephemeral. */
int sc_listen(const char *addr, int port, int *bound)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICHOST |
					      AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char ps[16];
	int fd = -1, one = 1, e;

	snprintf(ps, sizeof(ps), "%d", port);
	e = getaddrinfo(addr, ps, &hints, &res);
	if (e != 0) {
		errno = EINVAL;
		return -1;
	}
	fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, res->ai_addr, res->ai_addrlen) < 0 ||
	    listen(fd, 1024) < 0 ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		goto fail;
	*bound = ntohs(ss.ss_family == AF_INET6 ?
			       ((struct sockaddr_in6 *)&ss)->sin6_port :
			       ((struct sockaddr_in *)&ss)->sin_port);
	freeaddrinfo(res);
	return fd;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	freeaddrinfo(res);
	errno = e;
	return -1;
}

/* One connect attempt to one address before deadline. */
static int connect_one(const struct addrinfo *ai, long long deadline_us)
{
	int fd, err, one = 1;

	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0)
		return -1;
	if (sock_connect(fd, ai->ai_addr, ai->ai_addrlen, deadline_us) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	/* small frames both ways: Nagle would hold them 40 ms */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* Tries every address the name resolves to until one connects. */
int sc_connect(const char *host, int port, long long deadline_us)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	char ps[16];
	int fd = -1, e;

	snprintf(ps, sizeof(ps), "%d", port);
	e = getaddrinfo(host, ps, &hints, &res);
	if (e != 0) {
		errno = EHOSTUNREACH;
		return -1;
	}
	for (struct addrinfo *ai = res; ai != NULL && fd < 0;
	     ai = ai->ai_next)
		fd = connect_one(ai, deadline_us);
	e = errno;
	freeaddrinfo(res);
	errno = e;
	return fd;
}
