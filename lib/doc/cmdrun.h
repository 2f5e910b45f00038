/* The command runtime: one object per run of a command (its name, its
 * document, --json/-q, the output path) and the one way every command
 * reports an error and finishes. A command is parse -> collect -> decide
 * -> finish: cmd_init, its option table (base/cli.h), its probes and
 * deciders filling run.doc, then cmd_finish.
 *
 * The one error rule (CONTRIBUTING.md, "Errors and exit status"): an
 * error is one line "TOOL CMD: what failed 'subject': why" on the run's
 * error stream, and the same message is one {step, message} entry of the
 * document's `errors` whenever the run has its document; the document is
 * still written where it goes (-o FILE, else standard output under
 * --json) with what was measured before the error.
 *
 * It lives in lib/doc, not lib/base, because it holds the document
 * (doc/doc.h), which base may not use. Like base/cli.h it writes only to
 * the streams its caller gives it (lib/ never chooses to print). */
#ifndef NP_CMDRUN_H
#define NP_CMDRUN_H

#include <stdbool.h>
#include <stdio.h>

#include "base/cli.h"
#include "base/outfile.h"
#include "doc/doc.h"

/* One command of a program with commands (netprobe): its name, its entry
 * point (argv as main's, argv[0] its name; returns the exit status), one
 * line for the program's --help, and its place in that list. */
struct cmd_command {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
	int order;
};

/* Registers a command beside its entry point: the program's table
 * (cmd_commands) gathers every one linked in, as the unit suites are
 * gathered, so adding a command edits no list. One line at file scope:
 * CMD_COMMAND(ports, cmd_ports, 50, "test TCP and UDP ports on a peer"); */
#define CMD_COMMAND(id, fn, ord, sum)                                      \
	static const struct cmd_command cmd_command_##id = {#id, (fn), (sum), \
							    (ord)};            \
	static const struct cmd_command *const cmd_command_at_##id           \
	    __attribute__((used, section("cmd_commands"))) = &cmd_command_##id

/* The commands linked into this program into v[0..cap), by order, then
 * name. Returns how many there are: 0 in a program without (ncclcheck);
 * more than cap means v holds the first cap. */
size_t cmd_commands(const struct cmd_command **v, size_t cap);

#define CMD_MAX_INPUTS 4
#define CMD_NCOMMON 5 /* --json, -o, --no-clobber, -q, -v */

struct cmd_run {
	const char *tool;   /* "netprobe", "ncclcheck" */
	const char *name;   /* "ports"; NULL for a tool without commands */
	struct doc doc;	    /* its document; root NULL: none built */
	/* the options every command takes (cmd_cli), netprobe(1) COMMON
	 * OPTIONS: */
	bool json;	    /* --json: the document on the result stream */
	bool quiet;	    /* -q: no text for people; errors, and what
			     * --json, -o or --export ask for, still */
	const char *output; /* -o FILE: the document there; NULL for none */
	bool no_clobber;    /* --no-clobber: never replace an output file */
	int verbose;	    /* -v: more detail on stderr, -vv more still */
	struct cli_opt common[CMD_NCOMMON]; /* their entries, bound here */
	const char *inputs[CMD_MAX_INPUTS]; /* files read: -o may not be one */
	size_t ninputs;
	FILE *out; /* the result: standard output; NULL: none */
	FILE *err; /* the errors: standard error; NULL: silent (a run
		    * inside another command, whose errors only its
		    * document keeps) */
	int nfail; /* cmd_fail calls so far */
};

/* Prepares a run of tool's command name writing its result to out and
 * its errors to err, before its options are read: no document yet
 * (cmd_doc). Cannot fail. */
void cmd_begin(struct cmd_run *r, const char *tool, const char *name,
	       FILE *out, FILE *err);

/* Starts parsing argv with cmd's options and the runtime's common ones,
 * whose values go into r (json, output, no_clobber, quiet, verbose): a
 * command's switch never sees them. r was begun (cmd_begin); the
 * command's --help prints cl->cmd, which lists both. Returns as
 * cli_start_common. */
int cmd_cli(struct cmd_run *r, struct cli *cl, const struct cli_cmd *cmd,
	    int argc, char **argv);

/* The common options' check once the command line is read: -o FILE
 * under --no-clobber is refused now when FILE exists, before anything is
 * measured (a responder or a watch could otherwise run for days, then
 * fail); the write at the end checks again. Returns 0, or 2 (reported:
 * "refusing to replace 'FILE': it exists (--no-clobber)"). */
int cmd_parsed(struct cmd_run *r);

/* Builds a begun run's document. Returns 0, or -1 with errno ENOMEM:
 * the run still reports errors and finishes, without a document. */
int cmd_doc(struct cmd_run *r);

/* Starts a run of tool's command name (NULL for none) writing its result
 * to out and its errors to err (stdout and stderr; a test gives memory
 * streams), and its document. Returns 0, or -1 with errno ENOMEM when the
 * document could not be built: the run still reports errors
 * (cmd_fail) and finishes (cmd_finish), without a document. */
int cmd_init(struct cmd_run *r, const char *tool, const char *name,
	     FILE *out, FILE *err);

/* A file this run reads (a token file, a capture): -o naming it is
 * refused rather than destroying it. NULL is ignored. Returns 0, or -1
 * with errno ENOSPC beyond CMD_MAX_INPUTS. */
int cmd_input(struct cmd_run *r, const char *path);

/* Reports an error in the one wording: "TOOL CMD: WHAT 'SUBJECT': WHY"
 * (no quotes nor subject when subject is NULL, no ": WHY" when why_fmt is
 * NULL), on r->err and, when the run has its document, as an `errors`
 * entry whose step is `step` ("sysroot", "netlink", "options"). Returns
 * 2, the exit status of a run that could not run, so that a caller may
 * `return cmd_finish(r, cmd_fail(...))`; a caller that carries on (a
 * part failed, the rest was measured) ignores it. */
int cmd_fail(struct cmd_run *r, const char *step, const char *what,
	     const char *subject, const char *why_fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* cmd_fail for a message that names no subject, formatted whole:
 * "out of memory", "no peer answered". Returns 2. */
int cmd_failf(struct cmd_run *r, const char *step, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A line in the same wording that is no error: "TOOL CMD: MESSAGE" on
 * r->err only (a notice in text mode whose fact the document already
 * holds as a finding: "no route to 'gpu2'"). A command leaves out
 * under -q (r->quiet) the notes that are no errors. */
void cmd_note(struct cmd_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The exit status the document gives: 2 when !ran, 1 when it holds a
 * fault, else 0 (doc_exit_status; 2 without a document). */
int cmd_status(const struct cmd_run *r, bool ran);

/* Writes the document to r->output when set (through outfile: atomically,
 * never over one of the run's inputs, --no-clobber kept), else to r->out
 * under --json (a command writes its text to r->out before), flushes
 * r->out and checks it was written (fflush, ferror), reports any failure
 * (cmd_fail) and releases the document. Returns rc, or 2 when a write
 * failed. */
int cmd_finish(struct cmd_run *r, int rc);

#endif
