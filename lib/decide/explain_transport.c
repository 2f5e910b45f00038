/* netprobe explain: the failures of a transport's own (issue 42): an RDMA
 * completion the local NIC failed on its own memory, and UCX's TCP
 * transport offering the peer's loopback. Facts about the node's NIC or
 * the library, not about the network, so each is a cause that is not the
 * network (explain.c calls them). */
#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <stdio.h>
#include <string.h>

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
