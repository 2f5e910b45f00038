/* The RDMA side of a node: devices and ports (RDMA netlink and
 * /sys/class/infiniband), their GID tables, the netdev each port maps to,
 * PCIe placement against the GPUs, and what verbs need from the process
 * (uverbs devices, RLIMIT_MEMLOCK, GPUDirect modules). Plain data. */
#ifndef NP_RDMA_H
#define NP_RDMA_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define RDMA_MAX_DEVS 32 /* NCCL's MAX_IB_DEVS */
#define RDMA_MAX_PORTS 2
#define RDMA_MAX_GIDS 16
#define RDMA_MAX_GPUS 16
#define RDMA_NAME 64
#define RDMA_PCI_PATH 320

enum rdma_gid_type {
	RDMA_GID_UNKNOWN = 0, /* no types file, or it could not be read */
	RDMA_GID_IB,          /* "IB/RoCE v1" on an InfiniBand port */
	RDMA_GID_ROCE_V1,     /* "IB/RoCE v1" or "RoCE v1" on Ethernet */
	RDMA_GID_ROCE_V2,     /* "RoCE v2" */
};

enum rdma_link {
	RDMA_LINK_UNKNOWN = 0,
	RDMA_LINK_IB,  /* link_layer "InfiniBand" */
	RDMA_LINK_ETH, /* link_layer "Ethernet": RoCE */
};

struct rdma_gid {
	int index;
	unsigned char raw[16];
	char text[40]; /* as sysfs prints it: 8 groups of 4 hex digits */
	enum rdma_gid_type type;
	char ndev[IF_NAMESIZE]; /* gid_attrs/ndevs/N, "" for none */
};

struct rdma_port {
	unsigned num;
	int state;       /* IB_PORT_*: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE; -1 */
	int phys_state;  /* 5 LinkUp, 3 Disabled, 2 Polling...; -1 */
	char state_str[24], phys_str[32];
	enum rdma_link link;
	char rate[64];   /* "200 Gb/sec (4X HDR)" */
	int rate_gbps;   /* the rate's leading number, 0 unknown */
	int active_mtu;  /* bytes, 0 unknown */
	char mtu_from[80]; /* where active_mtu came from */
	char netdev[IF_NAMESIZE]; /* ibdev2netdev's netdev, "" none */
	bool netdev_here;         /* it is in this netns (/sys/class/net) */
	int gid_tbl_len;          /* entries under gids/ */
	struct rdma_gid gids[RDMA_MAX_GIDS];
	int ngids;
};

struct rdma_dev {
	char name[RDMA_NAME];
	unsigned index;       /* netlink's device index, 0 unknown */
	char node_guid[24];   /* "0c42:a103:0016:05fa" */
	char pci[16];         /* "0000:18:00.0", "" unknown */
	char pci_path[RDMA_PCI_PATH]; /* "/sys/devices/pci0000:17/..." */
	int numa;             /* -1 unknown */
	bool vf;              /* an SR-IOV virtual function (physfn) */
	struct rdma_port ports[RDMA_MAX_PORTS];
	int nports;
};

struct rdma_gpu {
	char pci[16];
	char pci_path[RDMA_PCI_PATH];
	int numa;
};

/* NCCL's PCIe distance classes (src/graph/topo.h), nearest first. */
enum rdma_path {
	RDMA_PATH_UNKNOWN = 0,
	RDMA_PATH_PIX = 4, /* through at most one PCIe switch */
	RDMA_PATH_PXB = 5, /* several PCIe bridges, no host bridge */
	RDMA_PATH_PHB = 8, /* the CPU's PCIe host bridge */
	RDMA_PATH_SYS = 9, /* across the CPU interconnect (SMP) */
};

struct rdma_info {
	struct rdma_dev devs[RDMA_MAX_DEVS];
	int ndevs;
	bool from_netlink;   /* the device list came from RDMA netlink */
	char nl_error[128];  /* why netlink was not used, "" when it was */
	int netns_mode;      /* 1 shared, 0 exclusive, -1 unknown */
	char netns_from[64];
	bool dev_dir;        /* /dev/infiniband exists */
	int nuverbs;         /* /dev/infiniband/uverbsN character devices */
	char uverbs[RDMA_MAX_DEVS][24];
	long long memlock_soft, memlock_hard; /* bytes; -1 unlimited, -2 ? */
	bool peermem;        /* nvidia_peermem or nv_peer_mem loaded */
	char peermem_from[64];
	char kernel[64];     /* osrelease, for dma-buf (5.12 and later) */
	struct rdma_gpu gpus[RDMA_MAX_GPUS];
	int ngpus;
	char gpus_from[64];
	int pci_rdma_funcs;  /* Mellanox (0x15b3) PCI functions on the bus */
};

/* One message of an RDMA netlink answer (RDMA_NLDEV_CMD_GET, PORT_GET
 * or SYS_GET), flattened. */
struct rdma_nl_rec {
	int cmd;             /* RDMA_NLDEV_CMD_* from nlmsg_type */
	unsigned dev_index;
	char dev_name[RDMA_NAME];
	unsigned port;       /* 0 when the message holds no port */
	unsigned nports;     /* CMD_GET: the device's port count */
	uint64_t node_guid;
	bool has_guid;
	int port_state, phys_state; /* -1 absent */
	unsigned ndev_index;
	char ndev_name[IF_NAMESIZE];
	int netns_mode;      /* -1 absent */
};

struct sysroot;

/* Parses one RDMA netlink message into r. Returns 0, or -1 with errno
 * EINVAL when it is not an RDMA_NL_NLDEV answer or is malformed. */
int rdma_nl_parse(const void *msg, size_t len, struct rdma_nl_rec *r);

/* Merges one parsed record into info (devices by name, ports by
 * number). Returns 0, or -1 when the tables are full. */
int rdma_nl_merge(struct rdma_info *info, const struct rdma_nl_rec *r);

/* Dumps devices and ports, and asks the netns mode, over NETLINK_RDMA
 * (live system only). Returns 0, or -1 with errno. */
int rdma_nl_collect(struct rdma_info *info);

/* Everything above from the sysroot (netlink first on a live system,
 * then /sys/class/infiniband, /dev/infiniband, /proc/self/limits,
 * /sys/module, the GPUs). Never fails: what is unknown stays unknown. */
void rdma_collect(struct rdma_info *info, const struct sysroot *sr);

/* Fills one device's sysfs facts (ports, GIDs, PCI path, NUMA). */
void rdma_sysfs_dev(struct rdma_dev *d, const struct sysroot *sr);

/* RoCE's active MTU for a netdev MTU, as the kernel's iboe_get_mtu
 * computes it (include/rdma/ib_addr.h): 256..4096, 0 when too small. */
int rdma_iboe_mtu(unsigned netdev_mtu);

/* NCCL's PCIe distance between two sysfs device paths of the same node
 * (see rdma_pci.c for how it is read). */
enum rdma_path rdma_pci_distance(const char *a, int numa_a, const char *b,
				 int numa_b);

/* "PIX", "PXB", "PHB", "SYS" or "unknown". */
const char *rdma_path_name(enum rdma_path p);

/* Names: "ACTIVE", "InfiniBand"/"Ethernet", "RoCE v2"... */
const char *rdma_link_name(enum rdma_link l);
const char *rdma_gid_type_name(enum rdma_gid_type t);

/* The `rdma` object of netprobe-json(5). NULL on no memory. */
json_t *rdma_to_json(const struct rdma_info *info);

#endif
