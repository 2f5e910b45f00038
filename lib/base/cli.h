/* Command lines from one table per command: getopt_long's arrays, --help,
 * "did you mean" and every option error come from the same table, so the
 * help, the parser and the man page (tests/cli) cannot drift apart. */
#ifndef NP_CLI_H
#define NP_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum cli_arg {
	CLI_FLAG,     /* takes no argument */
	CLI_REQUIRED, /* --name ARG, --name=ARG, -x ARG, -xARG */
	/* A flag, or takes the next word when that word is no option and
	 * not "--" ("-" is a word): `--json` or `--json FILE`. Long only;
	 * for programs whose operands cannot follow it by mistake. */
	CLI_OPTIONAL,
};

/* What a numeric option's argument is; cli_next parses it with the checked
 * parsers of base/parse.h into cli.num, within [min, max] of its entry, and
 * refuses a bad one with one wording for every command:
 * "invalid duration '5x' for --interval: not a number (1ms to 10m)". */
enum cli_unit {
	CLI_UNIT_NONE = 0, /* no number: the command reads cli.arg itself */
	CLI_UNIT_COUNT,	   /* a whole number: "1 to 65535" */
	CLI_UNIT_PORT,	   /* a TCP or UDP port number */
	CLI_UNIT_PERCENT,  /* a whole percentage: "0 to 100%" */
	CLI_UNIT_SECONDS,  /* whole seconds: "1 to 600 seconds" */
	CLI_UNIT_DURATION, /* "250ms", "5s" (bare: seconds), in microseconds */
	CLI_UNIT_BYTES,	   /* "64K", "1M" (powers of 1024), in bytes */
};

/* Where an option's value goes, as git's OPT_BOOL(..., &var, ...): an
 * entry with a destination is stored there by cli_next, which then goes on
 * to the next option, so the command's switch never sees it. */
enum cli_kind {
	CLI_KIND_NONE = 0, /* no destination: cli_next returns the key */
	CLI_KIND_BOOL,	   /* bool, set true (a CLI_FLAG) */
	CLI_KIND_COUNT,	   /* int, one more each time given (-v -v) */
	CLI_KIND_STR,	   /* const char *, the argument (CLI_REQUIRED) */
	CLI_KIND_INT,	   /* int, a numeric option's value */
	CLI_KIND_UINT,	   /* unsigned, a numeric option's value (min >= 0) */
	CLI_KIND_LLONG,	   /* long long, a numeric option's value */
};

/* One option. Several entries may share a key: the first is the option,
 * the others old spellings kept as aliases (alias set), listed by --help
 * and the man page as such. The unit and range members give a numeric
 * option's unit and range (an alias without them takes its option's);
 * an entry that leaves them out takes no number. kind and dest, given by
 * name (CLI_TO), say where the value goes; an entry with a destination
 * may have key 0, and an alias without one stores to its option's. */
struct cli_opt {
	int key;	   /* what cli_next returns; any value but 0, -1, -2 */
	char letter;	   /* short option, 0 if none */
	const char *name;  /* long option without "--", NULL if none */
	enum cli_arg arg;  /* argument kind */
	const char *meta;  /* the argument's placeholder ("FILE"), or NULL */
	const char *def;   /* default shown by --help, or NULL */
	const char *help;  /* one line, lower case, no full stop */
	bool alias;	   /* an old spelling of the option with this key */
	enum cli_unit unit; /* CLI_UNIT_NONE: not a number */
	long long min;	    /* the range in the unit's value (us, bytes, */
	long long max;	    /* seconds...), both ends included */
	enum cli_kind kind; /* CLI_KIND_NONE: returned to the caller */
	void *dest;	    /* the variable of that kind */
};

/* The destination of an entry, after its other members: {0, 'n', "name",
 * CLI_FLAG, NULL, NULL, "help", false, CLI_TO(BOOL, &o->flag)}. A numeric
 * option gives its range before: ..., false, CLI_RANGE(CLI_UNIT_COUNT, 1,
 * 9), CLI_TO(INT, &o->n)}. */
#define CLI_TO(k, ptr) .kind = CLI_KIND_##k, .dest = (ptr)

/* The unit and range members of an entry: {..., false, CLI_RANGE(
 * CLI_UNIT_PORT, 1, 65535)}. */
#define CLI_RANGE(unit, min, max) (unit), (min), (max)

/* One command: "netprobe ports", what follows the name in its synopsis,
 * one line on what it does, its options, and text printed after them.
 * ncommon: how many of the last opts are the options every command takes
 * (cli_start_common sets it; --help lists them apart). */
struct cli_cmd {
	const char *name;
	const char *synopsis;
	const char *summary;
	const struct cli_opt *opts;
	size_t nopts;
	const char *more;
	size_t ncommon;
};

/* The option every command spells the same way; --json and the other
 * common ones belong to a runtime (cli_start_common, doc/cmdrun.h). */
#define CLI_OPT_HELP                                                       \
	{'h', 'h', "help", CLI_FLAG, NULL, NULL, "print this help and exit", \
	 false}

#define CLI_MAX_OPTS 64
#define CLI_END (-1)
#define CLI_ERROR (-2)

/* The parser's state for one command line; reset by cli_start. cmd is
 * the command's table, or with common options the joined copy in all. */
struct cli {
	const struct cli_cmd *cmd;
	struct cli_cmd joined;
	struct cli_opt all[CLI_MAX_OPTS];
	int argc;
	char **argv;
	struct option longopts[CLI_MAX_OPTS + 1];
	char shortopts[2 + 2 * CLI_MAX_OPTS + 1];
	const struct cli_opt *opt; /* the option cli_next returned */
	const char *arg;	   /* its argument, NULL if none */
	long long num;		   /* a numeric option's value */
	char err[256];		   /* why cli_next returned CLI_ERROR */
	bool bad;		   /* the table is malformed */
};

/* Prepares to parse argv (argv[0] is the command's name) with GNU argument
 * order: options before or after operands, "--" ends them. Resets getopt.
 * Returns 0, or -1 when the table is malformed (too many options, a
 * letter or long name twice, an optional argument on a letter, a numeric
 * option without an argument or with min above max); cli_next
 * then returns CLI_ERROR with the reason, so callers need not check. */
int cli_start(struct cli *c, const struct cli_cmd *cmd, int argc,
	      char **argv);

/* cli_start over cmd's options followed by common[0..ncommon): the
 * options every command of a program takes, which a runtime owns. A
 * command that spells one of them itself (the same long name or letter)
 * keeps its own entry, and the common entry loses that spelling (left
 * out when it has none left). c->cmd is then
 * the joined table: give it to cli_help. Returns as cli_start. */
int cli_start_common(struct cli *c, const struct cli_cmd *cmd,
		     const struct cli_opt *common, size_t ncommon, int argc,
		     char **argv);

/* Returns the key of the next option (its argument in c->arg, its entry in
 * c->opt, a numeric option's value in c->num), CLI_END when the options
 * are done, or CLI_ERROR with c->err set; an option with a destination
 * is stored there and never returned: "unknown option '--jsn' (did
 * you mean '--json'?)", "invalid port '0' for --port: too small (1 to
 * 65535)". */
int cli_next(struct cli *c);

/* The operands, in order, once cli_next returned CLI_END: their count, and
 * the first in *ops. */
int cli_operands(const struct cli *c, char ***ops);

/* Writes --help: the synopsis, the summary, one line per option with its
 * default, then cmd->more. Returns 0, or -1 when fp failed. */
int cli_help(const struct cli_cmd *cmd, FILE *fp);

/* Writes "NAME: MESSAGE" and a pointer to --help to fp (standard error) and
 * returns 2, the exit status of a usage error. */
int cli_usage_error(const struct cli_cmd *cmd, FILE *fp, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Edit distance between a and b (insertions, deletions, substitutions and
 * swaps of neighbours each count one). */
size_t cli_distance(const char *a, const char *b);

/* The name in names[0..n) closest to word, or NULL when none is close
 * enough to be what was meant: at most a third of word's length apart (one
 * to three edits), or the only name that word begins. */
const char *cli_closest(const char *word, const char *const *names,
			size_t n);

/* Colour on output: only on a terminal, and never when NO_COLOR is set to a
 * non-empty value (no-color.org); no_color is getenv("NO_COLOR"). */
bool cli_color(bool is_tty, const char *no_color);

#endif
