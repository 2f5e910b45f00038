/* libFuzzer target for netprobe explain's log reader and matcher (issue
 * 45): the input is a log file (at most 256 KiB), read by explain_read
 * as `netprobe explain --no-probe FILE` reads it (lines cut, colours and
 * CRLF taken out, binary junk counted), decided and made into its
 * document and text (the text to /dev/null). Each of its first lines is
 * also matched against the signature table without the bigram filter:
 * logmatch_line must find the same row, or the filter skipped a row that
 * holds its needle (abort). */
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "doc/logmatch.h"
#include "explain/explain_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INPUT_MAX (256 * 1024)
#define CHECK_LINES 256 /* lines matched twice, with and without filter */

static struct logmatcher lm;
static int memfd = -1;
static char path[64];

/* The table compiled once; the log goes through a memory file, so
 * explain_read opens it by name as it opens a user's file; stdout (the
 * text) goes to /dev/null. */
static void start(void)
{
	const char *bad = NULL;

	if (logmatch_init(&lm, &bad) < 0) {
		fprintf(stderr, "fuzz_explain: row %s\n", bad ? bad : "?");
		abort();
	}
	memfd = memfd_create("fuzz-explain-log", MFD_CLOEXEC);
	if (memfd < 0 || freopen("/dev/null", "w", stdout) == NULL)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
}

/* The first row from *start on that holds its needle and whose pattern
 * matches, every row tried: what the filter must not change. */
static int plain_match(const char *line, size_t start)
{
	regmatch_t pm[LOGMATCH_MAX_FIELDS + 2];

	for (size_t i = start; i < lm.n; i++)
		if (strstr(line, lm.sigs[i].needle) != NULL &&
		    regexec(&lm.re_nosub[i], line, 0, NULL, 0) == 0 &&
		    regexec(&lm.re[i], line, sizeof(pm) / sizeof(pm[0]), pm,
			    0) == 0)
			return (int)i;
	return -1;
}

/* Every row that matches line, through the filter and without. */
static void check_line(const char *line)
{
	struct logmatch mt;
	size_t start = 0;

	for (size_t k = 0; k <= lm.n; k++) {
		int want = plain_match(line, start);
		int got = logmatch_line(&lm, line, &start, &mt) ? (int)start
							       : -1;

		if (want != got) {
			fprintf(stderr, "fuzz_explain: row %d plain, %d "
				"filtered: '%s'\n", want, got, line);
			abort();
		}
		if (got < 0)
			break;
		start++;
	}
}

/* The first CHECK_LINES lines of the input (NULs cut them, as C strings
 * are), each checked. */
static void check_lines(const uint8_t *data, size_t size)
{
	char line[EXPLAIN_LINE_MAX];
	size_t off = 0;

	for (int k = 0; k < CHECK_LINES && off < size; k++) {
		size_t n = 0;

		while (off < size && data[off] != '\n') {
			if (n + 1 < sizeof(line))
				line[n++] = (char)data[off];
			off++;
		}
		off++;
		line[n] = '\0';
		check_line(line);
	}
}

/* explain_run's read and decide, and its output in text mode (which
 * builds the JSON document too), with nothing measured. */
static void explain(void)
{
	struct explain_run *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return;
	r->o.no_probe = true;
	r->o.files[0] = "fuzz.log";
	r->o.nfiles = 1;
	lm.light = r->light;
	r->lm = lm;
	if (cmd_init(&r->run, "netprobe", "explain", NULL, NULL) == 0 &&
	    explain_read(r, 0, path) == 0) {
		explain_decide(&r->lg, &r->res);
		explain_apply_measured(&r->res, &r->ms);
		explain_drop_normal(&r->res);
		/* a log that was read is one explain can write down */
		if (explain_emit(r) < 0) {
			fprintf(stderr, "fuzz_explain: explain_emit failed\n");
			abort();
		}
	}
	lm.light = NULL;
	doc_free(&r->run.doc);
	explain_log_free(&r->lg);
	for (int i = 0; i < r->npool; i++)
		free(r->pool[i]);
	free(r);
}

/* One log: read as explain reads a file, then its lines checked. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (memfd < 0)
		start();
	if (size > INPUT_MAX)
		return 0;
	if (ftruncate(memfd, 0) < 0 ||
	    pwrite(memfd, data, size, 0) != (ssize_t)size)
		abort();
	explain();
	check_lines(data, size);
	return 0;
}
