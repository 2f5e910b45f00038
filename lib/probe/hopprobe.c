/* The hop probe (hopprobe.h): TTL-limited TCP connects whose ICMP errors
 * are read from the socket's error queue, so the hop that answers is
 * named without a raw socket or privilege. */
#include "probe/hopprobe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <netinet/icmp6.h>
#include <netinet/ip_icmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"

/* See hopprobe.h. */
const char *hop_answer_name(enum hop_answer a)
{
	switch (a) {
	case HOP_SILENT:
		return "silent";
	case HOP_TIMEX:
		return "time-exceeded";
	case HOP_UNREACH:
		return "unreachable";
	case HOP_RESET:
		return "reset";
	case HOP_OPEN:
		return "open";
	case HOP_NONE:
		break;
	}
	return "none";
}

/* See hopprobe.h. */
int hop_parse_errqueue(const struct msghdr *msg, struct hop_step *st)
{
	struct cmsghdr *cm;

	for (cm = CMSG_FIRSTHDR((struct msghdr *)msg); cm != NULL;
	     cm = CMSG_NXTHDR((struct msghdr *)msg, cm)) {
		const struct sock_extended_err *ee;
		const struct sockaddr *off;
		bool v6;

		if (!((cm->cmsg_level == SOL_IP &&
		       cm->cmsg_type == IP_RECVERR) ||
		      (cm->cmsg_level == SOL_IPV6 &&
		       cm->cmsg_type == IPV6_RECVERR)) ||
		    cm->cmsg_len < CMSG_LEN(sizeof(*ee)))
			continue;
		ee = (const struct sock_extended_err *)CMSG_DATA(cm);
		if (ee->ee_origin != SO_EE_ORIGIN_ICMP &&
		    ee->ee_origin != SO_EE_ORIGIN_ICMP6)
			continue;
		v6 = ee->ee_origin == SO_EE_ORIGIN_ICMP6;
		st->icmp_type = ee->ee_type;
		st->icmp_code = ee->ee_code;
		st->answer = (v6 ? ee->ee_type == ICMP6_TIME_EXCEEDED
		                 : ee->ee_type == ICMP_TIME_EXCEEDED)
		                 ? HOP_TIMEX
		                 : HOP_UNREACH;
		st->from[0] = '\0';
		off = SO_EE_OFFENDER(ee);
		/* the offender lies after ee, inside the control message */
		if (cm->cmsg_len >=
		        CMSG_LEN(sizeof(*ee) + sizeof(struct sockaddr_in)) &&
		    off->sa_family == AF_INET)
			inet_ntop(AF_INET,
			          &((const struct sockaddr_in *)off)->sin_addr,
			          st->from, sizeof(st->from));
		else if (cm->cmsg_len >=
		             CMSG_LEN(sizeof(*ee) +
		                      sizeof(struct sockaddr_in6)) &&
		         off->sa_family == AF_INET6)
			inet_ntop(
			    AF_INET6,
			    &((const struct sockaddr_in6 *)off)->sin6_addr,
			    st->from, sizeof(st->from));
		return 1;
	}
	return 0;
}

/* Reads the ICMP error queued on fd, if any, into st. Returns 1 when
 * one was read, 0 when none was queued. */
static int read_errqueue(int fd, struct hop_step *st)
{
	char data[128], ctl[512];
	struct iovec iov = {data, sizeof(data)};
	struct msghdr msg = {0};

	/* at most a few: a queued error that is not ICMP is skipped */
	for (int i = 0; i < 4; i++) {
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = ctl;
		msg.msg_controllen = sizeof(ctl);
		if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return 0;
		if (hop_parse_errqueue(&msg, st))
			return 1;
	}
	return 0;
}

/* One connect to ss limited to ttl hops, bounded by end: its answer into
 * st. Returns 0, or -1 with errno when no socket could be set up. */
static int one_ttl(const struct sockaddr_storage *ss, socklen_t len, int ttl,
                   long long end, struct hop_step *st)
{
	int v6 = ss->ss_family == AF_INET6, on = 1, fd, rc, e;

	memset(st, 0, sizeof(*st));
	st->icmp_type = st->icmp_code = -1;
	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	            0);
	if (fd < 0)
		return -1;
	if (setsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP,
	               v6 ? IPV6_UNICAST_HOPS : IP_TTL, &ttl,
	               sizeof(ttl)) < 0 ||
	    setsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP,
	               v6 ? IPV6_RECVERR : IP_RECVERR, &on, sizeof(on)) < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	rc = sock_connect(fd, (const struct sockaddr *)ss, len, end);
	e = errno;
	if (rc == 0)
		st->answer = HOP_OPEN;
	else if (read_errqueue(fd, st))
		; /* an ICMP error: time-exceeded or unreachable */
	else if (rc == -1 && (e == ECONNREFUSED || e == ECONNRESET))
		st->answer = HOP_RESET;
	else
		st->answer = HOP_SILENT;
	close(fd);
	return 0;
}

/* Walks TTL 1..max toward ss into w (hopprobe.h's rules). Returns 0, or
 * -1 with errno. */
static int walk(const struct sockaddr_storage *ss, socklen_t len, int max,
                long long deadline_us, struct hop_walk *w)
{
	int silent = 0;

	for (int ttl = 1; ttl <= max; ttl++) {
		long long now = mono_now_us(), end = now + HOP_STEP_US;
		struct hop_step *st = &w->steps[ttl - 1];

		if (now >= deadline_us)
			break;
		if (end > deadline_us)
			end = deadline_us;
		if (one_ttl(ss, len, ttl, end, st) < 0)
			return -1;
		/* a silent TTL once more: routers rate-limit their ICMP
		 * errors (Linux: one a second per destination after a
		 * burst of six), and a box that refuses the port spends
		 * them on every SYN the node sends it */
		if (st->answer == HOP_SILENT &&
		    (now = mono_now_us()) < deadline_us) {
			end = now + HOP_STEP_US;
			if (end > deadline_us)
				end = deadline_us;
			if (one_ttl(ss, len, ttl, end, st) < 0)
				return -1;
		}
		w->nsteps = ttl;
		if (st->answer == HOP_TIMEX) {
			silent = 0;
			w->last_hop_ttl = ttl;
			snprintf(w->last_hop, sizeof(w->last_hop), "%s",
			         st->from);
			continue;
		}
		if (st->answer == HOP_SILENT) {
			/* the walk ends in silence: no answer past the
			 * last hop that answered */
			if (++silent >= HOP_SILENT_STOP) {
				w->answer = HOP_SILENT;
				break;
			}
			continue;
		}
		w->answer_ttl = ttl;
		w->answer = st->answer;
		snprintf(w->answer_from, sizeof(w->answer_from), "%s",
		         st->from);
		break;
	}
	return 0;
}

/* See hopprobe.h. */
void hop_decide(struct hop_result *r, const char *addr)
{
	const struct hop_walk *p = &r->port, *c = &r->control;

	if (c->answer == HOP_OPEN || c->answer == HOP_RESET)
		r->path_len = c->answer_ttl;
	r->box_before_peer = -1;
	snprintf(r->hop, sizeof(r->hop), "%s", p->last_hop);
	switch (p->answer) {
	case HOP_UNREACH:
		/* an ICMP error names its sender */
		if (p->answer_from[0] != '\0' &&
		    strcmp(p->answer_from, addr) != 0) {
			r->box_before_peer = 1;
			snprintf(r->hop, sizeof(r->hop), "%s", p->answer_from);
		} else if (p->answer_from[0] != '\0')
			r->box_before_peer = 0;
		break;
	case HOP_RESET:
		/* a reset names no sender: its TTL against the path's */
		if (r->path_len > 0)
			r->box_before_peer = p->answer_ttl < r->path_len;
		break;
	case HOP_OPEN:
		r->box_before_peer = 0;
		break;
	default:
		/* silence where a router answered the control walk: the
		 * port's packet was dropped before it got there */
		if (r->path_len > 0 && p->nsteps > p->last_hop_ttl &&
		    p->last_hop_ttl + 1 < r->path_len &&
		    c->steps[p->last_hop_ttl].answer == HOP_TIMEX)
			r->box_before_peer = 1;
		break;
	}
}

/* See hopprobe.h. */
int hop_probe(const char *addr, uint16_t port, uint16_t control, int max_ttl,
              long long deadline_us, struct hop_result *r)
{
	struct sockaddr_storage sp, sc;
	socklen_t lp, lc = 0;
	char bare[INET6_ADDRSTRLEN + 20];

	memset(r, 0, sizeof(*r));
	snprintf(r->addr, sizeof(r->addr), "%s", addr);
	r->port.port = port;
	r->control.port = control;
	if (max_ttl < 1 || max_ttl > HOP_MAX_TTL)
		max_ttl = HOP_MAX_TTL;
	lp = sock_numeric_addr(addr, port, &sp);
	if (control != 0)
		lc = sock_numeric_addr(addr, control, &sc);
	if (lp == 0 || (control != 0 && lc == 0)) {
		snprintf(r->err, sizeof(r->err), "'%s' is not an address",
		         addr);
		errno = EINVAL;
		return -1;
	}
	/* the path's length first: the port's answer is judged by it */
	if ((control != 0 &&
	     walk(&sc, lc, max_ttl, deadline_us, &r->control) < 0) ||
	    walk(&sp, lp, max_ttl, deadline_us, &r->port) < 0) {
		snprintf(r->err, sizeof(r->err), "socket: %s", strerror(errno));
		return -1;
	}
	/* an ICMP sender is compared without the address's zone */
	snprintf(bare, sizeof(bare), "%.*s", (int)strcspn(addr, "%"), addr);
	hop_decide(r, bare);
	return 0;
}
