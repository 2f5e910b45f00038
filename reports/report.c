/* netprobe report: reads netprobe and ncclcheck documents from many nodes
 * and runs, decides across them, and writes one report in the format asked
 * for; the exit status is the gate (--fail-on). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "report.h"

enum report_format { FMT_TEXT, FMT_MD, FMT_HTML, FMT_JSON, FMT_JUNIT };

/* Usage, equal to the man page SYNOPSIS. */
static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: netprobe report [--format text|markdown|html|json|junit]"
		"\n                       [-o FILE] [--fail-on "
		"warning|fault|never] FILE|DIR...\n");
}

/* Parses --format. Returns 0, or -1 for an unknown name. */
static int parse_format(const char *s, enum report_format *out)
{
	static const struct {
		const char *name;
		enum report_format f;
	} t[] = {{"text", FMT_TEXT},	 {"markdown", FMT_MD},
		 {"md", FMT_MD},	 {"html", FMT_HTML},
		 {"json", FMT_JSON},	 {"junit", FMT_JUNIT}};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(t[i].name, s) == 0) {
			*out = t[i].f;
			return 0;
		}
	return -1;
}

/* Renders to fp in the chosen format. Returns 0 or -1. */
static int render(const struct report_model *m, FILE *fp,
		  enum report_format f, bool colour,
		  enum report_fail_on fail_on)
{
	switch (f) {
	case FMT_TEXT:
		return report_render_text(m, fp, colour);
	case FMT_MD:
		return report_render_md(m, fp);
	case FMT_HTML:
		return report_render_html(m, fp);
	case FMT_JSON:
		return report_render_json(m, fp);
	case FMT_JUNIT:
		return report_render_junit(m, fp, fail_on);
	}
	return -1;
}

/* Writes the report to path atomically (a temporary file renamed), or to
 * stdout for NULL or "-". Returns 0, or -1 with a message printed. */
static int emit(const struct report_model *m, const char *path,
		enum report_format f, enum report_fail_on fail_on)
{
	char tmp[4096];
	struct stat st;
	const char *nc = getenv("NO_COLOR");
	FILE *fp;
	int rc;

	if (path == NULL || strcmp(path, "-") == 0) {
		bool colour = f == FMT_TEXT && isatty(STDOUT_FILENO) &&
			      (nc == NULL || nc[0] == '\0');

		rc = render(m, stdout, f, colour, fail_on);
		if (rc < 0 || fflush(stdout) == EOF || ferror(stdout)) {
			fprintf(stderr, "netprobe report: cannot write "
					"'standard output'\n");
			return -1;
		}
		return 0;
	}
	/* a regular file is replaced atomically; anything else (a pipe,
	 * /dev/stdout) is written in place */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		fp = fopen(path, "w");
		if (fp == NULL) {
			fprintf(stderr, "netprobe report: cannot write '%s'\n",
				path);
			return -1;
		}
		rc = render(m, fp, f, false, fail_on);
		if (fclose(fp) == EOF || rc < 0) {
			fprintf(stderr, "netprobe report: cannot write '%s'\n",
				path);
			return -1;
		}
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	fp = fopen(tmp, "w");
	if (fp == NULL) {
		fprintf(stderr, "netprobe report: cannot write '%s'\n", path);
		return -1;
	}
	rc = render(m, fp, f, false, fail_on);
	if (fflush(fp) == EOF || ferror(fp))
		rc = -1;
	if (fclose(fp) == EOF)
		rc = -1;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -1;
	if (rc < 0) {
		unlink(tmp);
		fprintf(stderr, "netprobe report: cannot write '%s'\n", path);
	}
	return rc;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"fail-on", required_argument, NULL, 'F'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	enum report_format fmt = FMT_TEXT;
	enum report_fail_on fail_on = REPORT_FAIL_FAULT;
	const char *out = NULL;
	struct report_set set = {0};
	struct report_model *m;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (parse_format(optarg, &fmt) < 0) {
				fprintf(stderr,
					"netprobe report: unknown format "
					"'%s': use text, markdown, html, json "
					"or junit\n",
					optarg);
				return 2;
			}
			break;
		case 'o':
			out = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "warning") == 0)
				fail_on = REPORT_FAIL_WARNING;
			else if (strcmp(optarg, "fault") == 0)
				fail_on = REPORT_FAIL_FAULT;
			else if (strcmp(optarg, "never") == 0)
				fail_on = REPORT_FAIL_NEVER;
			else {
				fprintf(stderr,
					"netprobe report: unknown level '%s': "
					"use warning, fault or never\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "netprobe report: no documents given\n");
		usage(stderr);
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		if (report_load_path(&set, argv[i]) < 0) {
			fprintf(stderr, "netprobe report: out of memory\n");
			report_set_free(&set);
			return 2;
		}
	}
	for (size_t i = 0; i < set.nskip; i++) {
		const struct report_skip *k = &set.skip[i];

		if (k->line > 0)
			fprintf(stderr,
				"netprobe report: skipped '%s' at line %d, "
				"column %d (byte %ld): %s\n",
				k->path, k->line, k->column, k->position,
				k->why);
		else
			fprintf(stderr, "netprobe report: skipped '%s': %s\n",
				k->path, k->why);
	}
	if (set.nin == 0) {
		fprintf(stderr, "netprobe report: no usable document among "
				"the files given\n");
		report_set_free(&set);
		return 2;
	}
	m = report_build(&set);
	report_set_free(&set);
	if (m == NULL) {
		fprintf(stderr, "netprobe report: out of memory\n");
		return 2;
	}
	if (emit(m, out, fmt, fail_on) < 0)
		rc = 2;
	else
		rc = report_gate(m, fail_on);
	report_model_free(m);
	return rc;
}
