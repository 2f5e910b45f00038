/* netprobe serve's connect-back jobs (CONNECT_BACK): one non-blocking
 * connect per port to the requester's own address, settled by SO_ERROR
 * and the ICMP error queue, answered when all settled or at the deadline
 * (serve_loop.c's timers). */
#include "serve/serve_connback.h"

#include <errno.h>
#include <linux/errqueue.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"
#include "serve/serve_conn.h"
#include "serve/serve_log.h"
#include "wire/client.h"
#include "wire/portstate.h"

static void cb_settle(struct server *s, struct conn *c, int i, int err);

/* At the deadline, settles the sockets whose connect already finished:
 * the loop checks its timers before it reads events, so on a busy machine
 * a handshake that completed in time may not have been seen yet. */
static void cb_settle_done(struct server *s, struct conn *c)
{
	struct cb_job *j = c->job;

	j->pending++; /* cb_settle must not finish the job from here */
	for (int i = 0; i < j->n; i++) {
		int fd = j->socks[i].ev.fd;

		if (fd < 0 || !sock_connect_done(fd))
			continue;
		cb_settle(s, c, i, sock_error(fd));
	}
	j->pending--;
}

/* Sends the reply of a finished connect-back job and frees it. */
void sv_cb_finish(struct server *s, struct conn *c)
{
	struct cb_job *j = c->job;
	size_t cap = (size_t)j->n * (7 + 1 + PROTO_REASON_MAX) + 8;
	uint8_t *buf;
	int len;

	if (j->pending > 0)
		cb_settle_done(s, c);
	buf = malloc(cap);
	for (int i = 0; i < j->n; i++)
		if (j->socks[i].ev.fd >= 0) {
			struct proto_cb_result *r = &j->reply.r[i];

			r->state = PORT_FILTERED;
			snprintf(r->reason, sizeof(r->reason), "timeout");
		}
	j->reply.nports = j->n;
	j->reply.proto = j->proto;
	if (!buf) {
		sv_conn_end_job(s, c);
		sv_conn_error(s, c, PROTO_E_INTERNAL, "out of memory");
		return;
	}
	len = proto_connect_back_reply_encode(&j->reply, buf, cap);
	sv_conn_end_job(s, c);
	if (len >= 0)
		sv_conn_send(s, c, PROTO_CONNECT_BACK_REPLY, buf, (size_t)len);
	free(buf);
}

/* Settles one connect-back socket from its error. */
static void cb_settle(struct server *s, struct conn *c, int i, int err)
{
	struct cb_job *j = c->job;
	struct cb_sock *k = &j->socks[i];
	struct proto_cb_result *r = &j->reply.r[i];
	enum port_state st = PORT_UNREACHABLE;
	char reason[CLIENT_REASON_MAX];

	r->rtt_us = (uint32_t)(mono_now_us() - j->start_us);
	if (err == 0) {
		st = PORT_OPEN;
		snprintf(reason, sizeof(reason), "syn-ack");
	} else if (err == ECONNREFUSED) {
		st = PORT_CLOSED;
		snprintf(reason, sizeof(reason), "rst");
	} else {
		char cbuf[512];
		uint8_t dummy[16];
		struct iovec iov = {dummy, sizeof(dummy)};
		struct msghdr mh = {.msg_iov = &iov,
		                    .msg_iovlen = 1,
		                    .msg_control = cbuf,
		                    .msg_controllen = sizeof(cbuf)};
		bool icmp = false;

		snprintf(reason, sizeof(reason), "%s", strerror(err));
		if (recvmsg(k->ev.fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0)
			for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm;
			     cm = CMSG_NXTHDR(&mh, cm)) {
				struct sock_extended_err ee;

				if (cm->cmsg_type != IP_RECVERR &&
				    cm->cmsg_type != IPV6_RECVERR)
					continue;
				memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
				if (ee.ee_origin != SO_EE_ORIGIN_ICMP &&
				    ee.ee_origin != SO_EE_ORIGIN_ICMP6)
					continue;
				icmp = true;
				snprintf(reason, sizeof(reason),
				         "icmp%s type %u code %u",
				         ee.ee_origin == SO_EE_ORIGIN_ICMP6
				             ? "6"
				             : "",
				         ee.ee_type, ee.ee_code);
				if (ee.ee_origin == SO_EE_ORIGIN_ICMP
				        ? (ee.ee_code == 9 ||
				           ee.ee_code == 10 || ee.ee_code == 13)
				        : ee.ee_code == 1)
					st = PORT_PROHIBITED;
				break;
			}
		if (!icmp && (err == ETIMEDOUT))
			st = PORT_FILTERED;
		r->rtt_us = 0xffffffffu;
	}
	r->state = (uint8_t)st;
	snprintf(r->reason, sizeof(r->reason), "%s", reason);
	close(k->ev.fd);
	k->ev.fd = -1;
	s->ncb_socks--;
	if (--j->pending == 0)
		sv_cb_finish(s, c);
}

/* A connect-back socket became writable: its SO_ERROR settles it. */
void sv_cb_event(struct server *s, struct cb_sock *k)
{
	if (k->ev.fd < 0 || k->owner->dead || !k->owner->job)
		return;
	cb_settle(s, k->owner, k->idx, sock_error(k->ev.fd));
}

/* CONNECT_BACK: starts non-blocking connects to the requester's own
 * address on each port; the reply goes when all settled or at the
 * deadline. Returns 0, or -1 when the connection was closed. */
int sv_on_connect_back(struct server *s, struct conn *c, const uint8_t *p,
                       size_t n)
{
	struct proto_connect_back req;
	struct sv_grant g;
	uint32_t tmo;
	struct cb_job *j;
	const char *why;
	int one = 1, code;

	if (proto_connect_back_decode(p, n, &req, &why) < 0) {
		sv_conn_fatal(s, c, why);
		return -1;
	}
	code = sv_grant(s, c, &g, &why);
	if (code) {
		sv_conn_error(s, c, (enum proto_err)code, "%s", why);
		return 0;
	}
	if (req.proto != PROTO_TCP)
		return sv_conn_error(s, c, PROTO_E_UNSUPPORTED,
		                     "connect-back tests TCP only; use listen "
		                     "for UDP");
	if (req.nports > g.max_ports)
		return sv_conn_error(s, c, PROTO_E_REFUSED,
		                     "at most %u ports per request",
		                     g.max_ports);
	if (c->job)
		return sv_conn_error(s, c, PROTO_E_BUSY,
		                     "a connect-back is already running");
	if (s->ncb_socks + req.nports > SERVE_MAX_CB_SOCKS)
		return sv_conn_error(s, c, PROTO_E_LIMIT,
		                     "too many connect-backs at once");
	tmo = req.timeout_ms ? req.timeout_ms : 2000;
	if (tmo > g.max_cb_ms)
		tmo = g.max_cb_ms;
	j = calloc(1, sizeof(*j));
	if (!j)
		return sv_conn_error(s, c, PROTO_E_INTERNAL, "out of memory");
	c->job = j;
	j->proto = req.proto;
	j->n = req.nports;
	j->start_us = mono_now_us();
	j->deadline_us = j->start_us + (long long)tmo * 1000;
	for (int i = 0; i < j->n; i++)
		j->socks[i].ev.fd = -1;
	if (s->o.verbose)
		sv_log(s, "%s: connect-back on %u ports within %ums", c->name,
		       j->n, tmo);
	for (int i = 0; i < j->n; i++) {
		/* only ever the address the request came from */
		struct sockaddr_storage to = c->peer;
		struct cb_sock *k = &j->socks[i];
		struct proto_cb_result *r = &j->reply.r[i];
		int fd;

		r->port = req.ports[i];
		r->rtt_us = 0xffffffffu;
		if (to.ss_family == AF_INET6)
			((struct sockaddr_in6 *)&to)->sin6_port =
			    htons(req.ports[i]);
		else
			((struct sockaddr_in *)&to)->sin_port =
			    htons(req.ports[i]);
		fd = socket(to.ss_family,
		            SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			r->state = PORT_UNKNOWN;
			snprintf(r->reason, sizeof(r->reason), "socket: %s",
			         strerror(errno));
			continue;
		}
		if (to.ss_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &one,
			           sizeof(one));
		setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one));
		k->ev.kind = EV_CB;
		k->ev.fd = fd;
		k->owner = c;
		k->idx = i;
		s->ncb_socks++;
		j->pending++;
		int rc = sock_connect_start(fd, (struct sockaddr *)&to,
		                            c->peerlen);

		if (rc <= 0) {
			/* errno is stale after a connect that succeeded */
			int e = rc == 0 ? 0 : errno;

			/* settled at once; cb_settle may finish the job,
			 * so keep one pending until the loop is done */
			j->pending++;
			cb_settle(s, c, i, e);
			j->pending--;
			continue;
		}
		if (sv_ep_add(s, &k->ev, EPOLLOUT) < 0) {
			j->pending++;
			cb_settle(s, c, i, errno);
			j->pending--;
		}
	}
	if (j->pending == 0)
		sv_cb_finish(s, c);
	return c->dead ? -1 : 0;
}
