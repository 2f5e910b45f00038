/* Encoders and decoders of the mesh rendezvous payloads (protocol version
 * 2): network byte order, explicit lengths, every read checked. */
#include "wire/proto_mesh.h"

#include <stdlib.h>
#include <string.h>

#include "wire/proto_rw.h"

/* An address: u8 family (4 or 6), then 4 or 16 bytes. */
static void w_addr(struct wr *w, const struct proto_mesh_addr *a)
{
	if (a->family != 4 && a->family != 6) {
		w->bad = true;
		return;
	}
	w_u8(w, a->family);
	w_bytes(w, a->addr, a->family == 4 ? 4 : 16);
}

/* Reads an address; a family other than 4 or 6 is malformed. */
static int r_addr(struct rd *r, struct proto_mesh_addr *a, const char **why)
{
	const uint8_t *q;

	memset(a, 0, sizeof(*a));
	a->family = r_u8(r);
	if (!r->bad && a->family != 4 && a->family != 6) {
		*why = "bad address family";
		return -1;
	}
	q = r_bytes(r, a->family == 6 ? 16 : 4);
	if (q != NULL)
		memcpy(a->addr, q, a->family == 6 ? 16 : 4);
	return 0;
}

/* JOIN: u32 rank, u32 size, u32 list_hash, u16 port, u8 flags, str8 name,
 * str8 hostname, u8 naddrs, addresses, u8 ndups, u32 dups. */
int proto_join_encode(const struct proto_join *m, uint8_t *buf, size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	if (m->size == 0 || m->port == 0 || m->name[0] == '\0' ||
	    m->naddrs > PROTO_MESH_ADDRS || m->ndups > PROTO_MESH_DUPS)
		return -1;
	w_u32(&w, m->rank);
	w_u32(&w, m->size);
	w_u32(&w, m->list_hash);
	w_u16(&w, m->port);
	w_u8(&w, m->flags);
	w_str8(&w, m->name, PROTO_MESH_NAME_MAX);
	w_str8(&w, m->hostname, PROTO_MESH_HOST_MAX);
	w_u8(&w, m->naddrs);
	for (uint8_t i = 0; i < m->naddrs; i++)
		w_addr(&w, &m->addrs[i]);
	w_u8(&w, m->ndups);
	for (uint8_t i = 0; i < m->ndups; i++)
		w_u32(&w, m->dups[i]);
	return w_done(&w);
}

/* Rejects size or port 0, an empty name, unknown flags, too many
 * addresses or duplicates, and a duplicate entry equal to the rank. */
int proto_join_decode(const uint8_t *p, size_t len, struct proto_join *m,
                      const char **why)
{
	struct rd r = {p, len, 0, false};

	memset(m, 0, sizeof(*m));
	m->rank = r_u32(&r);
	m->size = r_u32(&r);
	m->list_hash = r_u32(&r);
	m->port = r_u16(&r);
	m->flags = r_u8(&r);
	if (r_str8(&r, m->name, PROTO_MESH_NAME_MAX, why) < 0 ||
	    r_str8(&r, m->hostname, PROTO_MESH_HOST_MAX, why) < 0)
		return -1;
	if (m->size == 0 || m->port == 0 || m->name[0] == '\0') {
		*why = m->size == 0   ? "mesh size 0"
		       : m->port == 0 ? "port 0"
		                      : "empty name";
		return -1;
	}
	if (m->flags & ~PROTO_JOIN_TOKEN) {
		*why = "unknown join flags";
		return -1;
	}
	m->naddrs = r_u8(&r);
	if (m->naddrs > PROTO_MESH_ADDRS) {
		*why = "too many addresses";
		return -1;
	}
	for (uint8_t i = 0; i < m->naddrs; i++)
		if (r_addr(&r, &m->addrs[i], why) < 0)
			return -1;
	m->ndups = r_u8(&r);
	if (m->ndups > PROTO_MESH_DUPS) {
		*why = "too many duplicate entries";
		return -1;
	}
	for (uint8_t i = 0; i < m->ndups; i++) {
		m->dups[i] = r_u32(&r);
		if (!r.bad && m->dups[i] == m->rank) {
			*why = "duplicate entry equals the rank";
			return -1;
		}
	}
	return r_end(&r, why);
}

/* MESH_START: u32 members, u32 index, u32 pair_limit, u32 probe_ms, u32
 * result_ms, u16 concurrency, u8 flags, str8 ports. */
int proto_mesh_start_encode(const struct proto_mesh_start *m, uint8_t *buf,
                            size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	if (m->members == 0 || m->index >= m->members || m->concurrency == 0)
		return -1;
	w_u32(&w, m->members);
	w_u32(&w, m->index);
	w_u32(&w, m->pair_limit);
	w_u32(&w, m->probe_ms);
	w_u32(&w, m->result_ms);
	w_u16(&w, m->concurrency);
	w_u8(&w, m->flags);
	w_str8(&w, m->ports, PROTO_MESH_PORTS_MAX);
	return w_done(&w);
}

/* Rejects no members, an index outside them, concurrency 0 and unknown
 * flags. */
int proto_mesh_start_decode(const uint8_t *p, size_t len,
                            struct proto_mesh_start *m, const char **why)
{
	struct rd r = {p, len, 0, false};

	memset(m, 0, sizeof(*m));
	m->members = r_u32(&r);
	m->index = r_u32(&r);
	m->pair_limit = r_u32(&r);
	m->probe_ms = r_u32(&r);
	m->result_ms = r_u32(&r);
	m->concurrency = r_u16(&r);
	m->flags = r_u8(&r);
	if (r_str8(&r, m->ports, PROTO_MESH_PORTS_MAX, why) < 0)
		return -1;
	if (m->members == 0 || m->index >= m->members) {
		*why = m->members == 0 ? "no members" : "index out of range";
		return -1;
	}
	if (m->concurrency == 0) {
		*why = "concurrency 0";
		return -1;
	}
	if (m->flags & ~PROTO_START_QUICK) {
		*why = "unknown start flags";
		return -1;
	}
	return r_end(&r, why);
}

/* See proto_mesh.h: u32 rank, u8 state, u16 port, str8 name, str8
 * target. */
size_t proto_member_size(const struct proto_member *m)
{
	return 4 + 1 + 2 + 1 + strnlen(m->name, PROTO_MESH_NAME_MAX + 1) + 1 +
	       strnlen(m->target, PROTO_MESH_NAME_MAX + 1);
}

/* MEMBERS: u32 first, u16 n, then n members. */
int proto_members_encode(uint32_t first, const struct proto_member *m, size_t n,
                         uint8_t *buf, size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	if (n == 0 || n > 0xffff)
		return -1;
	w_u32(&w, first);
	w_u16(&w, (uint16_t)n);
	for (size_t i = 0; i < n; i++) {
		if (m[i].state > PROTO_MS_MAX || m[i].name[0] == '\0')
			return -1;
		w_u32(&w, m[i].rank);
		w_u8(&w, m[i].state);
		w_u16(&w, m[i].port);
		w_str8(&w, m[i].name, PROTO_MESH_NAME_MAX);
		w_str8(&w, m[i].target, PROTO_MESH_NAME_MAX);
	}
	return w_done(&w);
}

/* Rejects no members, more than cap, an unknown state, an empty name and
 * a joined member without a port or a target. */
int proto_members_decode(const uint8_t *p, size_t len, uint32_t *first,
                         struct proto_member *out, size_t cap, size_t *n,
                         const char **why)
{
	struct rd r = {p, len, 0, false};
	uint16_t k;

	*n = 0;
	*first = r_u32(&r);
	k = r_u16(&r);
	if (r.bad) {
		*why = "truncated payload";
		return -1;
	}
	if (k == 0 || k > cap) {
		*why = k == 0 ? "no members" : "too many members";
		return -1;
	}
	for (uint16_t i = 0; i < k; i++) {
		struct proto_member *m = &out[i];

		memset(m, 0, sizeof(*m));
		m->rank = r_u32(&r);
		m->state = r_u8(&r);
		m->port = r_u16(&r);
		if (r_str8(&r, m->name, PROTO_MESH_NAME_MAX, why) < 0 ||
		    r_str8(&r, m->target, PROTO_MESH_NAME_MAX, why) < 0)
			return -1;
		if (m->state > PROTO_MS_MAX || m->name[0] == '\0') {
			*why = m->name[0] == '\0' ? "empty member name"
			                          : "unknown member state";
			return -1;
		}
		if (m->state == PROTO_MS_JOINED &&
		    (m->port == 0 || m->target[0] == '\0')) {
			*why = "joined member without port or target";
			return -1;
		}
	}
	if (r_end(&r, why) < 0)
		return -1;
	*n = k;
	return 0;
}

/* RESULT: u32 total, u32 offset, then the slice. */
int proto_result_encode(uint32_t total, uint32_t offset, const void *data,
                        size_t len, uint8_t *buf, size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	if (total == 0 || total > PROTO_MESH_DOC_MAX || len == 0 ||
	    len > PROTO_MESH_CHUNK || offset > total || len > total - offset)
		return -1;
	w_u32(&w, total);
	w_u32(&w, offset);
	w_bytes(&w, data, len);
	return w_done(&w);
}

/* Rejects an empty or oversized document and a slice past its end. */
int proto_result_decode(const uint8_t *p, size_t len, struct proto_result *m,
                        const char **why)
{
	struct rd r = {p, len, 0, false};

	memset(m, 0, sizeof(*m));
	m->total = r_u32(&r);
	m->offset = r_u32(&r);
	if (r.bad) {
		*why = "truncated payload";
		return -1;
	}
	m->len = len - r.off;
	m->data = p + r.off;
	if (m->total == 0 || m->total > PROTO_MESH_DOC_MAX) {
		*why = m->total == 0 ? "empty document" : "document too large";
		return -1;
	}
	if (m->len == 0 || m->len > PROTO_MESH_CHUNK) {
		*why = m->len == 0 ? "empty slice" : "slice too large";
		return -1;
	}
	if (m->offset > m->total || m->len > m->total - m->offset) {
		*why = "slice past the document's end";
		return -1;
	}
	return 0;
}

/* VERDICT: u8 status, str8 message. */
int proto_verdict_encode(const struct proto_verdict *m, uint8_t *buf,
                         size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	if (m->status > 2)
		return -1;
	w_u8(&w, m->status);
	w_str8(&w, m->msg, PROTO_MESH_MSG_MAX);
	return w_done(&w);
}

/* Rejects a status other than 0, 1 or 2. */
int proto_verdict_decode(const uint8_t *p, size_t len, struct proto_verdict *m,
                         const char **why)
{
	struct rd r = {p, len, 0, false};

	memset(m, 0, sizeof(*m));
	m->status = r_u8(&r);
	if (r_str8(&r, m->msg, PROTO_MESH_MSG_MAX, why) < 0)
		return -1;
	if (m->status > 2) {
		*why = "exit status above 2";
		return -1;
	}
	return r_end(&r, why);
}

/* See proto_mesh.h. */
uint32_t proto_mesh_list_hash(char *const *names, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++) {
		for (const char *c = names[i]; *c != '\0'; c++)
			h = (h ^ (uint8_t)*c) * 16777619u;
		h = (h ^ '\n') * 16777619u;
	}
	return h ? h : 1;
}

/* See proto_mesh.h. */
int proto_mesh_check(uint8_t type, const uint8_t *p, size_t len,
                     const char **why)
{
	union {
		struct proto_join j;
		struct proto_mesh_start s;
		struct proto_result r;
		struct proto_verdict v;
	} u;
	struct proto_member *m;
	uint32_t first;
	size_t n;
	int rc;

	switch (type) {
	case PROTO_JOIN:
		return proto_join_decode(p, len, &u.j, why);
	case PROTO_MESH_START:
		return proto_mesh_start_decode(p, len, &u.s, why);
	case PROTO_MEMBERS:
		/* a member takes at least 9 bytes */
		m = calloc(len / 9 + 1, sizeof(*m));
		if (m == NULL) {
			*why = "out of memory";
			return -1;
		}
		rc = proto_members_decode(p, len, &first, m, len / 9 + 1, &n,
		                          why);
		free(m);
		return rc;
	case PROTO_RESULT:
		return proto_result_decode(p, len, &u.r, why);
	case PROTO_VERDICT:
		return proto_verdict_decode(p, len, &u.v, why);
	default:
		*why = "not a mesh type";
		return -1;
	}
}
