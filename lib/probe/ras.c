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

long long ras_now_ms(void)
{
	return mono_now_us() / 1000;
}

/* The deadline read_until takes for a wait of ms from now: the sooner of
 * that and the caller's overall deadline. The one place that knows
 * read_until's clock. */
static long long wait_deadline(const struct ras_ask *a, long long ms)
{
	long long d = mono_now_us() + ms * 1000;

	return a->deadline_ms > 0 && a->deadline_ms * 1000 < d
		       ? a->deadline_ms * 1000 : d;
}

/* Connects and shakes hands: CLIENT PROTOCOL, TIMEOUT, and SET FORMAT
 * json when asked (*json says whether it was taken: NCCL before 2.28.7
 * answers "ERROR: Unknown command" and the connection goes on in text).
 * Returns the socket, -1 on a failure, or -2 when the handshake timed out
 * (worth another try). */
static int ras_open(const char *host, const char *port,
		    const struct ras_ask *a, bool *json, char *why,
		    size_t wlen)
{
	struct addrinfo hints = {0}, *res = NULL;
	char line[256];
	long long deadline;
	int fd = -1, gai, rc = -1;

	*json = false;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if ((gai = getaddrinfo(host, port, &hints, &res)) != 0) {
		snprintf(why, wlen, "resolve '%s': %s", host,
			 gai_strerror(gai));
		return -1;
	}
	errno = ECONNREFUSED;
	for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next)
		fd = connect_one(ai, a->timeout_ms);
	freeaddrinfo(res);
	if (fd < 0) {
		snprintf(why, wlen, "connect to %s:%s: %s", host, port,
			 strerror(errno));
		return -1;
	}
	deadline = wait_deadline(a, a->timeout_ms);
	snprintf(line, sizeof(line), "CLIENT PROTOCOL %d\n", RAS_PROTOCOL);
	errno = 0;
	if (send_all(fd, line) < 0 ||
	    read_until(fd, line, sizeof(line), true, deadline) <= 0) {
		snprintf(why, wlen, "%s:%s: no answer to the handshake: %s",
			 host, port, strerror(errno ? errno : EPROTO));
		rc = errno == ETIMEDOUT ? -2 : -1;
		goto fail;
	}
	if (strncasecmp(line, "SERVER PROTOCOL ", 16) != 0) {
		snprintf(why, wlen, "%s:%s: not a NCCL RAS service (answered "
			 "'%.40s')", host, port, strtok(line, "\r\n"));
		goto fail;
	}
	snprintf(line, sizeof(line), "TIMEOUT %d\n", a->coll_timeout_s);
	deadline = wait_deadline(a, a->timeout_ms);
	if (send_all(fd, line) < 0 ||
	    read_until(fd, line, sizeof(line), true, deadline) <= 0 ||
	    strncasecmp(line, "OK", 2) != 0) {
		snprintf(why, wlen, "%s:%s: TIMEOUT not accepted", host, port);
		goto fail;
	}
	if (!a->json)
		return fd;
	deadline = wait_deadline(a, a->timeout_ms);
	if (send_all(fd, "SET FORMAT json\n") < 0 ||
	    read_until(fd, line, sizeof(line), true, deadline) <= 0) {
		snprintf(why, wlen, "%s:%s: SET FORMAT not answered", host,
			 port);
		goto fail;
	}
	*json = strncasecmp(line, "OK", 2) == 0;
	return fd;
fail:
	close(fd);
	return rc;
}

/* One connection: handshake, status. Returns 0, -1 on a failure, or 1
 * when the handshake timed out (worth another try). */
static int ras_query_once(const char *host, const char *port,
			  const struct ras_ask *a, char **answer, bool *json,
			  char *why, size_t wlen)
{
	char *buf = NULL;
	long long deadline;
	ssize_t got;
	int fd, rc = -1;

	*answer = NULL;
	fd = ras_open(host, port, a, json, why, wlen);
	if (fd < 0)
		return fd == -2 ? 1 : -1;
	if ((buf = malloc(RAS_MAX_ANSWER)) == NULL) {
		snprintf(why, wlen, "out of memory");
		goto out;
	}
	/* NCCL collects for up to coll_timeout_s per leg, two legs. */
	deadline = wait_deadline(a, (long long)(2 * a->coll_timeout_s + 5) *
					    1000);
	if (send_all(fd, "VERBOSE STATUS\n") < 0 ||
	    (got = read_until(fd, buf, RAS_MAX_ANSWER, false, deadline)) < 0) {
		snprintf(why, wlen, "%s:%s: status not answered in time: %s",
			 host, port, strerror(errno));
		goto out;
	}
	if (got >= RAS_MAX_ANSWER - 1) {
		snprintf(why, wlen, "%s:%s: the status is over %d MiB: not "
			 "read", host, port, RAS_MAX_ANSWER >> 20);
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
int ras_ask_status(const char *host, const char *port,
		   const struct ras_ask *a, char **answer, bool *json,
		   char *why, size_t wlen)
{
	int rc = -1;

	for (int i = 0; i < RAS_TRIES; i++) {
		if (a->deadline_ms > 0 && ras_now_ms() >= a->deadline_ms) {
			snprintf(why, wlen, "%s:%s: no answer before the "
				 "deadline", host, port);
			return -1;
		}
		rc = ras_query_once(host, port, a, answer, json, why, wlen);
		if (rc <= 0)
			return rc;
	}
	snprintf(why + strlen(why), wlen - strlen(why), " (%d tries)",
		 RAS_TRIES);
	return -1;
}

int ras_query(const char *host, const char *port, int timeout_ms,
	      int coll_timeout_s, char **answer, char *why, size_t wlen)
{
	struct ras_ask a = {timeout_ms, coll_timeout_s, false, 0};
	bool json;

	return ras_ask_status(host, port, &a, answer, &json, why, wlen);
}

int ras_monitor_open(const char *host, const char *port,
		     const struct ras_ask *a, bool *json, char *rest,
		     size_t rlen, char *why, size_t wlen)
{
	char line[512];
	ssize_t n;
	int fd = -2;

	rest[0] = '\0';
	for (int i = 0; i < RAS_TRIES && fd == -2; i++)
		fd = ras_open(host, port, a, json, why, wlen);
	if (fd < 0)
		return -1;
	n = send_all(fd, "MONITOR\n") < 0 ? -1
		: read_until(fd, line, sizeof(line), true,
			     wait_deadline(a, a->timeout_ms));
	if (n <= 0 || strncasecmp(line, "OK", 2) != 0) {
		/* NCCL before 2.29: "ERROR: Unknown command monitor" */
		snprintf(why, wlen, "%s:%s: MONITOR not taken (%.60s)", host,
			 port, n > 0 ? strtok(line, "\r\n") : "no answer");
		close(fd);
		return -2;
	}
	if (strchr(line, '\n') != NULL)
		snprintf(rest, rlen, "%s", strchr(line, '\n') + 1);
	return fd;
}

int ras_monitor_read(int fd, char *buf, size_t cap, int wait_ms)
{
	size_t len = strlen(buf);
	long long deadline = ras_now_ms() + wait_ms;

	while (len + 1 < cap) {
		struct pollfd p = {fd, POLLIN, 0};
		long long left = deadline - ras_now_ms();
		ssize_t got;

		if (left < 0)
			left = 0;
		if (poll(&p, 1, (int)left) <= 0)
			break;
		got = recv(fd, buf + len, cap - 1 - len, MSG_DONTWAIT);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0) {
			buf[len] = '\0';
			return got < 0 ? -1 : 1;
		}
		len += (size_t)got;
		buf[len] = '\0';
	}
	return 0;
}
