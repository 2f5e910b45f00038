/* The catalogue of finding codes (../shared/FAILURES.md): stable codes, their
 * severity and a generic fix, shared by netprobe, ncclcheck and reports. */
#ifndef NP_FINDING_H
#define NP_FINDING_H

#include <stddef.h>

enum severity {
	SEV_INFO = 0,
	SEV_WARNING = 1,
	SEV_FAULT = 2,
};

struct finding_def {
	const char *code;     /* kebab-case, never changes meaning */
	enum severity sev;    /* default severity */
	const char *title;    /* one line: the symptom users see */
	const char *fix;      /* generic fix when the producer has none better */
};

/* Returns the catalogue entry for code, or NULL when the code is unknown. */
const struct finding_def *finding_lookup(const char *code);

/* Returns the whole catalogue and its length through *n. */
const struct finding_def *finding_all(size_t *n);

/* "info", "warning" or "fault". */
const char *severity_name(enum severity sev);

/* Parses a severity name. Returns 0, or -1 for an unknown name. */
int severity_parse(const char *s, enum severity *out);

#endif
