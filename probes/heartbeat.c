/* netprobe heartbeat: holds one TCP connection to a responder and sends
 * stamped echoes at an interval, plus UDP echoes; reports RTT, jitter,
 * loss, reconnects and the moment a held connection went silent. Signal
 * handlers only set a flag, as OpenBSD ping does; one summary at the end. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wire/client.h"
#include "base/cli.h"
#include "commands.h"
#include "doc/doc.h"
#include "probe/hb.h"
#include "base/parse.h"
#include "probe/peerprobe.h"

#define HB_UDP_RING 4096
#define HB_DRAIN_US 5000000LL      /* past the last echo, for answers */
#define HB_SILENCE_POLL_US 20000LL /* TCP_INFO while silent */

static volatile sig_atomic_t hb_stop;

/* Only sets the flag the loop checks (as OpenBSD ping does). */
static void hb_on_signal(int sig)
{
	hb_stop = sig;
}

struct hb_opts {
	char host[256];
	unsigned port;
	long long interval_us, duration_us, timeout_us, count;
	struct hb_gate gate;
	bool udp, json, timeout_set, peer_probe;
	unsigned udp_port; /* 0: the responder's own port */
	const char *output, *token_file;
};

struct udp_slot {
	uint32_t seq;
	long long sent_us;
	bool pending;
};

struct hb_run {
	struct np_client c;
	struct np_client ctl; /* keeps a UDP listener open */
	long long refresh_us; /* when to ask for it again; 0 none */
	bool connected;
	long long open_us, last_us; /* connection opened, last answer */
	long long outstanding;      /* TCP echoes awaiting an answer */
	long long retx_seen_us;     /* when the kernel's retransmissions
	                             * reached the count needed; 0 not yet */
	long long udp_in_silence;   /* UDP echoes sent after the last TCP
	                             * answer and answered */
	long long send_end_us;      /* when sending stopped; 0 still on */
	long long retrans_at_answer; /* tcpi_total_retrans at the last
	                              * answer */
	uint8_t rbuf[PROTO_HDR_LEN + 64];
	size_t rlen;
	int ufd;
	struct udp_slot ring[HB_UDP_RING];
	struct hb_side tcp, udp;
	uint32_t seq;
	long long t0_us, elapsed_us;
	char peer_node[PROTO_NODE_MAX + 1];
	char peer_soft[PROTO_SOFT_MAX + 1];
};

enum {
	O_COUNT = 'c',
	O_DURATION = 'd',
	O_TIMEOUT = 't',
	O_PORT = 'p',
	O_OUTPUT = 'o',
	O_TOKEN = 'k',
	O_JSON = 'j',
	O_HELP = 'h',
	O_INTERVAL = 256,
	O_MAXRTT,
	O_MAXLOSS,
	O_UDP,
	O_NOUDP,
	O_PEER,
	O_UDPPORT
};

static const struct cli_opt hb_optv[] = {
	{O_INTERVAL, 0, "interval", CLI_REQUIRED, "TIME", "100ms",
	 "between echoes, 0 for ping-pong", false},
	/* -i is the interface everywhere else (tcpdump's letter) */
	{O_INTERVAL, 'i', NULL, CLI_REQUIRED, "TIME", NULL, NULL, true},
	{O_COUNT, 'c', "count", CLI_REQUIRED, "N", NULL,
	 "send N echoes, then stop", false},
	{O_DURATION, 'd', "duration", CLI_REQUIRED, "TIME", "10s",
	 "how long to run", false},
	{O_TIMEOUT, 't', "timeout", CLI_REQUIRED, "TIME", "1.9x interval",
	 "an echo is lost after this", false},
	{O_MAXRTT, 0, "max-rtt", CLI_REQUIRED, "TIME", NULL,
	 "gate: exit 1 when p99 RTT is above TIME", false},
	{O_MAXLOSS, 0, "max-loss", CLI_REQUIRED, "PERCENT", NULL,
	 "gate: exit 1 when loss is above PERCENT", false},
	{O_UDP, 0, "udp", CLI_FLAG, NULL, "on", "also send UDP echoes", false},
	{O_NOUDP, 0, "no-udp", CLI_FLAG, NULL, NULL, "TCP echoes only", false},
	{O_UDPPORT, 0, "udp-port", CLI_REQUIRED, "PORT", NULL,
	 "UDP echoes to PORT, opened on the responder", false},
	{O_TOKEN, 'k', "token-file", CLI_REQUIRED, "FILE", NULL,
	 "the responder's shared secret, one line", false},
	{O_PORT, 'p', "port", CLI_REQUIRED, "PORT", "7470",
	 "responder port if HOST has none", false},
	{O_PEER, 0, "peer", CLI_FLAG, NULL, NULL,
	 "scan's peer probe instead: NAT, inbound, 1s", false},
	CLI_OPT_JSON(O_JSON),
	{O_OUTPUT, 'o', "output", CLI_REQUIRED, "FILE", NULL,
	 "write the JSON document to FILE", false},
	CLI_OPT_HELP,
};

static const struct cli_cmd hb_cmd = {
	"netprobe heartbeat", "[options] HOST[:PORT]",
	"Measure RTT, jitter and loss over a held connection to a responder.",
	hb_optv, sizeof(hb_optv) / sizeof(hb_optv[0]),
	"The timeout is at least 150ms; a held connection silent that long, and\n"
	"past the kernel's retransmissions, is dropped and opened again.\n"
	"--peer takes no count, duration or gate.\n",
};

/* Parses argv into o. Returns 0, 1 after --help, or 2 with an error. */
static int hb_parse(int argc, char **argv, struct hb_opts *o)
{
	const char *errstr, *peer, *arg = NULL;
	char err[CLIENT_ERR_MAX];
	struct cli cl;
	char **ops;
	long long v;
	int ch, nops;

	memset(o, 0, sizeof(*o));
	o->port = PROTO_DEFAULT_PORT;
	o->interval_us = 100000;
	o->timeout_us = -1;
	o->count = -1;
	o->duration_us = -1;
	o->gate.max_rtt_us = -1;
	o->gate.max_loss_pct = -1;
	o->udp = true;
	cli_start(&cl, &hb_cmd, argc, argv);
	while ((ch = cli_next(&cl)) != CLI_END) {
		arg = cl.arg;
		switch (ch) {
		case O_INTERVAL:
			if (parse_duration_us(arg, 0, 60000000,
			                      &o->interval_us, &errstr) < 0)
				goto bad_dur;
			break;
		case O_COUNT:
			if (parse_num(arg, 1, 10000000, &o->count, &errstr) <
			    0) {
				fprintf(stderr,
				        "netprobe heartbeat: invalid "
				        "count '%s': %s\n",
				        arg, errstr);
				return 2;
			}
			break;
		case O_DURATION:
			if (parse_duration_us(arg, 1000, 86400000000LL,
			                      &o->duration_us, &errstr) < 0)
				goto bad_dur;
			break;
		case O_TIMEOUT:
			if (parse_duration_us(arg, 1000, 600000000,
			                      &o->timeout_us, &errstr) < 0)
				goto bad_dur;
			o->timeout_set = true;
			break;
		case O_PORT:
			if (parse_num(arg, 1, 65535, &v, &errstr) < 0) {
				fprintf(stderr,
				        "netprobe heartbeat: invalid "
				        "port '%s': %s\n",
				        arg, errstr);
				return 2;
			}
			o->port = (unsigned)v;
			break;
		case O_OUTPUT:
			o->output = arg;
			break;
		case O_MAXRTT:
			if (parse_duration_us(arg, 1, 600000000,
			                      &o->gate.max_rtt_us, &errstr) < 0)
				goto bad_dur;
			break;
		case O_MAXLOSS:
			if (parse_num(arg, 0, 100, &v, &errstr) < 0) {
				fprintf(stderr,
				        "netprobe heartbeat: invalid "
				        "loss percentage '%s': %s\n",
				        arg, errstr);
				return 2;
			}
			o->gate.max_loss_pct = (double)v;
			break;
		case O_UDP:
			o->udp = true;
			break;
		case O_NOUDP:
			o->udp = false;
			break;
		case O_JSON:
			o->json = true;
			break;
		case O_PEER:
			o->peer_probe = true;
			break;
		case O_UDPPORT:
			if (parse_num(arg, 1, 65535, &v, &errstr) < 0) {
				fprintf(stderr,
				        "netprobe heartbeat: invalid "
				        "port '%s': %s\n",
				        arg, errstr);
				return 2;
			}
			o->udp_port = (unsigned)v;
			break;
		case O_TOKEN:
			o->token_file = arg;
			break;
		case O_HELP:
			return cli_help(&hb_cmd, stdout) == 0 ? 1 : 2;
		default:
			return cli_usage_error(&hb_cmd, stderr, "%s", cl.err);
		}
	}
	nops = cli_operands(&cl, &ops);
	if (nops != 1)
		return cli_usage_error(&hb_cmd, stderr, "%s",
				       nops == 0 ? "missing host"
						 : "too many operands");
	if (o->peer_probe &&
	    (o->count > 0 || o->duration_us > 0 || o->gate.max_rtt_us >= 0 ||
	     o->gate.max_loss_pct >= 0)) {
		fprintf(stderr, "netprobe heartbeat: --peer takes no count, "
		                "duration or gate\n");
		return 2;
	}
	if (o->count > 0 && o->duration_us > 0) {
		fprintf(stderr, "netprobe heartbeat: --count and --duration "
		                "exclude each other\n");
		return 2;
	}
	if (o->count < 0 && o->duration_us < 0)
		o->duration_us = 10000000;
	if (o->timeout_us < 0) {
		/* a drop is declared within two intervals of the last
		 * answer, leaving the scheduler a tenth of one */
		o->timeout_us = o->interval_us * 19 / 10;
		if (o->timeout_us < 150000)
			o->timeout_us = 150000;
	}
	peer = ops[0];
	if (client_parse_peer(peer, o->port, o->host, sizeof(o->host), &o->port,
	                      err, sizeof(err)) < 0) {
		fprintf(stderr, "netprobe heartbeat: %s\n", err);
		return 2;
	}
	return 0;
bad_dur:
	fprintf(stderr, "netprobe heartbeat: invalid duration '%s': %s\n",
	        arg, errstr);
	return 2;
}

/* (Re)opens the held connection. Returns 0, or -1 with r->c.err set. */
static int hb_connect(struct hb_run *r, const struct hb_opts *o,
                      long long timeout_us)
{
	client_close(&r->c);
	r->connected = false;
	r->rlen = 0;
	r->outstanding = 0;
	if (client_open(&r->c, o->host, o->port, timeout_us, o->token_file) < 0)
		return -1;
	r->connected = true;
	r->open_us = r->last_us = client_now_us();
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
static void hb_count_segments(struct hb_run *r)
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
		r->tcp.detect_us = client_now_us() - r->last_us;
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
	                         r->retx_seen_us ? now - r->retx_seen_us
	                                         : -1))
		return;
	hb_drop(r, &ti, need);
	if (hb_connect(r, o, o->timeout_us < 1000000 ? o->timeout_us
	                                             : 1000000) == 0)
		r->tcp.reconnects++;
}

/* Sends one stamped echo on the held connection and over UDP; counts
 * what went out. */
static void hb_send(struct hb_run *r)
{
	struct proto_echo_stamp st = {r->seq, (uint64_t)client_now_us()};
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

/* Reads the held connection: every whole ECHO_REPLY is one answer.
 * Returns 0, or -1 when it closed or spoke nonsense (then dropped). */
static int hb_read_tcp(struct hb_run *r)
{
	for (int round = 0; round < 64; round++) {
		ssize_t n = recv(r->c.fd, r->rbuf + r->rlen,
		                 sizeof(r->rbuf) - r->rlen, MSG_DONTWAIT);
		size_t off = 0;

		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
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
			long long now = client_now_us();

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
		long long now = client_now_us();
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
static int hb_udp_listen(struct hb_run *r, const struct hb_opts *o)
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
	r->refresh_us = client_now_us() + life / 2;
	return 0;
}

/* The collection loop: sends on schedule, reads answers, detects a silent
 * connection within the timeout of its last answer. Bounded by count or
 * duration, then one timeout to drain. */
static void hb_loop(struct hb_run *r, const struct hb_opts *o)
{
	long long next = client_now_us(), end_send, last_progress = 0;
	bool progress = isatty(STDERR_FILENO) && !o->json;

	end_send = o->duration_us > 0 ? r->t0_us + o->duration_us : -1;
	for (long long iter = 0; iter < 100000000LL && !hb_stop; iter++) {
		long long now = client_now_us(), wake;
		bool sending = o->count > 0 ? (long long)r->seq < o->count
		                            : now < end_send;
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
				now = client_now_us();
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
	r->elapsed_us = client_now_us() - r->t0_us;
}

/* Opens the UDP socket toward the responder. Returns 0, or -1. */
static int hb_udp_open(struct hb_run *r, unsigned port)
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

/* One row of the summary table. */
static void print_side(const char *name, const struct hb_side *s)
{
	struct hb_stats st;
	char b[6][32];

	hb_stats_compute(s, &st);
	if (st.min < 0) {
		printf("%-4s %7lld %7lld %6.1f%%  no answers\n", name, s->sent,
		       s->received, st.loss_pct);
		return;
	}
	printf("%-4s %7lld %7lld %6.1f%% %9s %9s %9s %9s %9s %9s\n", name,
	       s->sent, s->received, st.loss_pct,
	       hb_fmt_us(st.min, b[0], sizeof(b[0])),
	       hb_fmt_us(st.median, b[1], sizeof(b[1])),
	       hb_fmt_us(st.p90, b[2], sizeof(b[2])),
	       hb_fmt_us(st.p99, b[3], sizeof(b[3])),
	       hb_fmt_us(st.max, b[4], sizeof(b[4])),
	       hb_fmt_us(st.jitter_us, b[5], sizeof(b[5])));
}

/* Text summary: the table, then the findings. */
static void hb_print(const struct hb_run *r, const struct hb_opts *o,
                     const struct doc *d)
{
	char iv[48], ping[32];

	if (o->interval_us > 0)
		snprintf(iv, sizeof(iv), "every %s",
		         hb_fmt_us(o->interval_us, ping, sizeof(ping)));
	else
		snprintf(iv, sizeof(iv), "ping-pong");
	printf("heartbeat %s:%u (%s, node %s, %s): %s for %.2fs\n", o->host,
	       o->port, r->c.addr, r->peer_node, r->peer_soft, iv,
	       (double)r->elapsed_us / 1e6);
	printf("%-4s %7s %7s %7s %9s %9s %9s %9s %9s %9s\n", "", "sent", "recv",
	       "loss", "min", "median", "p90", "p99", "max", "jitter");
	print_side("tcp", &r->tcp);
	if (r->udp.enabled)
		print_side(o->udp_port && o->udp_port != o->port ? "udp*"
		                                                 : "udp",
		           &r->udp);
	if (r->udp.enabled && o->udp_port && o->udp_port != o->port)
		printf("udp* to port %u, held open by the responder\n",
		       o->udp_port);
	printf("reconnects %lld\n", r->tcp.reconnects);
	doc_print_findings(d, stdout, false);
}

/* --peer: the scan's peer probe on its own, one `peers` entry. */
static int hb_peer(const struct hb_opts *o, const char *spec)
{
	struct peerprobe_opts po = {.default_port = o->port,
	                            .step_us =
	                                o->timeout_set ? o->timeout_us : 0,
	                            .token_file = o->token_file};
	struct peer_verdict v;
	struct doc d = {0};
	json_t *detail = NULL, *f, *p;
	size_t i;
	int rc;

	if (doc_init(&d, "netprobe", "heartbeat") < 0) {
		fprintf(stderr, "netprobe heartbeat: out of memory\n");
		return 2;
	}
	rc = peerprobe_run(spec, &po, &v, &detail, &d);
	doc_set(&d, "peers", json_pack("[o]", detail ? detail : json_null()));
	if (rc != 0) {
		json_array_foreach(d.errors, i, f)
		    fprintf(stderr, "netprobe heartbeat: %s\n",
		            json_string_value(json_object_get(f, "message")));
	}
	rc = rc != 0 ? 2 : doc_exit_status(&d, true);
	if (o->output && doc_write_file(&d, o->output) < 0) {
		fprintf(stderr, "netprobe heartbeat: cannot write '%s': %s\n",
		        o->output, strerror(errno));
		rc = 2;
	}
	if (o->json && !o->output) {
		doc_write(&d, stdout);
	} else if (v.responded) {
		char b[32];

		printf("peer %s (%s): responder answered\n", v.peer,
		       v.peer_addr);
		printf("  local %s (%s)  seen as %s  nat %s\n", v.local_addr,
		       v.local_ifname[0] ? v.local_ifname : "?",
		       v.observed_addr[0] ? v.observed_addr : "?",
		       v.nat < 0 ? "unknown"
		       : v.nat   ? "yes"
		                 : "no");
		printf("  inbound %s:", v.inbound < 0 ? "untested"
		                        : v.inbound   ? "yes"
		                                      : "no");
		json_array_foreach(json_object_get(detail, "ports"), i, p)
		    printf(" %lld/tcp %s (%s)",
		           (long long)json_integer_value(
		               json_object_get(p, "port")),
		           json_string_value(json_object_get(p, "state")),
		           json_string_value(json_object_get(p, "reason")));
		printf("\n  rtt %s\n", hb_fmt_us(v.rtt_us, b, sizeof(b)));
		doc_print_findings(&d, stdout, false);
	}
	doc_free(&d);
	return rc;
}

/* netprobe heartbeat: collect, decide, emit. Returns 0, 1 when a fault
 * or missed gate was found, 2 when it could not run. */
int cmd_heartbeat(int argc, char **argv)
{
	struct hb_opts o;
	struct hb_run *r;
	struct doc d = {0};
	struct sigaction sa = {0}, old_int, old_term;
	int rc;

	rc = hb_parse(argc, argv, &o);
	if (rc)
		return rc == 1 ? 0 : 2;
	if (o.peer_probe)
		return hb_peer(&o, argv[argc - 1]);
	r = calloc(1, sizeof(*r));
	if (!r || doc_init(&d, "netprobe", "heartbeat") < 0) {
		fprintf(stderr, "netprobe heartbeat: out of memory\n");
		free(r);
		return 2;
	}
	r->ufd = -1;
	r->c.fd = r->ctl.fd = -1;
	r->tcp.enabled = true;
	r->tcp.dropped_after_us = r->udp.dropped_after_us = -1;
	r->udp.enabled = o.udp;
	doc_set(&d, "interval_us", json_integer(o.interval_us));
	/* the first connection may take longer than one echo, unless the
	 * user bounded it with --timeout */
	if (hb_connect(r, &o, o.timeout_set ? o.timeout_us : 2000000) < 0) {
		fprintf(stderr, "netprobe heartbeat: %s\n", r->c.err);
		doc_add_error(&d, "connect", "%s", r->c.err);
		doc_set(&d, "target",
		        json_pack("{s:s, s:o, s:i}", "host", o.host, "address",
		                  r->c.code == CLIENT_E_RESOLVE
		                      ? json_null()
		                      : json_string(r->c.addr),
		                  "port", (int)o.port));
		rc = 2;
		goto emit;
	}
	if (o.udp && o.udp_port && o.udp_port != o.port &&
	    hb_udp_listen(r, &o) < 0) {
		fprintf(stderr, "netprobe heartbeat: %s\n", r->ctl.err);
		doc_add_error(&d, "listen", "%s", r->ctl.err);
		rc = 2;
		goto emit;
	}
	if (o.udp && hb_udp_open(r, o.udp_port) < 0) {
		fprintf(stderr, "netprobe heartbeat: udp socket: %s\n",
		        strerror(errno));
		r->udp.enabled = false;
	}
	sa.sa_handler = hb_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	r->t0_us = client_now_us();
	hb_loop(r, &o);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	doc_set(&d, "target",
	        json_pack("{s:s, s:s, s:i}", "host", o.host, "address",
	                  r->c.addr, "port", (int)o.port));
	if (r->connected)
		hb_count_segments(r);
	hb_decide(&r->tcp, &r->udp, &o.gate, o.interval_us, &d);
	rc = doc_exit_status(&d, true);
emit:
	doc_set(&d, "duration_us", json_integer(r->elapsed_us));
	doc_set(&d, "tcp", hb_side_json(&r->tcp, true));
	if (r->udp.enabled) {
		json_t *u = hb_side_json(&r->udp, false);

		json_object_set_new(
		    u, "port", json_integer(o.udp_port ? o.udp_port : o.port));
		doc_set(&d, "udp", u);
	} else {
		doc_set(&d, "udp", json_null());
	}
	doc_set(&d, "samples_us", hb_samples_json(&r->tcp));
	if (o.output && doc_write_file(&d, o.output) < 0) {
		fprintf(stderr, "netprobe heartbeat: cannot write '%s': %s\n",
		        o.output, strerror(errno));
		rc = 2;
	}
	if (o.json && !o.output)
		doc_write(&d, stdout);
	else if (rc != 2 || r->tcp.sent)
		hb_print(r, &o, &d);
	client_close(&r->c);
	client_close(&r->ctl);
	if (r->ufd >= 0)
		close(r->ufd);
	hb_side_free(&r->tcp);
	hb_side_free(&r->udp);
	doc_free(&d);
	free(r);
	hb_stop = 0;
	return rc;
}
