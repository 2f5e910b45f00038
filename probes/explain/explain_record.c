/* netprobe explain: what a measurement records for the run: notes, causes
 * proved here with their evidence and fix, and the codes it could rule
 * on. The measurements (explain_measure.c, explain_rdma.c) call it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/explain_int.h"

/* A copy of s kept with the run (freed with it), or NULL when the pool is
 * full or memory is out: callers then record nothing. */
const char *explain_keep(struct explain_run *r, const char *s)
{
	char *d;

	if (r->npool >= (int)(sizeof(r->pool) / sizeof(r->pool[0])) ||
	    (d = strdup(s)) == NULL)
		return NULL;
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
	vsnprintf(r->notes[r->nnotes++], sizeof(r->notes[0]), fmt, ap);
	va_end(ap);
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
