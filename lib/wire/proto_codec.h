/* The field tables the payload codecs of the responder protocol are
 * written in (proto_msg.c, proto_mesh.c): one row per field in wire order,
 * naming its kind, where it lies in the struct and the checks its value
 * must pass; one encoder and one decoder walk any table, so the bounds
 * checks live here once. A decoder checks each field as it reads it, so
 * the reason given is the first fault in wire order. A new message: its
 * struct in the public header, a table and PF_CODEC beside the others, a
 * golden in tests/unit/test_proto_golden.c. Internal to lib/wire, and to
 * ncclcheck's pre-flight wire (collectives/preflight/pf_wire.c), whose
 * fixed-width messages are tables too. */
#ifndef NP_PROTO_CODEC_H
#define NP_PROTO_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/proto_rw.h"

/* What a field is on the wire, and what holds it in the struct. */
enum pf_kind {
	PF_U8,         /* uint8_t */
	PF_U16,        /* uint16_t, network order */
	PF_U32,        /* uint32_t, network order */
	PF_U64,        /* uint64_t, network order */
	PF_SIZE,       /* size_t; only as the kind of a ref (a tail's length) */
	PF_STR8,       /* u8 length, printable ASCII; char[max + 1] */
	PF_ADDR,       /* 4 or 16 bytes by the u8 family at ref (4 or 6) */
	PF_ARRAY,      /* ref holds the count (at most max), sub one element */
	PF_TAIL_STR,   /* printable ASCII to the payload's end; char[max+1] */
	PF_TAIL_BYTES, /* bytes to the end: const uint8_t * here, size_t at
	                  ref; the payload's own bytes, never copied */
	PF_FIXSTR,     /* max bytes, NUL-padded, any bytes; char[max]: at
	                  most max - 1 sent, the last always NUL on reading */
	PF_BOOL32,     /* bool; a u32 on the wire, 1 or 0 (read: not 0) */
};

/* A rule on a value: a number itself, a string's or tail's length. */
enum pf_rule {
	PF_R_NONE = 0,
	PF_R_MIN,    /* v >= a */
	PF_R_MAX,    /* v <= a */
	PF_R_EITHER, /* v == a or v == b */
	PF_R_MASK,   /* no bit outside a */
	PF_R_LT_REF, /* v < the field at ref */
	PF_R_GE_REF, /* v >= the field at ref */
};

/* One check; send: the encoder refuses the value too (the decoder always
 * does), so a sender cannot build what its peer would reject. */
struct pf_check {
	enum pf_rule rule;
	bool send;
	uint64_t a, b;
	const char *why; /* the decoder's reason */
};

/* One field. In an array's element table off is that of element 0 and
 * stride the step to the next; a ref is then read in the same element. */
struct pf_field {
	enum pf_kind kind;
	size_t off;
	size_t stride;
	size_t ref;                 /* see the kinds and rules */
	enum pf_kind refk;          /* the kind of the field at ref */
	size_t max;                 /* strings: bytes; arrays: elements */
	bool whole;                 /* a short payload before this field is
	                               "truncated payload", not "truncated string" */
	size_t skip_off;            /* arrays: absent when the u8 at skip_off */
	uint8_t skip_mask;          /* has a bit of skip_mask */
	const struct pf_field *sub; /* arrays: the element's fields */
	size_t nsub;
	struct pf_check chk[2];
};

/* One message: its fields, its struct's size and, for rules across
 * fields no row can say, a check of the whole decoded (or to be encoded)
 * struct returning 0, or -1 with *why. open: bytes may follow. */
struct pf_msg {
	const struct pf_field *f;
	size_t n;
	size_t size;
	int (*check)(const void *m, bool send, const char **why);
	bool open;
};

#define PF_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Who refuses a value that breaks a check: the decoder only, or both. */
#define PF_DEC false
#define PF_BOTH true

/* The checks as table cells: .chk = {PF_MIN(1, "port 0", PF_DEC)}. */
/* clang-format off */
#define PF_MIN(v, why, who) {PF_R_MIN, (who), (v), 0, (why)}
#define PF_MAX(v, why, who) {PF_R_MAX, (who), (v), 0, (why)}
#define PF_EITHER(x, y, why, who) {PF_R_EITHER, (who), (x), (y), (why)}
#define PF_MASK(v, why, who) {PF_R_MASK, (who), (v), 0, (why)}
#define PF_LT_REF(why, who) {PF_R_LT_REF, (who), 0, 0, (why)}
#define PF_GE_REF(why, who) {PF_R_GE_REF, (who), 0, 0, (why)}

/* Table rows: a number, a string (n bytes at most), a number of element
 * 0 of an array (step to the next), an array of n at most whose count is
 * the number of kind ck at c; the _C forms end in one or two checks. */
#define PF_NUM(k, o) {.kind = (k), .off = (o)}
#define PF_NUM_C(k, o, ...) {.kind = (k), .off = (o), .chk = {__VA_ARGS__}}
#define PF_STR(o, n) {.kind = PF_STR8, .off = (o), .max = (n)}
/* A fixed-width, NUL-padded string: the struct's char array, whole. */
#define PF_FIX(T, m) {.kind = PF_FIXSTR, .off = offsetof(T, m), \
	 .max = sizeof(((T *)0)->m)}
#define PF_STR_C(o, n, ...) \
	{.kind = PF_STR8, .off = (o), .max = (n), .chk = {__VA_ARGS__}}
#define PF_EL(k, o, step) {.kind = (k), .off = (o), .stride = (step)}
#define PF_EL_C(k, o, step, ...) \
	{.kind = (k), .off = (o), .stride = (step), .chk = {__VA_ARGS__}}
#define PF_ARR(c, ck, n, elems) \
	{.kind = PF_ARRAY, .ref = (c), .refk = (ck), .max = (n), \
	 .sub = (elems), .nsub = PF_LEN(elems)}
/* A number checked against the number of kind rk at r (PF_LT_REF...). */
#define PF_REF_C(k, o, r, rk, ...) \
	{.kind = (k), .off = (o), .ref = (r), .refk = (rk), \
	 .chk = {__VA_ARGS__}}
/* A message: its rows, its struct, a check of the whole or NULL. */
#define PF_MSG(rows, T, whole) {rows, PF_LEN(rows), sizeof(T), whole, false}
/* clang-format on */

/* proto_NAME_encode and proto_NAME_decode of struct T by the table NAME_m
 * (see proto_msg.h for what they return). */
#define PF_CODEC(name, T)                                                      \
	int proto_##name##_encode(const T *m, uint8_t *buf, size_t cap)        \
	{                                                                      \
		return pf_encode(&name##_m, m, buf, cap);                      \
	}                                                                      \
	int proto_##name##_decode(const uint8_t *p, size_t len, T *m,          \
	                          const char **why)                            \
	{                                                                      \
		return pf_decode(&name##_m, p, len, m, why);                   \
	}

/* Writes the fields of element i of the struct at m. Returns 0, or -1
 * (w marked bad) when a value breaks a send check or does not fit. */
int pf_write(struct wr *w, const struct pf_field *f, size_t n, const void *m,
             size_t i);

/* Reads the fields of element i into the struct at m. Returns 0, or -1
 * with *why when a string or a checked value is malformed; a read past
 * the end only marks r bad (numbers read as 0, their checks skipped). */
int pf_read(struct rd *r, const struct pf_field *f, size_t n, void *m, size_t i,
            const char **why);

/* The whole payload of d from m into buf (cap bytes): its length, or -1
 * when it does not fit or a value breaks a send check. */
int pf_encode(const struct pf_msg *d, const void *m, uint8_t *buf, size_t cap);

/* Exactly len bytes into m (zeroed first): 0, or -1 with *why. */
int pf_decode(const struct pf_msg *d, const uint8_t *p, size_t len, void *m,
              const char **why);

/* A fixed message (no checks, fields that fit width) into exactly width
 * bytes, zeros after its fields, and back: neither can fail once the
 * width is right, so they return nothing (ncclcheck's fixed frames). */
void pf_pack_fixed(const struct pf_msg *d, const void *m, uint8_t *buf,
                   size_t width);
void pf_unpack_fixed(const struct pf_msg *d, const uint8_t *p, size_t width,
                     void *m);

#endif
