/* The link's loss and tail latency (issue 31): timed UDP echoes, one at a
 * time. A stall of either host (a loaded machine that does not schedule
 * the responder or the prober for 300 ms) delays the echoes that wait on
 * it; the kernel's receive stamps on both ends say for how long, and that
 * time is taken out, so only the link's own delay makes a tail. */
#include "probe/peerloss.h"

#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"
#include "probe/peerprobe.h"
#include "wire/client_conn.h"
#include "wire/proto.h"
#include "wire/proto_msg.h"

#define LOSS_SEQ0 0x31000

/* One echo's figures: its round trip (the link's), and what the hosts
 * held it for; -1 unanswered. */
struct echo_got {
	long long rtt_us, hosts_us;
};

/* See peerloss.h. */
long long peerloss_link_rtt(long long raw_us, long long late_us,
                            long long held_us, long long *hosts_us)
{
	long long out = 0;

	if (raw_us < 0)
		raw_us = 0;
	if (late_us > 0 && late_us <= raw_us)
		out += late_us;
	if (held_us > 0 && out + held_us <= raw_us)
		out += held_us;
	if (hosts_us)
		*hosts_us = out;
	return raw_us - out;
}

/* Reads one pending datagram on fd; when it is the reply to one of our
 * nsent echoes not yet answered, records its figures in got. Returns -1
 * on an ICMP error or socket error, else 0. */
static int read_reply(int fd, struct echo_got *got, int nsent)
{
	uint8_t in[PROTO_HDR_LEN + PROTO_ECHO_TIMED_LEN + 4];
	char cbuf[CMSG_SPACE(sizeof(struct timespec)) + 64];
	struct iovec iov = {in, sizeof(in)};
	struct msghdr mh = {.msg_iov = &iov,
	                    .msg_iovlen = 1,
	                    .msg_control = cbuf,
	                    .msg_controllen = sizeof(cbuf)};
	struct timespec rx = {0, 0};
	struct proto_echo_timed t;
	struct proto_hdr h;
	const char *why;
	long long now, late, held = -1;
	ssize_t n = recvmsg(fd, &mh, MSG_DONTWAIT);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm;
	     cm = CMSG_NXTHDR(&mh, cm))
		if (cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_TIMESTAMPNS)
			memcpy(&rx, CMSG_DATA(cm), sizeof(rx));
	if (proto_hdr_decode(in, (size_t)n, &h, &why) < 0 ||
	    h.type != PROTO_ECHO_REPLY ||
	    proto_echo_timed_decode(in + PROTO_HDR_LEN,
	                            (size_t)n - PROTO_HDR_LEN, &t, &why) < 0)
		return 0;
	int i = (int)t.seq - LOSS_SEQ0;

	if (i < 0 || i >= nsent || got[i].rtt_us >= 0)
		return 0;
	if (t.ask == PROTO_ECHO_HELD_ASK && t.held_us != PROTO_ECHO_HELD_UNKNOWN)
		held = t.held_us;
	/* our own lateness first, then the clock the round trip ends on:
	 * read the other way round (now before recvmsg, as it was), a
	 * prober descheduled between the two counted that time as late
	 * but not in the round trip, late + held then passed the round
	 * trip and the held time was not taken out (a false link-slow of
	 * 400 ms in the t_linktail lab on a loaded CI machine) */
	late = client_us_since_stamp(&rx);
	now = mono_now_us();
	got[i].rtt_us = peerloss_link_rtt(now - (long long)t.sent_us, late,
	                                  held, &got[i].hosts_us);
	return 0;
}

/* True when every one of the nsent echoes is answered. */
static bool all_answered(const struct echo_got *got, int nsent)
{
	for (int i = 0; i < nsent; i++)
		if (got[i].rtt_us < 0)
			return false;
	return true;
}

/* Waits until deadline_us for echo replies on fd; each marks its echo
 * answered (a late one too: delayed is not lost). Returns 1 once echo
 * want is answered (want -1: every echo sent), 0 at the deadline, -1 on
 * an ICMP error (nothing answers UDP there: a NAT that publishes TCP
 * only, a firewall) or a socket error. A healthy link's last wait so ends
 * with its last reply, not at the bound: the bound's 2.5 s were the
 * whole of a small mesh's time to its verdict (issue 44). */
static int wait_replies(int fd, int want, long long deadline_us,
                        struct echo_got *got, int nsent)
{
	for (int k = 0; k < 4 * PEER_LOSS_ECHOES; k++) {
		int r;

		if (want >= 0 ? got[want].rtt_us >= 0
		              : all_answered(got, nsent))
			return 1;
		r = sock_wait(fd, POLLIN, deadline_us);
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		if (read_reply(fd, got, nsent) < 0)
			return -1;
	}
	return want >= 0 ? got[want].rtt_us >= 0 : all_answered(got, nsent);
}

/* Orders two RTTs. */
static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Sends echo i, timed. Returns 0, or -1. */
static int send_echo(int fd, int i)
{
	struct proto_echo_timed t = {(uint32_t)(LOSS_SEQ0 + i),
	                             (uint64_t)mono_now_us(),
	                             PROTO_ECHO_HELD_ASK,
	                             PROTO_ECHO_HELD_UNKNOWN};
	uint8_t b[PROTO_HDR_LEN + PROTO_ECHO_TIMED_LEN];

	proto_hdr_encode(b, PROTO_ECHO, 0, PROTO_ECHO_TIMED_LEN);
	if (proto_echo_timed_encode(&t, b + PROTO_HDR_LEN,
	                            PROTO_ECHO_TIMED_LEN) < 0)
		return -1;
	return send(fd, b, sizeof(b), MSG_NOSIGNAL) < 0 ? -1 : 0;
}

/* The figures of the answered echoes into v. */
static void sum_up(const struct echo_got *got, int sent,
                   struct peer_verdict *v)
{
	long long rtt[PEER_LOSS_ECHOES];
	int n = 0;

	v->udp_sent = sent;
	for (int i = 0; i < sent; i++) {
		if (got[i].rtt_us < 0)
			continue;
		rtt[n++] = got[i].rtt_us;
		if (got[i].hosts_us > v->hosts_held_max_us)
			v->hosts_held_max_us = got[i].hosts_us;
	}
	v->udp_lost = sent - n;
	if (n > 0) {
		qsort(rtt, (size_t)n, sizeof(rtt[0]), cmp_ll);
		v->rtt_p50_us = rtt[(n - 1) / 2];
		v->rtt_p99_us = rtt[(n * 99 + 99) / 100 - 1];
	}
}

/* See peerloss.h. Each echo is given PEER_LOSS_WAIT_US before the next
 * goes; a reply that comes later still counts (a loaded host delays, it
 * does not lose), and one never answered within the bound is lost. */
void peerloss_probe(const struct np_client *c, struct peer_verdict *v)
{
	struct echo_got got[PEER_LOSS_ECHOES];
	long long end = mono_now_us() + PEER_LOSS_BOUND_US;
	int fd, one = 1, sent = 0;

	fd = socket(c->peer.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	if (connect(fd, (const struct sockaddr *)&c->peer, c->peerlen) < 0) {
		close(fd);
		return;
	}
	/* without the stamps our own lateness is not taken out: no error */
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	for (int i = 0; i < PEER_LOSS_ECHOES; i++)
		got[i] = (struct echo_got){-1, 0};
	/* the last fifth of the bound is for late replies */
	for (int i = 0; i < PEER_LOSS_ECHOES &&
	                mono_now_us() < end - PEER_LOSS_BOUND_US / 5;
	     i++) {
		if (send_echo(fd, i) < 0)
			break;
		sent++;
		if (wait_replies(fd, i, mono_now_us() + PEER_LOSS_WAIT_US,
		                 got, sent) < 0) {
			close(fd);
			return; /* UDP is refused there: no loss figure */
		}
	}
	if (wait_replies(fd, -1, end, got, sent) < 0)
		sent = 0;
	close(fd);
	if (sent > 0)
		sum_up(got, sent, v);
}
