/* TCP listeners through NETLINK_SOCK_DIAG (kernel/sockdiag.h). */
#include "kernel/sockdiag.h"

#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define TCP_LISTEN_BIT (1u << 10) /* TCP_LISTEN in tcp_states.h */

/* One dump of family's listeners. Returns 0, or -1 with errno. */
static int dump(int fd, int family, unsigned seq,
                int (*add)(void *arg, const struct sock_listener *l),
                void *arg)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req;
	long buf[8192 / sizeof(long)];
	long msgs = 0;

	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nlh.nlmsg_seq = seq;
	req.r.sdiag_family = (unsigned char)family;
	req.r.sdiag_protocol = IPPROTO_TCP;
	req.r.idiag_states = TCP_LISTEN_BIT;
	if (send(fd, &req, sizeof(req), 0) < 0)
		return -1;
	while (msgs < SOCKDIAG_MAX_MSGS) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n == 0 ? (errno = EIO, -1) : -1;
		for (; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			const struct inet_diag_msg *m = NLMSG_DATA(h);
			struct sock_listener l = {0};

			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				errno = e->error ? -e->error : EIO;
				return -1;
			}
			if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
			    h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)))
				continue;
			msgs++;
			l.family = m->idiag_family;
			l.port = ntohs(m->id.idiag_sport);
			l.queued = m->idiag_rqueue;
			l.backlog = m->idiag_wqueue;
			memcpy(l.addr, m->id.idiag_src,
			       l.family == AF_INET ? 4 : 16);
			if (add(arg, &l) < 0)
				return -1;
		}
	}
	errno = E2BIG;
	return -1;
}

/* See sockdiag.h. */
int sockdiag_listeners(int (*add)(void *arg, const struct sock_listener *l),
                       void *arg)
{
	struct timeval tv = {2, 0};
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
	                NETLINK_SOCK_DIAG);
	int rc = -1, e;

	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == 0 &&
	    dump(fd, AF_INET, 1, add, arg) == 0) {
		rc = dump(fd, AF_INET6, 2, add, arg);
		/* no IPv6 in this kernel: the IPv4 listeners are all */
		if (rc < 0 && (errno == EAFNOSUPPORT || errno == ENOENT))
			rc = 0;
	}
	e = errno;
	close(fd);
	errno = e;
	return rc;
}
