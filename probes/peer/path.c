/* netprobe path: the route the kernel uses toward a peer and the path MTU
 * measured against its responder, with mtu-blackhole and mtu-mismatch
 * findings and the MTU to set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "commands.h"
#include "doc/cmdrun.h"
#include "doc/doc.h"
#include "decide/decide_path.h"
#include "probe/pathprobe.h"
#include "scan/scan.h"
#include "base/sysroot.h"

static const struct cli_cmd path_cmd = {
	"netprobe path", "[options] HOST[:PORT]",
	"Find the route toward a peer and the largest packet that crosses.",
	NULL, 0,
	"The peer runs `netprobe serve` (UDP port 7470 unless given).\n",
};

/* The errors the probes recorded in the document, on standard error:
 * with the text, and alone under -q. */
static void print_errors(struct cmd_run *cr, const struct doc *d)
{
	size_t i;
	json_t *o;

	json_array_foreach(d->errors, i, o)
	    cmd_note(cr, "%s",
		     json_string_value(json_object_get(o, "message")));
}

/* Human output: the route, the search, then findings and errors. */
static void print_text(struct cmd_run *cr, const struct path_result *r,
		       const struct doc *d)
{
	const struct pmtu_result *p = &r->pmtu;
	char buf[1024];

	printf("path to %s (%s, responder port %u)\n", r->host, r->addr,
	       r->port);
	if (r->have_route) {
		printf("route          dev %s  src %s  via %s\n",
		       r->route.out_interface,
		       r->route.source[0] ? r->route.source : "-",
		       r->route.gateway[0] ? r->route.gateway : "on-link");
		printf("interface mtu  %u\n", r->if_mtu);
		if (r->route.mtu != 0)
			printf("route mtu      %u\n", r->route.mtu);
	}
	if (r->recommended_iface[0] && r->have_route)
		printf("recommended    %s (%s)\n", r->recommended_iface,
		       strcmp(r->recommended_iface, r->route.out_interface)
		           ? "the route leaves by another interface"
		           : "the route uses it");
	if (r->pmtu_ran) {
		if (p->smallest_lost != 0)
			printf("path mtu       %u (%u and above %s)%s\n",
			       p->largest_ok, p->smallest_lost,
			       p->lost_silently ? "vanish" : "are refused",
			       p->complete ? "" : ", search cut short");
		else if (p->complete)
			printf("path mtu       %u (every size up to %u "
			       "crossed)\n",
			       p->largest_ok, r->search_max);
		else
			printf("path mtu       at least %u (the search ran "
			       "out of time; try a longer --timeout)\n",
			       p->largest_ok);
		printf("peer mtu       %s", p->peer_ifmtu ? "" : "unknown\n");
		if (p->peer_ifmtu)
			printf("%u\n", p->peer_ifmtu);
		if (r->kernel_pmtu)
			printf("kernel pmtu    %u\n", r->kernel_pmtu);
		printf("icmp frag      %s\n",
		       p->frag_needed ? "fragmentation-needed came back"
		                      : "none came back");
		pmtu_probes_text(p, buf, sizeof(buf));
		printf("probes         %s (%.1fs)\n", buf,
		       (double)p->elapsed_us / 1e6);
	}
	doc_print_findings(d, stdout, true);
	print_errors(cr, d);
}

/* Options and the peer; ranges are the table's, the common options the
 * runtime's (cr), the one combination checked after. Returns 0 to run, 1
 * after --help, 2 on bad usage. */
static int path_parse(struct cmd_run *cr, int argc, char **argv,
		      struct path_opts *o, const char **peer)
{
	const struct cli_opt optv[] = {
	    {0, 't', "timeout", CLI_REQUIRED, "TIME", "5s",
	     "bound on the whole MTU search", false,
	     CLI_RANGE(CLI_UNIT_DURATION, 100000, 60000000),
	     CLI_TO(LLONG, &o->deadline_us)},
	    {0, 0, "min", CLI_REQUIRED, "SIZE", "576, IPv6 1280",
	     "smallest IP packet tried", false,
	     CLI_RANGE(CLI_UNIT_COUNT, 68, 65535), CLI_TO(UINT, &o->min_size)},
	    {0, 0, "max", CLI_REQUIRED, "SIZE", "the interface MTU",
	     "largest IP packet tried", false,
	     CLI_RANGE(CLI_UNIT_COUNT, 68, 65535), CLI_TO(UINT, &o->max_size)},
	    CLI_OPT_HELP,
	};
	struct cli_cmd cmd = path_cmd;
	struct cli cl;
	char **ops;
	int c, nops;

	path_opts_default(o);
	cmd.opts = optv;
	cmd.nopts = sizeof(optv) / sizeof(optv[0]);
	cmd_cli(cr, &cl, &cmd, argc, argv);
	while ((c = cli_next(&cl)) != CLI_END) {
		if (c == 'h')
			return cli_help(cl.cmd, stdout) == 0 ? 1 : 2;
		return cli_usage_error(&cmd, stderr, "%s", cl.err);
	}
	nops = cli_operands(&cl, &ops);
	if (nops != 1)
		return cli_usage_error(&cmd, stderr, "%s",
				       nops ? "one peer only" : "which peer?");
	if (o->min_size && o->max_size && o->min_size > o->max_size)
		return cli_usage_error(&cmd, stderr,
				       "--min %u is above --max %u",
				       o->min_size, o->max_size);
	*peer = ops[0];
	return 0;
}

/* parse -> collect -> decide -> finish. */
int cmd_path(int argc, char **argv)
{
	struct path_opts o;
	struct path_result *r;
	struct sysroot sr;
	char rec[IF_NAMESIZE];
	struct cmd_run cr;
	const char *peer = NULL;
	char err[512];
	bool ran;
	int rc;

	cmd_begin(&cr, "netprobe", "path", stdout, stderr);
	rc = path_parse(&cr, argc, argv, &o, &peer);
	if (rc != 0)
		return rc == 1 ? 0 : 2;
	if ((rc = cmd_parsed(&cr)) != 0)
		return cmd_finish(&cr, rc);
	r = calloc(1, sizeof(*r));
	if (cmd_doc(&cr) < 0 || !r) {
		free(r);
		return cmd_finish(
		    &cr, cmd_fail(&cr, "doc", "out of memory", NULL, NULL));
	}
	ran = path_collect(peer, &o, r, err, sizeof(err)) == 0;
	if (!ran)
		cmd_failf(&cr, "path", "%s", err);
	/* the interface `netprobe scan` would recommend here, so the
	 * output says whether the route toward the peer leaves by it */
	if (sysroot_init(&sr, NULL) < 0 ||
	    scan_recommend_quiet(&sr, rec, sizeof(rec)) < 0)
		rec[0] = '\0';
	path_set_recommended_iface(r, rec);
	if (ran) {
		path_errors(r, &cr.doc);
		path_decide(r, &cr.doc);
		path_to_doc(r, &cr.doc);
	}
	rc = cmd_status(&cr, ran);
	/* a part that could not run (no responder: no path MTU) leaves the
	 * path unproven */
	if (rc == 0 && cr.doc.nerror > 0)
		rc = 1;
	if (!cr.json && ran && !cr.quiet)
		print_text(&cr, r, &cr.doc);
	else if (!cr.json && ran)
		print_errors(&cr, &cr.doc);
	free(r);
	return cmd_finish(&cr, rc);
}

CMD_COMMAND(path, cmd_path, 70, "route and path MTU toward a peer");
