/* The one encoder and one decoder behind every payload of the responder
 * protocol: they walk a message's field table (proto_codec.h), so every
 * length, count and value check is made here, the same way each time. */
#include "wire/proto_codec.h"

#include <string.h>

/* A number of kind k from the struct (unaligned-safe). */
static uint64_t load(enum pf_kind k, const uint8_t *p)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;
	size_t vs;
	bool b;

	switch (k) {
	case PF_U8:
		return *p;
	case PF_U16:
		memcpy(&v16, p, sizeof(v16));
		return v16;
	case PF_U32:
		memcpy(&v32, p, sizeof(v32));
		return v32;
	case PF_U64:
		memcpy(&v64, p, sizeof(v64));
		return v64;
	case PF_SIZE:
		memcpy(&vs, p, sizeof(vs));
		return vs;
	case PF_BOOL32:
		memcpy(&b, p, sizeof(b));
		return b ? 1 : 0;
	default:
		return 0;
	}
}

/* Stores a number of kind k into the struct; v fits, read at that width. */
static void store(enum pf_kind k, uint8_t *p, uint64_t v)
{
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;
	size_t vs = (size_t)v;
	bool b = v != 0;

	switch (k) {
	case PF_U8:
		*p = (uint8_t)v;
		break;
	case PF_U16:
		memcpy(p, &v16, sizeof(v16));
		break;
	case PF_U32:
		memcpy(p, &v32, sizeof(v32));
		break;
	case PF_U64:
		memcpy(p, &v, sizeof(v));
		break;
	case PF_SIZE:
		memcpy(p, &vs, sizeof(vs));
		break;
	case PF_BOOL32:
		memcpy(p, &b, sizeof(b));
		break;
	default:
		break;
	}
}

/* The field at ref, in element i when f is an element's field. */
static uint64_t ref_of(const struct pf_field *f, const uint8_t *m, size_t i)
{
	return load(f->refk, m + f->ref + i * f->stride);
}

/* True when v passes check c. */
static bool check_ok(const struct pf_check *c, const struct pf_field *f,
                     uint64_t v, const uint8_t *m, size_t i)
{
	switch (c->rule) {
	case PF_R_MIN:
		return v >= c->a;
	case PF_R_MAX:
		return v <= c->a;
	case PF_R_EITHER:
		return v == c->a || v == c->b;
	case PF_R_MASK:
		return (v & ~c->a) == 0;
	case PF_R_LT_REF:
		return v < ref_of(f, m, i);
	case PF_R_GE_REF:
		return v >= ref_of(f, m, i);
	default:
		return true;
	}
}

/* Runs f's checks on v (only those marked PF_BOTH when sending). */
static int checks(const struct pf_field *f, uint64_t v, const uint8_t *m,
                  size_t i, bool send, const char **why)
{
	for (size_t k = 0; k < PF_LEN(f->chk); k++) {
		const struct pf_check *c = &f->chk[k];

		if (c->rule == PF_R_NONE || (send && !c->send))
			continue;
		if (!check_ok(c, f, v, m, i)) {
			*why = c->why;
			return -1;
		}
	}
	return 0;
}

/* An address's length by its family; 0 for a family other than 4 or 6. */
static size_t addr_len(uint64_t family)
{
	return family == 4 ? 4 : family == 6 ? 16 : 0;
}

/* True when the array f is left out: its flag bit is set. */
static bool skipped(const struct pf_field *f, const uint8_t *m)
{
	return f->skip_mask != 0 && (m[f->skip_off] & f->skip_mask) != 0;
}

/* The value f's checks see: a number, a string's or a tail's length. */
static uint64_t value_of(const struct pf_field *f, const uint8_t *m, size_t i)
{
	const uint8_t *at = m + f->off + i * f->stride;

	switch (f->kind) {
	case PF_STR8:
	case PF_TAIL_STR:
		return strnlen((const char *)at, f->max + 1);
	case PF_FIXSTR:
		return strnlen((const char *)at, f->max - 1);
	case PF_TAIL_BYTES:
	case PF_ARRAY:
		return ref_of(f, m, i);
	case PF_ADDR:
		return 0;
	default:
		return load(f->kind, at);
	}
}

/* Writes one field; the send checks were made by the caller. */
static int write_one(struct wr *w, const struct pf_field *f, const uint8_t *m,
                     size_t i, uint64_t v)
{
	const uint8_t *at = m + f->off + i * f->stride;
	const uint8_t *data;

	switch (f->kind) {
	case PF_U8:
		w_u8(w, (uint8_t)v);
		break;
	case PF_U16:
		w_u16(w, (uint16_t)v);
		break;
	case PF_U32:
	case PF_BOOL32:
		w_u32(w, (uint32_t)v);
		break;
	case PF_FIXSTR:
		/* v: the string's length, below max; NULs to the width */
		w_bytes(w, at, (size_t)v);
		for (size_t j = (size_t)v; j < f->max && !w->bad; j++)
			w_u8(w, 0);
		break;
	case PF_U64:
		w_u32(w, (uint32_t)(v >> 32));
		w_u32(w, (uint32_t)v);
		break;
	case PF_STR8:
		w_str8(w, (const char *)at, f->max);
		break;
	case PF_ADDR:
		if (addr_len(ref_of(f, m, i)) == 0)
			w->bad = true;
		else
			w_bytes(w, at, addr_len(ref_of(f, m, i)));
		break;
	case PF_ARRAY:
		if (v > f->max) {
			w->bad = true;
			break;
		}
		for (size_t j = 0; !skipped(f, m) && j < v && !w->bad; j++)
			pf_write(w, f->sub, f->nsub, m, j);
		break;
	case PF_TAIL_STR:
		if (v > f->max)
			w->bad = true;
		else
			w_bytes(w, at, (size_t)v);
		break;
	case PF_TAIL_BYTES:
		memcpy(&data, at, sizeof(data));
		w_bytes(w, data, (size_t)v);
		break;
	default:
		w->bad = true;
		break;
	}
	return w->bad ? -1 : 0;
}

/* See proto_codec.h. */
int pf_write(struct wr *w, const struct pf_field *f, size_t n, const void *m,
             size_t i)
{
	const char *why;

	for (size_t k = 0; k < n && !w->bad; k++) {
		uint64_t v = value_of(&f[k], m, i);

		if (checks(&f[k], v, m, i, true, &why) < 0 ||
		    write_one(w, &f[k], m, i, v) < 0) {
			w->bad = true;
			return -1;
		}
	}
	return w->bad ? -1 : 0;
}

/* Reads one field into element i; *v gets what its checks see. */
static int read_one(struct rd *r, const struct pf_field *f, uint8_t *m,
                    size_t i, uint64_t *v, const char **why)
{
	uint8_t *at = m + f->off + i * f->stride;
	const uint8_t *q;
	size_t n;

	if ((f->kind == PF_TAIL_STR || f->kind == PF_TAIL_BYTES) && r->bad) {
		*why = "truncated payload";
		return -1;
	}
	switch (f->kind) {
	case PF_U8:
		*v = r_u8(r);
		break;
	case PF_U16:
		*v = r_u16(r);
		break;
	case PF_U32:
		*v = r_u32(r);
		break;
	case PF_BOOL32:
		*v = r_u32(r) != 0;
		break;
	case PF_FIXSTR:
		if ((q = r_bytes(r, f->max)) != NULL) {
			memcpy(at, q, f->max);
			at[f->max - 1] = '\0';
		}
		*v = strlen((const char *)at);
		return 0;
	case PF_U64:
		*v = (uint64_t)r_u32(r) << 32;
		*v |= r_u32(r);
		break;
	case PF_STR8:
		if (r_str8(r, (char *)at, f->max, why) < 0)
			return -1;
		*v = strlen((const char *)at);
		return 0;
	case PF_ADDR:
		/* a family other than 4 or 6 failed its own check */
		n = ref_of(f, m, i) == 6 ? 16 : 4;
		if ((q = r_bytes(r, n)) != NULL)
			memcpy(at, q, n);
		*v = 0;
		return 0;
	case PF_ARRAY:
		*v = ref_of(f, m, i);
		if (*v > f->max) {
			*why = "too many elements";
			return -1;
		}
		for (size_t j = 0; !skipped(f, m) && j < *v && !r->bad; j++)
			if (pf_read(r, f->sub, f->nsub, m, j, why) < 0)
				return -1;
		return 0;
	case PF_TAIL_STR:
		*v = r->len - r->off;
		return r_text(r, (size_t)*v, (char *)at, f->max, why);
	case PF_TAIL_BYTES:
		n = r->len - r->off;
		q = r_bytes(r, n);
		memcpy(at, &q, sizeof(q));
		store(PF_SIZE, m + f->ref + i * f->stride, n);
		*v = n;
		return 0;
	default:
		*why = "bad field table";
		return -1;
	}
	store(f->kind, at, *v);
	return 0;
}

/* See proto_codec.h. */
int pf_read(struct rd *r, const struct pf_field *f, size_t n, void *m, size_t i,
            const char **why)
{
	for (size_t k = 0; k < n; k++) {
		uint64_t v = 0;

		if (f[k].whole && r->bad) {
			*why = "truncated payload";
			return -1;
		}
		if (read_one(r, &f[k], m, i, &v, why) < 0)
			return -1;
		/* a number read past the end is 0: the end check says so */
		if (!r->bad && checks(&f[k], v, m, i, false, why) < 0)
			return -1;
	}
	return 0;
}

/* See proto_codec.h. */
int pf_encode(const struct pf_msg *d, const void *m, uint8_t *buf, size_t cap)
{
	struct wr w = {buf, cap, 0, false};
	const char *why;

	if (d->check != NULL && d->check(m, true, &why) < 0)
		return -1;
	if (pf_write(&w, d->f, d->n, m, 0) < 0)
		return -1;
	return w_done(&w);
}

/* See proto_codec.h. */
int pf_decode(const struct pf_msg *d, const uint8_t *p, size_t len, void *m,
              const char **why)
{
	struct rd r = {p, len, 0, false};

	memset(m, 0, d->size);
	if (pf_read(&r, d->f, d->n, m, 0, why) < 0)
		return -1;
	if (r.bad) {
		*why = "truncated payload";
		return -1;
	}
	if (d->check != NULL && d->check(m, false, why) < 0)
		return -1;
	if (!d->open && r.off != r.len) {
		*why = "trailing bytes";
		return -1;
	}
	return 0;
}

/* See proto_codec.h. */
void pf_pack_fixed(const struct pf_msg *d, const void *m, uint8_t *buf,
                   size_t width)
{
	memset(buf, 0, width);
	(void)pf_encode(d, m, buf, width);
}

/* See proto_codec.h. */
void pf_unpack_fixed(const struct pf_msg *d, const uint8_t *p, size_t width,
                     void *m)
{
	const char *why;

	(void)pf_decode(d, p, width, m, &why);
}
