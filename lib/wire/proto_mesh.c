/* Payload codecs of the mesh rendezvous (protocol version 2): one field
 * table per message (proto_codec.h), walked by pf_encode and pf_decode. */
#include "wire/proto_mesh.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "wire/proto_codec.h"

/* JOIN: u32 rank, u32 size, u32 list_hash, u16 port, u8 flags, str8 name,
 * str8 hostname, u8 naddrs, addresses (u8 family 4 or 6, then 4 or 16
 * bytes), u8 ndups, u32 dups. */
#define JO(f) offsetof(struct proto_join, f)
#define JO_A(f) (JO(addrs) + offsetof(struct proto_mesh_addr, f))
#define JO_STEP sizeof(struct proto_mesh_addr)
static const struct pf_field join_addr_f[] = {
    PF_EL_C(PF_U8, JO_A(family), JO_STEP,
            PF_EITHER(4, 6, "bad address family", PF_BOTH)),
    {.kind = PF_ADDR,
     .off = JO_A(addr),
     .stride = JO_STEP,
     .ref = JO_A(family),
     .refk = PF_U8},
};
static const struct pf_field join_dup_f[] = {PF_EL(PF_U32, JO(dups), 4)};
static const struct pf_field join_f[] = {
    PF_NUM(PF_U32, JO(rank)),
    PF_NUM_C(PF_U32, JO(size), PF_MIN(1, "mesh size 0", PF_BOTH)),
    PF_NUM(PF_U32, JO(list_hash)),
    PF_NUM_C(PF_U16, JO(port), PF_MIN(1, "port 0", PF_BOTH)),
    PF_NUM_C(PF_U8, JO(flags),
             PF_MASK(PROTO_JOIN_TOKEN, "unknown join flags", PF_DEC)),
    PF_STR_C(JO(name), PROTO_MESH_NAME_MAX, PF_MIN(1, "empty name", PF_BOTH)),
    PF_STR(JO(hostname), PROTO_MESH_HOST_MAX),
    PF_NUM_C(PF_U8, JO(naddrs),
             PF_MAX(PROTO_MESH_ADDRS, "too many addresses", PF_BOTH)),
    PF_ARR(JO(naddrs), PF_U8, PROTO_MESH_ADDRS, join_addr_f),
    PF_NUM_C(PF_U8, JO(ndups),
             PF_MAX(PROTO_MESH_DUPS, "too many duplicate entries", PF_BOTH)),
    PF_ARR(JO(ndups), PF_U8, PROTO_MESH_DUPS, join_dup_f),
};

/* A node does not list its own rank among its duplicates (received). */
static int join_check(const void *v, bool send, const char **why)
{
	const struct proto_join *m = v;

	for (uint8_t i = 0; !send && i < m->ndups; i++)
		if (m->dups[i] == m->rank) {
			*why = "duplicate entry equals the rank";
			return -1;
		}
	return 0;
}

/* MESH_START: u32 members, u32 index, u32 pair_limit, u32 probe_ms, u32
 * result_ms, u16 concurrency, u8 flags, str8 ports. */
#define MS(f) offsetof(struct proto_mesh_start, f)
static const struct pf_field mesh_start_f[] = {
    PF_NUM_C(PF_U32, MS(members), PF_MIN(1, "no members", PF_BOTH)),
    PF_REF_C(PF_U32, MS(index), MS(members), PF_U32,
             PF_LT_REF("index out of range", PF_BOTH)),
    PF_NUM(PF_U32, MS(pair_limit)),
    PF_NUM(PF_U32, MS(probe_ms)),
    PF_NUM(PF_U32, MS(result_ms)),
    PF_NUM_C(PF_U16, MS(concurrency), PF_MIN(1, "concurrency 0", PF_BOTH)),
    PF_NUM_C(PF_U8, MS(flags),
             PF_MASK(PROTO_START_QUICK, "unknown start flags", PF_DEC)),
    PF_STR(MS(ports), PROTO_MESH_PORTS_MAX),
};

/* One member of MEMBERS: u32 rank, u8 state, u16 port, str8 name, str8
 * target; element i of an array of struct proto_member. */
#define ME(f) offsetof(struct proto_member, f)
#define ME_STEP sizeof(struct proto_member)
static const struct pf_field member_f[] = {
    PF_EL(PF_U32, ME(rank), ME_STEP),
    PF_EL_C(PF_U8, ME(state), ME_STEP,
            PF_MAX(PROTO_MS_MAX, "unknown member state", PF_BOTH)),
    PF_EL(PF_U16, ME(port), ME_STEP),
    {.kind = PF_STR8,
     .off = ME(name),
     .stride = ME_STEP,
     .max = PROTO_MESH_NAME_MAX,
     .chk = {PF_MIN(1, "empty member name", PF_BOTH)}},
    {.kind = PF_STR8,
     .off = ME(target),
     .stride = ME_STEP,
     .max = PROTO_MESH_NAME_MAX},
};

/* RESULT: u32 total, u32 offset, then the slice to the payload's end. */
#define RE(f) offsetof(struct proto_result, f)
static const struct pf_field result_f[] = {
    PF_NUM_C(PF_U32, RE(total), PF_MIN(1, "empty document", PF_BOTH),
             PF_MAX(PROTO_MESH_DOC_MAX, "document too large", PF_BOTH)),
    PF_NUM(PF_U32, RE(offset)),
    {.kind = PF_TAIL_BYTES,
     .off = RE(data),
     .ref = RE(len),
     .refk = PF_SIZE,
     .chk = {PF_MIN(1, "empty slice", PF_BOTH),
             PF_MAX(PROTO_MESH_CHUNK, "slice too large", PF_BOTH)}},
};

/* The slice lies inside the document. */
static int result_check(const void *v, bool send, const char **why)
{
	const struct proto_result *m = v;

	(void)send;
	if (m->offset > m->total || m->len > m->total - m->offset) {
		*why = "slice past the document's end";
		return -1;
	}
	return 0;
}

/* VERDICT: u8 status, str8 message. */
#define VE(f) offsetof(struct proto_verdict, f)
static const struct pf_field verdict_f[] = {
    PF_NUM_C(PF_U8, VE(status), PF_MAX(2, "exit status above 2", PF_BOTH)),
    PF_STR(VE(msg), PROTO_MESH_MSG_MAX),
};

/* The messages of version 2 with a struct of their own. */
static const struct pf_msg join_m =
    PF_MSG(join_f, struct proto_join, join_check);
static const struct pf_msg mesh_start_m =
    PF_MSG(mesh_start_f, struct proto_mesh_start, NULL);
static const struct pf_msg result_m =
    PF_MSG(result_f, struct proto_result, result_check);
static const struct pf_msg verdict_m =
    PF_MSG(verdict_f, struct proto_verdict, NULL);

/* The encoders and decoders proto_mesh.h declares, one pair a table:
 * each refuses what the table's checks marked PF_BOTH (JOIN: size or
 * port 0, an empty name, too many addresses or duplicates). */
PF_CODEC(join, struct proto_join)
PF_CODEC(mesh_start, struct proto_mesh_start)
PF_CODEC(verdict, struct proto_verdict)

/* See proto_mesh.h: u32 rank, u8 state, u16 port, str8 name, str8
 * target. */
size_t proto_member_size(const struct proto_member *m)
{
	return 4 + 1 + 2 + 1 + strnlen(m->name, PROTO_MESH_NAME_MAX + 1) + 1 +
	       strnlen(m->target, PROTO_MESH_NAME_MAX + 1);
}

/* MEMBERS: u32 first, u16 n, then n members by member_f. */
int proto_members_encode(uint32_t first, const struct proto_member *m, size_t n,
                         uint8_t *buf, size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	if (n == 0 || n > 0xffff)
		return -1;
	w_u32(&w, first);
	w_u16(&w, (uint16_t)n);
	for (size_t i = 0; i < n; i++)
		if (pf_write(&w, member_f, PF_LEN(member_f), m, i) < 0)
			return -1;
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
		const struct proto_member *m = &out[i];

		memset(&out[i], 0, sizeof(out[i]));
		if (pf_read(&r, member_f, PF_LEN(member_f), out, i, why) < 0)
			return -1;
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
	struct proto_result m = {total, offset, data, len};

	return pf_encode(&result_m, &m, buf, cap);
}

/* Rejects an empty or oversized document and a slice past its end. */
int proto_result_decode(const uint8_t *p, size_t len, struct proto_result *m,
                        const char **why)
{
	return pf_decode(&result_m, p, len, m, why);
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
