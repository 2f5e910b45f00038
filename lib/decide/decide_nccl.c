/* NCCL's own choice judged against the recommendation, and IPv6
 * link-local addresses NCCL would use (it does not skip them). */
#include "decide/decide.h"

#include <stdio.h>
#include <string.h>

#include "decide/recommend.h"

/* Why a pick is risky ("a veth", "a container bridge"), or NULL. */
static const char *pick_risk(const struct iface_list *l,
                             const struct iface *ifc)
{
	if (decide_is_container_bridge(l, ifc))
		return "a container bridge";
	if (decide_is_loopback(ifc))
		return "loopback";
	if (decide_is_virtual(ifc))
		return "a virtual interface";
	return NULL;
}

/* True when NCCL_SOCKET_IFNAME is set and selects the recommended
 * interface alone: then NCCL's own choice never applies. */
static bool setting_matches(const struct iface_list *l,
                            const struct nccl_env *ne, const struct iface *want)
{
	struct nccl_choice c;

	if (want == NULL || ne->socket_ifname == NULL ||
	    strlen(ne->socket_ifname) <= 1)
		return false;
	nccl_select(l, ne, &c);
	for (int i = 0; i < c.n; i++)
		if (c.v[i].ifc != want)
			return false;
	return c.n > 0;
}

/* NCCL's default filter lets bridges, veths and CNI devices through. */
int decide_nccl_default(const struct iface_list *l, const struct nccl_env *ne,
                        const struct recommendation *rec,
                        struct nccl_default *out, struct doc *d)
{
	struct nccl_env e = *ne;
	const struct nccl_choice *c = &out->choice;
	const struct iface *want = rec != NULL ? rec->ifc : NULL;
	const struct iface *first;
	json_t *ev = NULL;
	char fix[96];
	int risky = 0;

	memset(out, 0, sizeof(*out));
	e.socket_ifname = NULL;
	nccl_select(l, &e, &out->choice);
	nccl_select_bootstrap(l, &e, &out->boot);
	if (c->n == 0) {
		snprintf(out->why, sizeof(out->why),
		         "NCCL finds no interface and fails with \"Bootstrap "
		         ": no socket interface found\"");
		return 0;
	}
	/* the transport's first interface is the bootstrap's only without
	 * NCCL_COMM_ID (src/bootstrap.cc); nccl-comm-id-subnet covers none */
	first = out->boot.n > 0 ? out->boot.v[0].ifc : c->v[0].ifc;
	if (rec != NULL && rec->none == REC_NONE_NAT) {
		snprintf(out->why, sizeof(out->why),
		         "no interface works from behind NAT");
		return 0;
	}
	if (setting_matches(l, ne, want)) {
		snprintf(out->why, sizeof(out->why),
		         "NCCL_SOCKET_IFNAME=%s already selects %s, the "
		         "recommended interface, so NCCL's own choice (%s "
		         "first) does not apply",
		         ne->socket_ifname, want->name, first->name);
		return 0;
	}
	for (int i = 0; i < c->n; i++) {
		const struct iface *ifc = c->v[i].ifc;
		const char *risk = pick_risk(l, ifc);
		bool alias = strcmp(c->v[i].name, ifc->name) != 0;

		/* getifaddrs lists an alias as an interface of its own, and
		 * NCCL uses its address beside the interface's */
		if (alias)
			risk = "an IPv4 alias, an address NCCL uses as an "
			       "interface of its own";
		if ((ifc == want && !alias) || risk == NULL)
			continue;
		risky++;
		evidence_add(&ev, "nccl rules",
		             "rule %s picks %s (%s, %s) as interface %d",
		             c->rule, c->v[i].name, iface_kind_name(ifc->kind),
		             risk, i + 1);
	}
	if (want != NULL && first != want) {
		evidence_add(&ev, "nccl rules",
		             "bootstrap would use %s (%s%s), the "
		             "recommendation is %s",
		             first->name,
		             out->boot.n > 0 ? out->boot.v[0].addr->str
		                             : c->v[0].addr->str,
		             out->boot.n > 0 && ne->comm_id != NULL
		                 ? ", the subnet of NCCL_COMM_ID"
		                 : "",
		             want->name);
		snprintf(out->why, sizeof(out->why),
		         "NCCL would bootstrap on %s, not on the recommended "
		         "%s",
		         first->name, want->name);
	} else if (risky > 0) {
		snprintf(out->why, sizeof(out->why),
		         "NCCL would also use %d virtual interface%s", risky,
		         risky == 1 ? "" : "s");
	} else if (want == NULL) {
		json_decref(ev);
		snprintf(out->why, sizeof(out->why),
		         "cannot tell: there is no recommended interface to "
		         "compare %s with",
		         first->name);
		return 0;
	} else {
		json_decref(ev);
		out->safe = true;
		snprintf(out->why, sizeof(out->why),
		         "NCCL would use %s, the recommended interface",
		         first->name);
		return 0;
	}
	if (want != NULL)
		snprintf(fix, sizeof(fix), "NCCL_SOCKET_IFNAME==%s",
		         want->name);
	return doc_add_finding(d, FINDING_NCCL_DEFAULT_IFACE_UNSAFE, -1, ev,
	                       want != NULL ? fix : NULL, "%s", out->why);
}

/* NCCL_SOCKET_FAMILY=AF_INET6 on a host where NCCL would select no
 * IPv6 address but link-local ones (or none at all): every rank of this
 * node advertises what its peers cannot reach, or finds no interface. A
 * fault with the one line that fixes it, unless some selected address
 * is a global or ULA one (issue 48). */
static int family_v6_unusable(const struct iface_list *l,
                              const struct nccl_env *ne, struct doc *d)
{
	struct nccl_choice c;
	json_t *ev = NULL;
	int ll = 0;

	nccl_select(l, ne, &c);
	for (int i = 0; i < c.n; i++) {
		const struct iface *ifc = c.v[i].ifc;

		if (c.v[i].addr->family != AF_INET6)
			continue;
		/* getifaddrs lists a global IPv6 address before the
		 * link-local one, and NCCL takes the first */
		for (int k = 0; ifc != NULL && k < ifc->naddrs; k++)
			if (ifc->addrs[k].family == AF_INET6 &&
			    !IN6_IS_ADDR_LINKLOCAL(&ifc->addrs[k].a.v6))
				return 0;
		ll++;
	}
	evidence_add(&ev, "environment", "NCCL_SOCKET_FAMILY=%s",
	             ne->socket_family);
	for (int i = 0; i < c.n; i++)
		if (c.v[i].addr->family == AF_INET6)
			evidence_add(&ev, "netlink",
			             "%s's only IPv6 address is link-local %s, "
			             "which peers cannot reach without a scope",
			             c.v[i].name, c.v[i].addr->str);
	if (ll == 0)
		evidence_add(&ev, "nccl rules",
		             "no interface NCCL would select (rule %s) has an "
		             "IPv6 address",
		             c.rule);
	if (doc_add_finding(
	        d, FINDING_IPV6_LINK_LOCAL_ONLY, SEV_FAULT, ev,
	        "export NCCL_SOCKET_FAMILY=AF_INET on this node (its peers "
	        "reach it over IPv4), or give the interface a global or ULA "
	        "IPv6 address",
	        "NCCL_SOCKET_FAMILY=%s, but this host has no IPv6 address "
	        "but link-local: NCCL %s",
	        ne->socket_family,
	        ll > 0 ? "advertises an fe80:: address its peers cannot reach"
	               : "finds no interface (NET/Socket : No usable "
	                 "listening interface found)") < 0 ||
	    doc_finding_command(d, "export NCCL_SOCKET_FAMILY=AF_INET") < 0)
		return -1;
	return 0;
}

/* NCCL does not skip fe80:: addresses, which peers cannot use without
 * a scope. */
int decide_ipv6_link_local(const struct iface_list *l,
                           const struct nccl_env *ne, struct doc *d)
{
	struct nccl_choice c;
	json_t *ev = NULL;
	int n = 0;

	if (nccl_env_family(ne) == AF_INET)
		return 0;
	if (nccl_env_family(ne) == AF_INET6)
		return family_v6_unusable(l, ne, d);
	nccl_select(l, ne, &c);
	for (int i = 0; i < c.n; i++) {
		const struct iface_addr *a = c.v[i].addr;

		if (a->family != AF_INET6 || !IN6_IS_ADDR_LINKLOCAL(&a->a.v6))
			continue;
		n++;
		evidence_add(&ev, "nccl rules",
		             "%s has no IPv4 address: NCCL would use its "
		             "link-local %s (rule %s)",
		             c.v[i].name, a->str, c.rule);
	}
	if (n == 0)
		return 0;
	if (doc_add_finding(
	        d, FINDING_IPV6_LINK_LOCAL_ONLY, -1, ev,
	        "set NCCL_SOCKET_FAMILY=AF_INET and pin the interface "
	        "with NCCL_SOCKET_IFNAME in the exact form",
	        "NCCL would use %d link-local IPv6 address%s, which "
	        "peers cannot reach without a scope",
	        n, n == 1 ? "" : "es") < 0)
		return -1;
	return 0;
}
