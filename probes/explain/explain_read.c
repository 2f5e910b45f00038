/* netprobe explain: reading logs with every line bounded, binary junk
 * counted as unknown, each line tried against the signature table. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/termsafe.h"
#include "explain/explain_int.h"

/* Pasted logs carry terminal colours (ESC [ ... letter) and CRLF line
 * ends: both are taken out in place before matching, so a coloured
 * "[1;31mNCCL WARN" reads as the plain line. Returns the new length. */
static size_t strip_line(char *s, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == 0x1b && i + 1 < n && s[i + 1] == '[') {
			size_t j = i + 2;

			while (j < n && j < i + 24 &&
			       ((s[j] >= '0' && s[j] <= '9') || s[j] == ';' ||
				s[j] == '?'))
				j++;
			if (j < n && ((s[j] >= 'A' && s[j] <= 'Z') ||
				      (s[j] >= 'a' && s[j] <= 'z'))) {
				i = j;
				continue;
			}
		}
		s[o++] = s[i];
	}
	while (o > 0 && s[o - 1] == '\r')
		o--;
	s[o] = '\0';
	return o;
}

/* A terminal that wrapped a long line and a paste that joined it back
 * leave the wrap's padding inside it: a run of spaces, often inside a
 * word ("after 600s w<237 spaces>hile trying", issue 42: blind42l d05).
 * Copies line to out with every inner run of WRAP_RUN spaces or more
 * removed (join) or made one space; false when it has none. Column
 * padding is shorter than that. */
#define WRAP_SPACES "                                " /* 32 */
#define WRAP_RUN (sizeof(WRAP_SPACES) - 1)
static bool unwrap(const char *line, char *out, size_t len, bool join)
{
	size_t o = 0;
	bool any = false;

	for (const char *p = line; *p != '\0' && o + 1 < len;) {
		size_t n = strspn(p, " ");

		if (n >= WRAP_RUN && p != line && p[n] != '\0') {
			any = true;
			if (!join)
				out[o++] = ' ';
			p += n;
		} else if (n > 0) {
			for (size_t k = 0; k < n && o + 1 < len; k++)
				out[o++] = ' ';
			p += n;
		} else {
			out[o++] = *p++;
		}
	}
	out[o] = '\0';
	return any;
}

/* Matches every signature a line holds (a line may hold several). The
 * raw line is matched; what is kept of it (its text, cut to the evidence's
 * room between characters, and its captures) is made UTF-8, as the
 * document must be. */
static int match_text(struct explain_run *r, int file, long lineno,
		      const char *line)
{
	struct logmatch m;
	struct logmatch_linebits lb;
	char text[EXPLAIN_TEXT_MAX];
	size_t start = 0;
	int hits = 0;

	logmatch_prepare(&lb, line);
	while (logmatch_line_bits(&r->lm, &lb, &start, &m)) {
		size_t i = (size_t)(m.sig - r->lm.sigs);

		if (hits == 0)
			termsafe_utf8(line, strlen(line), text, sizeof(text));
		for (size_t k = 0; k < m.nfields; k++)
			explain_utf8(m.fields[k].value,
				     sizeof(m.fields[k].value));
		if (explain_log_add_text(&r->lg, &m, file, lineno, text) < 0)
			return -1;
		/* a fact row whose kept matches are full needs no captures */
		if (m.sig->flags & LOGSIG_FACT && i < EXPLAIN_SIG_SLOTS &&
		    r->lg.kept[i] >= EXPLAIN_FACT_KEEP)
			r->light[i] = 1;
		hits++;
		start++;
	}
	return hits;
}

/* A line no signature reads is read again without its wrap padding,
 * the run removed and then made one space (a wrap inside a word or
 * between two). */
static int match_line(struct explain_run *r, int file, long lineno,
		      const char *line)
{
	char flat[EXPLAIN_LINE_MAX];
	int hits = match_text(r, file, lineno, line);

	if (hits == 0 && strstr(line, WRAP_SPACES) != NULL)
		for (int join = 1; hits == 0 && join >= 0; join--)
			if (unwrap(line, flat, sizeof(flat), join))
				hits = match_text(r, file, lineno, flat);
	if (hits == 0)
		r->lg.unknown++;
	return hits < 0 ? -1 : 0;
}

int explain_read(struct explain_run *r, int file, const char *path)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char buf[EXPLAIN_LINE_MAX];
	long lineno = 0;
	int rc = 0;

	if (fp == NULL)
		return -1;
	explain_near_reset(&r->near);
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
		} else if ((n = strip_line(buf, n)) > 0) {
			size_t first = r->lg.nhits;

			explain_origin_line(&r->origin, buf);
			if (match_line(r, file, lineno, buf) < 0) {
				rc = -1;
				break;
			}
			explain_near_line(&r->near, &r->lg, first, lineno, buf);
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
