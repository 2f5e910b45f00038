/* netprobe heartbeat, its command line: the option table and the checks
 * that tie the options together. */
#include <string.h>

#include "base/cli.h"
#include "heartbeat/heartbeat.h"

enum {
	O_TIMEOUT = 't',
	O_HELP = 'h',
	O_MAXLOSS = 256,
	O_UDP,
	O_NOUDP,
	O_INTERVAL,
};

static const struct cli_cmd hb_cmd = {
    "netprobe heartbeat",
    "[options] HOST[:PORT]",
    "Measure RTT, jitter and loss over a held connection to a responder.",
    NULL,
    0,
    "The timeout is at least 150ms; a held connection silent that long, and\n"
    "past the kernel's retransmissions, is dropped and opened again.\n"
    "--peer takes no count, duration or gate.\n",
};

/* The options before the loop: the defaults of a run. */
static void hb_defaults(struct hb_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->port = PROTO_DEFAULT_PORT;
	o->interval_us = 100000;
	o->timeout_us = -1;
	o->count = -1;
	o->duration_us = -1;
	o->gate.max_rtt_us = -1;
	o->gate.max_loss_pct = -1;
	o->udp = true;
}

/* An option that runs code into o (its range checked by the table).
 * Returns 0, or 2 for a key the table does not have. */
static int hb_option(int ch, const struct cli *cl, struct hb_opts *o)
{
	switch (ch) {
	case O_TIMEOUT:
		o->timeout_us = cl->num;
		o->timeout_set = true;
		break;
	case O_MAXLOSS:
		o->gate.max_loss_pct = (double)cl->num;
		break;
	case O_UDP:
	case O_NOUDP:
		o->udp = ch == O_UDP;
		break;
	default:
		return 2;
	}
	return 0;
}

/* The options that exclude each other, then the defaults that depend on
 * others. Returns 0, or 2 after a usage error. */
static int hb_check(struct hb_opts *o)
{
	if (o->peer_probe &&
	    (o->count > 0 || o->duration_us > 0 || o->gate.max_rtt_us >= 0 ||
	     o->gate.max_loss_pct >= 0))
		return cli_usage_error(&hb_cmd, stderr,
		                       "--peer takes no count, duration or "
		                       "gate");
	if (o->count > 0 && o->duration_us > 0)
		return cli_usage_error(&hb_cmd, stderr,
		                       "--count and --duration exclude each "
		                       "other");
	if (o->count < 0 && o->duration_us < 0)
		o->duration_us = 10000000;
	if (o->timeout_us < 0) {
		/* a drop is declared within two intervals of the last
		 * answer, leaving the scheduler a tenth of one */
		o->timeout_us = o->interval_us * 19 / 10;
		if (o->timeout_us < 150000)
			o->timeout_us = 150000;
	}
	return 0;
}

/* Parses argv into o, the common options into r. Returns 0, 1 after
 * --help, or 2 with an error. */
int hb_parse(struct cmd_run *r, int argc, char **argv, struct hb_opts *o)
{
	const struct cli_opt optv[] = {
	    {O_INTERVAL, 0, "interval", CLI_REQUIRED, "TIME", "100ms",
	     "between echoes, 0 for ping-pong", false,
	     CLI_RANGE(CLI_UNIT_DURATION, 0, 60000000),
	     CLI_TO(LLONG, &o->interval_us)},
	    /* -i is the interface everywhere else (tcpdump's letter) */
	    {O_INTERVAL, 'i', NULL, CLI_REQUIRED, "TIME", NULL, NULL, true},
	    {0, 'c', "count", CLI_REQUIRED, "N", NULL,
	     "send N echoes, then stop", false,
	     CLI_RANGE(CLI_UNIT_COUNT, 1, 10000000), CLI_TO(LLONG, &o->count)},
	    {0, 'd', "duration", CLI_REQUIRED, "TIME", "10s", "how long to run",
	     false, CLI_RANGE(CLI_UNIT_DURATION, 1000, 86400000000LL),
	     CLI_TO(LLONG, &o->duration_us)},
	    {O_TIMEOUT, 't', "timeout", CLI_REQUIRED, "TIME", "1.9x interval",
	     "an echo is lost after this", false,
	     CLI_RANGE(CLI_UNIT_DURATION, 1000, 600000000)},
	    {0, 0, "max-rtt", CLI_REQUIRED, "TIME", NULL,
	     "gate: exit 1 when p99 RTT is above TIME", false,
	     CLI_RANGE(CLI_UNIT_DURATION, 1, 600000000),
	     CLI_TO(LLONG, &o->gate.max_rtt_us)},
	    {O_MAXLOSS, 0, "max-loss", CLI_REQUIRED, "PERCENT", NULL,
	     "gate: exit 1 when loss is above PERCENT", false,
	     CLI_RANGE(CLI_UNIT_PERCENT, 0, 100)},
	    {O_UDP, 0, "udp", CLI_FLAG, NULL, "on", "also send UDP echoes",
	     false},
	    {O_NOUDP, 0, "no-udp", CLI_FLAG, NULL, NULL, "TCP echoes only",
	     false},
	    {0, 0, "udp-port", CLI_REQUIRED, "PORT", NULL,
	     "UDP echoes to PORT, opened on the responder", false,
	     CLI_RANGE(CLI_UNIT_PORT, 1, 65535), CLI_TO(UINT, &o->udp_port)},
	    {0, 'k', "token-file", CLI_REQUIRED, "FILE", NULL,
	     "the responder's shared secret, one line", false,
	     CLI_TO(STR, &o->token_file)},
	    {0, 'p', "port", CLI_REQUIRED, "PORT", "7470",
	     "responder port if HOST has none", false,
	     CLI_RANGE(CLI_UNIT_PORT, 1, 65535), CLI_TO(UINT, &o->port)},
	    {0, 0, "peer", CLI_FLAG, NULL, NULL,
	     "scan's peer probe instead: NAT, inbound, 1s", false,
	     CLI_TO(BOOL, &o->peer_probe)},
	    CLI_OPT_HELP,
	};
	struct cli_cmd cmd = hb_cmd;
	char err[CLIENT_ERR_MAX];
	struct cli cl;
	char **ops;
	int ch, nops;

	hb_defaults(o);
	cmd.opts = optv;
	cmd.nopts = sizeof(optv) / sizeof(optv[0]);
	cmd_cli(r, &cl, &cmd, argc, argv);
	while ((ch = cli_next(&cl)) != CLI_END) {
		if (ch == O_HELP)
			return cli_help(cl.cmd, stdout) == 0 ? 1 : 2;
		if (ch == CLI_ERROR || hb_option(ch, &cl, o) != 0)
			return cli_usage_error(&hb_cmd, stderr, "%s", cl.err);
	}
	nops = cli_operands(&cl, &ops);
	if (nops != 1)
		return cli_usage_error(&hb_cmd, stderr, "%s",
		                       nops == 0 ? "missing host"
		                                 : "too many operands");
	if (hb_check(o) != 0)
		return 2;
	if (client_parse_peer(ops[0], o->port, o->host, sizeof(o->host),
	                      &o->port, err, sizeof(err)) < 0)
		return cli_usage_error(&hb_cmd, stderr, "%s", err);
	return 0;
}
