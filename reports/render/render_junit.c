/* netprobe report: JUnit XML for CI systems. One test suite per node (and
 * per ncclcheck run, the cluster, the inputs), one test case per check:
 * a finding class on a node, a gate check, the cluster recommendation, an
 * input file. Failures carry the finding text; which severities fail
 * follows --fail-on, as the exit status does. JUnit's shape (suites of
 * cases) is not the walk's sections: it writes the model's suites. */
#include <string.h>

#include "report_model.h"

/* The first line of text, escaped, for a message attribute. */
static void first_line(FILE *fp, const char *text)
{
	char buf[512];
	size_t n = strcspn(text, "\n");

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	xml_escape(fp, buf);
}

/* A suite's name as CI systems read it: they split a classname at its
 * dots into package and class, so a node named gpu-a.example.com landed
 * in a package "netprobe.gpu-a.example" as class "com". The program's
 * prefix stays the package; dots after it become '_' (issue 44). The
 * node's own name stays in the test case's text and in the JSON. */
static void suite_name(FILE *fp, const char *suite)
{
	char buf[512];
	const char *dot = strchr(suite, '.');
	size_t n = strlen(suite);

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, suite, n);
	buf[n] = '\0';
	for (size_t i = dot ? (size_t)(dot - suite) + 1 : n; i < n; i++)
		if (buf[i] == '.')
			buf[i] = '_';
	xml_escape(fp, buf);
}

/* One test case. */
static void testcase(FILE *fp, const json_t *k, enum report_fail_on fail_on)
{
	const char *st = rj_str(k, "status"), *text = rj_strd(k, "text", "");

	fputs("    <testcase classname=\"", fp);
	suite_name(fp, rj_str(k, "suite"));
	fputs("\" name=\"", fp);
	xml_escape(fp, rj_str(k, "name"));
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
		xml_escape(fp, text);
		fputs("</error>\n", fp);
	} else if (rm_fails(st, fail_on)) {
		fprintf(fp, "      <failure type=\"%s\" message=\"", st);
		first_line(fp, text);
		fputs("\">", fp);
		xml_escape(fp, text);
		fputs("</failure>\n", fp);
	} else {
		fputs("      <system-out>", fp);
		xml_escape(fp, text);
		fputs("</system-out>\n", fp);
	}
	fputs("    </testcase>\n", fp);
}

int report_render_junit(const struct report_model *m, FILE *fp,
			enum report_fail_on fail_on)
{
	fprintf(fp,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "
		"name=\"netprobe report\" tests=\"%d\" failures=\"%d\" "
		"errors=\"%d\" time=\"0\">\n",
		m->ntests, m->nfailures[fail_on], m->nerrors);
	for (size_t i = 0; i < m->nsuites; i++) {
		const struct rm_suite *s = &m->suites[i];

		fputs("  <testsuite name=\"", fp);
		suite_name(fp, s->name);
		fprintf(fp,
			"\" tests=\"%zu\" failures=\"%d\" errors=\"%d\" "
			"skipped=\"0\" time=\"0\">\n",
			s->checks.n, s->failures[fail_on], s->errors);
		for (size_t j = 0; j < s->checks.n; j++)
			testcase(fp, s->checks.v[j], fail_on);
		fputs("  </testsuite>\n", fp);
	}
	fputs("</testsuites>\n", fp);
	return fflush(fp) == EOF || ferror(fp) ? -1 : 0;
}
