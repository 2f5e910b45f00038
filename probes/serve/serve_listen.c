/* netprobe serve's temporary listeners (LISTEN): on the ports asked for or
 * on samples at both ends of ip_local_port_range, each closed when it
 * expires (serve_loop.c's timers). */
#include "serve/serve_listen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sysroot.h"
#include "kernel/portrange.h"
#include "serve/serve_conn.h"
#include "serve/serve_log.h"
#include "serve/serve_sock.h"

/* Reads ip_local_port_range; zeros when it cannot be read. */
static void local_range(unsigned *lo, unsigned *hi)
{
	struct sysroot sr;

	if (sysroot_init(&sr, NULL) < 0 || port_range_read(&sr, lo, hi) < 0)
		*lo = *hi = 0;
}

/* Closes a temporary listener and frees its slot. */
void sv_temp_close(struct server *s, struct temp *t)
{
	if (t->ev.fd < 0)
		return;
	close(t->ev.fd);
	t->ev.fd = -1;
	s->ntemps--;
}

/* Opens one temporary listener. Returns a PROTO_LS_* status. */
static uint8_t temp_open(struct server *s, uint8_t proto, uint16_t port,
                         long long expires_us)
{
	struct temp *t = NULL;
	int fd;

	for (unsigned i = 0; i < SERVE_MAX_TEMP; i++) {
		struct temp *x = &s->temps[i];

		if (x->ev.fd >= 0 && x->proto == proto && x->port == port) {
			/* already open: extend it */
			if (x->expires_us < expires_us)
				x->expires_us = expires_us;
			return PROTO_LS_OPENED;
		}
		if (x->ev.fd < 0 && !t)
			t = x;
	}
	if (!t)
		return PROTO_LS_LIMIT;
	if (port == s->o.port)
		return PROTO_LS_OPENED; /* the responder itself listens */
	fd = sv_bind_socket(s, proto == PROTO_TCP ? SOCK_STREAM : SOCK_DGRAM,
	                    port);
	if (fd < 0)
		return errno == EADDRINUSE ? PROTO_LS_IN_USE
		       : errno == EACCES   ? PROTO_LS_DENIED
		                           : PROTO_LS_FAILED;
	t->ev.kind = EV_TEMP;
	t->ev.fd = fd;
	t->proto = proto;
	t->port = port;
	t->expires_us = expires_us;
	if (sv_ep_add(s, &t->ev, EPOLLIN) < 0) {
		close(fd);
		t->ev.fd = -1;
		return PROTO_LS_FAILED;
	}
	s->ntemps++;
	return PROTO_LS_OPENED;
}

/* Accepts and drops TCP connections (the handshake was the proof), or
 * answers a UDP datagram with an ECHO_REPLY frame. */
void sv_temp_event(struct server *s, struct temp *t)
{
	if (t->proto == PROTO_TCP) {
		for (int i = 0; i < 64; i++) {
			int fd = accept4(t->ev.fd, NULL, NULL, SOCK_CLOEXEC);

			if (fd < 0)
				break;
			close(fd);
		}
		return;
	}
	for (int i = 0; i < 64; i++) {
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		uint8_t in[512], out[PROTO_HDR_LEN + 512];
		struct proto_hdr h;
		const char *why;
		const uint8_t *pl = in;
		size_t plen;
		ssize_t n = recvfrom(t->ev.fd, in, sizeof(in), MSG_DONTWAIT,
		                     (struct sockaddr *)&from, &fl);

		if (n < 0)
			break;
		if (!sv_bucket_take(&s->udp_bucket, SERVE_UDP_RATE,
		                    SERVE_UDP_RATE, mono_now_us()))
			continue;
		plen = (size_t)n < 64 ? (size_t)n : 64;
		if (proto_hdr_decode(in, (size_t)n, &h, &why) == 0 &&
		    h.type == PROTO_ECHO &&
		    h.length == (size_t)n - PROTO_HDR_LEN) {
			pl = in + PROTO_HDR_LEN;
			plen = h.length;
		}
		proto_hdr_encode(out, PROTO_ECHO_REPLY, 0, (uint32_t)plen);
		memcpy(out + PROTO_HDR_LEN, pl, plen);
		sendto(t->ev.fd, out, PROTO_HDR_LEN + plen, MSG_DONTWAIT,
		       (struct sockaddr *)&from, fl);
	}
}

/* LISTEN: opens temporary listeners on the ports given, or on samples
 * of ip_local_port_range, within this connection's limits. Returns 0, or
 * -1 when the connection was closed. */
int sv_on_listen(struct server *s, struct conn *c, const uint8_t *p, size_t n)
{
	struct proto_listen req;
	struct proto_listen_reply *rep;
	struct sv_grant g;
	unsigned lo, hi;
	uint32_t life;
	long long expires;
	const char *why;
	uint8_t *buf;
	int len, code, rc = -1;

	if (proto_listen_decode(p, n, &req, &why) < 0) {
		sv_conn_fatal(s, c, why);
		return -1;
	}
	code = sv_grant(s, c, &g, &why);
	if (code) {
		sv_conn_error(s, c, (enum proto_err)code, "%s", why);
		return 0;
	}
	if (req.nports > g.max_ports)
		return sv_conn_error(s, c, PROTO_E_REFUSED,
		                     "at most %u ports per request",
		                     g.max_ports);
	life = req.lifetime_ms ? req.lifetime_ms : SERVE_DEF_LIFE_MS;
	if (life > g.max_life_ms)
		life = g.max_life_ms;
	expires = mono_now_us() + (long long)life * 1000;
	rep = calloc(1, sizeof(*rep));
	buf = malloc(PROTO_MAX_PORTS * 3 + 16);
	if (!rep || !buf) {
		rc = sv_conn_error(s, c, PROTO_E_INTERNAL, "out of memory");
		goto out;
	}
	local_range(&lo, &hi);
	rep->proto = req.proto;
	rep->lifetime_ms = life;
	rep->range_lo = (uint16_t)lo;
	rep->range_hi = (uint16_t)hi;
	if (req.flags & PROTO_LISTEN_EPHEMERAL) {
		/* samples at both ends: lo, hi, lo+1, hi-1, ...; busy ports
		 * are skipped, at most four tries per sample */
		unsigned want = req.nports, got = 0, tries = 0;
		unsigned a = lo, b = hi;

		while (lo && got < want && tries < 4 * want && a <= b &&
		       rep->nports < PROTO_MAX_PORTS) {
			unsigned port = (tries % 2 == 0) ? a++ : b--;
			uint8_t st =
			    temp_open(s, req.proto, (uint16_t)port, expires);

			tries++;
			if (st == PROTO_LS_IN_USE)
				continue;
			rep->ports[rep->nports] = (uint16_t)port;
			rep->status[rep->nports++] = st;
			if (st == PROTO_LS_OPENED)
				got++;
			if (st == PROTO_LS_LIMIT)
				break;
		}
	} else {
		for (unsigned i = 0; i < req.nports; i++) {
			rep->ports[i] = req.ports[i];
			rep->status[i] =
			    temp_open(s, req.proto, req.ports[i], expires);
		}
		rep->nports = req.nports;
	}
	if (s->o.verbose)
		sv_log(s, "%s: listen %s on %u ports for %ums", c->name,
		       req.proto == PROTO_TCP ? "tcp" : "udp", rep->nports,
		       life);
	len = proto_listen_reply_encode(rep, buf, PROTO_MAX_PORTS * 3 + 16);
	rc = len < 0 ? -1
	             : sv_conn_send(s, c, PROTO_LISTEN_REPLY, buf, (size_t)len);
out:
	free(rep);
	free(buf);
	return rc;
}
