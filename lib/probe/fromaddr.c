/* Parallel TCP connects bound to a given local address, so the answer
 * has to come back to that address: what a peer sees when a framework
 * pins an interface and advertises its address. */
#include "probe/fromaddr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"
#include "probe/portscan.h"
#include "probe/synretry.h"

/* Fills ss from a numeric address and port. Returns the length, or 0. */
static socklen_t sockaddr_from(const char *addr, unsigned port,
                               struct sockaddr_storage *ss)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, addr, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		return sizeof(*s4);
	}
	if (inet_pton(AF_INET6, addr, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		return sizeof(*s6);
	}
	return 0;
}

/* Starts one connect. Returns the fd in flight, or -1 with v settled. */
static int start(struct fromaddr_req *v)
{
	struct sockaddr_storage src, dst;
	socklen_t sl = sockaddr_from(v->src, 0, &src);
	socklen_t dl = sockaddr_from(v->dst, v->port, &dst);
	int fd;

	if (sl == 0 || dl == 0 || src.ss_family != dst.ss_family) {
		snprintf(v->reason, sizeof(v->reason), "not an address pair");
		return -1;
	}
	fd = socket(dst.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	            0);
	if (fd < 0) {
		snprintf(v->reason, sizeof(v->reason), "socket: %s",
		         strerror(errno));
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&src, sl) < 0) {
		snprintf(v->reason, sizeof(v->reason), "cannot bind: %s",
		         strerror(errno));
		close(fd);
		return -1;
	}
	if (sock_connect_start(fd, (struct sockaddr *)&dst, dl) >= 0)
		return fd;
	{
		struct conn_outcome c = {.err = errno};
		enum port_state st =
		    portscan_classify(&c, v->reason, sizeof(v->reason));

		v->answered = st == PORT_OPEN || st == PORT_CLOSED;
	}
	close(fd);
	return -1;
}

/* What ended one attempt: SO_ERROR, or the deadline. */
static void settle(struct fromaddr_req *v, int fd, bool timed_out)
{
	struct conn_outcome c = {0};
	enum port_state st;

	c.err = sock_error(fd);
	c.timed_out = timed_out && c.err == 0;
	st = portscan_classify(&c, v->reason, sizeof(v->reason));
	/* a RST came back to the bound address as surely as a SYN-ACK */
	v->answered = st == PORT_OPEN || st == PORT_CLOSED;
}

/* Every request in flight at once, one deadline for all. */
int fromaddr_probe(struct fromaddr_req *v, size_t n)
{
	struct pollfd *pf = calloc(n ? n : 1, sizeof(*pf));
	long long end = mono_now_us() + SYNRETRY_US;
	size_t left = 0;

	if (pf == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		v[i].answered = -1;
		v[i].reason[0] = '\0';
		pf[i].fd = start(&v[i]);
		pf[i].events = POLLOUT;
		if (pf[i].fd >= 0)
			left++;
		else if (v[i].answered < 0 && v[i].reason[0] == '\0')
			snprintf(v[i].reason, sizeof(v[i].reason),
			         "not tested");
	}
	/* every pass settles one socket or waits toward the deadline */
	for (int pass = 0; left > 0 && pass < 1000; pass++) {
		int rc = poll(pf, (nfds_t)n, mono_left_ms(end, 60000));
		bool expired;

		if (rc < 0 && errno != EINTR)
			break;
		expired = mono_now_us() >= end;
		for (size_t i = 0; i < n; i++) {
			if (pf[i].fd < 0 || (rc <= 0 && !expired) ||
			    (pf[i].revents == 0 && !expired))
				continue;
			settle(&v[i], pf[i].fd, pf[i].revents == 0);
			close(pf[i].fd);
			pf[i].fd = -1;
			left--;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (pf[i].fd >= 0) {
			settle(&v[i], pf[i].fd, true);
			close(pf[i].fd);
		}
	free(pf);
	return 0;
}
