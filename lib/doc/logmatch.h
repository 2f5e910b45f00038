/* Matching log lines against the signature table (doc/logsig.h): the
 * patterns compiled once with POSIX regcomp, each tried only on lines that
 * hold its literal needle, and the capture groups returned by name. */
#ifndef NP_LOGMATCH_H
#define NP_LOGMATCH_H

#include <regex.h>
#include <stddef.h>

#include "doc/logsig.h"

#define LOGMATCH_MAX_FIELDS 8
#define LOGMATCH_FIELD_LEN 128

#define LOGMATCH_GRAM_BITS 4096 /* bigram filter of one line */
#define LOGMATCH_GRAMS 3	 /* bigrams of a needle checked first */

struct logmatcher {
	const struct logsig *sigs;
	size_t n;
	regex_t *re; /* one per row */
	/* per row, the hashes of up to three bigrams of its needle: a line
	 * whose bigram set lacks one cannot hold the needle, so most rows
	 * are skipped without a strstr */
	unsigned short (*grams)[LOGMATCH_GRAMS];
	regex_t *re_nosub; /* the same patterns, REG_NOSUB: the quick test */
	/* rows whose captures the caller does not need (NULL: none): a
	 * match there skips the slow submatch pass and has no fields */
	const unsigned char *light;
};

/* One line's bigram set (logmatch_prepare), so that the rows tried on it
 * share the work. */
struct logmatch_linebits {
	const char *line;
	unsigned char bits[LOGMATCH_GRAM_BITS / 8];
};

/* One named capture of a matched line. */
struct logfield {
	char name[32];
	char value[LOGMATCH_FIELD_LEN];
};

struct logmatch {
	const struct logsig *sig;
	size_t nfields;
	struct logfield fields[LOGMATCH_MAX_FIELDS];
};

/* Compiles every row. Returns 0, or -1 with *bad set to the id of the row
 * whose pattern does not compile (errno EINVAL) or errno ENOMEM. */
int logmatch_init(struct logmatcher *m, const char **bad);

/* Releases the compiled patterns. Safe on a zeroed struct. */
void logmatch_free(struct logmatcher *m);

/* Tries the rows in table order on one NUL-terminated line from row
 * *start on: the first that matches fills out and its index goes to
 * *start. Returns 1 on a match, 0 when no further row matches. */
int logmatch_line(const struct logmatcher *m, const char *line,
		  size_t *start, struct logmatch *out);

/* Fills lb with line's bigram set; the line must stay unchanged while
 * lb is used. */
void logmatch_prepare(struct logmatch_linebits *lb, const char *line);

/* logmatch_line on a prepared line: the same result, faster. */
int logmatch_line_bits(const struct logmatcher *m,
		       const struct logmatch_linebits *lb, size_t *start,
		       struct logmatch *out);

/* The value of field name in mt, or NULL when the row has none. The
 * n-th (0-based) of several with that name through logmatch_field_nth. */
const char *logmatch_field(const struct logmatch *mt, const char *name);

#endif
