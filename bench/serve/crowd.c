/* Crowd generator for bench/serve (issue 34): N clients from A loopback
 * source addresses connect at once to a responder whose table is smaller
 * than N. Each says HELLO; the admitted ones (HELLO answered) then send an
 * ECHO at HZ for SECONDS. Counts, per client, what the responder did:
 * admitted and kept every echo, refused (ERROR at once, with its reason),
 * dropped while served (an ERROR "dropped" or a close after the HELLO).
 * Exit 0 when every admitted client kept every echo, none was dropped and
 * every other one was refused with a reason. Bench tool, not netprobe. */
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
#include "base/sock.h"
#include "wire/proto.h"

enum st { CONNECTING, HELLO_SENT, ADMITTED, REFUSED, DROPPED, CLOSED };

struct cl {
	int fd;
	enum st st;
	long long next_us, sent, got;
	size_t rlen;
	unsigned char rbuf[512];
	char why[128];
};

/* The HELLO frame of a client: version 2, no limits, node "crowd". */
static size_t hello_frame(unsigned char *f)
{
	static const unsigned char p[] = {0, 2, 0, 0, 0, 0, 0, 0, 0, 0,
	                                  5, 'c', 'r', 'o', 'w', 'd',
	                                  5, 'c', 'r', 'o', 'w', 'd'};

	proto_hdr_encode(f, PROTO_HELLO, 0, sizeof(p));
	memcpy(f + PROTO_HDR_LEN, p, sizeof(p));
	return PROTO_HDR_LEN + sizeof(p);
}

/* One whole frame from the responder. */
static void on_frame(struct cl *x, unsigned type, const unsigned char *p,
                     size_t n, long long t, long long period)
{
	if (type == PROTO_HELLO && x->st == HELLO_SENT) {
		x->st = ADMITTED;
		x->next_us = t + (long long)(rand() % (int)period);
	} else if (type == PROTO_ECHO_REPLY) {
		x->got++;
	} else if (type == PROTO_ERROR && n >= 2) {
		unsigned code = (unsigned)p[0] << 8 | p[1];
		size_t m = n - 2;

		if (m > sizeof(x->why) - 1)
			m = sizeof(x->why) - 1;
		memcpy(x->why, p + 2, m);
		x->why[m] = '\0';
		x->st = x->st == ADMITTED || code == 10 ? DROPPED : REFUSED;
	}
}

/* The socket was readable: frames, or the close. */
static void on_read(struct cl *x, long long t, long long period)
{
	for (int round = 0; round < 8; round++) {
		ssize_t r = recv(x->fd, x->rbuf + x->rlen,
		                 sizeof(x->rbuf) - x->rlen, MSG_DONTWAIT);
		size_t off = 0;

		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
			if (x->st == HELLO_SENT || x->st == CONNECTING ||
			    x->st == ADMITTED)
				x->st = x->st == ADMITTED ? DROPPED : CLOSED;
			close(x->fd);
			x->fd = -1;
			return;
		}
		if (r < 0)
			return;
		x->rlen += (size_t)r;
		while (x->rlen - off >= PROTO_HDR_LEN) {
			unsigned char *h = x->rbuf + off;
			size_t len = (size_t)h[8] << 24 | (size_t)h[9] << 16 |
			             (size_t)h[10] << 8 | h[11];

			if (len > sizeof(x->rbuf) - PROTO_HDR_LEN) {
				x->st = CLOSED;
				close(x->fd);
				x->fd = -1;
				return;
			}
			if (x->rlen - off < PROTO_HDR_LEN + len)
				break;
			on_frame(x, h[5], h + PROTO_HDR_LEN, len, t, period);
			off += PROTO_HDR_LEN + len;
		}
		memmove(x->rbuf, x->rbuf + off, x->rlen - off);
		x->rlen -= off;
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa = {.sin_family = AF_INET}, src = sa;
	struct rlimit rl;
	struct epoll_event evs[512];
	long long t_end, period, sent = 0, got = 0, kept = 0;
	int n, na, hz, secs, ep, one = 1, cnt[6] = {0};
	uint32_t base;
	struct cl *c;

	if (argc != 8) {
		fprintf(stderr, "usage: crowd ADDR PORT CLIENTS FIRST_SRC "
		                "NSRC HZ SECONDS\n");
		return 2;
	}
	inet_pton(AF_INET, argv[1], &sa.sin_addr);
	sa.sin_port = htons((uint16_t)atoi(argv[2]));
	n = atoi(argv[3]);
	if (inet_pton(AF_INET, argv[4], &src.sin_addr) != 1)
		return 2;
	base = ntohl(src.sin_addr.s_addr);
	na = atoi(argv[5]);
	hz = atoi(argv[6]);
	secs = atoi(argv[7]);
	if (n < 1 || n > 16000 || na < 1 || na > 65000 || hz < 1 ||
	    hz > 1000 || secs < 1 || secs > 600)
		return 2;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
		if (rl.rlim_cur < (rlim_t)n + 16) {
			fprintf(stderr, "crowd: open-file limit %llu is below "
			                "%d clients\n",
			        (unsigned long long)rl.rlim_cur, n);
			return 2;
		}
	}
	period = 1000000 / hz;
	c = calloc((size_t)n, sizeof(*c));
	ep = epoll_create1(0);
	if (!c || ep < 0)
		return 2;
	srand(1);
	for (int i = 0; i < n; i++) {
		struct epoll_event ee = {.events = EPOLLOUT | EPOLLIN,
		                         .data.u32 = (uint32_t)i};

		src.sin_addr.s_addr = htonl(base + (uint32_t)(i % na));
		src.sin_port = 0;
		c[i].fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		if (c[i].fd < 0 ||
		    bind(c[i].fd, (struct sockaddr *)&src, sizeof(src)) < 0 ||
		    sock_connect_start(c[i].fd, (struct sockaddr *)&sa,
				       sizeof(sa)) < 0) {
			fprintf(stderr, "crowd: client %d: %s\n", i,
			        strerror(errno));
			return 2;
		}
		setsockopt(c[i].fd, IPPROTO_TCP, TCP_NODELAY, &one,
		           sizeof(one));
		epoll_ctl(ep, EPOLL_CTL_ADD, c[i].fd, &ee);
	}
	t_end = mono_now_us() + (long long)secs * 1000000;
	while (mono_now_us() < t_end + 1000000) {
		long long t = mono_now_us();
		int k;

		for (int i = 0; i < n && t < t_end; i++) {
			unsigned char f[PROTO_HDR_LEN + 8];

			if (c[i].st != ADMITTED || c[i].next_us > t)
				continue;
			proto_hdr_encode(f, PROTO_ECHO, 0, 8);
			memcpy(f + PROTO_HDR_LEN, &t, 8);
			if (send(c[i].fd, f, sizeof(f), MSG_NOSIGNAL) ==
			    (ssize_t)sizeof(f))
				c[i].sent++;
			c[i].next_us += period;
			if (c[i].next_us < t)
				c[i].next_us = t + period;
		}
		k = epoll_wait(ep, evs, 512, 1);
		for (int e = 0; e < k; e++) {
			struct cl *x = &c[evs[e].data.u32];

			if (x->fd < 0)
				continue;
			if (x->st == CONNECTING && (evs[e].events & EPOLLOUT)) {
				unsigned char f[64];
				struct epoll_event ee = {
				    .events = EPOLLIN,
				    .data.u32 = evs[e].data.u32};

				if (send(x->fd, f, hello_frame(f),
				         MSG_NOSIGNAL) > 0)
					x->st = HELLO_SENT;
				epoll_ctl(ep, EPOLL_CTL_MOD, x->fd, &ee);
			}
			if (evs[e].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
				on_read(x, mono_now_us(), period);
		}
	}
	for (int i = 0; i < n; i++) {
		cnt[c[i].st]++;
		if (c[i].st == ADMITTED || c[i].st == DROPPED) {
			sent += c[i].sent;
			got += c[i].got;
			kept += c[i].st == ADMITTED && c[i].sent == c[i].got &&
			        c[i].sent > 0;
		}
	}
	printf("crowd: %d clients from %d addresses, %d Hz for %d s\n", n, na,
	       hz, secs);
	printf("admitted and held %d (kept every echo: %lld), refused %d, "
	       "dropped %d, closed without a word %d, never answered %d\n",
	       cnt[ADMITTED], kept, cnt[REFUSED], cnt[DROPPED], cnt[CLOSED],
	       cnt[CONNECTING] + cnt[HELLO_SENT]);
	printf("echoes of the admitted: sent %lld answered %lld lost %lld\n",
	       sent, got, sent - got);
	for (int s = REFUSED; s <= DROPPED; s++) {
		const char *shown[8] = {0};
		int times[8] = {0}, ns = 0;

		for (int i = 0; i < n; i++) {
			int j;

			if ((int)c[i].st != s)
				continue;
			for (j = 0; j < ns && strcmp(shown[j], c[i].why); j++)
				;
			if (j == ns && ns < 8)
				shown[ns++] = c[i].why;
			if (j < 8)
				times[j]++;
		}
		for (int j = 0; j < ns; j++)
			printf("  %s %d x '%s'\n",
			       s == REFUSED ? "refused" : "dropped", times[j],
			       shown[j]);
	}
	for (int i = 0; i < n; i++)
		if (c[i].fd >= 0)
			close(c[i].fd);
	free(c);
	close(ep);
	return kept == cnt[ADMITTED] && cnt[DROPPED] == 0 && cnt[CLOSED] == 0 &&
	               cnt[CONNECTING] + cnt[HELLO_SENT] == 0 &&
	               cnt[ADMITTED] + cnt[REFUSED] == n
	           ? 0
	           : 1;
}
