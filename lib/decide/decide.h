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
#include "decide/nccl_select.h"
#include "probe/peer.h"

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
 * a container or VM bridge with no uplink to other hosts. */
bool decide_is_container_bridge(const struct iface_list *l,
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

/* ---- hostname ---- */

/* The address Gloo would bind: the first one bind() accepts, or the first
 * one when bind was not tried. NULL when none resolved. */
const struct hostname_addr *hostname_gloo_addr(const struct hostname_info *h);

/* hostname-loopback, hostname-unbindable. An address counts as local when
 * bind() accepted it, or (not tried) when an interface of l holds it. A
 * name the live resolver does not know is unbindable too: torch then falls
 * back to the loopback address. */
void decide_hostname(const struct hostname_info *h, const struct iface_list *l,
                     struct doc *d);

/* True when an interface of l holds the address (127/8 and ::1 count as
 * local when a loopback interface is up). */
bool decide_addr_is_local(const struct iface_list *l, int family,
                          const void *addr);

/* ---- environment settings ---- */

/* nccl-ifname-overmatch, nccl-ifname-nomatch. */
void decide_nccl_ifname(const struct scan_env *e, const struct nccl_env *ne,
                        const struct iface_list *l, struct doc *d);

/* gloo-ifname-syntax. */
void decide_gloo_ifname(const struct scan_env *e, const struct iface_list *l,
                        struct doc *d);

/* nccl-comm-id-subnet. ne->comm_id must be numeric to be judged; a name
 * the caller could not resolve is reported as such. */
void decide_comm_id(const struct scan_env *e, const struct nccl_env *ne,
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
void decide_master_addr(const struct scan_env *e, const struct master_info *m,
                        const struct iface_list *l, struct doc *d);

/* mpi-btl-iface, a fault, for OMPI_MCA_btl_tcp_if_include and _exclude
 * both set (Open MPI refuses the pair: opal/mca/btl/tcp/btl_tcp_component.c)
 * and for OMPI_MCA_oob_tcp_if_include/_exclude both set
 * (orte/mca/oob/tcp/oob_tcp_component.c); for an oob include list naming
 * what this node lacks (a fault) or leaving out the recommended interface
 * (a warning). Returns true when the BTL pair was refused, so the BTL's
 * interfaces need no other check. */
bool decide_mpi_lists(const struct scan_env *e, const struct iface_list *l,
                      const struct recommendation *rec, struct doc *d);

/* mpi-btl-iface: Open MPI's TCP BTL would use bridges, or is pinned to
 * another interface than the recommended one. rec may be NULL. */
void decide_mpi(const struct scan_env *e, const struct iface_list *l,
                const struct recommendation *rec, struct doc *d);

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
 * adds nccl-default-iface-unsafe. Returns out->safe. */
bool decide_nccl_default(const struct iface_list *l, const struct nccl_env *ne,
                         const struct recommendation *rec,
                         struct nccl_default *out, struct doc *d);

/* ipv6-link-local-only: an interface NCCL would pick (with the real
 * environment) through a link-local IPv6 address. */
void decide_ipv6_link_local(const struct iface_list *l,
                            const struct nccl_env *ne, struct doc *d);

/* ---- interfaces ---- */

/* overlapping-subnets between up interfaces; with peers, the route toward
 * them (local_ifname) is named as the one to pin. */
void decide_subnets(const struct iface_list *l,
                    const struct peer_verdict *peers, size_t npeers,
                    struct doc *d);

/* interface-down (addressed, not loopback, down or without carrier) and
 * no-usable-interface. */
void decide_iface_state(const struct iface_list *l, struct doc *d);

#endif
