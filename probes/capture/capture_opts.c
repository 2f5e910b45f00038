/* netprobe capture, its command line: the option table, the port list,
 * the peer resolved to addresses and the BPF filter built for them. */
#include <arpa/inet.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "base/cli.h"
#include "base/parse.h"
#include "capture/capture.h"

enum {
	O_DURATION = 'd',
	O_HELP = 'h',
	O_PORT = 256,
	O_MAXBYTES,
};

static const struct cli_cmd cap_cmd = {
    "netprobe capture",
    "[options] [EXPR...]",
    "Capture packets and summarise what crossed which interface, and what "
    "answered\neach connection attempt.",
    NULL,
    0,
    "EXPR, as tcpdump takes it, is the same as --filter. A live capture "
    "needs\nCAP_NET_RAW; -r reads a file without it. Run it alongside "
    "another probe:\n"
    "  netprobe capture --peer B --duration 5s & netprobe ports B 22\n",
};

/* Splits "22,80,1000-2000" into checked port specs. Returns 0, or -1 with
 * *why set. */
static int add_ports(struct cap_opts *o, const char *arg, const char **why)
{
	char buf[512], *save = NULL, *tok, *dash;
	long long lo, hi;

	if (strlen(arg) >= sizeof(buf)) {
		*why = "too long";
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (o->nports >= CAP_MAX_PORTS) {
			*why = "too many ports";
			return -1;
		}
		dash = strchr(tok, '-');
		if (dash != NULL)
			*dash = '\0';
		if (parse_num(tok, 1, 65535, &lo, why) < 0)
			return -1;
		hi = lo;
		if (dash != NULL && parse_num(dash + 1, 1, 65535, &hi, why) < 0)
			return -1;
		if (hi < lo) {
			*why = "range ends before it starts";
			return -1;
		}
		if (hi == lo)
			snprintf(o->ports[o->nports++], sizeof(o->ports[0]),
			         "%lld", lo);
		else
			snprintf(o->ports[o->nports++], sizeof(o->ports[0]),
			         "%lld-%lld", lo, hi);
	}
	if (o->nports == 0) {
		*why = "no port given";
		return -1;
	}
	return 0;
}

/* Appends printf output to the filter text. Returns -1 when it is full. */
static int fcat(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fcat(char *buf, size_t len, const char *fmt, ...)
{
	size_t off = strlen(buf);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len - off ? -1 : 0;
}

/* The BPF text for the peer's addresses and the ports, plus every ICMP
 * error (a router's answer names neither). Returns 0, or -1 when it does
 * not fit. */
int cap_build_filter(const struct cap_opts *o, char addrs[][INET6_ADDRSTRLEN],
                     int naddrs, char *buf, size_t len)
{
	int rc = 0;

	buf[0] = '\0';
	rc |= fcat(buf, len, "(");
	for (int i = 0; i < naddrs; i++)
		rc |= fcat(buf, len, "%shost %s", i ? " or " : "(", addrs[i]);
	if (naddrs > 0)
		rc |= fcat(buf, len, ")");
	if (naddrs > 0 && o->nports > 0)
		rc |= fcat(buf, len, " and ");
	for (int i = 0; i < o->nports; i++)
		rc |= fcat(buf, len, "%s%s %s", i ? " or " : "(",
		           strchr(o->ports[i], '-') ? "portrange" : "port",
		           o->ports[i]);
	if (o->nports > 0)
		rc |= fcat(buf, len, ")");
	rc |= fcat(buf, len,
	           ") or (icmp and icmp[icmptype] != icmp-echo and "
	           "icmp[icmptype] != icmp-echoreply) or (icmp6 and "
	           "ip6[40] < 128)");
	return rc;
}

/* Resolves the peer into at most CAP_MAX_PEER_ADDRS distinct numeric
 * addresses. Returns the count, or -1 with *why set. */
int cap_resolve_peer(const char *host, char out[][INET6_ADDRSTRLEN],
                     const char **why)
{
	struct addrinfo hints = {0}, *res = NULL, *ai;
	int n = 0, rc;
	char buf[INET6_ADDRSTRLEN];

	hints.ai_socktype = SOCK_DGRAM;
	rc = getaddrinfo(host, NULL, &hints, &res);
	if (rc != 0) {
		*why = gai_strerror(rc);
		return -1;
	}
	for (ai = res; ai != NULL && n < CAP_MAX_PEER_ADDRS; ai = ai->ai_next) {
		const void *a;
		bool dup = false;

		if (ai->ai_family == AF_INET)
			a = &((struct sockaddr_in *)(void *)ai->ai_addr)
			         ->sin_addr;
		else if (ai->ai_family == AF_INET6)
			a = &((struct sockaddr_in6 *)(void *)ai->ai_addr)
			         ->sin6_addr;
		else
			continue;
		if (inet_ntop(ai->ai_family, a, buf, sizeof(buf)) == NULL)
			continue;
		for (int i = 0; i < n; i++)
			dup |= strcmp(out[i], buf) == 0;
		if (!dup)
			snprintf(out[n++], INET6_ADDRSTRLEN, "%s", buf);
	}
	freeaddrinfo(res);
	if (n == 0) {
		*why = "no IPv4 or IPv6 address";
		return -1;
	}
	return n;
}

/* Joins the operands, tcpdump's filter expression, into buf. Returns 0,
 * or -1 when it does not fit. */
static int join_expr(char **ops, int n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		int w = snprintf(buf + off, len - off, "%s%s", i ? " " : "",
		                 ops[i]);

		if (w < 0 || (size_t)w >= len - off)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

/* An option that runs code into o (ranges checked by the table).
 * Returns 0, or 2 after a usage error. */
static int cap_option(int c, const struct cli *cl, struct cap_opts *o)
{
	const char *why;

	switch (c) {
	case O_PORT:
		if (add_ports(o, cl->arg, &why) < 0)
			return cli_usage_error(&cap_cmd, stderr,
			                       "invalid port '%s': %s", cl->arg,
			                       why);
		break;
	case O_DURATION:
		o->duration_us = cl->num;
		o->duration_set = true;
		break;
	case O_MAXBYTES:
		o->max_bytes = (unsigned long long)cl->num;
		break;
	default:
		return cli_usage_error(&cap_cmd, stderr, "%s", cl->err);
	}
	return 0;
}

/* The options that exclude each other. Returns 0, or 2 after a usage
 * error. */
static int cap_check(const struct cap_opts *o)
{
	const char *why = NULL;

	if (o->read != NULL && (o->iface != NULL || o->all || o->duration_set ||
	                        o->passive || o->write != NULL))
		why = "-r reads a file: it takes no -i, --all, --duration, "
		      "--passive or -w";
	else if (o->iface != NULL && o->all)
		why = "-i and --all exclude each other";
	else if (o->filter != NULL && (o->peer != NULL || o->nports > 0))
		why = "--filter replaces --peer and --port; give one or the "
		      "other";
	else if (o->passive &&
	         (o->peer != NULL || o->nports > 0 || o->filter != NULL))
		why = "--passive takes no --peer, --port or --filter";
	else if (o->filter != NULL && strlen(o->filter) >= CAP_FILTER_MAX)
		why = "filter too long";
	return why ? cli_usage_error(&cap_cmd, stderr, "%s", why) : 0;
}

/* Parses the command line into o, the common options into r. Returns 0,
 * or 2 after printing the error (or -1 after printing help: exit 0). */
int cap_parse_args(struct cmd_run *r, int argc, char **argv,
                   struct cap_opts *o)
{
	const struct cli_opt optv[] = {
	    {0, 0, "peer", CLI_REQUIRED, "HOST", NULL,
	     "traffic with HOST, and every ICMP error", false,
	     CLI_TO(STR, &o->peer)},
	    {O_PORT, 0, "port", CLI_REQUIRED, "PORTS", NULL,
	     "only these: 22, 8000-8100, 22,80 (repeatable)", false},
	    {0, 'i', "interface", CLI_REQUIRED, "IFACE", "all",
	     "capture on IFACE only", false, CLI_TO(STR, &o->iface)},
	    {0, 0, "all", CLI_FLAG, NULL, NULL, "every interface that is up",
	     false, CLI_TO(BOOL, &o->all)},
	    {O_DURATION, 'd', "duration", CLI_REQUIRED, "TIME", "5s",
	     "how long, at most 1h", false,
	     CLI_RANGE(CLI_UNIT_DURATION, 1000, 3600000000LL)},
	    {0, 0, "filter", CLI_REQUIRED, "EXPR", NULL,
	     "a pcap-filter(7) expression instead", false,
	     CLI_TO(STR, &o->filter)},
	    {0, 'w', "write", CLI_REQUIRED, "FILE", NULL,
	     "keep the packets in a pcap file", false, CLI_TO(STR, &o->write)},
	    {O_MAXBYTES, 0, "max-bytes", CLI_REQUIRED, "SIZE", "64M",
	     "bound the file written", false,
	     CLI_RANGE(CLI_UNIT_BYTES, 4096, 1LL << 40)},
	    {0, 'r', "read", CLI_REQUIRED, "FILE", NULL,
	     "summarise a pcap or pcapng file instead", false,
	     CLI_TO(STR, &o->read)},
	    {0, 0, "passive", CLI_FLAG, NULL, NULL,
	     "no filter: what a running job uses", false,
	     CLI_TO(BOOL, &o->passive)},
	    CLI_OPT_HELP,
	};
	struct cli_cmd cmd = cap_cmd;
	struct cli cl;
	char **ops;
	int c, nops;

	memset(o, 0, sizeof(*o));
	o->duration_us = 5000000;
	o->max_bytes = 64ULL << 20;
	cmd.opts = optv;
	cmd.nopts = sizeof(optv) / sizeof(optv[0]);
	cmd_cli(r, &cl, &cmd, argc, argv);
	while ((c = cli_next(&cl)) != CLI_END) {
		if (c == O_HELP)
			return cli_help(cl.cmd, stdout) == 0 ? -1 : 2;
		if (cap_option(c, &cl, o) != 0)
			return 2;
	}
	nops = cli_operands(&cl, &ops);
	if (nops > 0) {
		if (o->filter != NULL)
			return cli_usage_error(
			    &cap_cmd, stderr,
			    "a filter expression and --filter:"
			    " give one or the other");
		if (join_expr(ops, nops, o->expr, sizeof(o->expr)) < 0)
			return cli_usage_error(&cap_cmd, stderr,
			                       "filter too long");
		o->filter = o->expr;
	}
	return cap_check(o);
}
