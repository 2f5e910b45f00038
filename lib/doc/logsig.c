/* The signature table of netprobe explain (doc/logsig.h): the message
 * forms, read from each framework's own source at the tags named. */
#include "doc/logsig.h"

/* NCCL prints a socket address as host<port> (ncclSocketToString), Gloo
 * and torch as [host]:port. */
#define NCCL_ADDR "([0-9A-Za-z:.%_-]+)<([0-9]+)>"
#define GLOO_ADDR "\\[([^]]+)\\]:([0-9]+)"
#define CONNECT_NCCL "[Cc]onnect to " NCCL_ADDR " failed : "

static const struct logsig table[] = {
	/* NCCL: the bootstrap's and the socket transport's connects. */
	{"nccl-connect-refused", "NCCL",
	 "src/misc/socket.cc socketStartConnect (src/os/linux.cc from 2.28)",
	 "2.12-2.30", "onnect to ", CONNECT_NCCL "Connection refused",
	 "addr,port", "port-closed", NULL,
	 "nothing listened at the address a rank advertised", LOGSIG_PEER,
	 "node1:812:830 [0] NCCL WARN socketStartConnect: Connect to "
	 "10.231.0.2<45678> failed : Connection refused"},
	{"nccl-connect-timeout", "NCCL",
	 "src/misc/socket.cc socketStartConnect (src/os/linux.cc from 2.28)",
	 "2.12-2.30", "onnect to ", CONNECT_NCCL "Connection timed out",
	 "addr,port", NULL, "port-filtered,inbound-blocked,rank-unreachable",
	 "SYNs to a rank's advertised address got no answer", LOGSIG_PEER,
	 "node1:812:830 [0] NCCL WARN socketStartConnect: Connect to "
	 "10.231.0.2<45678> failed : Connection timed out"},
	{"nccl-connect-noroute", "NCCL",
	 "src/misc/socket.cc socketStartConnect (src/os/linux.cc from 2.28)",
	 "2.12-2.30", "onnect to ",
	 CONNECT_NCCL "(No route to host|Network is unreachable)",
	 "addr,port,err", "host-unreachable", NULL,
	 "no route toward a rank's advertised address", LOGSIG_PEER,
	 "node1:812:830 [0] NCCL WARN socketStartConnect: Connect to "
	 "10.231.9.9<45678> failed : No route to host"},
	{"nccl-connect-exceeded-retries", "NCCL",
	 "src/misc/socket.cc socketStartConnect/socketPollConnect",
	 "2.19-2.23", "exceeded retries", "socket(Start|Poll)Connect: "
	 "exceeded retries \\(([0-9]+)\\)", ",retries", "port-closed", NULL,
	 "every connect was refused until NCCL gave up", 0,
	 "node1:812:830 [0] NCCL WARN socketStartConnect: exceeded retries "
	 "(20)"},
	{"nccl-connect-exceeded-timeouts", "NCCL",
	 "src/misc/socket.cc socketStartConnect/socketPollConnect",
	 "2.19-2.23", "exceeded timeouts", "socket(Start|Poll)Connect: "
	 "exceeded timeouts \\(([0-9]+)\\)", ",retries", NULL,
	 "port-filtered,inbound-blocked,rank-unreachable",
	 "every connect timed out until NCCL gave up", 0,
	 "node1:812:830 [0] NCCL WARN socketPollConnect: exceeded timeouts "
	 "(10)"},
	{"nccl-connect-retry-exceeded", "NCCL", "src/os/linux.cc",
	 "2.28-2.30", "exceeded error retry count",
	 "connect to " NCCL_ADDR " returned ([A-Za-z ]+), exceeded error "
	 "retry count", "addr,port,err", NULL,
	 "port-closed,port-filtered,inbound-blocked",
	 "NCCL retried a connect until it gave up", LOGSIG_PEER,
	 "node1:812:830 [0] NCCL WARN socketStartConnect: connect to "
	 "10.231.0.2<45678> returned Connection refused, exceeded error "
	 "retry count after 35 attempts"},
	{"nccl-poll-connect-failed", "NCCL",
	 "src/misc/socket.cc socketPollConnect", "2.19-2.28",
	 "PollConnect", "[Cc]onnect to " NCCL_ADDR " (returned [0-9]+\\(|"
	 "failed with error )([A-Za-z ]+)", "addr,port,,err", NULL,
	 "port-closed,port-filtered,inbound-blocked",
	 "a non-blocking connect to a rank failed", LOGSIG_PEER,
	 "node1:812:830 [0] NCCL WARN socketPollConnect: Connect to "
	 "10.231.0.2<45678> returned 110(Connection timed out) errno "
	 "115(Operation now in progress)"},
	{"nccl-peer-closed", "NCCL", "src/misc/socket.cc socketProgress",
	 "2.12-2.30", "losed by remote peer",
	 "Connection closed by remote peer " NCCL_ADDR, "addr,port",
	 "rank-unreachable", NULL,
	 "a peer rank closed its socket: it died or aborted first",
	 LOGSIG_PEER,
	 "node1:812:830 [1] NCCL WARN socketProgress: Connection closed by "
	 "remote peer node2<51234>"},
	{"nccl-bootstrap-no-iface", "NCCL", "src/bootstrap.cc bootstrapNetInit",
	 "2.12-2.30", "no socket interface found",
	 "Bootstrap : no socket interface found", "", "nccl-ifname-nomatch",
	 NULL, "NCCL_SOCKET_IFNAME matched no usable interface", 0,
	 "node1:812:812 [0] NCCL WARN Bootstrap : no socket interface found"},
	{"nccl-socket-no-iface", "NCCL", "src/transport/net_socket.cc",
	 "2.12-2.30", "NET/Socket : no interface found",
	 "NET/Socket : no interface found", "", "nccl-ifname-nomatch", NULL,
	 "the socket transport found no interface NCCL_SOCKET_IFNAME allows",
	 0, "node1:812:812 [0] NCCL WARN NET/Socket : no interface found"},
	{"nccl-no-listening-iface", "NCCL", "src/bootstrap.cc bootstrapNetInit",
	 "2.27-2.30", "No usable listening interface",
	 "NET/Socket : No usable listening interface found", "",
	 "nccl-comm-id-subnet", NULL,
	 "no local interface is in NCCL_COMM_ID's subnet", 0,
	 "node1:812:812 [0] NCCL WARN NET/Socket : No usable listening "
	 "interface found"},
	{"nccl-no-subnet-iface", "NCCL",
	 "src/misc/socket.cc ncclFindInterfaceMatchSubnet", "2.12-2.26",
	 "same subnet as remote address",
	 "No interface found in the same subnet as remote address "
	 NCCL_ADDR, "addr,port", "nccl-comm-id-subnet", NULL,
	 "NCCL_COMM_ID points outside every local subnet", 0,
	 "node1:812:812 [0] NCCL WARN Net : No interface found in the same "
	 "subnet as remote address 10.99.0.1<29400>"},
	{"nccl-oob-no-device", "NCCL", "src/bootstrap.cc", "2.23-2.30",
	 "verify NCCL_OOB_NET_IFNAME",
	 "no device found (matching|after excluding) (exactly )?([^,]+), "
	 "verify NCCL_OOB_NET_IFNAME", ",,,setting_oob",
	 "nccl-ifname-nomatch", NULL,
	 "NCCL_OOB_NET_IFNAME matched no network device", 0,
	 "node1:812:812 [0] NCCL WARN no device found matching eth9, verify "
	 "NCCL_OOB_NET_IFNAME"},
	{"nccl-version-mismatch", "NCCL", "src/init.cc initTransportsRank",
	 "2.12-2.30", "Mismatched NCCL version",
	 "Mismatched NCCL version detected : rank ([0-9]+) version ([0-9]+) "
	 "rank ([0-9]+) version ([0-9]+)", "rank,version_code,rank,"
	 "version_code", "nccl-version-mismatch", NULL,
	 "two ranks run different NCCL versions", 0,
	 "node1:812:812 [0] NCCL WARN Mismatched NCCL version detected : "
	 "rank 0 version 22105 rank 1 version 21805"},
	{"nccl-message-truncated", "NCCL", "src/transport/net_socket.cc",
	 "2.12-2.30", "message truncated",
	 "NET/Socket : peer " NCCL_ADDR " message truncated", "addr,port",
	 "nccl-version-mismatch", NULL,
	 "ranks disagree on a message's size: mixed versions or settings",
	 LOGSIG_PEER,
	 "node1:812:840 [0] NCCL WARN NET/Socket : peer 10.231.0.2<40123> "
	 "message truncated : receiving 1048576 bytes instead of 65536"},
	{"nccl-shm-create", "NCCL", "src/misc/shmutils.cc ncclShmOpen",
	 "2.12-2.30", "creating shared memory segment",
	 "Error while creating shared memory segment ([^ ]+) \\(size "
	 "([0-9]+)", "path,bytes", "shm-small", NULL,
	 "/dev/shm could not hold NCCL's segment", 0,
	 "node1:812:812 [0] NCCL WARN Error while creating shared memory "
	 "segment /dev/shm/nccl-Ab12Cd (size 9637888)"},
	{"nccl-shm-extend", "NCCL", "src/misc/shmutils.cc (src/os/linux.cc)",
	 "2.12-2.30", "ailed to extend",
	 "[Ff]ailed to extend ([^ ]+) to ([0-9]+) bytes", "path,bytes",
	 "shm-small", NULL, "/dev/shm is too small for NCCL's segment", 0,
	 "node1:812:812 [0] NCCL INFO fallocate: Failed to extend "
	 "/dev/shm/nccl-Ab12Cd to 9637892 bytes, error: No space left on "
	 "device (28) - retrying"},
	{"nccl-ib-no-device", "NCCL", "src/transport/net_ib.cc ncclIbInit "
	 "(src/transport/net_ib/init.cc from 2.28)", "2.12-2.30",
	 "NET/IB : No device found", "NET/IB : No device found", "",
	 NULL, "ib-device-missing",
	 "NCCL found no RDMA device and fell back to sockets", 0,
	 "node1:812:812 [0] NCCL INFO NET/IB : No device found."},
	{"nccl-ibv-nomem", "NCCL", "src/misc/ibvwrap.cc IBV_*_CHECK_ERRNO",
	 "2.12-2.30", "failed with error Cannot allocate memory",
	 "Call to (ibv_[a-z_0-9]+) failed with error Cannot allocate memory",
	 "verb", "memlock-limit", NULL,
	 "a verbs call could not pin memory: the memlock limit is too low",
	 0, "node1:812:850 [0] NCCL WARN Call to ibv_reg_mr failed with "
	 "error Cannot allocate memory"},
	{"nccl-ib-async-port-error", "NCCL", "src/transport/net_ib.cc "
	 "ncclIbAsyncThreadMain", "2.12-2.30", "Got async event",
	 "NET/IB : Got async event : (port error|port active)", "event",
	 NULL, "interface-down",
	 "the RDMA port changed state under the job", 0,
	 "node1:812:860 [0] NCCL WARN NET/IB : Got async event : port "
	 "error"},
	{"nccl-system-error", "NCCL", "src/misc/socket.cc, src/init.cc",
	 "2.12-2.30", "unhandled system error",
	 "unhandled system error.*NCCL version ([0-9.]+)", "version", NULL,
	 "rank-unreachable",
	 "a system call failed; NCCL_DEBUG=INFO says which", 0,
	 "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/"
	 "distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system "
	 "error (run with NCCL_DEBUG=INFO for details), NCCL version "
	 "2.21.5"},
	{"nccl-remote-error", "NCCL", "src/include/nccl.h ncclRemoteError",
	 "2.13-2.30", "remote process exiting prematurely",
	 "remote process exiting prematurely", "", "rank-unreachable", NULL,
	 "a peer rank went away during a collective", 0,
	 "ncclRemoteError: A call failed possibly due to a network error or "
	 "a remote process exiting prematurely."},
	/* NCCL: facts, no cause by themselves. */
	{"nccl-version", "NCCL", "src/init.cc showVersion", "2.12-2.30",
	 "NCCL version ", "NCCL INFO NCCL version ([0-9]+\\.[0-9]+\\.[0-9]+)"
	 "(\\+cuda([0-9]+\\.[0-9]+))?", "nccl_version,,cuda_version", NULL,
	 NULL, "the NCCL and CUDA versions the job ran", LOGSIG_FACT,
	 "node1:812:812 [0] NCCL INFO NCCL version 2.21.5+cuda12.4"},
	{"nccl-bootstrap-using", "NCCL", "src/bootstrap.cc bootstrapNetInit",
	 "2.12-2.30", "Using", "Bootstrap ?: Using ?\\[?[0-9]*\\]?"
	 "([A-Za-z0-9_.@-]+):" NCCL_ADDR, "iface,addr,port", NULL, NULL,
	 "the interface NCCL's bootstrap chose",
	 LOGSIG_FACT | LOGSIG_LOCAL,
	 "node1:812:812 [0] NCCL INFO Bootstrap : Using eth0:10.231.0.1<0>"},
	{"nccl-socket-using", "NCCL", "src/transport/net_socket.cc "
	 "ncclNetSocketInit", "2.12-2.30", "NET/Socket : Using",
	 "NET/Socket : Using ?\\[[0-9]+\\]([A-Za-z0-9_.@-]+):" NCCL_ADDR,
	 "iface,addr,port", NULL, NULL,
	 "the interfaces NCCL's socket transport chose (first shown)",
	 LOGSIG_FACT | LOGSIG_LOCAL,
	 "node1:812:812 [0] NCCL INFO NET/Socket : Using [0]eth0:"
	 "10.231.0.1<0>"},
	{"nccl-ib-using", "NCCL", "src/transport/net_ib.cc ncclIbInit",
	 "2.12-2.30", "NET/IB : Using",
	 "NET/IB : Using ?\\[[0-9]+\\]([A-Za-z0-9_]+):([0-9]+)/"
	 "(IB|RoCE)", "ibdev,ibport,link_layer", NULL, NULL,
	 "the RDMA devices NCCL uses (first shown)", LOGSIG_FACT,
	 "node1:812:812 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]"
	 "mlx5_1:1/RoCE [RO]; OOB eth0:10.231.0.1<0>"},
	{"nccl-env-echo", "NCCL", "src/misc/param.cc ncclLoadParam / "
	 "ncclGetEnv", "2.12-2.30", " set by environment to ",
	 "(NCCL_[A-Z0-9_]+) set by environment to ([^ ]+)",
	 "setting_name,setting_value", NULL, NULL,
	 "a setting NCCL read from the environment", LOGSIG_FACT,
	 "node1:812:812 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment "
	 "to eth0"},
	{"nccl-ib-plugin-failed", "NCCL", "src/plugin/net.cc "
	 "ncclNetPluginInit", "2.24-2.30", "Failed to initialize NET plugin",
	 "Failed to initialize NET plugin (IB|[A-Za-z_]+)", "plugin", NULL,
	 "ib-device-missing",
	 "NCCL could not start its RDMA transport and fell back", 0,
	 "vm:700:700 [0] NCCL INFO Failed to initialize NET plugin IB"},
	{"nccl-using-network", "NCCL", "src/init.cc initTransportsRank",
	 "2.12-2.30", "Using network ", "NCCL INFO Using network "
	 "([A-Za-z_]+)", "transport", NULL, NULL,
	 "the network transport NCCL uses", LOGSIG_FACT,
	 "vm:700:700 [0] NCCL INFO Using network Socket"},
	{"nccl-ras-client-listen", "NCCL", "src/ras/client_support.cc "
	 "rasClientInitSocket", "2.24-2.30", "RAS client listening socket",
	 "RAS client listening socket at " NCCL_ADDR, "ras_addr,ras_port",
	 NULL, NULL, "where the job's RAS service answers (--job)",
	 LOGSIG_FACT,
	 "vm:700:700 [0] NCCL INFO RAS client listening socket at "
	 "127.0.0.1<28028>"},
	/* Gloo (pytorch/gloo). */
	{"gloo-connect-refused", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::connect", "torch 1.8-2.6", "Connection refused",
	 "connect " GLOO_ADDR ": Connection refused", "addr,port",
	 "port-closed", NULL,
	 "nothing listened at the address a rank advertised", LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:144]"
	 " connect [10.231.0.2]:23456: Connection refused"},
	{"gloo-connect-timeout", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::connect", "torch 1.8-2.6", "Connection timed out",
	 "connect " GLOO_ADDR ": Connection timed out", "addr,port", NULL,
	 "port-filtered,inbound-blocked,rank-unreachable",
	 "SYNs to a rank's advertised address got no answer", LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:144]"
	 " connect [10.231.0.2]:23456: Connection timed out"},
	{"gloo-connect-noroute", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::connect", "torch 1.8-2.6", "connect [",
	 "connect " GLOO_ADDR ": (No route to host|Network is unreachable)",
	 "addr,port,err", "host-unreachable", NULL,
	 "no route toward a rank's advertised address", LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:144]"
	 " connect [10.231.9.9]:23456: No route to host"},
	{"gloo-peer-closed", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::handleReadWrite", "torch 1.8-2.6", "Connection closed by peer",
	 "Connection closed by peer " GLOO_ADDR, "addr,port",
	 "rank-unreachable", NULL, "a peer rank closed its socket",
	 LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598]"
	 " Connection closed by peer [10.231.0.2]:49152"},
	{"gloo-read-reset", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::signalException", "torch 1.8-2.6", "Connection reset by peer",
	 "Read error " GLOO_ADDR ": Connection reset by peer", "addr,port",
	 "rank-unreachable", NULL, "a peer rank reset the connection",
	 LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:589]"
	 " Read error [10.231.0.2]:49152: Connection reset by peer"},
	{"gloo-timeout", "Gloo", "gloo/transport/tcp/pair.cc / unbound_buffer.cc",
	 "torch 1.8-2.6", "Timed out waiting",
	 "Timed out waiting ([0-9]+)ms for (recv|send) operation", "ms,op",
	 "collective-timeout", "rank-unreachable,port-filtered",
	 "a Gloo operation waited longer than its timeout", 0,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/"
	 "unbound_buffer.cc:81] Timed out waiting 1800000ms for recv "
	 "operation to complete"},
	{"gloo-no-address", "Gloo", "gloo/transport/tcp/device.cc "
	 "CreateDevice/lookupAddrForIface", "torch 1.8-2.6",
	 "Unable to find address for",
	 "Unable to find address for: ?([^ ]+)", "setting_gloo_ifname",
	 NULL, NULL, "GLOO_SOCKET_IFNAME names no interface with an address",
	 0, "RuntimeError: [enforce fail at ../third_party/gloo/gloo/"
	 "transport/tcp/device.cc:83] ifa != nullptr. Unable to find address "
	 "for: ^lo"},
	/* torch (c10d, elastic). */
	{"torch-store-connect-refused", "torch",
	 "torch/csrc/distributed/c10d/socket.cpp SocketConnectOp",
	 "torch 2.0-2.6", "client socket has failed to connect",
	 "client socket has failed to connect to \\[?([^]:]+)\\]?:([0-9]+) "
	 "\\(errno: ([0-9]+) - ([A-Za-z ]+)\\)", "addr,port,errno,err",
	 NULL, "port-closed,host-unreachable",
	 "the TCPStore client could not reach MASTER_ADDR:MASTER_PORT",
	 LOGSIG_PEER,
	 "[W socket.cpp:697] [c10d] The client socket has failed to connect "
	 "to [10.231.0.1]:29500 (errno: 111 - Connection refused)."},
	{"torch-store-timeout", "torch",
	 "torch/csrc/distributed/c10d/socket.cpp SocketConnectOp",
	 "torch 2.0-2.6", "client socket has timed out",
	 "client socket has timed out after ([0-9]+)s? while trying to "
	 "connect to \\(([^,]+), ([0-9]+)\\)", "seconds,addr,port", NULL,
	 "port-filtered,inbound-blocked,host-unreachable",
	 "the TCPStore client never reached MASTER_ADDR:MASTER_PORT",
	 LOGSIG_PEER,
	 "torch.distributed.DistNetworkError: The client socket has timed "
	 "out after 1800s while trying to connect to (10.231.0.1, 29500)."},
	{"torch-store-listen", "torch",
	 "torch/csrc/distributed/c10d/socket.cpp SocketListenOp",
	 "torch 2.0-2.6", "failed to listen",
	 "server socket has failed to (bind|listen)[^.]*\\. port: "
	 "([0-9]+).*(EADDRINUSE|EADDRNOTAVAIL)", ",port,err", NULL,
	 "listener-loopback-only,hostname-unbindable",
	 "the TCPStore server could not listen on MASTER_PORT", 0,
	 "torch.distributed.DistNetworkError: The server socket has failed "
	 "to listen on any local network address. port: 29500, useIpv6: "
	 "false, code: -98, name: EADDRINUSE, message: address already in "
	 "use"},
	{"torch-nccl-watchdog", "torch",
	 "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp "
	 "checkTimeout/watchdog", "torch 1.13-2.6",
	 "Watchdog caught collective operation timeout",
	 "\\[Rank ([0-9]+)\\] Watchdog caught collective operation timeout: "
	 "WorkNCCL\\(SeqNum=([0-9]+), OpType=([A-Z_]+).*Timeout\\(ms\\)="
	 "([0-9]+)", "rank,seq,op,timeout_ms", "collective-timeout",
	 "rank-unreachable",
	 "a NCCL collective did not finish within the process group's "
	 "timeout", 0,
	 "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught "
	 "collective operation timeout: WorkNCCL(SeqNum=7, "
	 "OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, "
	 "Timeout(ms)=600000) ran for 600184 milliseconds before timing "
	 "out."},
	{"torch-elastic-store", "torch",
	 "torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py",
	 "torch 1.10-2.6", "connection to the C10d store has failed",
	 "connection to the C10d store has failed", "", NULL,
	 "port-closed,port-filtered,host-unreachable",
	 "torchrun's rendezvous could not reach its store", 0,
	 "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError:"
	 " The connection to the C10d store has failed. See inner exception "
	 "for details."},
	{"torch-version", "torch", "torch/__init__.py (printed by launchers)",
	 "torch 1.8-2.6", "torch ", "torch[ =_-]+(version[: ]+)?"
	 "([0-9]+\\.[0-9]+\\.[0-9]+)(\\+cu([0-9]+))?",
	 ",torch_version,,cuda_tag", NULL, NULL, "the torch version",
	 LOGSIG_FACT, "torch version: 2.4.1+cu124"},
	/* Ray (ray-project/ray). */
	{"ray-node-dead", "Ray", "src/ray/gcs/gcs_server/gcs_node_manager.cc "
	 "/ gcs_health_check_manager.cc", "ray 2.0-2.40",
	 "has been marked dead",
	 "node id: ([0-9a-f]+) and address: ([0-9a-fA-F.:]+) .*has been "
	 "marked dead", "node_id,addr", NULL,
	 "inbound-blocked,nat-detected,container-bridge-nat,rank-unreachable",
	 "the head's health checks to a node failed", LOGSIG_PEER,
	 "(raylet) The node with node id: 5f1e2d3c4b5a and address: "
	 "172.17.0.3 and node name: 172.17.0.3 has been marked dead because "
	 "the detector has missed too many heartbeats from it. This can "
	 "happen when a \t(1) raylet crashes unexpectedly (OOM, etc.)"},
	{"ray-ip-mismatch", "Ray", "python/ray/_private/services.py "
	 "get_node_ip_address / node.py", "ray 1.13-2.40",
	 "but none of these match this node's IP",
	 "This node has an IP address of ([0-9a-fA-F.:]+), .*Connected to "
	 "GCS at ([0-9a-fA-F.:]+)", "addr,gcs_addr", NULL,
	 "container-bridge-nat,nat-detected",
	 "the address Ray found for this node is not one the head sees",
	 LOGSIG_LOCAL,
	 "This node has an IP address of 172.17.0.2, and Ray expects this "
	 "IP address to be either the GCS address or one of the Raylet "
	 "addresses. Connected to GCS at 10.231.0.1 and found raylets at "
	 "10.231.0.1 but none of these match this node's IP 172.17.0.2."},
	{"ray-gcs-connect", "Ray", "src/ray/gcs/gcs_client/gcs_client.cc",
	 "ray 2.0-2.40", "Failed to connect to GCS",
	 "Failed to connect to GCS at address ([0-9a-fA-F.:]+):([0-9]+)",
	 "addr,port", NULL, "port-closed,port-filtered,host-unreachable",
	 "a node could not reach the head's GCS port", LOGSIG_PEER,
	 "[2026-11-20 10:00:00,123 E 812 812] gcs_client.cc:203: Failed to "
	 "connect to GCS at address 10.231.0.1:6379 within 5 seconds."},
	{"ray-start-address", "Ray", "python/ray/scripts/scripts.py start",
	 "ray 1.0-2.40", "ray start --address",
	 "ray start --address=['\"]?([0-9a-fA-F.:]+):([0-9]+)", "addr,port",
	 NULL, NULL, "the head a Ray node joins (probed as a peer)",
	 LOGSIG_FACT | LOGSIG_PEER,
	 "  ray start --address='10.231.0.1:6379'"},
	/* Open MPI (ompi/opal/mca/btl/tcp). */
	{"ompi-btl-connect", "Open MPI",
	 "opal/mca/btl/tcp/btl_tcp_endpoint.c "
	 "mca_btl_tcp_endpoint_complete_connect", "4.0-5.0",
	 "mca_btl_tcp_endpoint_complete_connect",
	 "connect\\(\\) to ([0-9a-fA-F.:]+) failed: ([A-Za-z ]+) "
	 "\\(([0-9]+)\\)", "addr,err,errno", "mpi-btl-iface", NULL,
	 "Open MPI's TCP transport tried an address the peer cannot reach",
	 0,
	 "[node1][[4242,1],0][btl_tcp_endpoint.c:796:"
	 "mca_btl_tcp_endpoint_complete_connect] connect() to 172.17.0.1 "
	 "failed: Connection refused (111)"},
	{"ompi-btl-unknown-peer", "Open MPI",
	 "opal/mca/btl/tcp/help-mpi-btl-tcp.txt", "4.0-5.0",
	 "cannot find a corresponding process",
	 "cannot find a corresponding process", "", "mpi-btl-iface", NULL,
	 "a TCP connection arrived from an address Open MPI does not know",
	 0, "WARNING: Open MPI accepted a TCP connection from what appears "
	 "to be a another Open MPI process but cannot find a corresponding "
	 "process entry for that peer."},
	{"ompi-memlock", "Open MPI", "opal/mca/btl/openib help text / "
	 "common_verbs", "3.0-5.0", "locked memory",
	 "(allocate some locked memory|registered memory limit|"
	 "locked memory limit)", "", "memlock-limit", NULL,
	 "Open MPI could not register memory: the memlock limit is low", 0,
	 "The OpenFabrics (openib) BTL failed to initialize while trying to "
	 "allocate some locked memory."},
	/* libibverbs and the kernel. */
	{"ibverbs-memlock", "libibverbs", "libibverbs/init.c check_memlock_limit",
	 "rdma-core 17-50", "RLIMIT_MEMLOCK is",
	 "RLIMIT_MEMLOCK is ([0-9]+) bytes", "memlock_bytes",
	 "memlock-limit", NULL,
	 "the memlock limit is too low to register RDMA memory", 0,
	 "libibverbs: Warning: RLIMIT_MEMLOCK is 65536 bytes."},
	{"ibverbs-no-device", "libibverbs", "libibverbs/device.c "
	 "ibverbs_get_device_list", "rdma-core 17-50",
	 "no userspace device-specific driver found",
	 "no userspace device-specific driver found for ([^ ]+)", "path",
	 "ib-device-missing", NULL,
	 "the RDMA device is there but its userspace driver is not", 0,
	 "libibverbs: Warning: no userspace device-specific driver found for"
	 " /sys/class/infiniband_verbs/uverbs0"},
	{"kernel-neigh-overflow", "kernel", "net/core/neighbour.c "
	 "neigh_alloc", "linux 3.0-6.12", "table overflow",
	 "(arp_cache|ndisc_cache): neighbor table overflow",
	 "table", "neighbour-table-overflow", NULL,
	 "the neighbour (ARP/NDP) table is full: new peers go unresolved", 0,
	 "[12345.678901] neighbour: arp_cache: neighbor table overflow!"},
	{"kernel-conntrack-full", "kernel", "net/netfilter/nf_conntrack_core.c "
	 "__nf_conntrack_alloc", "linux 3.0-6.12", "table full, dropping",
	 "nf_conntrack: table full, dropping packet", "",
	 "conntrack-table-full", NULL,
	 "the conntrack table is full: new connections are dropped", 0,
	 "[12345.678901] nf_conntrack: nf_conntrack: table full, dropping "
	 "packet"},
};

const struct logsig *logsig_table(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
