/* netprobe scan's command line: the option table and the combinations. */
#include <stdio.h>
#include <string.h>

#include "base/cli.h"
#include "scan/scan_int.h"

enum {
	O_JSON = 'j',
	O_TOKEN = 'k',
	O_HELP = 'h',
	O_EXPORT = 256,
	O_RANK0,
	O_SYSROOT,
	O_PEER,
	O_QUICK,
};

static const struct cli_opt scan_optv[] = {
	CLI_OPT_JSON(O_JSON),
	{O_EXPORT, 0, "export", CLI_FLAG, NULL, NULL,
	 "print only `export NAME=value` lines for eval", false},
	{O_RANK0, 0, "rank0", CLI_FLAG, NULL, NULL,
	 "with --export: rank 0 runs here, export MASTER_ADDR", false},
	{O_SYSROOT, 0, "sysroot", CLI_REQUIRED, "DIR", NULL,
	 "replay a node recorded under DIR instead of this one", false},
	{O_PEER, 0, "peer", CLI_REQUIRED, "HOST[:PORT]", NULL,
	 "probe the responder there (repeatable)", false},
	{O_QUICK, 0, "quick", CLI_FLAG, NULL, NULL,
	 "with --peer: no heartbeat, no path MTU search", false},
	{O_TOKEN, 'k', "token-file", CLI_REQUIRED, "FILE", NULL,
	 "the responders' shared secret, one line", false},
	CLI_OPT_HELP,
};

static const struct cli_cmd scan_cmd = {
	"netprobe scan", "[options]",
	"Diagnose this node and recommend the interface for NCCL, Gloo, torch, "
	"Ray\nand Open MPI.",
	scan_optv, sizeof(scan_optv) / sizeof(scan_optv[0]),
	"A peer's port is 7470 unless given. Each peer takes at most 11 "
	"seconds (NAT,\ninbound, RTT, path MTU); peers are probed one after "
	"another.\n",
};

/* The options in GNU order, then the combinations: --quick and
 * --token-file need --peer, --rank0 needs --export, --json and --export
 * exclude each other. */
int scan_parse(int argc, char **argv, struct scan_opts *o)
{
	struct cli cl;
	char **ops;
	int ch;

	memset(o, 0, sizeof(*o));
	cli_start(&cl, &scan_cmd, argc, argv);
	while ((ch = cli_next(&cl)) != CLI_END) {
		switch (ch) {
		case O_JSON:
			o->json = true;
			break;
		case O_EXPORT:
			o->export = true;
			break;
		case O_RANK0:
			o->rank0 = true;
			break;
		case O_SYSROOT:
			o->sysroot = cl.arg;
			break;
		case O_PEER:
			if (o->npeers >= SCAN_MAX_PEERS)
				return cli_usage_error(
				    &scan_cmd, stderr,
				    "too many peers '%s': at most %d", cl.arg,
				    SCAN_MAX_PEERS);
			o->peers[o->npeers++] = cl.arg;
			break;
		case O_QUICK:
			o->quick = true;
			break;
		case O_TOKEN:
			o->token_file = cl.arg;
			break;
		case O_HELP:
			return cli_help(&scan_cmd, stdout) == 0 ? 1 : 2;
		default:
			return cli_usage_error(&scan_cmd, stderr, "%s", cl.err);
		}
	}
	if (cli_operands(&cl, &ops) > 0)
		return cli_usage_error(&scan_cmd, stderr,
		                       "unexpected operand '%s'", ops[0]);
	if ((o->quick || o->token_file != NULL) && o->npeers == 0)
		return cli_usage_error(&scan_cmd, stderr,
		                       "option '%s' needs --peer",
		                       o->quick ? "--quick" : "--token-file");
	if (o->rank0 && !o->export)
		return cli_usage_error(&scan_cmd, stderr,
		                       "option '--rank0' needs --export");
	if (o->json && o->export)
		return cli_usage_error(
		    &scan_cmd, stderr,
		    "--json and --export exclude each other");
	return 0;
}
