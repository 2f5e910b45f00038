/* netprobe mesh, the rendezvous's connections on node 0: frames queued
 * and written without blocking, a refusal flushed before the close, and
 * the connections that are done reaped. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "mesh/mesh_rdv.h"

/* Appends a frame to c's queue. Returns 0, or -1 (no memory). */
int rdv_conn_queue(struct rdv_conn *c, uint8_t type, const void *payload,
                   size_t len)
{
	uint8_t *v = realloc(c->out, c->nout + PROTO_HDR_LEN + len);

	if (v == NULL)
		return -1;
	c->out = v;
	proto_hdr_encode(c->out + c->nout, type, 0, (uint32_t)len);
	if (len)
		memcpy(c->out + c->nout + PROTO_HDR_LEN, payload, len);
	c->nout += PROTO_HDR_LEN + len;
	return 0;
}

/* Queues an ERROR and closes c once it is sent (or after a bound). */
void rdv_conn_refuse(struct rdv_conn *c, unsigned code, const char *msg)
{
	struct proto_error e = {.code = (uint16_t)code};
	uint8_t buf[PROTO_ERRMSG_MAX + 2];
	int n;

	snprintf(e.msg, sizeof(e.msg), "%s", msg);
	n = proto_error_encode(&e, buf, sizeof(buf));
	if (n > 0)
		rdv_conn_queue(c, PROTO_ERROR, buf, (size_t)n);
	c->st = RC_CLOSING;
	c->close_by_us = mono_now_us() + RDV_CLOSE_US;
}

/* The connection ended: a member without its document died. */
void rdv_conn_gone(struct mesh *ms, struct rdv_conn *c, const char *how)
{
	if (c->member >= 0 && ms->m[c->member].fate == MESH_FATE_NONE) {
		struct mesh_member *m = &ms->m[c->member];

		m->fate = MESH_FATE_DIED;
		snprintf(m->why, sizeof(m->why),
		         "joined, then its connection to node 0 %s %.1f s "
		         "into the mesh, before it sent its results",
		         how, (double)mesh_elapsed_ms(ms) / 1e3);
		if (ms->o.verbose)
			cmd_note(&ms->run, "rank %d: %s", c->member, m->why);
	}
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->st = RC_DEAD;
}

/* Sends what is queued: c's own frames, then the shared members. */
void rdv_conn_write(struct mesh *ms, struct rdv_conn *c)
{
	while (c->st != RC_DEAD) {
		const uint8_t *p;
		size_t n;
		ssize_t w;

		if (c->outoff < c->nout) {
			p = c->out + c->outoff;
			n = c->nout - c->outoff;
		} else if (c->sharedoff < c->nshared) {
			p = c->shared + c->sharedoff;
			n = c->nshared - c->sharedoff;
		} else {
			break;
		}
		w = send(c->fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0) {
			if (errno != EAGAIN && errno != EINTR)
				rdv_conn_gone(ms, c, "was reset");
			return;
		}
		if (c->outoff < c->nout)
			c->outoff += (size_t)w;
		else
			c->sharedoff += (size_t)w;
	}
	if (c->outoff == c->nout)
		c->outoff = c->nout = 0;
}

/* True when c has bytes to send. */
bool rdv_conn_pending(const struct rdv_conn *c)
{
	return c->outoff < c->nout || c->sharedoff < c->nshared;
}

/* The numeric address of a peer, IPv4-mapped IPv6 shown as IPv4. */
void rdv_peer_addr(const struct sockaddr_storage *ss, char *out, size_t len)
{
	snprintf(out, len, "?");
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)ss;

		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
			inet_ntop(AF_INET, &s6->sin6_addr.s6_addr[12], out,
			          (socklen_t)len);
		else
			inet_ntop(AF_INET6, &s6->sin6_addr, out,
			          (socklen_t)len);
	} else if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s4 = (const void *)ss;

		inet_ntop(AF_INET, &s4->sin_addr, out, (socklen_t)len);
	}
}

/* Frees connections that ended. */
void rdv_reap(struct mesh_rdv *r)
{
	size_t k = 0;

	for (size_t i = 0; i < r->nc; i++) {
		struct rdv_conn *c = r->c[i];

		if (c->st != RC_DEAD) {
			r->c[k++] = c;
			continue;
		}
		free(c->in);
		free(c->out);
		free(c->doc);
		free(c);
	}
	r->nc = k;
}
