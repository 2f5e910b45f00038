/* See json_indent.h. One pass over the text: strings are copied with
 * their escapes as they are, non-ASCII characters escaped as \uXXXX (a
 * surrogate pair past the BMP), numbers and literals copied, and a
 * newline and the indentation put where jansson's JSON_INDENT(2) puts
 * them. */
#include "doc/json_indent.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INDENT_MAX_DEPTH 512

/* The output, grown by doubling. */
struct ibuf {
	char *p;
	size_t n, cap;
	int bad; /* no memory */
};

/* Makes room for k more bytes. Returns 0, or -1 (ib->bad set). */
static int room(struct ibuf *ib, size_t k)
{
	size_t cap = ib->cap ? ib->cap : 4096;
	char *q;

	if (ib->bad)
		return -1;
	if (ib->n + k + 1 <= ib->cap)
		return 0;
	while (cap < ib->n + k + 1)
		cap *= 2;
	q = realloc(ib->p, cap);
	if (q == NULL) {
		ib->bad = 1;
		return -1;
	}
	ib->p = q;
	ib->cap = cap;
	return 0;
}

/* Appends k bytes. */
static void put(struct ibuf *ib, const char *s, size_t k)
{
	if (room(ib, k) == 0) {
		memcpy(ib->p + ib->n, s, k);
		ib->n += k;
	}
}

/* A newline and two spaces for each of depth levels. */
static void newline(struct ibuf *ib, int depth)
{
	size_t k = 1 + 2 * (size_t)depth;

	if (room(ib, k) == 0) {
		ib->p[ib->n] = '\n';
		memset(ib->p + ib->n + 1, ' ', k - 1);
		ib->n += k;
	}
}

/* One \uXXXX escape. */
static void put_u(struct ibuf *ib, unsigned v)
{
	char e[8];

	snprintf(e, sizeof(e), "\\u%04X", v & 0xffffu);
	put(ib, e, 6);
}

/* Decodes the UTF-8 character at s (at most left bytes) into *cp.
 * Returns its length, or 0 when it is not UTF-8. */
static size_t utf8_char(const unsigned char *s, size_t left, unsigned *cp)
{
	size_t k = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	unsigned v;

	if (k == 0 || s[0] >= 0xf8 || k > left)
		return 0;
	v = s[0] & (0xff >> (k + 1));
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	*cp = v;
	return k;
}

/* Copies the string starting at in[*i] (its opening quote) through its
 * closing quote. Returns 0, or -1 when it does not end or is not UTF-8. */
static int copy_string(struct ibuf *ib, const char *in, size_t len,
                       size_t *i)
{
	size_t j = *i + 1, from = *i;

	while (j < len) {
		unsigned char c = (unsigned char)in[j];
		unsigned cp;
		size_t k;

		if (c == '"') {
			put(ib, in + from, j + 1 - from);
			*i = j + 1;
			return 0;
		}
		if (c == '\\') {
			j += 2; /* the escape as it came */
			continue;
		}
		if (c < 0x80) {
			j++;
			continue;
		}
		put(ib, in + from, j - from);
		k = utf8_char((const unsigned char *)in + j, len - j, &cp);
		if (k == 0)
			return -1;
		if (cp >= 0x10000) {
			cp -= 0x10000;
			put_u(ib, 0xd800 | ((cp >> 10) & 0x3ff));
			put_u(ib, 0xdc00 | (cp & 0x3ff));
		} else {
			put_u(ib, cp);
		}
		j += k;
		from = j;
	}
	return -1;
}

/* True for a byte a number or a literal (true, false, null) is made of. */
static int atom_byte(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' ||
	       c == '+' || c == '.' || c == 'E';
}

/* The next byte at or after i that is not white space; len at the end. */
static size_t skip_ws(const char *in, size_t len, size_t i)
{
	while (i < len && (in[i] == ' ' || in[i] == '\n' || in[i] == '\r' ||
	                   in[i] == '\t'))
		i++;
	return i;
}

/* See json_indent.h. */
char *json_indent(const char *in, size_t len, size_t *outlen)
{
	return json_indent_to(in, len, INDENT_MAX_DEPTH, outlen);
}

/* See json_indent.h. Past flat_depth a level is written as it came from
 * a compact dump: no newline, no indentation, no space after a colon. */
char *json_indent_to(const char *in, size_t len, int flat_depth,
                     size_t *outlen)
{
	struct ibuf ib = {NULL, 0, 0, 0};
	char open[INDENT_MAX_DEPTH];
	int depth = 0;
	size_t i = skip_ws(in, len, 0);

	if (i >= len || (in[i] != '{' && in[i] != '['))
		return NULL;
	room(&ib, len + len / 4);
	while (i < len && !ib.bad) {
		char c = in[i];

		if (c == '{' || c == '[') {
			size_t nx = skip_ws(in, len, i + 1);

			if (nx < len && in[nx] == (c == '{' ? '}' : ']')) {
				put(&ib, c == '{' ? "{}" : "[]", 2);
				i = nx + 1;
			} else {
				if (depth == INDENT_MAX_DEPTH)
					goto bad;
				open[depth++] = c;
				put(&ib, &c, 1);
				if (depth <= flat_depth)
					newline(&ib, depth);
				i++;
			}
		} else if (c == '}' || c == ']') {
			if (depth == 0 || open[depth - 1] != (c == '}' ? '{' : '['))
				goto bad;
			if (depth-- <= flat_depth)
				newline(&ib, depth);
			put(&ib, &c, 1);
			i++;
		} else if (c == ',') {
			if (depth == 0)
				goto bad;
			put(&ib, ",", 1);
			if (depth <= flat_depth)
				newline(&ib, depth);
			i++;
		} else if (c == ':') {
			put(&ib, ": ", depth <= flat_depth ? 2 : 1);
			i++;
		} else if (c == '"') {
			if (copy_string(&ib, in, len, &i) < 0)
				goto bad;
		} else if (atom_byte(c)) {
			size_t j = i;

			while (j < len && atom_byte(in[j]))
				j++;
			put(&ib, in + i, j - i);
			i = j;
		} else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
			i++;
		} else {
			goto bad;
		}
		if (depth == 0)
			break; /* the top-level value is whole */
		i = skip_ws(in, len, i);
	}
	if (depth != 0 || skip_ws(in, len, i) != len || ib.bad)
		goto bad;
	put(&ib, "\n", 1);
	if (ib.bad)
		goto bad;
	ib.p[ib.n] = '\0';
	*outlen = ib.n;
	return ib.p;
bad:
	free(ib.p);
	return NULL;
}
