/* Whether a peer can reach one of this node's addresses: a bound TCP
 * connect to its responder, answered back to that address or not. */
#include "probe/reach.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"

const char *reach_state_name(enum reachback s)
{
	switch (s) {
	case REACHBACK_YES:
		return "yes";
	case REACHBACK_NO:
		return "no";
	case REACHBACK_UNKNOWN:
		return "unknown";
	case REACHBACK_UNTESTED:
		break;
	}
	return "untested";
}

/* The stricter of all's and the interface's rp_filter (the kernel uses
 * the maximum); -1 when unknown. */
static int rp_filter(const struct sysroot *sr, const char *ifname)
{
	char path[128];
	long long all = -1, one = -1;

	if (sysroot_read_ll(sr, "/proc/sys/net/ipv4/conf/all/rp_filter",
	                    &all) < 0)
		all = -1;
	snprintf(path, sizeof(path), "/proc/sys/net/ipv4/conf/%s/rp_filter",
	         ifname);
	if (sysroot_read_ll(sr, path, &one) < 0)
		one = -1;
	if (all < 0 && one < 0)
		return -1;
	return (int)(all > one ? all : one);
}

/* Fills a sockaddr from a numeric address and port. Returns its length,
 * or 0 when the text is no address. */
static socklen_t fill(struct sockaddr_storage *ss, const char *addr,
                      unsigned port)
{
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, addr, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons((uint16_t)port);
		return sizeof(*a4);
	}
	if (inet_pton(AF_INET6, addr, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)port);
		return sizeof(*a6);
	}
	return 0;
}

enum reachback reach_probe(const struct sysroot *sr, const char *local,
                             const char *local_if, const char *out_if,
                             const char *peer, unsigned port,
                             long long timeout_us, char *detail, size_t len)
{
	struct sockaddr_storage la, pa;
	socklen_t ll = fill(&la, local, 0), pl = fill(&pa, peer, port);
	enum reachback st = REACHBACK_UNKNOWN;
	long long deadline = mono_now_us() + timeout_us;
	int fd, err, rc;

	if (ll == 0 || pl == 0 || la.ss_family != pa.ss_family) {
		snprintf(detail, len, "not comparable: %s and %s", local, peer);
		return REACHBACK_UNKNOWN;
	}
	if (la.ss_family == AF_INET && strcmp(local_if, out_if) != 0 &&
	    rp_filter(sr, local_if) == 1) {
		snprintf(detail, len,
		         "not tested: rp_filter is strict on %s, which would "
		         "drop the answer",
		         local_if);
		return REACHBACK_UNKNOWN;
	}
	fd = socket(la.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	            0);
	if (fd < 0) {
		snprintf(detail, len, "socket: %s", strerror(errno));
		return REACHBACK_UNKNOWN;
	}
	if (bind(fd, (struct sockaddr *)&la, ll) < 0) {
		snprintf(detail, len, "bind %s: %s", local, strerror(errno));
		goto out;
	}
	rc = sock_connect(fd, (struct sockaddr *)&pa, pl, deadline);
	if (rc == SOCK_EXPIRED) {
		st = REACHBACK_NO;
		snprintf(detail, len, "no answer within %lld ms",
		         timeout_us / 1000);
		goto out;
	}
	err = rc == 0 ? 0 : errno;
	if (err == 0) {
		st = REACHBACK_YES;
		snprintf(detail, len, "syn-ack");
	} else if (err == ECONNREFUSED) {
		/* the peer's reset came back to the address: it reaches it */
		st = REACHBACK_YES;
		snprintf(detail, len, "rst");
	} else if (err == EHOSTUNREACH || err == ENETUNREACH ||
	           err == ETIMEDOUT) {
		st = REACHBACK_NO;
		snprintf(detail, len, "%s", strerror(err));
	} else {
		snprintf(detail, len, "%s", strerror(err));
	}
out:
	close(fd);
	return st;
}
