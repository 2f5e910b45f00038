/* Settings already in the environment checked against the peers:
 * NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME that select an interface from
 * which a peer given with --peer does not answer are rank-unreachable.
 * The route toward a peer proves its own interface; any other selected
 * interface is judged only by a measured connection from its address. */
#include "decide/decide.h"

#include <stdio.h>
#include <string.h>

#include "decide/recommend.h"

#define MAX_SEL 16

/* Adds ifc to the set unless it is there or the set is full. */
static size_t set_add(const struct iface **set, size_t n, size_t max,
                      const struct iface *ifc)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == ifc)
			return n;
	if (n < max)
		set[n++] = ifc;
	return n;
}

/* What NCCL_SOCKET_IFNAME selects, as NCCL expands it. */
static size_t nccl_set(const struct nccl_env *ne, const struct iface_list *l,
                       const struct iface **out, size_t max)
{
	struct nccl_choice c;
	size_t n = 0;

	if (ne->socket_ifname == NULL || strlen(ne->socket_ifname) <= 1)
		return 0;
	nccl_select(l, ne, &c);
	for (int i = 0; i < c.n; i++)
		if (!decide_is_loopback(c.v[i].ifc))
			n = set_add(out, n, max, c.v[i].ifc);
	return n;
}

/* What GLOO_SOCKET_IFNAME names exactly (torch's comma list). */
static size_t gloo_set(const struct scan_env *e, const struct iface_list *l,
                       const struct iface **out, size_t max)
{
	struct env_entry ent[MAX_SEL];
	int k = env_list_split(e->gloo_socket_ifname, ent, MAX_SEL);
	size_t n = 0;

	for (int i = 0; i < k; i++) {
		const struct iface *ifc = iface_by_name(l, ent[i].s);

		if (ifc != NULL && !decide_is_loopback(ifc))
			n = set_add(out, n, max, ifc);
	}
	return n;
}

size_t decide_setting_ifaces(const struct scan_env *e,
                             const struct nccl_env *ne,
                             const struct iface_list *l,
                             const struct iface **out, size_t max)
{
	const struct iface *g[MAX_SEL];
	size_t n = nccl_set(ne, l, out, max), k = gloo_set(e, l, g, MAX_SEL);

	for (size_t i = 0; i < k; i++)
		n = set_add(out, n, max, g[i]);
	return n;
}

/* The measurement from ifc toward peer i, or NULL when none was made. */
static const struct src_reach *measured(const struct src_reach *m, size_t nm,
                                        const struct iface *ifc, size_t peer)
{
	for (size_t i = 0; i < nm; i++)
		if (m[i].peer == peer && strcmp(m[i].ifname, ifc->name) == 0)
			return &m[i];
	return NULL;
}

/* One variable's selection against every peer that answered; one
 * finding for all the pairs that failed. */
static int judge(const char *var, const char *value, const struct iface **set,
                 size_t nset, const struct peer_verdict *peers, size_t n,
                 const struct src_reach *m, size_t nm, const char *fix,
                 struct doc *d)
{
	json_t *ev = NULL;
	const char *first_if = NULL, *first_peer = NULL;
	int bad = 0;

	for (size_t s = 0; s < nset; s++) {
		for (size_t i = 0; i < n; i++) {
			const struct peer_verdict *p = &peers[i];
			const struct src_reach *r;

			if (!p->responded ||
			    strcmp(p->local_ifname, set[s]->name) == 0)
				continue;
			r = measured(m, nm, set[s], i);
			if (r == NULL || r->answered != 0)
				continue;
			if (bad++ == 0) {
				first_if = set[s]->name;
				first_peer = p->peer;
				evidence_add(&ev, "environment", "%s=%s", var,
				             value);
			}
			evidence_add(&ev, "route",
			             "the route toward peer %s (%s) leaves by "
			             "%s, not %s",
			             p->peer, p->peer_addr, p->local_ifname,
			             set[s]->name);
			evidence_add(&ev, "connect",
			             "a connection from %s (%s) to %s port %u "
			             "got no answer: %s, within %lld ms (the "
			             "kernel's SYN retransmission included)",
			             r->addr, set[s]->name, p->peer_addr,
			             r->port, r->reason, r->timeout_us / 1000);
		}
	}
	if (bad == 0)
		return 0;
	if (doc_add_finding(d, FINDING_RANK_UNREACHABLE, SEV_FAULT, ev, fix,
	                    "%s=%s selects %s, from which peer %s%s does not "
	                    "answer: ranks there cannot reach the address it "
	                    "advertises",
	                    var, value, first_if, first_peer,
	                    bad > 1 ? " (and others)" : "") < 0)
		return -1;
	return 0;
}

int decide_setting_reach(const struct scan_env *e, const struct nccl_env *ne,
                         const struct iface_list *l,
                         const struct peer_verdict *peers, size_t n,
                         const struct src_reach *m, size_t nm,
                         const struct recommendation *rec, struct doc *d)
{
	const struct iface *set[MAX_SEL];
	const struct iface *want = rec != NULL ? rec->ifc : NULL;
	char fix[256];
	size_t k;

	if ((k = nccl_set(ne, l, set, MAX_SEL)) > 0) {
		if (want != NULL)
			snprintf(fix, sizeof(fix),
			         "NCCL_SOCKET_IFNAME==%s (the recommended "
			         "interface, in the exact form)",
			         want->name);
		else
			snprintf(fix, sizeof(fix),
			         "unset NCCL_SOCKET_IFNAME, or set it to the "
			         "exact form ==NAME of the interface the peers "
			         "answer on");
		if (judge("NCCL_SOCKET_IFNAME", ne->socket_ifname, set, k,
		          peers, n, m, nm, fix, d) < 0)
			return -1;
	}
	if (e->gloo_socket_ifname != NULL &&
	    (k = gloo_set(e, l, set, MAX_SEL)) > 0) {
		if (want != NULL)
			snprintf(fix, sizeof(fix),
			         "GLOO_SOCKET_IFNAME=%s (the recommended "
			         "interface)",
			         want->name);
		else
			snprintf(fix, sizeof(fix),
			         "unset GLOO_SOCKET_IFNAME, or set it to the "
			         "interface the peers answer on");
		if (judge("GLOO_SOCKET_IFNAME", e->gloo_socket_ifname, set, k,
		          peers, n, m, nm, fix, d) < 0)
			return -1;
	}
	return 0;
}
