/* netprobe explain: what a measurement records for the run: notes, causes
 * proved here with their evidence and fix, and the codes it could rule
 * on. The measurements (explain_measure.c, explain_rdma.c) call it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/termsafe.h"
#include "explain/explain_int.h"

/* Text from a log, a RAS answer or this node goes into the document, and
 * jansson refuses a string that is not UTF-8 (the whole document was
 * lost for one byte): such bytes become U+FFFD, in place, cut between
 * characters to fit cap (every buffer of the run is under 4 KiB). */
void explain_utf8(char *s, size_t cap)
{
	char tmp[EXPLAIN_LINE_MAX];
	size_t n = strlen(s);

	if (cap > sizeof(tmp))
		cap = sizeof(tmp);
	if (termsafe_utf8(s, n, tmp, cap) == n && strlen(tmp) == n)
		return; /* already UTF-8 and whole */
	memcpy(s, tmp, strlen(tmp) + 1);
}

/* A copy of s kept with the run (freed with it), its bytes that are not
 * UTF-8 replaced, or NULL when the pool is full or memory is out: callers
 * then record nothing. */
const char *explain_keep(struct explain_run *r, const char *s)
{
	size_t n = strlen(s), cap = n * 3 + 1;
	char *d;

	if (r->npool >= (int)(sizeof(r->pool) / sizeof(r->pool[0])) ||
	    (d = malloc(cap)) == NULL)
		return NULL;
	termsafe_utf8(s, n, d, cap);
	r->pool[r->npool++] = d;
	return d;
}

/* One line of what was measured here; dropped past the notes' room. */
void explain_note(struct explain_run *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nnotes >= (int)(sizeof(r->notes) / sizeof(r->notes[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(r->notes[r->nnotes], sizeof(r->notes[0]), fmt, ap);
	va_end(ap);
	explain_utf8(r->notes[r->nnotes++], sizeof(r->notes[0]));
}

/* A cause proved here, once per code, with its evidence and the fix the
 * measurement wrote (NULL: the catalogue's). */
void explain_found_fix(struct explain_run *r, const char *code,
		       const char *ev, const char *fix)
{
	struct explain_measured *m = &r->ms;

	for (size_t i = 0; i < m->nfound; i++)
		if (strcmp(m->found[i], code) == 0)
			return;
	if (m->nfound < sizeof(m->found) / sizeof(m->found[0])) {
		m->note[m->nfound] = ev ? explain_keep(r, ev) : NULL;
		m->fix[m->nfound] = fix ? explain_keep(r, fix) : NULL;
		m->found[m->nfound++] = explain_keep(r, code);
		if (m->found[m->nfound - 1] == NULL)
			m->nfound--;
	}
}

/* A cause proved here with the catalogue's fix. */
void explain_found(struct explain_run *r, const char *code, const char *ev)
{
	explain_found_fix(r, code, ev, NULL);
}

/* A code this node could rule on: not found means not seen here. */
void explain_checked(struct explain_run *r, const char *code)
{
	struct explain_measured *m = &r->ms;

	if (m->nchecked < sizeof(m->checked) / sizeof(m->checked[0]))
		m->checked[m->nchecked++] = code;
}
