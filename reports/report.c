/* netprobe report: reads netprobe and ncclcheck documents from many nodes
 * and runs, decides across them, and writes one report in each format asked
 * for, at once; the exit status is the gate (--fail-on). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cli.h"
#include "report.h"

enum {
	O_FORMAT = 'f',
	O_OUTPUT = 'o',
	O_JSONFLAG = 'j',
	O_HELP = 'h',
	O_JSON = 256,
	O_HTML,
	O_JUNIT,
	O_MD,
	O_FAILON,
	O_NOCLOBBER,
	O_ALLOWDUP,
	O_VERBOSE = 'v',
};

static const struct cli_opt report_optv[] = {
	{O_FORMAT, 'f', "format", CLI_REQUIRED, "FORMAT", "text",
	 "text, markdown, html, json or junit", false},
	{O_OUTPUT, 'o', "output", CLI_REQUIRED, "FILE", "standard output",
	 "write that format to FILE", false},
	{O_HTML, 0, "html", CLI_REQUIRED, "FILE", NULL,
	 "also write the HTML report to FILE", false},
	{O_JUNIT, 0, "junit", CLI_REQUIRED, "FILE", NULL,
	 "also write JUnit XML to FILE", false},
	{O_MD, 0, "markdown", CLI_REQUIRED, "FILE", NULL,
	 "also write Markdown to FILE", false},
	{O_JSON, 0, "json", CLI_OPTIONAL, "FILE", NULL,
	 "also write the merged JSON to FILE; alone: -j", false},
	{O_JSONFLAG, 'j', NULL, CLI_FLAG, NULL, NULL,
	 "the merged JSON instead of text (--format json)", false},
	{O_FAILON, 0, "fail-on", CLI_REQUIRED, "LEVEL", "fault",
	 "exit 1 from: warning, fault, never", false},
	{O_ALLOWDUP, 0, "allow-duplicates", CLI_REQUIRED, "WHICH", NULL,
	 "two snapshots of one node: keep first, last or newest", false},
	{O_NOCLOBBER, 0, "no-clobber", CLI_FLAG, NULL, NULL,
	 "refuse to replace an existing regular file", false},
	{O_VERBOSE, 'v', "verbose", CLI_FLAG, NULL, NULL,
	 "text: every pair of the matrix and every citation", false},
	CLI_OPT_HELP,
};

static const struct cli_cmd report_cmd = {
	"netprobe report", "[options] FILE|DIR...",
	"Merge every node's netprobe and ncclcheck documents into one report.",
	report_optv, sizeof(report_optv) / sizeof(report_optv[0]),
	"The report goes to standard output (or -o) in --format, and at once to "
	"each\nfile named by --html, --junit, --markdown and --json.\n",
};

/* One report to write: a format and where (NULL: standard output). */
struct report_out {
	int format;
	const char *path;
};

/* Parses --format; see report.h. */
int report_format_parse(const char *s, enum report_format *out)
{
	static const struct {
		const char *name;
		enum report_format f;
	} t[] = {{"text", REPORT_FMT_TEXT},	 {"markdown", REPORT_FMT_MD},
		 {"md", REPORT_FMT_MD},	 {"html", REPORT_FMT_HTML},
		 {"json", REPORT_FMT_JSON},	 {"junit", REPORT_FMT_JUNIT}};

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

/* Parses --fail-on; see report.h. */
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

/* Writes the report to path through outfile_open (a regular file replaced
 * atomically, a device or FIFO written in place), or to stdout for NULL or
 * "-"; see report.h. */
int report_emit(const struct report_model *m, const char *path,
		enum report_format f, enum report_fail_on fail_on,
		const char *prog, const struct outfile_opts *oo)
{
	const char *nc = getenv("NO_COLOR");
	struct outfile of;
	int rc;

	if (path == NULL || strcmp(path, "-") == 0) {
		bool colour = f == REPORT_FMT_TEXT &&
			      cli_color(isatty(STDOUT_FILENO), nc);

		rc = render(m, stdout, f, colour, fail_on);
		if (rc < 0 || fflush(stdout) == EOF || ferror(stdout)) {
			fprintf(stderr, "%s: cannot write 'standard output'\n",
				prog);
			return -1;
		}
		return 0;
	}
	if (outfile_open(&of, path, oo) < 0) {
		fprintf(stderr, "%s: %s\n", prog, of.why);
		return -1;
	}
	errno = 0;
	if (render(m, of.fp, f, false, fail_on) < 0) {
		int err = errno ? errno : EIO;

		outfile_abort(&of);
		fprintf(stderr, "%s: cannot write '%s': %s\n", prog, path,
			strerror(err));
		return -1;
	}
	if (outfile_close(&of) < 0) {
		fprintf(stderr, "%s: %s\n", prog, of.why);
		return -1;
	}
	return 0;
}

/* Adds a file output; returns 2 (a usage error printed) when full. */
static int add_out(struct report_out *outs, int *n, int format,
		   const char *path)
{
	if (*n >= 8) {
		fprintf(stderr, "netprobe report: at most 8 outputs\n");
		return 2;
	}
	outs[*n].format = format;
	outs[(*n)++].path = path;
	return 0;
}

/* Writes every output, the files first: one that cannot be written loses
 * none of the others. inputs has room for every path of the set and ops.
 * Returns 0, or 2 when one could not be written. */
static int emit_all(const struct report_model *m,
		    const struct report_set *set, char **ops, int nops,
		    const struct report_out *outs, int nout, const char *out,
		    enum report_format fmt, enum report_fail_on fail_on,
		    struct outfile_opts *oo, const char **inputs)
{
	size_t n = 0;
	int rc = 0;

	for (size_t i = 0; i < set->nin; i++)
		inputs[n++] = set->in[i].path;
	for (size_t i = 0; i < set->nskip; i++)
		inputs[n++] = set->skip[i].path;
	for (int i = 0; i < nops; i++)
		inputs[n++] = ops[i];
	oo->inputs = inputs;
	oo->ninputs = n;
	for (int i = 0; i < nout; i++)
		if (report_emit(m, outs[i].path,
				(enum report_format)outs[i].format, fail_on,
				"netprobe report", oo) < 0)
			rc = 2;
	if (report_emit(m, out, fmt, fail_on, "netprobe report", oo) < 0)
		rc = 2;
	return rc;
}

int cmd_report(int argc, char **argv)
{
	enum report_format fmt = REPORT_FMT_TEXT;
	enum report_fail_on fail_on = REPORT_FAIL_FAULT;
	const char *out = NULL;
	struct report_out outs[8];
	struct report_set set = {0};
	struct report_model *m;
	bool fmt_given = false, json_stdout = false, verbose = false;
	struct outfile_opts oo = {0};
	enum report_dup dup = REPORT_DUP_REFUSE;
	char why[1024];
	const char **inputs = NULL;
	struct cli cl;
	char **ops;
	int ch, rc, nout = 0, nops;

	cli_start(&cl, &report_cmd, argc, argv);
	while ((ch = cli_next(&cl)) != CLI_END) {
		switch (ch) {
		case O_FORMAT:
			if (report_format_parse(cl.arg, &fmt) < 0) {
				fprintf(stderr,
					"netprobe report: unknown format "
					"'%s': use text, markdown, html, json "
					"or junit\n",
					cl.arg);
				return 2;
			}
			fmt_given = true;
			break;
		case O_OUTPUT:
			out = cl.arg;
			break;
		case O_HTML:
		case O_JUNIT:
		case O_MD:
			if (add_out(outs, &nout,
				    ch == O_HTML    ? REPORT_FMT_HTML
				    : ch == O_JUNIT ? REPORT_FMT_JUNIT
						    : REPORT_FMT_MD,
				    cl.arg))
				return 2;
			break;
		case O_JSON:
		case O_JSONFLAG:
			if (cl.arg == NULL || strcmp(cl.arg, "-") == 0)
				json_stdout = true;
			else if (add_out(outs, &nout, REPORT_FMT_JSON, cl.arg))
				return 2;
			break;
		case O_FAILON:
			if (report_fail_on_parse(cl.arg, &fail_on) < 0) {
				fprintf(stderr,
					"netprobe report: unknown level '%s': "
					"use warning, fault or never\n",
					cl.arg);
				return 2;
			}
			break;
		case O_NOCLOBBER:
			oo.no_clobber = true;
			break;
		case O_ALLOWDUP:
			if (report_dup_parse(cl.arg, &dup) < 0) {
				fprintf(stderr,
					"netprobe report: unknown choice "
					"'%s' for --allow-duplicates: use "
					"first, last or newest\n",
					cl.arg);
				return 2;
			}
			break;
		case O_VERBOSE:
			verbose = true;
			break;
		case O_HELP:
			return cli_help(&report_cmd, stdout) == 0 ? 0 : 2;
		default:
			return cli_usage_error(&report_cmd, stderr, "%s",
					       cl.err);
		}
	}
	if (json_stdout) {
		if (fmt_given && fmt != REPORT_FMT_JSON)
			return cli_usage_error(&report_cmd, stderr,
					       "--json without a file and "
					       "--format both choose the "
					       "format of standard output");
		fmt = REPORT_FMT_JSON;
	}
	nops = cli_operands(&cl, &ops);
	if (nops == 0)
		return cli_usage_error(&report_cmd, stderr,
				       "no documents given");
	for (int i = 0; i < nops; i++) {
		if (report_load_path(&set, ops[i]) < 0) {
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
	if (report_dedupe(&set, dup, stderr, why, sizeof(why)) < 0) {
		fprintf(stderr, "netprobe report: %s\n", why);
		report_set_free(&set);
		return 2;
	}
	/* an output must not replace a document it was built from */
	inputs = calloc(set.nin + set.nskip + (size_t)nops + 1,
			sizeof(*inputs));
	if (inputs == NULL) {
		fprintf(stderr, "netprobe report: out of memory\n");
		report_set_free(&set);
		return 2;
	}
	m = report_build(&set);
	rc = 0;
	if (m != NULL)
		report_set_verbose(m, verbose);
	if (m != NULL)
		rc = emit_all(m, &set, ops, nops, outs, nout, out, fmt,
			      fail_on, &oo, inputs);
	free(inputs);
	report_set_free(&set);
	if (m == NULL) {
		fprintf(stderr, "netprobe report: out of memory\n");
		return 2;
	}
	if (rc == 0)
		rc = report_gate(m, fail_on);
	report_model_free(m);
	return rc;
}
