/* The signature matcher: a line's bigram set first (a row whose needle
 * has a bigram the line lacks is skipped at once), then the literal
 * needle (strstr), the regex only where the needle is, so 100,000 lines
 * take well under a second with a table of a couple hundred rows. */
#include "doc/logmatch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A bigram's bit in the line filter. */
static unsigned short gram(unsigned char a, unsigned char b)
{
	return (unsigned short)(((unsigned)a * 31u + b) %
				LOGMATCH_GRAM_BITS);
}

/* The first, middle and last bigram of a needle (fewer for a short
 * one; a one-byte needle has none and is always tried). */
static void needle_grams(const char *nd, unsigned short *g)
{
	size_t n = strlen(nd);

	for (int k = 0; k < LOGMATCH_GRAMS; k++)
		g[k] = 0xffff;
	if (n < 2)
		return;
	g[0] = gram((unsigned char)nd[0], (unsigned char)nd[1]);
	g[1] = gram((unsigned char)nd[n / 2 - 1], (unsigned char)nd[n / 2]);
	g[2] = gram((unsigned char)nd[n - 2], (unsigned char)nd[n - 1]);
}

void logmatch_prepare(struct logmatch_linebits *lb, const char *line)
{
	memset(lb->bits, 0, sizeof(lb->bits));
	lb->line = line;
	for (const unsigned char *p = (const unsigned char *)line;
	     p[0] != '\0' && p[1] != '\0'; p++) {
		unsigned short g = gram(p[0], p[1]);

		lb->bits[g / 8] |= (unsigned char)(1u << (g % 8));
	}
}

int logmatch_init(struct logmatcher *m, const char **bad)
{
	memset(m, 0, sizeof(*m));
	m->sigs = logsig_table(&m->n);
	m->re = calloc(m->n, sizeof(*m->re));
	m->re_nosub = calloc(m->n, sizeof(*m->re_nosub));
	m->grams = calloc(m->n, sizeof(*m->grams));
	if (m->re == NULL || m->re_nosub == NULL || m->grams == NULL) {
		free(m->re);
		free(m->re_nosub);
		free(m->grams);
		memset(m, 0, sizeof(*m));
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < m->n; i++)
		needle_grams(m->sigs[i].needle, m->grams[i]);
	for (size_t i = 0; i < m->n; i++) {
		if (regcomp(&m->re[i], m->sigs[i].regex, REG_EXTENDED) != 0) {
			m->n = i;
			logmatch_free(m);
			*bad = m->sigs[i].id;
			errno = EINVAL;
			return -1;
		}
		if (regcomp(&m->re_nosub[i], m->sigs[i].regex,
			    REG_EXTENDED | REG_NOSUB) != 0) {
			regfree(&m->re[i]);
			m->n = i;
			logmatch_free(m);
			*bad = m->sigs[i].id;
			errno = EINVAL;
			return -1;
		}
	}
	return 0;
}

void logmatch_free(struct logmatcher *m)
{
	for (size_t i = 0; m->re != NULL && m->re_nosub != NULL && i < m->n;
	     i++) {
		regfree(&m->re[i]);
		regfree(&m->re_nosub[i]);
	}
	free(m->re);
	free(m->re_nosub);
	free(m->grams);
	m->re = NULL;
	m->re_nosub = NULL;
	m->grams = NULL;
}

/* Splits the row's comma list of group names onto the captures; empty
 * names are groups kept for grouping only. */
static void fill_fields(const struct logsig *s, const char *line,
                        const regmatch_t *pm, size_t npm, struct logmatch *out)
{
	const char *p = s->fields ? s->fields : "";
	size_t g = 1;

	out->nfields = 0;
	while (*p != '\0' && g < npm && out->nfields < LOGMATCH_MAX_FIELDS) {
		size_t nl = strcspn(p, ",");

		if (nl > 0 && pm[g].rm_so >= 0) {
			struct logfield *f = &out->fields[out->nfields++];
			size_t vl = (size_t)(pm[g].rm_eo - pm[g].rm_so);

			if (nl >= sizeof(f->name))
				nl = sizeof(f->name) - 1;
			memcpy(f->name, p, nl);
			f->name[nl] = '\0';
			if (vl >= sizeof(f->value))
				vl = sizeof(f->value) - 1;
			memcpy(f->value, line + pm[g].rm_so, vl);
			f->value[vl] = '\0';
		}
		p += nl;
		if (*p == ',')
			p++;
		g++;
	}
}

/* Whether the line's bigram set holds every bigram of row i's needle. */
static int may_hold(const struct logmatcher *m,
                    const struct logmatch_linebits *lb, size_t i)
{
	for (int k = 0; k < LOGMATCH_GRAMS; k++) {
		unsigned short g = m->grams[i][k];

		if (g != 0xffff && !(lb->bits[g / 8] & (1u << (g % 8))))
			return 0;
	}
	return 1;
}

int logmatch_line(const struct logmatcher *m, const char *line,
		  size_t *start, struct logmatch *out)
{
	struct logmatch_linebits lb;

	logmatch_prepare(&lb, line);
	return logmatch_line_bits(m, &lb, start, out);
}

/* Half of explain's time is this loop over the rows; aligned to a cache
 * line, its speed no longer moves by a quarter when an unrelated object
 * file shifts the code before it (bench/explain/RESULTS.md). */
__attribute__((aligned(64)))
int logmatch_line_bits(const struct logmatcher *m,
		       const struct logmatch_linebits *lb, size_t *start,
		       struct logmatch *out)
{
	regmatch_t pm[LOGMATCH_MAX_FIELDS + 2];
	const char *line = lb->line;

	for (size_t i = *start; i < m->n; i++) {
		const struct logsig *s = &m->sigs[i];

		if (!may_hold(m, lb, i) || strstr(line, s->needle) == NULL ||
		    regexec(&m->re_nosub[i], line, 0, NULL, 0) != 0)
			continue;
		out->sig = s;
		out->nfields = 0;
		if (m->light == NULL || !m->light[i]) {
			if (regexec(&m->re[i], line, sizeof(pm) / sizeof(pm[0]),
				    pm, 0) != 0)
				continue;
			fill_fields(s, line, pm, sizeof(pm) / sizeof(pm[0]),
				    out);
		}
		*start = i;
		return 1;
	}
	return 0;
}

static const char *logmatch_field_nth(const struct logmatch *mt,
                                      const char *name, int nth)
{
	for (size_t i = 0; i < mt->nfields; i++)
		if (strcmp(mt->fields[i].name, name) == 0 && nth-- == 0)
			return mt->fields[i].value;
	return NULL;
}

const char *logmatch_field(const struct logmatch *mt, const char *name)
{
	return logmatch_field_nth(mt, name, 0);
}
