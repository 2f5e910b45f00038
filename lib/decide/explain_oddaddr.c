/* netprobe explain: a store address that no host of a job can use
 * (issue 42). A launcher that sends its ranks to an address of
 * 0.0.0.0/8 ("this network", RFC 1122 3.2.1.3: never a destination)
 * took a wrong address for the store's host: the host name's entry in
 * /etc/hosts or DNS, or the interface it guessed (blind42f b04,
 * PaddlePaddle/Paddle#48421: ranks retrying 0.1.68.146 while the store
 * listened on IP_ANY). A retried loopback address is the host name's
 * loopback entry where the job spans hosts (yeyupiaoling/PPASR#142:
 * the second host retrying the master's 127.0.1.1), and normal on one
 * host, so both only open: the host's own lookup decides. */
#include "decide/explain_priv.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "doc/finding.h"
#include "doc/logsig.h"

/* True for an IPv4 address of 0.0.0.0/8 other than the wildcard
 * 0.0.0.0 itself, which a server binds and torch's master may name. */
static bool this_network(const char *a)
{
	struct in_addr a4;

	if (a == NULL || inet_pton(AF_INET, a, &a4) != 1)
		return false;
	return (ntohl(a4.s_addr) >> 24) == 0 && a4.s_addr != 0;
}

/* How many times the log retried h's address by h's row. */
static long retries(const struct explain_log *lg, const struct explain_hit *h)
{
	const char *a = logmatch_field(&h->m, "addr");
	long n = 0;

	for (size_t i = 0; i < lg->nhits; i++) {
		const char *o = logmatch_field(&lg->hits[i].m, "addr");

		if (lg->hits[i].m.sig == h->m.sig && o && a &&
		    strcmp(o, a) == 0)
			n += lg->hits[i].seen > 0 ? lg->hits[i].seen : 1;
	}
	return n;
}

/* Opens what a retried store address no peer can use says, from one
 * symptom line; returns true when the line named such an address (with
 * r NULL, only tells: that address, not the symptom's own candidates,
 * is then the answer). Only Paddle's store retry is read for loopback,
 * and only retried: one retry on one host is the store not up yet. */
bool explain_odd_store_addr(const struct explain_log *lg,
			    const struct explain_hit *h,
			    struct explain_result *r)
{
	const char *a = logmatch_field(&h->m, "addr");
	const char *cls = explain_addr_class(a);
	const char *codes;
	struct explain_cause *c;
	char why[256];

	if (this_network(a)) {
		codes = "hostname-unbindable,hosts-stale";
		snprintf(why, sizeof(why), "%s lies in 0.0.0.0/8, which no "
			 "host holds: the launcher took a wrong address for "
			 "the store's host (its host name's entry in "
			 "/etc/hosts or DNS, or the interface it picked)", a);
	} else if (strcmp(h->m.sig->id, "paddle-store-retry") == 0 && cls &&
		   strcmp(cls, "loopback") == 0 &&
		   retries(lg, h) >= 2) {
		codes = "hostname-loopback";
		snprintf(why, sizeof(why), "%s is a loopback address: on a "
			 "job over several hosts, the master's host name maps "
			 "to loopback in its /etc/hosts (normal on one host)",
			 a);
	} else {
		return false;
	}
	if (r == NULL)
		return true;
	c = explain_cause_for(r, EXPLAIN_NET, true, codes);
	if (c == NULL)
		return true;
	explain_add_ref(c, h);
	if (c->why[0] == '\0')
		snprintf(c->why, sizeof(c->why), "%s", why);
	if (c->addr[0] == '\0')
		snprintf(c->addr, sizeof(c->addr), "%s", a);
	if (c->next[0] == '\0')
		snprintf(c->next, sizeof(c->next), "on the host that runs the "
			 "store (the launcher's master): getent hosts "
			 "$(hostname) and hostname -I; give the launcher its "
			 "routable address (Paddle: --master IP:PORT, --host "
			 "IP or POD_IP; torch: MASTER_ADDR)");
	return true;
}

/* The fix (and, for a launcher's own address, the why) in the words of
 * the framework that printed the line, where the catalogue's would not
 * apply (torch's MASTER_PORT, Gloo's GLOO_SOCKET_IFNAME): gRPC's servers
 * take their port from TensorFlow's cluster spec or Ray's ray start
 * (blind42f b06: two tasks placed on one node by srun), asyncio's from
 * the program (Ray's dashboard, facebookresearch/fairchem#1787); Paddle's launcher takes --host or
 * POD_IP (PaddlePaddle/Paddle#34533, the maintainer's two fixes); the
 * RDMA userspace a container lacks, Gloo's own host name, Ray's worker
 * port range and Dask's interface= name what to install or set. */
void explain_framework_fix(const struct explain_hit *h, const char *code,
			   struct explain_cause *c)
{
	const char *id = h->m.sig->id;
	const char *port = logmatch_field(&h->m, "port");
	const char *a = logmatch_field(&h->m, "addr");

	if (strcmp(id, "ibverbs-no-device") == 0)
		snprintf(c->fix, sizeof(c->fix), "install the RDMA userspace "
			 "drivers in the image: apt-get install "
			 "ibverbs-providers (dnf install libibverbs), or "
			 "MLNX_OFED/DOCA's libmlx5");
	if (strcmp(id, "nccl-libibverbs-missing") == 0)
		snprintf(c->fix, sizeof(c->fix), "install the RDMA userspace "
			 "library in the image: apt-get install libibverbs1 "
			 "ibverbs-providers (dnf install libibverbs), or "
			 "MLNX_OFED/DOCA; or drop NCCL_IB_* if sockets are "
			 "meant");
	if (strcmp(id, "gloo-hostname-unresolved") == 0 &&
	    logmatch_field(&h->m, "host"))
		snprintf(c->fix, sizeof(c->fix), "map this node's hostname %s "
			 "to its LAN address in /etc/hosts (getent hosts %s "
			 "must print an address of this node), or set "
			 "GLOO_SOCKET_IFNAME=IFACE so Gloo does not look the "
			 "name up", logmatch_field(&h->m, "host"),
			 logmatch_field(&h->m, "host"));
	/* Ray's worker range is ray start's, not the kernel's ephemeral
	 * range the finding's own fix widens (issue 42) */
	if (strncmp(id, "ray-worker-port", 15) == 0)
		snprintf(c->fix, sizeof(c->fix), "widen Ray's worker port "
			 "range on every node: ray start --min-worker-port "
			 "--max-worker-port with at least one port per worker "
			 "and driver the node runs at once (Ray's default is "
			 "10002-19999), and open that range in the firewall; "
			 "net.ipv4.ip_local_port_range is not involved");
	/* ssh refused on a port: sshd is not there, or this ssh dials a
	 * port the user meant another (a config this ssh client does not
	 * read: issue 42, blind42m e06, Git for Windows' ssh under VS
	 * Code, which dialed 22 for a server on 55555) */
	if (strcmp(id, "ssh-connect") == 0 && code != NULL &&
	    strcmp(code, "port-closed") == 0)
		snprintf(c->fix, sizeof(c->fix), "nothing listens on %s port "
			 "%s: start sshd there, or dial the port it listens "
			 "on (ssh -p PORT, or Port in the config of the ssh "
			 "that runs: ssh -G %s | grep -i '^port' shows what it "
			 "reads)", a ? a : "the host", port ? port : "?",
			 a ? a : "HOST");
	if (strcmp(id, "dask-iface-invalid") == 0) {
		const char *i = logmatch_field(&h->m, "iface");

		snprintf(c->fix, sizeof(c->fix), "give Dask an interface this "
			 "host has (the error lists them): interface= or "
			 "--interface; a scheduler started on another host "
			 "than its workers takes its own (dask-jobqueue: "
			 "scheduler_options={'interface': ...}), not %s",
			 i ? i : "the workers'");
	} else if (strncmp(id, "grpc-bind-in-use", 16) == 0 &&
	    strcmp(code, "port-in-use") == 0) {
		snprintf(c->fix, sizeof(c->fix), "on the node that printed "
			 "it, find the holder: ss -ltnp 'sport = :%s'; stop it "
			 "(an earlier run, or a second task or cluster placed on "
			 "this node) or give each its own port (TensorFlow: its "
			 "host:port in the cluster spec, TF_CONFIG or "
			 "--ps_hosts/--worker_hosts, one per task under srun; "
			 "Ray: ray start's --port and --*-port options)",
			 port ? port : "PORT");
	} else if (strcmp(id, "asyncio-bind-in-use") == 0 &&
		   strcmp(code, "port-in-use") == 0) {
		snprintf(c->fix, sizeof(c->fix), "on the node that printed "
			 "it, find the holder: ss -ltnp 'sport = :%s'; stop it "
			 "(a second instance, or one an earlier run left) or "
			 "give this server its own port (Ray's dashboard: ray "
			 "start --dashboard-port, one per cluster on a node)",
			 port ? port : "PORT");
	} else if (strcmp(id, "paddle-local-ip-missing") == 0 &&
		   strcmp(code, "hostname-loopback") == 0 && c->nrefs <= 1) {
		snprintf(c->why, sizeof(c->why), "%s is a loopback address: "
			 "the launcher took this node's address from its host "
			 "name, which maps to loopback here", a ? a : "?");
		snprintf(c->fix, sizeof(c->fix), "give the launcher this "
			 "node's LAN address on each node: --host=IP "
			 "(fleetrun, paddle.distributed.launch) or export "
			 "POD_IP=IP; "
			 "or map the host name to that address in /etc/hosts "
			 "(getent hosts $(hostname) must print it)");
	}
}

/* See explain_priv.h: 127.0.0.1 and ::1 are what a program picks to
 * meet its own host's processes; 127.0.1.1 and the rest of 127/8 come
 * only from a host name's mapping (Debian's /etc/hosts), so they keep
 * proving hostname-loopback whatever else the log names. */
bool explain_chosen_loopback(const struct explain_log *lg, const char *addr)
{
	return !lg->other_hosts && addr != NULL &&
	       (strcmp(addr, "127.0.0.1") == 0 || strcmp(addr, "::1") == 0 ||
		strcmp(addr, "localhost") == 0);
}

/* See explain_priv.h: a line that names a peer's address of a special class: a loopback or
 * link-local address a rank advertised can be reached by no other host,
 * which proves the fault. An address in a container pool proves
 * nothing by itself (a site may route 172.17/16): it opens
 * container-bridge-nat beside what the errno says. Returns the code
 * decided, or NULL with *open set to the candidates it opens. */
const char *explain_addr_cause(const struct explain_log *lg,
			       const struct explain_hit *h, char *why,
			       size_t len, const char **open)
{
	const char *addr = logmatch_field(&h->m, "addr");
	const char *cls = explain_addr_class(addr);

	*open = NULL;
	if (!(h->m.sig->flags & (LOGSIG_PEER | LOGSIG_LOCAL)) || cls == NULL)
		return NULL;
	if (strcmp(cls, "loopback") == 0 && explain_chosen_loopback(lg, addr)) {
		snprintf(why, len, "%s is loopback and the log names no other "
			 "host: one host's processes meet there, unfiltered; "
			 "no listener (not started, bound elsewhere) or "
			 "another program's. Across hosts: a rank advertised "
			 "it", addr);
		*open = EXPLAIN_LOOPBACK_ONE_HOST;
		return NULL;
	}
	if (strcmp(cls, "loopback") == 0) {
		snprintf(why, len, "%s is a loopback address: a rank "
			 "advertised its hostname's loopback mapping", addr);
		return finding_name(FINDING_HOSTNAME_LOOPBACK);
	}
	if (strcmp(cls, "link-local") == 0) {
		snprintf(why, len, "%s is link-local: it only works on one "
			 "link and needs its scope", addr);
		return finding_name(FINDING_IPV6_LINK_LOCAL_ONLY);
	}
	/* IPv4 link-local (169.254/16) is host-private too, but not an
	 * IPv6 scope: for NCCL it is an interface it should not have
	 * listed (blind42j a10: EKS's pod-id-link0), opened beside the
	 * errno's candidates; the Using line, where the log has it,
	 * decides (rule_iface_list) */
	if (strcmp(cls, "link-local4") == 0) {
		if (strncmp(h->m.sig->id, "nccl", 4) == 0) {
			snprintf(why, len, "%s is an IPv4 link-local address: "
				 "a per-host link no other host reaches, which "
				 "NCCL's interface choice let through", addr);
			*open = "nccl-default-iface-unsafe,"
				"nccl-ifname-overmatch";
		}
		return NULL;
	}
	if (strstr(cls, "bridge") == NULL)
		return NULL;
	snprintf(why, len, "%s lies in %s's default bridge pool: a container "
		 "on a NAT'd bridge, or a network that uses the same range; "
		 "the address alone cannot tell", addr,
		 cls[0] == 'd' ? "Docker" : cls[0] == 'n' ? "Nomad" : "podman");
	*open = finding_name(FINDING_CONTAINER_BRIDGE_NAT);
	return NULL;
}

/* See explain_priv.h. */
const char *explain_addr_extra(const struct explain_hit *h)
{
	const char *cls = explain_addr_class(logmatch_field(&h->m, "addr"));

	if (!(h->m.sig->flags & (LOGSIG_PEER | LOGSIG_LOCAL)) || cls == NULL)
		return NULL;
	if (strstr(cls, "bridge"))
		return "container-bridge-nat";
	if (strcmp(cls, "vm-nat") == 0)
		return "nat-detected,address-conflict";
	/* NCCL at a peer's IPv4 link-local address: an interface its
	 * choice let through (addr_cause's; blind42n e01, SageMaker) */
	if (strcmp(cls, "link-local4") == 0 &&
	    strncmp(h->m.sig->id, "nccl", 4) == 0)
		return "nccl-default-iface-unsafe,nccl-ifname-overmatch";
	return NULL;
}

/* A VM's NAT address (10.0.2.15 on every VirtualBox or QEMU guest) that
 * a process chose or a peer advertised: the other nodes reach another
 * VM's copy or nothing at it. Opens where the log shows a failure, or
 * where a CNI picked it (flannel's pick is what the other nodes use). */
void explain_vm_nat(const struct explain_ctx *x, struct explain_result *r)
{
	for (size_t i = 0; i < x->lg->nhits; i++) {
		const struct explain_hit *h = &x->lg->hits[i];
		const char *a = logmatch_field(&h->m, "addr");
		const char *cls = explain_addr_class(a);
		char why[256];

		if (cls == NULL || strcmp(cls, "vm-nat") != 0 ||
		    !(h->m.sig->flags & (LOGSIG_PEER | LOGSIG_LOCAL)) ||
		    (!x->failed && strcmp(h->m.sig->id,
					  "flannel-using-iface") != 0))
			continue;
		snprintf(why, sizeof(why), "%s is the address VirtualBox's and "
			 "QEMU's NAT give every guest: each VM has it, so a "
			 "node that uses it for the cluster is reached by no "
			 "other node", a);
		explain_open(r, h, "nat-detected,address-conflict", why,
			     "on each VM: ip -brief address (the host-only or "
			     "bridged adapter's address is the one the nodes "
			     "share); pin the program to that interface "
			     "(flannel: --iface; Dask: --interface; NCCL, "
			     "Gloo: *_SOCKET_IFNAME)");
		return;
	}
}
