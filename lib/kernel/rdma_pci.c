/* PCIe placement of an RDMA device against a GPU, classed as NCCL's
 * topology search classes paths (src/graph/topo.h, PATH_PIX..PATH_SYS),
 * from the two devices' sysfs paths alone:
 * /sys/devices/pci0000:17/0000:17:00.0/0000:18:00.0/0000:19:00.0 is a
 * host bridge (pci0000:17), then the bridges down to the device. NCCL
 * folds a switch's upstream and downstream ports into one node: two
 * devices under one switch are PIX, under nested switches PXB, meeting
 * only at the CPU PHB (NCCL keys the CPU by NUMA node, so two host
 * bridges of one node are PHB too), across NUMA nodes SYS. */
#include "kernel/rdma.h"

#include <string.h>

#define PCI_DEPTH 16

/* Splits a /sys/devices path into its host bridge and bridge chain (the
 * device last). Returns the chain's length, or -1 when not a PCI path. */
static int split(const char *path, char root[32], char chain[][16])
{
	const char *p = strstr(path, "/pci");
	int n = 0;

	if (p == NULL)
		return -1;
	p++;
	size_t len = strcspn(p, "/");
	if (len >= 32)
		return -1;
	memcpy(root, p, len);
	root[len] = '\0';
	p += len;
	while (*p == '/' && n < PCI_DEPTH) {
		p++;
		len = strcspn(p, "/");
		/* only BDF components; "virtio0", "net" and the like end it */
		if (len != 12 || p[4] != ':' || p[7] != ':' || p[10] != '.')
			break;
		memcpy(chain[n], p, len);
		chain[n][len] = '\0';
		n++;
		p += len;
	}
	return n;
}

/* The PCI nodes above chain[n-1] in NCCL's topology: xml.cc's
 * ncclTopoGetXmlFromSys rewinds two '/' at a time (a switch's downstream
 * port is folded into its upstream one) and stops at the CPU. Returns
 * how many, nearest first, as indexes into chain. */
static int ancestors(int n, int out[PCI_DEPTH])
{
	int k = 0;

	for (int i = n - 3; i >= 0 && k < PCI_DEPTH; i -= 2)
		out[k++] = i;
	return k;
}

/* See the file's comment for the rules. */
enum rdma_path rdma_pci_distance(const char *a, int numa_a, const char *b,
                                 int numa_b)
{
	char ra[32], rb[32], ca[PCI_DEPTH][16], cb[PCI_DEPTH][16];
	int na = split(a, ra, ca), nb = split(b, rb, cb);
	int aa[PCI_DEPTH], ab[PCI_DEPTH], ka, kb;

	if (na < 1 || nb < 1)
		return RDMA_PATH_UNKNOWN;
	ka = ancestors(na, aa);
	kb = ancestors(nb, ab);
	if (strcmp(ra, rb) == 0)
		for (int i = 0; i < ka; i++)
			for (int j = 0; j < kb; j++)
				if (strcmp(ca[aa[i]], cb[ab[j]]) == 0)
					return i == 0 && j == 0
					           ? RDMA_PATH_PIX
					           : RDMA_PATH_PXB;
	/* through the CPU: NCCL keys CPUs by NUMA node */
	if (numa_a == numa_b && (numa_a >= 0 || strcmp(ra, rb) == 0))
		return RDMA_PATH_PHB;
	return RDMA_PATH_SYS;
}

/* NCCL's topoPathTypeStr spelling. */
const char *rdma_path_name(enum rdma_path p)
{
	switch (p) {
	case RDMA_PATH_PIX: return "PIX";
	case RDMA_PATH_PXB: return "PXB";
	case RDMA_PATH_PHB: return "PHB";
	case RDMA_PATH_SYS: return "SYS";
	default: return "unknown";
	}
}

/* The sysfs link_layer words. */
const char *rdma_link_name(enum rdma_link l)
{
	return l == RDMA_LINK_IB ? "InfiniBand"
	       : l == RDMA_LINK_ETH ? "Ethernet"
	                            : "unknown";
}

/* show_gids' type column. */
const char *rdma_gid_type_name(enum rdma_gid_type t)
{
	switch (t) {
	case RDMA_GID_IB: return "IB";
	case RDMA_GID_ROCE_V1: return "RoCE v1";
	case RDMA_GID_ROCE_V2: return "RoCE v2";
	default: return "unknown";
	}
}
