/* netprobe mesh on node 0: the rendezvous. The responder hands each JOIN
 * connection over (serve.h); this file checks the join (token, list,
 * rank, twice), sends the plan and the members once the joins are in or
 * the join timeout passed, gathers every member's document while node 0
 * probes its own targets, and sends the verdict. One poll loop on the
 * main thread; every wait is bounded. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mesh_int.h"
#include "probe/meshplan.h"
#include "wire/auth.h"

#define RDV_FRAME_MAX (PROTO_HDR_LEN + PROTO_MAX_PAYLOAD)
#define RDV_MAX_CONNS (2 * MESH_MAX_NODES)
#define RDV_CLOSE_US 2000000LL /* a refusal is flushed for this long */

enum rdv_state {
	RC_NEW = 0, /* the JOIN is in its buffer */
	RC_AUTH,    /* challenge sent, waiting for the response */
	RC_IN,      /* a member: waits for the start, then sends results */
	RC_CLOSING, /* flush what is queued, then close */
	RC_DEAD,
};

struct rdv_conn {
	int fd;
	enum rdv_state st;
	char addr[INET6_ADDRSTRLEN];
	unsigned port;
	uint8_t *in;
	size_t nin, incap;
	uint8_t *out;
	size_t nout, outoff;
	const uint8_t *shared; /* the MEMBERS frames, after out */
	size_t nshared, sharedoff;
	int member;
	struct proto_join j;
	uint8_t nonce[PROTO_NONCE_LEN];
	uint8_t *doc;
	uint32_t doctotal, docgot;
	long long close_by_us;
};

struct rdv_pending {
	int fd;
	struct sockaddr_storage peer;
	uint8_t *in, *out;
	size_t nin, nout;
};

struct mesh_rdv {
	pthread_mutex_t mu;
	struct rdv_pending *pend; /* handed over, not yet taken */
	size_t npend, cappend;
	int wake[2];
	struct rdv_conn **c;
	size_t nc, capc;
	struct auth_key key;
	bool have_key;
	bool started;
	uint8_t *members; /* the MEMBERS frames, shared by every member */
	size_t nmembers;
	struct pollfd *pfd;
	size_t cappfd;
};

/* See mesh_int.h: runs on the responder's thread. */
int mesh_rdv_handoff(void *ctx, int fd, const struct sockaddr_storage *peer,
                     const uint8_t *in, size_t nin, const uint8_t *out,
                     size_t nout)
{
	struct mesh *ms = ctx;
	struct mesh_rdv *r = ms->rdv;
	struct rdv_pending p = {fd, *peer, NULL, NULL, nin, nout};
	int rc = -1;

	p.in = malloc(nin + 1);
	p.out = malloc(nout + 1);
	if (p.in == NULL || p.out == NULL)
		goto fail;
	memcpy(p.in, in, nin);
	if (nout)
		memcpy(p.out, out, nout);
	pthread_mutex_lock(&r->mu);
	if (r->npend + r->nc < RDV_MAX_CONNS) {
		if (r->npend == r->cappend) {
			size_t cap = r->cappend ? 2 * r->cappend : 64;
			void *v = realloc(r->pend, cap * sizeof(*r->pend));

			if (v != NULL) {
				r->pend = v;
				r->cappend = cap;
			}
		}
		if (r->npend < r->cappend) {
			r->pend[r->npend++] = p;
			rc = 0;
		}
	}
	pthread_mutex_unlock(&r->mu);
	if (rc == 0) {
		if (write(r->wake[1], "j", 1) < 0 && errno != EAGAIN)
			rc = 0; /* the loop polls at least every 200 ms */
		return 0;
	}
fail:
	free(p.in);
	free(p.out);
	return -1;
}

/* See mesh_int.h. */
int mesh_rdv_init(struct mesh *ms)
{
	struct mesh_rdv *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return -1;
	pthread_mutex_init(&r->mu, NULL);
	r->wake[0] = r->wake[1] = -1;
	ms->rdv = r;
	if (pipe2(r->wake, O_NONBLOCK | O_CLOEXEC) < 0)
		return -1;
	if (ms->o.token_file != NULL) {
		if (auth_load(ms->o.token_file, &r->key) < 0)
			return -1;
		r->have_key = true;
	}
	return 0;
}

/* See mesh_int.h. */
void mesh_reject_add(struct mesh *ms, const char *code, const char *who,
                     const char *fmt, ...)
{
	struct mesh_reject *r;
	va_list ap;

	if (ms->nrejects == ms->caprejects) {
		size_t cap = ms->caprejects ? 2 * ms->caprejects : 16;
		void *v;

		if (cap > 4 * MESH_MAX_NODES)
			return;
		v = realloc(ms->rejects, cap * sizeof(*ms->rejects));
		if (v == NULL)
			return;
		ms->rejects = v;
		ms->caprejects = cap;
	}
	r = &ms->rejects[ms->nrejects++];
	snprintf(r->code, sizeof(r->code), "%s", code);
	snprintf(r->who, sizeof(r->who), "%s", who);
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
}

/* Appends a frame to c's queue. Returns 0, or -1 (no memory). */
static int conn_queue(struct rdv_conn *c, uint8_t type, const void *payload,
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
static void conn_refuse(struct rdv_conn *c, unsigned code, const char *msg)
{
	struct proto_error e = {.code = (uint16_t)code};
	uint8_t buf[PROTO_ERRMSG_MAX + 2];
	int n;

	snprintf(e.msg, sizeof(e.msg), "%s", msg);
	n = proto_error_encode(&e, buf, sizeof(buf));
	if (n > 0)
		conn_queue(c, PROTO_ERROR, buf, (size_t)n);
	c->st = RC_CLOSING;
	c->close_by_us = client_now_us() + RDV_CLOSE_US;
}

/* Who a join says it is, for messages: 'name' (host h) from addr. */
static void join_who(const struct rdv_conn *c, char *buf, size_t len)
{
	if (strcmp(c->j.name, c->j.hostname) == 0 || c->j.hostname[0] == 0)
		snprintf(buf, len, "'%.120s' from %s", c->j.name, c->addr);
	else
		snprintf(buf, len, "'%.120s' (host %.64s) from %s", c->j.name,
		         c->j.hostname, c->addr);
}

/* Turns a join away: the node is told why, the mesh document names it. */
static void reject(struct mesh *ms, struct rdv_conn *c, const char *code,
                   unsigned err, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void reject(struct mesh *ms, struct rdv_conn *c, const char *code,
                   unsigned err, const char *fmt, ...)
{
	char why[320], who[PROTO_MESH_NAME_MAX + 96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	join_who(c, who, sizeof(who));
	mesh_reject_add(ms, code, who, "%s", why);
	/* an entry whose node was turned away (token, list) is not waited
	 * for; its real owner may still join before the start */
	if (!ms->rdv->started && c->j.rank < ms->n && c->j.rank > 0 &&
	    ms->m[c->j.rank].state == PROTO_MS_MISSING &&
	    strcmp(code, "mesh-node-duplicate") != 0) {
		ms->m[c->j.rank].state = PROTO_MS_REJECTED;
		snprintf(ms->m[c->j.rank].why, sizeof(ms->m[c->j.rank].why),
		         "was turned away: %.200s", why);
	}
	if (ms->o.verbose)
		fprintf(stderr, "netprobe mesh: turned away %s: %s\n", who,
		        why);
	conn_refuse(c, err, why);
}

/* The member list and token agree; the rank is free. Takes the join. */
static void accept_join(struct mesh *ms, struct rdv_conn *c)
{
	struct mesh_member *m = &ms->m[c->j.rank];
	char obs[INET6_ADDRSTRLEN] = "";

	m->state = PROTO_MS_JOINED;
	m->port = c->j.port;
	m->join_us = client_now_us() - ms->t0_us;
	snprintf(m->hostname, sizeof(m->hostname), "%s", c->j.hostname);
	snprintf(m->observed, sizeof(m->observed), "%s", c->addr);
	if (c->j.naddrs > 0)
		inet_ntop(c->j.addrs[0].family == 6 ? AF_INET6 : AF_INET,
		          c->j.addrs[0].addr, obs, sizeof(obs));
	snprintf(m->advertised, sizeof(m->advertised), "%s", obs);
	if (m->entry[0] == '\0')
		snprintf(m->target, sizeof(m->target), "%s",
		         obs[0] ? obs : c->addr);
	for (uint8_t i = 0; i < c->j.ndups; i++) {
		struct mesh_member *d;

		if (c->j.dups[i] >= ms->n)
			continue;
		d = &ms->m[c->j.dups[i]];
		if (d->state != PROTO_MS_MISSING)
			continue;
		d->state = PROTO_MS_DUPLICATE;
		d->dup_of = (int)c->j.rank;
		snprintf(d->why, sizeof(d->why),
		         "entry %u ('%.80s') names the same node as entry "
		         "%u ('%.80s')",
		         c->j.dups[i] + 1, d->entry, c->j.rank + 1, m->entry);
	}
	c->member = (int)c->j.rank;
	c->st = RC_IN;
	if (ms->o.verbose)
		fprintf(stderr, "netprobe mesh: rank %u '%s' joined from %s\n",
		        c->j.rank, c->j.name, c->addr);
}

/* Checks a JOIN against node 0's view: the same size and list, a rank in
 * the list and not taken, the mesh not started. Returns true when it
 * passes (the token is checked apart). */
static bool join_fits(struct mesh *ms, struct rdv_conn *c)
{
	const struct proto_join *j = &c->j;

	if (ms->rdv->started) {
		reject(ms, c, "mesh-node-missing", PROTO_E_REJECTED,
		       "joined %.1f s after node 0 started the mesh (the "
		       "join timeout is %.0f s)",
		       (double)mesh_elapsed_ms(ms) / 1e3,
		       (double)ms->o.join_us / 1e6);
		if (j->rank < ms->n && j->rank > 0 &&
		    ms->m[j->rank].state == PROTO_MS_MISSING)
			snprintf(ms->m[j->rank].why, sizeof(ms->m[j->rank].why),
			         "joined from %s %.1f s after the mesh "
			         "started",
			         c->addr, (double)mesh_elapsed_ms(ms) / 1e3);
		return false;
	}
	if (j->size != ms->n ||
	    (ms->list_hash && j->list_hash && j->list_hash != ms->list_hash)) {
		reject(ms, c, "mesh-node-unknown", PROTO_E_REJECTED,
		       j->size != ms->n
		           ? "counts %u members where node 0 counts %zu: give "
		             "every node the same membership"
		           : "its host list (%u entries) differs from node "
		             "0's (%zu): give every node the same --hosts",
		       j->size, ms->n);
		return false;
	}
	if (j->rank == PROTO_MESH_NO_RANK || j->rank >= ms->n) {
		reject(ms, c, "mesh-node-unknown", PROTO_E_REJECTED,
		       j->rank == PROTO_MESH_NO_RANK
		           ? "is not in the host list (%zu entries): add it "
		             "to --hosts or do not start it"
		           : "claims rank %zu of a mesh of %zu",
		       j->rank == PROTO_MESH_NO_RANK ? ms->n : (size_t)j->rank,
		       ms->n);
		return false;
	}
	if (j->rank == 0 || ms->m[j->rank].state == PROTO_MS_JOINED) {
		const struct mesh_member *t = &ms->m[j->rank];

		reject(ms, c, "mesh-node-duplicate", PROTO_E_REJECTED,
		       "claims rank %u, which %s already holds (joined from "
		       "%s): run one netprobe mesh per node",
		       j->rank,
		       j->rank == 0  ? "node 0"
		       : t->entry[0] ? t->entry
		                     : t->hostname,
		       j->rank == 0 ? "this host" : t->observed);
		return false;
	}
	if (ms->m[j->rank].state == PROTO_MS_DUPLICATE) {
		reject(ms, c, "mesh-node-duplicate", PROTO_E_REJECTED,
		       "claims entry %u, which repeats entry %d of the list",
		       j->rank + 1, ms->m[j->rank].dup_of + 1);
		return false;
	}
	return true;
}

/* JOIN: decoded and checked; with a token, the challenge goes out. */
static void on_join(struct mesh *ms, struct rdv_conn *c, const uint8_t *p,
                    size_t n)
{
	const char *why;

	if (proto_join_decode(p, n, &c->j, &why) < 0) {
		char m[160];

		snprintf(m, sizeof(m), "bad join from %s: %s", c->addr, why);
		mesh_reject_add(ms, "mesh-node-unknown", c->addr, "%s", m);
		conn_refuse(c, PROTO_E_MALFORMED, m);
		return;
	}
	if (ms->rdv->have_key && !(c->j.flags & PROTO_JOIN_TOKEN)) {
		reject(ms, c, "mesh-token-mismatch", PROTO_E_AUTH_REQUIRED,
		       "has no token, but node 0 requires one: pass the same "
		       "--token-file to every node");
		return;
	}
	if (!ms->rdv->have_key && (c->j.flags & PROTO_JOIN_TOKEN)) {
		reject(ms, c, "mesh-token-mismatch", PROTO_E_REJECTED,
		       "holds a token, but node 0 has none: pass the same "
		       "--token-file to every node");
		return;
	}
	if (!join_fits(ms, c))
		return;
	if (!ms->rdv->have_key) {
		accept_join(ms, c);
		return;
	}
	if (auth_nonce(c->nonce) < 0 ||
	    conn_queue(c, PROTO_AUTH_CHALLENGE, c->nonce, PROTO_NONCE_LEN) <
	        0) {
		conn_refuse(c, PROTO_E_INTERNAL, "no random nonce");
		return;
	}
	c->st = RC_AUTH;
}

/* AUTH_RESPONSE: the token proved, or the join turned away by name. */
static void on_auth(struct mesh *ms, struct rdv_conn *c, const uint8_t *p,
                    size_t n)
{
	uint8_t mac[PROTO_MAC_LEN], want[PROTO_MAC_LEN], ok = 1;
	const char *why;

	if (proto_fixed_decode(p, n, PROTO_MAC_LEN, mac, &why) < 0 ||
	    auth_mac(&ms->rdv->key, c->nonce, want) < 0 ||
	    !auth_mac_equal(mac, want)) {
		reject(ms, c, "mesh-token-mismatch", PROTO_E_AUTH_FAILED,
		       "proved a different token than node 0's: pass the "
		       "same --token-file to every node");
		return;
	}
	/* the rank may have been taken while we waited */
	if (!join_fits(ms, c))
		return;
	if (conn_queue(c, PROTO_AUTH_RESPONSE, &ok, 1) < 0) {
		conn_refuse(c, PROTO_E_INTERNAL, "out of memory");
		return;
	}
	accept_join(ms, c);
}

/* RESULT: one slice of the member's document, in order. */
static void on_result(struct mesh *ms, struct rdv_conn *c, const uint8_t *p,
                      size_t n)
{
	struct mesh_member *m = &ms->m[c->member];
	struct proto_result r;
	const char *why;

	if (!ms->rdv->started || m->fate == MESH_FATE_DONE) {
		why = "a result out of turn";
		goto bad;
	}
	if (proto_result_decode(p, n, &r, &why) < 0)
		goto bad;
	if (c->doc == NULL) {
		c->doc = malloc((size_t)r.total + 1);
		c->doctotal = r.total;
		if (c->doc == NULL) {
			why = "out of memory for its document";
			goto bad;
		}
	}
	if (r.total != c->doctotal || r.offset != c->docgot) {
		why = "document slices out of order";
		goto bad;
	}
	memcpy(c->doc + c->docgot, r.data, r.len);
	c->docgot += (uint32_t)r.len;
	if (c->docgot < c->doctotal)
		return;
	c->doc[c->doctotal] = '\0';
	m->doc = (char *)c->doc;
	m->doclen = c->doctotal;
	c->doc = NULL;
	m->fate = MESH_FATE_DONE;
	m->done_us = client_now_us() - ms->t0_us;
	if (ms->o.verbose)
		fprintf(stderr,
		        "netprobe mesh: document of rank %d (%zu bytes) in "
		        "after %.1f s\n",
		        c->member, m->doclen, (double)m->done_us / 1e6);
	return;
bad:
	m->fate = MESH_FATE_DIED;
	snprintf(m->why, sizeof(m->why), "sent %s", why);
	conn_refuse(c, PROTO_E_MALFORMED, why);
}

/* Handles every whole frame in c's buffer. */
static void conn_frames(struct mesh *ms, struct rdv_conn *c)
{
	size_t off = 0;

	while (c->st != RC_CLOSING && c->nin - off >= PROTO_HDR_LEN) {
		struct proto_hdr h;
		const uint8_t *p = c->in + off + PROTO_HDR_LEN;
		const char *why;

		if (proto_hdr_decode(c->in + off, c->nin - off, &h, &why) < 0) {
			if (c->member >= 0 &&
			    ms->m[c->member].fate == MESH_FATE_NONE) {
				ms->m[c->member].fate = MESH_FATE_DIED;
				snprintf(ms->m[c->member].why,
				         sizeof(ms->m[c->member].why),
				         "sent a bad frame: %s", why);
			}
			conn_refuse(c, PROTO_E_MALFORMED, why);
			break;
		}
		if (c->nin - off < PROTO_HDR_LEN + h.length)
			break;
		if (c->st == RC_NEW && h.type == PROTO_JOIN)
			on_join(ms, c, p, h.length);
		else if (c->st == RC_AUTH && h.type == PROTO_AUTH_RESPONSE)
			on_auth(ms, c, p, h.length);
		else if (c->st == RC_IN && h.type == PROTO_RESULT)
			on_result(ms, c, p, h.length);
		else if (c->st == RC_IN && h.type == PROTO_ECHO)
			conn_queue(c, PROTO_ECHO_REPLY, p, h.length);
		else
			conn_refuse(c, PROTO_E_UNSUPPORTED,
			            "unexpected frame in the rendezvous");
		off += PROTO_HDR_LEN + h.length;
	}
	memmove(c->in, c->in + off, c->nin - off);
	c->nin -= off;
	/* a thousand members must not each keep a 64 KiB buffer */
	if (c->nin == 0 && c->incap > 16384) {
		free(c->in);
		c->in = NULL;
		c->incap = 0;
	}
}

/* The connection ended: a member without its document died. */
static void conn_gone(struct mesh *ms, struct rdv_conn *c, const char *how)
{
	if (c->member >= 0 && ms->m[c->member].fate == MESH_FATE_NONE) {
		struct mesh_member *m = &ms->m[c->member];

		m->fate = MESH_FATE_DIED;
		snprintf(m->why, sizeof(m->why),
		         "joined, then its connection to node 0 %s %.1f s "
		         "into the mesh, before it sent its results",
		         how, (double)mesh_elapsed_ms(ms) / 1e3);
		if (ms->o.verbose)
			fprintf(stderr, "netprobe mesh: rank %d: %s\n",
			        c->member, m->why);
	}
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->st = RC_DEAD;
}

/* Reads what c's socket holds. */
static void conn_read(struct mesh *ms, struct rdv_conn *c)
{
	for (int round = 0; round < 16 && c->st != RC_DEAD; round++) {
		ssize_t r;

		if (c->incap - c->nin < 4096) {
			size_t cap = c->incap ? 2 * c->incap : 8192;
			uint8_t *v;

			if (cap > RDV_FRAME_MAX + 4096)
				cap = RDV_FRAME_MAX + 4096;
			v = cap > c->incap ? realloc(c->in, cap) : NULL;
			if (v == NULL && c->incap == c->nin) {
				conn_gone(ms, c, "ran out of memory");
				return;
			}
			if (v != NULL) {
				c->in = v;
				c->incap = cap;
			}
		}
		r = recv(c->fd, c->in + c->nin, c->incap - c->nin,
		         MSG_DONTWAIT);
		if (r == 0) {
			conn_gone(ms, c, "closed");
			return;
		}
		if (r < 0) {
			if (errno != EAGAIN && errno != EINTR)
				conn_gone(ms, c, "was reset");
			return;
		}
		c->nin += (size_t)r;
		if (c->st != RC_CLOSING)
			conn_frames(ms, c);
	}
}

/* Sends what is queued: c's own frames, then the shared members. */
static void conn_write(struct mesh *ms, struct rdv_conn *c)
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
				conn_gone(ms, c, "was reset");
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
static bool conn_pending(const struct rdv_conn *c)
{
	return c->outoff < c->nout || c->sharedoff < c->nshared;
}

/* The numeric address of a peer, IPv4-mapped IPv6 shown as IPv4. */
static void peer_addr(const struct sockaddr_storage *ss, char *out, size_t len)
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

/* Moves the connections the responder handed over into the loop. */
static void take_pending(struct mesh *ms)
{
	struct mesh_rdv *r = ms->rdv;
	char drain[64];

	while (read(r->wake[0], drain, sizeof(drain)) > 0)
		;
	pthread_mutex_lock(&r->mu);
	for (size_t i = 0; i < r->npend; i++) {
		struct rdv_pending *p = &r->pend[i];
		struct rdv_conn *c = calloc(1, sizeof(*c));

		if (c != NULL && r->nc == r->capc) {
			size_t cap = r->capc ? 2 * r->capc : 64;
			void *v = realloc(r->c, cap * sizeof(*r->c));

			if (v == NULL) {
				free(c);
				c = NULL;
			} else {
				r->c = v;
				r->capc = cap;
			}
		}
		if (c == NULL) {
			close(p->fd);
			free(p->in);
			free(p->out);
			continue;
		}
		c->fd = p->fd;
		c->member = -1;
		peer_addr(&p->peer, c->addr, sizeof(c->addr));
		c->in = p->in;
		c->nin = c->incap = p->nin;
		c->out = p->out;
		c->nout = p->nout;
		r->c[r->nc++] = c;
		conn_frames(ms, c);
	}
	r->npend = 0;
	pthread_mutex_unlock(&r->mu);
}

/* Frees connections that ended. */
static void reap(struct mesh_rdv *r)
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

/* One round of the loop: new connections, then at most max_ms of
 * waiting for reads and writes. */
static void rdv_poll(struct mesh *ms, int max_ms)
{
	struct mesh_rdv *r = ms->rdv;
	long long now;
	size_t n = 0;

	take_pending(ms);
	if (r->cappfd < r->nc + 1) {
		void *v = realloc(r->pfd, (r->nc + 64) * sizeof(*r->pfd));

		if (v == NULL)
			return;
		r->pfd = v;
		r->cappfd = r->nc + 64;
	}
	r->pfd[n++] = (struct pollfd){r->wake[0], POLLIN, 0};
	for (size_t i = 0; i < r->nc; i++) {
		struct rdv_conn *c = r->c[i];

		r->pfd[n++] = (struct pollfd){
		    c->fd, (short)(POLLIN | (conn_pending(c) ? POLLOUT : 0)),
		    0};
	}
	if (poll(r->pfd, n, max_ms) < 0 && errno != EINTR)
		return;
	now = client_now_us();
	for (size_t i = 0; i < r->nc; i++) {
		struct rdv_conn *c = r->c[i];
		short ev = r->pfd[i + 1].revents;

		if (c->st != RC_DEAD && (ev & POLLOUT))
			conn_write(ms, c);
		if (c->st != RC_DEAD && (ev & (POLLIN | POLLHUP | POLLERR)))
			conn_read(ms, c);
		if (c->st != RC_DEAD && conn_pending(c))
			conn_write(ms, c);
		if (c->st == RC_CLOSING &&
		    (!conn_pending(c) || now > c->close_by_us)) {
			close(c->fd);
			c->fd = -1;
			c->st = RC_DEAD;
		}
	}
	reap(r);
}

/* True when every entry that should join has. */
static bool all_joined(const struct mesh *ms)
{
	for (size_t i = 0; i < ms->n; i++)
		if (ms->m[i].state == PROTO_MS_MISSING)
			return false;
	return true;
}

/* True when every member that joined sent its document or is gone. */
static bool all_results(const struct mesh *ms)
{
	for (size_t i = 1; i < ms->n; i++)
		if (ms->m[i].state == PROTO_MS_JOINED &&
		    ms->m[i].fate == MESH_FATE_NONE)
			return false;
	return true;
}

/* The MEMBERS frames every member gets, built once. Returns 0, or -1. */
static int build_members(struct mesh *ms)
{
	struct mesh_rdv *r = ms->rdv;
	struct proto_member *batch = calloc(ms->n, sizeof(*batch));
	size_t cap = ms->n * (PROTO_HDR_LEN + 9 + 2 * 256) / 8 + 4096,
	       first = 0;
	uint8_t *buf = NULL;

	if (batch == NULL)
		return -1;
	for (size_t i = 0; i < ms->n; i++) {
		batch[i].rank = (uint32_t)i;
		batch[i].state = (uint8_t)ms->m[i].state;
		batch[i].port =
		    (uint16_t)(ms->m[i].state == PROTO_MS_JOINED ? ms->m[i].port
		                                                 : 0);
		snprintf(batch[i].name, sizeof(batch[i].name), "%s",
		         ms->m[i].name);
		snprintf(batch[i].target, sizeof(batch[i].target), "%s",
		         ms->m[i].target);
	}
	while (first < ms->n) {
		size_t k = 0, bytes = 6;
		int len;

		while (first + k < ms->n && k < 0xffff &&
		       bytes + proto_member_size(&batch[first + k]) <=
		           PROTO_MAX_PAYLOAD)
			bytes += proto_member_size(&batch[first + k++]);
		if (r->nmembers + PROTO_HDR_LEN + bytes > cap || buf == NULL) {
			uint8_t *v;

			cap = (r->nmembers + PROTO_HDR_LEN + bytes) * 2;
			v = realloc(buf, cap);
			if (v == NULL)
				goto fail;
			buf = v;
		}
		len = proto_members_encode((uint32_t)first, batch + first, k,
		                           buf + r->nmembers + PROTO_HDR_LEN,
		                           bytes);
		if (len < 0)
			goto fail;
		proto_hdr_encode(buf + r->nmembers, PROTO_MEMBERS, 0,
		                 (uint32_t)len);
		r->nmembers += PROTO_HDR_LEN + (size_t)len;
		first += k;
	}
	r->members = buf;
	free(batch);
	return 0;
fail:
	free(buf);
	free(batch);
	return -1;
}

/* Closes the joins: who is missing and why, the names, the plan; the
 * start and the members go to every member. Returns 0, or -1. */
static int rdv_start(struct mesh *ms)
{
	struct mesh_rdv *r = ms->rdv;
	size_t joined = 0;
	long long bound;

	r->started = true;
	for (size_t i = 0; i < ms->n; i++) {
		struct mesh_member *m = &ms->m[i];

		if (m->state == PROTO_MS_JOINED)
			joined++;
		if (m->state == PROTO_MS_MISSING && m->why[0] == '\0')
			snprintf(m->why, sizeof(m->why),
			         "did not join node 0 (%.64s:%u) within the "
			         "join timeout of %.0f s",
			         ms->node0, ms->port,
			         (double)ms->o.join_us / 1e6);
	}
	mesh_name_members(ms);
	bound = meshplan_bound_us(joined, ms->o.pairs, ms->o.concurrency,
	                          MESH_PEER_US);
	ms->start = (struct proto_mesh_start){
	    .members = (uint32_t)ms->n,
	    .index = 0,
	    .pair_limit = ms->o.pairs,
	    .probe_ms = (uint32_t)((bound + MESH_START_SLACK_US) / 1000),
	    .result_ms = (uint32_t)((bound + MESH_START_SLACK_US +
	                             MESH_RESULT_SLACK_US) /
	                            1000),
	    .concurrency = (uint16_t)ms->o.concurrency,
	    .flags = ms->o.quick ? PROTO_START_QUICK : 0,
	};
	snprintf(ms->start.ports, sizeof(ms->start.ports), "%s",
	         ms->o.ports ? ms->o.ports : "");
	if (build_members(ms) < 0)
		return -1;
	for (size_t i = 0; i < r->nc; i++) {
		struct rdv_conn *c = r->c[i];
		struct proto_mesh_start st = ms->start;
		uint8_t buf[PROTO_MESH_PORTS_MAX + 64];
		int len;

		if (c->st != RC_IN)
			continue;
		st.index = (uint32_t)c->member;
		len = proto_mesh_start_encode(&st, buf, sizeof(buf));
		if (len < 0 ||
		    conn_queue(c, PROTO_MESH_START, buf, (size_t)len) < 0)
			return -1;
		c->shared = r->members;
		c->nshared = r->nmembers;
	}
	if (ms->o.verbose)
		fprintf(
		    stderr,
		    "netprobe mesh: %zu of %zu members joined after %.1f s; "
		    "probing bound %.1f s\n",
		    joined, ms->n, (double)mesh_elapsed_ms(ms) / 1e3,
		    (double)ms->start.probe_ms / 1e3);
	return 0;
}

/* Members that joined but sent nothing in time. */
static void mark_silent(struct mesh *ms)
{
	for (size_t i = 1; i < ms->n; i++) {
		struct mesh_member *m = &ms->m[i];

		if (m->state != PROTO_MS_JOINED || m->fate != MESH_FATE_NONE)
			continue;
		m->fate = MESH_FATE_SILENT;
		snprintf(m->why, sizeof(m->why),
		         "joined, but sent no results within %.0f s of the "
		         "start",
		         (double)ms->start.result_ms / 1e3);
	}
}

/* The verdict to every member still connected; bounded flush. */
static void send_verdicts(struct mesh *ms, int status)
{
	struct mesh_rdv *r = ms->rdv;
	struct proto_verdict v = {(uint8_t)status, ""};
	uint8_t buf[PROTO_MESH_MSG_MAX + 8];
	long long end = client_now_us() + RDV_CLOSE_US;
	size_t joined = 0;
	int len;

	for (size_t i = 0; i < ms->n; i++)
		joined += ms->m[i].state == PROTO_MS_JOINED;
	snprintf(v.msg, sizeof(v.msg),
	         "mesh of %zu nodes (%zu joined): exit status %d; the report "
	         "is on node 0 (%.80s)",
	         ms->n, joined, status, ms->m[0].name);
	len = proto_verdict_encode(&v, buf, sizeof(buf));
	for (size_t i = 0; i < r->nc && len > 0; i++)
		if (r->c[i]->st == RC_IN) {
			conn_queue(r->c[i], PROTO_VERDICT, buf, (size_t)len);
			r->c[i]->st = RC_CLOSING;
			r->c[i]->close_by_us = end;
		}
	while (r->nc > 0 && client_now_us() < end)
		rdv_poll(ms, 50);
}

/* See mesh_int.h. */
int mesh_rdv_run(struct mesh *ms, int (*report)(struct mesh *))
{
	long long join_end = ms->t0_us + ms->o.join_us, res_end;
	int status;

	while (!all_joined(ms) && client_now_us() < join_end) {
		long long left = (join_end - client_now_us()) / 1000;

		rdv_poll(ms, left < 200 ? (int)(left > 0 ? left : 0) : 200);
	}
	if (rdv_start(ms) < 0) {
		fprintf(stderr, "netprobe mesh: out of memory\n");
		return 2;
	}
	if (mesh_probe_start(ms) < 0) {
		fprintf(stderr, "netprobe mesh: cannot start probing: %s\n",
		        strerror(errno));
		return 2;
	}
	res_end = client_now_us() + (long long)ms->start.result_ms * 1000;
	while (client_now_us() < res_end &&
	       !(all_results(ms) && mesh_probe_done(ms)))
		rdv_poll(ms, 100);
	mark_silent(ms);
	if (mesh_probe_finish(ms) < 0) {
		fprintf(stderr, "netprobe mesh: out of memory\n");
		return 2;
	}
	status = report(ms);
	send_verdicts(ms, status);
	return status;
}

/* See mesh_int.h. */
void mesh_rdv_free(struct mesh *ms)
{
	struct mesh_rdv *r = ms->rdv;

	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nc; i++) {
		if (r->c[i]->fd >= 0)
			close(r->c[i]->fd);
		r->c[i]->st = RC_DEAD;
	}
	reap(r);
	for (size_t i = 0; i < r->npend; i++) {
		close(r->pend[i].fd);
		free(r->pend[i].in);
		free(r->pend[i].out);
	}
	free(r->pend);
	free(r->c);
	free(r->pfd);
	free(r->members);
	if (r->wake[0] >= 0)
		close(r->wake[0]);
	if (r->wake[1] >= 0)
		close(r->wake[1]);
	explicit_bzero(&r->key, sizeof(r->key));
	pthread_mutex_destroy(&r->mu);
	free(r);
	ms->rdv = NULL;
}
