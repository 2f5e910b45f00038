/* The addresses Gloo, Open MPI and NCCL will advertise from this node,
 * and the findings once the peers said whether they reach them. */
#include "decide/advertise.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "decide/decide.h"
#include "decide/nccl_select.h"
#include "probe/peerprobe.h"

#define ENTRIES 16

const char *advert_fw_name(enum adv_framework fw)
{
	switch (fw) {
	case ADV_GLOO:
		return "gloo";
	case ADV_MPI:
		return "mpi";
	case ADV_NCCL:
		return "nccl";
	}
	return "?";
}

/* Adds an address unless the framework has it already. */
static void add(struct advert *out, size_t *n, size_t max,
                enum adv_framework fw, const char *ifname, const char *addr,
                const char *why)
{
	for (size_t i = 0; i < *n; i++)
		if (out[i].fw == fw && strcmp(out[i].addr, addr) == 0)
			return;
	if (*n >= max)
		return;
	memset(&out[*n], 0, sizeof(out[*n]));
	out[*n].fw = fw;
	snprintf(out[*n].ifname, sizeof(out[*n].ifname), "%s", ifname);
	snprintf(out[*n].addr, sizeof(out[*n].addr), "%s", addr);
	snprintf(out[*n].why, sizeof(out[*n].why), "%s", why);
	(*n)++;
}

/* The first address of an interface, IPv4 before IPv6 (getifaddrs'
 * order, which Gloo's lookupAddrForIface walks), or NULL. */
static const struct iface_addr *first_addr(const struct iface *ifc)
{
	const struct iface_addr *a = iface_first_v4(ifc);

	for (int k = 0; a == NULL && k < ifc->naddrs; k++)
		if (ifc->addrs[k].family == AF_INET6)
			a = &ifc->addrs[k];
	return a;
}

/* The interface holding a numeric address, or NULL. */
static const struct iface *holder(const struct iface_list *l, int family,
                                  const void *addr)
{
	for (size_t i = 0; i < l->n; i++)
		for (int k = 0; k < l->v[i].naddrs; k++) {
			const struct iface_addr *a = &l->v[i].addrs[k];

			if (a->family == family &&
			    memcmp(&a->a, addr, family == AF_INET ? 4 : 16) ==
			        0)
				return &l->v[i];
		}
	return NULL;
}

/* Gloo: GLOO_SOCKET_IFNAME's interfaces, else the hostname's address. */
static void gloo(const struct scan_env *e, const struct hostname_info *h,
                 const struct iface_list *l, struct advert *out, size_t *n,
                 size_t max)
{
	struct env_entry ent[ENTRIES];
	char why[160];
	int ne;

	if (e->gloo_socket_ifname != NULL && *e->gloo_socket_ifname != '\0') {
		ne = env_list_split(e->gloo_socket_ifname, ent, ENTRIES);
		for (int i = 0; i < ne; i++) {
			const struct iface *ifc = iface_by_name(l, ent[i].s);
			const struct iface_addr *a =
			    ifc != NULL ? first_addr(ifc) : NULL;

			if (a == NULL) /* gloo-ifname-syntax says so */
				continue;
			snprintf(why, sizeof(why), "GLOO_SOCKET_IFNAME=%s",
			         e->gloo_socket_ifname);
			add(out, n, max, ADV_GLOO, ifc->name, a->str, why);
		}
		return;
	}
	{
		const struct hostname_addr *g = hostname_gloo_addr(h);
		const struct iface *ifc;

		/* loopback and unbindable names: the hostname findings */
		if (g == NULL || g->bindable == 0 ||
		    (g->family == AF_INET &&
		     (ntohl(g->a.v4.s_addr) >> 24) == 127) ||
		    (g->family == AF_INET6 && IN6_IS_ADDR_LOOPBACK(&g->a.v6)))
			return;
		ifc = holder(l, g->family, &g->a);
		if (ifc == NULL)
			return;
		snprintf(why, sizeof(why),
		         "GLOO_SOCKET_IFNAME unset: the hostname %.64s resolves "
		         "to it",
		         h->name);
		add(out, n, max, ADV_GLOO, ifc->name, g->str, why);
	}
}

/* True when an Open MPI list entry (a name or a CIDR subnet) covers the
 * interface. */
static bool ompi_covers(const char *list, const struct iface *ifc)
{
	struct env_entry ent[ENTRIES];
	int ne = env_list_split(list, ent, ENTRIES);

	for (int i = 0; i < ne; i++) {
		char host[INET6_ADDRSTRLEN];
		unsigned char addr[16];
		const char *slash = strchr(ent[i].s, '/');
		struct iface_addr net;
		const char *errstr;
		long long bits;
		int family;

		if (slash == NULL) {
			if (strcmp(ent[i].s, ifc->name) == 0)
				return true;
			continue;
		}
		if ((size_t)(slash - ent[i].s) >= sizeof(host))
			continue;
		memcpy(host, ent[i].s, (size_t)(slash - ent[i].s));
		host[slash - ent[i].s] = '\0';
		family = strchr(host, ':') ? AF_INET6 : AF_INET;
		if (inet_pton(family, host, addr) != 1 ||
		    parse_num(slash + 1, 0, family == AF_INET ? 32 : 128,
		              &bits, &errstr) < 0)
			continue;
		memset(&net, 0, sizeof(net));
		net.family = family;
		memcpy(&net.a, addr, family == AF_INET ? 4 : 16);
		net.prefixlen = (uint8_t)bits;
		for (int k = 0; k < ifc->naddrs; k++)
			if (iface_addr_in_prefix(&net, family,
			                         &ifc->addrs[k].a))
				return true;
	}
	return false;
}

/* Open MPI's TCP BTL: the include list, else every up interface with
 * IPv4 but loopback and the exclude list. */
static void mpi(const struct scan_env *e, const struct iface_list *l,
                struct advert *out, size_t *n, size_t max)
{
	char why[160];

	for (size_t i = 0; i < l->n; i++) {
		const struct iface *ifc = &l->v[i];
		const struct iface_addr *a = iface_first_v4(ifc);

		if (a == NULL || decide_is_loopback(ifc) ||
		    !(ifc->flags & IFF_UP))
			continue;
		if (e->ompi_if_include != NULL) {
			if (!ompi_covers(e->ompi_if_include, ifc))
				continue;
			snprintf(why, sizeof(why),
			         "OMPI_MCA_btl_tcp_if_include=%s",
			         e->ompi_if_include);
		} else {
			if (e->ompi_if_exclude != NULL &&
			    ompi_covers(e->ompi_if_exclude, ifc))
				continue;
			snprintf(why, sizeof(why),
			         "btl_tcp_if_include unset: Open MPI uses every "
			         "up interface but loopback");
		}
		add(out, n, max, ADV_MPI, ifc->name, a->str, why);
	}
}

size_t decide_advertised(const struct scan_env *e, const struct nccl_env *ne,
                         const struct hostname_info *h,
                         const struct iface_list *l, struct advert *out,
                         size_t max)
{
	struct nccl_choice c;
	size_t n = 0;
	char why[160];

	gloo(e, h, l, out, &n, max);
	mpi(e, l, out, &n, max);
	if (nccl_select_bootstrap(l, ne, &c) > 0 &&
	    !decide_is_loopback(c.v[0].ifc)) {
		snprintf(why, sizeof(why), "NCCL's bootstrap (rule %s%s%s)",
		         c.rule, ne->socket_ifname ? ": NCCL_SOCKET_IFNAME=" : "",
		         ne->socket_ifname ? ne->socket_ifname : "");
		add(out, &n, max, ADV_NCCL, c.v[0].ifc->name, c.v[0].addr->str,
		    why);
	}
	return n;
}

/* One finding per advertised address that a peer cannot reach. */
int decide_reach(const struct advert *a, size_t na,
                 const struct reach_result *r, size_t nr,
                 const struct peer_verdict *peers, size_t npeers,
                 const struct iface *want, struct doc *d, unsigned *seenp)
{
	unsigned seen = 0;

	*seenp = 0;

	for (size_t i = 0; i < na; i++) {
		json_t *ev = NULL;
		char fix[160], who[200] = "";
		size_t used = 0;
		int nno = 0, above = 0;

		for (size_t k = 0; k < nr; k++) {
			const struct peer_verdict *p;
			int w;

			if (r[k].adv != i || r[k].state != REACHBACK_NO ||
			    r[k].peer >= npeers)
				continue;
			p = &peers[r[k].peer];
			nno++;
			evidence_add(&ev, "reach",
			             "a connection from %s (%s) to the "
			             "responder of %s got no answer: %s",
			             a[i].addr, a[i].ifname, p->peer_addr,
			             r[k].detail);
			if (peerprobe_gloo_order(p->peer_addr, a[i].addr) > 0)
				above++;
			w = snprintf(who + used, sizeof(who) - used, "%s%s",
			             used ? ", " : "", p->peer_addr);
			if (w > 0 && (size_t)w < sizeof(who) - used)
				used += (size_t)w;
		}
		if (nno == 0)
			continue;
		seen |= ADV_BIT(a[i].fw);
		evidence_add(&ev, "environment", "%s uses %s on %s: %s",
		             advert_fw_name(a[i].fw), a[i].addr, a[i].ifname,
		             a[i].why);
		switch (a[i].fw) {
		case ADV_GLOO:
			snprintf(fix, sizeof(fix), "GLOO_SOCKET_IFNAME=%s",
			         want != NULL ? want->name
			                      : "the interface that reaches the "
			                        "peers");
			if (above == 0)
				evidence_add(
				    &ev, "gloo",
				    "of each Gloo pair the higher address "
				    "connects (gloo/transport/tcp/device.cc): "
				    "%s sorts above these peers, so this rank "
				    "connects to them; a rank above it must "
				    "connect to %s and fails",
				    a[i].addr, a[i].addr);
			if (doc_add_finding(d, FINDING_RANK_UNREACHABLE,
			                    above > 0 ? SEV_FAULT : SEV_WARNING,
			                    ev, fix,
			                    "Gloo advertises %s (%s), which %s "
			                    "cannot reach",
			                    a[i].addr, a[i].ifname, who) < 0)
				return -1;
			break;
		case ADV_MPI:
			snprintf(fix, sizeof(fix),
			         "OMPI_MCA_btl_tcp_if_include=%s",
			         want != NULL ? want->name
			                      : "the interface that reaches the "
			                        "peers");
			/* with an include list every module it names pairs
			 * with the peers; without one Open MPI pairs local
			 * and remote addresses by network (btl_tcp_proc.c),
			 * and whether this one is paired depends on the
			 * peer's interfaces, which this node cannot see */
			if (strstr(a[i].why, "unset") != NULL)
				evidence_add(&ev, "mpi",
				             "Open MPI pairs it with a peer's "
				             "address of the same network when "
				             "the peer has one: then the job "
				             "hangs");
			if (doc_add_finding(
			        d, FINDING_MPI_BTL_IFACE,
			        strstr(a[i].why, "unset") != NULL ? SEV_WARNING
			                                          : SEV_FAULT,
			        ev, fix,
			        "Open MPI's TCP transport %s %s (%s), "
			        "which %s cannot reach",
			        strstr(a[i].why, "unset") != NULL ? "may use"
			                                          : "would use",
			        a[i].addr, a[i].ifname, who) < 0)
				return -1;
			break;
		case ADV_NCCL:
			if (strstr(a[i].why, "NCCL_COMM_ID") != NULL)
				snprintf(fix, sizeof(fix),
				         "set NCCL_COMM_ID to rank 0's address "
				         "on %s's subnet: with it set, NCCL's "
				         "bootstrap ignores NCCL_SOCKET_IFNAME",
				         want != NULL ? want->name
				                      : "the cluster network");
			else
				snprintf(fix, sizeof(fix),
				         "NCCL_SOCKET_IFNAME==%s",
				         want != NULL ? want->name
				                      : "the interface that "
				                        "reaches the peers");
			if (doc_add_finding(
			        d, FINDING_RANK_UNREACHABLE, SEV_FAULT, ev, fix,
			        "NCCL's bootstrap would advertise %s "
			        "(%s), which %s cannot reach",
			        a[i].addr, a[i].ifname, who) < 0)
				return -1;
			break;
		}
	}
	*seenp = seen;
	return 0;
}
