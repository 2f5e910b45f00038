/* Parallel non-blocking TCP connects under epoll, each with its own
 * deadline, classified from SO_ERROR and the ICMP error queue. */
#include "probe/portscan.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"
#include "kernel/sockinfo.h"

#define FD_RESERVE 64   /* descriptors kept for everything else */
#define EVENTS_BATCH 256

/* ICMPv4 destination unreachable (type 3) codes, RFC 792 and RFC 1812. */
static enum port_state icmp4_state(int type, int code)
{
	if (type != 3)
		return PORT_UNREACHABLE; /* time exceeded and the like */
	switch (code) {
	case 2:  /* protocol unreachable */
	case 3:  /* port unreachable */
		return PORT_CLOSED;
	case 9:  /* network administratively prohibited */
	case 10: /* host administratively prohibited */
	case 13: /* communication administratively prohibited */
	case 14: /* host precedence violation */
	case 15: /* precedence cutoff in effect */
		return PORT_PROHIBITED;
	default: /* net, host unreachable; unknown net, host; ... */
		return PORT_UNREACHABLE;
	}
}

/* ICMPv6 destination unreachable (type 1) codes, RFC 4443. */
static enum port_state icmp6_state(int type, int code)
{
	if (type != 1)
		return PORT_UNREACHABLE;
	switch (code) {
	case 1: /* administratively prohibited */
	case 5: /* source address failed ingress/egress policy */
	case 6: /* reject route to destination */
		return PORT_PROHIBITED;
	case 4: /* port unreachable */
		return PORT_CLOSED;
	default: /* no route, beyond scope, address unreachable */
		return PORT_UNREACHABLE;
	}
}

/*
 * An ICMP error read from the error queue is the most exact evidence, so it
 * wins: the kernel maps type 3 code 13 and code 1 both to EHOSTUNREACH, and
 * only the queue tells a firewall's reject from a dead host.
 */
enum port_state portscan_classify(const struct conn_outcome *c, char *reason,
				  size_t len)
{
	if (c->icmp) {
		snprintf(reason, len, "%s type %d code %d",
			 c->icmp6 ? "icmp6" : "icmp", c->icmp_type,
			 c->icmp_code);
		return c->icmp6 ? icmp6_state(c->icmp_type, c->icmp_code)
				: icmp4_state(c->icmp_type, c->icmp_code);
	}
	switch (c->err) {
	case 0:
		if (c->timed_out)
			break;
		snprintf(reason, len, "syn-ack");
		return PORT_OPEN;
	case ECONNREFUSED:
	case ECONNRESET:
		snprintf(reason, len, "rst");
		return PORT_CLOSED;
	case ETIMEDOUT:
		break;
	case ENETUNREACH:
		snprintf(reason, len, "no route");
		return PORT_UNREACHABLE;
	case EHOSTUNREACH:
		snprintf(reason, len, "host unreachable");
		return PORT_UNREACHABLE;
	case EPERM:
	case EACCES:
		/* netfilter on this host's output path refused the SYN */
		snprintf(reason, len, "local firewall");
		return PORT_PROHIBITED;
	default:
		snprintf(reason, len, "%s", strerror(c->err));
		return PORT_UNKNOWN;
	}
	snprintf(reason, len, "timeout");
	return PORT_FILTERED;
}

/* One pending result per requested port; NULL on no memory. */
struct port_result *portscan_results(const struct port_list *pl, size_t *n)
{
	struct port_result *r = calloc(pl->n ? pl->n : 1, sizeof(*r));

	if (r == NULL)
		return NULL;
	for (size_t i = 0; i < pl->n; i++) {
		r[i].port = pl->v[i].port;
		r[i].proto = pl->v[i].proto;
		r[i].flags = pl->v[i].flags;
		r[i].why = pl->v[i].why;
		r[i].pending = true;
		r[i].state = PORT_UNKNOWN;
		r[i].rtt_us = -1;
	}
	*n = pl->n;
	return r;
}

/* Descriptors left for connects under RLIMIT_NOFILE, at least 1. */
int portscan_fd_budget(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return PORTSCAN_DEFAULT_PARALLEL;
	if (rl.rlim_cur <= FD_RESERVE + 1)
		return 1;
	if (rl.rlim_cur - FD_RESERVE > 1000000)
		return 1000000;
	return (int)(rl.rlim_cur - FD_RESERVE);
}

/* Reads the error queue for the newest ICMP error into c; the sender goes
 * to from. Bounded: a few messages at most. */
static void read_errqueue(int fd, struct conn_outcome *c, char *from,
			  size_t fromlen)
{
	for (int k = 0; k < 4; k++) {
		union {
			char buf[512];
			struct cmsghdr align;
		} ctl;
		char data[64];
		struct iovec iov = {data, sizeof(data)};
		struct msghdr msg = {0};
		struct cmsghdr *cm;

		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = ctl.buf;
		msg.msg_controllen = sizeof(ctl.buf);
		if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return;
		for (cm = CMSG_FIRSTHDR(&msg); cm != NULL;
		     cm = CMSG_NXTHDR(&msg, cm)) {
			struct sock_extended_err ee;
			struct sockaddr_storage off;
			const struct sock_extended_err *eep;

			if (!((cm->cmsg_level == SOL_IP &&
			       cm->cmsg_type == IP_RECVERR) ||
			      (cm->cmsg_level == SOL_IPV6 &&
			       cm->cmsg_type == IPV6_RECVERR)))
				continue;
			if (cm->cmsg_len < CMSG_LEN(sizeof(ee)))
				continue;
			eep = (const struct sock_extended_err *)(void *)
				CMSG_DATA(cm);
			memcpy(&ee, eep, sizeof(ee));
			if (ee.ee_origin != SO_EE_ORIGIN_ICMP &&
			    ee.ee_origin != SO_EE_ORIGIN_ICMP6)
				continue;
			c->icmp = true;
			c->icmp6 = ee.ee_origin == SO_EE_ORIGIN_ICMP6;
			c->icmp_type = ee.ee_type;
			c->icmp_code = ee.ee_code;
			from[0] = '\0';
			/* the offender follows the struct (SO_EE_OFFENDER) */
			if (cm->cmsg_len >=
			    CMSG_LEN(sizeof(ee) + sizeof(struct sockaddr_in))) {
				size_t room = cm->cmsg_len -
					      CMSG_LEN(sizeof(ee));

				memset(&off, 0, sizeof(off));
				memcpy(&off, eep + 1,
				       room < sizeof(off) ? room : sizeof(off));
				if (off.ss_family == AF_INET)
					inet_ntop(AF_INET,
						  &((struct sockaddr_in *)&off)
							   ->sin_addr,
						  from, (socklen_t)fromlen);
				else if (off.ss_family == AF_INET6)
					inet_ntop(AF_INET6,
						  &((struct sockaddr_in6 *)&off)
							   ->sin6_addr,
						  from, (socklen_t)fromlen);
			}
		}
	}
}

/* Fills one result from what ended its attempt. */
static void settle(struct port_result *r, int fd, struct conn_outcome *c,
		   long long t0, long long now)
{
	if (fd >= 0)
		read_errqueue(fd, c, r->icmp_from, sizeof(r->icmp_from));
	r->state = portscan_classify(c, r->reason, sizeof(r->reason));
	if (r->attempts == 0)
		r->attempts = 1;
	r->rtt_us = c->timed_out || r->state == PORT_FILTERED ? -1 : now - t0;
	r->pending = false;
}

struct scan {
	const struct sockaddr *addr;
	socklen_t alen;
	struct port_result *r;
	int *fds;
	long long *t0;
	int ep;
	int inflight;
};

/* Starts one connect. Returns 1 in flight, 0 settled at once, -1 when out
 * of descriptors (try again after others finish). */
static int start_one(struct scan *s, size_t i)
{
	struct sockaddr_storage ss;
	struct conn_outcome c = {0};
	struct epoll_event ev = {0};
	int fd, one = 1, rc;
	long long t0;

	memcpy(&ss, s->addr, s->alen);
	if (ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(s->r[i].port);
	else
		((struct sockaddr_in *)&ss)->sin_port = htons(s->r[i].port);
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    0);
	if (fd < 0) {
		if ((errno == EMFILE || errno == ENFILE || errno == ENOBUFS) &&
		    s->inflight > 0)
			return -1;
		c.err = errno;
		settle(&s->r[i], -1, &c, mono_now_us(), mono_now_us());
		return 0;
	}
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, SOL_IPV6, IPV6_RECVERR, &one, sizeof(one));
	else
		setsockopt(fd, SOL_IP, IP_RECVERR, &one, sizeof(one));
	t0 = mono_now_us();
	rc = sock_connect_start(fd, (struct sockaddr *)&ss, s->alen);
	if (rc == 1) {
		ev.events = EPOLLOUT;
		ev.data.u64 = i;
		if (epoll_ctl(s->ep, EPOLL_CTL_ADD, fd, &ev) == 0) {
			s->fds[i] = fd;
			s->t0[i] = t0;
			s->inflight++;
			return 1;
		}
		c.err = errno;
	} else if (rc < 0) {
		c.err = errno;
		if (c.err == EADDRNOTAVAIL && s->inflight > 0) {
			/* out of local ports: retry after others close */
			close(fd);
			return -1;
		}
	}
	settle(&s->r[i], fd, &c, t0, mono_now_us());
	close(fd);
	return 0;
}

/* Ends an in-flight attempt, from an event or its deadline. */
static void finish_one(struct scan *s, size_t i, bool timed_out, long long now)
{
	struct conn_outcome c = {0};
	int fd = s->fds[i];

	c.err = sock_error(fd);
	/* still connecting at the deadline: no answer. The socket itself is
	 * asked, not the order of events: on a busy machine the loop may
	 * reach a deadline before it reads the EPOLLOUT of a handshake that
	 * completed in time */
	c.timed_out = timed_out && c.err == 0 && !sock_connect_done(fd);
	settle(&s->r[i], fd, &c, s->t0[i], now);
	epoll_ctl(s->ep, EPOLL_CTL_DEL, fd, NULL);
	close(fd);
	s->fds[i] = -1;
	s->inflight--;
}

/* The scan loop: start up to `parallel` connects, settle them from epoll
 * events or their deadline, refill; returns 0, or -1 when setup failed. */
int portscan_tcp(const struct sockaddr *addr, socklen_t alen,
		 struct port_result *r, size_t n,
		 const struct portscan_opts *o)
{
	struct epoll_event evs[EVENTS_BATCH];
	struct scan s = {addr, alen, r, NULL, NULL, -1, 0};
	long long timeout = o->timeout_us > 0 ? o->timeout_us
					       : PORTSCAN_DEFAULT_TIMEOUT_US;
	int parallel = o->parallel > 0 ? o->parallel : 1;
	size_t next = 0, head = 0;
	/* every pass starts, settles or waits for the oldest deadline */
	unsigned long long guard = 8ULL * n + 1000, loops = 0;

	if (alen > sizeof(struct sockaddr_storage) ||
	    (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	s.fds = malloc((n ? n : 1) * sizeof(*s.fds));
	s.t0 = malloc((n ? n : 1) * sizeof(*s.t0));
	s.ep = epoll_create1(EPOLL_CLOEXEC);
	if (s.fds == NULL || s.t0 == NULL || s.ep < 0) {
		int e = s.ep < 0 ? errno : ENOMEM;

		free(s.fds);
		free(s.t0);
		if (s.ep >= 0)
			close(s.ep);
		errno = e;
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		s.fds[i] = -1;
	for (;;) {
		long long now, wait_us;
		bool expired;
		int nev;

		while (s.inflight < parallel && next < n) {
			if (!r[next].pending || r[next].proto != IPPROTO_TCP) {
				next++;
				continue;
			}
			if (start_one(&s, next) < 0)
				break;
			next++;
		}
		if (s.inflight == 0 && next >= n)
			break;
		now = mono_now_us();
		expired = false;
		/* started in index order with one timeout: the oldest in
		 * flight holds the earliest deadline */
		while (head < next) {
			if (s.fds[head] < 0) {
				head++;
				continue;
			}
			if (s.t0[head] + timeout > now && loops < guard)
				break;
			finish_one(&s, head, true, now);
			expired = true;
			head++;
		}
		if (++loops > guard + n)
			break;
		/* freed slots are refilled before waiting again */
		if (s.inflight == 0 || (expired && next < n))
			continue;
		wait_us = s.t0[head] + timeout - now;
		nev = epoll_wait(s.ep, evs, EVENTS_BATCH,
				 (int)((wait_us + 999) / 1000));
		if (nev < 0 && errno != EINTR)
			break;
		now = mono_now_us();
		for (int k = 0; k < nev; k++) {
			size_t i = (size_t)evs[k].data.u64;

			if (i < n && s.fds[i] >= 0)
				finish_one(&s, i, false, now);
		}
	}
	/* only after an epoll failure or the guard: give up on the rest */
	for (size_t i = 0; i < n; i++)
		if (s.fds[i] >= 0)
			finish_one(&s, i, true, mono_now_us());
	free(s.fds);
	free(s.t0);
	close(s.ep);
	return 0;
}

/* Flags TCP results whose listeners are loopback only; returns how many. */
size_t portscan_mark_loopback(struct port_result *r, size_t n,
			      const struct sock_table *t)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (r[i].proto != IPPROTO_TCP)
			continue;
		r[i].loopback_only = sockinfo_binding(t, r[i].port) ==
				     SOCK_BIND_LOOPBACK_ONLY;
		k += r[i].loopback_only;
	}
	return k;
}

/* A held port that answered proves less than a service that listens: it
 * gets a name of its own. */
const char *portscan_state_name(const struct port_result *r)
{
	return r->held && r->state == PORT_OPEN ? "reachable"
						: port_state_name(r->state);
}

/* One port object of the JSON contract; NULL on no memory. */
json_t *portscan_json_port(const struct port_result *r)
{
	return json_pack("{s:i, s:s, s:s, s:s, s:o, s:o, s:i, s:b}", "port",
			 r->port, "proto", portspec_proto_name(r->proto),
			 "state", portscan_state_name(r), "reason",
			 r->reason, "rtt_us",
			 r->rtt_us >= 0 ? json_integer(r->rtt_us) : json_null(),
			 "preset",
			 r->why != NULL ? json_string(r->why) : json_null(),
			 "attempts", (int)r->attempts, "held", r->held);
}

/* The array of port objects; NULL on no memory. */
json_t *portscan_json_ports(const struct port_result *r, size_t n)
{
	json_t *a = json_array();

	if (a == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (json_array_append_new(a, portscan_json_port(&r[i])) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* True when nothing in r is anything but open (the exit status). */
bool ports_all_open(const struct port_result *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].state != PORT_OPEN)
			return false;
	return true;
}
