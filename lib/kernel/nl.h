/* Interfaces and routes as the kernel sees them: rtnetlink dumps (libmnl)
 * for the live system, /sys/class/net and /proc/net for a recorded sysroot,
 * and their JSON form (man/netprobe-json.5, section ifaces). Include it
 * before any <linux/if*.h>, which clashes with <net/if.h> otherwise. Lists
 * passed to iface_collect start empty ({0}); free them with
 * iface_list_free. */
#ifndef NP_NL_H
#define NP_NL_H

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stddef.h>

#include <jansson.h>
#include <libmnl/libmnl.h>

#include "kernel/iface.h"
#include "base/sysroot.h"

/* One next hop of a multipath route (RTA_MULTIPATH), with what the
 * neighbour table says of its gateway where it was read (issue 48: an
 * ECMP route that keeps hashing flows onto a dead next hop). */
struct route_nexthop {
	char gateway[INET6_ADDRSTRLEN]; /* "" on-link */
	int oif;
	char ifname[IF_NAMESIZE];
	unsigned flags;  /* RTNH_F_DEAD, RTNH_F_LINKDOWN, ... */
	bool neigh_read; /* neigh is the table's answer (0: no entry) */
	unsigned neigh;  /* NUD_* of the gateway's entry */
};

#define ROUTE_NH_MAX 8

struct route_info {
	int family; /* AF_INET or AF_INET6 */
	/* the asked address, a prefix "10.0.0.0/8", or "default" */
	char destination[INET6_ADDRSTRLEN + 4];
	int oif;
	char out_interface[IF_NAMESIZE];
	char source[INET6_ADDRSTRLEN];  /* preferred source, "" none */
	char gateway[INET6_ADDRSTRLEN]; /* "" when on-link */
	unsigned mtu;                   /* RTAX_MTU, 0 none */
	int metric;
	int table;
	int type;   /* RTN_* of a table's route (nl_parse_route), 0 unknown */
	size_t nnh; /* next hops of a multipath route, else 0 */
	struct route_nexthop nh[ROUTE_NH_MAX];
};

/* collect.c: the live system gets RTM_GETLINK and RTM_GETADDR dumps of
 * this netns, then sysfs extras; a recorded sysroot gets iface_replay of
 * its /sys/class/net and /proc/net. Returns 0, or -1 with errno
 * (EPERM/EACCES: netlink refused; ENOENT: nothing recorded). Interfaces
 * in ifindex order. */
int iface_collect(struct iface_list *out, const struct sysroot *sr);

/* collect.c: default routes of both families (main table); live over
 * netlink, recorded from /proc/net/route and /proc/net/ipv6_route.
 * Returns 0, or -1 with errno. */
int route_defaults(const struct sysroot *sr, struct route_info *out,
		   size_t max, size_t *n);

/* nl_route.c: the `ip route get` question over RTM_GETROUTE: out
 * interface, source, gateway, mtu. Returns 0, or -1 with errno
 * (ENETUNREACH/EHOSTUNREACH when no route). */
int route_get(int family, const void *dst, struct route_info *out);

/* nl_route.c: the same question with the source the connection will
 * have (RTA_SRC, 4 or 16 bytes): the multipath hash of a flow covers its
 * source, so only this lookup names the next hop its packets take.
 * Returns as route_get. */
int route_get_src(int family, const void *dst, const void *src,
		  struct route_info *out);

/* nl_rtdump.c: the route of this netns's tables (the local table left
 * out) that holds address dst (4 or 16 bytes) with the longest prefix,
 * the lowest metric among equals; table >= 0 keeps that table's only,
 * type > 0 routes of that RTN_* type only. Its next hops' interfaces are
 * named. Returns 1 with *out filled, 0 when none holds it, or -1 with
 * errno. */
int route_covering(int family, const void *dst, int table, int type,
		   struct route_info *out);

/* nl_rtdump.c: "blackhole", "unreachable", "prohibit", "throw", "unicast"
 * ... for an RTN_* type; NULL for one without a name. */
const char *route_type_name(int type);

/* iface_json.c: the JSON forms (new references, NULL on no memory). */
json_t *iface_to_json(const struct iface *ifc);
json_t *iface_list_to_json(const struct iface_list *l);
json_t *route_to_json(const struct route_info *r);

/* nl_link.c, nl_addr.c, nl_route.c: parsers fed one message each (unit
 * tests build them in memory with mnl_nlmsg_put_header/mnl_attr_put*).
 * Return 0, or -1 on a malformed message (errno EINVAL). They call only
 * nl_attr_table and the interface model, never the socket or the
 * replay. */
int nl_parse_link(const struct nlmsghdr *nlh, struct iface_list *l);
/* nl_vxlan.c: a vxlan's IFLA_INFO_DATA nest into ifc (VNI, port, local,
 * group, underlay, learning); 0, or -1 with EINVAL when malformed. */
int nl_parse_vxlan(const struct nlattr *data, struct iface *ifc);
int nl_parse_addr(const struct nlmsghdr *nlh, struct iface_list *l);
int nl_parse_route(const struct nlmsghdr *nlh, struct route_info *out);

/* ---- helpers of the above, callable by others but not part of the
 * contract ---- */

/* Dumps interrupted by concurrent changes are retried this many times. */
#define NL_DUMP_TRIES 5

/* Room for one request message (header, fixed part, a few attributes). */
#define NL_REQ_SIZE 512

/* nl_sock.c: sends one request on a fresh NETLINK_ROUTE socket and feeds
 * every reply message to cb until NLMSG_DONE (dumps) or the single
 * answer. Bounded in messages and in time (2 s receive timeout). Returns
 * 0, or -1 with errno (from the kernel's NLMSG_ERROR, or the socket;
 * EINTR when the kernel marked the dump interrupted, so the caller should
 * start it again). */
int nl_request(struct nlmsghdr *req, mnl_cb_t cb, void *data);
/* The same over another netlink bus (NETLINK_RDMA). */
int nl_request_bus(int bus, struct nlmsghdr *req, mnl_cb_t cb, void *data);

/* nl_attr.c: walks the attributes in buf[0..len) into tb (indexed by
 * type, 0..max), checking each known one against types[type] (types NULL:
 * no checks). Returns 0, or -1 with errno EINVAL when one overruns the
 * buffer, leaves trailing bytes, or fails its check. */
int nl_attr_table(const void *buf, size_t len, const struct nlattr **tb,
		  unsigned max, const enum mnl_attr_data_type *types);

/* iface_sysfs.c: adds what sysfs tells (speed, driver, device, NUMA node,
 * PCI address, RDMA device, tap versus tun) to a list read over netlink.
 * Missing files leave fields unknown; never fails. */
void iface_sysfs_fill(struct iface_list *l, const struct sysroot *sr);

/* iface_replay.c: reads the interfaces of a recorded sysroot
 * (/sys/class/net, with addresses from /proc/net/if_inet6, fib_trie and
 * route). Returns 0, or -1 with errno (ENOENT: no /sys/class/net
 * recorded). */
int iface_replay(struct iface_list *out, const struct sysroot *sr);

/* nl_route.c: default routes of the main table over two rtnetlink dumps
 * (IPv4, then IPv6). Returns 0, or -1 with errno. */
int route_defaults_live(struct route_info *out, size_t max, size_t *n);

/* route_replay.c: default routes from a recorded /proc/net/route and
 * /proc/net/ipv6_route. Returns 0, or -1 with errno ENOENT when neither
 * file exists. */
int route_defaults_replay(const struct sysroot *sr, struct route_info *out,
			  size_t max, size_t *n);

/* nl_sock.c: copies src into dst of size n, truncated and always
 * NUL-terminated. */
void nl_copy(char *dst, size_t n, const char *src);

/* iface_json.c: stable names: IF_OPER_* as "up", "down"... and
 * RT_SCOPE_* as "global", "link", "host", "site", "nowhere" (else the
 * number as text in buf). */
const char *iface_operstate_name(int operstate);

#endif
