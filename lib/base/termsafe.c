/* Escaping control characters on their way to a terminal, and replacing
 * bytes that are not UTF-8 on their way into JSON (termsafe.h). */
#include "base/termsafe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define SEQ_MAX 16 /* the longest colour sequence passed whole */

struct ts {
	bool allow_sgr;
	/* an ESC sequence not yet whole (seq[0] is ESC), or the first bytes
	 * of a UTF-8 character (need says how many it has in all) */
	char seq[SEQ_MAX];
	size_t nseq, need;
	/* where the escaped bytes go */
	void (*put)(void *ctx, const char *p, size_t n);
	void *ctx;
};

/* How many bytes a UTF-8 character that starts with c has, or 0 when c
 * starts none (a continuation byte, 0xc0, 0xc1 and 0xf5-0xff, which only
 * overlong or out-of-range forms would use). */
static size_t lead_len(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

/* Whether c may follow the bytes held so far: the second byte's range
 * depends on the lead (no overlong form, no surrogate, nothing past
 * U+10FFFF), the later ones are any continuation. */
static bool cont_ok(unsigned char lead, size_t pos, unsigned char c)
{
	unsigned char lo = 0x80, hi = 0xbf;

	if (pos == 1) {
		if (lead == 0xe0)
			lo = 0xa0;
		else if (lead == 0xed)
			hi = 0x9f;
		else if (lead == 0xf0)
			lo = 0x90;
		else if (lead == 0xf4)
			hi = 0x8f;
	}
	return c >= lo && c <= hi;
}

/* One byte written as "\xHH". */
static void esc(struct ts *t, unsigned char c)
{
	char b[8];

	snprintf(b, sizeof(b), "\\x%02x", c);
	t->put(t->ctx, b, 4);
}

/* One ASCII byte outside a sequence. */
static void plain(struct ts *t, unsigned char c)
{
	if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
		esc(t, c);
	else
		t->put(t->ctx, (const char *)&c, 1);
}

/* Held bytes that turned out to be no colour and no whole character:
 * each escaped (ESC, or bytes that are not UTF-8), the rest of an ESC
 * sequence taken as plain bytes. */
static void spill(struct ts *t)
{
	size_t n = t->nseq;

	t->nseq = 0;
	t->need = 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)t->seq[i] >= 0x80)
			esc(t, (unsigned char)t->seq[i]);
		else
			plain(t, (unsigned char)t->seq[i]);
}

/* A whole UTF-8 character: passed, unless it is a C1 control
 * (U+0080-U+009F, 0xc2 0x80-0x9f), which a terminal may take as CSI, OSC
 * or DCS as it takes ESC [, ESC ] or ESC P. */
static void whole_char(struct ts *t)
{
	if ((unsigned char)t->seq[0] == 0xc2 &&
	    (unsigned char)t->seq[1] <= 0x9f)
		spill(t);
	else
		t->put(t->ctx, t->seq, t->nseq);
	t->nseq = 0;
	t->need = 0;
}

/* The next byte of a colour sequence: kept, passed whole, or the held
 * bytes spilled. Returns false when c belongs to no sequence and is
 * still to be taken on its own. */
static bool esc_byte(struct ts *t, unsigned char c)
{
	if (t->nseq == 1 && c == '[') {
		t->seq[t->nseq++] = (char)c;
		return true;
	}
	if (t->nseq > 1 && ((c >= '0' && c <= '9') || c == ';') &&
	    t->nseq + 1 < SEQ_MAX) {
		t->seq[t->nseq++] = (char)c;
		return true;
	}
	if (t->nseq > 1 && c == 'm') {
		t->seq[t->nseq++] = (char)c;
		t->put(t->ctx, t->seq, t->nseq);
		t->nseq = 0;
		return true;
	}
	spill(t);
	return false;
}

/* One byte with nothing held. */
static void start(struct ts *t, unsigned char c)
{
	size_t len = lead_len(c);

	if (c == 0x1b && t->allow_sgr) {
		t->seq[t->nseq++] = (char)c;
	} else if (len == 1) {
		plain(t, c);
	} else if (len == 0) {
		esc(t, c);
	} else {
		t->seq[t->nseq++] = (char)c;
		t->need = len;
	}
}

static void feed(struct ts *t, const char *in, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)in[i];

		if (t->nseq > 0 && t->need == 0 && esc_byte(t, c))
			continue;
		if (t->nseq > 0 && t->need > 0) {
			if (!cont_ok((unsigned char)t->seq[0], t->nseq, c)) {
				spill(t);
			} else {
				t->seq[t->nseq++] = (char)c;
				if (t->nseq == t->need)
					whole_char(t);
				continue;
			}
		}
		start(t, c);
	}
}

struct buf {
	char *out;
	size_t cap, len;
};

static void put_buf(void *ctx, const char *p, size_t n)
{
	struct buf *b = ctx;

	for (size_t i = 0; i < n; i++, b->len++)
		if (b->len + 1 < b->cap)
			b->out[b->len] = p[i];
}

size_t termsafe_escape(const char *in, size_t n, bool allow_sgr, char *out,
		       size_t cap)
{
	struct buf b = {out, cap, 0};
	struct ts t = {.allow_sgr = allow_sgr, .put = put_buf, .ctx = &b};

	feed(&t, in, n);
	spill(&t);
	if (cap > 0)
		out[b.len < cap ? b.len : cap - 1] = '\0';
	return b.len;
}

static void put_file(void *ctx, const char *p, size_t n)
{
	fwrite(p, 1, n, (FILE *)ctx);
}

static ssize_t ts_write(void *cookie, const char *p, size_t n)
{
	struct ts *t = cookie;
	FILE *under = t->ctx;

	feed(t, p, n);
	return ferror(under) ? -1 : (ssize_t)n;
}

static int ts_close(void *cookie)
{
	struct ts *t = cookie;
	FILE *under = t->ctx;
	int rc;

	spill(t);
	rc = fflush(under) == EOF || ferror(under) ? -1 : 0;
	free(t);
	return rc;
}

FILE *termsafe_open(FILE *under, bool allow_sgr)
{
	cookie_io_functions_t io = {.write = ts_write, .close = ts_close};
	struct ts *t = calloc(1, sizeof(*t));
	FILE *fp;

	if (t == NULL)
		return NULL;
	t->allow_sgr = allow_sgr;
	t->put = put_file;
	t->ctx = under;
	fp = fopencookie(t, "w", io);
	if (fp == NULL) {
		free(t);
		return NULL;
	}
	return fp;
}

/* See termsafe.h. */
size_t termsafe_char_len(const unsigned char *p, size_t n)
{
	size_t len = lead_len(p[0]);

	if (len == 0 || len > n || p[0] == '\0')
		return 0;
	for (size_t k = 1; k < len; k++)
		if (!cont_ok(p[0], k, p[k]))
			return 0;
	return len;
}

size_t termsafe_utf8(const char *in, size_t n, char *out, size_t cap)
{
	static const char repl[] = "\xef\xbf\xbd"; /* U+FFFD */
	const unsigned char *p = (const unsigned char *)in;
	size_t len = 0, o = 0;
	bool full = cap == 0;

	for (size_t i = 0; i < n;) {
		size_t k = termsafe_char_len(p + i, n - i);
		const char *src = k ? in + i : repl;
		size_t sl = k ? k : 3;

		if (!full && o + sl < cap) {
			memcpy(out + o, src, sl);
			o += sl;
		} else {
			full = true;
		}
		len += sl;
		i += k ? k : 1;
	}
	if (cap > 0)
		out[o] = '\0';
	return len;
}
