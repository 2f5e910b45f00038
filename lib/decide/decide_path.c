/* The path's deciders: host-unreachable when no host owns the address,
 * mtu-blackhole and mtu-mismatch from the path MTU search, over what
 * probe/pathprobe.c collected; pure but for the document. */
#include "decide/decide_path.h"

#include <stdio.h>
#include <string.h>

/* See decide_path.h. */
void pmtu_decide(const struct pmtu_result *r, unsigned if_mtu,
                 struct pmtu_verdict *v)
{
	unsigned low;

	memset(v, 0, sizeof(*v));
	if (!r->responded)
		return;
	v->blackhole = r->largest_ok != 0 && r->smallest_lost != 0 &&
	               r->lost_silently && !r->frag_needed &&
	               (if_mtu == 0 || r->largest_ok < if_mtu);
	if (v->blackhole)
		v->set_mtu = r->largest_ok;
	v->mismatch =
	    r->peer_ifmtu != 0 && if_mtu != 0 && r->peer_ifmtu != if_mtu;
	if (v->mismatch) {
		/* the limit sits at the smaller end's MTU (a veth lets a
		 * VLAN tag's 4 bytes more through): aligning the MTUs is the
		 * whole fix, and the MTU to set is the smaller one */
		low = r->peer_ifmtu < if_mtu ? r->peer_ifmtu : if_mtu;
		v->mismatch_explains = v->blackhole && r->largest_ok >= low &&
		                       r->largest_ok <= low + 8;
		if (v->mismatch_explains)
			v->set_mtu = low;
	}
}

/* The two ends' interfaces differ and the black hole sits at the
 * smaller: the fix is on the end that differs from the rest of its
 * network, which one pair cannot tell, so both are named. */
static void mismatch_fix(const struct pmtu_result *r, const char *ifname,
                         unsigned if_mtu, const char *peer, char *fix,
                         size_t len)
{
	static const char common[] =
	    "the fix is on the end that differs from the rest of its "
	    "network, and from this pair alone netprobe cannot tell which "
	    "end that is (`netprobe report` over every node's documents "
	    "names the odd one)";

	if (r->peer_ifmtu < if_mtu)
		snprintf(fix, len,
		         "the packets stop at %s's interface (mtu %u; this "
		         "one has %u): %s. If %s is the odd one, raise it "
		         "there: `ip link set dev IFACE mtu %u`, IFACE its "
		         "interface toward this node. If this node is, lower "
		         "it: `ip link set dev %s mtu %u`. Until then `ip route "
		         "replace %s dev %s mtu lock %u` caps this path alone",
		         peer, r->peer_ifmtu, if_mtu, common, peer, if_mtu,
		         ifname, r->peer_ifmtu, peer, ifname, r->peer_ifmtu);
	else
		snprintf(fix, len,
		         "the packets stop at this interface's mtu %u (%s's "
		         "has %u): %s. If this node is the odd one, raise it: "
		         "`ip link set dev %s mtu %u`. If %s is, lower it "
		         "there: `ip link set dev IFACE mtu %u`, IFACE its "
		         "interface toward this node",
		         if_mtu, peer, r->peer_ifmtu, common, ifname,
		         r->peer_ifmtu, peer, if_mtu);
}

/* The mtu-blackhole finding: evidence, then the MTU to set and the NCCL
 * side of it. */
static int blackhole_finding(const struct pmtu_result *r,
                             const struct pmtu_verdict *v, const char *ifname,
                             unsigned if_mtu, const char *peer, struct doc *d)
{
	json_t *ev = NULL;
	char tried[768], fix[1024];

	pmtu_probes_text(r, tried, sizeof(tried));
	if (evidence_add(&ev, "pmtu probes",
	                 "sizes tried (IP bytes, DF set): %s", tried) < 0 ||
	    evidence_add(&ev, "pmtu probes",
	                 "largest packet that crossed: %u bytes; %u bytes and "
	                 "above vanished",
	                 r->largest_ok, r->smallest_lost) < 0 ||
	    evidence_add(&ev, "netlink", "interface %s has mtu %u", ifname,
	                 if_mtu) < 0 ||
	    evidence_add(&ev, "IP_RECVERR",
	                 "no ICMP fragmentation-needed came back") < 0 ||
	    (r->loss_rechecked &&
	     evidence_add(&ev, "pmtu probes",
	                  "%u bytes stayed silent when tried again with the "
	                  "first answer's patience (not a late answer)",
	                  r->smallest_lost) < 0) ||
	    (v->mismatch_explains &&
	     evidence_add(&ev, "responder",
	                  "the peer's receiving interface has mtu %u",
	                  r->peer_ifmtu) < 0)) {
		json_decref(ev);
		return -1;
	}
	if (v->mismatch_explains)
		mismatch_fix(r, ifname, if_mtu, peer, fix, sizeof(fix));
	else
		snprintf(fix, sizeof(fix),
		         "a hop between here and %s limits packets to %u "
		         "bytes (this interface has mtu %u) and sends no ICMP; "
		         "which hop cannot be told from here (`tracepath -n "
		         "%s` names it when the hop answers). The fix is on "
		         "that link: raise its MTU or let it send ICMP "
		         "fragmentation-needed. Until then no node of this "
		         "network may send more: `ip link set dev %s mtu %u` "
		         "here and on every node that crosses it; "
		         "`sysctl -w net.ipv4.tcp_mtu_probing=1` lets TCP (the "
		         "transport of NCCL's sockets, which have no packet-size "
		         "setting) find it after a stall",
		         peer, v->set_mtu, if_mtu, peer, ifname, v->set_mtu);
	return doc_add_finding(
	    d, FINDING_MTU_BLACKHOLE, -1, ev, fix,
	    "packets above %u bytes toward %s vanish and no "
	    "ICMP fragmentation-needed comes back%s",
	    r->largest_ok, peer,
	    v->mismatch_explains ? " (the interface MTUs differ)" : "");
}

/* See decide_path.h. */
int pmtu_findings(const struct pmtu_result *r, const struct pmtu_verdict *v,
                  const char *ifname, unsigned if_mtu, const char *peer,
                  struct doc *d)
{
	json_t *ev = NULL;
	char fix[512];

	if (v->blackhole &&
	    blackhole_finding(r, v, ifname, if_mtu, peer, d) < 0)
		return -1;
	if (!v->mismatch)
		return 0;
	if (evidence_add(&ev, "netlink", "interface %s here has mtu %u", ifname,
	                 if_mtu) < 0 ||
	    evidence_add(&ev, "responder",
	                 "the interface the probes reached on %s has mtu %u",
	                 peer, r->peer_ifmtu) < 0) {
		json_decref(ev);
		return -1;
	}
	if (if_mtu > r->peer_ifmtu)
		snprintf(fix, sizeof(fix),
		         "ip link set dev %s mtu %u here, or raise the peer's "
		         "interface to mtu %u",
		         ifname, r->peer_ifmtu, if_mtu);
	else
		snprintf(fix, sizeof(fix),
		         "on %s: ip link set dev IFACE mtu %u (its interface "
		         "toward this node), or raise this side: ip link set "
		         "dev %s mtu %u",
		         peer, if_mtu, ifname, r->peer_ifmtu);
	return doc_add_finding(d, FINDING_MTU_MISMATCH, -1, ev, fix,
	                       "interface mtu here (%u on %s) differs from "
	                       "%s's (%u)",
	                       if_mtu, ifname, peer, r->peer_ifmtu);
}

/* host-unreachable: no host answers the address, never a responder or
 * firewall to fix. Returns 0, or -1 on no memory. */
static int no_host_finding(const struct path_result *r, struct doc *d)
{
	bool direct = strcmp(r->next_hop, r->addr) == 0;
	const char *nd = r->family == AF_INET6 ? "ND" : "ARP";
	json_t *ev = NULL;
	char fix[512];

	if (evidence_add(&ev, "pmtu probes",
	                 "no probe toward %s got an answer", r->addr) < 0 ||
	    evidence_add(&ev, "netlink RTM_GETNEIGH",
	                 "neighbour entry of %s: %s", r->next_hop,
	                 r->neigh_state) < 0) {
		json_decref(ev);
		return -1;
	}
	snprintf(fix, sizeof(fix),
	         "check that %s is the right address and that the host is up "
	         "on this link (ip neigh show %s; ping %s): no responder or "
	         "firewall rule explains a host that does not answer %s",
	         r->addr, r->next_hop, r->next_hop, nd);
	return doc_add_finding(d, FINDING_HOST_UNREACHABLE, -1, ev, fix,
	                       "no host answers %s%s (%s failed for %s): "
	                       "nothing owns the address, or the host is down",
	                       direct ? "at " : "toward ", r->addr, nd,
	                       r->next_hop);
}

/* See decide_path.h. */
int path_decide(const struct path_result *r, struct doc *d)
{
	const char *ifname = r->have_route ? r->route.out_interface : "?";
	struct pmtu_verdict v;

	if (r->no_host && no_host_finding(r, d) < 0)
		return -1;
	if (!r->pmtu_ran)
		return 0;
	/* a route MTU below the interface's (ip route ... mtu lock N, the
	 * workaround for a hop that drops large packets) caps what this
	 * node sends toward the peer: no larger packet leaves to vanish */
	pmtu_decide(&r->pmtu, r->if_mtu, &v);
	if (v.blackhole && r->have_route && r->route.mtu > 0 &&
	    r->route.mtu <= r->pmtu.largest_ok + 8 &&
	    (r->if_mtu == 0 || r->route.mtu < r->if_mtu)) {
		v.blackhole = false;
		v.mismatch_explains = false;
	}
	return pmtu_findings(&r->pmtu, &v, ifname, r->if_mtu, r->addr, d);
}
