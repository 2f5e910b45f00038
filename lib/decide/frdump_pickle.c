/* A pickle reader for torch's Flight Recorder dumps only: the data
 * opcodes torch's C++ pickler writes (protocol 2) and the few more a
 * Python re-pickle of the same dict adds (protocol 4 framing, memoize,
 * short strings, floats). Any opcode that names code (GLOBAL, REDUCE,
 * BUILD, ...) is refused by name; nothing is ever imported or called. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/frdump.h"

#define FRP_MAX_STACK (1u << 20)

struct slot {
	json_t *v;
	int depth;    /* containers inside, itself included */
	bool mark;    /* a MARK, no value */
};

struct frp {
	const unsigned char *p;
	size_t len, at;
	struct slot *st;
	size_t nst, capst;
	json_t **memo;
	size_t nmemo, nmemo_used; /* slots, and MEMOIZE's next index */
	size_t nodes;
	char *why;
	size_t whylen;
};

/* The opcodes a pickle may hold that this reader refuses: named, so the
 * message says what the file asked for. */
static const struct {
	unsigned char op;
	const char *name;
} refused[] = {
	{'c', "GLOBAL"}, {0x93, "STACK_GLOBAL"}, {'R', "REDUCE"},
	{'b', "BUILD"}, {'i', "INST"}, {'o', "OBJ"}, {0x81, "NEWOBJ"},
	{0x92, "NEWOBJ_EX"}, {'P', "PERSID"}, {'Q', "BINPERSID"},
	{0x82, "EXT1"}, {0x83, "EXT2"}, {0x84, "EXT4"}, {'2', "DUP"},
	{'0', "POP"}, {'1', "POP_MARK"}, {'I', "INT"}, {'L', "LONG"},
	{'F', "FLOAT"}, {'S', "STRING"}, {'V', "UNICODE"}, {'p', "PUT"},
	{'g', "GET"}, {'l', "LIST"}, {'d', "DICT"}, {'t', "TUPLE_TEXT"},
	{'T', "BINSTRING"}, {'U', "SHORT_BINSTRING"}, {'B', "BINBYTES"},
	{'C', "SHORT_BINBYTES"}, {0x8e, "BINBYTES8"}, {0x8d, "BINUNICODE8"},
	{0x8f, "EMPTY_SET"}, {0x90, "ADDITEMS"}, {0x91, "FROZENSET"},
	{0x96, "BYTEARRAY8"}, {0x97, "NEXT_BUFFER"},
	{0x98, "READONLY_BUFFER"}, {0x8b, "LONG4"},
};

static int fail(struct frp *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Says why in r->why; returns -1 for the caller to pass up. */
static int fail(struct frp *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, r->whylen, fmt, ap);
	va_end(ap);
	return -1;
}

/* n bytes of the input, or NULL (and why) when the pickle ends first. */
static const unsigned char *take(struct frp *r, size_t n)
{
	const unsigned char *q;

	if (n > r->len - r->at) {
		fail(r, "pickle ends inside an opcode's argument at byte %zu",
		     r->at);
		return NULL;
	}
	q = r->p + r->at;
	r->at += n;
	return q;
}

static uint32_t le32(const unsigned char *q)
{
	return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
	       (uint32_t)q[3] << 24;
}

/* Pushes v (taking its reference) with its nesting depth. */
static int push(struct frp *r, json_t *v, int depth)
{
	if (v == NULL)
		return fail(r, "out of memory");
	if (++r->nodes > FRP_MAX_NODES || r->nst >= FRP_MAX_STACK) {
		json_decref(v);
		return fail(r, "pickle holds more than %u values",
			    FRP_MAX_NODES);
	}
	if (r->nst == r->capst) {
		size_t cap = r->capst ? r->capst * 2 : 64;
		struct slot *s = realloc(r->st, cap * sizeof(*s));

		if (s == NULL) {
			json_decref(v);
			return fail(r, "out of memory");
		}
		r->st = s;
		r->capst = cap;
	}
	r->st[r->nst++] = (struct slot){v, depth, false};
	return 0;
}

/* The index of the topmost MARK, or -1 (and why) when there is none. */
static long topmark(struct frp *r)
{
	for (size_t i = r->nst; i > 0; i--)
		if (r->st[i - 1].mark)
			return (long)(i - 1);
	return fail(r, "pickle closes a MARK it never opened at byte %zu",
		    r->at);
}

/* A depth that may grow by one more container, else why. */
static int deeper(struct frp *r, int *depth, int child)
{
	if (child + 1 > *depth)
		*depth = child + 1;
	if (*depth > FRP_MAX_DEPTH)
		return fail(r, "pickle nested deeper than %d", FRP_MAX_DEPTH);
	return 0;
}

/* A dict key made a string: torch's keys are strings, a few versions'
 * pg_status keys ints. */
static int keystr(struct frp *r, const json_t *k, char *buf, size_t cap)
{
	if (json_is_string(k)) {
		if (strlen(json_string_value(k)) != json_string_length(k))
			return fail(r, "dict key holds a NUL");
		snprintf(buf, cap, "%s", json_string_value(k));
		return 0;
	}
	if (json_is_integer(k)) {
		snprintf(buf, cap, "%lld", (long long)json_integer_value(k));
		return 0;
	}
	return fail(r, "dict key is neither a string nor an integer");
}

/* Moves stack[from..] into the container below them: APPEND(S) for a
 * list, SETITEM(S) for a dict (pairs). */
static int fill(struct frp *r, size_t from, bool dict)
{
	struct slot *c;
	char key[256];

	if (from == 0 || from > r->nst)
		return fail(r, "pickle adds items with no container");
	c = &r->st[from - 1];
	if (c->mark || !(dict ? json_is_object(c->v) : json_is_array(c->v)))
		return fail(r, "pickle adds %s to a value that is no %s",
			    dict ? "items" : "elements",
			    dict ? "dict" : "list");
	if (dict && (r->nst - from) % 2 != 0)
		return fail(r, "pickle sets a dict key with no value");
	for (size_t i = from; i < r->nst; i += dict ? 2 : 1) {
		int rc;

		if (deeper(r, &c->depth, r->st[i].depth) < 0)
			return -1;
		if (dict) {
			if (deeper(r, &c->depth, r->st[i + 1].depth) < 0 ||
			    keystr(r, r->st[i].v, key, sizeof(key)) < 0)
				return -1;
			rc = json_object_set(c->v, key, r->st[i + 1].v);
		} else {
			rc = json_array_append(c->v, r->st[i].v);
		}
		if (rc < 0)
			return fail(r, "out of memory");
	}
	for (size_t i = from; i < r->nst; i++)
		json_decref(r->st[i].v);
	r->nst = from;
	return 0;
}

/* A tuple of the n values on top (n < 0: down to the topmark). */
static int tuple(struct frp *r, long n)
{
	size_t from;
	json_t *a = json_array();
	int depth = 1;

	if (n < 0) {
		long m = topmark(r);

		if (m < 0) {
			json_decref(a);
			return -1;
		}
		from = (size_t)m + 1;
	} else if ((size_t)n > r->nst) {
		json_decref(a);
		return fail(r, "pickle makes a tuple of more than it holds");
	} else {
		from = r->nst - (size_t)n;
	}
	for (size_t i = from; a && i < r->nst; i++) {
		if (r->st[i].mark) {
			json_decref(a);
			return fail(r, "pickle puts a MARK inside a tuple");
		}
		if (deeper(r, &depth, r->st[i].depth) < 0) {
			json_decref(a);
			return -1;
		}
		if (json_array_append(a, r->st[i].v) < 0) {
			json_decref(a);
			return fail(r, "out of memory");
		}
	}
	for (size_t i = from; i < r->nst; i++)
		json_decref(r->st[i].v);
	r->nst = n < 0 ? from - 1 : from;
	return push(r, a, depth);
}

/* How deep and how many values a memo's tree holds: a BINGET copies it,
 * and the copy counts (a pickle that doubles a list by memo each time
 * stops at the limit). Bounded: every tree here is at most
 * FRP_MAX_DEPTH deep. */
static int measure(const json_t *v, size_t *nodes)
{
	int d = 0, c;
	const char *k;
	json_t *x;
	size_t i;

	(*nodes)++;
	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			if ((c = measure(x, nodes)) > d)
				d = c;
		return d + 1;
	}
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, x)
			if ((c = measure(x, nodes)) > d)
				d = c;
		return d + 1;
	}
	return 0;
}

/* BINPUT, LONG_BINPUT, MEMOIZE: the top value under index idx. */
static int memo_put(struct frp *r, size_t idx)
{
	if (r->nst == 0 || r->st[r->nst - 1].mark)
		return fail(r, "pickle memoizes nothing at byte %zu", r->at);
	if (idx >= FRP_MAX_MEMO)
		return fail(r, "pickle memo index %zu over %u", idx,
			    FRP_MAX_MEMO);
	if (idx >= r->nmemo) {
		size_t n = idx + 1 > r->nmemo * 2 ? idx + 1 : r->nmemo * 2;
		json_t **m = realloc(r->memo, n * sizeof(*m));

		if (m == NULL)
			return fail(r, "out of memory");
		memset(m + r->nmemo, 0, (n - r->nmemo) * sizeof(*m));
		r->memo = m;
		r->nmemo = n;
	}
	json_decref(r->memo[idx]);
	r->memo[idx] = json_incref(r->st[r->nst - 1].v);
	return 0;
}

/* BINGET, LONG_BINGET: a copy of the memo's value (a copy, so that no
 * container ever holds itself). */
static int memo_get(struct frp *r, size_t idx)
{
	size_t nodes = 0;
	int depth;

	if (idx >= r->nmemo || r->memo[idx] == NULL)
		return fail(r, "pickle gets memo %zu it never put", idx);
	depth = measure(r->memo[idx], &nodes);
	if (depth > FRP_MAX_DEPTH)
		return fail(r, "pickle nested deeper than %d", FRP_MAX_DEPTH);
	if (nodes > FRP_MAX_NODES - r->nodes)
		return fail(r, "pickle holds more than %u values",
			    FRP_MAX_NODES);
	r->nodes += nodes - 1;
	return push(r, json_deep_copy(r->memo[idx]), depth);
}

/* A string of n bytes, UTF-8 checked. */
static int str(struct frp *r, size_t n)
{
	const unsigned char *q = take(r, n);
	json_t *s;

	if (q == NULL)
		return -1;
	s = json_stringn((const char *)q, n);
	if (s == NULL)
		return fail(r, "pickle string at byte %zu is not UTF-8",
			    r->at - n);
	return push(r, s, 0);
}

/* LONG1: a little-endian two's complement integer of up to 8 bytes. */
static int long1(struct frp *r)
{
	const unsigned char *q = take(r, 1), *b;
	uint64_t u = 0;
	size_t n;

	if (q == NULL)
		return -1;
	n = q[0];
	if (n > 8)
		return fail(r, "pickle integer of %zu bytes (at most 8)", n);
	if ((b = take(r, n)) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		u |= (uint64_t)b[i] << (8 * i);
	if (n > 0 && n < 8 && (b[n - 1] & 0x80))
		u |= ~(uint64_t)0 << (8 * n);
	return push(r, json_integer((json_int_t)(int64_t)u), 0);
}

/* BINFLOAT: a big-endian IEEE 754 double. */
static int binfloat(struct frp *r)
{
	const unsigned char *q = take(r, 8);
	uint64_t u = 0;
	double d;

	if (q == NULL)
		return -1;
	for (int i = 0; i < 8; i++)
		u = u << 8 | q[i];
	memcpy(&d, &u, sizeof(d));
	if (d != d || d > 1e308 || d < -1e308)
		d = 0; /* jansson holds no NaN or infinity */
	return push(r, json_real(d), 0);
}

static int refuse(struct frp *r, unsigned char op)
{
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (refused[i].op == op)
			return fail(r, "pickle opcode %s (0x%02x) not allowed "
				    "at byte %zu", refused[i].name, op,
				    r->at - 1);
	return fail(r, "pickle opcode 0x%02x unknown at byte %zu", op,
		    r->at - 1);
}

/* One opcode; 1 at STOP, 0 to go on, -1 with why. */
static int step(struct frp *r)
{
	const unsigned char *q = take(r, 1);
	long m;

	if (q == NULL)
		return fail(r, "pickle ends with no STOP");
	switch (q[0]) {
	case 0x80: /* PROTO */
		return (q = take(r, 1)) == NULL ? -1 : q[0] > 5 ?
		       fail(r, "pickle protocol %d unknown", q[0]) : 0;
	case 0x95: /* FRAME: a length hint, nothing to do */
		return take(r, 8) == NULL ? -1 : 0;
	case '.': /* STOP */
		return 1;
	case '(': /* MARK */
		if (r->nst >= FRP_MAX_STACK || push(r, json_null(), 0) < 0)
			return fail(r, "pickle holds too many MARKs");
		r->st[r->nst - 1].mark = true;
		return 0;
	case '}': return push(r, json_object(), 1); /* EMPTY_DICT */
	case ']': return push(r, json_array(), 1);  /* EMPTY_LIST */
	case ')': return push(r, json_array(), 1);  /* EMPTY_TUPLE */
	case 0x85: return tuple(r, 1);              /* TUPLE1 */
	case 0x86: return tuple(r, 2);              /* TUPLE2 */
	case 0x87: return tuple(r, 3);              /* TUPLE3 */
	case 't': return tuple(r, -1);              /* TUPLE */
	case 'a': return fill(r, r->nst - 1, false); /* APPEND */
	case 's': return r->nst < 2 ? fail(r, "SETITEM with no pair") :
		  fill(r, r->nst - 2, true);        /* SETITEM */
	case 'e': /* APPENDS */
	case 'u': /* SETITEMS */
		if ((m = topmark(r)) < 0)
			return -1;
		json_decref(r->st[m].v);
		memmove(&r->st[m], &r->st[m + 1],
			(r->nst - (size_t)m - 1) * sizeof(r->st[0]));
		r->nst--;
		return fill(r, (size_t)m, q[0] == 'u');
	case 'N': return push(r, json_null(), 0);   /* NONE */
	case 0x88: return push(r, json_true(), 0);  /* NEWTRUE */
	case 0x89: return push(r, json_false(), 0); /* NEWFALSE */
	case 'J': /* BININT */
		return (q = take(r, 4)) == NULL ? -1 :
		       push(r, json_integer((int32_t)le32(q)), 0);
	case 'K': /* BININT1 */
		return (q = take(r, 1)) == NULL ? -1 :
		       push(r, json_integer(q[0]), 0);
	case 'M': /* BININT2 */
		return (q = take(r, 2)) == NULL ? -1 :
		       push(r, json_integer(q[0] | q[1] << 8), 0);
	case 0x8a: return long1(r);                 /* LONG1 */
	case 'G': return binfloat(r);               /* BINFLOAT */
	case 'X': /* BINUNICODE */
		return (q = take(r, 4)) == NULL ? -1 : str(r, le32(q));
	case 0x8c: /* SHORT_BINUNICODE */
		return (q = take(r, 1)) == NULL ? -1 : str(r, q[0]);
	case 'q': /* BINPUT */
		return (q = take(r, 1)) == NULL ? -1 : memo_put(r, q[0]);
	case 'r': /* LONG_BINPUT */
		return (q = take(r, 4)) == NULL ? -1 : memo_put(r, le32(q));
	case 0x94: /* MEMOIZE */
		return memo_put(r, r->nmemo_used++);
	case 'h': /* BINGET */
		return (q = take(r, 1)) == NULL ? -1 : memo_get(r, q[0]);
	case 'j': /* LONG_BINGET */
		return (q = take(r, 4)) == NULL ? -1 : memo_get(r, le32(q));
	default:
		return refuse(r, q[0]);
	}
}

json_t *frp_load(const unsigned char *buf, size_t len, char *why,
		 size_t whylen)
{
	struct frp r = {.p = buf, .len = len, .why = why, .whylen = whylen};
	json_t *out = NULL;
	int rc = 0;

	if (whylen > 0)
		why[0] = '\0';
	if (len > FRP_MAX_BYTES) {
		fail(&r, "pickle of %zu bytes (at most %u)", len,
		     FRP_MAX_BYTES);
		return NULL;
	}
	while (rc == 0)
		rc = step(&r);
	if (rc == 1 && (r.nst != 1 || r.st[0].mark))
		fail(&r, "pickle stops with %zu values, not one", r.nst);
	else if (rc == 1)
		out = json_incref(r.st[0].v);
	for (size_t i = 0; i < r.nst; i++)
		json_decref(r.st[i].v);
	for (size_t i = 0; i < r.nmemo; i++)
		json_decref(r.memo[i]);
	free(r.st);
	free(r.memo);
	if (out == NULL && why[0] == '\0')
		fail(&r, "out of memory");
	return out;
}
