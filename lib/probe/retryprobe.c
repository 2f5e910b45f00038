/* The retry probe (retryprobe.h): connects to a failed port and to a port
 * that passed, in turns, counted apart. */
#include "probe/retryprobe.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"

/* One connect to ss: 1 when it was accepted, 2 when it was refused (a
 * reset, or an ICMP error came back), 0 when nothing came back by its
 * bound, -1 with errno when no socket could be made. A refusal is told
 * from an accept: a box that refuses a port answers, and loss does not. */
static int one(const struct sockaddr_storage *ss, socklen_t len,
               long long deadline_us)
{
	int fd = socket(ss->ss_family,
	                SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int rc, e;

	if (fd < 0)
		return -1;
	rc = sock_connect(fd, (const struct sockaddr *)ss, len, deadline_us);
	e = errno;
	close(fd);
	if (rc == 0)
		return 1;
	if (rc == SOCK_EXPIRED)
		return 0;
	/* an answer: a reset, an ICMP unreachable or prohibited */
	if (e == ECONNREFUSED || e == EHOSTUNREACH || e == ENETUNREACH ||
	    e == EACCES || e == EPERM || e == ECONNRESET)
		return 2;
	if (e == ETIMEDOUT)
		return 0;
	errno = e;
	return -1;
}

/* See retryprobe.h. */
int retry_probe(const char *addr, uint16_t port, uint16_t control,
                long long deadline_us, struct retry_result *r)
{
	struct sockaddr_storage sp, sc;
	socklen_t lp, lc;

	memset(r, 0, sizeof(*r));
	r->port = port;
	r->control = control;
	lp = sock_numeric_addr(addr, port, &sp);
	lc = sock_numeric_addr(addr, control, &sc);
	if (lp == 0 || lc == 0) {
		snprintf(r->err, sizeof(r->err), "'%s' is not an address",
		         addr);
		errno = EINVAL;
		return -1;
	}
	for (int i = 0; i < RETRY_TRIES; i++) {
		for (int k = 0; k < 2; k++) {
			long long now = mono_now_us(),
			          end = now + RETRY_EACH_US;
			int a;

			if (now >= deadline_us)
				return 0;
			if (end > deadline_us)
				end = deadline_us;
			a = k == 0 ? one(&sp, lp, end) : one(&sc, lc, end);
			if (a < 0) {
				snprintf(r->err, sizeof(r->err), "socket: %s",
				         strerror(errno));
				return -1;
			}
			if (k == 0) {
				r->tries++;
				r->answered += a > 0;
				r->refused += a == 2;
			} else {
				r->ctl_tries++;
				r->ctl_answered += a > 0;
			}
		}
	}
	return 0;
}
