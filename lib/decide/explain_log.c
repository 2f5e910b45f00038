/* What netprobe explain keeps of a log (decide/explain.h): every match up
 * to EXPLAIN_MAX_HITS, then only a match whose signature (its row and
 * captures) is new, each repeat counted on the first match with its last
 * line instead, so that thousands of one failure cannot push a later,
 * different one out of the answer. */
#include "decide/explain.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS (2 * EXPLAIN_MAX_DISTINCT) /* the signatures' hash table */

/* A settings echo (NCCL_SOCKET_IFNAME set by environment to ...): the
 * last value the log holds is the one that counts. */
static bool is_setting(const struct logsig *s)
{
	return s->fields && strstr(s->fields, "setting_");
}

/* The row's index in the table, or EXPLAIN_SIG_SLOTS for a row that is
 * not the table's (a test's own). */
static size_t row_of(const struct logsig *s)
{
	size_t n;
	const struct logsig *base = logsig_table(&n);

	if (s < base || (size_t)(s - base) >= n ||
	    (size_t)(s - base) >= EXPLAIN_SIG_SLOTS)
		return EXPLAIN_SIG_SLOTS;
	return (size_t)(s - base);
}

/* A fact the log repeats on every rank (an interface line, a version)
 * is kept this many times; the rest are counted, so that a long log of
 * chatter cannot push its one failure line past EXPLAIN_MAX_HITS. */
static bool fact_full(struct explain_log *lg, const struct logsig *s)
{
	size_t i = row_of(s);

	/* settings echoes are all kept: the last one counts */
	if (!(s->flags & LOGSIG_FACT) || i >= EXPLAIN_SIG_SLOTS ||
	    is_setting(s))
		return false;
	return lg->kept[i]++ >= EXPLAIN_FACT_KEEP;
}

/* FNV-1a over the row and the captures, names and values. */
static uint32_t sig_hash(const struct logmatch *m)
{
	uint32_t h = 2166136261u;
	uintptr_t row = (uintptr_t)m->sig;

	for (size_t k = 0; k < sizeof(row); k++)
		h = (h ^ (uint8_t)(row >> (8 * k))) * 16777619u;
	for (size_t f = 0; f < m->nfields && f < LOGMATCH_MAX_FIELDS; f++) {
		const struct logfield *lf = &m->fields[f];

		for (size_t k = 0; k < sizeof(lf->name) && lf->name[k]; k++)
			h = (h ^ (uint8_t)lf->name[k]) * 16777619u;
		h = (h ^ 0xffu) * 16777619u;
		for (size_t k = 0; k < sizeof(lf->value) && lf->value[k]; k++)
			h = (h ^ (uint8_t)lf->value[k]) * 16777619u;
		h = (h ^ 0xfeu) * 16777619u;
	}
	return h;
}

/* Whether two matches have one signature: the same row, the same
 * captures. */
static bool same_sig(const struct logmatch *a, const struct logmatch *b)
{
	if (a->sig != b->sig || a->nfields != b->nfields)
		return false;
	for (size_t f = 0; f < a->nfields && f < LOGMATCH_MAX_FIELDS; f++)
		if (strcmp(a->fields[f].name, b->fields[f].name) != 0 ||
		    strcmp(a->fields[f].value, b->fields[f].value) != 0)
			return false;
	return true;
}

/* The kept match that first had m's signature, or -1; *slot is where m's
 * signature is, or goes. The table holds at most EXPLAIN_MAX_DISTINCT of
 * its SLOTS, so the probe ends. */
static long find(const struct explain_log *lg, const struct logmatch *m,
		 size_t *slot)
{
	size_t s = sig_hash(m) % SLOTS;

	for (size_t n = 0; n < SLOTS; n++, s = (s + 1) % SLOTS) {
		uint32_t v = lg->slots[s];

		*slot = s;
		if (v == 0)
			return -1;
		if (same_sig(&lg->hits[v - 1].m, m))
			return (long)v - 1;
	}
	return -1;
}

/* Room for one more match: the table at the first, then the hits grown
 * by doubling, EXPLAIN_MAX_DISTINCT at most. Returns 0, or -1 with errno
 * ENOMEM. */
static int room(struct explain_log *lg)
{
	size_t cap = lg->cap ? lg->cap * 2 : EXPLAIN_MAX_HITS;
	struct explain_hit *h;

	if (lg->slots == NULL &&
	    (lg->slots = calloc(SLOTS, sizeof(*lg->slots))) == NULL)
		goto nomem;
	if (lg->nhits < lg->cap)
		return 0;
	if (cap > EXPLAIN_MAX_DISTINCT)
		cap = EXPLAIN_MAX_DISTINCT;
	h = realloc(lg->hits, cap * sizeof(*h));
	if (h == NULL)
		goto nomem;
	memset(h + lg->cap, 0, (cap - lg->cap) * sizeof(*h));
	lg->hits = h;
	lg->cap = cap;
	return 0;
nomem:
	errno = ENOMEM;
	return -1;
}

/* Keeps m as a match of its own; a repeat of a signature kept before it
 * is counted on that signature's first match too. */
static int keep(struct explain_log *lg, const struct logmatch *m, int file,
		long line, const char *text)
{
	size_t slot = 0, row = row_of(m->sig);
	struct explain_hit *h;
	long first;

	if (room(lg) < 0)
		return -1;
	first = find(lg, m, &slot);
	h = &lg->hits[lg->nhits++];
	h->m = *m;
	h->file = file;
	h->line = line;
	snprintf(h->text, sizeof(h->text), "%s", text ? text : "");
	h->near_addr[0] = h->near_port[0] = '\0';
	h->near_line = 0;
	if (first < 0) {
		lg->slots[slot] = (uint32_t)lg->nhits;
		first = (long)lg->nhits - 1;
	}
	lg->hits[first].seen++;
	lg->hits[first].last_file = file;
	lg->hits[first].last_line = line;
	if (row < EXPLAIN_SIG_SLOTS)
		lg->row_last[row] = lg->nhits;
	return 0;
}

/* Past EXPLAIN_MAX_HITS, whether m repeats a kept signature; a settings
 * echo repeats only the row's last kept value (a change of the setting
 * is kept: its last value counts). Returns the first match, or -1. */
static long repeat_of(const struct explain_log *lg, const struct logmatch *m)
{
	size_t slot, row = row_of(m->sig);
	long first = find(lg, m, &slot);

	if (first < 0 || !is_setting(m->sig) || row >= EXPLAIN_SIG_SLOTS)
		return first;
	if (lg->row_last[row] == 0 ||
	    !same_sig(&lg->hits[lg->row_last[row] - 1].m, m))
		return -1;
	return first;
}

int explain_log_add_text(struct explain_log *lg, const struct logmatch *m,
			 int file, long line, const char *text)
{
	long first;

	/* the errno words any program prints, on a line a framework row
	 * (or another generic row) read already, add nothing; a Python
	 * exception's type (ValueError: ...) is only the wrapper of what
	 * its message says, so its row leaves the line to them */
	if (m->sig->flags & LOGSIG_GENERIC && line > 0 &&
	    lg->claimed_file == file && lg->claimed_line == line)
		return 0;
	/* nor does urllib3's pool name: it says the program used HTTP,
	 * the errno words on its line say how the connect failed */
	if ((strncmp(m->sig->id, "py-", 3) != 0 || m->sig->other == NULL) &&
	    strcmp(m->sig->id, "http-client-pool") != 0) {
		lg->claimed_file = file;
		lg->claimed_line = line;
	}
	lg->matched++;
	if (lg->nhits < EXPLAIN_MAX_HITS) {
		if (fact_full(lg, m->sig)) {
			lg->dropped++;
			return 0;
		}
		return keep(lg, m, file, line, text);
	}
	if ((first = repeat_of(lg, m)) >= 0) {
		struct explain_hit *h = &lg->hits[first];

		h->seen++;
		h->unkept++;
		h->last_file = file;
		h->last_line = line;
		lg->dropped++;
		return 0;
	}
	if (fact_full(lg, m->sig)) {
		lg->dropped++;
		return 0;
	}
	if (lg->nhits >= EXPLAIN_MAX_DISTINCT) {
		lg->dropped++;
		lg->distinct_dropped++;
		return 0;
	}
	return keep(lg, m, file, line, text);
}

int explain_log_add(struct explain_log *lg, const struct logmatch *m,
		    int file, long line)
{
	return explain_log_add_text(lg, m, file, line, NULL);
}

void explain_log_free(struct explain_log *lg)
{
	free(lg->hits);
	free(lg->slots);
	lg->hits = NULL;
	lg->slots = NULL;
	lg->nhits = 0;
	lg->cap = 0;
}
