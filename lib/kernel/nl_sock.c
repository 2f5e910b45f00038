/* The rtnetlink request loop: one socket per request, replies fed to a
 * callback, bounded in message count and in time. */
#include "kernel/nl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include <linux/rtnetlink.h>

#include "base/monoclock.h"

/* 1,000 interfaces dump in about 1.5 MB; 128 KiB per read keeps syscalls
 * few. Bounds: 64k reads and 10 s in all. */
#define NL_BUF_SIZE (128 * 1024)
#define NL_MAX_READS 65536
#define NL_MAX_US (10LL * 1000000LL)

/* strlcpy without its return value: silent truncation is intended for
 * names and sysfs values that fit by construction. */
void nl_copy(char *dst, size_t n, const char *src)
{
	size_t len = strnlen(src, n - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* Opens a socket of one netlink bus, sends, and runs mnl_cb_run until
 * the answer is complete. */
int nl_request_bus(int bus, struct nlmsghdr *req, mnl_cb_t cb, void *data)
{
	struct timeval tv = {.tv_sec = 2};
	struct mnl_socket *nl;
	unsigned portid, seq;
	long long start = mono_now_us();
	char *buf = NULL;
	int ret = -1, saved = 0, one = 1;

	nl = mnl_socket_open(bus);
	if (nl == NULL)
		return -1;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		goto out;
	if (setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv,
	               sizeof(tv)) < 0)
		goto out;
	/* Strict checking makes the kernel honour dump filters; old kernels
	 * lack it and that is fine. */
	(void)mnl_socket_setsockopt(nl, NETLINK_GET_STRICT_CHK, &one,
	                            sizeof(one));
	/* Extended ACKs give better errors; optional as well. */
	(void)mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	buf = malloc(NL_BUF_SIZE);
	if (buf == NULL)
		goto out;
	portid = mnl_socket_get_portid(nl);
	seq = (unsigned)time(NULL);
	req->nlmsg_seq = seq;
	if (mnl_socket_sendto(nl, req, req->nlmsg_len) < 0)
		goto out;
	for (int reads = 0; reads < NL_MAX_READS; reads++) {
		ssize_t n = mnl_socket_recvfrom(nl, buf, NL_BUF_SIZE);
		int r;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				errno = ETIMEDOUT;
			goto out;
		}
		r = mnl_cb_run(buf, (size_t)n, seq, portid, cb, data);
		if (r < 0)
			goto out;
		if (r == MNL_CB_STOP) {
			ret = 0;
			goto out;
		}
		if (mono_now_us() - start > NL_MAX_US) {
			errno = ETIMEDOUT;
			goto out;
		}
	}
	errno = E2BIG;
out:
	saved = errno;
	free(buf);
	mnl_socket_close(nl);
	if (ret < 0)
		errno = saved;
	return ret;
}

/* rtnetlink, which every other caller asks. */
int nl_request(struct nlmsghdr *req, mnl_cb_t cb, void *data)
{
	return nl_request_bus(NETLINK_ROUTE, req, cb, data);
}
