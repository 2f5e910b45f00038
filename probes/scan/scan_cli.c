/* netprobe scan's command line: the option table and the combinations. */
#include <stdio.h>
#include <string.h>

#include "base/cli.h"
#include "scan/scan_int.h"

enum { O_HELP = 'h', O_PEER = 256 };

static const struct cli_cmd scan_cmd = {
	"netprobe scan", "[options]",
	"Diagnose this node and recommend the interface for NCCL, Gloo, torch, "
	"Ray\nand Open MPI.",
	NULL, 0,
	"A peer's port is 7470 unless given. Each peer takes at most 11 "
	"seconds (NAT,\ninbound, RTT, path MTU); peers are probed one after "
	"another.\n",
};

/* The options in GNU order (the common ones into r), then the
 * combinations: --quick and --token-file need --peer, --rank0 needs
 * --export, --json and --export exclude each other. */
int scan_parse(struct cmd_run *r, int argc, char **argv, struct scan_opts *o)
{
	const struct cli_opt optv[] = {
	    {0, 0, "export", CLI_FLAG, NULL, NULL,
	     "print only `export NAME=value` lines for eval", false,
	     CLI_TO(BOOL, &o->export)},
	    {0, 0, "rank0", CLI_FLAG, NULL, NULL,
	     "with --export: rank 0 runs here, export MASTER_ADDR", false,
	     CLI_TO(BOOL, &o->rank0)},
	    {0, 0, "sysroot", CLI_REQUIRED, "DIR", NULL,
	     "replay a node recorded under DIR instead of this one", false,
	     CLI_TO(STR, &o->sysroot)},
	    {O_PEER, 0, "peer", CLI_REQUIRED, "HOST[:PORT]", NULL,
	     "probe the responder there (repeatable)", false},
	    {0, 0, "quick", CLI_FLAG, NULL, NULL,
	     "with --peer: no heartbeat, no path MTU search", false,
	     CLI_TO(BOOL, &o->quick)},
	    {0, 'k', "token-file", CLI_REQUIRED, "FILE", NULL,
	     "the responders' shared secret, one line", false,
	     CLI_TO(STR, &o->token_file)},
	    CLI_OPT_HELP,
	};
	struct cli_cmd cmd = scan_cmd;
	struct cli cl;
	char **ops;
	int ch;

	memset(o, 0, sizeof(*o));
	cmd.opts = optv;
	cmd.nopts = sizeof(optv) / sizeof(optv[0]);
	cmd_cli(r, &cl, &cmd, argc, argv);
	while ((ch = cli_next(&cl)) != CLI_END) {
		switch (ch) {
		case O_PEER:
			if (o->npeers >= SCAN_MAX_PEERS)
				return cli_usage_error(
				    &cmd, stderr,
				    "too many peers '%s': at most %d", cl.arg,
				    SCAN_MAX_PEERS);
			o->peers[o->npeers++] = cl.arg;
			break;
		case O_HELP:
			return cli_help(cl.cmd, stdout) == 0 ? 1 : 2;
		default:
			return cli_usage_error(&cmd, stderr, "%s", cl.err);
		}
	}
	if (cli_operands(&cl, &ops) > 0)
		return cli_usage_error(&cmd, stderr,
		                       "unexpected operand '%s'", ops[0]);
	if ((o->quick || o->token_file != NULL) && o->npeers == 0)
		return cli_usage_error(&cmd, stderr,
		                       "option '%s' needs --peer",
		                       o->quick ? "--quick" : "--token-file");
	if (o->rank0 && !o->export)
		return cli_usage_error(&cmd, stderr,
		                       "option '--rank0' needs --export");
	if (r->json && o->export)
		return cli_usage_error(
		    &cmd, stderr,
		    "--json and --export exclude each other");
	return 0;
}
