/* The signature matcher: literal needles first (strstr is cheap), the
 * regex only where the needle is, so 100,000 lines take well under a
 * second. */
#include "doc/logmatch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int logmatch_init(struct logmatcher *m, const char **bad)
{
	memset(m, 0, sizeof(*m));
	m->sigs = logsig_table(&m->n);
	m->re = calloc(m->n, sizeof(*m->re));
	if (m->re == NULL) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < m->n; i++) {
		if (regcomp(&m->re[i], m->sigs[i].regex, REG_EXTENDED) != 0) {
			for (size_t j = 0; j < i; j++)
				regfree(&m->re[j]);
			free(m->re);
			m->re = NULL;
			*bad = m->sigs[i].id;
			errno = EINVAL;
			return -1;
		}
	}
	return 0;
}

void logmatch_free(struct logmatcher *m)
{
	if (m->re != NULL)
		for (size_t i = 0; i < m->n; i++)
			regfree(&m->re[i]);
	free(m->re);
	m->re = NULL;
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

int logmatch_line(const struct logmatcher *m, const char *line,
		  size_t *start, struct logmatch *out)
{
	regmatch_t pm[LOGMATCH_MAX_FIELDS + 2];

	for (size_t i = *start; i < m->n; i++) {
		const struct logsig *s = &m->sigs[i];

		if (strstr(line, s->needle) == NULL)
			continue;
		if (regexec(&m->re[i], line, sizeof(pm) / sizeof(pm[0]), pm,
			    0) != 0)
			continue;
		out->sig = s;
		fill_fields(s, line, pm, sizeof(pm) / sizeof(pm[0]), out);
		*start = i;
		return 1;
	}
	return 0;
}

const char *logmatch_field_nth(const struct logmatch *mt, const char *name,
			       int nth)
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
