/* netprobe explain: an interface listing pasted beside a failure (`ip
 * link`, `ip addr`, ifconfig) in which a container bridge, a veth or an
 * overlay device carries a larger MTU than any uplink of the host it
 * was listed on. A container or pod then sends full-size packets that
 * no uplink carries whole; where path MTU discovery does not reach the
 * sender (a bridge, an overlay, a tunnel's ICMP lost), small exchanges
 * work and large ones hang (issue 42: blind42y c07, a Calico veth at
 * 1500 over an OpenStack NIC at 1450; blind42v c10 and blind42w c05,
 * docker0 at 1500 inside a smaller VM or pod network). The listing
 * proves the MTUs, not that they caused the failure: the pair is
 * opened, never decided. */
#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/finding.h"

/* Overlays whose device MTU is the inner MTU, and the bytes each packet
 * gains (flannel's and Calico's VXLAN 50, Calico's IPIP 20): their MTU
 * plus that must fit the uplink. Devices whose MTU is no inner MTU are
 * none: OVS's flow-based tunnel ports (vxlan_sys_4789, genev_sys_6081
 * at 65000), Weave's vxlan-6784, Cilium's cilium_vxlan (its routes
 * carry the MTU). 0: no such overlay. */
static int overlay_cost(const char *n)
{
	if (strncmp(n, "flannel", 7) == 0 || strcmp(n, "vxlan.calico") == 0)
		return 50;
	if (strcmp(n, "tunl0") == 0)
		return 20;
	return 0;
}

/* A bridge or a veth whose packets leave the host through an uplink as
 * they are: a container bridge, a pod's veth on the host side. */
static bool bridged(const char *n)
{
	static const char *const pfx[] = {"veth", "cali", "docker", "br-",
					  "cni", "lxc", "virbr", "kube-bridge",
					  "cbr", "weave"};

	for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (strncmp(n, pfx[i], strlen(pfx[i])) == 0)
			return true;
	return false;
}

/* An uplink: a NIC's name (eth, en*, em, bond, team, wl, pNpM), or the
 * eth0 a container or pod sees (a veth's far end, its only way out).
 * InfiniBand's IPoIB (ib*) carries another MTU scale and is none. */
static bool uplink(const char *n)
{
	static const char *const pfx[] = {"eth", "en", "em", "bond", "team",
					  "wl"};

	if (n[0] == 'p' && isdigit((unsigned char)n[1]))
		return true;
	for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (strncmp(n, pfx[i], strlen(pfx[i])) == 0)
			return true;
	return false;
}

/* Whether a listing's flags say the interface is up (administratively:
 * docker0 with no container is UP with NO-CARRIER, and takes the MTU
 * its next container gets). */
static bool is_up(const char *flags)
{
	const char *p = flags;

	while ((p = strstr(p, "UP")) != NULL) {
		if ((p == flags || p[-1] == ',' || p[-1] == '<') &&
		    (p[2] == ',' || p[2] == '\0' || p[2] == '>'))
			return true;
		p += 2;
	}
	return false;
}

/* Whether a hit is an interface listing's line (iface-listing-ip,
 * iface-listing-ifconfig), the only rows whose ifname and mtu this
 * rule reads. */
static bool listing(const struct explain_hit *h)
{
	return strncmp(h->m.sig->id, "iface-listing-", 14) == 0;
}

/* See explain_priv.h. */
void explain_mtu_listing(const struct explain_ctx *x, struct explain_result *r)
{
	const struct explain_hit *up = NULL, *over = NULL;
	long up_mtu = 0, over_mtu = 0, cost = 0;
	const char *name = NULL;
	struct explain_cause *c;
	char why[384], next[512];

	for (size_t i = 0; i < x->lg->nhits; i++) {
		const struct explain_hit *h = &x->lg->hits[i];
		const char *n, *m;

		if (!listing(h))
			continue;
		n = logmatch_field(&h->m, "ifname");
		m = logmatch_field(&h->m, "mtu");
		if (n == NULL || m == NULL || !uplink(n) ||
		    strtol(m, NULL, 10) <= up_mtu)
			continue;
		up = h;
		up_mtu = strtol(m, NULL, 10);
	}
	if (up == NULL)
		return;
	for (size_t i = 0; i < x->lg->nhits && over == NULL; i++) {
		const struct explain_hit *h = &x->lg->hits[i];
		const char *n, *m, *f;
		long v;

		if (!listing(h))
			continue;
		n = logmatch_field(&h->m, "ifname");
		m = logmatch_field(&h->m, "mtu");
		f = logmatch_field(&h->m, "flags");
		if (n == NULL || m == NULL || f == NULL || !is_up(f))
			continue;
		v = strtol(m, NULL, 10);
		cost = overlay_cost(n);
		if ((bridged(n) && v > up_mtu) ||
		    (cost > 0 && v + cost > up_mtu)) {
			over = h;
			over_mtu = v;
			name = n;
		}
	}
	if (over == NULL)
		return;
	snprintf(why, sizeof(why), "the log's interface listing shows %s at "
		 "MTU %ld%s, more than %s's %ld, the largest uplink it lists: "
		 "full-size packets from behind it cannot leave whole, and "
		 "where path MTU discovery does not reach the sender small "
		 "exchanges work and large ones hang", name, over_mtu,
		 cost ? " plus its encapsulation" : "",
		 logmatch_field(&up->m, "ifname"), up_mtu);
	snprintf(next, sizeof(next), "from behind it (a container or pod "
		 "on it): ping -M do -s %ld PEER (no answer or \"message too "
		 "long\" where -s 1000 passes: the MTU); then give that "
		 "network an MTU of %ld or less (Docker: \"mtu\": %ld in "
		 "/etc/docker/daemon.json and a restart; the CNI's MTU "
		 "setting, such as Calico's veth_mtu, and the pods recreated)",
		 up_mtu - cost - 28, up_mtu - cost, up_mtu - cost);
	explain_open(r, over, "mtu-mismatch,mtu-blackhole", why, next);
	c = explain_cause_for(r, EXPLAIN_NET, true, "mtu-mismatch,mtu-blackhole");
	if (c != NULL)
		explain_add_ref(c, up);
}
