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
#include "doc/cmdrun.h"
#include "report.h"

enum {
	O_FORMAT = 'f',
	O_OUTPUT = 'o',
	O_HELP = 'h',
	O_DOC_TO = 256,
	O_HTML,
	O_JUNIT,
	O_MD,
	O_FAILON,
	O_ALLOWDUP,
};

/* -j is the run's --json (r->json); --json takes a FILE here, which the
 * other commands' --json does not. */
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
	{O_DOC_TO, 0, "json", CLI_OPTIONAL, "FILE", NULL,
	 "also write the merged JSON to FILE; alone: -j", false},
	{O_FAILON, 0, "fail-on", CLI_REQUIRED, "LEVEL", "fault",
	 "exit 1 from: warning, fault, never", false},
	{O_ALLOWDUP, 0, "allow-duplicates", CLI_REQUIRED, "WHICH", NULL,
	 "two snapshots of one node: keep first, last or newest", false},
	CLI_OPT_HELP,
};

static const struct cli_cmd report_cmd = {
	"netprobe report", "[options] FILE|DIR...",
	"Merge every node's netprobe and ncclcheck documents into one report.",
	report_optv, sizeof(report_optv) / sizeof(report_optv[0]),
	"The report goes to standard output (or -o) in --format, and at once to "
	"each\nfile named by --html, --junit, --markdown and --json. -j is "
	"--format json;\n-v: every pair of the matrix and every citation; -q: "
	"no text on standard\noutput, the exit status is the gate.\n",
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
		struct cmd_run *run, const struct outfile_opts *oo)
{
	const char *nc = getenv("NO_COLOR");
	struct outfile of;
	int rc;

	if (path == NULL || strcmp(path, "-") == 0) {
		bool colour = f == REPORT_FMT_TEXT &&
			      cli_color(isatty(STDOUT_FILENO), nc);

		rc = render(m, stdout, f, colour, fail_on);
		if (rc < 0 || fflush(stdout) == EOF || ferror(stdout)) {
			cmd_fail(run, "output", "cannot write",
				 "standard output", NULL);
			return -1;
		}
		return 0;
	}
	if (outfile_open(&of, path, oo) < 0) {
		cmd_failf(run, "output", "%s", of.why);
		return -1;
	}
	errno = 0;
	if (render(m, of.fp, f, false, fail_on) < 0) {
		int err = errno ? errno : EIO;

		outfile_abort(&of);
		cmd_fail(run, "output", "cannot write", path, "%s",
			 strerror(err));
		return -1;
	}
	if (outfile_close(&of) < 0) {
		cmd_failf(run, "output", "%s", of.why);
		return -1;
	}
	return 0;
}

/* The command line: the formats and where each goes, the gate, the
 * duplicates' policy, the operands. */
struct report_cli {
	enum report_format fmt;
	enum report_fail_on fail_on;
	const char *out;
	struct report_out outs[8];
	int nout;
	bool fmt_given, json_stdout;
	struct outfile_opts oo;
	enum report_dup dup;
	char **ops;
	int nops;
};

/* Adds a file output; returns 2 (reported) when full. */
static int add_out(struct cmd_run *run, struct report_cli *c, int format,
		   const char *path)
{
	if (c->nout >= 8)
		return cmd_fail(run, "options", "at most 8 outputs", NULL,
		                NULL);
	c->outs[c->nout].format = format;
	c->outs[c->nout++].path = path;
	return 0;
}

/* Writes every output, the files first: one that cannot be written loses
 * none of the others. inputs has room for every path of the set and the
 * operands. Returns 0, or 2 when one could not be written. */
static int emit_all(struct cmd_run *run, const struct report_model *m,
		    const struct report_set *set, struct report_cli *c,
		    const char **inputs)
{
	size_t n = 0;
	int rc = 0;

	for (size_t i = 0; i < set->nin; i++)
		inputs[n++] = set->in[i].path;
	for (size_t i = 0; i < set->nskip; i++)
		inputs[n++] = set->skip[i].path;
	for (int i = 0; i < c->nops; i++)
		inputs[n++] = c->ops[i];
	c->oo.inputs = inputs;
	c->oo.ninputs = n;
	c->oo.no_clobber = run->no_clobber;
	for (int i = 0; i < c->nout; i++)
		if (report_emit(m, c->outs[i].path,
				(enum report_format)c->outs[i].format,
				c->fail_on, run, &c->oo) < 0)
			rc = 2;
	/* -q: no text for people on standard output, only the gate */
	if (run->quiet && c->out == NULL && c->fmt == REPORT_FMT_TEXT)
		return rc;
	if (report_emit(m, c->out, c->fmt, c->fail_on, run, &c->oo) < 0)
		rc = 2;
	return rc;
}

/* One option into c. Returns 0, 1 after --help, or 2 (reported). */
static int report_take(struct cmd_run *run, struct report_cli *c,
		       const struct cli *cl, int ch)
{
	switch (ch) {
	case O_FORMAT:
		c->fmt_given = true;
		if (report_format_parse(cl->arg, &c->fmt) < 0)
			return cmd_fail(run, "options", "unknown format",
					cl->arg,
					"use text, markdown, html, json or "
					"junit");
		return 0;
	case O_OUTPUT:
		c->out = cl->arg;
		return 0;
	case O_HTML:
		return add_out(run, c, REPORT_FMT_HTML, cl->arg);
	case O_JUNIT:
		return add_out(run, c, REPORT_FMT_JUNIT, cl->arg);
	case O_MD:
		return add_out(run, c, REPORT_FMT_MD, cl->arg);
	case O_DOC_TO:
		if (cl->arg != NULL && strcmp(cl->arg, "-") != 0)
			return add_out(run, c, REPORT_FMT_JSON, cl->arg);
		c->json_stdout = true;
		return 0;
	case O_FAILON:
		if (report_fail_on_parse(cl->arg, &c->fail_on) < 0)
			return cmd_fail(run, "options", "unknown level",
					cl->arg, "use warning, fault or never");
		return 0;
	case O_ALLOWDUP:
		if (report_dup_parse(cl->arg, &c->dup) < 0)
			return cmd_fail(run, "options", "unknown choice",
					cl->arg,
					"for --allow-duplicates: use first, "
					"last or newest");
		return 0;
	case O_HELP:
		return cli_help(cl->cmd, stdout) == 0 ? 1 : 2;
	default:
		return cli_usage_error(&report_cmd, stderr, "%s", cl->err);
	}
}

/* The options in GNU order, their combination, the operands. Returns 0,
 * 1 after --help, or 2 (reported). */
static int report_parse(struct cmd_run *run, int argc, char **argv,
			struct report_cli *c)
{
	struct cli cl;
	int ch, rc;

	memset(c, 0, sizeof(*c));
	c->fmt = REPORT_FMT_TEXT;
	c->fail_on = REPORT_FAIL_FAULT;
	c->dup = REPORT_DUP_REFUSE;
	cmd_cli(run, &cl, &report_cmd, argc, argv);
	while ((ch = cli_next(&cl)) != CLI_END)
		if ((rc = report_take(run, c, &cl, ch)) != 0)
			return rc;
	if (run->json)
		c->json_stdout = true; /* -j */
	if (c->json_stdout) {
		if (c->fmt_given && c->fmt != REPORT_FMT_JSON)
			return cli_usage_error(&report_cmd, stderr,
					       "--json without a file and "
					       "--format both choose the "
					       "format of standard output");
		c->fmt = REPORT_FMT_JSON;
	}
	c->nops = cli_operands(&cl, &c->ops);
	if (c->nops == 0)
		return cli_usage_error(&report_cmd, stderr,
				       "no documents given");
	return 0;
}

/* Load: every operand into set, what was skipped and why, duplicates
 * settled. Returns 0, or 2 (reported). */
static int report_collect(struct cmd_run *run, const struct report_cli *c,
			  struct report_set *set)
{
	char why[1024];

	for (int i = 0; i < c->nops; i++) {
		if (report_load_path(set, c->ops[i]) == 0)
			continue;
		/* every document is read or the report refused: a bound
		 * never drops one in silence (issue 45) */
		if (errno == E2BIG)
			return cmd_fail(run, "load", "first document not read",
					set->over,
					"%s in all: make one report per part "
					"of the cluster",
					set->overwhy);
		return cmd_fail(run, "load", "out of memory", NULL, NULL);
	}
	for (size_t i = 0; i < set->nskip; i++) {
		const struct report_skip *k = &set->skip[i];

		if (k->line > 0)
			cmd_note(run,
				 "skipped '%s' at line %d, column %d (byte "
				 "%ld): %s",
				 k->path, k->line, k->column, k->position,
				 k->why);
		else
			cmd_note(run, "skipped '%s': %s", k->path, k->why);
	}
	if (set->nin == 0)
		return cmd_fail(run, "load",
		                "no usable document among the files given",
		                NULL, NULL);
	if (report_dedupe(set, c->dup, run, why, sizeof(why)) < 0)
		return cmd_failf(run, "load", "%s", why);
	return 0;
}

/* Decide and emit: the model of the set, every output, the gate. Returns
 * the exit status. */
static int report_decide_emit(struct cmd_run *run, struct report_cli *c,
			      struct report_set *set)
{
	struct report_model *m;
	const char **inputs;
	int rc;

	/* an output must not replace a document it was built from */
	inputs = calloc(set->nin + set->nskip + (size_t)c->nops + 1,
			sizeof(*inputs));
	if (inputs == NULL)
		return cmd_fail(run, "report", "out of memory", NULL, NULL);
	m = report_build(set);
	if (m == NULL) {
		free(inputs);
		return cmd_fail(run, "report", "out of memory", NULL, NULL);
	}
	report_set_verbose(m, run->verbose > 0);
	rc = emit_all(run, m, set, c, inputs);
	free(inputs);
	if (rc == 0)
		rc = report_gate(m, c->fail_on);
	report_model_free(m);
	return rc;
}

/* netprobe report: parse -> load -> decide and emit -> finish. The run
 * has no document of its own (the report is its outputs): it says the
 * errors and checks standard output. */
int cmd_report(int argc, char **argv)
{
	struct report_set set = {0};
	struct report_cli c;
	struct cmd_run run;
	int rc;

	cmd_begin(&run, "netprobe", "report", stdout, stderr);
	rc = report_parse(&run, argc, argv, &c);
	if (rc != 0)
		return cmd_finish(&run, rc == 1 ? 0 : 2);
	rc = report_collect(&run, &c, &set);
	if (rc == 0)
		rc = report_decide_emit(&run, &c, &set);
	report_set_free(&set);
	return cmd_finish(&run, rc);
}

CMD_COMMAND(report, cmd_report, 110, "merge documents into one cluster report");
