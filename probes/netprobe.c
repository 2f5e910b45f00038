/* netprobe: one command table dispatching to the probe subcommands, as
 * git.c does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "doc/cmdrun.h"

/* The commands: each registers itself beside its entry point
 * (CMD_COMMAND, doc/cmdrun.h), so this file lists none. */
#define MAX_COMMANDS 64

static const struct cmd_command *commands[MAX_COMMANDS];
static size_t ncommands;

/* Usage goes to stdout for --help (exit 0), stderr for misuse (exit 2). */
static void usage(FILE *fp)
{
	fprintf(fp, "usage: netprobe [-hV] COMMAND [options] [operands]\n\n"
		    "commands:\n");
	for (size_t i = 0; i < ncommands; i++)
		fprintf(fp, "  %-10s %s\n", commands[i]->name,
			commands[i]->summary);
	fprintf(fp, "\n'netprobe COMMAND --help' (or 'netprobe help COMMAND') "
		    "describes a command;\nsee netprobe(1).\n");
}

/* "netprobe help CMD" is "netprobe CMD --help". */
static int help_of(const char *name)
{
	for (size_t i = 0; i < ncommands; i++) {
		char *argv[] = {(char *)commands[i]->name, (char *)"--help",
				NULL};

		if (strcmp(name, commands[i]->name) == 0)
			return commands[i]->main(2, argv);
	}
	return -1;
}

/* A misspelt command: the closest name, if one is close. */
static void unknown_command(struct cmd_run *top, const char *name)
{
	const char *names[MAX_COMMANDS];
	const char *best;

	for (size_t i = 0; i < ncommands; i++)
		names[i] = commands[i]->name;
	best = cli_closest(name, names, ncommands);
	if (best)
		cmd_note(top, "unknown command '%s' (did you mean '%s'?)",
			 name, best);
	else
		cmd_note(top, "unknown command '%s'", name);
	fprintf(stderr, "Try 'netprobe --help' for the list of commands.\n");
}

int main(int argc, char **argv)
{
	/* the dispatcher's own messages: the runtime's wording, no document */
	struct cmd_run top = {.tool = "netprobe", .out = stdout, .err = stderr};
	const char *name;
	int rc = -1;

	ncommands = cmd_commands(commands, MAX_COMMANDS);
	if (ncommands > MAX_COMMANDS)
		ncommands = MAX_COMMANDS;
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	name = argv[1];
	if (strcmp(name, "help") == 0 && argc > 2) {
		rc = help_of(argv[2]);
		if (rc < 0) {
			unknown_command(&top, argv[2]);
			return 2;
		}
	} else if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 ||
		   strcmp(name, "help") == 0) {
		usage(stdout);
		rc = 0;
	} else if (strcmp(name, "-V") == 0 || strcmp(name, "--version") == 0) {
		printf("netprobe %s\n", NETPROBE_VERSION);
		rc = 0;
	} else if (name[0] == '-') {
		cmd_note(&top, "unknown option '%s': options come after the "
			 "command", name);
		fprintf(stderr,
			"Try 'netprobe --help' for the list of commands.\n");
		return 2;
	}
	for (size_t i = 0; rc < 0 && i < ncommands; i++)
		if (strcmp(name, commands[i]->name) == 0)
			rc = commands[i]->main(argc - 1, argv + 1);
	if (rc < 0) {
		unknown_command(&top, name);
		return 2;
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		return cmd_fail(&top, "output", "error writing output", NULL,
		                NULL);
	return rc;
}
