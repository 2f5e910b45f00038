/* NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME in the environment that select
 * only interfaces no peer is reached by, while the scan recommends another
 * (issue 48): the ranks of this node advertise an address on a network the
 * others cannot reach. Judged from this node's own state: the routes it
 * looked up toward the peers that answered, the selected interfaces'
 * subnets, and any measurement from their addresses (one that answered
 * eliminates the interface; one that did not is decide_reach.c's). The
 * finding names the interfaces ("selects"): the report, which sees every
 * node's addresses, eliminates it where a peer holds one in their
 * subnets (reports/decide/decide_names.c). */
#include "decide/decide.h"

#include <stdio.h>
#include <string.h>

#include "decide/nccl_select.h"
#include "decide/recommend.h"

#define MAX_SEL 16

/* True when interface ifc may reach a peer, by this node's own state: a
 * route toward a peer that answered leaves by it, a peer's address lies
 * in one of its subnets, or a connection from it was measured (answered
 * or not: decide_setting_reach judges those). */
static bool may_reach(const struct iface *ifc, const struct peer_verdict *p,
                      size_t n, const struct src_reach *m, size_t nm)
{
	unsigned char pa[16];

	for (size_t i = 0; i < nm; i++)
		if (strcmp(m[i].ifname, ifc->name) == 0 && m[i].answered >= 0)
			return true;
	for (size_t i = 0; i < n; i++) {
		int fam = decide_peer_bytes(&p[i], pa);

		if (p[i].responded && strcmp(p[i].local_ifname, ifc->name) == 0)
			return true;
		for (int k = 0; fam != AF_UNSPEC && k < ifc->naddrs; k++)
			if (ifc->addrs[k].family == fam &&
			    decide_subnet_addr(&ifc->addrs[k]) &&
			    iface_addr_in_prefix(&ifc->addrs[k], fam, pa))
				return true;
	}
	return false;
}

/* One variable's selection (set, nset): a fault when no interface of it
 * may reach a peer, at least one peer answered, and the recommended
 * interface is not among them. */
static int judge(const char *var, const char *value, const char *exact,
                 const struct iface **set, size_t nset,
                 const struct peer_verdict *p, size_t n,
                 const struct src_reach *m, size_t nm, const struct iface *want,
                 struct doc *d)
{
	const struct peer_verdict *ok = NULL;
	json_t *ev = NULL, *sel;
	char fix[512], cmd[128];

	if (nset == 0 || want == NULL)
		return 0;
	for (size_t i = 0; i < n && ok == NULL; i++)
		if (p[i].responded && p[i].local_ifname[0] != '\0')
			ok = &p[i];
	if (ok == NULL)
		return 0;
	for (size_t s = 0; s < nset; s++)
		if (set[s] == want || may_reach(set[s], p, n, m, nm))
			return 0;
	evidence_add(&ev, "environment", "%s=%s", var, value);
	for (size_t s = 0; s < nset; s++) {
		const struct iface_addr *a =
		    decide_global_addr(set[s], AF_UNSPEC);

		evidence_add(
		    &ev, "netlink",
		    "%s selects %s%s%s%s, whose subnets hold no peer's "
		    "address",
		    var, set[s]->name, a != NULL ? " (" : "",
		    a != NULL ? a->str : "", a != NULL ? ")" : "");
	}
	evidence_add(&ev, "route",
	             "the route toward peer %s (%s), which answered, leaves by "
	             "%s; the scan recommends %s",
	             ok->peer, ok->peer_addr, ok->local_ifname, want->name);
	snprintf(cmd, sizeof(cmd), "export %s=%s%s", var, exact, want->name);
	/* the fix starts NAME=VALUE: a setting of the node's own, which
	 * leaves no pair undecided (decide_blame.c) */
	snprintf(fix, sizeof(fix),
	         "%s=%s%s (the recommended interface%s) in the job's "
	         "environment on this node, in place of %s=%s: %s",
	         var, exact, want->name,
	         exact[0] != '\0' ? ", in the exact form" : "", var, value,
	         cmd);
	if (doc_add_finding(d, FINDING_RANK_UNREACHABLE, SEV_FAULT, ev, fix,
	                    "%s=%s on this node selects %s, which no peer is "
	                    "reached by (the scan recommends %s): its ranks "
	                    "advertise an address the other nodes cannot "
	                    "reach",
	                    var, value, set[0]->name, want->name) < 0 ||
	    doc_finding_command(d, cmd) < 0)
		return -1;
	/* the interfaces it selects: the report eliminates the fault
	 * where another node holds an address in one of their subnets
	 * (a second rail this node's peers list does not name) */
	sel = json_array();
	for (size_t s = 0; sel != NULL && s < nset; s++)
		if (json_array_append_new(sel, json_string(set[s]->name)) < 0)
			break;
	if (sel == NULL ||
	    json_object_set_new(
	        json_array_get(d->findings, json_array_size(d->findings) - 1),
	        "selects", sel) < 0)
		return -1;
	return 0;
}

/* See decide.h. */
int decide_setting_unreached(const struct scan_env *e,
                             const struct nccl_env *ne,
                             const struct iface_list *l,
                             const struct peer_verdict *peers, size_t n,
                             const struct src_reach *m, size_t nm,
                             const struct recommendation *rec, struct doc *d)
{
	const struct iface *set[MAX_SEL];
	const struct iface *want = rec != NULL ? rec->ifc : NULL;
	struct env_entry ent[MAX_SEL];
	struct nccl_choice c;
	size_t k = 0;
	int ng;

	if (ne->socket_ifname != NULL && strlen(ne->socket_ifname) > 1) {
		nccl_select(l, ne, &c);
		for (int i = 0; i < c.n && k < MAX_SEL; i++)
			if (!decide_is_loopback(c.v[i].ifc))
				set[k++] = c.v[i].ifc;
		if (judge("NCCL_SOCKET_IFNAME", ne->socket_ifname, "=", set, k,
		          peers, n, m, nm, want, d) < 0)
			return -1;
	}
	if (e->gloo_socket_ifname == NULL)
		return 0;
	ng = env_list_split(e->gloo_socket_ifname, ent, MAX_SEL);
	k = 0;
	for (int i = 0; i < ng; i++) {
		const struct iface *ifc = iface_by_name(l, ent[i].s);

		if (ifc == NULL) /* a name it lacks: gloo-ifname-syntax's */
			return 0;
		if (!decide_is_loopback(ifc))
			set[k++] = ifc;
	}
	return judge("GLOO_SOCKET_IFNAME", e->gloo_socket_ifname, "", set, k,
	             peers, n, m, nm, want, d);
}
