/* Waits on sockets by a deadline (sock.h): poll restarted after a signal,
 * connects settled by SO_ERROR. */
#include "base/sock.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "base/monoclock.h"

/* A long wait wakes this often to read the clock again (no more than a
 * check: poll's own timeout is on the same monotonic clock). */
#define SOCK_SLICE_MS 60000

/* See sock.h. */
int sock_wait(int fd, short events, long long deadline_us)
{
	struct pollfd pfd = {.fd = fd, .events = events};

	/* ends by an event, a poll error, or the deadline */
	for (;;) {
		int r = poll(&pfd, 1, mono_left_ms(deadline_us, SOCK_SLICE_MS));

		if (r > 0)
			return pfd.revents;
		if (r < 0 && errno != EINTR)
			return -1;
		if (mono_now_us() >= deadline_us) {
			errno = ETIMEDOUT;
			return 0;
		}
	}
}

/* See sock.h. */
int sock_error(int fd)
{
	int err = 0;
	socklen_t len = sizeof(err);

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		return errno;
	return err;
}

/* See sock.h. */
bool sock_connect_done(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLOUT};

	return poll(&p, 1, 0) == 1 &&
	       (p.revents & (POLLOUT | POLLERR | POLLHUP)) != 0;
}

/* See sock.h. */
int sock_connect_start(int fd, const struct sockaddr *sa, socklen_t len)
{
	if (connect(fd, sa, len) == 0)
		return 0;
	/* a signal leaves the connect going on, as EINPROGRESS does */
	if (errno == EINPROGRESS || errno == EINTR)
		return 1;
	return -1;
}

/* See sock.h. */
int sock_connect(int fd, const struct sockaddr *sa, socklen_t len,
                 long long deadline_us)
{
	int r, err;

	r = sock_connect_start(fd, sa, len);
	if (r <= 0)
		return r;
	r = sock_wait(fd, POLLOUT, deadline_us);
	if (r == 0)
		return SOCK_EXPIRED;
	if (r < 0)
		return -1;
	err = sock_error(fd);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

/* See sock.h. */
socklen_t sock_numeric_addr(const char *addr, uint16_t port,
                            struct sockaddr_storage *ss)
{
	struct addrinfo hints = {0}, *res = NULL;
	char svc[8];
	socklen_t len = 0;

	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(svc, sizeof(svc), "%u", port);
	memset(ss, 0, sizeof(*ss));
	if (getaddrinfo(addr, svc, &hints, &res) != 0 || res == NULL)
		return 0;
	if (res->ai_addrlen <= sizeof(*ss)) {
		memcpy(ss, res->ai_addr, res->ai_addrlen);
		len = res->ai_addrlen;
	}
	freeaddrinfo(res);
	return len;
}
