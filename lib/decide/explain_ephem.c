/* netprobe explain: two NCCL socket errors whose errno does not prove
 * what a reader takes it for (issue 42, blind42g a11 and a12).
 *
 * EHOSTUNREACH ("No route to host", 113) on a connect to an address a
 * rank advertised: the address came from the interface the peer's NCCL
 * picked, so a wrong pick gives the same line as a broken route
 * (hkproj/pytorch-transformer-distributed#1: fixed by
 * NCCL_SOCKET_IFNAME=em4); the errno also comes from no ARP answer or a
 * firewall's REJECT with icmp-host-prohibited (firewalld's default), so
 * the line opens, it does not decide. ENETUNREACH (no route at all in
 * this node's table) still decides host-unreachable in explain.c.
 *
 * EADDRINUSE on NCCL's bind: NCCL binds its listen sockets to port 0
 * (a port of the ephemeral range) and only NCCL_COMM_ID's on the root
 * to a fixed port, so the line is as often the local port range used
 * up by a large job's sockets as a port another process holds
 * (NVIDIA/nccl#1882: all-to-all at 256 nodes without PXN, mitigated by
 * widening net.ipv4.ip_local_port_range). Where the log shows
 * NCCL_COMM_ID set to ADDR:PORT, the fixed port still decides. */
#include "decide/explain_priv.h"

#include <stdio.h>
#include <string.h>

/* EHOSTUNREACH in any spelling a row captures; ENETUNREACH is not. */
static bool host_unreach_errno(const char *err)
{
	return err != NULL && (strstr(err, "No route to host") != NULL ||
			       strcmp(err, "113") == 0);
}

bool explain_nccl_noroute(const struct explain_hit *h,
			  struct explain_result *r)
{
	const struct logsig *s = h->m.sig;
	const char *err = logmatch_field(&h->m, "err");
	const char *a = logmatch_field(&h->m, "addr");
	char why[256], next[320];

	if (err == NULL)
		err = logmatch_field(&h->m, "errno");
	if (strcmp(s->framework, "NCCL") != 0 || !(s->flags & LOGSIG_PEER) ||
	    !host_unreach_errno(err))
		return false;
	snprintf(why, sizeof(why), "No route to host toward %s, the address "
		 "that rank advertised: from the interface its NCCL picked "
		 "(a wrong pick), a broken route, no ARP answer, or a "
		 "firewall's REJECT (icmp-host-prohibited); the line cannot "
		 "tell which", a ? a : "a peer");
	snprintf(next, sizeof(next), "on the node that advertised %s: "
		 "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET shows the "
		 "interface NCCL picked (NET/Socket : Using); from this node: "
		 "ip route get %s and ping -c1 %s; there: nft list ruleset "
		 "(a reject rule); netprobe mesh on every node tells",
		 a ? a : "the address", a ? a : "ADDR", a ? a : "ADDR");
	explain_open(r, h, "host-unreachable,rank-unreachable,"
		  "nccl-default-iface-unsafe,port-filtered", why, next);
	return true;
}

bool explain_nccl_bind_in_use(const struct explain_log *lg,
			      const struct explain_hit *h,
			      struct explain_result *r)
{
	const char *id;

	/* the row first: explain_setting reads every hit, and this runs
	 * once per hit (a quadratic scan on a long paste otherwise) */
	if (strcmp(h->m.sig->id, "nccl-bind-in-use") != 0)
		return false;
	/* a fixed port the log names (NCCL_COMM_ID=ADDR:PORT) is the one
	 * a holder takes: the row decides port-in-use as before */
	id = explain_setting(lg, "NCCL_COMM_ID");
	if (id != NULL && strrchr(id, ':') != NULL)
		return false;
	explain_open(r, h, "port-range-narrow,port-in-use",
		  "NCCL binds its listen sockets to port 0 (the ephemeral "
		  "range), only NCCL_COMM_ID's to a fixed one: a large job's "
		  "sockets used up the local port range, or another process "
		  "held NCCL_COMM_ID's port",
		  "on the node that printed it, while the job runs: sysctl "
		  "net.ipv4.ip_local_port_range and ss -tan state established "
		  "| wc -l (near the range's size: widen the range, or keep "
		  "NCCL_PXN_DISABLE unset); with NCCL_COMM_ID set: ss -ltnp "
		  "'sport = :PORT' names a holder");
	return true;
}

/* NCCL's bootstrap trace (bootstrap.cc -> 2) where no line shows the
 * interface NCCL used (no Bootstrap/NET Using line) nor echoes
 * NCCL_SOCKET_IFNAME: the ranks could not reach each other over an
 * interface the log does not name, so NCCL's own pick (docker0 or
 * another bridge; inside a container on Docker's default bridge, an
 * address behind NAT) is as open as a path fault (blind42g a03,
 * huggingface/accelerate#2107: fixed by --network=host). What decides
 * is the rerun's Using line. */
bool explain_nccl_iface_unseen(const struct explain_ctx *x,
			       const struct explain_hit *h,
			       struct explain_result *r)
{
	if (x->ifname != NULL || explain_nccl_using(x))
		return false;
	explain_open(r, h, "rank-unreachable,nccl-default-iface-unsafe,"
		  "container-bridge-nat",
		  "NCCL's bootstrap failed on a socket and no line shows the "
		  "interface NCCL used or NCCL_SOCKET_IFNAME: its own pick (a "
		  "bridge such as docker0, or a container's NAT'd address) is "
		  "as likely as a path fault",
		  "rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET: the "
		  "Bootstrap : Using IF:ADDR line names the pick (docker0, "
		  "veth or 172.17/16 is the answer); on each node netprobe "
		  "layers tells a container behind NAT");
	return true;
}
