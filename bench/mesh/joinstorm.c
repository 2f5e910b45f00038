/* bench/mesh: a join storm against node 0 (joinstorm.sh). N light members,
 * each on its own loopback address 127.0.X.Y, connect and send JOIN to
 * node 0 within about a second, wait for the plan (MESH_START and the
 * MEMBERS frames), send a small document (RESULT) and wait for the
 * VERDICT. Prints how many were started, refused, admitted and given a
 * verdict, and when the last plan and verdict came.
 * Usage: joinstorm N PORT SECONDS (members are ranks 1..N of N + 1). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"
#include "wire/proto.h"
#include "wire/proto_mesh.h"

struct m {
	int fd, st; /* 0 connecting+join queued, 1 admitted wait, 2 verdict */
	uint8_t out[2048];
	size_t nout, outoff;
	uint8_t *in;
	size_t nin, cap;
	long long start_us, plan_us, verdict_us;
	int refused;
};

/* Queues one frame of type with payload p. */
static void queue(struct m *m, uint8_t type, const uint8_t *p, size_t n)
{
	if (m->nout + PROTO_HDR_LEN + n > sizeof(m->out))
		return;
	proto_hdr_encode(m->out + m->nout, type, 0, (uint32_t)n);
	memcpy(m->out + m->nout + PROTO_HDR_LEN, p, n);
	m->nout += PROTO_HDR_LEN + n;
}

/* Handles every whole frame in m's input. */
static void frames(struct m *m, int rank)
{
	size_t off = 0;

	while (m->nin - off >= PROTO_HDR_LEN) {
		struct proto_hdr h;
		const char *why;

		if (proto_hdr_decode(m->in + off, m->nin - off, &h, &why) < 0) {
			m->refused = 1;
			m->st = 3;
			return;
		}
		if (m->nin - off < PROTO_HDR_LEN + h.length)
			break;
		if (h.type == PROTO_MESH_START && !m->plan_us) {
			char doc[160];
			uint8_t buf[256];
			int n, k;

			m->plan_us = mono_now_us();
			k = snprintf(doc, sizeof(doc),
				     "{\"schema\":\"netprobe/1\",\"tool\":"
				     "\"netprobe\",\"command\":\"scan\","
				     "\"host\":\"m%d\",\"findings\":[],"
				     "\"errors\":[]}",
				     rank);
			n = proto_result_encode((uint32_t)k, 0, doc, (size_t)k,
						buf, sizeof(buf));
			if (n > 0)
				queue(m, PROTO_RESULT, buf, (size_t)n);
		} else if (h.type == PROTO_VERDICT) {
			m->verdict_us = mono_now_us();
			m->st = 2;
		} else if (h.type == PROTO_ERROR) {
			m->refused = 1;
			m->st = 3;
		}
		off += PROTO_HDR_LEN + h.length;
	}
	memmove(m->in, m->in + off, m->nin - off);
	m->nin -= off;
}

int main(int argc, char **argv)
{
	struct rlimit rl = {16384, 16384};
	struct sockaddr_in node0 = {.sin_family = AF_INET};
	int n, port, nstarted = 0;
	double secs;
	struct m *ms;
	struct pollfd *pf;
	long long t0, end;

	if (argc != 4)
		return 2;
	n = atoi(argv[1]);
	port = atoi(argv[2]);
	secs = atof(argv[3]);
	if (n < 1 || n > 4000 || port < 1 || port > 65535)
		return 2;
	setrlimit(RLIMIT_NOFILE, &rl);
	ms = calloc((size_t)n, sizeof(*ms));
	pf = calloc((size_t)n, sizeof(*pf));
	if (ms == NULL || pf == NULL)
		return 2;
	node0.sin_port = htons((uint16_t)port);
	node0.sin_addr.s_addr = htonl(0x7f000001);
	t0 = mono_now_us();
	end = t0 + (long long)(secs * 1e6);
	/* every member connects within about a second */
	for (int i = 0; i < n; i++) {
		struct sockaddr_in me = {.sin_family = AF_INET};
		struct proto_join j = {0};
		uint8_t buf[1024];
		int len, rank = i + 1;

		me.sin_addr.s_addr =
		    htonl(0x7f000000u | (uint32_t)(1 + rank / 250) << 8 |
			  (uint32_t)(2 + rank % 250));
		ms[i].fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		ms[i].start_us = mono_now_us();
		if (ms[i].fd < 0 ||
		    bind(ms[i].fd, (struct sockaddr *)&me, sizeof(me)) < 0 ||
		    sock_connect_start(ms[i].fd, (struct sockaddr *)&node0,
				       sizeof(node0)) < 0) {
			ms[i].refused = 1;
			ms[i].st = 3;
			continue;
		}
		j.rank = (uint32_t)rank;
		j.size = (uint32_t)n + 1;
		j.port = 9; /* nothing answers there: refused at once */
		snprintf(j.name, sizeof(j.name), "127.0.%u.%u", 1 + rank / 250,
			 2 + rank % 250);
		snprintf(j.hostname, sizeof(j.hostname), "m%d", rank);
		j.naddrs = 1;
		j.addrs[0].family = 4;
		memcpy(j.addrs[0].addr, &me.sin_addr, 4);
		len = proto_join_encode(&j, buf, sizeof(buf));
		if (len > 0)
			queue(&ms[i], PROTO_JOIN, buf, (size_t)len);
		nstarted++;
	}
	while (mono_now_us() < end) {
		int live = 0, r;

		for (int i = 0; i < n; i++) {
			pf[i].fd = ms[i].st >= 2 ? -1 : ms[i].fd;
			pf[i].events = POLLIN |
				       (ms[i].outoff < ms[i].nout ? POLLOUT : 0);
			live += pf[i].fd >= 0;
		}
		if (live == 0)
			break;
		r = poll(pf, (nfds_t)n, 200);
		for (int i = 0; r > 0 && i < n; i++) {
			struct m *m = &ms[i];

			if (pf[i].revents & POLLOUT) {
				ssize_t w = send(m->fd, m->out + m->outoff,
						 m->nout - m->outoff,
						 MSG_NOSIGNAL);
				if (w > 0)
					m->outoff += (size_t)w;
			}
			if (pf[i].revents & (POLLIN | POLLHUP | POLLERR)) {
				ssize_t got;

				if (m->cap - m->nin < 65536) {
					m->cap = m->cap ? 2 * m->cap : 131072;
					m->in = realloc(m->in, m->cap);
					if (m->in == NULL)
						return 2;
				}
				got = recv(m->fd, m->in + m->nin,
					   m->cap - m->nin, 0);
				if (got <= 0) {
					if (m->st < 2) {
						m->refused = 1;
						m->st = 3;
					}
					continue;
				}
				m->nin += (size_t)got;
				frames(m, i + 1);
			}
		}
	}
	{
		int refused = 0, planned = 0, verdicts = 0;
		long long last_plan = 0, last_verdict = 0, last_start = 0;

		for (int i = 0; i < n; i++) {
			refused += ms[i].refused;
			planned += ms[i].plan_us > 0;
			verdicts += ms[i].verdict_us > 0;
			if (ms[i].plan_us - t0 > last_plan)
				last_plan = ms[i].plan_us - t0;
			if (ms[i].verdict_us - t0 > last_verdict)
				last_verdict = ms[i].verdict_us - t0;
			if (ms[i].start_us - t0 > last_start)
				last_start = ms[i].start_us - t0;
		}
		printf("joinstorm: members %d started %d (the last %lld ms "
		       "after the first) refused_or_lost %d planned %d "
		       "last_plan_ms %lld verdicts %d last_verdict_ms %lld\n",
		       n, nstarted, last_start / 1000, refused, planned,
		       last_plan / 1000, verdicts, last_verdict / 1000);
		return refused == 0 && verdicts == n ? 0 : 1;
	}
}
