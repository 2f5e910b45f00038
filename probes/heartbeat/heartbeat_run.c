/* netprobe heartbeat, the measurement: one held TCP connection and the UDP
 * echoes beside it, sent on schedule and read until the count or the time
 * is spent; a silent connection is dropped once the kernel's
 * retransmissions say it is gone. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "heartbeat/heartbeat.h"

/* (Re)opens the held connection. Returns 0, or -1 with r->c.err set. */
int hb_connect(struct hb_run *r, const struct hb_opts *o, long long timeout_us)
{
	client_close(&r->c);
	r->connected = false;
	r->rlen = 0;
	r->outstanding = 0;
	if (client_open(&r->c, o->host, o->port, timeout_us, o->token_file) < 0)
		return -1;
	r->connected = true;
	r->open_us = r->last_us = mono_now_us();
	r->retx_seen_us = 0;
	r->udp_in_silence = 0;
	r->retrans_at_answer = 0;
	/* the first drop is settled by whatever answers after it */
	if (r->tcp.drop.kind != HB_DROP_NONE)
		r->tcp.drop.reconnected = true;
	snprintf(r->peer_node, sizeof(r->peer_node), "%s", r->c.hello.node);
	snprintf(r->peer_soft, sizeof(r->peer_soft), "%s", r->c.hello.software);
	return 0;
}

/* Adds the closing connection's segment counts to the run's. */
void hb_count_segments(struct hb_run *r)
{
	struct hb_tcpinfo ti;

	hb_tcpinfo_read(r->c.fd, &ti);
	if (!ti.valid)
		return;
	r->tcp.retrans += ti.total_retrans;
	r->tcp.segs_out += ti.segs_out;
}

/* The held connection went silent or closed: echoes in flight are lost;
 * the first drop is the one reported, with what the kernel said (ti,
 * NULL for a close). */
static void hb_drop(struct hb_run *r, const struct hb_tcpinfo *ti, int need)
{
	if (r->tcp.dropped_after_us < 0) {
		struct hb_drop *x = &r->tcp.drop;
		struct hb_stats us;

		x->lost = r->outstanding;
		r->tcp.dropped_after_us = r->last_us - r->open_us;
		r->tcp.detect_us = mono_now_us() - r->last_us;
		x->kind = ti != NULL ? HB_DROP_SILENT : HB_DROP_CLOSED;
		if (ti != NULL) {
			hb_stats_compute(&r->udp, &us);
			x->retransmits = ti->retransmits;
			x->rto_us = ti->rto_us;
			x->needed = need;
			x->loss_pct = us.loss_pct;
			x->udp_answered = r->udp_in_silence;
			x->retrans = ti->total_retrans - r->retrans_at_answer;
			if (x->retrans < 0)
				x->retrans = 0;
		}
	}
	r->tcp.lost += r->outstanding;
	r->outstanding = 0;
	hb_count_segments(r);
	client_close(&r->c);
	r->connected = false;
}

/* The responder closed the held connection and said why (an ERROR
 * "dropped" before the close): not the network's doing, so no drop is
 * recorded and the echoes it threw away are not counted as sent; the run
 * stops there. */
static void hb_resp_drop(struct hb_run *r)
{
	r->tcp.sent -= r->outstanding;
	r->outstanding = 0;
	r->resp_dropped = true;
	hb_count_segments(r);
	client_close(&r->c);
	r->connected = false;
}

/* The loss measured so far, for hb_retx_needed: the UDP echoes', else
 * the TCP segments'. */
static int hb_need(const struct hb_run *r, const struct hb_tcpinfo *ti)
{
	if (r->udp.enabled && r->udp.sent > 0)
		return hb_retx_needed(r->udp.lost, r->udp.sent);
	return hb_retx_needed(r->tcp.retrans + ti->total_retrans,
	                      r->tcp.segs_out + ti->segs_out);
}

/* Echoes unanswered past the timeout: silence, or loss the kernel is
 * still repairing? Declares the drop only past its retransmissions
 * (hb_silent_past_retx), then tries a new connection at once so that
 * the verdict learns whether anything else gets through. */
static void hb_check_silence(struct hb_run *r, const struct hb_opts *o,
                             long long now)
{
	struct hb_tcpinfo ti;
	int need;

	hb_tcpinfo_read(r->c.fd, &ti);
	need = hb_need(r, &ti);
	if (ti.valid && ti.retransmits < need)
		r->retx_seen_us = 0;
	else if (ti.valid && r->retx_seen_us == 0)
		r->retx_seen_us = now;
	if (!hb_silent_past_retx(now - r->last_us, o->timeout_us, &ti, need,
	                         r->retx_seen_us ? now - r->retx_seen_us : -1))
		return;
	hb_drop(r, &ti, need);
	if (hb_connect(r, o,
	               o->timeout_us < 1000000 ? o->timeout_us : 1000000) == 0)
		r->tcp.reconnects++;
}

/* Sends one stamped echo on the held connection and over UDP; counts
 * what went out. */
static void hb_send(struct hb_run *r)
{
	struct proto_echo_stamp st = {r->seq, (uint64_t)mono_now_us()};
	uint8_t frame[PROTO_HDR_LEN + PROTO_ECHO_STAMP_LEN];

	proto_echo_stamp_encode(&st, frame + PROTO_HDR_LEN,
	                        PROTO_ECHO_STAMP_LEN);
	proto_hdr_encode(frame, PROTO_ECHO, 0, PROTO_ECHO_STAMP_LEN);
	if (r->connected) {
		ssize_t w = send(r->c.fd, frame, sizeof(frame),
		                 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w == (ssize_t)sizeof(frame)) {
			r->tcp.sent++;
			r->outstanding++;
		} else if (w > 0 || errno != EAGAIN) {
			/* an error, or half a frame: the stream is broken */
			r->tcp.sent++;
			r->outstanding++;
			hb_drop(r, NULL, 0);
		} else {
			/* a full send buffer: the peer stopped reading */
			r->tcp.sent++;
			r->tcp.lost++;
		}
	}
	if (r->ufd >= 0) {
		struct udp_slot *u = &r->ring[r->seq % HB_UDP_RING];

		if (u->pending)
			r->udp.lost++;
		u->pending = false;
		if (send(r->ufd, frame, sizeof(frame), MSG_DONTWAIT) >= 0 ||
		    errno == ECONNREFUSED) {
			u->seq = r->seq;
			u->sent_us = (long long)st.sent_us;
			u->pending = true;
			r->udp.sent++;
		}
	}
	r->seq++;
}

/* An ERROR on the held connection: "dropped" (the responder closes it
 * next) keeps its reason for the close; others leave it open. */
static void hb_read_error(struct hb_run *r, const uint8_t *p, size_t n)
{
	struct proto_error e;
	const char *why;

	if (proto_error_decode(p, n, &e, &why) < 0 ||
	    e.code != PROTO_E_DROPPED)
		return;
	snprintf(r->dropped_why, sizeof(r->dropped_why), "%s", e.msg);
}

/* Reads the held connection: every whole ECHO_REPLY is one answer.
 * Returns 0, or -1 when it closed or spoke nonsense (then dropped). */
static int hb_read_tcp(struct hb_run *r)
{
	for (int round = 0; round < 64; round++) {
		ssize_t n = recv(r->c.fd, r->rbuf + r->rlen,
		                 sizeof(r->rbuf) - r->rlen, MSG_DONTWAIT);
		size_t off = 0;

		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			if (r->dropped_why[0])
				hb_resp_drop(r);
			else
				hb_drop(r, NULL, 0);
			return -1;
		}
		if (n < 0)
			return 0;
		r->rlen += (size_t)n;
		while (r->rlen - off >= PROTO_HDR_LEN) {
			struct proto_hdr h;
			struct proto_echo_stamp st;
			const char *why;
			long long now = mono_now_us();

			if (proto_hdr_decode(r->rbuf + off, r->rlen - off, &h,
			                     &why) < 0 ||
			    h.length > sizeof(r->rbuf) - PROTO_HDR_LEN) {
				hb_drop(r, NULL, 0);
				return -1;
			}
			if (r->rlen - off < PROTO_HDR_LEN + h.length)
				break;
			if (h.type == PROTO_ECHO_REPLY &&
			    proto_echo_stamp_decode(r->rbuf + off +
			                                PROTO_HDR_LEN,
			                            h.length, &st, &why) == 0 &&
			    r->outstanding > 0) {
				r->outstanding--;
				r->tcp.received++;
				r->last_us = now;
				r->retx_seen_us = 0;
				r->udp_in_silence = 0;
				hb_side_add(&r->tcp,
				            now - (long long)st.sent_us);
			} else if (h.type == PROTO_ERROR) {
				hb_read_error(r, r->rbuf + off + PROTO_HDR_LEN,
				              h.length);
			}
			off += PROTO_HDR_LEN + h.length;
		}
		memmove(r->rbuf, r->rbuf + off, r->rlen - off);
		r->rlen -= off;
		if (off > 0) {
			struct hb_tcpinfo ti;

			hb_tcpinfo_read(r->c.fd, &ti);
			r->retrans_at_answer = ti.total_retrans;
		}
	}
	return 0;
}

/* Matches UDP echo replies with the echoes in flight; late ones are
 * ignored (already counted lost). */
static void hb_read_udp(struct hb_run *r, long long timeout_us)
{
	for (int i = 0; i < 64; i++) {
		uint8_t in[PROTO_HDR_LEN + 64];
		struct proto_hdr h;
		struct proto_echo_stamp st;
		const char *why;
		ssize_t n = recv(r->ufd, in, sizeof(in), MSG_DONTWAIT);
		long long now = mono_now_us();
		struct udp_slot *u;

		if (n < 0)
			return;
		if (proto_hdr_decode(in, (size_t)n, &h, &why) < 0 ||
		    h.type != PROTO_ECHO_REPLY ||
		    h.length != (size_t)n - PROTO_HDR_LEN ||
		    proto_echo_stamp_decode(in + PROTO_HDR_LEN, h.length, &st,
		                            &why) < 0)
			continue;
		u = &r->ring[st.seq % HB_UDP_RING];
		if (!u->pending || u->seq != st.seq ||
		    now - u->sent_us > timeout_us)
			continue;
		u->pending = false;
		r->udp.received++;
		hb_side_add(&r->udp, now - u->sent_us);
		/* the path carries datagrams while the held connection is
		 * silent: evidence for a dropped state, against loss */
		if (r->connected && r->outstanding > 0 &&
		    u->sent_us >= r->last_us)
			r->udp_in_silence++;
	}
}

/* UDP echoes older than the timeout are lost. Returns how many remain. */
static int hb_expire_udp(struct hb_run *r, long long now, long long tmo)
{
	int pending = 0;

	for (int i = 0; i < HB_UDP_RING; i++) {
		struct udp_slot *u = &r->ring[i];

		if (!u->pending)
			continue;
		if (now - u->sent_us > tmo) {
			u->pending = false;
			r->udp.lost++;
		} else {
			pending++;
		}
	}
	return pending;
}

/* One progress line on stderr (a terminal only). */
static void hb_progress(const struct hb_run *r)
{
	long long last = r->tcp.nrtt ? r->tcp.rtt_us[r->tcp.nrtt - 1] : -1;

	fprintf(stderr,
	        "\r  tcp %lld/%lld  last %lldus  udp %lld/%lld  "
	        "reconnects %lld   ",
	        r->tcp.received, r->tcp.sent, last, r->udp.received,
	        r->udp.sent, r->tcp.reconnects);
}

/* Asks the responder, over a second connection, to hold a UDP listener on
 * --udp-port; again at half its lifetime. Returns 0, or -1 with r->ctl.err
 * set. */
int hb_udp_listen(struct hb_run *r, const struct hb_opts *o)
{
	uint16_t port = (uint16_t)o->udp_port;
	long long life;
	bool opened = false;

	if (r->refresh_us == 0) {
		if (client_open(&r->ctl, o->host, o->port,
		                o->timeout_set ? o->timeout_us : 2000000,
		                o->token_file) < 0)
			return -1;
	}
	life = (long long)r->ctl.hello.max_lifetime_ms * 1000;
	if (life <= 0)
		life = 5000000;
	if (client_listen(&r->ctl, PROTO_UDP, &port, 1, life, &opened) < 0)
		return -1;
	if (!opened) {
		snprintf(r->ctl.err, sizeof(r->ctl.err),
		         "responder at %s:%u could not open udp port %u (in "
		         "use or not allowed)",
		         r->ctl.addr, r->ctl.port, o->udp_port);
		return -1;
	}
	r->refresh_us = mono_now_us() + life / 2;
	return 0;
}

/* The collection loop: sends on schedule, reads answers, detects a silent
 * connection within the timeout of its last answer. Bounded by count or
 * duration, then one timeout to drain. */
void hb_loop(struct hb_run *r, const struct hb_opts *o,
             const volatile sig_atomic_t *stop)
{
	long long next = mono_now_us(), end_send, last_progress = 0;
	bool progress = isatty(STDERR_FILENO) && o->progress;

	end_send = o->duration_us > 0 ? r->t0_us + o->duration_us : -1;
	for (long long iter = 0; iter < 100000000LL && !*stop; iter++) {
		long long now = mono_now_us(), wake;
		bool sending = !r->resp_dropped &&
		               (o->count > 0 ? (long long)r->seq < o->count
		                             : now < end_send);
		struct pollfd pfd[2];
		int nfd = 0, udp_left;

		if (r->refresh_us && now >= r->refresh_us && sending &&
		    hb_udp_listen(r, o) < 0)
			r->refresh_us = 0; /* the lost echoes will tell */
		/* -i 0 is ping-pong: the next echo when the last came back */
		bool due = sending && now >= next &&
		           (o->interval_us > 0 || r->outstanding == 0 ||
		            !r->connected);

		if (due) {
			if (!r->connected) {
				long long t = o->timeout_us < 1000000
				                  ? o->timeout_us
				                  : 1000000;

				if (hb_connect(r, o, t) == 0)
					r->tcp.reconnects++;
				now = mono_now_us();
			}
			hb_send(r);
			next += o->interval_us;
			if (next < now)
				next = now + o->interval_us;
			/* ping-pong without a connection: retry at 10 Hz */
			if (!r->connected && o->interval_us == 0)
				next = now + 100000;
		}
		if (r->connected && r->outstanding > 0 &&
		    now - r->last_us >= o->timeout_us)
			hb_check_silence(r, o, now);
		udp_left =
		    r->ufd >= 0 ? hb_expire_udp(r, now, o->timeout_us) : 0;
		if (!sending && r->send_end_us == 0)
			r->send_end_us = now;
		if (!sending && (r->outstanding == 0 || !r->connected) &&
		    udp_left == 0)
			break;
		/* the drain waits for the kernel's retransmissions, within
		 * HB_DRAIN_US; what is still unanswered then is lost */
		if (!sending &&
		    now - r->send_end_us > o->timeout_us + HB_DRAIN_US) {
			r->tcp.lost += r->connected ? r->outstanding : 0;
			r->outstanding = 0;
			break;
		}
		if (progress && now - last_progress > 500000) {
			hb_progress(r);
			last_progress = now;
		}
		wake = sending && (o->interval_us > 0 || r->outstanding == 0)
		           ? next
		           : now + o->timeout_us;
		if (r->connected && r->outstanding > 0 &&
		    r->last_us + o->timeout_us < wake)
			wake = r->last_us + o->timeout_us;
		/* silent: look at TCP_INFO again soon */
		if (r->connected && r->outstanding > 0 && wake <= now)
			wake = now + HB_SILENCE_POLL_US;
		if (r->ufd >= 0 && now + 50000 < wake && udp_left)
			wake = now + 50000;
		if (r->connected)
			pfd[nfd++] = (struct pollfd){r->c.fd, POLLIN, 0};
		if (r->ufd >= 0)
			pfd[nfd++] = (struct pollfd){r->ufd, POLLIN, 0};
		int ms = wake > now ? (int)((wake - now + 999) / 1000) : 0;

		if (ms > 1000)
			ms = 1000;
		if (poll(pfd, (nfds_t)nfd, ms) <= 0)
			continue;
		for (int i = 0; i < nfd; i++) {
			if (!pfd[i].revents)
				continue;
			if (r->connected && pfd[i].fd == r->c.fd)
				hb_read_tcp(r);
			else if (pfd[i].fd == r->ufd)
				hb_read_udp(r, o->timeout_us);
		}
	}
	if (progress)
		fprintf(stderr, "\r%70s\r", "");
	r->elapsed_us = mono_now_us() - r->t0_us;
}

/* Opens the UDP socket toward the responder. Returns 0, or -1. */
int hb_udp_open(struct hb_run *r, unsigned port)
{
	struct sockaddr_storage to = r->c.peer;
	int fd = socket(r->c.peer.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (port && to.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&to)->sin6_port = htons((uint16_t)port);
	else if (port)
		((struct sockaddr_in *)&to)->sin_port = htons((uint16_t)port);
	if (connect(fd, (struct sockaddr *)&to, r->c.peerlen) < 0) {
		close(fd);
		return -1;
	}
	r->ufd = fd;
	return 0;
}
