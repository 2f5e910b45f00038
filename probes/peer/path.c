/* netprobe path: the route the kernel uses toward a peer and the path MTU
 * measured against its responder, with mtu-blackhole and mtu-mismatch
 * findings and the MTU to set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "commands.h"
#include "doc/doc.h"
#include "base/parse.h"
#include "decide/decide_path.h"
#include "probe/pathprobe.h"
#include "scan/scan.h"
#include "base/sysroot.h"

enum { O_JSON = 'j', O_TIMEOUT = 't', O_HELP = 'h', O_MIN = 256, O_MAX };

static const struct cli_opt path_optv[] = {
	CLI_OPT_JSON(O_JSON),
	{O_TIMEOUT, 't', "timeout", CLI_REQUIRED, "TIME", "5s",
	 "bound on the whole MTU search", false},
	{O_MIN, 0, "min", CLI_REQUIRED, "SIZE", "576, IPv6 1280",
	 "smallest IP packet tried", false},
	{O_MAX, 0, "max", CLI_REQUIRED, "SIZE", "the interface MTU",
	 "largest IP packet tried", false},
	CLI_OPT_HELP,
};

static const struct cli_cmd path_cmd = {
	"netprobe path", "[options] HOST[:PORT]",
	"Find the route toward a peer and the largest packet that crosses.",
	path_optv, sizeof(path_optv) / sizeof(path_optv[0]),
	"The peer runs `netprobe serve` (UDP port 7470 unless given).\n",
};

/* Human output: the route, the search, then findings and errors. */
static void print_text(const struct path_result *r, const struct doc *d)
{
	const struct pmtu_result *p = &r->pmtu;
	char buf[1024];
	size_t i;
	json_t *o;

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
	json_array_foreach(d->errors, i, o)
	    fprintf(stderr, "netprobe path: %s\n",
	            json_string_value(json_object_get(o, "message")));
}

/* Parses one size option into *out. Returns 0, or 2 after the error. */
static int size_opt(const char *name, const char *arg, unsigned *out)
{
	long long v;
	const char *why;

	if (parse_num(arg, 68, 65535, &v, &why) < 0) {
		fprintf(stderr, "netprobe path: invalid %s '%s': %s\n", name,
		        arg, why);
		return 2;
	}
	*out = (unsigned)v;
	return 0;
}

int cmd_path(int argc, char **argv)
{
	struct path_opts o;
	struct path_result *r;
	struct sysroot sr;
	char rec[IF_NAMESIZE];
	struct doc d;
	const char *why;
	char err[512];
	bool json = false, ran;
	struct cli cl;
	char **ops;
	int c, rc, nops;

	path_opts_default(&o);
	cli_start(&cl, &path_cmd, argc, argv);
	while ((c = cli_next(&cl)) != CLI_END) {
		switch (c) {
		case O_HELP:
			return cli_help(&path_cmd, stdout) == 0 ? 0 : 2;
		case O_TIMEOUT:
			if (parse_duration_us(cl.arg, 100000, 60000000,
			                      &o.deadline_us, &why) < 0) {
				fprintf(stderr,
				        "netprobe path: invalid timeout '%s': "
				        "%s\n",
				        cl.arg, why);
				return 2;
			}
			break;
		case O_MIN:
			if (size_opt("--min", cl.arg, &o.min_size))
				return 2;
			break;
		case O_MAX:
			if (size_opt("--max", cl.arg, &o.max_size))
				return 2;
			break;
		case O_JSON:
			json = true;
			break;
		default:
			return cli_usage_error(&path_cmd, stderr, "%s", cl.err);
		}
	}
	nops = cli_operands(&cl, &ops);
	if (nops != 1)
		return cli_usage_error(&path_cmd, stderr, "%s",
				       nops ? "one peer only" : "which peer?");
	if (o.min_size && o.max_size && o.min_size > o.max_size) {
		fprintf(stderr, "netprobe path: --min %u is above --max %u\n",
		        o.min_size, o.max_size);
		return 2;
	}
	if (doc_init(&d, "netprobe", "path") < 0 ||
	    (r = calloc(1, sizeof(*r))) == NULL) {
		fprintf(stderr, "netprobe path: out of memory\n");
		return 2;
	}
	ran = path_collect(ops[0], &o, r, err, sizeof(err)) == 0;
	if (!ran) {
		doc_add_error(&d, "path", "%s", err);
		if (!json)
			fprintf(stderr, "netprobe path: %s\n", err);
	}
	/* the interface `netprobe scan` would recommend here, so the
	 * output says whether the route toward the peer leaves by it */
	if (sysroot_init(&sr, NULL) < 0 ||
	    scan_recommend_quiet(&sr, rec, sizeof(rec)) < 0)
		rec[0] = '\0';
	path_set_recommended_iface(r, rec);
	if (ran) {
		path_errors(r, &d);
		path_decide(r, &d);
		path_to_doc(r, &d);
	}
	rc = doc_exit_status(&d, ran);
	/* a part that could not run (no responder: no path MTU) leaves the
	 * path unproven */
	if (rc == 0 && d.nerror > 0)
		rc = 1;
	if (json && doc_write(&d, stdout) < 0)
		rc = 2;
	else if (!json && ran)
		print_text(r, &d);
	free(r);
	doc_free(&d);
	return rc;
}
