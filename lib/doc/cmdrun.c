/* The command runtime: the one error wording, the one rule for the
 * document's `errors`, and the one way a run's output is written. */
#include "doc/cmdrun.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

void cmd_begin(struct cmd_run *r, const char *tool, const char *name,
	       FILE *out, FILE *err)
{
	memset(r, 0, sizeof(*r));
	r->tool = tool;
	r->name = name;
	r->out = out;
	r->err = err;
}

int cmd_cli(struct cmd_run *r, struct cli *cl, const struct cli_cmd *cmd,
	    int argc, char **argv)
{
	const struct cli_opt common[CMD_NCOMMON] = {
	    {0, 'j', "json", CLI_FLAG, NULL, NULL,
	     "print one JSON document instead of text", false,
	     CLI_TO(BOOL, &r->json)},
	    {0, 'o', "output", CLI_REQUIRED, "FILE", NULL,
	     "also write the JSON document to FILE, atomically", false,
	     CLI_TO(STR, &r->output)},
	    {0, 0, "no-clobber", CLI_FLAG, NULL, NULL,
	     "with -o: refuse to replace an existing file", false,
	     CLI_TO(BOOL, &r->no_clobber)},
	    {0, 'q', "quiet", CLI_FLAG, NULL, NULL,
	     "no text for people: only errors (and --json, -o)", false,
	     CLI_TO(BOOL, &r->quiet)},
	    {0, 'v', "verbose", CLI_FLAG, NULL, NULL,
	     "more detail on standard error (-vv: more still)", false,
	     CLI_TO(COUNT, &r->verbose)},
	};

	memcpy(r->common, common, sizeof(common));
	return cli_start_common(cl, cmd, r->common, CMD_NCOMMON, argc, argv);
}

int cmd_parsed(struct cmd_run *r)
{
	struct stat st;

	/* a device or a FIFO is written in place, never replaced */
	if (r->output != NULL && r->no_clobber && stat(r->output, &st) == 0 &&
	    S_ISREG(st.st_mode))
		return cmd_fail(r, "output", "refusing to replace", r->output,
				"it exists (--no-clobber)");
	return 0;
}

int cmd_doc(struct cmd_run *r)
{
	if (doc_init(&r->doc, r->tool, r->name) < 0) {
		doc_free(&r->doc);
		memset(&r->doc, 0, sizeof(r->doc));
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int cmd_init(struct cmd_run *r, const char *tool, const char *name,
	     FILE *out, FILE *err)
{
	cmd_begin(r, tool, name, out, err);
	return cmd_doc(r);
}

int cmd_input(struct cmd_run *r, const char *path)
{
	if (path == NULL)
		return 0;
	if (r->ninputs >= CMD_MAX_INPUTS) {
		errno = ENOSPC;
		return -1;
	}
	r->inputs[r->ninputs++] = path;
	return 0;
}

/* The one line: "TOOL CMD: MSG" (or "TOOL: MSG"). */
static void cmd_line(struct cmd_run *r, const char *msg)
{
	if (r->err == NULL)
		return;
	if (r->name != NULL)
		fprintf(r->err, "%s %s: %s\n", r->tool, r->name, msg);
	else
		fprintf(r->err, "%s: %s\n", r->tool, msg);
}

void cmd_note(struct cmd_run *r, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cmd_line(r, msg);
}

/* Writes msg once: the error line and, with a document, its entry. */
static int cmd_error_once(struct cmd_run *r, const char *step, const char *msg)
{
	cmd_line(r, msg);
	/* a failed entry loses nothing the line did not say */
	if (r->doc.root != NULL)
		(void)doc_add_error(&r->doc, step, "%s", msg);
	r->nfail++;
	return 2;
}

int cmd_fail(struct cmd_run *r, const char *step, const char *what,
	     const char *subject, const char *why_fmt, ...)
{
	char msg[1024], why[768];
	va_list ap;

	why[0] = '\0';
	if (why_fmt != NULL) {
		va_start(ap, why_fmt);
		vsnprintf(why, sizeof(why), why_fmt, ap);
		va_end(ap);
	}
	snprintf(msg, sizeof(msg), "%s%s%s%s%s%s", what,
		 subject ? " '" : "", subject ? subject : "",
		 subject ? "'" : "", why_fmt ? ": " : "", why);
	return cmd_error_once(r, step, msg);
}

int cmd_failf(struct cmd_run *r, const char *step, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return cmd_error_once(r, step, msg);
}

int cmd_status(const struct cmd_run *r, bool ran)
{
	if (r->doc.root == NULL)
		return 2;
	return doc_exit_status(&r->doc, ran);
}

/* -o: the document through outfile. Returns 0, or -1 (reported). */
static int cmd_write_file(struct cmd_run *r)
{
	struct outfile_opts oo = {.no_clobber = r->no_clobber,
				  .inputs = r->inputs,
				  .ninputs = r->ninputs};
	char why[512];

	if (doc_write_output(&r->doc, r->output, &oo, why, sizeof(why)) < 0) {
		cmd_failf(r, "output", "%s", why);
		return -1;
	}
	return 0;
}

int cmd_finish(struct cmd_run *r, int rc)
{
	if (r->doc.root != NULL && r->output != NULL) {
		if (cmd_write_file(r) < 0)
			rc = 2;
	} else if (r->doc.root != NULL && r->json && r->out != NULL) {
		errno = 0;
		if (doc_write(&r->doc, r->out) < 0) {
			cmd_fail(r, "output", "cannot write", "stdout", "%s",
				 strerror(errno ? errno : EIO));
			rc = 2;
		}
	}
	errno = 0;
	if (r->out != NULL && (fflush(r->out) == EOF || ferror(r->out))) {
		cmd_fail(r, "output", "cannot write", "stdout", "%s",
			 strerror(errno ? errno : EIO));
		rc = 2;
	}
	doc_free(&r->doc);
	memset(&r->doc, 0, sizeof(r->doc));
	return rc;
}
