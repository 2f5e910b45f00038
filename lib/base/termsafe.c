/* Escaping control characters on their way to a terminal (termsafe.h). */
#include "base/termsafe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define SEQ_MAX 16 /* the longest colour sequence passed whole */

struct ts {
	bool allow_sgr;
	char seq[SEQ_MAX]; /* an ESC sequence not yet whole */
	size_t nseq;
	/* where the escaped bytes go */
	void (*put)(void *ctx, const char *p, size_t n);
	void *ctx;
};

/* One byte outside a sequence. */
static void plain(struct ts *t, unsigned char c)
{
	char b[8];

	if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
		snprintf(b, sizeof(b), "\\x%02x", c);
		t->put(t->ctx, b, 4);
	} else {
		t->put(t->ctx, (const char *)&c, 1);
	}
}

/* A held sequence that turned out not to be a colour: ESC escaped, the
 * rest taken as plain bytes. */
static void spill(struct ts *t)
{
	size_t n = t->nseq;

	t->nseq = 0;
	for (size_t i = 0; i < n; i++)
		plain(t, (unsigned char)t->seq[i]);
}

static void feed(struct ts *t, const char *in, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)in[i];

		if (t->nseq == 0) {
			if (c == 0x1b && t->allow_sgr)
				t->seq[t->nseq++] = (char)c;
			else
				plain(t, c);
			continue;
		}
		t->seq[t->nseq++] = (char)c;
		if (t->nseq == 2 && c == '[')
			continue;
		if (t->nseq > 2 && ((c >= '0' && c <= '9') || c == ';') &&
		    t->nseq < SEQ_MAX)
			continue;
		if (t->nseq > 2 && c == 'm') {
			t->put(t->ctx, t->seq, t->nseq);
			t->nseq = 0;
			continue;
		}
		spill(t);
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
