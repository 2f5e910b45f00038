/* The bounded reader and writer the table codec of the responder
 * protocol is built on (proto_codec.c): network byte order,
 * and any overflow or read past the end marks the cursor bad instead of
 * touching memory. Internal to lib/wire/proto_*.c. */
#ifndef NP_PROTO_RW_H
#define NP_PROTO_RW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A bounded writer: any overflow sets bad and later writes do nothing. */
struct wr {
	uint8_t *p;
	size_t cap, off;
	bool bad;
};

/* A bounded reader: any read past the end sets bad and yields zeros. */
struct rd {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

/* Appends n bytes, or marks the writer bad when they do not fit. */
static inline void w_bytes(struct wr *w, const void *src, size_t n)
{
	if (w->bad || n > w->cap - w->off) {
		w->bad = true;
		return;
	}
	if (n)
		memcpy(w->p + w->off, src, n);
	w->off += n;
}

/* Appends one byte. */
static inline void w_u8(struct wr *w, uint8_t v)
{
	w_bytes(w, &v, 1);
}

/* Appends a u16 in network order. */
static inline void w_u16(struct wr *w, uint16_t v)
{
	uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};

	w_bytes(w, b, 2);
}

/* Appends a u32 in network order. */
static inline void w_u32(struct wr *w, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16),
	                (uint8_t)(v >> 8), (uint8_t)v};

	w_bytes(w, b, 4);
}

/* A string with a u8 length; longer than max is an encoding error. */
static inline void w_str8(struct wr *w, const char *s, size_t max)
{
	size_t n = strnlen(s, max + 1);

	if (n > max) {
		w->bad = true;
		return;
	}
	w_u8(w, (uint8_t)n);
	w_bytes(w, s, n);
}

/* The bytes written, or -1 when anything did not fit. */
static inline int w_done(const struct wr *w)
{
	return w->bad ? -1 : (int)w->off;
}

/* The next n bytes, or NULL (and bad) when fewer remain. */
static inline const uint8_t *r_bytes(struct rd *r, size_t n)
{
	const uint8_t *q;

	if (r->bad || n > r->len - r->off) {
		r->bad = true;
		return NULL;
	}
	q = r->p + r->off;
	r->off += n;
	return q;
}

/* Reads one byte (0 past the end). */
static inline uint8_t r_u8(struct rd *r)
{
	const uint8_t *q = r_bytes(r, 1);

	return q ? q[0] : 0;
}

/* Reads a u16 in network order (0 past the end). */
static inline uint16_t r_u16(struct rd *r)
{
	const uint8_t *q = r_bytes(r, 2);

	return q ? (uint16_t)((q[0] << 8) | q[1]) : 0;
}

/* Reads a u32 in network order (0 past the end). */
static inline uint32_t r_u32(struct rd *r)
{
	const uint8_t *q = r_bytes(r, 4);

	return q ? ((uint32_t)q[0] << 24) | ((uint32_t)q[1] << 16) |
	               ((uint32_t)q[2] << 8) | q[3]
	         : 0;
}

/* True when every byte is printable ASCII (logs stay safe). */
static inline bool printable(const uint8_t *q, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (q[i] < 0x20 || q[i] > 0x7e)
			return false;
	return true;
}

/* Reads n bytes of printable ASCII into out (max+1 bytes): a string's
 * text, after its length or to the payload's end. */
static inline int r_text(struct rd *r, size_t n, char *out, size_t max,
                         const char **why)
{
	const uint8_t *q;

	if (n > max) {
		*why = "string too long";
		return -1;
	}
	q = r_bytes(r, n);
	if (!q) {
		*why = "truncated string";
		return -1;
	}
	if (!printable(q, n)) {
		*why = "string not printable";
		return -1;
	}
	memcpy(out, q, n);
	out[n] = '\0';
	return 0;
}

/* Reads a u8-length string of printable ASCII into out (max+1 bytes). */
static inline int r_str8(struct rd *r, char *out, size_t max, const char **why)
{
	uint8_t n = r_u8(r);

	if (r->bad) {
		*why = "truncated string";
		return -1;
	}
	return r_text(r, n, out, max, why);
}

/* The common tail of every decoder: nothing missing, nothing left over. */
static inline int r_end(const struct rd *r, const char **why)
{
	if (r->bad) {
		*why = "truncated payload";
		return -1;
	}
	if (r->off != r->len) {
		*why = "trailing bytes";
		return -1;
	}
	return 0;
}

#endif
