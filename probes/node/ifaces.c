/* netprobe ifaces: the interface table, the default routes and, when
 * asked, the route toward one destination, as the kernel sees them. */
#include <errno.h>
#include <netdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/termsafe.h"
#include "base/cli.h"
#include "commands.h"
#include "decide/decide_lookup.h"
#include "doc/cmdrun.h"
#include "doc/doc.h"
#include "kernel/nl.h"
#include "node/ifaces_rdma.h"

#define MAX_DEFAULTS 16

struct ifaces_opts {
	const char *route;   /* --route DEST, or NULL */
	const char *sysroot; /* --sysroot DIR, or NULL for the live system */
};

struct ifaces_result {
	struct iface_list l;
	struct route_info defs[MAX_DEFAULTS];
	size_t ndefs;
	bool have_lookup;
	struct route_info lookup;
	char lookup_addr[INET6_ADDRSTRLEN];
	struct rdma_info rdma; /* RDMA devices and ports (ifaces_rdma.c) */
};

static const struct cli_cmd ifaces_cmd = {
	"netprobe ifaces", "[options]",
	"List interfaces, addresses and routes as the kernel sees them.",
	NULL, 0, NULL,
};

/* Parses the command line; the common options go to r. Returns 0 to
 * run, 1 after --help, -1 on bad usage (already reported). */
static int parse_opts(struct cmd_run *r, int argc, char **argv,
		      struct ifaces_opts *o)
{
	const struct cli_opt optv[] = {
	    {0, 0, "route", CLI_REQUIRED, "HOST", NULL,
	     "also the route toward HOST", false, CLI_TO(STR, &o->route)},
	    {0, 0, "sysroot", CLI_REQUIRED, "DIR", NULL,
	     "replay a node recorded under DIR instead of this one", false,
	     CLI_TO(STR, &o->sysroot)},
	    CLI_OPT_HELP,
	};
	struct cli_cmd cmd = ifaces_cmd;
	struct cli c;
	char **ops;
	int k;

	memset(o, 0, sizeof(*o));
	cmd.opts = optv;
	cmd.nopts = sizeof(optv) / sizeof(optv[0]);
	cmd_cli(r, &c, &cmd, argc, argv);
	while ((k = cli_next(&c)) != CLI_END) {
		if (k == 'h')
			return cli_help(c.cmd, stdout) == 0 ? 1 : -1;
		cli_usage_error(&cmd, stderr, "%s", c.err);
		return -1;
	}
	if (cli_operands(&c, &ops) > 0) {
		cli_usage_error(&cmd, stderr, "unexpected operand '%s'",
				ops[0]);
		return -1;
	}
	if (o->route != NULL && *o->route == '\0') {
		cli_usage_error(&cmd, stderr, "empty --route destination");
		return -1;
	}
	return 0;
}

/* Text or literal address to family and bytes. Returns 0, or the
 * getaddrinfo error code. */
static int resolve(const char *host, int *family, void *addr)
{
	struct addrinfo hints = {.ai_socktype = SOCK_DGRAM}, *res = NULL;
	int r;

	if (inet_pton(AF_INET, host, addr) == 1) {
		*family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, host, addr) == 1) {
		*family = AF_INET6;
		return 0;
	}
	hints.ai_family = AF_UNSPEC;
	r = getaddrinfo(host, NULL, &hints, &res);
	if (r != 0)
		return r;
	*family = res->ai_family;
	if (res->ai_family == AF_INET)
		memcpy(addr,
		       &((const struct sockaddr_in *)(void *)res->ai_addr)
		            ->sin_addr,
		       4);
	else if (res->ai_family == AF_INET6)
		memcpy(addr,
		       &((const struct sockaddr_in6 *)(void *)res->ai_addr)
		            ->sin6_addr,
		       16);
	else
		r = EAI_FAMILY;
	freeaddrinfo(res);
	return r;
}

/* The table's "master/peer/parent" column in a few characters. */
static void relation(const struct iface *ifc, char *buf, size_t len)
{
	if (ifc->master[0] != '\0')
		snprintf(buf, len, "master %s", ifc->master);
	else if (ifc->kind == IFK_VETH && ifc->link_netnsid >= 0)
		snprintf(buf, len, "peer %d@nsid %d", ifc->link_index,
		         ifc->link_netnsid);
	else if (ifc->kind == IFK_VETH && ifc->parent[0] != '\0')
		snprintf(buf, len, "peer %s", ifc->parent);
	else if (ifc->kind == IFK_VXLAN)
		snprintf(buf, len, "vni %u dev %s", ifc->vxlan_id,
		         ifc->parent[0] != '\0' ? ifc->parent : "-");
	else if (ifc->parent[0] != '\0')
		snprintf(buf, len, "parent %s", ifc->parent);
	else if (ifc->link_index > 0)
		snprintf(buf, len, "link %d@nsid %d", ifc->link_index,
		         ifc->link_netnsid);
	else if (ifc->nslaves > 0)
		snprintf(buf, len, "%d member%s", ifc->nslaves,
		         ifc->nslaves == 1 ? "" : "s");
	else
		snprintf(buf, len, "-");
}

/* One route line in `ip route` words: what it is for, then via, dev,
 * src, mtu and metric where known. */
static void print_route(const char *what, const struct route_info *r)
{
	printf("  %s", what);
	if (r->gateway[0] != '\0')
		printf(" via %s", r->gateway);
	printf(" dev %s", r->out_interface[0] != '\0' ? r->out_interface : "?");
	if (r->source[0] != '\0')
		printf(" src %s", r->source);
	if (r->mtu != 0)
		printf(" mtu %u", r->mtu);
	if (r->metric != 0)
		printf(" metric %d", r->metric);
	printf("\n");
}

/* The table's state column: administratively down first, then the
 * operational state, "lowerlayerdown" shortened to fit. */
static const char *state_short(const struct iface *ifc)
{
	const char *s = iface_operstate_name(ifc->operstate);

	if (!(ifc->flags & IFF_UP))
		return "admdown";
	return strcmp(s, "lowerlayerdown") == 0 ? "lowerdown" : s;
}

/* First address as "addr/len", or "-". */
static void first_addr(const struct iface *ifc, char *buf, size_t len)
{
	if (ifc->naddrs > 0)
		snprintf(buf, len, "%s/%u", ifc->addrs[0].str,
		         ifc->addrs[0].prefixlen);
	else
		snprintf(buf, len, "-");
}

/* Widens *w to fit s. */
static void fit(int *w, const char *s)
{
	int n = (int)strlen(s);

	if (n > *w)
		*w = n;
}

/* The human table: one line per interface, further addresses on
 * continuation lines; name, address and relation columns as wide as their
 * longest entry, so columns stay aligned. */
static void emit_text(const struct ifaces_result *res)
{
	char rel[64], addr[INET6_ADDRSTRLEN + 8], speed[24];
	int wn = 4, wa = 7, wr = 8;

	for (size_t i = 0; i < res->l.n; i++) {
		fit(&wn, res->l.v[i].name);
		first_addr(&res->l.v[i], addr, sizeof(addr));
		fit(&wa, addr);
		relation(&res->l.v[i], rel, sizeof(rel));
		fit(&wr, rel);
	}
	printf("%5s  %-*s %-10s %-9s %6s  %-*s  %-*s %7s  %s\n", "INDEX", wn,
	       "NAME", "KIND", "STATE", "MTU", wa, "ADDRESS", wr, "RELATION",
	       "SPEED", "DRIVER");
	for (size_t i = 0; i < res->l.n; i++) {
		const struct iface *ifc = &res->l.v[i];
		const char *kind = iface_kind_name(ifc->kind);

		relation(ifc, rel, sizeof(rel));
		first_addr(ifc, addr, sizeof(addr));
		if (ifc->speed_mbps > 0)
			snprintf(speed, sizeof(speed), "%lldM",
			         ifc->speed_mbps);
		else
			snprintf(speed, sizeof(speed), "-");
		if (ifc->kind == IFK_OTHER && ifc->kind_str[0] != '\0')
			kind = ifc->kind_str;
		printf("%5d  %-*s %-10s %-9s %6u  %-*s  %-*s %7s  %s\n",
		       ifc->index, wn, ifc->name, kind, state_short(ifc),
		       ifc->mtu, wa, addr, wr, rel, speed,
		       ifc->driver[0] != '\0' ? ifc->driver : "-");
		for (int a = 1; a < ifc->naddrs; a++)
			printf("%5s  %-*s %-10s %-9s %6s  %s/%u\n", "", wn, "",
			       "", "", "", ifc->addrs[a].str,
			       ifc->addrs[a].prefixlen);
	}
	printf("\nroutes:\n");
	if (res->ndefs == 0)
		printf("  no default route\n");
	for (size_t i = 0; i < res->ndefs; i++)
		print_route(res->defs[i].family == AF_INET6 ? "default inet6"
		                                            : "default inet",
		            &res->defs[i]);
	if (res->have_lookup) {
		char what[INET6_ADDRSTRLEN + 16];

		snprintf(what, sizeof(what), "to %s", res->lookup.destination);
		print_route(what, &res->lookup);
	}
	ifaces_rdma_text(&res->rdma);
}

/* The document's results: interfaces and routes {defaults, lookup}. */
static int emit_json(struct doc *d, const struct ifaces_result *res,
                     bool have_list)
{
	json_t *defs = json_array(), *routes;

	for (size_t i = 0; defs != NULL && i < res->ndefs; i++)
		json_array_append_new(defs, route_to_json(&res->defs[i]));
	routes = json_pack(
	    "{s:o, s:o}", "defaults", defs ? defs : json_array(), "lookup",
	    res->have_lookup ? route_to_json(&res->lookup) : json_null());
	if (doc_set(d, "interfaces",
	            have_list ? iface_list_to_json(&res->l) : json_array()) <
	        0 ||
	    doc_set(d, "routes", routes) < 0 ||
	    doc_set(d, "rdma", rdma_to_json(&res->rdma)) < 0)
		return -1;
	return 0;
}

/* Collect, then the route question; errors are recorded as they come.
 * Returns the exit status the run has earned so far. */
static int collect(const struct ifaces_opts *o, struct cmd_run *r,
                   struct ifaces_result *res, bool *have_list)
{
	struct sysroot sr;
	int rc = 0;

	if (sysroot_init(&sr, o->sysroot) < 0) {
		return cmd_fail(r, "sysroot", "cannot open sysroot", o->sysroot,
		                "%s", strerror(errno));
	}
	if (o->route != NULL && !sysroot_is_live(&sr)) {
		return cmd_failf(r, "route",
		                 "cannot ask the route to '%s' of a recorded "
		                 "sysroot",
		                 o->route);
	}
	if (iface_collect(&res->l, &sr) < 0) {
		return cmd_fail(r, "interfaces",
		                sysroot_is_live(&sr)
		                    ? "cannot list interfaces over netlink in"
		                    : "cannot list interfaces of sysroot",
		                sysroot_is_live(&sr) ? "this netns"
		                                     : o->sysroot,
		                "%s", strerror(errno));
	}
	*have_list = true;
	rdma_collect(&res->rdma, &sr);
	if (route_defaults(&sr, res->defs, MAX_DEFAULTS, &res->ndefs) < 0 &&
	    errno != ENOENT) {
		rc = cmd_fail(r, "routes", "cannot read default routes", NULL,
		              "%s", strerror(errno));
	}
	if (o->route != NULL) {
		unsigned char addr[16];
		int fam = 0, g = resolve(o->route, &fam, addr);

		if (g != 0) {
			return cmd_fail(r, "route", "cannot resolve", o->route,
			                "%s", gai_strerror(g));
		}
		if (route_get(fam, addr, &res->lookup) == 0) {
			res->have_lookup = true;
		} else {
			int e = errno,
			    f = decide_route_lookup(o->route, e, &r->doc);

			if (f < 0)
				return cmd_fail(r, "route", "out of memory",
				                NULL, NULL);
			if (f > 0 && !r->json && !r->quiet)
				cmd_note(r, "no route to '%s'", o->route);
			if (f > 0 && rc == 0)
				rc = 1;
			if (f == 0) {
				rc = cmd_fail(r, "route",
				              "cannot look up the route to",
				              o->route, "%s", strerror(e));
			}
		}
	}
	return rc;
}

/* parse -> collect (and the route's decider) -> finish. Returns 0 listed,
 * 1 the asked destination has no route, 2 could not run. */
int cmd_ifaces(int argc, char **argv)
{
	struct ifaces_result *res;
	struct ifaces_opts o;
	struct cmd_run r;
	bool have_list = false;
	int rc;

	cmd_begin(&r, "netprobe", "ifaces", stdout, stderr);
	rc = parse_opts(&r, argc, argv, &o);
	if (rc != 0)
		return rc > 0 ? 0 : 2;
	if ((rc = cmd_parsed(&r)) != 0)
		return cmd_finish(&r, rc);
	res = calloc(1, sizeof(*res));
	if (cmd_doc(&r) < 0 || res == NULL) {
		free(res);
		return cmd_finish(
		    &r, cmd_fail(&r, "doc", "out of memory", NULL, NULL));
	}
	rc = collect(&o, &r, res, &have_list);
	/* the document for --json and -o, the table for people */
	if ((r.json || r.output) && emit_json(&r.doc, res, have_list) < 0 &&
	    rc == 0)
		rc = cmd_fail(&r, "doc", "out of memory", NULL, NULL);
	if (!r.json && !r.quiet && have_list && rc != 2) {
		/* interface names are the kernel's: escaped on their way out */
		FILE *real = stdout, *safe = termsafe_open(real, false);

		if (safe != NULL)
			stdout = safe;
		emit_text(res);
		stdout = real;
		if (safe != NULL && fclose(safe) == EOF && rc == 0)
			rc = 2;
	}
	iface_list_free(&res->l);
	free(res);
	return cmd_finish(&r, rc);
}

CMD_COMMAND(ifaces, cmd_ifaces, 20, "list interfaces, addresses and routes");
