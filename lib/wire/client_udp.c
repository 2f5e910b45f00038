/* UDP through a responder: one ECHO datagram and its reply, and the
 * open / closed / filtered verdict of a UDP port from answers and ICMP
 * errors. No TCP session is needed. */
#include "wire/client.h"

#include <errno.h>
#include <linux/errqueue.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"
#include "wire/client_conn.h"

/* Reads an ICMP error from the error queue into state and reason. Returns
 * true when one was there. */
static bool icmp_verdict(int fd, enum port_state *state, char *reason)
{
	char cbuf[512];
	uint8_t dummy[64];
	struct iovec iov = {dummy, sizeof(dummy)};
	struct msghdr mh = {.msg_iov = &iov,
	                    .msg_iovlen = 1,
	                    .msg_control = cbuf,
	                    .msg_controllen = sizeof(cbuf)};

	if (recvmsg(fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
		return false;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm;
	     cm = CMSG_NXTHDR(&mh, cm)) {
		struct sock_extended_err ee;

		if (!((cm->cmsg_level == IPPROTO_IP &&
		       cm->cmsg_type == IP_RECVERR) ||
		      (cm->cmsg_level == IPPROTO_IPV6 &&
		       cm->cmsg_type == IPV6_RECVERR)))
			continue;
		memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
		if (ee.ee_origin != SO_EE_ORIGIN_ICMP &&
		    ee.ee_origin != SO_EE_ORIGIN_ICMP6)
			continue;
		snprintf(reason, CLIENT_REASON_MAX, "icmp%s type %u code %u",
		         ee.ee_origin == SO_EE_ORIGIN_ICMP6 ? "6" : "",
		         ee.ee_type, ee.ee_code);
		if (ee.ee_origin == SO_EE_ORIGIN_ICMP)
			*state = ee.ee_code == 3 ? PORT_CLOSED
			         : (ee.ee_code == 9 || ee.ee_code == 10 ||
			            ee.ee_code == 13)
			             ? PORT_PROHIBITED
			             : PORT_UNREACHABLE;
		else
			*state = ee.ee_code == 4   ? PORT_CLOSED
			         : ee.ee_code == 1 ? PORT_PROHIBITED
			                           : PORT_UNREACHABLE;
		return true;
	}
	return false;
}

/* One UDP ECHO on a connected socket and its matching reply. */
static int client_udp_echo(int fd, const void *payload, size_t len,
                           long long deadline_us, long long *rtt_us)
{
	uint8_t out[PROTO_HDR_LEN + 256], in[PROTO_HDR_LEN + 256];
	long long t0 = mono_now_us();
	struct proto_hdr h;
	const char *why;

	if (len > 256) {
		errno = EMSGSIZE;
		return -1;
	}
	proto_hdr_encode(out, PROTO_ECHO, 0, (uint32_t)len);
	if (len)
		memcpy(out + PROTO_HDR_LEN, payload, len);
	if (send(fd, out, PROTO_HDR_LEN + len, MSG_NOSIGNAL) < 0)
		return -1;
	for (int i = 0; i < 64; i++) {
		int r = sock_wait(fd, POLLIN, deadline_us);
		ssize_t n;

		if (r < 0)
			return -1;
		if (r == 0)
			return 1;
		n = recv(fd, in, sizeof(in), MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -1;
		}
		if (proto_hdr_decode(in, (size_t)n, &h, &why) == 0 &&
		    h.type == PROTO_ECHO_REPLY &&
		    h.length == (size_t)n - PROTO_HDR_LEN && h.length == len &&
		    (len == 0 ||
		     memcmp(in + PROTO_HDR_LEN, payload, len) == 0)) {
			if (rtt_us)
				*rtt_us = mono_now_us() - t0;
			return 0;
		}
	}
	return 1;
}

/* UDP reachability through a responder: three tries within the
 * timeout, ICMP errors read from the error queue. */
int client_udp_probe(const char *host, unsigned port, long long timeout_us,
                     enum port_state *state, char *reason, long long *rtt_us)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	char err[CLIENT_ERR_MAX];
	long long deadline, now;
	int fd, one = 1, tries = 3;
	uint8_t stamp[PROTO_ECHO_STAMP_LEN];

	*state = PORT_UNKNOWN;
	if (rtt_us)
		*rtt_us = -1;
	if (client_resolve(host, port, SOCK_DGRAM, &ss, &sl, err, sizeof(err)) <
	    0) {
		*state = PORT_RESOLVE;
		snprintf(reason, CLIENT_REASON_MAX, "resolve");
		return 0;
	}
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &one, sizeof(one));
	else
		setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&ss, sl) < 0) {
		int e = errno;

		close(fd);
		*state = PORT_UNREACHABLE;
		snprintf(reason, CLIENT_REASON_MAX, "%s", strerror(e));
		return 0;
	}
	deadline = mono_now_us() + (timeout_us > 0 ? timeout_us : 1000000);
	for (int i = 0; i < tries; i++) {
		struct proto_echo_stamp st = {(uint32_t)i,
		                              (uint64_t)mono_now_us()};
		long long slice, rtt;
		int r;

		now = mono_now_us();
		if (now >= deadline)
			break;
		slice = (deadline - now) / (tries - i);
		proto_echo_stamp_encode(&st, stamp, sizeof(stamp));
		r = client_udp_echo(fd, stamp, sizeof(stamp), now + slice,
		                    &rtt);
		if (r == 0) {
			*state = PORT_OPEN;
			snprintf(reason, CLIENT_REASON_MAX, "responder");
			if (rtt_us)
				*rtt_us = rtt;
			close(fd);
			return 0;
		}
		if (r < 0) {
			if (icmp_verdict(fd, state, reason)) {
				close(fd);
				return 0;
			}
			if (errno == ECONNREFUSED) {
				*state = PORT_CLOSED;
				snprintf(reason, CLIENT_REASON_MAX,
				         "icmp type 3 code 3");
				close(fd);
				return 0;
			}
			if (errno == EHOSTUNREACH || errno == ENETUNREACH) {
				*state = PORT_UNREACHABLE;
				snprintf(reason, CLIENT_REASON_MAX, "%s",
				         strerror(errno));
				close(fd);
				return 0;
			}
			if (errno != EAGAIN && errno != EINTR) {
				int e = errno;

				close(fd);
				errno = e;
				return -1;
			}
		}
	}
	*state = PORT_FILTERED;
	snprintf(reason, CLIENT_REASON_MAX, "timeout");
	close(fd);
	return 0;
}
