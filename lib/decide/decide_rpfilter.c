/* rp-filter-strict: strict reverse-path filtering on a node with two
 * interfaces in one IPv4 subnet. The route back to that subnet leaves by
 * one of them, so packets from its hosts arriving on the other fail the
 * strict check and are dropped without a trace. */
#include "decide/decide.h"

#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "kernel/rpfilter.h"

/* An IPv4 address peers may use: global, on a usable interface. */
static bool candidate(const struct iface *ifc, const struct iface_addr *a)
{
	return a->family == AF_INET && decide_addr_global(a) &&
	       decide_is_usable(ifc) && !decide_is_loopback(ifc);
}

/* One finding for the pair; returns 0, or -1 on no memory. */
static int report(const struct rpf_facts *f, const struct iface *x,
                  const struct iface_addr *a, const struct iface *y,
                  const struct iface_addr *b, struct doc *d)
{
	const struct iface_addr *wide = a->prefixlen <= b->prefixlen ? a : b;
	uint32_t mask = wide->prefixlen ? ~0u << (32 - wide->prefixlen) : 0;
	struct in_addr net = {htonl(ntohl(wide->a.v4.s_addr) & mask)};
	char subnet[INET_ADDRSTRLEN];
	json_t *ev = NULL;

	if (evidence_add(&ev, "netlink", "%s has %s/%u", x->name, a->str,
	                 a->prefixlen) < 0 ||
	    evidence_add(&ev, "netlink", "%s has %s/%u", y->name, b->str,
	                 b->prefixlen) < 0 ||
	    evidence_add(&ev, "/proc/sys/net/ipv4/conf/all/rp_filter", "%d",
	                 f->all) < 0)
		goto nomem;
	for (size_t i = 0; i < f->n; i++)
		if ((strcmp(f->v[i].name, x->name) == 0 ||
		     strcmp(f->v[i].name, y->name) == 0) &&
		    evidence_add(&ev, "/proc/sys/net/ipv4/conf/IF/rp_filter",
		                 "%s: %d", f->v[i].name, f->v[i].own) < 0)
			goto nomem;
	/* the command is the runtime half; keeping it (sysctl.d) is the
	 * reader's, as it writes /etc */
	if (doc_add_finding(
	    d, FINDING_RP_FILTER_STRICT, -1, ev,
	    "sysctl -w net.ipv4.conf.all.rp_filter=2 (loose; the kernel "
	    "uses the larger of all's and the interface's value), and keep "
	    "it: echo 'net.ipv4.conf.all.rp_filter = 2' > "
	    "/etc/sysctl.d/90-rp-filter.conf",
	    "%s and %s are both in %s/%u and filter reverse paths strictly: "
	    "packets from that subnet arriving on the one its route does not "
	    "leave by are dropped, unless policy routing (ip rule) sends each "
	    "address's replies by its own interface",
	    x->name, y->name,
	    inet_ntop(AF_INET, &net, subnet, sizeof(subnet)) ? subnet
	                                                     : wide->str,
	    wide->prefixlen) < 0)
		return -1; /* the evidence went with it */
	return doc_finding_command(d, "sysctl -w net.ipv4.conf.all.rp_filter=2");
nomem:
	json_decref(ev);
	return -1;
}

/* The first pair of candidate addresses of x and y whose prefixes
 * overlap, into *a and *b; false when there is none. */
static bool shared_subnet(const struct iface *x, const struct iface *y,
                          const struct iface_addr **a,
                          const struct iface_addr **b)
{
	for (int p = 0; p < x->naddrs; p++)
		for (int q = 0; q < y->naddrs; q++) {
			*a = &x->addrs[p];
			*b = &y->addrs[q];
			if (candidate(x, *a) && candidate(y, *b) &&
			    (iface_addr_in_prefix(*a, AF_INET, &(*b)->a) ||
			     iface_addr_in_prefix(*b, AF_INET, &(*a)->a)))
				return true;
		}
	return false;
}

/* Silent on a single-homed node, on interfaces in distinct subnets, and
 * where either of the two is not strict (the route may use the strict
 * one, and then nothing is dropped). */
int decide_rp_filter(const struct iface_list *l, const struct rpf_facts *f,
                     struct doc *d)
{
	const struct iface_addr *a, *b;

	for (size_t i = 0; i < l->n; i++) {
		if (rpfilter_effective(f, l->v[i].name) != 1)
			continue;
		for (size_t j = i + 1; j < l->n; j++)
			if (rpfilter_effective(f, l->v[j].name) == 1 &&
			    shared_subnet(&l->v[i], &l->v[j], &a, &b) &&
			    report(f, &l->v[i], a, &l->v[j], b, d) < 0)
				return -1;
	}
	return 0;
}
