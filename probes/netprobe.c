/* netprobe: one command table dispatching to the probe subcommands, as
 * git.c does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{"scan", cmd_scan, "diagnose this node and recommend an interface"},
	{"ifaces", cmd_ifaces, "list interfaces, addresses and routes"},
	{"layers", cmd_layers, "find container, WSL, NAT and bridge layering"},
	{"serve", cmd_serve, "run the responder that peers probe"},
	{"ports", cmd_ports, "test TCP and UDP ports on a peer"},
	{"heartbeat", cmd_heartbeat, "measure latency over a held connection"},
	{"path", cmd_path, "route and path MTU toward a peer"},
	{"capture", cmd_capture, "capture and summarise packets"},
	{"mesh", cmd_mesh, "test every node against every other, one per node"},
	{"report", cmd_report, "merge documents into one cluster report"},
};

/* Usage goes to stdout for --help (exit 0), stderr for misuse (exit 2). */
static void usage(FILE *fp)
{
	fprintf(fp, "usage: netprobe [-hV] command [options] [args]\n\n"
		    "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(fp, "\n'netprobe COMMAND --help' describes a command; "
		    "see netprobe(1).\n");
}

int main(int argc, char **argv)
{
	const char *name;
	int rc;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	name = argv[1];
	if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 ||
	    strcmp(name, "help") == 0) {
		usage(stdout);
		return fflush(stdout) == 0 ? 0 : 2;
	}
	if (strcmp(name, "-V") == 0 || strcmp(name, "--version") == 0) {
		printf("netprobe %s\n", NETPROBE_VERSION);
		return fflush(stdout) == 0 ? 0 : 2;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(name, commands[i].name) != 0)
			continue;
		rc = commands[i].fn(argc - 1, argv + 1);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "netprobe: error writing output\n");
			return 2;
		}
		return rc;
	}
	fprintf(stderr, "netprobe: unknown command '%s'\n", name);
	usage(stderr);
	return 2;
}
