/* The socket side of path MTU discovery: PROTO_MTU_PROBE datagrams sent
 * with don't-fragment (IP_PMTUDISC_PROBE), answers read from the socket and
 * ICMP fragmentation-needed from its error queue (IP_RECVERR). */
#include "probe/pmtu.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"
#include "wire/proto.h"
#include "wire/proto_msg.h"

#define PMTU_ERRQ_MAX 64 /* error-queue entries read per wait */

int pmtu_probe_encode(unsigned char *buf, size_t len, unsigned seq)
{
	uint32_t v = htonl(seq);

	if (len < PROTO_HDR_LEN + 4 ||
	    len > PROTO_HDR_LEN + PROTO_MAX_PAYLOAD) {
		errno = EINVAL;
		return -1;
	}
	memset(buf, 0, len);
	proto_hdr_encode(buf, PROTO_MTU_PROBE, 0,
	                 (uint32_t)(len - PROTO_HDR_LEN));
	memcpy(buf + PROTO_HDR_LEN, &v, 4);
	return 0;
}

int pmtu_reply_decode(const unsigned char *buf, size_t len, unsigned *seq,
                      unsigned *bytes, unsigned *ifmtu)
{
	struct proto_mtu_reply m;
	struct proto_hdr h;
	const char *why;

	if (proto_hdr_decode(buf, len, &h, &why) < 0 ||
	    h.type != PROTO_MTU_REPLY || len != PROTO_HDR_LEN + h.length ||
	    proto_mtu_reply_decode(buf + PROTO_HDR_LEN, h.length, &m, &why) <
	        0) {
		errno = EINVAL;
		return -1;
	}
	*seq = m.seq;
	*bytes = m.bytes;
	*ifmtu = m.ifmtu;
	return 0;
}

int pmtu_udp_open(struct pmtu_udp *u, const struct sockaddr *addr,
                  socklen_t len)
{
	int one = 1, saved, v4 = addr->sa_family == AF_INET;
	int probe = v4 ? IP_PMTUDISC_PROBE : IPV6_PMTUDISC_PROBE;

	memset(u, 0, sizeof(*u));
	u->fd = -1;
	u->family = addr->sa_family;
	if (u->family != AF_INET && u->family != AF_INET6) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	u->buf = malloc(PMTU_UDP_BUF);
	if (u->buf == NULL)
		return -1;
	u->fd = socket(u->family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (u->fd < 0)
		goto fail;
	if ((v4 && (setsockopt(u->fd, IPPROTO_IP, IP_MTU_DISCOVER, &probe,
	                       sizeof(probe)) < 0 ||
	            setsockopt(u->fd, IPPROTO_IP, IP_RECVERR, &one,
	                       sizeof(one)) < 0)) ||
	    (!v4 && (setsockopt(u->fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &probe,
	                        sizeof(probe)) < 0 ||
	             setsockopt(u->fd, IPPROTO_IPV6, IPV6_DONTFRAG, &one,
	                        sizeof(one)) < 0 ||
	             setsockopt(u->fd, IPPROTO_IPV6, IPV6_RECVERR, &one,
	                        sizeof(one)) < 0)) ||
	    connect(u->fd, addr, len) < 0)
		goto fail;
	return 0;
fail:
	saved = errno;
	pmtu_udp_close(u);
	errno = saved;
	return -1;
}

void pmtu_udp_close(struct pmtu_udp *u)
{
	if (u->fd >= 0)
		close(u->fd);
	u->fd = -1;
	free(u->buf);
	u->buf = NULL;
}

unsigned pmtu_udp_kernel_pmtu(const struct pmtu_udp *u)
{
	int mtu = 0;
	socklen_t len = sizeof(mtu);

	if (u->fd < 0)
		return 0;
	if (u->family == AF_INET) {
		if (getsockopt(u->fd, IPPROTO_IP, IP_MTU, &mtu, &len) < 0)
			return 0;
	} else if (getsockopt(u->fd, IPPROTO_IPV6, IPV6_MTU, &mtu, &len) < 0) {
		return 0;
	}
	return mtu > 0 ? (unsigned)mtu : 0;
}

/* What the error queue held: the largest next-hop MTU an ICMP
 * fragmentation-needed (or packet-too-big) carried, and whether the port
 * was refused. */
struct errq {
	bool toobig;
	bool local;
	unsigned mtu;
	bool refused;
};

/* Reads at most PMTU_ERRQ_MAX error-queue entries into q; also clears the
 * socket's pending error so the next send reports only its own. */
static void drain_errq(struct pmtu_udp *u, struct errq *q)
{
	unsigned char data[64], ctl[512];
	struct sock_extended_err ee;
	struct cmsghdr *c;

	for (int i = 0; i < PMTU_ERRQ_MAX; i++) {
		struct iovec iov = {data, sizeof(data)};
		struct msghdr m = {0};

		m.msg_iov = &iov;
		m.msg_iovlen = 1;
		m.msg_control = ctl;
		m.msg_controllen = sizeof(ctl);
		if (recvmsg(u->fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			break;
		for (c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c)) {
			if (!((c->cmsg_level == IPPROTO_IP &&
			       c->cmsg_type == IP_RECVERR) ||
			      (c->cmsg_level == IPPROTO_IPV6 &&
			       c->cmsg_type == IPV6_RECVERR)))
				continue;
			memcpy(&ee, CMSG_DATA(c), sizeof(ee));
			if (ee.ee_errno == EMSGSIZE) {
				q->toobig = true;
				q->local = ee.ee_origin == SO_EE_ORIGIN_LOCAL;
				if (ee.ee_info > q->mtu)
					q->mtu = ee.ee_info;
			} else if (ee.ee_errno == ECONNREFUSED) {
				q->refused = true;
			}
		}
	}
	(void)sock_error(u->fd);
}

/* One probe: sends a frame of `size` IP bytes and waits for the answer to
 * it (its seq, or any answer that reports receiving this many bytes). */
static int udp_probe(void *ctx, unsigned size, long long timeout_us,
                     struct pmtu_answer *ans)
{
	struct pmtu_udp *u = ctx;
	unsigned char *buf = u->buf;
	unsigned hdr = (u->family == AF_INET ? PMTU_IPV4_HDR : PMTU_IPV6_HDR) +
	               PMTU_UDP_HDR;
	unsigned seq, rseq, bytes, ifmtu;
	size_t len;
	struct errq q = {0};
	long long sent;
	ssize_t n;

	if (size < hdr + PROTO_HDR_LEN + 4 ||
	    size - hdr > PROTO_HDR_LEN + PROTO_MAX_PAYLOAD) {
		errno = EINVAL;
		return PMTU_ERR;
	}
	len = size - hdr;
	seq = ++u->seq;
	drain_errq(u, &q);
	memset(&q, 0, sizeof(q));
	if (pmtu_probe_encode(buf, len, seq) < 0)
		return PMTU_ERR;
	sent = mono_now_us();
	if (send(u->fd, buf, len, 0) < 0) {
		if (errno == EMSGSIZE) {
			drain_errq(u, &q);
			ans->local = true;
			ans->next_mtu = pmtu_udp_kernel_pmtu(u);
			return PMTU_TOOBIG;
		}
		/* ENOBUFS: a local device dropped it (a veth whose peer's
		 * MTU is smaller says so at once): lost, like on the wire */
		if (errno == ECONNREFUSED || errno == EHOSTUNREACH ||
		    errno == ENETUNREACH || errno == ENOBUFS)
			return PMTU_LOST;
		return PMTU_ERR;
	}
	for (int i = 0; i < 1024; i++) {
		int ev;

		if (mono_now_us() - sent >= timeout_us)
			break;
		ev = sock_wait(u->fd, POLLIN, sent + timeout_us);
		if (ev < 0)
			return PMTU_ERR;
		if (ev == 0)
			continue;
		if (ev & POLLERR) {
			drain_errq(u, &q);
			if (q.toobig) {
				ans->local = q.local;
				ans->next_mtu = q.mtu;
				return PMTU_TOOBIG;
			}
			if (q.refused)
				return PMTU_LOST;
		}
		if (!(ev & POLLIN))
			continue;
		n = recv(u->fd, buf, PMTU_UDP_BUF, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR ||
			    errno == EMSGSIZE || errno == ECONNREFUSED)
				continue;
			return PMTU_ERR;
		}
		if (pmtu_reply_decode(buf, (size_t)n, &rseq, &bytes, &ifmtu) <
		        0 ||
		    (rseq != seq && bytes != len))
			continue;
		ans->bytes = bytes;
		ans->peer_ifmtu = ifmtu;
		ans->rtt_us = mono_now_us() - sent;
		return PMTU_OK;
	}
	return PMTU_LOST;
}

/* The clock the search measures its deadline with. */
static long long udp_now(void *ctx)
{
	(void)ctx;
	return mono_now_us();
}

void pmtu_udp_ops(struct pmtu_udp *u, struct pmtu_ops *ops)
{
	ops->probe = udp_probe;
	ops->now_us = udp_now;
	ops->ctx = u;
}
