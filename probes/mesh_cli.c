/* netprobe mesh's command line: the usage text, the options and their
 * combinations. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "mesh_int.h"
#include "probe/meshplan.h"
#include "probe/portspec.h"

/* Printed by --help (stdout) and after bad usage (stderr). */
static const char usage_text[] =
    "usage: netprobe mesh [-hqv] [--hosts file|list] [--rendezvous "
    "host[:port]]\n"
    "                     [-p port] [-k token-file] [--join-timeout dur]\n"
    "                     [--concurrency n] [--all-pairs n] [--ports "
    "spec]\n"
    "                     [--out dir] [--format fmt] [-o file] [--fail-on "
    "level]\n"
    "\n"
    "One process per node (srun, mpirun, torchrun-style variables, a "
    "Kubernetes\n"
    "Job, pdsh): together they test every node against every other; node "
    "0\n"
    "writes the report.\n"
    "\n"
    "  --hosts file|list     the members in order, the same on every "
    "node: a file\n"
    "                        of names or addresses, or a list "
    "(node[01-16])\n"
    "  --rendezvous h[:p]    node 0's address where the launcher gives "
    "none\n"
    "                        (Open MPI, PMIx)\n"
    "  -p, --port N          every node's responder and node 0's "
    "rendezvous\n"
    "                        (default MASTER_PORT, else 7470)\n"
    "  -k, --token-file F    shared secret: joins and probes prove it\n"
    "  --join-timeout DUR    how long node 0 waits for the members "
    "(default 60s)\n"
    "  --concurrency N       peers one node probes at once (default 32)\n"
    "  --all-pairs N         every pair up to N nodes, above it each "
    "node\n"
    "                        probes log2(N) others (default 32)\n"
    "  --ports SPEC          framework ports to test too (torch,ray,...)\n"
    "  -q, --quick           no heartbeat, no path MTU search\n"
    "  --out DIR             keep every node's document there (node 0)\n"
    "  --format FMT          the report: text, markdown, html, json or "
    "junit\n"
    "  -o, --output FILE     write the report there (default stdout)\n"
    "  --fail-on LEVEL       fault (default), warning or never\n"
    "  -v, --verbose         say what each step does, on stderr\n"
    "  -h, --help            print this help\n"
    "\n"
    "Membership, first found: --hosts, Slurm (SLURM_JOB_NODELIST, "
    "SLURM_NODEID),\n"
    "MASTER_ADDR with RANK/WORLD_SIZE or NODE_RANK/NNODES, Open MPI "
    "(OMPI_COMM_\n"
    "WORLD_RANK/SIZE), PMIx (PMIX_RANK). Exit status on every node: 0 "
    "healthy,\n"
    "1 a fault anywhere, 2 could not run.\n";

/* Prints a bad option value and returns 2. */
static int bad(const char *what, const char *v, const char *why)
{
	fprintf(stderr, "netprobe mesh: invalid %s '%s': %s\n", what, v, why);
	return 2;
}

/* Checks one number option in [lo, hi]. Returns 0, or 2 (reported). */
static int num(const char *what, const char *v, long long lo, long long hi,
               unsigned *out)
{
	const char *why;
	long long x;

	if (parse_num(v, lo, hi, &x, &why) < 0)
		return bad(what, v, why);
	*out = (unsigned)x;
	return 0;
}

/* The option values that need checking beyond their syntax. */
static int check(struct mesh_opts *o)
{
	static const char *const fmts[] = {"text", "markdown", "md",
	                                   "html", "json",     "junit"};
	struct port_list pl;
	struct portspec_err e;
	bool ok = false;

	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		ok |= strcmp(o->format, fmts[i]) == 0;
	if (!ok)
		return bad("format", o->format,
		           "use text, markdown, html, json or junit");
	if (strcmp(o->fail_on, "fault") != 0 &&
	    strcmp(o->fail_on, "warning") != 0 &&
	    strcmp(o->fail_on, "never") != 0)
		return bad("fail-on level", o->fail_on,
		           "use fault, warning or never");
	if (o->ports != NULL) {
		int r;

		if (strlen(o->ports) > PROTO_MESH_PORTS_MAX)
			return bad("ports", o->ports, "longer than 200 bytes");
		port_list_init(&pl);
		r = portspec_parse(o->ports, &pl, &e);
		port_list_free(&pl);
		if (r < 0) {
			fprintf(stderr,
			        "netprobe mesh: invalid ports '%s': %s\n",
			        e.token, e.why);
			return 2;
		}
	}
	return 0;
}

/* getopt_long in GNU order, then the values checked. */
int mesh_parse(int argc, char **argv, struct mesh_opts *o)
{
	static const struct option longopts[] = {
	    {"hosts", required_argument, NULL, 'H'},
	    {"rendezvous", required_argument, NULL, 'R'},
	    {"port", required_argument, NULL, 'p'},
	    {"token-file", required_argument, NULL, 'k'},
	    {"join-timeout", required_argument, NULL, 'J'},
	    {"concurrency", required_argument, NULL, 'C'},
	    {"all-pairs", required_argument, NULL, 'A'},
	    {"ports", required_argument, NULL, 'P'},
	    {"out", required_argument, NULL, 'O'},
	    {"format", required_argument, NULL, 'f'},
	    {"output", required_argument, NULL, 'o'},
	    {"fail-on", required_argument, NULL, 'F'},
	    {"quick", no_argument, NULL, 'q'},
	    {"verbose", no_argument, NULL, 'v'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *why;
	int ch;

	memset(o, 0, sizeof(*o));
	o->join_us = MESH_DEF_JOIN_US;
	o->concurrency = MESH_DEF_CONCURRENCY;
	o->pairs = MESHPLAN_ALL_PAIRS;
	o->format = "text";
	o->fail_on = "fault";
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":p:k:o:qvh", longopts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'H':
			o->hosts = optarg;
			break;
		case 'R':
			o->rendezvous = optarg;
			break;
		case 'p':
			if (num("port", optarg, 1, 65535, &o->port))
				return 2;
			break;
		case 'k':
			o->token_file = optarg;
			break;
		case 'J':
			if (parse_duration_us(optarg, 1000000, 3600000000LL,
			                      &o->join_us, &why) < 0)
				return bad("join timeout", optarg, why);
			break;
		case 'C':
			if (num("concurrency", optarg, 1, MESH_MAX_CONCURRENCY,
			        &o->concurrency))
				return 2;
			break;
		case 'A':
			if (num("all-pairs limit", optarg, 2, MESH_MAX_NODES,
			        &o->pairs))
				return 2;
			break;
		case 'P':
			o->ports = optarg;
			break;
		case 'O':
			o->out_dir = optarg;
			break;
		case 'f':
			o->format = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'F':
			o->fail_on = optarg;
			break;
		case 'q':
			o->quick = true;
			break;
		case 'v':
			o->verbose++;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		case ':':
			fprintf(stderr,
			        "netprobe mesh: option '%s' needs a value\n",
			        argv[optind - 1]);
			fputs(usage_text, stderr);
			return 2;
		default:
			fprintf(stderr, "netprobe mesh: unknown option '%s'\n",
			        argv[optind - 1]);
			fputs(usage_text, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "netprobe mesh: unexpected argument '%s'\n",
		        argv[optind]);
		fputs(usage_text, stderr);
		return 2;
	}
	return check(o);
}
