/* netprobe serve's UDP port: ECHO, MTU_PROBE and REFLECT datagrams, each
 * answered from the address and interface it came to, within the UDP
 * rate. */
#include "serve/serve_udp.h"

#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "base/monoclock.h"
#include "serve/serve_log.h"
#include "serve/serve_sock.h"
#include "wire/client.h"
#include "wire/client_conn.h"

/* MTU of an interface by index; 0 when unknown. */
static uint32_t if_mtu(int fd, unsigned ifindex)
{
	struct ifreq ifr = {0};

	if (!ifindex || !if_indextoname(ifindex, ifr.ifr_name))
		return 0;
	if (ioctl(fd, SIOCGIFMTU, &ifr) < 0)
		return 0;
	return ifr.ifr_mtu > 0 ? (uint32_t)ifr.ifr_mtu : 0;
}

/* The timed echo's held_us for a datagram the kernel received at rx:
 * unknown without a stamp, or past a minute (a clock that stepped). */
static uint32_t held_since(const struct timespec *rx)
{
	long long us = client_us_since_stamp(rx);

	return us < 0 || us >= 60000000LL ? PROTO_ECHO_HELD_UNKNOWN
	                                  : (uint32_t)us;
}

/* Answers one datagram on the responder's UDP port; rx is the kernel's
 * receive stamp, or NULL. */
static void udp_one(struct server *s, size_t n, const struct timespec *rx,
                    const struct sockaddr_storage *from, socklen_t fl,
                    unsigned ifindex, const void *dst_pktinfo, size_t pilen,
                    int pilevel, int pitype)
{
	uint8_t *in = s->udpbuf, out[PROTO_HDR_LEN + 64];
	const uint8_t *reply = out;
	size_t rlen = 0;
	struct proto_hdr h;
	const char *why;
	char cbuf[CMSG_SPACE(sizeof(struct in6_pktinfo))];
	struct iovec iov;
	struct msghdr mh = {0};
	int len;

	if (proto_hdr_decode(in, n, &h, &why) < 0 ||
	    h.length != n - PROTO_HDR_LEN) {
		char name[INET6_ADDRSTRLEN + 8];

		sv_sa_name(from, name, sizeof(name));
		s->st.udp_dropped++;
		sv_log(s, "dropped datagram from %s: %s", name,
		       why ? why : "length mismatch");
		return;
	}
	if (!sv_bucket_take(&s->udp_bucket, SERVE_UDP_RATE, SERVE_UDP_RATE,
	                    mono_now_us())) {
		s->st.udp_rate++;
		return;
	}
	switch (h.type) {
	case PROTO_ECHO:
		/* the reply header goes in front of the payload in place */
		proto_hdr_encode(in, PROTO_ECHO_REPLY, 0, h.length);
		s->st.echo_udp++;
		reply = in;
		rlen = n;
		/* last, so the held time covers all this host did */
		proto_echo_timed_fill(in + PROTO_HDR_LEN, h.length,
		                      held_since(rx));
		break;
	case PROTO_MTU_PROBE: {
		struct proto_mtu_reply m = {.bytes = (uint32_t)n};

		if (proto_mtu_probe_decode(in + PROTO_HDR_LEN, h.length, &m.seq,
		                           &why) < 0)
			return;
		m.ifmtu = if_mtu(s->udp.fd, ifindex);
		len = proto_mtu_reply_encode(&m, out + PROTO_HDR_LEN, 64);
		proto_hdr_encode(out, PROTO_MTU_REPLY, 0, (uint32_t)len);
		rlen = PROTO_HDR_LEN + (size_t)len;
		break;
	}
	case PROTO_REFLECT: {
		struct proto_reflect_reply r;

		sv_reflect_of(from, &r);
		len = proto_reflect_reply_encode(&r, out + PROTO_HDR_LEN, 64);
		proto_hdr_encode(out, PROTO_REFLECT_REPLY, 0, (uint32_t)len);
		rlen = PROTO_HDR_LEN + (size_t)len;
		break;
	}
	default:
		return; /* nothing else is answered over UDP */
	}
	iov.iov_base = (void *)reply;
	iov.iov_len = rlen;
	mh.msg_name = (void *)from;
	mh.msg_namelen = fl;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (dst_pktinfo && pilen) {
		/* answer from the address the datagram was sent to */
		struct cmsghdr *cm;

		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(pilen);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = pilevel;
		cm->cmsg_type = pitype;
		cm->cmsg_len = CMSG_LEN(pilen);
		memcpy(CMSG_DATA(cm), dst_pktinfo, pilen);
	}
	sendmsg(s->udp.fd, &mh, MSG_DONTWAIT);
}

/* Reads pending datagrams on the responder's UDP port with the address
 * and interface they came to, and answers each. */
void sv_udp_read(struct server *s)
{
	for (int i = 0; i < 64; i++) {
		struct sockaddr_storage from;
		char cbuf[256];
		struct iovec iov = {s->udpbuf, sizeof(s->udpbuf)};
		struct msghdr mh = {.msg_name = &from,
		                    .msg_namelen = sizeof(from),
		                    .msg_iov = &iov,
		                    .msg_iovlen = 1,
		                    .msg_control = cbuf,
		                    .msg_controllen = sizeof(cbuf)};
		struct in_pktinfo pi4;
		struct in6_pktinfo pi6;
		const void *pi = NULL;
		size_t pilen = 0;
		int pilevel = 0, pitype = 0;
		unsigned ifindex = 0;
		struct timespec rx = {0, 0};
		ssize_t n = recvmsg(s->udp.fd, &mh, MSG_DONTWAIT);

		if (n < 0)
			return;
		if (mh.msg_flags & MSG_TRUNC)
			continue;
		for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm;
		     cm = CMSG_NXTHDR(&mh, cm)) {
			if (cm->cmsg_level == IPPROTO_IP &&
			    cm->cmsg_type == IP_PKTINFO) {
				memcpy(&pi4, CMSG_DATA(cm), sizeof(pi4));
				ifindex = (unsigned)pi4.ipi_ifindex;
				pi4.ipi_ifindex = 0;
				pi4.ipi_spec_dst = pi4.ipi_addr;
				pi = &pi4;
				pilen = sizeof(pi4);
				pilevel = IPPROTO_IP;
				pitype = IP_PKTINFO;
			} else if (cm->cmsg_level == IPPROTO_IPV6 &&
			           cm->cmsg_type == IPV6_PKTINFO) {
				memcpy(&pi6, CMSG_DATA(cm), sizeof(pi6));
				ifindex = pi6.ipi6_ifindex;
				pi6.ipi6_ifindex = 0;
				pi = &pi6;
				pilen = sizeof(pi6);
				pilevel = IPPROTO_IPV6;
				pitype = IPV6_PKTINFO;
			} else if (cm->cmsg_level == SOL_SOCKET &&
			           cm->cmsg_type == SCM_TIMESTAMPNS) {
				memcpy(&rx, CMSG_DATA(cm), sizeof(rx));
			}
		}
		udp_one(s, (size_t)n, &rx, &from, mh.msg_namelen, ifindex, pi, pilen,
		        pilevel, pitype);
	}
}
