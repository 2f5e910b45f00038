/* netprobe report: JUnit XML for CI systems. One test suite per node (and
 * per ncclcheck run, the cluster, the inputs), one test case per check:
 * a finding class on a node, a gate check, the cluster recommendation, an
 * input file. Failures carry the finding text; which severities fail
 * follows --fail-on, as the exit status does. */
#include <string.h>

#include "report.h"

/* Does a check of this status fail under fail_on? */
static bool fails(const char *status, enum report_fail_on fail_on)
{
	int s = rj_sev(status);

	if (fail_on == REPORT_FAIL_NEVER)
		return false;
	return fail_on == REPORT_FAIL_WARNING ? s >= 1 : s >= 2;
}

/* Counts the cases of one suite: tests, failures, errors. */
static void count(const json_t *checks, const char *suite,
		  enum report_fail_on fail_on, int *t, int *f, int *e)
{
	size_t i;
	json_t *k;

	*t = *f = *e = 0;
	json_array_foreach(checks, i, k) {
		if (suite != NULL && strcmp(rj_str(k, "suite"), suite) != 0)
			continue;
		(*t)++;
		if (strcmp(rj_str(k, "status"), "error") == 0)
			(*e)++;
		else if (fails(rj_str(k, "status"), fail_on))
			(*f)++;
	}
}

/* The first line of text, escaped, for a message attribute. */
static void first_line(FILE *fp, const char *text)
{
	char buf[512];
	size_t n = strcspn(text, "\n");

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	rj_xml_escape(fp, buf);
}

/* One test case. */
static void testcase(FILE *fp, const json_t *k, enum report_fail_on fail_on)
{
	const char *st = rj_str(k, "status"), *text = rj_strd(k, "text", "");

	fputs("    <testcase classname=\"", fp);
	rj_xml_escape(fp, rj_str(k, "suite"));
	fputs("\" name=\"", fp);
	rj_xml_escape(fp, rj_str(k, "name"));
	fputs("\" time=\"0\"", fp);
	if (strcmp(st, "pass") == 0 && text[0] == '\0') {
		fputs("/>\n", fp);
		return;
	}
	fputs(">\n", fp);
	if (strcmp(st, "error") == 0) {
		fputs("      <error type=\"unreadable\" message=\"", fp);
		first_line(fp, text);
		fputs("\">", fp);
		rj_xml_escape(fp, text);
		fputs("</error>\n", fp);
	} else if (fails(st, fail_on)) {
		fprintf(fp, "      <failure type=\"%s\" message=\"", st);
		first_line(fp, text);
		fputs("\">", fp);
		rj_xml_escape(fp, text);
		fputs("</failure>\n", fp);
	} else {
		fputs("      <system-out>", fp);
		rj_xml_escape(fp, text);
		fputs("</system-out>\n", fp);
	}
	fputs("    </testcase>\n", fp);
}

int report_render_junit(const json_t *rep, FILE *fp,
			enum report_fail_on fail_on)
{
	json_t *checks = rj_arr(rep, "checks"), *k;
	const char *prev = NULL;
	int t, f, e;
	size_t i;

	count(checks, NULL, fail_on, &t, &f, &e);
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<testsuites name=\"netprobe report\" tests=\"%d\" "
		    "failures=\"%d\" errors=\"%d\" time=\"0\">\n",
		t, f, e);
	/* checks are sorted by suite, so each suite is one run of them */
	json_array_foreach(checks, i, k) {
		const char *suite = rj_str(k, "suite");

		if (prev == NULL || strcmp(prev, suite) != 0) {
			if (prev != NULL)
				fputs("  </testsuite>\n", fp);
			count(checks, suite, fail_on, &t, &f, &e);
			fputs("  <testsuite name=\"", fp);
			rj_xml_escape(fp, suite);
			fprintf(fp, "\" tests=\"%d\" failures=\"%d\" "
				    "errors=\"%d\" skipped=\"0\" time=\"0\">\n",
				t, f, e);
			prev = suite;
		}
		testcase(fp, k, fail_on);
	}
	if (prev != NULL)
		fputs("  </testsuite>\n", fp);
	fputs("</testsuites>\n", fp);
	return fflush(fp) == EOF || ferror(fp) ? -1 : 0;
}
