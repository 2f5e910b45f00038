/* The RAS client (probe/ras.h): one connection, bounded in time and size. */
#include "probe/ras.h"

#include "base/hostport.h"
#include "base/monoclock.h"
#include "base/sock.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>


/* Goes through the one HOST:PORT parser (base/hostport.h); only RAS's
 * defaults are its own: no spec, or an empty host (":PORT"), is this
 * node's localhost. */
int ras_addr_split(const char *spec, char *host, size_t hlen, char *port,
		   size_t plen)
{
	char spec2[300];
	const char *why, *bad;
	unsigned p;

	snprintf(host, hlen, "localhost");
	snprintf(port, plen, "%d", RAS_DEFAULT_PORT);
	if (spec == NULL || *spec == '\0')
		return 0;
	if (spec[0] == ':') { /* ":PORT": the port alone */
		if (snprintf(spec2, sizeof(spec2), "localhost%s", spec) >=
		    (int)sizeof(spec2)) {
			errno = EINVAL;
			return -1;
		}
		spec = spec2;
	}
	if (hostport_parse(spec, RAS_DEFAULT_PORT, host, hlen, &p, &why,
			   &bad) != HOSTPORT_OK) {
		errno = EINVAL;
		return -1;
	}
	snprintf(port, plen, "%u", p);
	return 0;
}

/* Connects to one address within timeout_ms. */
static int connect_one(const struct addrinfo *ai, int timeout_ms)
{
	int fd, err;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
				   SOCK_CLOEXEC, ai->ai_protocol);
	if (fd < 0)
		return -1;
	if (sock_connect(fd, ai->ai_addr, ai->ai_addrlen,
			 mono_now_us() + timeout_ms * 1000LL) == 0)
		return fd;
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

static int send_all(int fd, const char *s)
{
	size_t len = strlen(s), off = 0;

	while (off < len) {
		ssize_t n = send(fd, s + off, len - off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			if (sock_wait(fd, POLLOUT, mono_now_us() + 1000000) <= 0)
				return -1;
			continue;
		}
		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

/* Reads until a newline (line mode) or EOF, by deadline. Returns the bytes
 * in buf, or -1 (errno ETIMEDOUT past the deadline). */
static ssize_t read_until(int fd, char *buf, size_t cap, bool line,
			  long long deadline)
{
	size_t n = 0;

	while (n + 1 < cap) {
		ssize_t got;
		int ev;

		if (mono_now_us() >= deadline) {
			errno = ETIMEDOUT;
			return -1;
		}
		ev = sock_wait(fd, POLLIN, deadline);
		if (ev < 0)
			return -1;
		if (!(ev & (POLLIN | POLLHUP | POLLERR)))
			continue;
		got = recv(fd, buf + n, cap - 1 - n, 0);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		n += (size_t)got;
		if (line && buf[n - 1] == '\n')
			break;
	}
	buf[n] = '\0';
	return (ssize_t)n;
}

/* One connection: handshake, timeout, status. Returns 0, -1 on a
 * failure, or 1 when the handshake timed out (worth another try). */
static int ras_query_once(const char *host, const char *port, int timeout_ms,
			  int coll_timeout_s, char **answer, char *why,
			  size_t wlen)
{
	struct addrinfo hints = {0}, *res = NULL;
	char line[256], *buf = NULL;
	long long deadline;
	int fd = -1, gai, rc = -1;

	*answer = NULL;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if ((gai = getaddrinfo(host, port, &hints, &res)) != 0) {
		snprintf(why, wlen, "resolve '%s': %s", host,
			 gai_strerror(gai));
		return -1;
	}
	errno = ECONNREFUSED;
	for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next)
		fd = connect_one(ai, timeout_ms);
	freeaddrinfo(res);
	if (fd < 0) {
		snprintf(why, wlen, "connect to %s:%s: %s", host, port,
			 strerror(errno));
		return -1;
	}
	deadline = mono_now_us() + timeout_ms * 1000LL;
	snprintf(line, sizeof(line), "CLIENT PROTOCOL %d\n", RAS_PROTOCOL);
	if (send_all(fd, line) < 0 ||
	    read_until(fd, line, sizeof(line), true, deadline) <= 0) {
		snprintf(why, wlen, "%s:%s: no answer to the handshake: %s",
			 host, port, strerror(errno ? errno : EPROTO));
		rc = errno == ETIMEDOUT ? 1 : -1;
		goto out;
	}
	if (strncasecmp(line, "SERVER PROTOCOL ", 16) != 0) {
		snprintf(why, wlen, "%s:%s: not a NCCL RAS service (answered "
			 "'%.40s')", host, port, strtok(line, "\r\n"));
		goto out;
	}
	snprintf(line, sizeof(line), "TIMEOUT %d\n", coll_timeout_s);
	deadline = mono_now_us() + timeout_ms * 1000LL;
	if (send_all(fd, line) < 0 ||
	    read_until(fd, line, sizeof(line), true, deadline) <= 0 ||
	    strncasecmp(line, "OK", 2) != 0) {
		snprintf(why, wlen, "%s:%s: TIMEOUT not accepted", host, port);
		goto out;
	}
	if ((buf = malloc(RAS_MAX_ANSWER)) == NULL) {
		snprintf(why, wlen, "out of memory");
		goto out;
	}
	/* NCCL collects for up to coll_timeout_s per leg, two legs. */
	deadline = mono_now_us() +
		   (long long)(2 * coll_timeout_s + 5) * 1000000;
	if (send_all(fd, "VERBOSE STATUS\n") < 0 ||
	    read_until(fd, buf, RAS_MAX_ANSWER, false, deadline) < 0) {
		snprintf(why, wlen, "%s:%s: status not answered in time: %s",
			 host, port, strerror(errno));
		goto out;
	}
	*answer = buf;
	buf = NULL;
	rc = 0;
out:
	free(buf);
	close(fd);
	return rc;
}

/* Every NCCL process of a node listens on the client port (SO_REUSEPORT),
 * so a connection may land on a stopped one that never answers: like
 * NCCL's own ncclras, try again, each new connection hashed anew. */
int ras_query(const char *host, const char *port, int timeout_ms,
	      int coll_timeout_s, char **answer, char *why, size_t wlen)
{
	int rc = -1;

	for (int i = 0; i < RAS_TRIES; i++) {
		rc = ras_query_once(host, port, timeout_ms, coll_timeout_s,
				    answer, why, wlen);
		if (rc <= 0)
			return rc;
	}
	snprintf(why + strlen(why), wlen - strlen(why), " (%d tries)",
		 RAS_TRIES);
	return -1;
}
