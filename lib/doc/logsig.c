/* The signature table of netprobe explain (doc/logsig.h): the message
 * forms, read from each framework's own source at the tags named. One
 * array, so that a row is known by its index (explain's fact slots, the
 * matcher's order); its rows live in one file per framework (issue 46:
 * no source file over 900 lines), each a designated initializer. */
#include "doc/logsig.h"

#include <string.h>

/* NCCL prints a socket address as host<port> (ncclSocketToString), Gloo
 * and torch as [host]:port. */
#define NCCL_ADDR "([0-9A-Za-z:.%_-]+)<([0-9]+)>"
#define GLOO_ADDR "\\[([^]]+)\\]:([0-9]+)"
/* What keeps NCCL off RDMA, most precise first: the measurement here
 * proves one of them (decide/decide_rdma.c). */
#define RDMA_OPEN \
	"rdma-uverbs-missing,rdma-netns-exclusive,rdma-hca-missing," \
	"rdma-ib-fallback"
/* What NCCL's bare "unhandled system error" most often was in the
 * public threads (a peer cut off, a firewall, NCCL's own interface
 * choice, a container bridge, /dev/shm); NCCL_DEBUG=INFO decides. */
#define NCCL_SYSTEM_OPEN \
	"rank-unreachable,port-filtered,nccl-default-iface-unsafe," \
	"container-bridge-nat,shm-small"
#define CONNECT_NCCL "[Cc]onnect to " NCCL_ADDR " failed : "

/* A row of logsig_generic.def: the same errno words in any framework's
 * line, so no captures, and candidates only (LOGSIG_GENERIC). */
#define GENERIC_ROW(i, src, nd, rx, mb, why, ex) \
	{.id = (i), .framework = "any", .source = (src), .versions = "any", \
	 .needle = (nd), .regex = (rx), .fields = "", .maybe = (mb), \
	 .meaning = (why), .example = (ex), .flags = LOGSIG_GENERIC}
#define GEN_REFUSED "port-closed,listener-loopback-only,rank-unreachable"
#define GEN_REFUSED_WHY \
	"a connect was refused: nothing listened on that address and port " \
	"(a peer not started or gone, or listening on another address, " \
	"loopback only), or a firewall rejected it with a reset"
#define GEN_TIMEDOUT "port-filtered,host-unreachable,rank-unreachable"
#define GEN_TIMEDOUT_WHY \
	"a connection's packets went unanswered: a firewall that drops, or " \
	"an address no route or host answers"
#define GEN_NOROUTE \
	"host-unreachable,port-prohibited,port-filtered,rank-unreachable"
#define GEN_NOROUTE_WHY \
	"no path to that host: no neighbour answered, no route, or a " \
	"firewall rejected it (icmp-host-prohibited)"
#define GEN_NETUNREACH "host-unreachable,no-usable-interface"
#define GEN_NETUNREACH_WHY \
	"this host has no route toward that address's network"
/* A connect failure that names no errno: every errno's candidates, the
 * refusal's loopback-only listener too (issue 42: blind42l a07, a server
 * on 127.0.1.1 behind gRPC's words); the generic rows add the rank. */
#define CONNECT_UNKNOWN \
	"port-closed,listener-loopback-only,port-filtered,host-unreachable"
#define GEN_CONNECT_ANY CONNECT_UNKNOWN ",rank-unreachable"
#define GEN_CONNECT_ANY_WHY \
	"a connect to that address failed, and the line does not say how: " \
	"refused (nothing listening), unanswered (a filter) or unreachable"
#define GEN_RESOLVE "name-unresolved"
#define GEN_RESOLVE_WHY \
	"a name the program looked up did not resolve on the node that " \
	"printed it"
/* What an RDMA work request retried until the NIC gave up (transport
 * retry exceeded, IB status 12) leaves open: a GID or path that does not
 * route between the nodes (it never worked), or a RoCE fabric that is
 * not lossless and drops under load (it worked, then failed; issue 42:
 * blind42t b06, openucx/ucx#2346). */
#define RDMA_RETRY_OPEN \
	"rdma-gid-index,rdma-gid-auto,rdma-netdev-netns,rdma-fabric-mismatch," \
	"link-lossy"
#define GEN_RDMA RDMA_RETRY_OPEN
#define GEN_RDMA_WHY \
	"an RDMA work request was retried until the NIC gave up: most often " \
	"a GID that does not route between the nodes, or drops on a " \
	"fabric that is not lossless"
/* The words a program puts before its own bind or listen that failed
 * (the generic-in-use-words rows). */
#define BIND_FAILED \
	"([Ff]ailed|[Uu]nable|[Cc]ould not|[Cc]annot|[Cc]an't) (to )?"
#define GEN_INUSE "port-in-use"
#define GEN_INUSE_WHY \
	"a program could not bind its port: another socket holds it"
#define GEN_NOTAVAIL \
	"hostname-unbindable,no-usable-interface,port-range-narrow"
#define GEN_NOTAVAIL_WHY \
	"an address no interface of this host holds was bound (a host " \
	"name's stale entry, a wrong setting), or a connect found no local " \
	"port left"

/* A loopback rendezvous address (MASTER_ADDR, --master_addr,
 * DMLC_PS_ROOT_URI) and a sign of several hosts (multi), in either
 * order on one command line (logsig_launch.def). */
#define LAUNCH_LOOPBACK_SET \
	"(MASTER_ADDR|DMLC_PS_ROOT_URI|master[_-]addr)[= ]+['\"]?" \
	"(127\\.[0-9.]+|localhost|::1)(['\" ]|$)"
#define LAUNCH_LOOPBACK_RX(multi) \
	LAUNCH_LOOPBACK_SET ".*" multi "|" multi ".*" LAUNCH_LOOPBACK_SET

/* The next commands that several rows share: one device or one setting
 * behind rows of a family (explain_facts.c prints a row's .next). */
/* EFA traffic matches only a security group's rules that name the
 * group itself, so a TCP test can pass where EFA fails (aws docs
 * efa-start, "Prepare an EFA-enabled security group"). */
#define NEXT_EFA_SG \
	"the instances' security group: an inbound and an " \
	"outbound rule, All traffic, whose source and destination " \
	"is the group itself (aws ec2 describe-security-groups " \
	"--group-ids SG); then fi_pingpong -p efa between two " \
	"nodes"
/* NCCL's and UCX's IB rows: what the node's RDMA state says, as scan
 * judges it. */
#define NEXT_IB_HERE \
	"on the node that wrote the log: netprobe explain --here " \
	"FILE (it judges the RDMA devices, uverbs files, " \
	"NCCL_IB_HCA and GIDs as netprobe scan does)"
/* A retried-out work request: the GIDs first, then the fabric's drops. */
#define NEXT_RDMA_RETRY \
	NEXT_IB_HERE "; if it failed only under load: ethtool -S IFACE " \
	"| grep -E 'discard|out_of_buffer|pause' on both nodes (a RoCE " \
	"fabric without PFC or ECN drops; the switch's lossless class " \
	"settles it)"
/* RDMA memory registration bounded by the job's locked-memory limit. */
#define NEXT_MEMLOCK \
	"inside the job, as its launcher starts it (the batch " \
	"script, the container): ulimit -l (RDMA needs unlimited; " \
	"a login shell's value says nothing of the job's)"
/* perftest's, Mooncake's and libfabric's rows: the same, with the
 * GIDs of both ends. */
#define NEXT_RDMA_HERE \
	"on the node that wrote the log: netprobe explain --here " \
	"FILE (it judges the RDMA devices, uverbs files, GIDs and " \
	"their netdevs as netprobe scan does); show_gids on both " \
	"nodes"
/* ZeroMQ's bind to an endpoint whose host part is not this node's. */
#define NEXT_ZMQ_BIND \
	"find the endpoint the program binds (its host part must " \
	"be an address of this node, an interface name or *); on " \
	"the node: netprobe ifaces"
/* A loopback rendezvous address on a job of several hosts. */
#define NEXT_RDZV_LOOPBACK \
	"on the host that runs rank 0 (or the scheduler): " \
	"netprobe scan --rank0 (it prints the LAN address to give " \
	"as MASTER_ADDR, --master_addr or DMLC_PS_ROOT_URI in " \
	"place of loopback)"
/* Open MPI's TCP BTL met an address two nodes share. */
#define NEXT_OMPI_SHARED_ADDR \
	"on each node: ip -brief address (an address two nodes " \
	"share: docker0, virbr0, or one behind NAT); then mpirun " \
	"--mca btl_tcp_if_include IFACE (the interface whose " \
	"address is each node's own) and --mca oob_tcp_if_include " \
	"IFACE"
/* EADDRNOTAVAIL from a bind or a connect: which address the program
 * bound, and whether lo holds it (issue 42). */
#define NEXT_ADDRNOTAVAIL \
	"on the node that printed it: ip -brief address show lo " \
	"and getent ahosts localhost (a bind to localhost's ::1 " \
	"fails where lo has no ::1, as in a container without " \
	"IPv6: bind 127.0.0.1 or 0.0.0.0); if the call was a " \
	"connect: sysctl net.ipv4.ip_local_port_range and ss -s"

/* A TLS handshake with no answer: the path MTU toward the server, and
 * the MTU of the interfaces the packets leave by. */
#define NEXT_TLS_STALL \
	"from the node that printed it: tracepath -n HOST (HOST: the " \
	"server it dialled; a pmtu below the MTU ip -brief link shows " \
	"for the interface, docker0 or the overlay loses the larger " \
	"packets: lower that MTU to it); toward a node that runs " \
	"netprobe serve: netprobe path HOST; else an HTTPS proxy the " \
	"node must use (HTTPS_PROXY)"

static const struct logsig table[] = {
#include "doc/logsig_nccl.def"
#include "doc/logsig_nccl_ib.def"
#include "doc/logsig_rdma.def"
#include "doc/logsig_gloo.def"
#include "doc/logsig_torch.def"
#include "doc/logsig_ray.def"
#include "doc/logsig_launch.def"
#include "doc/logsig_system.def"
#include "doc/logsig_ctl.def"
#include "doc/logsig_plumb.def"
/* last: tried only on lines no row above reads */
#include "doc/logsig_generic.def"
};

/* See logsig.h. The same sets the generic rows open, so a framework's
 * line that gives its errno opens what the errno's own words would. */
const char *logsig_errno_open(const char *err)
{
	if (err == NULL)
		return NULL;
	if (strstr(err, "refused") || strstr(err, "REFUSED"))
		return GEN_REFUSED;
	if (strstr(err, "timed out") || strstr(err, "TIMEDOUT"))
		return GEN_TIMEDOUT;
	if (strstr(err, "etwork is unreachable") || strstr(err, "NETUNREACH"))
		return GEN_NETUNREACH;
	if (strstr(err, "o route to") || strstr(err, "ost is unreachable") ||
	    strstr(err, "HOSTUNREACH"))
		return GEN_NOROUTE;
	return NULL;
}

const struct logsig *logsig_table(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
