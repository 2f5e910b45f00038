/* hostname-loopback and hostname-unbindable: Gloo (and torch's default
 * store) bind the address the hostname resolves to. */
#include "decide/decide.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "decide/recommend.h"

/* True for 127/8 and ::1 (and ::ffff:127.x). */
static bool addr_loopback(const struct hostname_addr *a)
{
	if (a->family == AF_INET)
		return (ntohl(a->a.v4.s_addr) >> 24) == 127;
	if (IN6_IS_ADDR_LOOPBACK(&a->a.v6))
		return true;
	return IN6_IS_ADDR_V4MAPPED(&a->a.v6) && a->a.v6.s6_addr[12] == 127;
}

/* Gloo binds the first address that bind() accepts. */
const struct hostname_addr *hostname_gloo_addr(const struct hostname_info *h)
{
	for (int i = 0; i < h->naddrs; i++)
		if (h->addrs[i].bindable != 0)
			return &h->addrs[i];
	return NULL;
}

/* Whether this host can bind the address: bind()'s answer when tried,
 * else whether an interface holds it. */
static bool addr_local(const struct hostname_addr *a,
                       const struct iface_list *l)
{
	if (a->bindable >= 0)
		return a->bindable == 1;
	return decide_addr_is_local(l, a->family, &a->a);
}

/* GLOO_SOCKET_IFNAME as the fixes write it: one exact name of an
 * interface that holds an address, so Gloo binds that, not the name's. */
static bool gloo_pinned(const struct scan_env *e, const struct iface_list *l)
{
	const struct iface *ifc;

	if (e == NULL || e->gloo_socket_ifname == NULL)
		return false;
	ifc = iface_by_name(l, e->gloo_socket_ifname);
	return ifc != NULL && ifc->naddrs > 0;
}

/* MASTER_ADDR set to an address other than a loopback one: torch's store
 * is reached there, not at rank 0's hostname. */
static bool master_set(const struct scan_env *e)
{
	const char *m = e != NULL ? e->master_addr : NULL;

	return m != NULL && *m != '\0' && strncmp(m, "127.", 4) != 0 &&
	       strcmp(m, "::1") != 0 && strcmp(m, "localhost") != 0;
}

/* Gloo and torch's store advertise what the hostname resolves to; the
 * settings the fixes name, once set, decide instead (the closed loop
 * applies exactly those and must see the fault gone). */
int decide_hostname(const struct hostname_info *h, const struct iface_list *l,
                    const struct recommendation *rec,
                    const struct scan_env *e, struct doc *d)
{
	const struct hostname_addr *g;
	json_t *ev = NULL;
	char fix[sizeof(h->name) + 320], gloo[96], lan[96];
	int nlocal = 0;

	/* the fixes name the recommendation where there is one */
	if (rec != NULL && rec->ifc != NULL && rec->addr != NULL) {
		snprintf(gloo, sizeof(gloo), "GLOO_SOCKET_IFNAME=%s",
		         rec->ifc->name);
		snprintf(lan, sizeof(lan), "%s", rec->addr->str);
	} else {
		snprintf(gloo, sizeof(gloo),
		         "GLOO_SOCKET_IFNAME to the interface on the cluster "
		         "network");
		snprintf(lan, sizeof(lan), "this node's LAN address");
	}

	/* a loopback name needs both settings (its fix names both); a name
	 * that does not resolve or no interface holds, Gloo's alone */
	if (gloo_pinned(e, l) && master_set(e))
		return 0;
	if (h->live && h->name[0] != '\0' && (!h->resolved || h->naddrs == 0) &&
	    !gloo_pinned(e, l)) {
		evidence_add(&ev, "getaddrinfo", "%s",
		             h->error[0] ? h->error : "no address");
		snprintf(fix, sizeof(fix),
		         "map %s to %s in /etc/hosts, or set %s", h->name, lan,
		         gloo);
		if (doc_add_finding(
		        d, FINDING_HOSTNAME_UNBINDABLE, -1, ev, fix,
		        "hostname %s does not resolve: torch's Gloo "
		        "falls back to the loopback address",
		        h->name) < 0)
			return -1;
		return 0;
	}
	if (!h->resolved || h->naddrs == 0)
		return 0;
	g = hostname_gloo_addr(h);
	if (g != NULL && addr_loopback(g)) {
		for (int i = 0; i < h->naddrs; i++)
			evidence_add(&ev, h->resolved_by, "%s resolves to %s%s",
			             h->name, h->addrs[i].str,
			             &h->addrs[i] == g ? " (Gloo binds this)"
			                               : "");
		snprintf(fix, sizeof(fix),
		         "in /etc/hosts, map %s to %s instead of %s; or set "
		         "%s and MASTER_ADDR to rank 0's address",
		         h->name, lan, g->str, gloo);
		/* gloo/transport/tcp/device.cc, Device::isInitiator: the
		 * higher address of a pair connects. The e2e suite saw both:
		 * on 10.231.71.0/24 the master's 127.0.1.1 connected out and
		 * Gloo worked; on 172.17.71.0/24, or with every node on
		 * 127.0.1.1, the peer connected to its own loopback */
		evidence_add(&ev, "gloo",
		             "of each Gloo pair the higher address connects: a "
		             "rank above %s (172.16/12, 192.168/16, or another "
		             "node whose hostname also resolves to 127.0.1.1) "
		             "connects to it, its own loopback, and is refused; "
		             "ranks below it (10/8) are connected to from here, "
		             "so the same hosts file works on one cluster and "
		             "fails on another",
		             g->str);
		if (doc_add_finding(d, FINDING_HOSTNAME_LOOPBACK, -1, ev, fix,
		                    "hostname %s resolves to %s: Gloo binds it "
		                    "and advertises it, and a peer that must "
		                    "connect to it cannot",
		                    h->name, g->str) < 0)
			return -1;
		return 0;
	}
	for (int i = 0; i < h->naddrs; i++)
		if (addr_local(&h->addrs[i], l))
			nlocal++;
	if (nlocal > 0 || gloo_pinned(e, l))
		return 0;
	for (int i = 0; i < h->naddrs; i++) {
		const struct hostname_addr *a = &h->addrs[i];

		if (a->bindable == 0)
			evidence_add(&ev, "bind(2)", "bind %s: %s", a->str,
			             strerror(a->bind_errno));
		else
			evidence_add(&ev, h->resolved_by,
			             "%s resolves to %s, which no local "
			             "interface holds",
			             h->name, a->str);
	}
	snprintf(fix, sizeof(fix), "set %s, or map %s to %s in /etc/hosts",
	         gloo, h->name, lan);
	if (doc_add_finding(
	        d, FINDING_HOSTNAME_UNBINDABLE, -1, ev, fix,
	        "hostname %s resolves to %s, which no local interface "
	        "has",
	        h->name, h->addrs[0].str) < 0)
		return -1;
	return 0;
}
