/* netprobe explain's facts of a line (decide/explain.h,
 * decide/explain_priv.h): an address's class, an interface's kind, a
 * setting the log echoes, the host that printed a line, and the
 * result's entries and the command that decides an open one. Shared by
 * explain.c and explain_rules.c, below both. */
#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

/* Docker's default bridge (172.17/16), its docker_gwbridge (172.18/16),
 * podman's (10.88/16) and Nomad's (172.26.64/20) are container
 * addresses no other host routes to. */
const char *explain_addr_class(const char *addr)
{
	struct in_addr a4;
	struct in6_addr a6;
	char buf[64];
	const char *pct;

	if (addr == NULL)
		return NULL;
	if (strcmp(addr, "localhost") == 0)
		return "loopback";
	if (inet_pton(AF_INET, addr, &a4) == 1) {
		unsigned long h = ntohl(a4.s_addr);

		if ((h >> 24) == 127)
			return "loopback";
		if ((h >> 16) == ((172UL << 8) | 17))
			return "docker-bridge";
		/* docker_gwbridge, the egress bridge of containers on an
		 * overlay network, and the first user-defined network take
		 * 172.18/16 by default (issue 42: blind42f b15) */
		if ((h >> 16) == ((172UL << 8) | 18))
			return "docker-gwbridge";
		if ((h >> 16) == ((10UL << 8) | 88))
			return "podman-bridge";
		/* Nomad's bridge network mode: its nomad bridge takes
		 * 172.26.64.0/20 by default (bridge_network_subnet; issue
		 * 42: blind42v e04, memberlist members advertising it) */
		if ((h >> 12) == ((172UL << 12) | (26UL << 4) | 4))
			return "nomad-bridge";
		/* the address VirtualBox's and QEMU's user-mode NAT give
		 * every guest: the same on each VM (issue 42: blind42h
		 * b15, e08). LXC's 10.0.3.0/24 (blind42h b09) is no class:
		 * VPCs use it as often (blind42b 009's Ray node). */
		if (h == ((10UL << 24) | (2UL << 8) | 15))
			return "vm-nat";
		/* IPv4 link-local: host-private like IPv6's, but
		 * ipv6-link-local-only and its AF_INET fix are IPv6's */
		if ((h >> 16) == ((169UL << 8) | 254))
			return "link-local4";
		return NULL;
	}
	pct = strchr(addr, '%');
	snprintf(buf, sizeof(buf), "%.*s",
		 (int)(pct ? (size_t)(pct - addr) : strlen(addr)), addr);
	if (inet_pton(AF_INET6, buf, &a6) == 1) {
		if (IN6_IS_ADDR_LOOPBACK(&a6))
			return "loopback";
		if (IN6_IS_ADDR_LINKLOCAL(&a6))
			return "link-local";
	}
	return NULL;
}

/* The prefixes NCCL's default filter passes though they are virtual. */
bool explain_iface_virtual(const char *name)
{
	static const char *const pfx[] = {"veth", "br-", "cni", "flannel",
					  "cali", "docker", "virbr", "tailscale",
					  "wg", "vxlan", "weave", "kube-",
					  "nodelocaldns"};

	for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (strncmp(name, pfx[i], strlen(pfx[i])) == 0)
			return true;
	return false;
}

const char *explain_setting(const struct explain_log *lg, const char *name)
{
	const char *v = NULL;

	for (size_t i = 0; i < lg->nhits; i++) {
		const struct logmatch *m = &lg->hits[i].m;
		const char *n = logmatch_field(m, "setting_name");

		if (n != NULL && strcmp(n, name) == 0)
			v = logmatch_field(m, "setting_value");
	}
	return v;
}

/* See explain_priv.h: the rules that read two rows of one log (a reset
 * beside a published port, a Client hello with no Server hello, an
 * HTTP client's frames) ask it. */
const struct explain_hit *explain_first_hit(const struct explain_log *lg,
					    const char *prefix)
{
	size_t n = strlen(prefix);

	for (size_t i = 0; i < lg->nhits; i++)
		if (strncmp(lg->hits[i].m.sig->id, prefix, n) == 0)
			return &lg->hits[i];
	return NULL;
}

/* Splits a comma list into c->codes. */
static void set_codes(struct explain_cause *c, const char *list)
{
	c->ncodes = 0;
	for (const char *p = list; p && *p && c->ncodes < EXPLAIN_MAX_CODES;) {
		size_t n = strcspn(p, ",");

		snprintf(c->codes[c->ncodes++], sizeof(c->codes[0]), "%.*s",
			 (int)n, p);
		p += n;
		if (*p == ',')
			p++;
	}
}

void explain_add_ref(struct explain_cause *c, const struct explain_hit *h)
{
	c->count++;
	if (c->nrefs < EXPLAIN_MAX_LINES) {
		c->refs[c->nrefs].file = h->file;
		c->refs[c->nrefs].line = h->line;
		c->nrefs++;
	}
}

/* Finds the entry with the same kind, codes and openness, or starts one. */
struct explain_cause *explain_cause_for(struct explain_result *r,
					enum explain_kind kind, bool open,
					const char *codes)
{
	struct explain_cause tmp;

	memset(&tmp, 0, sizeof(tmp));
	set_codes(&tmp, codes);
	for (size_t i = 0; i < r->ncauses; i++) {
		struct explain_cause *c = &r->causes[i];
		bool same = c->kind == kind && c->open == open &&
			    c->ncodes == tmp.ncodes;

		for (size_t j = 0; same && j < c->ncodes; j++)
			same = strcmp(c->codes[j], tmp.codes[j]) == 0;
		if (same)
			return c;
	}
	if (r->ncauses >= EXPLAIN_MAX_CAUSES)
		return NULL;
	tmp.kind = kind;
	tmp.open = open;
	r->causes[r->ncauses] = tmp;
	return &r->causes[r->ncauses++];
}

/* See explain_priv.h. */
void explain_open(struct explain_result *r, const struct explain_hit *h,
		  const char *codes, const char *why, const char *next)
{
	struct explain_cause *c = explain_cause_for(r, EXPLAIN_NET, true,
						    codes);

	if (c == NULL)
		return;
	explain_add_ref(c, h);
	if (c->why[0] == '\0')
		snprintf(c->why, sizeof(c->why), "%s", why);
	if (c->next[0] != '\0')
		return;
	if (next != NULL)
		snprintf(c->next, sizeof(c->next), "%s", next);
	else
		explain_next_command(h, c->next, sizeof(c->next));
}

/* What decides a listen backlog that overflowed: the kernel counts
 * every connect a full backlog dropped (issue 42). */
void explain_backlog_next(char *buf, size_t len)
{
	snprintf(buf, len, "on the node UCX connected to, after the failure: "
		 "nstat -az TcpExtListenOverflows TcpExtListenDrops (a count "
		 "that rises is the backlog) and sysctl net.core.somaxconn "
		 "net.ipv4.tcp_max_syn_backlog; else netprobe mesh across the "
		 "nodes");
}

/* A row's own next command first (the same for each of its lines);
 * else one built from the fields the line captured. */
void explain_next_command(const struct explain_hit *h, char *buf, size_t len)
{
	const char *id = h->m.sig->id;
	const char *addr = logmatch_field(&h->m, "addr");
	const char *port = logmatch_field(&h->m, "port");

	if (h->m.sig->next != NULL)
		snprintf(buf, len, "%s", h->m.sig->next);
	else if (strcmp(id, "horovod-task-nat") == 0 &&
		 logmatch_field(&h->m, "task") != NULL)
		snprintf(buf, len, "on the node of task %s: netprobe layers "
			 "(it tells a container on a NAT'd bridge or overlay; "
			 "the driver saw it connect from %s)",
			 logmatch_field(&h->m, "task"),
			 logmatch_field(&h->m, "seen") ?
			 logmatch_field(&h->m, "seen") : "another address");
	else if (strcmp(id, "paddle-local-ip-missing") == 0 &&
		 explain_addr_class(addr) == NULL)
		snprintf(buf, len, "on this node: getent hosts $(hostname) and "
			 "hostname -I (%s is what its host name gave; the "
			 "job's list must hold one of this node's addresses, "
			 "or pass --host=IP or POD_IP)", addr ? addr : "?");
	else if (strcmp(id, "ssh-remote-forward") == 0)
		snprintf(buf, len, "on the ssh server: ss -ltnp 'sport = :%s' "
			 "(a stale session's sshd holding it); below 1024 it "
			 "needs root; sshd -T | grep -i forwarding",
			 port ? port : "PORT");
	else if (strcmp(id, "ray-port-conflict") == 0)
		snprintf(buf, len, "the ray start flags of that node (--port, "
			 "--*-port, --min-worker-port/--max-worker-port): port "
			 "%s must be in one of them only", port ? port : "?");
	else if (strcmp(id, "tensorpipe-agent-error") == 0)
		snprintf(buf, len, "on %s's node: getent hosts $(hostname) (a "
			 "127.x answer is what its agent advertised; "
			 "TP_SOCKET_IFNAME picks the interface) and ss -ltnp "
			 "(the agent's listener and its address)",
			 logmatch_field(&h->m, "peer") ?
			 logmatch_field(&h->m, "peer") : "the peer worker");
	else if (strcmp(id, "dask-ssh-worker-loopback") == 0)
		snprintf(buf, len, "on the scheduler's node: hostname -I (an "
			 "address %s can reach); start dask-ssh with --scheduler "
			 "that address, not localhost",
			 logmatch_field(&h->m, "host") ?
			 logmatch_field(&h->m, "host") : "the worker");
	else if (strncmp(id, "microk8s-join-hostname", 22) == 0)
		snprintf(buf, len, "on every node of the cluster: getent hosts "
			 "%s (it must print %s; fix /etc/hosts or the DNS "
			 "record that gives another); on the joining node: ip "
			 "-brief address (%s not among them: a NAT, such as a "
			 "VM's, rewrote the join's address; bridge the VM "
			 "instead)",
			 logmatch_field(&h->m, "host") ?
			 logmatch_field(&h->m, "host") : "HOST", addr ? addr : "?",
			 addr ? addr : "that address");
	else if (strcmp(id, "slurm-wrong-node") == 0 &&
		 logmatch_field(&h->m, "host") && logmatch_field(&h->m, "from"))
		snprintf(buf, len, "on the slurmctld host: scontrol show node "
			 "%s | grep NodeAddr, and getent hosts %s and %s (one "
			 "address for both: a stale record or addresses cached "
			 "from an earlier run); fix it, then scontrol "
			 "reconfigure", logmatch_field(&h->m, "host"),
			 logmatch_field(&h->m, "host"),
			 logmatch_field(&h->m, "from"));
	else if (h->m.sig->flags & LOGSIG_SYMPTOM && addr == NULL)
		snprintf(buf, len, "on a node of the job while it hangs: "
			 "netprobe explain --job (NCCL 2.24+ RAS names a rank "
			 "that hung); else netprobe mesh on every node (one "
			 "process per node) tests the network between them");
	else if (strcmp(id, "ray-node-dead") == 0 && addr)
		snprintf(buf, len, "on the node %s: netprobe scan --peer "
			 "HEAD_ADDRESS (with netprobe serve on the head)",
			 addr);
	else if (strcmp(id, "go-dial-lookup-timeout") == 0)
		snprintf(buf, len, "on that node (in that container): getent "
			 "hosts %s and cat /etc/resolv.conf (slow or no answer: "
			 "the DNS servers listed do not answer; an image with no "
			 "/etc/nsswitch.conf asks DNS even for names /etc/hosts "
			 "holds, localhost too)",
			 logmatch_field(&h->m, "host") ?
			 logmatch_field(&h->m, "host") : "NAME");
	else if (strcmp(id, "ucx-tcp-backlog-hint") == 0)
		explain_backlog_next(buf, len);
	else if (strcmp(id, "gpustack-worker-unreachable") == 0 && addr &&
		 port)
		/* the address is the worker's own claim (issue 42) */
		snprintf(buf, len, "on the server: curl http://%s:%s/healthz; "
			 "on the worker: ip -brief address (is %s an address "
			 "of the adapter the server reaches?); if not, start "
			 "the worker with --worker-ip (GPUStack 2: "
			 "--advertise-address) set to that adapter's address",
			 addr, port, addr);
	else if (strcmp(id, "hccl-listen-fail") == 0 && addr && port)
		snprintf(buf, len, "on the node that printed it: ss -ltnp "
			 "'sport = :%s' (a holder: another instance that "
			 "derived the same port: give each its own) and ip "
			 "-brief address (is %s this node's?)", port, addr);
	else if (strcmp(id, "torch-store-listen-noname") == 0 && port)
		snprintf(buf, len, "on the node that printed it, while the job "
			 "starts: ss -ltnp 'sport = :%s' (the holder: another "
			 "instance or an earlier run; give each its own port)",
			 port);
	else if (strncmp(id, "torch-store", 11) == 0 && addr && port)
		snprintf(buf, len, "on this node: netprobe ports %s %s", addr,
			 port);
	else if (addr && port && logmatch_field(&h->m, "err") &&
		 (strstr(logmatch_field(&h->m, "err"), "o route") ||
		  strstr(logmatch_field(&h->m, "err"), "ost is unreach")))
		/* EHOSTUNREACH: a REJECT or no neighbour; a probe of the
		 * port tells which (err_codes) */
		snprintf(buf, len, "from the node that printed it: netprobe "
			 "ports %s %s (prohibited: a firewall rejects that "
			 "port; unreachable: no neighbour or route)", addr,
			 port);
	else if (strcmp(id, "go-dial-timeout") == 0 && addr && port)
		/* unanswered SYNs: a filter or no path toward that port */
		snprintf(buf, len, "from the node that printed it: netprobe "
			 "ports %s %s (filtered: a firewall drops it); on %s: "
			 "nft list ruleset (a drop of that port)", addr, port,
			 addr);
	else if (strcmp(id, "go-read-udp-timeout") == 0 && addr && port &&
		 strcmp(port, "53") == 0)
		/* a DNS server that never answered: dig asks it alone */
		snprintf(buf, len, "from the node or pod that printed it: dig "
			 "@%s kubernetes.io +time=2 +tries=1 (no answer: UDP "
			 "53 toward %s or its reply is dropped on the way; +tcp "
			 "tells if TCP gets through; from a pod, the node's "
			 "masquerade of pod addresses); on %s's host: nft list "
			 "ruleset (a drop of udp 53; firewalld: firewall-cmd "
			 "--list-all)", addr, addr, addr);
	else if (strcmp(id, "go-read-udp-timeout") == 0 && addr && port)
		snprintf(buf, len, "from the node that printed it, with "
			 "netprobe serve on %s: netprobe ports %s %s/udp "
			 "(silence with no responder proves nothing)", addr,
			 addr, port);
	else if (addr == NULL && h->near_line != 0 && h->near_port[0])
		/* the line says how, a line near it where (explain_near.h) */
		snprintf(buf, len, "from the node that printed it: netprobe "
			 "ports %s %s (line %ld names that endpoint)",
			 h->near_addr, h->near_port, h->near_line);
	else if (addr && explain_addr_class(addr) != NULL)
		snprintf(buf, len, "on the node that has %s: netprobe layers "
			 "(it tells a container on a NAT'd bridge); then here: "
			 "netprobe scan --peer %s", addr, addr);
	else if (addr)
		snprintf(buf, len, "on this node: netprobe scan --peer %s "
			 "(with netprobe serve running on %s)", addr, addr);
	else
		snprintf(buf, len, "on any node of the job: netprobe mesh "
			 "(one process per node, under the job's launcher)");
}

/* Intel MPI reports the bootstrap's wait status: 65280 (255 << 8) is
 * ssh's own failure to reach or log into the host, anything else the
 * proxy's exit on the host (BLAST-WarpX/warpx#6980: no sshd in a
 * container; Azure/az-hop#906: 256). */
static void impi_bstrap_next(const char *host, const char *status,
			     char *buf, size_t len)
{
	if (status != NULL && strcmp(status, "65280") == 0)
		snprintf(buf, len, "ssh itself failed toward %s (exit 255: "
			 "no sshd there, a name, a route or a key): from the "
			 "launch node, ssh -v %s true and netprobe explain "
			 "its last lines; a job on one node needs no ssh "
			 "(I_MPI_HYDRA_BOOTSTRAP=fork), one under Slurm "
			 "uses srun (I_MPI_HYDRA_BOOTSTRAP=slurm)", host,
			 host);
	else
		snprintf(buf, len, "the bootstrap ran on %s and the proxy "
			 "exited there (wait status %s): run again with "
			 "I_MPI_HYDRA_DEBUG=1 (the command and its error), "
			 "and check that the Intel MPI path exists on %s "
			 "(hydra_bstrap_proxy)", host, status ? status : "?",
			 host);
}

/* A symptom alone (a timeout, a peer gone, a bare "unhandled system
 * error") decides nothing: what to collect next that would tell. NCCL's
 * WARN line names the call that failed; INFO with INIT,NET prints the
 * interfaces and every connect (docs.nvidia.com NCCL env: NCCL_DEBUG,
 * NCCL_DEBUG_SUBSYS). */
void explain_collect_next(const struct explain_hit *h, char *buf,
			  size_t len)
{
	const char *id = h->m.sig->id;

	const char *rank = logmatch_field(&h->m, "rank");
	const char *host = logmatch_field(&h->m, "host");
	const char *joined = logmatch_field(&h->m, "joined");
	const char *expected = logmatch_field(&h->m, "expected");

	if (strcmp(id, "torch-store-wait-clients") == 0 && joined != NULL &&
	    expected != NULL)
		snprintf(buf, len, "%s of %s ranks reached the store: the logs "
			 "of the others (was each launched, with this "
			 "MASTER_ADDR and MASTER_PORT? a failed connect there "
			 "names the network); from such a node, while the "
			 "store waits: netprobe ports MASTER_ADDR MASTER_PORT",
			 joined, expected);
	else if (strcmp(id, "dask-server-not-running") == 0)
		snprintf(buf, len, "the output of the scheduler's (or "
			 "worker's) start, before this line: '... is not a "
			 "valid network interface' (an interface= this host "
			 "lacks) or 'Address already in use' there decides; on "
			 "its host: netprobe ifaces");
	else if (strcmp(id, "tfos-waiting-reservations") == 0)
		snprintf(buf, len, "the executors' logs (yarn logs "
			 "-applicationId APP, or the Spark UI's executor "
			 "stderr: one that never started, or a failed connect "
			 "to the driver); from an executor's host: netprobe "
			 "ports ADDR PORT of the driver's \"listening for "
			 "reservations at\" line");
	else if (strcmp(id, "paddle-store-retry") == 0)
		snprintf(buf, len, "the log of the node that runs the store "
			 "(the --master host; rank 0's on one node): did it "
			 "print \"The server starts to listen\" on port %s? "
			 "From this node, while it retries: getent hosts "
			 "$(hostname) and netprobe ports %s %s",
			 logmatch_field(&h->m, "port"),
			 logmatch_field(&h->m, "addr"),
			 logmatch_field(&h->m, "port"));
	else if (strcmp(id, "ucx-ep-timeout") == 0)
		snprintf(buf, len, "the peer's log: a peer that exited or was "
			 "killed leaves its endpoints to time out; if it ran "
			 "on, on both nodes: netprobe explain --here FILE "
			 "(the RDMA ports and GIDs, as netprobe scan judges "
			 "them)");
	else if (strcmp(id, "nccl-socket-family-unset") == 0)
		snprintf(buf, len, "NCCL connected to an address it never "
			 "filled in: run the job again with NCCL_DEBUG=INFO "
			 "NCCL_DEBUG_SUBSYS=INIT,NET (the interfaces NCCL "
			 "found, and whether NCCL_SOCKET_IFNAME matched one) "
			 "and netprobe explain that output; on the node: "
			 "netprobe ifaces");
	else if (strcmp(id, "torch-dump-signal-old") == 0 && rank == NULL &&
		 logmatch_field(&h->m, "from") != NULL)
		snprintf(buf, len, "another rank timed out first (this torch "
			 "does not say which): the log with \"Watchdog caught "
			 "collective operation timeout\" holds the cause "
			 "(netprobe explain it, with dmesg -T of its node for "
			 "the OOM killer and Xids)");
	else if (strncmp(id, "torch-dump-signal", 17) == 0 && rank != NULL)
		snprintf(buf, len, "rank %s timed out first: its log holds the "
			 "cause (netprobe explain it, with dmesg -T of its "
			 "node for the OOM killer and Xids)", rank);
	else if ((strcmp(id, "deepspeed-host-ssh") == 0 ||
		  strcmp(id, "horovod-ssh-failed") == 0) && host != NULL)
		snprintf(buf, len, "from the launcher node: ssh -v %s true; "
			 "its last lines say why (the name, a route, a key), "
			 "and netprobe explain them", host);
	else if (strcmp(id, "impi-bstrap-proxy") == 0 && host != NULL)
		impi_bstrap_next(host, logmatch_field(&h->m, "status"), buf,
				 len);
	else if (strncmp(id, "slurm-", 6) == 0 && host != NULL)
		snprintf(buf, len, "slurmd on %s did not answer srun: munge "
			 "first (munge -n | ssh %s unmunge: keys that differ "
			 "give this), then slurmd's log there (journalctl -u "
			 "slurmd); then the path: netprobe ports %s 6818, and "
			 "srun's SrunPortRange back through any firewall",
			 host, host, host);
	else if (strcmp(id, "torch-store-wait-input") == 0 &&
		 logmatch_field(&h->m, "addr") != NULL)
		snprintf(buf, len, "the store at %s answered nothing on a "
			 "connection that stood: it waits for ranks that "
			 "never came; their logs hold the cause (was each "
			 "node launched, with the same --nnodes and the "
			 "--nproc_per_node its GPUs allow?)",
			 logmatch_field(&h->m, "addr"));
	else if (strcmp(id, "tf-createsession-waiting") == 0)
		snprintf(buf, len, "the log of %s (did it start, and with the "
			 "same cluster spec?); from this task, for each host "
			 "of the cluster spec (TF_CONFIG): getent hosts HOST "
			 "(a name that does not resolve here, such as a "
			 "cluster domain other than cluster.local, hangs the "
			 "same way) and netprobe ports HOST PORT",
			 logmatch_field(&h->m, "task") ?
			 logmatch_field(&h->m, "task") : "the task named");
	else if (strcmp(id, "horovod-tasks-start") == 0)
		snprintf(buf, len, "horovodrun --verbose prints the ssh "
			 "command of each task: run it by hand on one host "
			 "(a task that never starts: python or horovod not "
			 "on the remote PATH); a task that starts must reach "
			 "back to this node's driver ports: netprobe explain "
			 "what it prints, or netprobe mesh across the hosts");
	else if (strcmp(id, "nccl-peer-closed") == 0 ||
		 strcmp(id, "nccl-socket-io-reset") == 0)
		snprintf(buf, len, "a peer closed or reset the socket, so it "
			 "was reached: the log of the rank at that address "
			 "holds the cause (it exited or aborted first); a "
			 "stranger that connects to a bootstrap port and "
			 "closes early (a port scanner, a health check) ends "
			 "NCCL's init before 2.27.3 too");
	else if (strncmp(id, "vllm-ray-", 9) == 0)
		snprintf(buf, len, "no Ray node with a GPU has the address "
			 "vLLM takes for this node (%s: VLLM_HOST_IP, else "
			 "its default route's), or this node has no GPU: ray "
			 "status (or ray list nodes) shows the addresses Ray "
			 "registered; start Ray with --node-ip-address and "
			 "set VLLM_HOST_IP to that same address on every node",
			 logmatch_field(&h->m, "addr") ?
			 logmatch_field(&h->m, "addr") : "not in this log");
	else if (strcmp(id, "ray-gcs-lost") == 0)
		snprintf(buf, len, "on the head: the GCS's own log "
			 "(/tmp/ray/session_latest/logs/gcs_server.out) and "
			 "dmesg -T for the OOM killer; netprobe scan --peer "
			 "HEAD from this node tells a cut-off");
	else if (strcmp(id, "ompi-daemon-no-callback") == 0)
		snprintf(buf, len, "mpirun --mca plm_base_verbose 10 (how each "
			 "daemon is launched: srun or ssh, and whether it "
			 "starts); if it starts: netprobe mesh on the nodes, "
			 "or oob_tcp_if_include naming the interface they "
			 "share");
	else if (strcmp(id, "slurm-ctld-connect") == 0)
		snprintf(buf, len, "scontrol ping (is slurmctld up?); on the "
			 "controller: systemctl status slurmctld and its log; "
			 "if it is up: netprobe ports CONTROLLER 6817 from "
			 "this node");
	else if (strstr(id, "system-error") != NULL)
		snprintf(buf, len, "no NCCL WARN line here names the call "
			 "that failed: run the job again with "
			 "NCCL_DEBUG=WARN, or NCCL_DEBUG=INFO "
			 "NCCL_DEBUG_SUBSYS=INIT,NET, and netprobe explain "
			 "that output");
	else if (strstr(id, "remote-error") != NULL)
		/* a peer that exited, or a path NCCL chose that peers
		 * cannot use (issue 42: blind42e a02, NCCL_SOCKET_IFNAME on
		 * an interface without the node's address): the INFO lines
		 * of INIT,NET name each rank's interface */
		snprintf(buf, len, "another rank failed first, or the path "
			 "between them: every rank's log with NCCL_DEBUG=INFO "
			 "NCCL_DEBUG_SUBSYS=INIT,NET (the interface each "
			 "rank's NCCL chose), netprobe explain them together; "
			 "on each node: netprobe scan (it judges "
			 "NCCL_SOCKET_IFNAME against the node)");
	else if (strstr(id, "nccl") != NULL)
		/* an NCCL failure with no line of its cause: the INFO lines
		 * name the interfaces and RDMA devices NCCL chose (issue 42:
		 * blind42e a15, IB devices NCCL must not use) */
		snprintf(buf, len, "the other ranks' logs (the first rank to "
			 "fail holds the cause); dmesg -T on each node (OOM "
			 "killer, Xid); while it hangs: netprobe explain --job "
			 "(NCCL 2.24+); else rerun with NCCL_DEBUG=INFO "
			 "NCCL_DEBUG_SUBSYS=INIT,NET (the interfaces and RDMA "
			 "devices NCCL chose) and netprobe scan each node");
	else
		snprintf(buf, len, "the other ranks' logs (the first rank to "
			 "fail holds the cause); on each node dmesg -T | grep "
			 "-iE 'out of memory|killed process|xid'; while the "
			 "job hangs: netprobe explain --job (NCCL 2.24+)");
}

/* NCCL prefixes a line with host:pid:tid [dev]; the host is the word
 * before the first ":digits:digits [". */
bool explain_hit_host(const struct explain_hit *h, char *buf, size_t len)
{
	const char *t = h->text;

	for (const char *p = strchr(t, ':'); p; p = strchr(p + 1, ':')) {
		const char *q = p + 1, *b = p;
		size_t n;

		while (*q >= '0' && *q <= '9')
			q++;
		if (q == p + 1 || *q != ':')
			continue;
		q++;
		while (*q >= '0' && *q <= '9')
			q++;
		if (strncmp(q, " [", 2) != 0)
			continue;
		while (b > t && b[-1] != ' ' && b[-1] != ']' && b[-1] != '>' &&
		       b[-1] != '\t' && b[-1] != ':')
			b--;
		n = (size_t)(p - b);
		if (n == 0 || n >= len)
			return false;
		memcpy(buf, b, n);
		buf[n] = '\0';
		return true;
	}
	return false;
}

const char *explain_refines(const char *code)
{
	if (code && strcmp(code, "name-unresolved") == 0)
		return "host-unreachable";
	return NULL;
}

/* See explain_priv.h. */
bool explain_link_came_back(const struct explain_log *lg,
			   const struct explain_hit *h)
{
	const char *ifc = logmatch_field(&h->m, "iface");
	/* the last down the log shows against the last up: down, up,
	 * down again is a link down */
	long down = h->last_line > h->line ? h->last_line : h->line;

	for (size_t i = 0; ifc && i < lg->nhits; i++) {
		const struct explain_hit *u = &lg->hits[i];
		const char *f = logmatch_field(&u->m, "iface");
		long up = u->last_line > u->line ? u->last_line : u->line;

		if (strcmp(u->m.sig->id, "kernel-link-up") == 0 && f &&
		    strcmp(f, ifc) == 0 && u->file == h->file && up > down)
			return true;
	}
	return false;
}
