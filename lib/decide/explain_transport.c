/* netprobe explain: the failures of a transport's own (issue 42): an RDMA
 * completion the local NIC failed on its own memory, and UCX's TCP
 * transport offering the peer's loopback (facts about the node's NIC or
 * the library, not about the network, so each is a cause that is not the
 * network); NCCL connecting to an address it never filled in, and UCX's
 * connection manager routing to a device its list leaves out (the
 * transport's interface settings). explain.c calls them. */
#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <stdio.h>
#include <string.h>

#include "doc/finding.h"

/* An RDMA completion the local NIC failed on its own memory: IB's
 * local protection error (IBV_WC_LOC_PROT_ERR, 4) is GPUDirect RDMA
 * through PCIe ACS or the IOMMU, or a registration bug, on the node
 * that printed it; no fabric setting causes it (issue 42: blind42b 002,
 * NVIDIA/nccl#928). UCX's "Local protection" row says the same. */
bool explain_rdma_local(const struct explain_hit *h)
{
	const char *w = logmatch_field(&h->m, "wc_status");

	return w && strcmp(w, "4") == 0;
}

/* UCX's TCP transport connected to a loopback address: UCX offers
 * every interface of the peer, so 127.0.0.1 is the peer's lo that UCX
 * itself advertised (UCX 1.10.0's bug, openucx/ucx#6695, fixed by
 * #6704), not a hostname mapped to loopback. A fact about the
 * transport, not about the host (issue 42: blind42b 034). */
bool explain_transport_loopback(const struct explain_hit *h)
{
	const char *cls = explain_addr_class(logmatch_field(&h->m, "addr"));

	return strcmp(h->m.sig->id, "ucx-connect") == 0 && cls &&
	       strcmp(cls, "loopback") == 0;
}

/* The cause that is not the network for the two rules above. */
void explain_transport_other(const struct explain_hit *h,
			     struct explain_result *r)
{
	bool ucx = explain_transport_loopback(h);
	struct explain_cause *c = explain_cause_for(r, EXPLAIN_OTHER, false,
						    ucx ? "transport-bug" :
						    "rdma-local");

	if (c == NULL)
		return;
	explain_add_ref(c, h);
	if (c->why[0] != '\0')
		return;
	if (ucx) {
		snprintf(c->why, sizeof(c->why), "UCX's TCP transport "
			 "tried the peer's loopback address %s: UCX offered "
			 "the peer's lo as reachable from another host (UCX "
			 "1.10.0, openucx/ucx#6695), not a hostname mapping",
			 logmatch_field(&h->m, "addr"));
		snprintf(c->fix, sizeof(c->fix), "upgrade UCX (1.10.1 or "
			 "later; ucx_info -v), or name the NIC: "
			 "UCX_NET_DEVICES=IFACE");
	} else {
		snprintf(c->why, sizeof(c->why), "RDMA completion error 4 "
			 "is a local protection error: this node's NIC "
			 "refused its own memory (GPUDirect RDMA through PCIe "
			 "ACS or the IOMMU), not the fabric");
		snprintf(c->fix, sizeof(c->fix), "on the node that printed "
			 "it: check PCIe ACS on the GPU-NIC path (lspci -vvv "
			 "| grep ACSCtl) and the IOMMU; NCCL_NET_GDR_LEVEL=0 "
			 "confirms it");
	}
}

/* NCCL's socket transport on an IPoIB interface (ib0, ibs1, ibp12s0):
 * the node has an InfiniBand HCA, so sockets there are a fallback from
 * verbs, not the cluster's only way (issue 42: blind42h a04, the
 * container lacked libibverbs). Bootstrap's own pick does not count:
 * the bootstrap always runs on sockets. */
bool explain_socket_ipoib(const struct explain_hit *h)
{
	const char *id = h->m.sig->id;
	const char *ifc = logmatch_field(&h->m, "iface");

	return (strcmp(id, "nccl-socket-using") == 0 ||
		strcmp(id, "nccl-net-using-old") == 0) &&
	       ifc != NULL && strncmp(ifc, "ib", 2) == 0;
}

/* True when a line shows an interface NCCL uses (its Using lines). */
bool explain_nccl_using(const struct explain_ctx *x)
{
	for (size_t i = 0; i < x->lg->nhits; i++) {
		const char *id = x->lg->hits[i].m.sig->id;

		if (strcmp(id, "nccl-bootstrap-using") == 0 ||
		    strcmp(id, "nccl-socket-using") == 0 ||
		    strcmp(id, "nccl-net-using-old") == 0 ||
		    strcmp(id, "nccl-ib-using") == 0)
			return true;
	}
	return false;
}

/* NCCL connected to an address it never filled in. Where the log echoes
 * NCCL_SOCKET_IFNAME and no line shows an interface in use, the setting
 * matched none (NVIDIA/nccl#1837: 2.27 finds no interface for it
 * without a word); otherwise the line names no network fault (an NCCL
 * or plugin bug gives it too) and the symptom says what to collect. */
void explain_nccl_addr_unset(const struct explain_ctx *x,
			     const struct explain_hit *h,
			     struct explain_result *r)
{
	struct explain_cause *c;

	if (x->ifname == NULL || explain_nccl_using(x))
		return;
	c = explain_cause_for(r, EXPLAIN_NET, true,
			      finding_name(FINDING_NCCL_IFNAME_NOMATCH));
	if (c == NULL)
		return;
	explain_add_ref(c, h);
	if (c->why[0] == '\0')
		snprintf(c->why, sizeof(c->why), "NCCL_SOCKET_IFNAME=%s is "
			 "set and no line shows NCCL using an interface: the "
			 "setting matched none, so NCCL connected to an "
			 "address it never filled in", x->ifname);
	if (c->next[0] == '\0')
		explain_next_command(h, c->next, sizeof(c->next));
}

/* UCX's connection manager found that the route to the peer leaves by
 * a device UCX_NET_DEVICES leaves out: the transport's device list is
 * the fault, and the fix names the device the log names. */
void explain_ucx_device_off(const struct explain_hit *h,
			    struct explain_result *r)
{
	const char *dev = logmatch_field(&h->m, "dev");
	const char *peer = logmatch_field(&h->m, "peer");
	struct explain_cause *c;

	if (dev == NULL || peer == NULL)
		return;
	c = explain_cause_for(r, EXPLAIN_NET, false,
			      finding_name(FINDING_MPI_BTL_IFACE));
	if (c == NULL)
		return;
	explain_add_ref(c, h);
	if (c->why[0] == '\0')
		snprintf(c->why, sizeof(c->why), "UCX connected to %s over "
			 "device %s, which UCX_NET_DEVICES leaves out: the "
			 "endpoint failed as unreachable", peer, dev);
	if (c->fix[0] == '\0')
		snprintf(c->fix, sizeof(c->fix), "add %s to UCX_NET_DEVICES "
			 "(mpirun -x UCX_NET_DEVICES=...,%s), or give the "
			 "peer's address on a device the list holds", dev,
			 dev);
}

/* NCCL's bootstrap found no interface its filter lets through. Where the
 * log echoes an include list (NCCL_SOCKET_IFNAME=ens9), that list
 * matched nothing usable: the row decides nccl-ifname-nomatch. Where it
 * echoes none, or an exclusion list (^...), the line alone does not say
 * which setting failed: an include list naming an interface this host
 * lacks (marin-community/marin#6940) or an exclusion list written for
 * another cluster, which leaves in interfaces this one cannot route
 * (marin#7018, issue 42: blind42c 033); both stay open with what to
 * look at. Returns true when it recorded the candidates. */
bool explain_nccl_no_iface(const struct explain_ctx *x,
			   const struct explain_hit *h,
			   struct explain_result *r)
{
	struct explain_cause *c;

	if (strcmp(h->m.sig->id, "nccl-bootstrap-no-iface") != 0 ||
	    (x->ifname != NULL && x->ifname[0] != '^'))
		return false;
	c = explain_cause_for(r, EXPLAIN_NET, true, "nccl-ifname-nomatch,"
			      "nccl-ifname-overmatch");
	if (c == NULL)
		return true;
	explain_add_ref(c, h);
	if (c->why[0] != '\0')
		return true;
	if (x->ifname != NULL)
		snprintf(c->why, sizeof(c->why), "NCCL's bootstrap found no "
			 "interface it could use under the exclusion list "
			 "NCCL_SOCKET_IFNAME=%.60s: a list written for another "
			 "cluster leaves in or takes out interfaces unlike "
			 "meant", x->ifname);
	else
		snprintf(c->why, sizeof(c->why), "NCCL's bootstrap found no "
			 "interface it could use and the log does not echo "
			 "NCCL_SOCKET_IFNAME: an include list naming an "
			 "interface this host lacks, or an exclusion list "
			 "(^...) written for another cluster");
	snprintf(c->next, sizeof(c->next), "on the node that printed it: "
		 "echo \"$NCCL_SOCKET_IFNAME\"; ip -br addr; ip route get "
		 "PEER_IP (the interface that routes to the peers is the one "
		 "to name: NCCL_SOCKET_IFNAME==IFACE)");
	snprintf(c->fix, sizeof(c->fix), "name the interface that routes to "
		 "the other nodes exactly: NCCL_SOCKET_IFNAME==IFACE");
	return true;
}

/* NCCL dialled lo's own address (127.0.0.1 or ::1). NCCL advertises the
 * address of the interface it picked (NCCL_SOCKET_IFNAME, else its
 * default: ib*, then anything but docker and lo, then docker, then lo),
 * never a lookup of the host name; lo's address means a rank's NCCL
 * picked lo, which no other node can reach. The line names that choice,
 * not a hostname mapping (issue 42: blind42e a06, awslabs
 * awsome-distributed-ai#192: fixed by NCCL_SOCKET_IFNAME). 127.0.1.1,
 * which lo does not carry, stays the hostname rule's. */
bool explain_nccl_lo(const struct explain_hit *h)
{
	const char *a = logmatch_field(&h->m, "addr");

	return strcmp(h->m.sig->framework, "NCCL") == 0 &&
	       h->m.sig->flags & LOGSIG_PEER && a &&
	       (strcmp(a, "127.0.0.1") == 0 || strcmp(a, "::1") == 0);
}

/* The candidates of an NCCL peer on lo: the interface choice, open
 * with the lines that tell it (the log shows the address, not which
 * rank's choice or why). */
void explain_nccl_lo_cause(const struct explain_ctx *x,
			   const struct explain_hit *h,
			   struct explain_result *r)
{
	struct explain_cause *c = explain_cause_for(
	    r, EXPLAIN_NET, true, x->ifname == NULL ?
	    "nccl-default-iface-unsafe,nccl-ifname-nomatch" :
	    x->ifname[0] == '^' ? "nccl-ifname-overmatch" :
	    "nccl-ifname-nomatch");

	if (c == NULL)
		return;
	explain_add_ref(c, h);
	if (c->why[0] != '\0')
		return;
	if (x->ifname)
		snprintf(c->why, sizeof(c->why), "NCCL dialled %s, lo's own "
			 "address: NCCL advertises the interface it uses, not "
			 "the host name's address, so NCCL_SOCKET_IFNAME=%.60s "
			 "let a rank pick lo%s", logmatch_field(&h->m, "addr"),
			 x->ifname, x->ifname[0] == '^' ? " (an exclusion list "
			 "leaves lo in)" : "");
	else
		snprintf(c->why, sizeof(c->why), "NCCL dialled %s, lo's own "
			 "address: NCCL advertises the interface it uses, not "
			 "the host name's address, so a rank's NCCL picked lo "
			 "(its default falls back to lo when no other "
			 "interface has an address it takes, or a setting "
			 "named lo)",
			 logmatch_field(&h->m, "addr"));
	snprintf(c->next, sizeof(c->next), "on every node: run once with "
		 "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET (the Bootstrap "
		 "and NET/Socket 'Using' lines name the interface each rank "
		 "chose); netprobe scan (the interfaces NCCL's default would "
		 "pick, and which reach the peers)");
	snprintf(c->fix, sizeof(c->fix), "pin the interface peers reach on "
		 "every node: NCCL_SOCKET_IFNAME==IFACE (netprobe scan "
		 "--export prints it)");
}
