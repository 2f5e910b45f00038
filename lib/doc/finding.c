/* The finding catalogue, transcribed from ../shared/FAILURES.md. */
#include "doc/finding.h"

#include <string.h>

static const struct finding_def catalogue[] = {
	{"container-bridge-nat", SEV_FAULT,
	 "this process runs in a container on a NAT'd bridge; peers cannot reach it",
	 "run the container with --network host, or give it a routable address "
	 "with macvlan, ipvlan or SR-IOV"},
	{"wsl2-nat", SEV_FAULT,
	 "WSL2 in NAT networking mode; peers cannot reach its address",
	 "set networkingMode=mirrored in %UserProfile%\\.wslconfig and allow the "
	 "ports in the Hyper-V firewall, or run native Linux"},
	{"wsl-container-double-nat", SEV_FAULT,
	 "a container inside WSL2: two NAT layers between this process and peers",
	 "use host networking in the container and WSL mirrored mode, or native "
	 "Linux"},
	{"hostname-loopback", SEV_FAULT,
	 "the hostname resolves to a loopback address; Gloo binds it",
	 "map the hostname to the LAN address in /etc/hosts, or set "
	 "GLOO_SOCKET_IFNAME and MASTER_ADDR"},
	{"hostname-unbindable", SEV_WARNING,
	 "the hostname resolves to an address no local interface has",
	 "set GLOO_SOCKET_IFNAME to the interface to use"},
	{"nccl-default-iface-unsafe", SEV_WARNING,
	 "NCCL's own interface choice would use a virtual interface",
	 "pin the interface with NCCL_SOCKET_IFNAME in the exact '=' form"},
	{"nccl-ifname-overmatch", SEV_WARNING,
	 "a prefix in NCCL_SOCKET_IFNAME matches more interfaces than meant",
	 "use the exact '=' form of NCCL_SOCKET_IFNAME"},
	{"nccl-ifname-nomatch", SEV_FAULT,
	 "NCCL_SOCKET_IFNAME matches no usable interface",
	 "set NCCL_SOCKET_IFNAME to an interface that exists and is up"},
	{"gloo-ifname-syntax", SEV_FAULT,
	 "GLOO_SOCKET_IFNAME uses NCCL syntax, which Gloo does not understand",
	 "set GLOO_SOCKET_IFNAME to one concrete interface name"},
	{"nccl-comm-id-subnet", SEV_FAULT,
	 "NCCL_COMM_ID points outside every local subnet",
	 "unset NCCL_COMM_ID or use an address in a local subnet"},
	{"ipv6-link-local-only", SEV_WARNING,
	 "an interface whose only IPv6 address is link-local may be picked",
	 "set NCCL_SOCKET_FAMILY=AF_INET and pin the interface"},
	{"overlapping-subnets", SEV_WARNING,
	 "two interfaces are on overlapping subnets",
	 "fix the netmasks or route metrics, and pin the interface the route "
	 "uses"},
	{"interface-down", SEV_WARNING,
	 "an interface is down or has no carrier",
	 "bring the interface up, or check its cable"},
	{"no-usable-interface", SEV_FAULT,
	 "nothing but loopback is up and addressed",
	 "give this node an address on the cluster network, or use host "
	 "networking"},
	{"port-closed", SEV_FAULT, "connection refused: nothing listens",
	 "start the service, or check its port"},
	{"port-filtered", SEV_FAULT, "connects time out: a firewall drops them",
	 "open the port in the firewall"},
	{"port-prohibited", SEV_FAULT,
	 "a firewall rejects the port with ICMP administratively prohibited",
	 "open the port in the firewall"},
	{"host-unreachable", SEV_FAULT, "no route to the host",
	 "fix the routing or the address"},
	{"ephemeral-range-blocked", SEV_FAULT,
	 "fixed ports work but the ephemeral port range is blocked",
	 "open ip_local_port_range in the firewall, or narrow it with sysctl "
	 "and open that"},
	{"listener-loopback-only", SEV_FAULT,
	 "a service listens on 127.0.0.1 only",
	 "bind the service to 0.0.0.0 or to the chosen address"},
	{"inbound-blocked", SEV_FAULT,
	 "outbound connections work, peers cannot connect back",
	 "use host networking, open the ports, or advertise a reachable address "
	 "(--node-ip-address)"},
	{"nat-detected", SEV_FAULT,
	 "the address peers see is not the address this host advertises",
	 "remove the NAT: host networking, or WSL mirrored mode"},
	{"mtu-mismatch", SEV_WARNING, "interface MTUs differ along the path",
	 "set the same MTU on both ends"},
	{"mtu-blackhole", SEV_FAULT,
	 "packets above a size vanish with no ICMP error",
	 "set the overlay MTU to the underlay MTU minus its overhead"},
	{"heartbeat-loss", SEV_WARNING, "heartbeats are lost or delayed",
	 "find the lossy link"},
	{"heartbeat-dropped", SEV_FAULT,
	 "a held connection stopped being answered",
	 "enable TCP keepalives shorter than the NAT timeout, or remove the NAT"},
	{"shm-small", SEV_WARNING, "/dev/shm is small for NCCL's shared memory",
	 "run the container with --shm-size=1g or --ipc=host"},
	{"mpi-btl-iface", SEV_WARNING,
	 "Open MPI's TCP transport may try a bridge interface",
	 "set OMPI_MCA_btl_tcp_if_include to the chosen interface"},
	{"nccl-version-mismatch", SEV_FAULT,
	 "ranks run different NCCL, CUDA or driver versions",
	 "install one version everywhere"},
	{"rank-unreachable", SEV_FAULT,
	 "a rank's advertised address cannot be reached by other ranks",
	 "fix what blocks it (NAT, firewall, wrong interface)"},
	{"collective-timeout", SEV_FAULT, "a collective did not complete in time",
	 "see the cause named in the message"},
	{"busbw-below-threshold", SEV_FAULT,
	 "bus bandwidth is below the gate threshold",
	 "check the transport and interface NCCL used"},
	{"wrong-results", SEV_FAULT, "a collective returned wrong data",
	 "drain the node and check its GPUs"},
	{"mesh-node-missing", SEV_FAULT,
	 "a node of the mesh did not join node 0 in time",
	 "start netprobe mesh on that node (one process per node), and let it "
	 "reach node 0's port"},
	{"mesh-node-unknown", SEV_FAULT,
	 "a node joined the mesh that is not in its membership",
	 "give every node the same --hosts (or launcher), or do not start it "
	 "there"},
	{"mesh-token-mismatch", SEV_FAULT,
	 "a node joined the mesh with another token than node 0's",
	 "pass the same --token-file to every node"},
	{"mesh-node-died", SEV_FAULT,
	 "a node joined the mesh, then stopped before sending its results",
	 "look at that node: its process was killed, crashed or lost node 0"},
	{"mesh-node-duplicate", SEV_WARNING,
	 "one node is listed twice, or two processes claim one node",
	 "list each node once; run one netprobe mesh per node"},
	/* issue 23: netprobe mesh --ports */
	{"port-in-use", SEV_INFO,
	 "a port the job needs is held by another process already",
	 "stop that process before the job starts, or use another port"},
};

/* Linear search: the table is short and looked up rarely. */
const struct finding_def *finding_lookup(const char *code)
{
	for (size_t i = 0; i < sizeof(catalogue) / sizeof(catalogue[0]); i++)
		if (strcmp(catalogue[i].code, code) == 0)
			return &catalogue[i];
	return NULL;
}

/* For man-page checks and reports that list every code. */
const struct finding_def *finding_all(size_t *n)
{
	*n = sizeof(catalogue) / sizeof(catalogue[0]);
	return catalogue;
}

/* Names as they appear in JSON. */
const char *severity_name(enum severity sev)
{
	switch (sev) {
	case SEV_FAULT:
		return "fault";
	case SEV_WARNING:
		return "warning";
	case SEV_INFO:
		break;
	}
	return "info";
}

/* Inverse of severity_name. */
int severity_parse(const char *s, enum severity *out)
{
	if (strcmp(s, "fault") == 0)
		*out = SEV_FAULT;
	else if (strcmp(s, "warning") == 0)
		*out = SEV_WARNING;
	else if (strcmp(s, "info") == 0)
		*out = SEV_INFO;
	else
		return -1;
	return 0;
}
