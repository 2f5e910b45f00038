/* netprobe mesh, the rendezvous's admission on node 0: a JOIN checked
 * (token, list, rank, twice) and accepted or turned away with a reason
 * the mesh document keeps, then each member's results gathered. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "mesh/mesh_rdv.h"
#include "wire/auth.h"

/* mesh_rdv.c: records a join turned away, for the mesh document.
 * Returns the record, or NULL when none more is kept. */
static struct mesh_reject *mesh_reject_add(struct mesh *ms, enum finding_code code,
                            const char *who, const char *fmt, ...)
{
	struct mesh_reject *r;
	va_list ap;

	if (ms->nrejects == ms->caprejects) {
		size_t cap = ms->caprejects ? 2 * ms->caprejects : 16;
		void *v;

		if (cap > 4 * MESH_MAX_NODES)
			return NULL;
		v = realloc(ms->rejects, cap * sizeof(*ms->rejects));
		if (v == NULL)
			return NULL;
		ms->rejects = v;
		ms->caprejects = cap;
	}
	r = &ms->rejects[ms->nrejects++];
	memset(r, 0, sizeof(*r));
	r->rank = -1;
	r->code = code;
	snprintf(r->who, sizeof(r->who), "%s", who);
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return r;
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

/* The join's address, hostname and rank on the reject just recorded: a
 * join that claims a held rank from the holder's own address under
 * another hostname is an address held twice (the report decides it). */
static void reject_facts(const struct mesh *ms, struct mesh_reject *r,
                         const struct rdv_conn *c)
{
	if (r == NULL)
		return;
	snprintf(r->addr, sizeof(r->addr), "%s", c->addr);
	snprintf(r->hostname, sizeof(r->hostname), "%s", c->j.hostname);
	r->rank = c->j.rank < ms->n ? (int)c->j.rank : -1;
}

/* Turns a join away: the node is told why, the mesh document names it. */
static void reject(struct mesh *ms, struct rdv_conn *c,
                   enum finding_code code,
                   unsigned err, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void reject(struct mesh *ms, struct rdv_conn *c, enum finding_code code,
                   unsigned err, const char *fmt, ...)
{
	char why[320], who[PROTO_MESH_NAME_MAX + 96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	join_who(c, who, sizeof(who));
	reject_facts(ms, mesh_reject_add(ms, code, who, "%s", why), c);
	/* an entry whose node was turned away (token, list) is not waited
	 * for; its real owner may still join before the start */
	if (!ms->rdv->started && c->j.rank < ms->n && c->j.rank > 0 &&
	    ms->m[c->j.rank].state == PROTO_MS_MISSING &&
	    code != FINDING_MESH_NODE_DUPLICATE) {
		ms->m[c->j.rank].state = PROTO_MS_REJECTED;
		snprintf(ms->m[c->j.rank].why, sizeof(ms->m[c->j.rank].why),
		         "was turned away: %.200s", why);
	}
	if (ms->o.verbose)
		cmd_note(&ms->run, "turned away %s: %s", who, why);
	rdv_conn_refuse(c, err, why);
}

/* The member list and token agree; the rank is free. Takes the join. */
static void accept_join(struct mesh *ms, struct rdv_conn *c)
{
	struct mesh_member *m = &ms->m[c->j.rank];
	char obs[INET6_ADDRSTRLEN] = "";

	m->state = PROTO_MS_JOINED;
	m->port = c->j.port;
	/* its own addresses lack the one node 0 saw: a NAT rewrote it */
	m->nat = c->j.naddrs > 0;
	m->join_us = mono_now_us() - ms->t0_us;
	snprintf(m->hostname, sizeof(m->hostname), "%s", c->j.hostname);
	snprintf(m->observed, sizeof(m->observed), "%s", c->addr);
	if (c->j.naddrs > 0)
		inet_ntop(c->j.addrs[0].family == 6 ? AF_INET6 : AF_INET,
		          c->j.addrs[0].addr, obs, sizeof(obs));
	snprintf(m->advertised, sizeof(m->advertised), "%s", obs);
	m->by_addr = c->by_addr;
	m->own_addrs[0] = '\0';
	for (uint8_t i = 0; i < c->j.naddrs; i++) {
		char a[INET6_ADDRSTRLEN];
		size_t l = strlen(m->own_addrs);

		if (inet_ntop(c->j.addrs[i].family == 6 ? AF_INET6 : AF_INET,
		              c->j.addrs[i].addr, a, sizeof(a)) == NULL)
			continue;
		if (strcmp(a, c->addr) == 0)
			m->nat = false;
		snprintf(m->own_addrs + l, sizeof(m->own_addrs) - l, "%s%s",
		         l ? ", " : "", a);
	}
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
		cmd_note(&ms->run, "rank %u '%s' joined from %s", c->j.rank,
		         c->j.name, c->addr);
}

/* True when the list entry is the address text addr: numerically equal,
 * or a name that resolves to it (one lookup, the resolver's bound). */
static bool entry_is(const char *entry, const char *addr)
{
	struct addrinfo hints = {0}, *res, *r;
	unsigned char a[16], b[16];
	bool hit = false;
	int fam = strchr(addr, ':') ? AF_INET6 : AF_INET;

	if (inet_pton(fam, addr, a) != 1)
		return false;
	if (inet_pton(fam, entry, b) == 1)
		return memcmp(a, b, fam == AF_INET ? 4 : 16) == 0;
	if (strchr(entry, ':') != NULL || inet_pton(AF_INET, entry, b) == 1)
		return false; /* the other family's address */
	hints.ai_family = fam;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(entry, NULL, &hints, &res) != 0)
		return false;
	for (r = res; r != NULL && !hit; r = r->ai_next) {
		const void *p = fam == AF_INET
		                    ? (const void *)&((struct sockaddr_in *)
		                                          r->ai_addr)
		                          ->sin_addr
		                    : (const void *)&((struct sockaddr_in6 *)
		                                          r->ai_addr)
		                          ->sin6_addr;

		hit = memcmp(p, a, fam == AF_INET ? 4 : 16) == 0;
	}
	freeaddrinfo(res);
	return hit;
}

/* A join that found no entry of its own (its hostname and addresses are
 * not in the list, as inside a NAT'd container listed by its host's
 * address) is the entry whose address it came from: membership is by
 * address. Sets the join's rank and returns true when one entry fits. */
static bool rank_by_address(struct mesh *ms, struct rdv_conn *c)
{
	long long end = mono_now_us() + MESH_STEP_US;

	for (size_t i = 1; i < ms->n && mono_now_us() < end; i++) {
		const struct mesh_member *m = &ms->m[i];

		if (m->state != PROTO_MS_MISSING || m->entry[0] == '\0' ||
		    !entry_is(m->entry, c->addr))
			continue;
		c->j.rank = (uint32_t)i;
		c->by_addr = true;
		return true;
	}
	return false;
}

/* Checks a JOIN against node 0's view: the same size and list, a rank in
 * the list and not taken, the mesh not started. Returns true when it
 * passes (the token is checked apart). */
static bool join_fits(struct mesh *ms, struct rdv_conn *c)
{
	const struct proto_join *j = &c->j;

	if (ms->rdv->started) {
		reject(ms, c, FINDING_MESH_NODE_MISSING, PROTO_E_REJECTED,
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
		reject(ms, c, FINDING_MESH_NODE_UNKNOWN, PROTO_E_REJECTED,
		       j->size != ms->n
		           ? "counts %u members where node 0 counts %zu: give "
		             "every node the same membership"
		           : "its host list (%u entries) differs from node "
		             "0's (%zu): give every node the same --hosts",
		       j->size, ms->n);
		return false;
	}
	if (j->rank == PROTO_MESH_NO_RANK && !c->by_addr)
		rank_by_address(ms, c);
	if (j->rank == PROTO_MESH_NO_RANK || j->rank >= ms->n) {
		reject(ms, c, FINDING_MESH_NODE_UNKNOWN, PROTO_E_REJECTED,
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

		reject(ms, c, FINDING_MESH_NODE_DUPLICATE, PROTO_E_REJECTED,
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
		reject(ms, c, FINDING_MESH_NODE_DUPLICATE, PROTO_E_REJECTED,
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
		mesh_reject_add(ms, FINDING_MESH_NODE_UNKNOWN, c->addr, "%s", m);
		rdv_conn_refuse(c, PROTO_E_MALFORMED, m);
		return;
	}
	if (ms->rdv->have_key && !(c->j.flags & PROTO_JOIN_TOKEN)) {
		reject(ms, c, FINDING_MESH_TOKEN_MISMATCH, PROTO_E_AUTH_REQUIRED,
		       "has no token, but node 0 requires one: pass the same "
		       "--token-file to every node");
		return;
	}
	if (!ms->rdv->have_key && (c->j.flags & PROTO_JOIN_TOKEN)) {
		reject(ms, c, FINDING_MESH_TOKEN_MISMATCH, PROTO_E_REJECTED,
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
	    rdv_conn_queue(c, PROTO_AUTH_CHALLENGE, c->nonce, PROTO_NONCE_LEN) <
	        0) {
		rdv_conn_refuse(c, PROTO_E_INTERNAL, "no random nonce");
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
		reject(ms, c, FINDING_MESH_TOKEN_MISMATCH, PROTO_E_AUTH_FAILED,
		       "proved a different token than node 0's: pass the "
		       "same --token-file to every node");
		return;
	}
	/* the rank may have been taken while we waited */
	if (!join_fits(ms, c))
		return;
	if (rdv_conn_queue(c, PROTO_AUTH_RESPONSE, &ok, 1) < 0) {
		rdv_conn_refuse(c, PROTO_E_INTERNAL, "out of memory");
		return;
	}
	accept_join(ms, c);
}

/* A change a watching member sent (mesh --watch): a JSON object from it,
 * kept in node 0's log within the caps of mesh_guard.h (a frame over
 * their size is not even parsed); anything else is dropped. */
static void take_change(struct mesh *ms, int member, const uint8_t *p, size_t n)
{
	json_t *e;
	const char *from;

	if (!mesh_watch_admit(ms, (size_t)member, n))
		return;
	e = json_loadb((const char *)p, n, 0, NULL);
	from = json_string_value(json_object_get(e, "from"));
	if (!json_is_object(e) || from == NULL ||
	    strcmp(from, ms->m[member].name) != 0 ||
	    !json_is_string(json_object_get(e, "to")) ||
	    !json_is_string(json_object_get(e, "at"))) {
		if (ms->o.verbose)
			cmd_note(&ms->run,
			         "watch: rank %d sent a change "
			         "that is not one; dropped",
			         member);
		json_decref(e);
		return;
	}
	mesh_watch_keep_change(ms, (size_t)member, e, n);
}

/* RESULT: one slice of the member's document, in order. */
static void on_result(struct mesh *ms, struct rdv_conn *c, const uint8_t *p,
                      size_t n)
{
	struct mesh_member *m = &ms->m[c->member];
	struct proto_result r;
	const char *why;

	/* watching: after its document, one change a frame */
	if (ms->watch_log != NULL && m->fate == MESH_FATE_DONE &&
	    proto_result_decode(p, n, &r, &why) == 0 && r.offset == 0 &&
	    r.len == r.total) {
		take_change(ms, c->member, r.data, r.len);
		return;
	}
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
	m->done_us = mono_now_us() - ms->t0_us;
	if (ms->o.verbose)
		cmd_note(&ms->run,
		         "document of rank %d (%zu bytes) in "
		         "after %.1f s",
		         c->member, m->doclen, (double)m->done_us / 1e6);
	return;
bad:
	m->fate = MESH_FATE_DIED;
	snprintf(m->why, sizeof(m->why), "sent %s", why);
	rdv_conn_refuse(c, PROTO_E_MALFORMED, why);
}

/* Handles every whole frame in c's buffer. */
void rdv_conn_frames(struct mesh *ms, struct rdv_conn *c)
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
			rdv_conn_refuse(c, PROTO_E_MALFORMED, why);
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
			rdv_conn_queue(c, PROTO_ECHO_REPLY, p, h.length);
		else
			rdv_conn_refuse(c, PROTO_E_UNSUPPORTED,
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
