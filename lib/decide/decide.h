/* The scan's deciders: pure functions over the interface list, the
 * environment (as a struct, never getenv), the hostname lookup and the
 * recommendation, each adding findings with codes from the catalogue. The
 * environment's structs and parsers are kernel/jobenv.h's. */
#ifndef NP_DECIDE_H
#define NP_DECIDE_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

#include "doc/doc.h"
#include "kernel/hostname.h"
#include "kernel/iface.h"
#include "kernel/jobenv.h"
#include "layers/layers.h"
#include "decide/nccl_select.h"
#include "probe/peer.h"

/* A decider that adds findings returns 0, or -1 when a finding could not
 * be added (no memory); a caller passes -1 on. */

struct recommendation;

/* The nccl_env NCCL would read, from the scan's env (NCCL_COMM_ID replaced
 * by comm_id_numeric when the caller resolved a name, else as given). */
void scan_env_nccl(const struct scan_env *e, const char *comm_id_numeric,
                   struct nccl_env *out);

/* ---- interface predicates shared by the deciders and recommend ---- */

/* True for loopback by flag, kind or name. */
bool decide_is_loopback(const struct iface *ifc);

/* True for kinds that exist only in software (iface_is_virtual) and for
 * names that container and VM tooling creates (docker*, br-*, veth*, cni*,
 * flannel*, cali*, virbr*, vxlan*, weave*, tailscale*, wg*, tun*, tap*). */
bool decide_is_virtual(const struct iface *ifc);

/* True for a bridge whose only members are veths, or that has no member:
 * a container or VM bridge with no uplink to other hosts. Never for one
 * the default route leaves by (iface.default_route). */
bool decide_is_container_bridge(const struct iface_list *l,
                                const struct iface *ifc);
/* The scan's reason for rejecting such a bridge. It is a guess from the
 * bridge's members, not a fact of the kernel: the report lets a mesh that
 * measured the bridge's address reaching peers overrule it (issue 48). */
#define DECIDE_WHY_VETH_BRIDGE                                             \
	"a bridge whose only members are veths (a container or VM "        \
	"bridge): it does not reach other hosts"

/* The bridge ifc is an up port of (its master, of kind bridge, in l),
 * or NULL. */
const struct iface *decide_bridge_port_of(const struct iface_list *l,
                                          const struct iface *ifc);

/* True for an address other hosts could use: not loopback, not link-local
 * (IPv4 169.254/16, IPv6 fe80::/10), scope global. */
bool decide_addr_global(const struct iface_addr *a);

/* The first global address of the family (AF_UNSPEC: IPv4 first, then
 * IPv6), or NULL. */
const struct iface_addr *decide_global_addr(const struct iface *ifc,
                                            int family);

/* True when the interface is up and running with carrier (not 0). */
bool decide_is_usable(const struct iface *ifc);

/* ---- the order of evidence (decide_evidence.c) ---- */

/* True when the peers measured a direct path: every peer but this host
 * answered, saw this node's own source address (no NAT) and connected
 * back, and there was at least one such peer. */
bool decide_peers_direct(const struct iface_list *l,
                         const struct peer_verdict *peers, size_t n);

/* The layering's findings (layers_findings). When the peers measured a
 * direct path, a NAT guess (container-bridge-nat, wsl2-nat,
 * wsl-container-double-nat) becomes info carrying both the layering's
 * evidence and the peers'. */
int decide_layers(const struct layers *ly, const struct iface_list *l,
                  const struct peer_verdict *peers, size_t npeers,
                  struct doc *d);

/* True for a global address on a real subnet (not a /32 or /128 host
 * address). */
bool decide_subnet_addr(const struct iface_addr *a);

/* A peer's resolved address as bytes into out. Returns its family, or
 * AF_UNSPEC when peer_addr holds none. */
int decide_peer_bytes(const struct peer_verdict *p, unsigned char out[16]);

/* Why traffic for other hosts that the kernel routes through ifc goes
 * nowhere ("is down", "has no carrier", "is a bridge whose only members
 * are veths ..."), or NULL when it can carry it. */
const char *decide_dead_end(const struct iface_list *l,
                            const struct iface *ifc);

/* The state of an interface in words, for evidence ("administratively
 * up, not running, no carrier"). */
void decide_state_words(const struct iface *ifc, char *buf, size_t len);

/* ---- hostname ---- */

/* The address Gloo would bind: the first one bind() accepts, or the first
 * one when bind was not tried. NULL when none resolved. */
const struct hostname_addr *hostname_gloo_addr(const struct hostname_info *h);

/* hostname-loopback, hostname-unbindable. An address counts as local when
 * bind() accepted it, or (not tried) when an interface of l holds it. A
 * name the live resolver does not know is unbindable too: torch then falls
 * back to the loopback address. The fixes name the recommended interface
 * and address (rec may be NULL or have none). The job's settings (e may be
 * NULL) can make the name moot, as the fixes say: GLOO_SOCKET_IFNAME
 * naming one interface with an address (and, for a loopback name,
 * MASTER_ADDR set to an address that is not a loopback one) decides what
 * Gloo and torch's store use, and then nothing is found. */
int decide_hostname(const struct hostname_info *h, const struct iface_list *l,
                    const struct recommendation *rec,
                    const struct scan_env *e, struct doc *d);

/* True when an interface of l holds the address (127/8 and ::1 count as
 * local when a loopback interface is up). */
bool decide_addr_is_local(const struct iface_list *l, int family,
                          const void *addr);

/* ---- environment settings ---- */

/* nccl-ifname-overmatch, nccl-ifname-nomatch; the fix names the
 * recommended interface (rec may be NULL or have none). */
int decide_nccl_ifname(const struct scan_env *e, const struct nccl_env *ne,
                       const struct iface_list *l,
                       const struct recommendation *rec, struct doc *d);

/* gloo-ifname-syntax. */
int decide_gloo_ifname(const struct scan_env *e, const struct iface_list *l,
                       struct doc *d);

/* nccl-comm-id-subnet. ne->comm_id must be numeric to be judged; a name
 * the caller could not resolve is reported as such. */
int decide_comm_id(const struct scan_env *e, const struct nccl_env *ne,
                   const struct iface_list *l, struct doc *d);

/* What the scan learnt about MASTER_ADDR. */
struct master_info {
	bool resolved; /* numeric, or the name resolved */
	int family;
	unsigned char addr[16];
	char str[INET6_ADDRSTRLEN];
	int route; /* 1 a route exists, 0 none, -1 not asked */
	char route_ifname[IF_NAMESIZE];
	char error[320]; /* why it did not resolve */
};

/* MASTER_ADDR: loopback with several nodes (rank-unreachable), neither
 * local nor routed (host-unreachable). */
int decide_master_addr(const struct scan_env *e, const struct master_info *m,
                       const struct iface_list *l, struct doc *d);

/* rank-unreachable, a fault with its one line (export MASTER_ADDR=R0),
 * for MASTER_ADDR that resolved to another member's address than rank 0's
 * (r0: rank 0's list entry; r0addr: what this node resolved it to, NULL
 * when it did not or is rank 0), or to this node's own when it is not
 * rank 0; peers: the members this node resolved (issue 48). An address no
 * member resolved to is not judged. Returns 0, -1 on no memory. */
int decide_master_rank0(const struct scan_env *e, const struct master_info *m,
                        const struct iface_list *l, int rank,
                        const char *r0, const char *r0addr,
                        const struct peer_verdict *peers, size_t n,
                        struct doc *d);

/* mpi-btl-iface, a fault, for OMPI_MCA_btl_tcp_if_include and _exclude
 * both set (Open MPI refuses the pair: opal/mca/btl/tcp/btl_tcp_component.c)
 * and for OMPI_MCA_oob_tcp_if_include/_exclude both set
 * (orte/mca/oob/tcp/oob_tcp_component.c); for an oob include list naming
 * what this node lacks (a fault) or leaving out the recommended interface
 * (a warning). Returns 1 when the BTL pair was refused, so the BTL's
 * interfaces need no other check, else 0; -1 on no memory. */
int decide_mpi_lists(const struct scan_env *e, const struct iface_list *l,
                     const struct recommendation *rec, struct doc *d);

/* mpi-btl-iface: Open MPI's TCP BTL would use bridges, or is pinned to
 * another interface than the recommended one. rec may be NULL. */
int decide_mpi(const struct scan_env *e, const struct iface_list *l,
               const struct recommendation *rec, struct doc *d);

/* ---- settings against the peers (decide_reach.c) ---- */

/* One measurement: did a peer answer a connection made from an
 * interface's address (probe/fromaddr.h)? */
struct src_reach {
	char ifname[IF_NAMESIZE];
	char addr[INET6_ADDRSTRLEN]; /* the interface's address used */
	size_t peer;                 /* index into the peers */
	unsigned port;               /* the peer's responder port */
	int answered;                /* 1 yes, 0 no answer, -1 not tested */
	char reason[40];
	long long timeout_us;
};

#define SRC_REACH_MAX 8

/* The interfaces NCCL_SOCKET_IFNAME (as NCCL expands it) and
 * GLOO_SOCKET_IFNAME (exact names) select, loopback left out, without
 * repeats, at most max into out. Returns how many. */
size_t decide_setting_ifaces(const struct scan_env *e,
                             const struct nccl_env *ne,
                             const struct iface_list *l,
                             const struct iface **out, size_t max);

/* rank-unreachable for NCCL_SOCKET_IFNAME and for GLOO_SOCKET_IFNAME when
 * an interface they select is not the route's toward a peer that answered
 * and a connection from its address to that peer got no answer (m). An
 * interface the route uses, or one not measured, raises nothing. The fix
 * names the recommended interface (rec may be NULL). */
int decide_setting_reach(const struct scan_env *e, const struct nccl_env *ne,
                         const struct iface_list *l,
                         const struct peer_verdict *peers, size_t n,
                         const struct src_reach *m, size_t nm,
                         const struct recommendation *rec, struct doc *d);

/* rank-unreachable, a fault with its one line (export NAME=VALUE), for
 * NCCL_SOCKET_IFNAME or GLOO_SOCKET_IFNAME whose interfaces no peer is
 * reached by, from this node's own state (no route toward a peer that
 * answered leaves by them, no peer's address is in their subnets, no
 * connection from them was measured) while some peer answered and the
 * scan recommends another interface (issue 48). Returns 0, -1 on no
 * memory. */
int decide_setting_unreached(const struct scan_env *e,
                             const struct nccl_env *ne,
                             const struct iface_list *l,
                             const struct peer_verdict *peers, size_t n,
                             const struct src_reach *m, size_t nm,
                             const struct recommendation *rec,
                             struct doc *d);

/* ---- NCCL's own choice ---- */

struct nccl_default {
	struct nccl_choice choice; /* with NCCL_SOCKET_IFNAME unset */
	/* what the bootstrap listens on then: choice's first interface, or
	 * with NCCL_COMM_ID set the one in its subnet (nccl_select_bootstrap);
	 * n 0 when none */
	struct nccl_choice boot;
	bool safe;
	char why[256];
};

/* Computes NCCL's choice with the real environment but NCCL_SOCKET_IFNAME
 * unset, judges it against the recommendation (may have no interface) and
 * adds nccl-default-iface-unsafe; out->safe says whether NCCL's own choice
 * is safe. Returns 0, or -1 on no memory. */
int decide_nccl_default(const struct iface_list *l, const struct nccl_env *ne,
                        const struct recommendation *rec,
                        struct nccl_default *out, struct doc *d);

/* ipv6-link-local-only: an interface NCCL would pick (with the real
 * environment) through a link-local IPv6 address. */
int decide_ipv6_link_local(const struct iface_list *l,
                           const struct nccl_env *ne, struct doc *d);

/* ---- interfaces ---- */

/* overlapping-subnets between up interfaces: a warning whose fix names
 * the recommended interface (rec may be NULL or have none), or a fault
 * when the overlap captures the route toward a peer (the peer lies in
 * both prefixes and its route leaves by the interface that reaches no
 * other host: a container bridge or pool, or one without carrier), with
 * the prefixes and the route as evidence. */
int decide_subnets(const struct iface_list *l, const struct peer_verdict *peers,
                   size_t npeers, const struct recommendation *rec,
                   struct doc *d);

/* The local cause that keeps a peer out of reach into buf (no route; the
 * route leaves by an interface that is down, has no carrier or is a
 * bridge of veths; the peer's subnet sits on an interface that is down,
 * so the route fell back to another), or NULL when the route and its
 * interface look fine. Returns buf or NULL. */
const char *decide_route_cause(const struct iface_list *l,
                               const struct peer_verdict *p, char *buf,
                               size_t len);

/* host-unreachable, with decide_route_cause's cause, for each peer that
 * did not answer because of this node's route or link. */
int decide_peer_routes(const struct iface_list *l,
                       const struct peer_verdict *peers, size_t n,
                       struct doc *d);

/* interface-down (addressed, not loopback, down or without carrier) and
 * no-usable-interface. */
struct rpf_facts;
/* rp-filter-strict: two usable interfaces in one IPv4 subnet, both with
 * strict reverse-path filtering in effect (kernel/rpfilter.h). Returns 0,
 * or -1 on no memory. */
int decide_rp_filter(const struct iface_list *l, const struct rpf_facts *f,
                     struct doc *d);

int decide_iface_state(const struct iface_list *l, struct doc *d);

/* bridge-port-addressed: an up port of a bridge (kernel/iface.h's master)
 * that holds a global address, or the IPv4 default route (defs: the
 * main table's default routes, kernel/nl.h; may be empty), with the
 * command that moves them to the bridge (or, for a bridge that is down,
 * releases the port). Returns 0, or -1 on no memory. */
struct route_info;
int decide_bridge_ports(const struct iface_list *l,
                        const struct route_info *defs, size_t ndefs,
                        struct doc *d);

/* True for an up interface with the NOARP flag that would resolve its
 * neighbours (an Ethernet-like kind or IPoIB, not point-to-point, no
 * master's port) and holds a global address whose prefix has room for
 * neighbours (not /32 or /128): nic-noarp's interface. */
bool decide_noarp_lan(const struct iface *ifc);

/* nic-noarp: one fault per decide_noarp_lan interface, with the command
 * that turns ARP on (issue 48); silent for one with a PERMANENT
 * neighbour of another MAC than its own in st (kernel/neigh.h; NULL:
 * unread), neighbours set by hand. Returns 0, or -1 on no memory. */
struct neigh_statics;
int decide_noarp(const struct iface_list *l, const struct neigh_statics *st,
                 struct doc *d);

/* True for an up port of an up bridge with STP off and a global address
 * whose state (kernel/iface.h's brport_state) is listening, learning or
 * blocking: bridge-port-stuck's port. */
bool decide_port_stuck(const struct iface_list *l, const struct iface *port);

/* bridge-port-stuck: one fault per decide_port_stuck port, with the
 * command that sets it forwarding (issue 48). Returns 0, or -1 on no
 * memory. */
int decide_bridge_stuck(const struct iface_list *l, struct doc *d);

#endif
