/* xfrm-policy-no-state (decide_xfrm.h): an IPsec policy that requires an
 * SA for this node's traffic with its LAN, and no SA behind it. */
#include <stdio.h>
#include <string.h>

#include <linux/xfrm.h>

#include "decide/decide_xfrm.h"

/* True when the first plen bits of a and b are equal. */
static bool same_bits(const unsigned char *a, const unsigned char *b,
                      unsigned plen)
{
	for (unsigned i = 0; i < plen; i++)
		if (((a[i / 8] ^ b[i / 8]) >> (7 - i % 8)) & 1)
			return false;
	return true;
}

/* True when prefix p holds address a of its family. */
static bool covers(const struct xf_addr *p, const unsigned char *a)
{
	return same_bits(p->a, a, p->plen);
}

/* True when prefixes p and q (same family) share an address. */
static bool overlap(const struct xf_addr *p, const struct xf_addr *q)
{
	return same_bits(p->a, q->a, p->plen < q->plen ? p->plen : q->plen);
}

/* True when a state of db serves template t of policy p for this node's
 * address a: its protocol, mode and reqid (where t names one), and its
 * destination: the tunnel's end, or (transport) inside the policy's
 * destination. */
static bool served(const struct xfrm_db *db, const struct xf_policy *p,
                   const struct xf_tmpl *t)
{
	size_t al = t->family == AF_INET6 ? 16 : 4;

	for (size_t i = 0; i < db->ns; i++) {
		const struct xf_state *s = &db->s[i];

		if (s->family != t->family || s->proto != t->proto ||
		    s->mode != t->mode || (t->reqid && s->reqid != t->reqid))
			continue;
		if (t->mode == XFRM_MODE_TUNNEL
		        ? memcmp(s->daddr, t->daddr, al) == 0
		        : covers(&p->dst, s->daddr))
			return true;
	}
	return false;
}

/* The first required template of p that no state serves, or NULL. */
static const struct xf_tmpl *unserved(const struct xfrm_db *db,
                                      const struct xf_policy *p)
{
	for (size_t i = 0; i < p->nt; i++)
		if (!p->t[i].optional && !served(db, p, &p->t[i]))
			return &p->t[i];
	return NULL;
}

/* The global address of ifs whose own subnet p's remote side overlaps
 * while its local side holds it, or NULL. */
static const struct iface_addr *lan_of(const struct xf_policy *p,
                                       const struct iface_list *ifs)
{
	const struct xf_addr *local = p->dir == XFRM_POLICY_OUT ? &p->src
	                                                        : &p->dst;
	const struct xf_addr *remote = p->dir == XFRM_POLICY_OUT ? &p->dst
	                                                         : &p->src;

	for (size_t i = 0; i < ifs->n; i++)
		for (int k = 0; k < ifs->v[i].naddrs; k++) {
			const struct iface_addr *a = &ifs->v[i].addrs[k];
			struct xf_addr lan;
			unsigned max = a->family == AF_INET6 ? 128 : 32;

			if (a->family != p->src.family || a->scope != 0 ||
			    !covers(local, (const unsigned char *)&a->a))
				continue;
			lan.family = a->family;
			memset(lan.a, 0, sizeof(lan.a));
			memcpy(lan.a, &a->a, max / 8);
			lan.plen = a->prefixlen;
			/* the LAN, not the node's own address alone */
			if (a->prefixlen < max && overlap(remote, &lan) &&
			    !(remote->plen == max &&
			      same_bits(remote->a, lan.a, max)))
				return a;
		}
	return NULL;
}

/* Adds p's finding, its template t unserved, for address a. */
static int report(const struct xf_policy *p, const struct xf_tmpl *t,
                  const struct iface_addr *a, struct doc *d)
{
	const char *src = "ip xfrm policy; ip xfrm state (NETLINK_XFRM)";
	const char *dir = p->dir == XFRM_POLICY_OUT ? "out" : "in";
	const char *proto = t->proto == 50   ? "esp"
	                    : t->proto == 51 ? "ah"
	                                     : "comp";
	char s[64], ds[64], td[64], cmd[300], fix[900];
	json_t *ev = NULL;

	xfrm_addr_text(p->src.family, p->src.a, s, sizeof(s));
	xfrm_addr_text(p->dst.family, p->dst.a, ds, sizeof(ds));
	xfrm_addr_text(t->family, t->daddr, td, sizeof(td));
	snprintf(cmd, sizeof(cmd),
	         "ip xfrm policy delete src %s/%u dst %s/%u dir %s", s,
	         p->src.plen, ds, p->dst.plen, dir);
	snprintf(fix, sizeof(fix),
	         "%s (a policy the IPsec service left behind), or start the "
	         "IPsec service that owns it (strongSwan, libreswan: systemctl "
	         "start strongswan or ipsec) so that it negotiates the SAs; "
	         "ip xfrm policy flush && ip xfrm state flush removes them "
	         "all",
	         cmd);
	if (evidence_add(&ev, src,
	                 "policy src %s/%u dst %s/%u dir %s, index %u: tmpl "
	                 "proto %s mode %s%s%s reqid %u, level required",
	                 s, p->src.plen, ds, p->dst.plen, dir, p->index, proto,
	                 t->mode == XFRM_MODE_TUNNEL ? "tunnel" : "transport",
	                 t->mode == XFRM_MODE_TUNNEL ? " dst " : "",
	                 t->mode == XFRM_MODE_TUNNEL ? td : "", t->reqid) < 0 ||
	    evidence_add(&ev, src, "no state (SA) with proto %s serves it",
	                 proto) < 0 ||
	    evidence_add(&ev, src,
	                 "it covers this node's %s and its subnet /%u, where "
	                 "the peers are",
	                 a->str, a->prefixlen) < 0) {
		json_decref(ev);
		return -1;
	}
	if (doc_add_finding(d, FINDING_XFRM_POLICY_NO_STATE, -1, ev, fix,
	                    "the IPsec policy src %s/%u dst %s/%u dir %s "
	                    "requires an %s SA and none exists: the kernel "
	                    "drops every packet it matches, %s %s's subnet "
	                    "(policies left after the IPsec service stopped)",
	                    s, p->src.plen, ds, p->dst.plen, dir, proto,
	                    p->dir == XFRM_POLICY_OUT ? "from this node to"
	                                              : "to this node from",
	                    a->str) < 0)
		return -1;
	return doc_finding_command(d, cmd);
}

/* See decide_xfrm.h. */
int decide_xfrm(const struct xfrm_db *db, const struct iface_list *ifs,
                struct doc *d)
{
	if (db == NULL || !db->read || db->truncated)
		return 0;
	for (size_t i = 0; i < db->np; i++) {
		const struct xf_policy *p = &db->p[i];
		const struct xf_tmpl *t;
		const struct iface_addr *a;

		if ((p->dir != XFRM_POLICY_OUT && p->dir != XFRM_POLICY_IN) ||
		    p->action != XFRM_POLICY_ALLOW || p->narrow ||
		    p->tmpl_truncated || p->nt == 0 ||
		    (t = unserved(db, p)) == NULL || (a = lan_of(p, ifs)) == NULL)
			continue;
		if (report(p, t, a, d) < 0)
			return -1;
	}
	return 0;
}
