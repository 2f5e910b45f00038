/* Load generator for bench/serve: N TCP clients each sending a stamped
 * ECHO at a fixed rate to one responder for a while; prints how many were
 * answered and the RTT percentiles. Bench tool, not part of netprobe. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "wire/proto.h"

struct cl {
	int fd;
	long long next_us;
	size_t rlen;
	unsigned char rbuf[256];
};

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	struct rlimit rl = {65536, 65536};
	struct epoll_event evs[256];
	long long sent = 0, recvd = 0, *rtt, nrtt = 0, t_end, period, cap;
	int n, hz, secs, ep, one = 1, failed = 0;
	struct cl *c;

	if (argc != 6) {
		fprintf(stderr, "usage: load ADDR PORT CLIENTS HZ SECONDS\n");
		return 2;
	}
	inet_pton(AF_INET, argv[1], &sa.sin_addr);
	sa.sin_port = htons((uint16_t)atoi(argv[2]));
	n = atoi(argv[3]);
	hz = atoi(argv[4]);
	secs = atoi(argv[5]);
	if (n < 1 || n > 20000 || hz < 1 || hz > 1000 || secs < 1 || secs > 600)
		return 2;
	setrlimit(RLIMIT_NOFILE, &rl);
	period = 1000000 / hz;
	c = calloc((size_t)n, sizeof(*c));
	cap = (long long)n * hz * (secs + 1);
	rtt = malloc(sizeof(*rtt) * (size_t)cap);
	ep = epoll_create1(0);
	if (!c || !rtt || ep < 0)
		return 2;
	for (int i = 0; i < n; i++) {
		struct epoll_event ee = {.events = EPOLLIN,
		                         .data.u32 = (uint32_t)i};

		c[i].fd = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(c[i].fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			failed++;
			close(c[i].fd);
			c[i].fd = -1;
			continue;
		}
		setsockopt(c[i].fd, IPPROTO_TCP, TCP_NODELAY, &one,
		           sizeof(one));
		epoll_ctl(ep, EPOLL_CTL_ADD, c[i].fd, &ee);
	}
	for (int i = 0; i < n; i++) /* staggered from one start */
		c[i].next_us = mono_now_us() + (period * i) / n;
	t_end = mono_now_us() + (long long)secs * 1000000;
	while (mono_now_us() < t_end + 500000) {
		long long t = mono_now_us(), wake = t + 1000;
		int k;

		for (int i = 0; i < n && t < t_end; i++) {
			unsigned char f[PROTO_HDR_LEN + 8];

			if (c[i].fd < 0 || c[i].next_us > t)
				continue;
			proto_hdr_encode(f, PROTO_ECHO, 0, 8);
			memcpy(f + PROTO_HDR_LEN, &t, 8);
			if (send(c[i].fd, f, sizeof(f), MSG_NOSIGNAL) ==
			    (ssize_t)sizeof(f))
				sent++;
			c[i].next_us += period;
			if (c[i].next_us < t) /* fell behind: no burst */
				c[i].next_us = t + period;
		}
		k = epoll_wait(ep, evs, 256, (int)((wake - t) / 1000));
		for (int e = 0; e < k; e++) {
			struct cl *x = &c[evs[e].data.u32];
			ssize_t r =
			    recv(x->fd, x->rbuf + x->rlen,
			         sizeof(x->rbuf) - x->rlen, MSG_DONTWAIT);
			size_t off = 0;

			if (r <= 0)
				continue;
			x->rlen += (size_t)r;
			while (x->rlen - off >= PROTO_HDR_LEN + 8) {
				long long ts;

				memcpy(&ts, x->rbuf + off + PROTO_HDR_LEN, 8);
				if (nrtt < cap)
					rtt[nrtt++] = mono_now_us() - ts;
				recvd++;
				off += PROTO_HDR_LEN + 8;
			}
			memmove(x->rbuf, x->rbuf + off, x->rlen - off);
			x->rlen -= off;
		}
	}
	qsort(rtt, (size_t)nrtt, sizeof(*rtt), cmp);
	printf("clients %d (connect failed %d) at %d Hz for %d s: sent %lld "
	       "answered %lld (%.3f%% lost)\n",
	       n, failed, hz, secs, sent, recvd,
	       sent ? 100.0 * (double)(sent - recvd) / (double)sent : 0.0);
	if (nrtt)
		printf("rtt_us median %lld p99 %lld max %lld\n", rtt[nrtt / 2],
		       rtt[nrtt * 99 / 100], rtt[nrtt - 1]);
	for (int i = 0; i < n; i++)
		if (c[i].fd >= 0)
			close(c[i].fd);
	free(c);
	free(rtt);
	close(ep);
	return failed || recvd != sent ? 1 : 0;
}
