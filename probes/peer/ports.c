/* netprobe ports HOST PORTS: parallel TCP connects classified from SYN-ACK,
 * RST, ICMP and timeouts; UDP and sample ports through the responder;
 * --both-ways asks the responder to connect back. */
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/cli.h"
#include "commands.h"
#include "doc/cmdrun.h"
#include "doc/doc.h"
#include "probe/portrun.h"
#include "decide/portfind.h"
#include "kernel/fwrules.h"
#include "probe/portscan.h"
#include "probe/portspec.h"
#include "wire/proto.h"

#define TEXT_ALL_MAX 64 /* list every port up to this many, else by state */
#define FWRULES_MS 2000 /* nft or iptables-legacy-save, each */

struct opts {
	long long timeout_us;
	int parallel;
	int resp_port;
	bool both_ways;
	const char *host;
	const char *spec;
	const char *token_file;
	bool before_job;
};

/* The presets go after the options: cli_help prints them from here. */
static char ports_more[2048];

static const struct cli_cmd ports_cmd = {
	"netprobe ports", "[options] HOST PORTS",
	"Test TCP and UDP ports on a peer: open, closed, filtered, prohibited.",
	NULL, 0, ports_more,
};

/* Fills ports_more with the port syntax and the presets. */
static void ports_help_more(void)
{
	size_t n, off;
	const struct portspec_preset *p = portspec_presets(&n);

	off = (size_t)snprintf(
	    ports_more, sizeof(ports_more),
	    "PORTS: a comma list of PORT, LO-HI, each with /tcp (default), "
	    "/udp or\n/tcp+udp, and presets (at most %d ports in all):\n",
	    PORTSPEC_MAX);
	for (size_t i = 0; i < n && off < sizeof(ports_more); i++)
		off += (size_t)snprintf(ports_more + off,
					sizeof(ports_more) - off,
					"  %-10s %s\n", p[i].name, p[i].doc);
	if (off < sizeof(ports_more))
		snprintf(ports_more + off, sizeof(ports_more) - off,
			 "\nUDP ports and sample ports are tested only through "
			 "a responder (netprobe serve)\non the host; exit 0 all "
			 "open, 1 some not open, 2 could not run.\n");
}

/* Options and the two operands; ranges are the table's, the common
 * options the runtime's (cr). Returns 0, 1 for --help, or 2. */
static int parse_opts(struct cmd_run *cr, int argc, char **argv,
		      struct opts *o)
{
	const struct cli_opt optv[] = {
	    {0, 't', "timeout", CLI_REQUIRED, "TIME", "2s",
	     "how long each port may take to answer", false,
	     CLI_RANGE(CLI_UNIT_DURATION, 1000, 600000000LL),
	     CLI_TO(LLONG, &o->timeout_us)},
	    {0, 'P', "parallel", CLI_REQUIRED, "N", "4096",
	     "connects in flight at once", false,
	     CLI_RANGE(CLI_UNIT_COUNT, 1, 65535), CLI_TO(INT, &o->parallel)},
	    {0, 0, "both-ways", CLI_FLAG, NULL, NULL,
	     "also have the responder connect back to us", false,
	     CLI_TO(BOOL, &o->both_ways)},
	    {0, 0, "before-job", CLI_FLAG, NULL, NULL,
	     "the job has not started: nothing need listen yet", false,
	     CLI_TO(BOOL, &o->before_job)},
	    {0, 0, "responder-port", CLI_REQUIRED, "PORT", "7470",
	     "the responder's port on HOST", false,
	     CLI_RANGE(CLI_UNIT_PORT, 1, 65535), CLI_TO(INT, &o->resp_port)},
	    {0, 'k', "token-file", CLI_REQUIRED, "FILE", NULL,
	     "the responder's shared secret, one line", false,
	     CLI_TO(STR, &o->token_file)},
	    CLI_OPT_HELP,
	};
	struct cli_cmd cmd = ports_cmd;
	struct cli cl;
	char **ops;
	int c;

	memset(o, 0, sizeof(*o));
	o->timeout_us = PORTSCAN_DEFAULT_TIMEOUT_US;
	o->parallel = PORTSCAN_DEFAULT_PARALLEL;
	o->resp_port = PROTO_DEFAULT_PORT;
	cmd.opts = optv;
	cmd.nopts = sizeof(optv) / sizeof(optv[0]);
	cmd_cli(cr, &cl, &cmd, argc, argv);
	while ((c = cli_next(&cl)) != CLI_END) {
		if (c == 'h') {
			ports_help_more();
			return cli_help(cl.cmd, stdout) == 0 ? 1 : 2;
		}
		return cli_usage_error(&cmd, stderr, "%s", cl.err);
	}
	if (cli_operands(&cl, &ops) != 2)
		return cli_usage_error(&cmd, stderr, "expected HOST and PORTS");
	o->host = ops[0];
	o->spec = ops[1];
	return 0;
}

/* Raises the soft descriptor limit toward what `want` connects need, so
 * the default parallelism is not cut by a 1024 soft limit. */
static void raise_nofile(int want)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)want + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need
			      ? need
			      : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}


/* Colour for a state on a terminal; "" otherwise. */
static const char *colour(enum port_state s, bool on)
{
	if (!on)
		return "";
	switch (s) {
	case PORT_OPEN:
		return "\033[32m";
	case PORT_UNKNOWN:
		return "\033[33m";
	default:
		return "\033[31m";
	}
}

/* One aligned row per port. */
static void print_rows(const struct port_result *p, size_t n, bool col,
		       const char *dir)
{
	for (size_t i = 0; i < n; i++) {
		char port[16], rtt[24];

		snprintf(port, sizeof(port), "%u/%s", p[i].port,
			 portspec_proto_name(p[i].proto));
		if (p[i].rtt_us >= 0)
			snprintf(rtt, sizeof(rtt), "%.2fms",
				 (double)p[i].rtt_us / 1000.0);
		else
			snprintf(rtt, sizeof(rtt), "-");
		printf("%s%-11s %s%-12s%s %-22s %9s%s%s\n", dir, port,
		       colour(p[i].state, col), portscan_state_name(&p[i]),
		       col ? "\033[0m" : "", p[i].reason, rtt,
		       p[i].why ? "  " : "", p[i].why ? p[i].why : "");
	}
}

/* Many ports: one line per state with the ports as ranges; ports the
 * responder held ("reachable") apart from those a service holds. */
static void print_by_state(const struct port_result *p, size_t n, bool col,
			   const char *dir)
{
	static const char *const order[] = {
		"open",	       "reachable",   "closed",		"filtered",
		"prohibited",  "unreachable", "unknown",	"resolve-failed",
	};
	uint16_t *ports = malloc((n ? n : 1) * sizeof(*ports));

	if (ports == NULL)
		return;
	for (size_t s = 0; s < sizeof(order) / sizeof(order[0]); s++) {
		for (int pr = 0; pr < 2; pr++) {
			uint8_t proto = pr ? IPPROTO_UDP : IPPROTO_TCP;
			enum port_state st = PORT_UNKNOWN;
			size_t k = 0;
			char *list, suf[8];

			for (size_t i = 0; i < n; i++)
				if (strcmp(portscan_state_name(&p[i]),
					   order[s]) == 0 &&
				    p[i].proto == proto) {
					st = p[i].state;
					ports[k++] = p[i].port;
				}
			if (k == 0)
				continue;
			snprintf(suf, sizeof(suf), "/%s",
				 portspec_proto_name(proto));
			list = portspec_ranges(ports, k, "", ",", "-", "");
			printf("%s%s%-12s%s %6zu %s  %.200s%s\n", dir,
			       colour(st, col), order[s],
			       col ? "\033[0m" : "", k, suf + 1,
			       list ? list : "",
			       list && strlen(list) > 200 ? "..." : "");
			free(list);
		}
	}
	free(ports);
}

/* The text emitter. */
static void emit_text(const struct opts *o, const struct ports_run *r,
		      const struct doc *d)
{
	bool col = cli_color(isatty(STDOUT_FILENO), getenv("NO_COLOR"));
	size_t i;
	json_t *f;

	printf("ports on %s (%s): %zu tested in %.2fs, timeout %.2fs\n",
	       o->host, r->addr, r->nout, (double)r->elapsed_us / 1e6,
	       (double)o->timeout_us / 1e6);
	if (r->nout <= TEXT_ALL_MAX) {
		printf("%-11s %-12s %-22s %9s\n", "PORT", "STATE", "REASON",
		       "RTT");
		print_rows(r->out, r->nout, col, "");
	} else {
		print_by_state(r->out, r->nout, col, "");
	}
	if (r->nin > 0) {
		printf("inbound: the responder connecting back to us\n");
		if (r->nin <= TEXT_ALL_MAX) {
			printf("%-11s %-12s %-22s %9s\n", "PORT", "STATE",
			       "REASON", "RTT");
			print_rows(r->in, r->nin, col, "");
		} else {
			print_by_state(r->in, r->nin, col, "");
		}
	}
	doc_print_findings(d, stdout, true);
	json_array_foreach(d->errors, i, f) {
		printf("error %s: %s\n",
		       json_string_value(json_object_get(f, "step")),
		       json_string_value(json_object_get(f, "message")));
	}
}

/* The JSON emitter's result keys: target, ports, inbound. */
static int fill_doc(const struct opts *o, const struct ports_run *r,
		    struct doc *d)
{
	json_t *target = json_pack("{s:s, s:s, s:i}", "host", o->host,
				   "address", r->addr, "port", o->resp_port);

	/* the neighbour entry read when nothing answered */
	if (target != NULL && r->neigh_state[0] != '\0')
		json_object_set_new(target, "neighbour",
				    json_pack("{s:s, s:s, s:b}", "address",
					      r->next_hop, "state",
					      r->neigh_state, "no_host",
					      r->no_host));

	if (doc_set(d, "target", target) < 0 ||
	    doc_set(d, "ports", portscan_json_ports(r->out, r->nout)) < 0 ||
	    doc_set(d, "inbound", portscan_json_ports(r->in, r->nin)) < 0)
		return -1;
	return 0;
}

/* This host's packet filter as the scan's `firewall` object (the
 * backend null where nft could not be read: not root, nft missing), so
 * a fix names the table that drops; NULL on no memory. */
static json_t *local_ruleset(void)
{
	struct fw_rules *fr = malloc(sizeof(*fr));
	json_t *j = NULL;

	if (fr != NULL && fwrules_collect(fr, NULL, FWRULES_MS) == 0)
		j = fwrules_to_json(fr);
	free(fr);
	return j;
}

/* Collect: the ports of o->host, the document's target, ports and
 * inbound. Returns 0, or 2 (reported). */
static int ports_collect(struct cmd_run *cr, const struct opts *o,
			 const struct port_list *pl, struct ports_run *r)
{
	struct ports_run_opts ro = {o->timeout_us,	     o->parallel,
				    (unsigned)o->resp_port, o->both_ways,
				    o->token_file,	     o->before_job};
	bool progress = isatty(STDERR_FILENO) && !cr->json && !cr->quiet;
	int rc;

	raise_nofile(o->parallel);
	if (progress)
		fprintf(stderr, "probing %zu ports on %s...\r", pl->n, o->host);
	rc = ports_run(o->host, pl, &ro, r, &cr->doc);
	if (progress)
		fprintf(stderr, "\033[K");
	if (rc == PORTS_RUN_RESOLVE) {
		/* ports_run recorded it in the document's errors */
		cmd_note(cr, "%s", r->err);
		fill_doc(o, r, &cr->doc);
		return 2;
	}
	if (r->err[0] != '\0')
		return cmd_failf(cr, "ports", "%s", r->err);
	return 0;
}

/* The outbound verdict passes: every port open, or, before the job
 * (--before-job), refused with no listener of the responder's there (a
 * warning: nothing listens yet). A reset while the responder listened is
 * a firewall's reject and fails. */
static bool ports_pass(const struct port_result *r, size_t n,
		       bool before_job)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].state != PORT_OPEN &&
		    !(before_job && r[i].state == PORT_CLOSED && !r[i].held &&
		      !r[i].loopback_only))
			return false;
	return true;
}

/* Decide: the findings (connect-back failures against this host's own
 * ruleset, the table and chain that drop: issue 23) and the verdict. */
static int ports_verdict(struct cmd_run *cr, const struct opts *o,
			 const struct ports_run *r)
{
	json_t *ruleset = r->nin > 0 ? local_ruleset() : NULL;
	struct ports_target t = {o->host,	  r->addr,	 r->responder,
				 r->peer_lo,	  r->peer_hi,	 r->next_hop,
				 r->neigh_state, r->no_host,	 false,
				 ruleset,	  o->before_job};
	int rc;

	rc = ports_decide(&cr->doc, &t, r->out, r->nout, r->in, r->nin);
	json_decref(ruleset);
	if (rc < 0 || fill_doc(o, r, &cr->doc) < 0)
		return cmd_fail(cr, "doc", "out of memory", NULL, NULL);
	/* a port not open, or a part that could not be tested (an error):
	 * the ports were not all proven open */
	rc = cmd_status(cr, true);
	if (r->auth_failed || r->turned_away)
		return 2; /* a wrong token, or the responder turned us away:
			   * could not run, in every command */
	if (rc == 0 && (!ports_pass(r->out, r->nout, o->before_job) ||
			!ports_all_open(r->in, r->nin) || cr->doc.nerror > 0))
		rc = 1;
	return rc;
}

/* netprobe ports: parse -> collect -> decide -> finish. Returns the exit
 * status. */
int cmd_ports(int argc, char **argv)
{
	struct opts o;
	struct port_list pl;
	struct portspec_err pe;
	struct ports_run r;
	struct cmd_run cr;
	int rc;

	cmd_begin(&cr, "netprobe", "ports", stdout, stderr);
	rc = parse_opts(&cr, argc, argv, &o);
	if (rc != 0)
		return rc == 1 ? 0 : 2;
	if ((rc = cmd_parsed(&cr)) != 0)
		return cmd_finish(&cr, rc);
	if (cmd_doc(&cr) < 0)
		return cmd_finish(
		    &cr, cmd_fail(&cr, "doc", "out of memory", NULL, NULL));
	cmd_input(&cr, o.token_file);
	memset(&r, 0, sizeof(r));
	port_list_init(&pl);
	if (portspec_parse(o.spec, &pl, &pe) < 0) {
		port_list_free(&pl);
		return cmd_finish(&cr, cmd_fail(&cr, "ports",
						"invalid port list", pe.token,
						"%s", pe.why));
	}
	rc = ports_collect(&cr, &o, &pl, &r);
	if (rc == 0) {
		rc = ports_verdict(&cr, &o, &r);
		if (rc != 2 || cr.nfail == 0) {
			if (!cr.json && !cr.quiet)
				emit_text(&o, &r, &cr.doc);
		}
	}
	ports_run_free(&r);
	port_list_free(&pl);
	return cmd_finish(&cr, rc);
}

CMD_COMMAND(ports, cmd_ports, 50, "test TCP and UDP ports on a peer");
