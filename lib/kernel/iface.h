/* The model of a network interface: filled from netlink by netprobe and from
 * getifaddrs by ncclcheck, read by every decider. Plain data, no I/O. */
#ifndef NP_IFACE_H
#define NP_IFACE_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum iface_kind {
	IFK_UNKNOWN = 0,
	IFK_PHYSICAL,   /* backed by a device (PCI, platform, virtio) */
	IFK_LOOPBACK,
	IFK_BRIDGE,
	IFK_VETH,
	IFK_VXLAN,
	IFK_GENEVE,
	IFK_MACVLAN,
	IFK_MACVTAP,
	IFK_IPVLAN,
	IFK_BOND,
	IFK_TEAM,
	IFK_VLAN,
	IFK_TUN,
	IFK_TAP,
	IFK_WIREGUARD,
	IFK_DUMMY,
	IFK_INFINIBAND, /* IPoIB */
	IFK_IPIP,       /* ipip, sit, gre, ip6tnl and other tunnels */
	IFK_OTHER,      /* a kind the kernel named that we do not model */
};

#define IFACE_MAX_ADDRS 16

struct iface_addr {
	int family;         /* AF_INET or AF_INET6 */
	union {
		struct in_addr v4;
		struct in6_addr v6;
	} a;
	uint8_t prefixlen;
	uint8_t scope;      /* RT_SCOPE_UNIVERSE 0, LINK 253, HOST 254 */
	char str[INET6_ADDRSTRLEN];
	/* IFA_LABEL where it is not the interface's name: an IPv4 alias
	 * such as "eth0:1", which getifaddrs (and so NCCL and Gloo) list as
	 * an interface of its own; "" otherwise */
	char label[IF_NAMESIZE];
};

struct iface {
	int index;
	char name[IF_NAMESIZE];
	enum iface_kind kind;
	char kind_str[32];  /* IFLA_INFO_KIND as the kernel spells it, or "" */
	unsigned flags;     /* IFF_* from ifinfomsg */
	int operstate;      /* IF_OPER_* (RFC 2863); -1 unknown */
	int carrier;        /* 1, 0, or -1 unknown */
	unsigned mtu;
	char mac[18];       /* "aa:bb:cc:dd:ee:ff" or "" */

	int master_index;   /* bridge or bond master, 0 for none */
	char master[IF_NAMESIZE];
	int link_index;     /* IFLA_LINK: veth peer, vlan/macvlan parent */
	int link_netnsid;   /* IFLA_LINK_NETNSID, -1 when in this netns */
	char parent[IF_NAMESIZE]; /* parent's name when in this netns */

	uint32_t vxlan_id;  /* vxlan VNI */
	int vxlan_link;     /* vxlan underlay device index, 0 for none */
	/* a vxlan's UDP port (0 unknown), local and group address ("" none)
	 * and learning (1, 0, -1 unknown), from IFLA_VXLAN_* (issue 48) */
	uint16_t vxlan_port;
	char vxlan_local[INET6_ADDRSTRLEN];
	char vxlan_group[INET6_ADDRSTRLEN];
	int vxlan_learning;
	/* proxy (the device answers ARP from its neighbour table), l2miss
	 * and l3miss (a daemon is told of misses and fills entries on
	 * demand): 1, 0, -1 unknown, from IFLA_VXLAN_* (issue 48) */
	int vxlan_proxy, vxlan_l2miss, vxlan_l3miss;
	char macvlan_mode[16]; /* "bridge", "private", "vepa", "passthru",
				* "source"; ipvlan "l2", "l3", "l3s" */
	uint16_t vlan_id;
	char slaves[8][IF_NAMESIZE]; /* bond or bridge members */
	int nslaves;
	/* a default route of the main table leaves by it: set by the scan
	 * from its routes (false where routes are not read) */
	bool default_route;

	struct iface_addr addrs[IFACE_MAX_ADDRS]; /* in kernel order */
	int naddrs;

	long long speed_mbps; /* -1 unknown */
	char driver[32];
	bool real_device;     /* /sys/class/net/X/device exists */
	/* a bridge's port: its STP state (BR_STATE_*: 0 disabled, 1
	 * listening, 2 learning, 3 forwarding, 4 blocking) from sysfs
	 * brport/state; -1 unknown or no port */
	int brport_state;
	/* a bridge: its stp_state (0 off, 1 kernel, 2 user space) from
	 * sysfs bridge/stp_state; -1 unknown or no bridge */
	int br_stp;
	int numa_node;        /* -1 unknown */
	char pci[32];         /* "0000:3b:00.0" or "" */
	char rdma[32];        /* RDMA device name mapped to it, or "" */
};

struct iface_list {
	struct iface *v;
	size_t n, cap;
};

/* Appends a zeroed interface with unknown fields set to -1. Returns it, or
 * NULL on no memory. */
struct iface *iface_list_add(struct iface_list *l);

/* Frees the list's storage and zeroes it. */
void iface_list_free(struct iface_list *l);

/* Finds an interface by index or name. Returns NULL when absent. */
const struct iface *iface_by_index(const struct iface_list *l, int index);
const struct iface *iface_by_name(const struct iface_list *l,
				  const char *name);

/* Finds an interface by index: binary search when the list is sorted,
 * else a scan. Returns NULL when absent. */
struct iface *iface_find_index(struct iface_list *l, int index);

/* After the links are listed: sorts by ifindex, then resolves master,
 * parent and slave names inside the list. Never fails. */
void iface_list_finish(struct iface_list *l);

/* Adds an address in kernel order (text form filled in). Returns 0, or -1
 * when the interface already holds IFACE_MAX_ADDRS addresses. */
int iface_add_addr(struct iface *ifc, int family, const void *addr,
		   unsigned prefixlen, unsigned scope);

/* The first IPv4 address, or NULL. */
const struct iface_addr *iface_first_v4(const struct iface *ifc);

/* True for IFF_UP and IFF_RUNNING both set. */
bool iface_is_running(const struct iface *ifc);

/* True for kinds that exist only in software on this host (bridge, veth,
 * vxlan, tun, wireguard...) and so rarely reach other nodes directly. */
bool iface_is_virtual(const struct iface *ifc);

/* A bridge port's STP state by name: "disabled", "listening",
 * "learning", "forwarding", "blocking", or "unknown". */
const char *iface_brport_state_name(int st);

/* Stable lowercase name of a kind ("physical", "veth"...). */
const char *iface_kind_name(enum iface_kind k);

/* Maps IFLA_INFO_KIND text to a kind (IFK_OTHER for one we do not model,
 * IFK_UNKNOWN for NULL or ""). */
enum iface_kind iface_kind_from_str(const char *s);

/* True when addr (same family) lies inside the prefix a/prefixlen. */
bool iface_addr_in_prefix(const struct iface_addr *a, int family,
			  const void *addr);

#endif
