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

/* Usage, equal to the man page SYNOPSIS. */
static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: netprobe report [--format text|markdown|html|json|junit]"
		"\n                       [-o FILE] [--fail-on "
		"warning|fault|never] FILE|DIR...\n");
}

/* Parses --format. Returns 0, or -1 for an unknown name. */
int report_format_parse(const char *s, enum report_format *out)
{
	static const struct {
		const char *name;
		enum report_format f;
	} t[] = {{"text", REPORT_FMT_TEXT}, {"markdown", REPORT_FMT_MD},
		 {"md", REPORT_FMT_MD},	    {"html", REPORT_FMT_HTML},
		 {"json", REPORT_FMT_JSON}, {"junit", REPORT_FMT_JUNIT}};

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
	case REPORT_FMT_TEXT:
		return report_render_text(m, fp, colour);
	case REPORT_FMT_MD:
		return report_render_md(m, fp);
	case REPORT_FMT_HTML:
		return report_render_html(m, fp);
	case REPORT_FMT_JSON:
		return report_render_json(m, fp);
	case REPORT_FMT_JUNIT:
		return report_render_junit(m, fp, fail_on);
	}
	return -1;
}

/* Parses --fail-on. Returns 0, or -1 for an unknown level. */
int report_fail_on_parse(const char *s, enum report_fail_on *out)
{
	if (strcmp(s, "warning") == 0)
		*out = REPORT_FAIL_WARNING;
	else if (strcmp(s, "fault") == 0)
		*out = REPORT_FAIL_FAULT;
	else if (strcmp(s, "never") == 0)
		*out = REPORT_FAIL_NEVER;
	else
		return -1;
	return 0;
}

/* Writes the report to path atomically (a temporary file renamed), or to
 * stdout for NULL or "-". Returns 0, or -1 with a message printed. */
int report_emit(const struct report_model *m, const char *path,
		enum report_format f, enum report_fail_on fail_on,
		const char *prog)
{
	char tmp[4096];
	struct stat st;
	const char *nc = getenv("NO_COLOR");
	FILE *fp;
	int rc;

	if (path == NULL || strcmp(path, "-") == 0) {
		bool colour = f == REPORT_FMT_TEXT && isatty(STDOUT_FILENO) &&
			      (nc == NULL || nc[0] == '\0');

		rc = render(m, stdout, f, colour, fail_on);
		if (rc < 0 || fflush(stdout) == EOF || ferror(stdout)) {
			fprintf(stderr, "%s: cannot write 'standard output'\n",
				prog);
			return -1;
		}
		return 0;
	}
	/* a regular file is replaced atomically; anything else (a pipe,
	 * /dev/stdout) is written in place */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		fp = fopen(path, "w");
		if (fp == NULL) {
			fprintf(stderr, "%s: cannot write '%s'\n", prog,
				path);
			return -1;
		}
		rc = render(m, fp, f, false, fail_on);
		if (fclose(fp) == EOF || rc < 0) {
			fprintf(stderr, "%s: cannot write '%s'\n", prog,
				path);
			return -1;
		}
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	fp = fopen(tmp, "w");
	if (fp == NULL) {
		fprintf(stderr, "%s: cannot write '%s'\n", prog, path);
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
		fprintf(stderr, "%s: cannot write '%s'\n", prog, path);
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
	enum report_format fmt = REPORT_FMT_TEXT;
	enum report_fail_on fail_on = REPORT_FAIL_FAULT;
	const char *out = NULL;
	struct report_set set = {0};
	struct report_model *m;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (report_format_parse(optarg, &fmt) < 0) {
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
			if (report_fail_on_parse(optarg, &fail_on) < 0) {
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
	if (report_emit(m, out, fmt, fail_on, "netprobe report") < 0)
		rc = 2;
	else
		rc = report_gate(m, fail_on);
	report_model_free(m);
	return rc;
}
