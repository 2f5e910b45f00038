/* netprobe layers, decide: pure functions from the collected facts and the
 * interface list to netmode, WSL mode, reach and the host's bridges. */
#include "layers/layers_int.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Names CNI plugins give the devices on an overlay's path. */
static bool overlay_name(const char *n)
{
	static const char *const pfx[] = {
		"flannel", "cali", "vxlan.calico", "weave", "cilium", "tunl",
		"genev", "vxlan", "kube-ipvs",
	};

	for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (strncmp(n, pfx[i], strlen(pfx[i])) == 0)
			return true;
	return false;
}

/* True for an interface whose other end lives in another network
 * namespace (a veth, or a link the collector could not name). */
static bool peer_elsewhere(const struct iface *d)
{
	return d->link_netnsid >= 0 &&
	       (d->kind == IFK_VETH || d->kind == IFK_UNKNOWN ||
		d->kind == IFK_OTHER);
}

/* Loopback by kind, flag or name: collectors differ in what they fill. */
static bool is_loopback(const struct iface *i)
{
	return i->kind == IFK_LOOPBACK || (i->flags & IFF_LOOPBACK) ||
	       strcmp(i->name, "lo") == 0;
}

/* Whether the default gateway is the first host address (.1 of a /24,
 * 172.17.0.1 of 172.17.0.0/16) of the outgoing interface's subnet, which is
 * where Docker, podman and CNI bridges sit. The subnet comes from the
 * interface's address, else from the connected route. */
static bool gateway_is_first(const struct layers_facts *f,
			     const struct iface *d, char *subnet, size_t len)
{
	uint32_t gw, net = 0, mask;
	unsigned plen = 0;
	bool found = false;
	char nb[INET_ADDRSTRLEN];
	struct in_addr na;

	if (!f->def.have || !f->def.has_gw)
		return false;
	gw = ntohl(f->def.gw.s_addr);
	for (int i = 0; d != NULL && i < d->naddrs; i++) {
		const struct iface_addr *a = &d->addrs[i];

		if (a->family != AF_INET ||
		    !iface_addr_in_prefix(a, AF_INET, &f->def.gw))
			continue;
		if (a->a.v4.s_addr == f->def.gw.s_addr)
			return false; /* we are the gateway */
		plen = a->prefixlen;
		mask = plen ? 0xffffffffu << (32 - plen) : 0;
		net = ntohl(a->a.v4.s_addr) & mask;
		found = true;
		break;
	}
	if (!found && f->def.has_subnet) {
		plen = f->def.prefixlen;
		net = ntohl(f->def.net.s_addr);
		found = true;
	}
	if (!found || plen == 0 || plen > 30)
		return false;
	na.s_addr = htonl(net);
	inet_ntop(AF_INET, &na, nb, sizeof(nb));
	snprintf(subnet, len, "%s/%u", nb, plen);
	return gw == net + 1;
}

/* 172.16.0.0/12, where WSL2's NAT puts its virtual switch. */
static bool in_172_12(struct in_addr a)
{
	return (ntohl(a.s_addr) & 0xfff00000u) == 0xac100000u;
}

/* The network mode from the default route's interface. */
static enum layer_netmode decide_netmode(struct layers *ly,
					 const struct layers_facts *f,
					 const struct iface_list *l,
					 const struct iface *d, bool gw_first,
					 const char *subnet)
{
	char gws[INET_ADDRSTRLEN];
	size_t nonlo = 0;
	bool container = f->container != CONTAINER_NONE;

	inet_ntop(AF_INET, &f->def.gw, gws, sizeof(gws));
	if (l == NULL) {
		evidence_add(&ly->evidence, "layers",
			     "no interface list: network mode not decided");
		return NETMODE_UNKNOWN;
	}
	for (size_t i = 0; i < l->n; i++)
		if (!is_loopback(&l->v[i]))
			nonlo++;
	if (f->osrelease[0] != '\0' && strstr(f->osrelease, "Microsoft") &&
	    !strcasestr(f->osrelease, "microsoft-standard") &&
	    !strstr(f->osrelease, "WSL2")) {
		evidence_add(&ly->evidence, "/proc/sys/kernel/osrelease",
			     "WSL1 shares the Windows host's network stack");
		return NETMODE_HOST;
	}
	if (nonlo == 0) {
		evidence_add(&ly->evidence, "interfaces",
			     "only loopback in this network namespace");
		return NETMODE_NONE;
	}
	if (!f->def.have) {
		if (container) {
			evidence_add(&ly->evidence, "interfaces",
				     "a container without a default route: "
				     "network mode not decided");
			return NETMODE_UNKNOWN;
		}
		return NETMODE_HOST;
	}
	if (d == NULL) {
		evidence_add(&ly->evidence, "interfaces",
			     "default route's interface %s is not listed",
			     f->def.ifname);
		return NETMODE_UNKNOWN;
	}
	if (d->kind == IFK_MACVLAN || d->kind == IFK_MACVTAP ||
	    d->kind == IFK_IPVLAN) {
		evidence_add(&ly->evidence, "interfaces",
			     "default route leaves by %s, a %s%s%s", d->name,
			     iface_kind_name(d->kind),
			     d->macvlan_mode[0] ? " in mode " : "",
			     d->macvlan_mode);
		return NETMODE_MACVLAN;
	}
	if (d->kind == IFK_VXLAN || d->kind == IFK_GENEVE ||
	    overlay_name(d->name)) {
		evidence_add(&ly->evidence, "interfaces",
			     "default route leaves by %s, an overlay device",
			     d->name);
		return NETMODE_OVERLAY;
	}
	if (container && (d->kind == IFK_TAP || d->kind == IFK_TUN)) {
		/* rootless podman and others: slirp4netns or pasta answer
		 * on a tap device and translate every connection */
		evidence_add(&ly->evidence, "interfaces",
			     "default route leaves by %s, a %s device in a "
			     "container: user-mode networking (slirp4netns "
			     "or pasta), NAT presumed",
			     d->name, iface_kind_name(d->kind));
		return NETMODE_BRIDGE_NAT;
	}
	if (peer_elsewhere(d)) {
		evidence_add(&ly->evidence, "interfaces",
			     "%s is a veth whose peer is in another network "
			     "namespace (netnsid %d)",
			     d->name, d->link_netnsid);
		if (f->k8s) {
			/* whether hosts outside the cluster reach a pod is
			 * the CNI's choice: routed with Calico in BGP mode,
			 * the AWS VPC CNI or GKE VPC-native, not with an
			 * overlay or a NAT'd pod range */
			evidence_add(&ly->evidence, "interfaces",
				     "Kubernetes pod network: other pods reach "
				     "this address; hosts outside the cluster "
				     "do only where the CNI routes pod addresses "
				     "(Calico BGP, AWS VPC CNI, GKE VPC-native), "
				     "not through an overlay: --peer tells");
			return NETMODE_OVERLAY;
		}
		if (gw_first) {
			evidence_add(&ly->evidence, "/proc/net/route",
				     "gateway %s is the first address of %s: "
				     "a bridge on the host, NAT presumed",
				     gws, subnet);
			return NETMODE_BRIDGE_NAT;
		}
		if (container) {
			evidence_add(&ly->evidence, "/proc/net/route",
				     "gateway %s is not the first address of "
				     "the subnet: routed, not decided",
				     f->def.has_gw ? gws : "on-link");
			return NETMODE_UNKNOWN;
		}
		return NETMODE_HOST;
	}
	evidence_add(&ly->evidence, "interfaces",
		     "default route leaves by %s (%s) in this namespace",
		     d->name, iface_kind_name(d->kind));
	if (container) {
		const struct iface *dk = iface_by_name(l, "docker0");

		if (dk != NULL)
			evidence_add(&ly->evidence, "interfaces",
				     "docker0 is visible: the host's network "
				     "namespace");
		evidence_add(&ly->evidence, "interfaces",
			     "container shares the host's network");
	}
	return NETMODE_HOST;
}

/* WSL1 or WSL2 from the kernel release, then WSL2's networking mode from
 * the shape of the network; unknown rather than a guess. */
static void decide_wsl(struct layers *ly, const struct layers_facts *f,
		       const struct iface_list *l, bool gw_first,
		       const char *subnet)
{
	const char *os = f->osrelease;
	bool wsl2, loopback0;
	char gws[INET_ADDRSTRLEN];

	ly->wsl = WSL_NONE;
	if (os[0] == '\0')
		return;
	wsl2 = strstr(os, "WSL2") != NULL ||
	       strcasestr(os, "microsoft-standard") != NULL;
	if (!wsl2 && strstr(os, "Microsoft") == NULL && strstr(os, "WSL") ==
							       NULL)
		return;
	evidence_add(&ly->evidence, "/proc/sys/kernel/osrelease",
		     "kernel release '%s': %s", os, wsl2 ? "WSL2" : "WSL1");
	if (!wsl2) {
		if (f->binfmt_interop)
			evidence_add(&ly->evidence,
				     "/proc/sys/fs/binfmt_misc/WSLInterop",
				     "WSL interop is registered");
		ly->wsl = WSL_1;
		return;
	}
	if (strcmp(ly->virt, "unknown") == 0)
		snprintf(ly->virt, sizeof(ly->virt), "microsoft");
	ly->wsl_container = f->container != CONTAINER_NONE && !f->run_wsl &&
			    !f->wsl_interop;
	if (ly->wsl_container)
		evidence_add(&ly->evidence, "/run/WSL",
			     "WSL kernel without /run/WSL or WSL_INTEROP, and "
			     "container evidence: a container inside WSL2");
	ly->wsl = WSL_2_UNKNOWN;
	if (ly->netmode == NETMODE_BRIDGE_NAT)
		return; /* WSL's own network is not visible from here */
	loopback0 = l != NULL && iface_by_name(l, "loopback0") != NULL;
	inet_ntop(AF_INET, &f->def.gw, gws, sizeof(gws));
	if (gw_first && in_172_12(f->def.gw) && !loopback0) {
		evidence_add(&ly->evidence, "/proc/net/route",
			     "gateway %s is the first address of %s in "
			     "172.16.0.0/12: WSL2's NAT switch",
			     gws, subnet);
		ly->wsl = WSL_2_NAT;
	} else if (loopback0 && !(gw_first && in_172_12(f->def.gw))) {
		evidence_add(&ly->evidence, "interfaces",
			     "loopback0 exists and no 172.16.0.0/12 NAT "
			     "gateway: WSL2 mirrored networking");
		ly->wsl = WSL_2_MIRRORED;
	} else {
		evidence_add(&ly->evidence, "interfaces",
			     "WSL2 networking mode not determined");
	}
}

/* Reach follows the layers stacked between this process and the LAN. */
static enum layer_reach decide_reach(const struct layers *ly)
{
	if (ly->netmode == NETMODE_BRIDGE_NAT)
		return ly->wsl_container ? REACH_DOUBLE_NAT : REACH_NAT;
	switch (ly->wsl) {
	case WSL_2_NAT:
		return REACH_NAT;
	case WSL_2_UNKNOWN:
		return REACH_UNKNOWN;
	default:
		break;
	}
	if (ly->netmode == NETMODE_HOST || ly->netmode == NETMODE_MACVLAN)
		return REACH_DIRECT;
	return REACH_UNKNOWN;
}

/* Netmode first: WSL's mode and the reach both depend on it. */
void layers_decide(struct layers *ly, const struct layers_facts *f,
		   const struct iface_list *l)
{
	const struct iface *d = NULL;
	char subnet[INET_ADDRSTRLEN + 4] = "";
	bool gw_first;

	ly->container = f->container;
	if (l != NULL && f->def.have)
		d = iface_by_name(l, f->def.ifname);
	gw_first = gateway_is_first(f, d, subnet, sizeof(subnet));
	ly->netmode = decide_netmode(ly, f, l, d, gw_first, subnet);
	decide_wsl(ly, f, l, gw_first, subnet);
	ly->reach = decide_reach(ly);
	for (size_t i = 0; l != NULL && i < l->n; i++) {
		const struct iface *o = &l->v[i];

		if (o->kind == IFK_VXLAN || o->kind == IFK_GENEVE)
			evidence_add(&ly->evidence, "interfaces",
				     "overlay device %s (%s id %u)", o->name,
				     iface_kind_name(o->kind), o->vxlan_id);
	}
}

/* Members by master index, or by name when the index is unknown. */
int layers_bridges(struct layers *ly, const struct iface_list *l)
{
	for (size_t i = 0; l != NULL && i < l->n; i++) {
		const struct iface *b = &l->v[i];
		json_t *o, *m;

		if (b->kind != IFK_BRIDGE)
			continue;
		m = json_array();
		o = json_pack("{s:s, s:o}", "name", b->name, "members", m);
		if (o == NULL || json_array_append_new(ly->bridges, o) < 0)
			return -1;
		for (size_t j = 0; j < l->n; j++) {
			const struct iface *p = &l->v[j];

			if ((p->master_index != 0 &&
			     p->master_index == b->index) ||
			    (p->master_index == 0 &&
			     strcmp(p->master, b->name) == 0))
				if (json_array_append_new(
					    m, json_string(p->name)) < 0)
					return -1;
		}
	}
	return 0;
}
