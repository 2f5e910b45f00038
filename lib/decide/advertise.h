/* The addresses the frameworks will advertise to the other ranks, as this
 * node's environment and hostname make them choose (Gloo, Open MPI's TCP
 * BTL, NCCL's bootstrap), and the verdict on them once the peers have
 * been asked whether they can reach each one. Pure: the scan tests the
 * addresses (probe/reach.h) between the two calls. */
#ifndef NP_ADVERTISE_H
#define NP_ADVERTISE_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

#include "doc/doc.h"
#include "kernel/hostname.h"
#include "kernel/iface.h"
#include "kernel/jobenv.h"
#include "probe/peer.h"
#include "probe/reach.h"

#define ADV_MAX 8

enum adv_framework {
	ADV_GLOO, /* torch's Gloo backend and its pairs */
	ADV_MPI,  /* Open MPI's TCP BTL */
	ADV_NCCL, /* NCCL's bootstrap */
};

/* One address a framework will advertise, and why that one. */
struct advert {
	enum adv_framework fw;
	char ifname[IF_NAMESIZE];
	char addr[INET6_ADDRSTRLEN];
	char why[160]; /* "GLOO_SOCKET_IFNAME=mgmt0", "hostname gpu-a" */
};

struct reach_result {
	size_t adv;  /* index into the advert list */
	size_t peer; /* index into the peers */
	enum reachback state;
	char detail[128];
};

/* The addresses Gloo, Open MPI and NCCL's bootstrap will advertise:
 * Gloo the first address of each GLOO_SOCKET_IFNAME interface (torch's
 * torch/csrc/distributed/c10d/init.cpp, Gloo's lookupAddrForIface), else
 * what the hostname resolves to (hostname_gloo_addr; loopback is left to
 * the hostname finding); Open MPI the first IPv4 address of every
 * interface btl_tcp_if_include names, else of every up interface but
 * loopback and btl_tcp_if_exclude's (opal/mca/btl/tcp/btl_tcp_component.c);
 * NCCL the address its bootstrap would use (nccl_select_bootstrap). Each
 * address once per framework. Returns how many were stored (at most max).
 */
size_t decide_advertised(const struct scan_env *e, const struct nccl_env *ne,
                         const struct hostname_info *h,
                         const struct iface_list *l, struct advert *out,
                         size_t max);

/* Bit (1 << fw) for each framework that got a finding. */
#define ADV_BIT(fw) (1u << (fw))

/* Findings from the peers' answers: an advertised address a peer cannot
 * reach is rank-unreachable (Gloo, NCCL) or mpi-btl-iface (Open MPI), a
 * fault, with the interface to use instead (want, may be NULL). For Gloo,
 * of each pair the higher address connects (gloo/transport/tcp/device.cc):
 * where the peer's address sorts below this node's, this node connects
 * to it instead, and the finding is a warning; so is Open MPI's without
 * an include list (it pairs addresses by network, and the peers'
 * interfaces are not known here). Puts the ADV_BIT bits of the frameworks
 * that got a finding into *seen. Returns 0, or -1 on no memory. */
int decide_reach(const struct advert *a, size_t na,
                 const struct reach_result *r, size_t nr,
                 const struct peer_verdict *peers, size_t npeers,
                 const struct iface *want, struct doc *d, unsigned *seen);

/* "gloo", "mpi" or "nccl". */
const char *advert_fw_name(enum adv_framework fw);

#endif
