/* netprobe scan's local collection: interfaces, default routes, layering,
 * hostname and the frameworks' environment, with MASTER_ADDR and a named
 * NCCL_COMM_ID resolved as the frameworks would (live system only). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/jobenv.h"
#include "scan/scan_int.h"

/* Resolves MASTER_ADDR and asks for the route toward it (live only). */
static void scan_master(struct scan *s)
{
	struct master_info *m = &s->master;
	struct sockaddr_storage ss;
	struct route_info ri;
	const char *v = s->env.master_addr;
	int rc;

	memset(m, 0, sizeof(*m));
	m->route = -1;
	rc = master_addr_parse(v, &m->family, m->addr);
	if (rc < 0)
		return;
	if (rc == 0) {
		if (!sysroot_is_live(&s->sr))
			return; /* a name: not looked up for a recorded tree */
		if (resolve_bounded(v, AF_UNSPEC, &ss, 1, RESOLVE_MS,
		                    m->error, sizeof(m->error)) < 1)
			return;
		m->family = ss.ss_family;
		memcpy(m->addr, sockaddr_addr(&ss),
		       m->family == AF_INET ? 4 : 16);
	}
	m->resolved = true;
	inet_ntop(m->family, m->addr, m->str, sizeof(m->str));
	if (!sysroot_is_live(&s->sr))
		return;
	if (route_get(m->family, m->addr, &ri) == 0) {
		m->route = 1;
		snprintf(m->route_ifname, sizeof(m->route_ifname), "%s",
		         ri.out_interface);
	} else {
		m->route = 0;
	}
}

/* NCCL_COMM_ID with a host name: NCCL resolves it, so do we (live), and
 * keep the numeric form for the subnet rule. */
static void scan_comm_id(struct scan *s)
{
	struct nccl_comm_id id;
	struct sockaddr_storage ss;
	char err[320];

	if (!sysroot_is_live(&s->sr) ||
	    nccl_comm_id_parse(s->env.nccl_comm_id, &id) < 0 ||
	    id.bracketed || id.family != AF_UNSPEC)
		return;
	if (resolve_bounded(id.host, AF_UNSPEC, &ss, 1, RESOLVE_MS, err,
	                    sizeof(err)) < 1) {
		doc_add_error(&s->run.doc, "resolve", "NCCL_COMM_ID: %s", err);
		return;
	}
	if (nccl_comm_id_format(ss.ss_family, sockaddr_addr(&ss), id.port,
	                        s->comm_id_numeric,
	                        sizeof(s->comm_id_numeric)) < 0)
		s->comm_id_numeric[0] = '\0';
}

/* Orders default routes as the kernel prefers them: IPv4 first, then by
 * metric. */
static int route_cmp(const void *a, const void *b)
{
	const struct route_info *x = a, *y = b;

	if (x->family != y->family)
		return x->family == AF_INET ? -1 : 1;
	return (x->metric > y->metric) - (x->metric < y->metric);
}

/* The frameworks' settings: the live process's environment, or the one
 * a recorded sysroot holds (never the live one: it belongs to another
 * node than the one replayed). */
static void scan_env_collect(struct scan *s)
{
	if (sysroot_is_live(&s->sr)) {
		scan_env_from_process(&s->env);
		return;
	}
	if (env_record_read(&s->sr, &s->envrec) < 0)
		doc_add_error(&s->run.doc, "environment",
		              "cannot read '%s%s': %s; the settings were not "
		              "checked",
		              s->sr.dir, ENV_RECORD_PATH, strerror(errno));
	scan_env_from_record(&s->envrec, &s->env);
}

/* The static neighbour entries (PERMANENT, NOARP) of the live table:
 * one left from a peer's old NIC cuts that peer off from this node
 * alone, which the report tells from the peer's own MAC (issue 48). A
 * recorded tree has no table: null in the document. */
static void scan_statics(struct scan *s)
{
	if (!sysroot_is_live(&s->sr) ||
	    (s->statics = malloc(sizeof(*s->statics))) == NULL)
		return;
	if (neigh_statics_get(s->statics) == 0)
		return;
	doc_add_error(&s->run.doc, "neighbours",
		      "cannot read the neighbour table: %s", strerror(errno));
	free(s->statics);
	s->statics = NULL;
}

/* Marks the interfaces the default routes leave by: a bridge that
 * carries the default route is an uplink, never a container bridge. */
static void mark_defaults(struct scan *s)
{
	for (size_t i = 0; i < s->ndefaults; i++)
		for (size_t j = 0; j < s->ifaces.n; j++)
			if (strcmp(s->ifaces.v[j].name,
			           s->defaults[i].out_interface) == 0)
				s->ifaces.v[j].default_route = true;
}

/* Reads the nat table's redirects (from nft_json, the ruleset's text)
 * for the ports a peer's connection uses: the mesh's, torchrun's and the
 * store's, and one of the ephemeral range (NCCL's and Gloo's
 * listeners). */
static void scan_natredir(struct scan *s, const char *nft_json)
{
	unsigned ports[4] = {s->mesh_port ? s->mesh_port : 7470, 29400, 29500,
	                     45000};

	if (s->lim.port_lo > 0 && s->lim.port_hi >= s->lim.port_lo)
		ports[3] = (unsigned)((s->lim.port_lo + s->lim.port_hi) / 2);
	natredir_collect(nft_json, ports, 4, s->natredir);
}

/* Only the interface list is required; every other step that fails
 * leaves an error in the document and the scan goes on without it. */
int scan_collect(struct scan *s)
{
	char *nft;

	if (iface_collect(&s->ifaces, &s->sr) < 0) {
		if (sysroot_is_live(&s->sr))
			return cmd_fail(&s->run, "netlink",
			                "cannot list interfaces", NULL, "%s",
			                strerror(errno));
		return cmd_fail(&s->run, "netlink", "cannot list interfaces in",
		                s->sr.dir, "%s", strerror(errno));
	}
	rpfilter_collect(&s->sr, &s->ifaces, &s->rpf);
	if (route_defaults(&s->sr, s->defaults, SCAN_MAX_ROUTES,
	                   &s->ndefaults) < 0) {
		int e = errno;
		const char *k4 = sysroot_odd_kind(&s->sr, "/proc/net/route");
		const char *k6 =
		    sysroot_odd_kind(&s->sr, "/proc/net/ipv6_route");

		if (!sysroot_is_live(&s->sr) && (k4 || k6))
			doc_add_error(&s->run.doc, "route",
			              "cannot read the default routes: "
			              "%s/proc/net/%s is %s, not a regular "
			              "file",
			              s->sr.dir, k4 ? "route" : "ipv6_route",
			              k4 ? k4 : k6);
		else
			doc_add_error(&s->run.doc, "route",
			              "cannot read the default routes: %s",
			              strerror(e));
		s->ndefaults = 0;
	} else {
		s->routes_known = true;
		qsort(s->defaults, s->ndefaults, sizeof(s->defaults[0]),
		      route_cmp);
		mark_defaults(s);
	}
	if (layers_detect(&s->ly, &s->sr, &s->ifaces) < 0)
		doc_add_error(&s->run.doc, "layers",
		              "cannot tell the layering: %s", strerror(errno));
	else
		s->have_layers = true;
	if (hostname_collect(&s->sr, &s->host, RESOLVE_MS) < 0)
		doc_add_error(&s->run.doc, "hostname",
		              "cannot read the hostname%s%s",
		              s->host.error[0] ? ": " : "", s->host.error);
	else if (!s->host.resolved && !s->host.live)
		doc_add_error(&s->run.doc, "hostname", "%s", s->host.error);
	if (!sysroot_is_live(&s->sr))
		doc_add_error(&s->run.doc, "live",
		              "recorded sysroot: bind(), getaddrinfo and route "
		              "lookups were skipped");
	scan_env_collect(s);
	/* NCCL reads its configuration files under the environment: a scan
	 * after the report's /etc/nccl.conf advice must see it too */
	scan_env_apply_conf(&s->env, &s->sr, &s->nccl_conf);
	if (s->o.npeers > 0 && s->env.nodes == 0)
		s->env.nodes = 2; /* peers on other nodes were named */
	scan_master(s);
	scan_comm_id(s);
	scan_rdma_collect(s);
	/* nft's ruleset, read once for the blocks, the limits and the
	 * redirects below (NULL: nft could not run) */
	nft = sysroot_is_live(&s->sr) ? fwrules_nft_json(FWRULES_MS) : NULL;
	/* the fixes name the table and chain that drop (issue 23) */
	if (sysroot_is_live(&s->sr) &&
	    (s->fwrules = malloc(sizeof(*s->fwrules))) != NULL) {
		fwrules_collect(s->fwrules, nft, FWRULES_MS);
		/* ufw's and firewalld's commands only where they run */
		fwservice_read(&s->sr, &s->fwrules->svc);
		s->fwrules->svc_read = true;
	}
	/* the limits that look like a firewall or like nothing (issue 48) */
	hostlim_collect(&s->sr, &s->lim);
	if (sysroot_is_live(&s->sr) &&
	    hostlim_collect_rules(&s->lim, nft, FWRULES_MS) < 0)
		doc_add_error(&s->run.doc, "limits",
		              "cannot read the limit rules: out of memory");
	/* sock_diag refused (a confined container): the backlogs stay
	 * unread, null in the document, and nothing is decided on them */
	if (sysroot_is_live(&s->sr))
		(void)hostlim_collect_listeners(&s->lim);
	/* a sidecar's redirect of the job's ports to a port nothing holds
	 * (issue 48, blind48c 05) */
	if (sysroot_is_live(&s->sr)) {
		if ((s->natredir = malloc(sizeof(*s->natredir))) != NULL)
			scan_natredir(s, nft);
		else
			doc_add_error(&s->run.doc, "nat",
			              "cannot read the nat redirects: out of "
			              "memory");
	}
	free(nft);
	/* IPsec policies with no SA behind them (issue 48, blind48c 03);
	 * a bus that refuses (unprivileged) leaves them unread */
	if (sysroot_is_live(&s->sr) &&
	    (s->xfrm = malloc(sizeof(*s->xfrm))) != NULL)
		(void)xfrm_collect(s->xfrm);
	scan_statics(s);
	/* the interfaces' queueing disciplines (issue 48: a shaper that
	 * drops full frames is no MTU); a recorded tree has none */
	if (sysroot_is_live(&s->sr) &&
	    (s->qdiscs = malloc(sizeof(*s->qdiscs))) != NULL &&
	    qdisc_collect(s->qdiscs) < 0) {
		doc_add_error(&s->run.doc, "qdiscs",
			      "cannot read the queueing disciplines: %s",
			      strerror(errno));
		free(s->qdiscs);
		s->qdiscs = NULL;
	}
	return 0;
}
