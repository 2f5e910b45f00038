/* netprobe scan's command line: the usage text, the options and their
 * combinations. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "scan_int.h"

/* Printed by --help (stdout) and after bad usage (stderr). */
static const char usage_text[] =
    "usage: netprobe scan [--json] [--export [--rank0]] [--sysroot dir] "
    "[--quick]\n"
    "                     [--token-file file] [--peer host[:port]]...\n"
    "\n"
    "  --json              write the JSON document (netprobe-json(5))\n"
    "  --export            print only `export NAME=value` lines for eval\n"
    "  --rank0             with --export: rank 0 runs on this node, so "
    "export\n"
    "                      MASTER_ADDR too (else it is a comment)\n"
    "  --sysroot dir       read /proc, /sys and /etc from a recorded tree\n"
    "  --peer host[:port]  probe the `netprobe serve` on this peer "
    "(repeatable;\n"
    "                      port 7470 unless given): NAT, inbound, RTT, "
    "path MTU\n"
    "  --quick             with --peer: no heartbeat and no path MTU "
    "search\n"
    "  --token-file file   the responders' shared secret\n"
    "  -h, --help          print this help\n"
    "\n"
    "Each peer takes at most 8 seconds; peers are probed one after "
    "another.\n";

/* getopt_long in GNU order, then the combinations: --quick and
 * --token-file need --peer, --rank0 needs --export, --json and --export
 * exclude each other. */
int scan_parse(int argc, char **argv, struct scan_opts *o)
{
	static const struct option longopts[] = {
	    {"json", no_argument, NULL, 'j'},
	    {"export", no_argument, NULL, 'e'},
	    {"rank0", no_argument, NULL, 'r'},
	    {"sysroot", required_argument, NULL, 's'},
	    {"peer", required_argument, NULL, 'p'},
	    {"quick", no_argument, NULL, 'q'},
	    {"token-file", required_argument, NULL, 'T'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int ch;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			o->json = true;
			break;
		case 'e':
			o->export = true;
			break;
		case 'r':
			o->rank0 = true;
			break;
		case 's':
			o->sysroot = optarg;
			break;
		case 'p':
			if (o->npeers >= SCAN_MAX_PEERS) {
				fprintf(stderr,
				        "netprobe scan: too many peers "
				        "'%s': at most %d\n",
				        optarg, SCAN_MAX_PEERS);
				return 2;
			}
			o->peers[o->npeers++] = optarg;
			break;
		case 'q':
			o->quick = true;
			break;
		case 'T':
			o->token_file = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		case ':':
			fprintf(stderr,
			        "netprobe scan: option '%s' needs a "
			        "value\n",
			        argv[optind - 1]);
			fputs(usage_text, stderr);
			return 2;
		default:
			fprintf(stderr, "netprobe scan: unknown option '%s'\n",
			        argv[optind - 1]);
			fputs(usage_text, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "netprobe scan: unexpected argument '%s'\n",
		        argv[optind]);
		fputs(usage_text, stderr);
		return 2;
	}
	if ((o->quick || o->token_file != NULL) && o->npeers == 0) {
		fprintf(stderr, "netprobe scan: option '%s' needs --peer\n",
		        o->quick ? "--quick" : "--token-file");
		return 2;
	}
	if (o->rank0 && !o->export) {
		fprintf(stderr, "netprobe scan: option '--rank0' needs "
		                "--export\n");
		return 2;
	}
	if (o->json && o->export) {
		fprintf(stderr, "netprobe scan: --json and --export exclude "
		                "each other\n");
		return 2;
	}
	return 0;
}
