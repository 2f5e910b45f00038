/* netprobe serve's per-client state machine: frames cut out of the byte
 * stream and checked, then dispatched; HELLO, REFLECT, ECHO and the token
 * challenge are answered here. */
#include "serve/serve_client.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/monoclock.h"
#include "serve/serve_conn.h"
#include "serve/serve_connback.h"
#include "serve/serve_listen.h"
#include "serve/serve_log.h"
#include "serve/serve_sock.h"
#include "wire/client.h"

/* The responder's HELLO: its node, version and this connection's limits.
 * A mesh's responder says so (node 0's hosts the rendezvous, a member's
 * counts the JOINs it refuses), so a member or a port's next user tells
 * it from `netprobe serve`. */
static void fill_hello(struct server *s, bool authed, struct proto_hello *h)
{
	memset(h, 0, sizeof(*h));
	h->proto_version = PROTO_VERSION;
	h->flags = (s->have_key ? PROTO_HELLO_AUTH : 0) |
	           (authed ? PROTO_HELLO_AUTHED : 0) |
	           (s->o.handoff ? PROTO_HELLO_MESH : 0) |
	           (s->o.joins_refused ? PROTO_HELLO_MEMBER : 0);
	h->max_ports = authed ? PROTO_MAX_PORTS : SERVE_OPEN_PORTS;
	h->max_lifetime_ms = authed ? SERVE_AUTH_LIFE_MS : SERVE_OPEN_LIFE_MS;
	snprintf(h->node, sizeof(h->node), "%s", s->node);
	snprintf(h->software, sizeof(h->software), "netprobe %s",
	         NETPROBE_VERSION);
}

/* HELLO: logs the client's, answers ours. Returns 0, or -1 if closed. */
static int on_hello(struct server *s, struct conn *c, const uint8_t *p,
                    size_t n)
{
	struct proto_hello in, out;
	uint8_t buf[160];
	const char *why;
	int len;

	if (proto_hello_decode(p, n, &in, &why) < 0) {
		sv_conn_fatal(s, c, why);
		return -1;
	}
	if (s->o.verbose)
		sv_log(s, "%s: hello from '%s' (%s)", c->name, in.node,
		       in.software);
	fill_hello(s, c->authed, &out);
	len = proto_hello_encode(&out, buf, sizeof(buf));
	return sv_conn_send(s, c, PROTO_HELLO, buf, (size_t)len);
}

/* REFLECT: answers the source address and port this connection came from. */
static int on_reflect(struct server *s, struct conn *c, size_t n)
{
	struct proto_reflect_reply r;
	uint8_t buf[32];
	int len;

	if (n != 0) {
		sv_conn_fatal(s, c, "reflect with a payload");
		return -1;
	}
	sv_reflect_of(&c->peer, &r);
	len = proto_reflect_reply_encode(&r, buf, sizeof(buf));
	return sv_conn_send(s, c, PROTO_REFLECT_REPLY, buf, (size_t)len);
}

/* AUTH_CHALLENGE: a fresh nonce for the client to sign with the token,
 * within the rate of heavy requests. */
static int on_auth_challenge(struct server *s, struct conn *c, size_t n)
{
	if (n != 0) {
		sv_conn_fatal(s, c, "challenge request with a payload");
		return -1;
	}
	if (!s->have_key)
		return sv_conn_error(s, c, PROTO_E_UNSUPPORTED,
		                     "this responder has no token");
	if (!sv_bucket_take(&c->heavy, SERVE_HEAVY_RATE, 2 * SERVE_HEAVY_RATE,
	                    mono_now_us()))
		return sv_conn_error(s, c, PROTO_E_LIMIT, "too many requests");
	if (auth_nonce(c->nonce) < 0)
		return sv_conn_error(s, c, PROTO_E_INTERNAL, "no random nonce");
	c->nonce_set = true;
	return sv_conn_send(s, c, PROTO_AUTH_CHALLENGE, c->nonce,
	                    PROTO_NONCE_LEN);
}

/* AUTH_RESPONSE: compares the MAC with ours in constant time; one try
 * per nonce, a wrong one closes the connection. */
static int on_auth_response(struct server *s, struct conn *c, const uint8_t *p,
                            size_t n)
{
	uint8_t mac[PROTO_MAC_LEN], want[PROTO_MAC_LEN], ok = 1;
	const char *why;

	if (proto_fixed_decode(p, n, PROTO_MAC_LEN, mac, &why) < 0) {
		sv_conn_fatal(s, c, why);
		return -1;
	}
	if (!s->have_key || !c->nonce_set) {
		sv_conn_fatal(s, c,
		              "authentication response without challenge");
		return -1;
	}
	c->nonce_set = false; /* one try per nonce */
	if (auth_mac(&s->key, c->nonce, want) < 0 ||
	    !auth_mac_equal(mac, want)) {
		sv_conn_error(s, c, PROTO_E_AUTH_FAILED, "wrong token");
		sv_conn_close(s, c, "authentication failed");
		return -1;
	}
	c->authed = true;
	if (s->o.verbose)
		sv_log(s, "%s: authenticated", c->name);
	return sv_conn_send(s, c, PROTO_AUTH_RESPONSE, &ok, 1);
}

/* Handles one whole frame from a connection. Returns 0, or -1 when the
 * connection was closed. */
static int conn_frame(struct server *s, struct conn *c,
                      const struct proto_hdr *h, const uint8_t *p)
{
	size_t n = h->length;

	switch (h->type) {
	case PROTO_HELLO:
		return on_hello(s, c, p, n);
	case PROTO_REFLECT:
		return on_reflect(s, c, n);
	case PROTO_ECHO:
		if (!sv_bucket_take(&c->echo, SERVE_ECHO_RATE, SERVE_ECHO_RATE,
		                    mono_now_us()))
			return sv_conn_error(s, c, PROTO_E_LIMIT,
			                     "echo rate above %d/s",
			                     SERVE_ECHO_RATE);
		s->st.echo_tcp++;
		return sv_conn_send(s, c, PROTO_ECHO_REPLY, p, n);
	case PROTO_LISTEN:
		return sv_on_listen(s, c, p, n);
	case PROTO_CONNECT_BACK:
		return sv_on_connect_back(s, c, p, n);
	case PROTO_AUTH_CHALLENGE:
		return on_auth_challenge(s, c, n);
	case PROTO_AUTH_RESPONSE:
		return on_auth_response(s, c, p, n);
	case PROTO_MTU_PROBE:
		return sv_conn_error(s, c, PROTO_E_UNSUPPORTED,
		                     "mtu probes go over UDP");
	case PROTO_JOIN:
		if (s->o.joins_refused != NULL)
			atomic_fetch_add(s->o.joins_refused, 1);
		return sv_conn_error(s, c, PROTO_E_UNSUPPORTED,
		                     "no mesh rendezvous runs here");
	default:
		sv_conn_fatal(s, c, "unexpected frame type");
		return -1;
	}
}

/* JOIN: the mesh rendezvous takes the connection with the bytes from the
 * frame on (in, nin) and the replies not yet sent. Returns -1: the
 * connection is no longer the server's (or is closed). */
static int on_join(struct server *s, struct conn *c, const uint8_t *in,
                   size_t nin)
{
	int fd = c->ev.fd;

	if (s->o.verbose)
		sv_log(s, "%s: join handed to the mesh rendezvous", c->name);
	sv_conn_detach(s, c);
	if (s->o.handoff(s->o.handoff_ctx, fd, &c->peer, in, nin,
	                 c->wbuf + c->woff, c->wlen - c->woff) < 0)
		close(fd);
	return -1;
}

/* Reads what the socket holds and handles every whole frame in it. */
void sv_client_read(struct server *s, struct conn *c)
{
	for (int round = 0; round < 16 && !c->dead; round++) {
		size_t off = 0;
		ssize_t r = recv(c->ev.fd, c->rbuf + c->rlen,
		                 sizeof(c->rbuf) - c->rlen, MSG_DONTWAIT);

		if (r == 0) {
			sv_conn_close(s, c,
			              c->rlen ? "closed mid-frame" : NULL);
			return;
		}
		if (r < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			/* a reset is the client's business, not bad input */
			sv_conn_close(s, c,
			              errno == ECONNRESET && !s->o.verbose &&
			                      c->rlen == 0
			                  ? NULL
			              : c->rlen ? "reset mid-frame"
			                        : strerror(errno));
			return;
		}
		c->rlen += (size_t)r;
		c->last_us = mono_now_us();
		while (!c->dead && c->rlen - off >= PROTO_HDR_LEN) {
			struct proto_hdr h;
			const char *why;

			if (proto_hdr_decode(c->rbuf + off, c->rlen - off, &h,
			                     &why) < 0) {
				sv_conn_fatal(s, c, why);
				return;
			}
			if (h.length > SERVE_TCP_MAX_PAYLOAD) {
				sv_conn_fatal(s, c,
				              "frame larger than 4096 "
				              "bytes");
				return;
			}
			if (c->rlen - off < PROTO_HDR_LEN + h.length)
				break;
			if (h.type == PROTO_JOIN && s->o.handoff) {
				on_join(s, c, c->rbuf + off, c->rlen - off);
				return;
			}
			c->frames++;
			c->frame_us = c->last_us;
			if (h.type != PROTO_HELLO &&
			    h.type != PROTO_AUTH_CHALLENGE &&
			    h.type != PROTO_AUTH_RESPONSE)
				c->requests++;
			if (conn_frame(s, c, &h,
			               c->rbuf + off + PROTO_HDR_LEN) < 0 &&
			    c->dead)
				return;
			off += PROTO_HDR_LEN + h.length;
		}
		if (c->dead)
			return;
		memmove(c->rbuf, c->rbuf + off, c->rlen - off);
		c->rlen -= off;
		/* the frame's deadline runs from its first byte, so a frame
		 * sent a byte at a time is cut as surely as a stalled one */
		if (c->rlen == 0)
			c->partial_since_us = 0;
		else if (off > 0 || c->partial_since_us == 0)
			c->partial_since_us = c->last_us;
		if ((size_t)r < sizeof(c->rbuf))
			return;
	}
}
