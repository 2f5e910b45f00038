/* netprobe mesh's command line: the option table, the values and their
 * combinations. */
#include <arpa/inet.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/cli.h"
#include "mesh/mesh_int.h"
#include "metrics/metrics_http.h"
#include "probe/meshplan.h"
#include "probe/portspec.h"
#include "report.h"

enum {
	O_PORT = 'p',
	O_TOKEN = 'k',
	O_HELP = 'h',
	O_HOSTS = 256,
	O_QUICK,
	O_RENDEZVOUS,
	O_JOIN,
	O_CONCURRENCY,
	O_PAIRS,
	O_PORTS,
	O_OUT,
	O_FORMAT,
	O_FAILON,
	O_BIND,
	O_WATCH,
	O_DURATION,
	O_METRICS,
	O_TEXTFILE,
	O_IDLE,
};

static const struct cli_opt mesh_optv[] = {
	{O_HOSTS, 0, "hosts", CLI_REQUIRED, "FILE|LIST", NULL,
	 "the members in order, the same on every node", false},
	{O_RENDEZVOUS, 0, "rendezvous", CLI_REQUIRED, "HOST[:PORT]", NULL,
	 "node 0 where the launcher names none (MPI)", false},
	{O_PORT, 'p', "port", CLI_REQUIRED, "PORT", "MASTER_PORT/7471",
	 "responders, rendezvous", false, CLI_RANGE(CLI_UNIT_PORT, 1, 65535)},
	{O_BIND, 0, "bind", CLI_REQUIRED, "ADDR", NULL,
	 "this node's own address: responder, probes, self", false},
	{O_TOKEN, 'k', "token-file", CLI_REQUIRED, "FILE", NULL,
	 "shared secret: joins and probes prove it", false},
	{O_JOIN, 0, "join-timeout", CLI_REQUIRED, "TIME", "60s",
	 "how long node 0 waits for members", false,
	 CLI_RANGE(CLI_UNIT_DURATION, 1000000, 3600000000LL)},
	{O_CONCURRENCY, 0, "concurrency", CLI_REQUIRED, "N", "32",
	 "peers one node probes at once", false,
	 CLI_RANGE(CLI_UNIT_COUNT, 1, MESH_MAX_CONCURRENCY)},
	{O_PAIRS, 0, "all-pairs", CLI_REQUIRED, "N", NULL,
	 "every pair up to N nodes, above: log2(n) each", false,
	 CLI_RANGE(CLI_UNIT_COUNT, 2, MESH_MAX_NODES)},
	{O_PORTS, 0, "ports", CLI_REQUIRED, "SPEC", NULL,
	 "framework ports to test too (torch,ray,...)", false},
	{O_QUICK, 0, "quick", CLI_FLAG, NULL, NULL,
	 "no heartbeat, no path MTU search", false},
	{O_IDLE, 0, "idle", CLI_REQUIRED, "TIME", NULL,
	 "idle a connection per peer this long, then use it", false,
	 CLI_RANGE(CLI_UNIT_DURATION, 1000000, 900000000LL)},
	{O_OUT, 0, "out", CLI_REQUIRED, "DIR", NULL,
	 "node 0 keeps every node's document there", false},
	{O_FORMAT, 0, "format", CLI_REQUIRED, "FORMAT", "text",
	 "text, markdown, html, json or junit", false},
	{O_FAILON, 0, "fail-on", CLI_REQUIRED, "LEVEL", "fault",
	 "exit 1 from: warning, fault, never", false},
	{O_WATCH, 0, "watch", CLI_REQUIRED, "INTERVAL", NULL,
	 "then stay up, probing peers each interval", false,
	 CLI_RANGE(CLI_UNIT_DURATION, 1000000, 3600000000LL)},
	{O_DURATION, 0, "duration", CLI_REQUIRED, "TIME", NULL,
	 "watch this long (default: until SIGTERM)", false,
	 CLI_RANGE(CLI_UNIT_DURATION, 1000000, 366LL * 86400 * 1000000)},
	{O_METRICS, 0, "metrics", CLI_REQUIRED, "ADDR:PORT", NULL,
	 "watching: Prometheus /metrics (PORT: 127.0.0.1)", false},
	{O_TEXTFILE, 0, "textfile", CLI_REQUIRED, "DIR", NULL,
	 "watching: DIR/netprobe_mesh.prom for node_exporter", false},
	CLI_OPT_HELP,
};

static const struct cli_cmd mesh_cmd = {
	"netprobe mesh", "[options]",
	"One process per node (srun, mpirun, torchrun-style variables, a "
	"Kubernetes\nJob, pdsh): together they test every node against every "
	"other; node 0\nwrites the report.",
	mesh_optv, sizeof(mesh_optv) / sizeof(mesh_optv[0]),
	"Membership, first found: --hosts, Slurm (SLURM_JOB_NODELIST, "
	"SLURM_NODEID),\nMASTER_ADDR with RANK/WORLD_SIZE or NODE_RANK/NNODES, "
	"Open MPI\n(OMPI_COMM_WORLD_RANK/SIZE), PMIx (PMIX_RANK). --all-pairs "
	"is 32;\n--json is --format json, -o FILE node 0's report there, -v "
	"says each step.\nExit status on every node: 0 healthy, 1 a fault "
	"anywhere, 2 could not run.\n",
};

/* A bad option value, in the one wording of a usage error. Returns 2. */
static int bad(const char *what, const char *v, const char *why)
{
	return cli_usage_error(&mesh_cmd, stderr, "invalid %s '%s': %s", what,
	                       v, why);
}

/* True when v is a numeric IPv4 or IPv6 address. */
static bool numeric_addr(const char *v)
{
	unsigned char a[sizeof(struct in6_addr)];

	return inet_pton(AF_INET, v, a) == 1 || inet_pton(AF_INET6, v, a) == 1;
}

/* The option values that need checking beyond their syntax. */
static int check(struct mesh_opts *o)
{
	enum report_format f;
	enum report_fail_on fo;
	struct port_list pl;
	struct portspec_err e;
	int r;

	if (report_format_parse(o->format, &f) < 0)
		return bad("format", o->format,
		           "use text, markdown, html, json or junit");
	if (report_fail_on_parse(o->fail_on, &fo) < 0)
		return bad("fail-on level", o->fail_on,
		           "use fault, warning or never");
	if (o->ports == NULL)
		return 0;
	if (strlen(o->ports) > PROTO_MESH_PORTS_MAX)
		return bad("ports", o->ports, "longer than 200 bytes");
	port_list_init(&pl);
	r = portspec_parse(o->ports, &pl, &e);
	port_list_free(&pl);
	return r < 0 ? bad("ports", e.token, e.why) : 0;
}

/* What the parser keeps beside the options: --json and --format meet in
 * the combination check. */
struct mesh_parse_st {
	bool json, fmt_given;
};

/* One option into o; numbers come checked against the table's range.
 * Returns 0, 1 after --help, or 2 (reported). */
static int take(struct mesh_opts *o, struct mesh_parse_st *st,
                const struct cli *cl, int ch)
{
	switch (ch) {
	case O_HOSTS:
		o->hosts = cl->arg;
		break;
	case O_RENDEZVOUS:
		o->rendezvous = cl->arg;
		break;
	case O_PORT:
		o->port = (unsigned)cl->num;
		break;
	case O_BIND:
		if (!numeric_addr(cl->arg))
			return bad("bind address", cl->arg,
			           "use a numeric IPv4 or IPv6 address of "
			           "this host");
		o->bind = cl->arg;
		break;
	case O_TOKEN:
		o->token_file = cl->arg;
		break;
	case O_JOIN:
		o->join_us = cl->num;
		break;
	case O_CONCURRENCY:
		o->concurrency = (unsigned)cl->num;
		break;
	case O_PAIRS:
		o->pairs = (unsigned)cl->num;
		break;
	case O_PORTS:
		o->ports = cl->arg;
		break;
	case O_OUT:
		o->out_dir = cl->arg;
		break;
	case O_FORMAT:
		o->format = cl->arg;
		st->fmt_given = true;
		break;
	case O_FAILON:
		o->fail_on = cl->arg;
		break;
	case O_QUICK:
		o->quick = true;
		break;
	case O_IDLE:
		o->idle_us = cl->num;
		break;
	case O_WATCH:
		o->watch_us = cl->num;
		break;
	case O_DURATION:
		o->watch_duration_us = cl->num;
		break;
	case O_METRICS:
		o->metrics = cl->arg;
		break;
	case O_TEXTFILE:
		o->textfile = cl->arg;
		break;
	case O_HELP:
		return cli_help(cl->cmd, stdout) == 0 ? 1 : 2;
	default:
		return cli_usage_error(&mesh_cmd, stderr, "%s", cl->err);
	}
	return 0;
}

/* The combinations, once every option is read. Returns 0, or 2. */
static int combos(struct mesh_opts *o, const struct mesh_parse_st *st)
{
	const char *why;
	char host[256];
	unsigned port;

	if (o->watch_us == 0 &&
	    (o->watch_duration_us || o->metrics || o->textfile))
		return cli_usage_error(&mesh_cmd, stderr, "--%s needs --watch",
		                       o->watch_duration_us ? "duration"
		                       : o->metrics         ? "metrics"
		                                            : "textfile");
	if (o->metrics != NULL &&
	    metrics_addr_parse(o->metrics, host, sizeof(host), &port, &why) < 0)
		return bad("metrics address", o->metrics, why);
	if (st->json) {
		if (st->fmt_given && strcmp(o->format, "json") != 0)
			return cli_usage_error(&mesh_cmd, stderr,
			                       "--json and --format '%s' both "
			                       "choose the report's format",
			                       o->format);
		o->format = "json";
	}
	return check(o);
}

/* The options in GNU order (--json, -o, --no-clobber, -q and -v are the
 * run's: -o and -v copied into o), then the values checked. Returns 0, 1
 * after --help, or 2 (reported). */
int mesh_parse(struct cmd_run *run, int argc, char **argv,
               struct mesh_opts *o)
{
	struct mesh_parse_st st = {false, false};
	struct cli cl;
	char **ops;
	int ch, rc;

	memset(o, 0, sizeof(*o));
	o->join_us = MESH_DEF_JOIN_US;
	o->concurrency = MESH_DEF_CONCURRENCY;
	o->pairs = MESHPLAN_ALL_PAIRS;
	o->format = "text";
	o->fail_on = "fault";
	cmd_cli(run, &cl, &mesh_cmd, argc, argv);
	while ((ch = cli_next(&cl)) != CLI_END)
		if ((rc = take(o, &st, &cl, ch)) != 0)
			return rc;
	st.json = run->json;
	o->output = run->output;
	o->verbose = run->verbose;
	if (cli_operands(&cl, &ops) > 0)
		return cli_usage_error(&mesh_cmd, stderr,
		                       "unexpected operand '%s'", ops[0]);
	return combos(o, &st);
}
