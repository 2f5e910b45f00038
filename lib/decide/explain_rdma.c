/* netprobe explain's RDMA rules (decide/explain_rdma.h). Pure. */
#include "decide/explain_rdma.h"

#include <stdio.h>

#include "doc/finding.h"

/* A Mellanox function counts even when this netns sees no device: its
 * RDMA may be hidden (netns exclusive) or its driver missing. */
bool explain_rdma_present(const struct rdma_info *info)
{
	return info->ndevs > 0 || info->pci_rdma_funcs > 0;
}

/* decide_rdma judges nothing without hardware, so nothing is "checked"
 * there: a cause the log names stays the log's, never "not here". The
 * memlock limit counts only where it was read. */
size_t explain_rdma_checkable(const struct rdma_info *info, const char **out,
			      size_t cap)
{
	static const enum finding_code with_devs[] = {
	    FINDING_RDMA_IB_FALLBACK,     FINDING_RDMA_UVERBS_MISSING,
	    FINDING_RDMA_NETNS_EXCLUSIVE, FINDING_RDMA_HCA_MISSING,
	    FINDING_RDMA_PORT_DOWN,       FINDING_RDMA_GID_INDEX,
	    FINDING_RDMA_GID_AUTO,        FINDING_RDMA_NETDEV_NETNS,
	    FINDING_RDMA_NIC_FAR};
	static const enum finding_code bus_only[] = {
	    FINDING_RDMA_IB_FALLBACK, FINDING_RDMA_NETNS_EXCLUSIVE};
	size_t n = 0;

	if (!explain_rdma_present(info))
		return 0;
	if (info->ndevs == 0) {
		for (size_t i = 0; i < sizeof(bus_only) / sizeof(bus_only[0]) &&
				   n < cap; i++)
			out[n++] = finding_name(bus_only[i]);
		return n;
	}
	for (size_t i = 0; i < sizeof(with_devs) / sizeof(with_devs[0]) &&
			   n < cap; i++)
		out[n++] = finding_name(with_devs[i]);
	if (info->memlock_soft != -2 && n < cap)
		out[n++] = finding_name(FINDING_RDMA_MEMLOCK);
	return n;
}

/* The job's own value is the one to judge; the log says what it was. */
const char *explain_ib_value(const char *env, const struct explain_log *lg,
			     const char *name, bool *from_log)
{
	const char *v;

	*from_log = false;
	if (env != NULL)
		return env;
	if ((v = explain_setting(lg, name)) != NULL)
		*from_log = true;
	return v;
}

/* Fits explain's 256-byte note line. */
int explain_rdma_absent_note(const struct rdma_info *info, char *buf,
			     size_t len)
{
	if (explain_rdma_present(info))
		return -1;
	snprintf(buf, len, "no RDMA device and no Mellanox (0x15b3) PCI "
		 "function: sockets (NET/Socket) are this node's transport "
		 "and NET/IB : No device found. is expected; other vendors' "
		 "RoCE NICs look like Ethernet on the bus and are not seen");
	return 0;
}

/* Only causes wholly RDMA's: a mixed one still needs its other checks. */
size_t explain_rdma_settle(struct explain_result *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ncauses; i++) {
		struct explain_cause *c = &r->causes[i];
		bool all = c->open && c->ncodes > 0;

		for (size_t k = 0; k < c->ncodes && all; k++)
			all = finding_in_family(c->codes[k], FAMILY_RDMA);
		if (!all)
			continue;
		snprintf(c->next, sizeof(c->next), "nothing to fix on this "
			 "node: it has no RDMA hardware, so NCCL uses sockets "
			 "and says NET/IB : No device found.; on a node with "
			 "RDMA NICs run netprobe explain --here FILE there");
		n++;
	}
	return n;
}
