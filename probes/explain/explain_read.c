/* netprobe explain: reading logs with every line bounded, binary junk
 * counted as unknown, each line tried against the signature table. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "explain/explain_int.h"

/* Matches every signature a line holds (a line may hold several). */
static int match_line(struct explain_run *r, int file, long lineno,
		      const char *line)
{
	struct logmatch m;
	size_t start = 0;
	int hits = 0;

	while (logmatch_line(&r->lm, line, &start, &m)) {
		if (explain_log_add(&r->lg, &m, file, lineno) < 0)
			return -1;
		hits++;
		start++;
	}
	if (hits == 0)
		r->lg.unknown++;
	return 0;
}

int explain_read(struct explain_run *r, int file, const char *path)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char buf[EXPLAIN_LINE_MAX];
	long lineno = 0;
	int rc = 0;

	if (fp == NULL)
		return -1;
	for (;;) {
		size_t n = 0, odd = 0;
		bool nul = false, cut = false;
		int ch = EOF;

		while ((ch = getc_unlocked(fp)) != EOF && ch != '\n') {
			if (n + 1 < sizeof(buf)) {
				if (ch == 0)
					nul = true;
				else if ((ch < 0x20 && ch != '\t' &&
					  ch != '\r' && ch != 0x1b) ||
					 ch == 0x7f)
					odd++;
				buf[n++] = (char)ch;
			} else {
				cut = true;
			}
		}
		if (ch == EOF && n == 0)
			break;
		buf[n] = '\0';
		lineno++;
		r->lg.lines++;
		if (cut)
			r->lg.truncated++;
		if (nul || odd * 8 > n) {
			r->lg.binary++;
			r->lg.unknown++;
		} else if (n > 0 && match_line(r, file, lineno, buf) < 0) {
			rc = -1;
			break;
		}
		if (ch == EOF)
			break;
	}
	if (ferror(fp) && rc == 0) {
		rc = -1;
		errno = EIO;
	}
	if (fp != stdin)
		fclose(fp);
	return rc;
}
