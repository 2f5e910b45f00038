/* Settings already in the environment, checked against the interfaces:
 * NCCL_SOCKET_IFNAME, GLOO_SOCKET_IFNAME, NCCL_COMM_ID, MASTER_ADDR and
 * Open MPI's TCP BTL include/exclude lists. */
#include "decide/decide.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/recommend.h"

#define MAX_ENTRIES 16

/* True when NCCL's choice holds the interface. */
static bool nccl_choice_has(const struct nccl_choice *c,
                            const struct iface *ifc)
{
	for (int i = 0; i < c->n; i++)
		if (c->v[i].ifc == ifc)
			return true;
	return false;
}

/* The fix for a NCCL_SOCKET_IFNAME that selects the wrong interfaces:
 * the recommended interface in the exact form, never NCCL's own first
 * match (which may be the very interface that is wrong). */
static void ifname_fix(const struct recommendation *rec, char *fix, size_t len)
{
	if (rec != NULL && rec->ifc != NULL)
		snprintf(fix, len,
		         "NCCL_SOCKET_IFNAME==%s (the recommended "
		         "interface, in the exact form)",
		         rec->ifc->name);
	else
		snprintf(fix, len,
		         "set NCCL_SOCKET_IFNAME to the exact form ==NAME of "
		         "the interface on the cluster network; netprobe scan "
		         "--peer HOST tells which");
}

/* Expands NCCL_SOCKET_IFNAME as NCCL does and judges what it selects. */
int decide_nccl_ifname(const struct scan_env *e, const struct nccl_env *ne,
                       const struct iface_list *l,
                       const struct recommendation *rec, struct doc *d)
{
	char fix[192];
	const char *spec = e->nccl_socket_ifname;
	struct nccl_choice c;
	struct nccl_netif ent[MAX_ENTRIES];
	json_t *ev = NULL;
	bool usable = false, over = false;
	int n;

	if (spec == NULL || strlen(spec) <= 1)
		return 0;
	nccl_select(l, ne, &c);
	for (int i = 0; i < c.n; i++)
		if (!decide_is_loopback(c.v[i].ifc))
			usable = true;
	if (!usable) {
		evidence_add(&ev, "environment", "NCCL_SOCKET_IFNAME=%s", spec);
		for (size_t i = 0; i < l->n; i++) {
			const struct iface *ifc = &l->v[i];

			if (nccl_ifname_match(spec, ifc->name))
				evidence_add(&ev, "netlink",
				             "%s matches but is %s", ifc->name,
				             decide_is_loopback(ifc)
				                 ? "loopback"
				             : !iface_is_running(ifc)
				                 ? "not running"
				                 : "without an address");
		}
		if (c.n == 0)
			evidence_add(&ev, "nccl rules",
			             "no running interface with an address "
			             "matches: NCCL fails with \"Bootstrap : "
			             "no socket interface found\"");
		ifname_fix(rec, fix, sizeof(fix));
		if (doc_add_finding(d, FINDING_NCCL_IFNAME_NOMATCH, -1, ev, fix,
		                    "NCCL_SOCKET_IFNAME=%s matches no usable "
		                    "interface",
		                    spec) < 0)
			return -1;
		return 0;
	}
	/* the '^' form excludes, the '=' form is exact: neither overmatches */
	if (spec[0] == '^' || spec[0] == '=')
		return 0;
	n = nccl_iflist_parse(spec, ent, MAX_ENTRIES);
	for (int k = 0; k < n; k++) {
		const char *pfx = ent[k].prefix;
		int hits = 0;
		char names[256] = "";
		size_t used = 0;
		const struct iface *named = iface_by_name(l, pfx);

		for (int i = 0; i < c.n; i++) {
			const struct iface *ifc = c.v[i].ifc;
			int w;

			if (strncmp(c.v[i].name, pfx, strlen(pfx)) != 0)
				continue;
			hits++;
			/* "bond0" names an interface, yet selects bond0.2093
			 * while bond0 itself is not picked */
			if (named != NULL && ifc != named &&
			    !nccl_choice_has(&c, named)) {
				over = true;
				evidence_add(&ev, "nccl rules",
				             "'%s' names an interface that is "
				             "not picked (not running or no "
				             "address), but selects %s",
				             pfx, ifc->name);
			}
			w = snprintf(names + used, sizeof(names) - used, "%s%s",
			             used ? ", " : "", c.v[i].name);
			if (w > 0 && (size_t)w < sizeof(names) - used)
				used += (size_t)w;
		}
		if (hits > 1) {
			over = true;
			evidence_add(&ev, "nccl rules",
			             "the prefix '%s' selects %d interfaces: "
			             "%s",
			             pfx, hits, names);
		}
	}
	if (over) {
		ifname_fix(rec, fix, sizeof(fix));
		if (doc_add_finding(d, FINDING_NCCL_IFNAME_OVERMATCH, -1, ev,
		                    fix,
		                    "NCCL_SOCKET_IFNAME=%s is a prefix that "
		                    "selects more interfaces than it names",
		                    spec) < 0)
			return -1;
	}
	return 0;
}

/* Gloo takes exact names: NCCL syntax or a missing name fails at init. */
int decide_gloo_ifname(const struct scan_env *e, const struct iface_list *l,
                       struct doc *d)
{
	const char *v = e->gloo_socket_ifname;
	struct env_entry ent[MAX_ENTRIES];
	json_t *ev = NULL;
	bool bad = false;
	int n;

	if (v == NULL)
		return 0;
	if (*v == '\0') {
		evidence_add(&ev, "environment", "GLOO_SOCKET_IFNAME is empty");
		if (doc_add_finding(d, FINDING_GLOO_IFNAME_SYNTAX, -1, ev, NULL,
		                    "GLOO_SOCKET_IFNAME is set but empty") < 0)
			return -1;
		return 0;
	}
	if (strpbrk(v, "^=:") != NULL) {
		bad = true;
		evidence_add(&ev, "environment",
		             "GLOO_SOCKET_IFNAME=%s uses NCCL's '^', '=' or "
		             "':port' syntax: Gloo looks the text up as an "
		             "interface name (\"Unable to find address for: "
		             "%s\")",
		             v, v);
	}
	n = env_list_split(v, ent, MAX_ENTRIES);
	if (strchr(v, ',') != NULL)
		evidence_add(&ev, "environment",
		             "GLOO_SOCKET_IFNAME=%s is a list: torch accepts "
		             "one exact name per entry, and every rank must "
		             "list the same number",
		             v);
	for (int i = 0; i < n; i++) {
		const char *name = ent[i].s + strspn(ent[i].s, "^=");

		if (iface_by_name(l, name) == NULL || name != ent[i].s) {
			bad = true;
			evidence_add(&ev, "netlink",
			             "no interface is named exactly '%s'",
			             ent[i].s);
		}
	}
	if (!bad)
		return 0;
	if (doc_add_finding(
	        d, FINDING_GLOO_IFNAME_SYNTAX, -1, ev,
	        "set GLOO_SOCKET_IFNAME to one interface name that "
	        "exists exactly (see the recommendation)",
	        "GLOO_SOCKET_IFNAME=%s is not an exact interface name", v) < 0)
		return -1;
	return 0;
}

/* NCCL looks for a local interface in the subnet of NCCL_COMM_ID. */
int decide_comm_id(const struct scan_env *e, const struct nccl_env *ne,
                   const struct iface_list *l, struct doc *d)
{
	const char *s = ne->comm_id;
	struct nccl_comm_id id;
	json_t *ev = NULL;

	if (e->nccl_comm_id == NULL || s == NULL || strlen(s) <= 1)
		return 0;
	if (nccl_comm_id_parse(s, &id) < 0 || id.family == AF_UNSPEC) {
		evidence_add(&ev, "environment", "NCCL_COMM_ID=%s",
		             e->nccl_comm_id);
		evidence_add(&ev, "resolver",
		             "the host part could not be resolved to an "
		             "address");
		if (doc_add_finding(
		        d, FINDING_NCCL_COMM_ID_SUBNET, -1, ev,
		        "set NCCL_COMM_ID to ADDRESS:PORT of rank 0 "
		        "on a local subnet, or unset it",
		        "NCCL_COMM_ID=%s does not name an address",
		        e->nccl_comm_id) < 0)
			return -1;
		return 0;
	}
	{
		struct nccl_choice c;

		if (nccl_select_bootstrap(l, ne, &c) > 0)
			return 0;
	}
	evidence_add(&ev, "environment", "NCCL_COMM_ID=%s (address %s%s%s)",
	             e->nccl_comm_id, id.host, id.scope[0] ? "%" : "",
	             id.scope);
	for (size_t i = 0; i < l->n; i++)
		for (int k = 0; k < l->v[i].naddrs; k++) {
			const struct iface_addr *a = &l->v[i].addrs[k];

			if (a->family == id.family &&
			    (decide_addr_global(a) || id.family == AF_INET6))
				evidence_add(&ev, "netlink", "%s has %s/%u",
				             l->v[i].name, a->str,
				             a->prefixlen);
		}
	if (id.family == AF_INET6 && id.scope[0] == '\0')
		evidence_add(&ev, "nccl rules",
		             "NCCL compares the IPv6 scope id too: a link-local "
		             "address matches only as [fe80::...%%interface]");
	/* bootstrapNetInit (src/bootstrap.cc) prints the second message in
	 * every release; ncclFindInterfaceMatchSubnet printed the first
	 * before 2.27.3 (src/misc/socket.cc), src/os/linux.cc no longer does */
	if (doc_add_finding(
	        d, FINDING_NCCL_COMM_ID_SUBNET, -1, ev,
	        "unset NCCL_COMM_ID, or set it to rank 0's address on "
	        "a subnet this node shares",
	        "NCCL_COMM_ID address %s is outside every local "
	        "subnet: NCCL's bootstrap fails with \"NET/Socket : No "
	        "usable listening interface found\" (before 2.27.3 "
	        "after \"No interface found in the same subnet as "
	        "remote address\")",
	        id.host) < 0)
		return -1;
	return 0;
}

/* Every rank connects to MASTER_ADDR: it must be reachable from all. */
int decide_master_addr(const struct scan_env *e, const struct master_info *m,
                       const struct iface_list *l, struct doc *d)
{
	json_t *ev = NULL;
	bool loop;

	if (e->master_addr == NULL || *e->master_addr == '\0')
		return 0;
	if (!m->resolved) {
		if (m->error[0] == '\0')
			return 0; /* not looked up (a recorded sysroot) */
		evidence_add(&ev, "environment", "MASTER_ADDR=%s",
		             e->master_addr);
		evidence_add(&ev, "resolver", "%s", m->error);
		if (doc_add_finding(d, FINDING_HOST_UNREACHABLE, -1, ev,
		                    "set MASTER_ADDR to rank 0's address",
		                    "MASTER_ADDR=%s does not resolve",
		                    e->master_addr) < 0)
			return -1;
		return 0;
	}
	loop = (m->family == AF_INET && m->addr[0] == 127) ||
	       (m->family == AF_INET6 &&
	        IN6_IS_ADDR_LOOPBACK((const struct in6_addr *)m->addr));
	if (loop) {
		evidence_add(&ev, "environment", "MASTER_ADDR=%s (%s)",
		             e->master_addr, m->str);
		if (e->nodes > 1)
			evidence_add(&ev, "environment",
			             "the job spans %d or more nodes",
			             e->nodes);
		if (doc_add_finding(
		        d, FINDING_RANK_UNREACHABLE,
		        e->nodes > 1 ? SEV_FAULT : SEV_INFO, ev,
		        "set MASTER_ADDR to rank 0's LAN address (see "
		        "the recommendation) on every node",
		        e->nodes > 1 ? "MASTER_ADDR=%s is a loopback "
		                       "address: ranks on other nodes "
		                       "connect to themselves"
		                     : "MASTER_ADDR=%s is a loopback "
		                       "address: right for one node only",
		        e->master_addr) < 0)
			return -1;
		return 0;
	}
	if (decide_addr_is_local(l, m->family, m->addr) || m->route != 0)
		return 0;
	evidence_add(&ev, "environment", "MASTER_ADDR=%s (%s)", e->master_addr,
	             m->str);
	evidence_add(&ev, "netlink", "no route toward %s", m->str);
	if (doc_add_finding(
	        d, FINDING_HOST_UNREACHABLE, -1, ev,
	        "fix the routing toward rank 0, or set MASTER_ADDR to "
	        "an address this node can reach",
	        "MASTER_ADDR=%s is neither local nor routed",
	        e->master_addr) < 0)
		return -1;
	return 0;
}

/* True when an Open MPI if_include/if_exclude entry (a name or a CIDR
 * subnet) covers the interface. */
static bool ompi_entry_match(const char *ent, const struct iface *ifc)
{
	char host[INET6_ADDRSTRLEN];
	unsigned char addr[16];
	const char *slash = strchr(ent, '/');
	struct iface_addr net;
	size_t len;
	long bits;
	int family;

	if (slash == NULL)
		return strcmp(ent, ifc->name) == 0;
	len = (size_t)(slash - ent);
	if (len >= sizeof(host))
		return false;
	memcpy(host, ent, len);
	host[len] = '\0';
	family = strchr(host, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(family, host, addr) != 1)
		return false;
	bits = strtol(slash + 1, NULL, 10);
	if (bits < 0 || bits > (family == AF_INET ? 32 : 128))
		return false;
	memset(&net, 0, sizeof(net));
	net.family = family;
	memcpy(&net.a, addr, family == AF_INET ? 4 : 16);
	net.prefixlen = (uint8_t)bits;
	for (int i = 0; i < ifc->naddrs; i++)
		if (iface_addr_in_prefix(&net, family, &ifc->addrs[i].a))
			return true;
	return false;
}

/* True when one entry of a comma list covers the interface. */
static bool ompi_list_match(const char *list, const struct iface *ifc)
{
	struct env_entry ent[MAX_ENTRIES];
	int n = env_list_split(list, ent, MAX_ENTRIES);

	for (int i = 0; i < n; i++)
		if (ompi_entry_match(ent[i].s, ifc))
			return true;
	return false;
}

/* Both lists of one component set: Open MPI refuses the pair. The BTL
 * (opal/mca/btl/tcp/btl_tcp_component.c, mca_base_var_check_exclusive)
 * prints "Two mutually-exclusive MCA variables were specified" and does
 * not open, so MPI finds no way between the nodes; the OOB
 * (orte/mca/oob/tcp/oob_tcp_component.c) does not open either, so mpirun
 * cannot reach its daemons. Returns 1 when it added the finding, 0 when
 * not, -1 on no memory. */
static int mpi_exclusive(const char *what, const char *inc, const char *exc,
                         const char *effect, struct doc *d)
{
	json_t *ev = NULL;

	if (inc == NULL || exc == NULL)
		return 0;
	evidence_add(&ev, "environment", "OMPI_MCA_%s_if_include=%s", what,
	             inc);
	evidence_add(&ev, "environment", "OMPI_MCA_%s_if_exclude=%s", what,
	             exc);
	if (doc_add_finding(
	        d, FINDING_MPI_BTL_IFACE, SEV_FAULT, ev,
	        "unset one of the two: keep "
	        "OMPI_MCA_btl_tcp_if_include (and "
	        "OMPI_MCA_oob_tcp_if_include) alone",
	        "OMPI_MCA_%s_if_include and _if_exclude are both "
	        "set: Open MPI refuses them together (\"Two "
	        "mutually-exclusive MCA variables were specified\"), "
	        "%s",
	        what, effect) < 0)
		return -1;
	return 1;
}

/* The OOB list (mpirun's and its daemons' own connections): a name that
 * is no interface here, or a list without the recommended interface. */
static int mpi_oob(const struct scan_env *e, const struct iface_list *l,
                   const struct iface *want, struct doc *d)
{
	struct env_entry ent[MAX_ENTRIES];
	json_t *ev = NULL;
	bool has_want = false, missing = false;
	int n;

	if (e->oob_if_include == NULL)
		return 0;
	n = env_list_split(e->oob_if_include, ent, MAX_ENTRIES);
	for (int i = 0; i < n; i++) {
		bool found = false;

		for (size_t k = 0; k < l->n; k++)
			if (ompi_entry_match(ent[i].s, &l->v[k])) {
				found = true;
				has_want |= &l->v[k] == want;
			}
		if (!found) {
			missing = true;
			evidence_add(&ev, "netlink",
			             "'%s' is no interface or subnet of this "
			             "node",
			             ent[i].s);
		}
	}
	if (!missing && (want == NULL || has_want)) {
		json_decref(ev);
		return 0;
	}
	evidence_add(&ev, "environment", "OMPI_MCA_oob_tcp_if_include=%s",
	             e->oob_if_include);
	if (want != NULL && !has_want)
		evidence_add(&ev, "environment",
		             "it leaves out %s, the recommended interface",
		             want->name);
	if (doc_add_finding(d, FINDING_MPI_BTL_IFACE,
	                    missing ? SEV_FAULT : SEV_WARNING, ev, NULL,
	                    "OMPI_MCA_oob_tcp_if_include=%s %s: mpirun and its "
	                    "daemons talk over these interfaces only",
	                    e->oob_if_include,
	                    missing ? "names what this node does not have"
	                            : "is not the recommended interface") < 0)
		return -1;
	return 0;
}

/* The lists Open MPI refuses or that miss this node's interfaces. */
int decide_mpi_lists(const struct scan_env *e, const struct iface_list *l,
                     const struct recommendation *rec, struct doc *d)
{
	if (rec != NULL && rec->none == REC_NONE_NAT)
		return 0;
	if (mpi_oob(e, l, rec != NULL ? rec->ifc : NULL, d) < 0 ||
	    mpi_exclusive("oob_tcp", e->oob_if_include, e->oob_if_exclude,
	                  "so mpirun cannot reach its daemons", d) < 0)
		return -1;
	return mpi_exclusive("btl_tcp", e->ompi_if_include, e->ompi_if_exclude,
	                     "so the TCP transport does not open and MPI "
	                     "finds no way between the nodes",
	                     d);
}

/* Open MPI's TCP BTL uses every up IPv4 interface but loopback unless
 * told otherwise. */
int decide_mpi(const struct scan_env *e, const struct iface_list *l,
               const struct recommendation *rec, struct doc *d)
{
	const struct iface *want = rec != NULL ? rec->ifc : NULL;
	json_t *ev = NULL;
	char fix[128];
	int bad = 0;

	if (want != NULL)
		snprintf(fix, sizeof(fix), "OMPI_MCA_btl_tcp_if_include=%s",
		         want->name);
	else
		snprintf(fix, sizeof(fix),
		         "set OMPI_MCA_btl_tcp_if_include to the interface "
		         "on the cluster network");
	/* behind NAT no interface works; the NAT finding says so */
	if (rec != NULL && rec->none == REC_NONE_NAT)
		return 0;

	if (e->ompi_if_include != NULL) {
		bool has_want = false;

		for (size_t i = 0; i < l->n; i++) {
			const struct iface *ifc = &l->v[i];

			if (!ompi_list_match(e->ompi_if_include, ifc))
				continue;
			if (ifc == want) {
				has_want = true;
				continue;
			}
			bad++;
			evidence_add(&ev, "environment",
			             "OMPI_MCA_btl_tcp_if_include=%s "
			             "includes %s",
			             e->ompi_if_include, ifc->name);
		}
		if (want != NULL && !has_want) {
			bad++;
			evidence_add(&ev, "environment",
			             "OMPI_MCA_btl_tcp_if_include=%s leaves "
			             "out %s, the recommended interface",
			             e->ompi_if_include, want->name);
		}
		if (bad == 0) {
			json_decref(ev);
			return 0;
		}
		return doc_add_finding(d, FINDING_MPI_BTL_IFACE, -1, ev, fix,
		                       "OMPI_MCA_btl_tcp_if_include=%s is "
		                       "not the recommended interface",
		                       e->ompi_if_include);
	}
	/* Open MPI's default excludes only loopback: every other up
	 * interface with an IPv4 address is tried */
	for (size_t i = 0; i < l->n; i++) {
		const struct iface *ifc = &l->v[i];

		if (ifc == want || decide_is_loopback(ifc) ||
		    !(ifc->flags & IFF_UP) || iface_first_v4(ifc) == NULL ||
		    !decide_is_virtual(ifc))
			continue;
		if (e->ompi_if_exclude != NULL &&
		    ompi_list_match(e->ompi_if_exclude, ifc))
			continue;
		bad++;
		evidence_add(&ev, "netlink",
		             "%s (%s, %s) is up with an IPv4 address and not "
		             "excluded",
		             ifc->name, iface_kind_name(ifc->kind),
		             iface_first_v4(ifc)->str);
	}
	if (bad == 0)
		return 0;
	if (doc_add_finding(
	        d, FINDING_MPI_BTL_IFACE, -1, ev, fix,
	        "Open MPI's TCP transport would also try %d virtual "
	        "interface%s",
	        bad, bad == 1 ? "" : "s") < 0)
		return -1;
	return 0;
}
