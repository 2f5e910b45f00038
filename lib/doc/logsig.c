/* The signature table of netprobe explain (doc/logsig.h): the message
 * forms, read from each framework's own source at the tags named. */
#include "doc/logsig.h"

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

static const struct logsig table[] = {
	/* NCCL: the bootstrap's and the socket transport's connects. */
	{"nccl-connect-refused", "NCCL",
	 "src/misc/socket.cc socketStartConnect (src/os/linux.cc from 2.28; "
	 "src/include/socket.h connectAddress before 2.12)", "2.4-2.30", "onnect to ", CONNECT_NCCL "Connection refused",
	 "addr,port", "port-closed", NULL,
	 "nothing listened at the address a rank advertised", LOGSIG_PEER,
	 "node1:812:830 [0] NCCL WARN socketStartConnect: Connect to "
	 "10.231.0.2<45678> failed : Connection refused", NULL},
	{"nccl-connect-timeout", "NCCL",
	 "src/misc/socket.cc socketStartConnect (src/os/linux.cc from 2.28; "
	 "src/include/socket.h connectAddress before 2.12)", "2.4-2.30", "onnect to ", CONNECT_NCCL "Connection timed out",
	 "addr,port", NULL, "port-filtered,inbound-blocked,rank-unreachable",
	 "SYNs to a rank's advertised address got no answer", LOGSIG_PEER,
	 "node1:812:830 [0] NCCL WARN socketStartConnect: Connect to "
	 "10.231.0.2<45678> failed : Connection timed out", NULL},
	{"nccl-connect-noroute", "NCCL",
	 "src/misc/socket.cc socketStartConnect (src/os/linux.cc from 2.28; "
	 "src/include/socket.h connectAddress before 2.12)", "2.4-2.30", "onnect to ",
	 CONNECT_NCCL "(No route to host|Network is unreachable)",
	 "addr,port,err", "host-unreachable", NULL,
	 "no route toward a rank's advertised address", LOGSIG_PEER,
	 "node1:812:830 [0] NCCL WARN socketStartConnect: Connect to "
	 "10.231.9.9<45678> failed : No route to host", NULL},
	{"nccl-connect-exceeded-retries", "NCCL",
	 "src/misc/socket.cc socketStartConnect/socketPollConnect",
	 "2.16-2.23", "exceeded retries", "socket(Start|Poll)Connect: "
	 "exceeded retries \\(([0-9]+)\\)", ",retries", "port-closed", NULL,
	 "every connect was refused until NCCL gave up", 0,
	 "node1:812:830 [0] NCCL WARN socketStartConnect: exceeded retries "
	 "(20)", NULL},
	{"nccl-connect-exceeded-timeouts", "NCCL",
	 "src/misc/socket.cc socketStartConnect/socketPollConnect",
	 "2.19-2.23", "exceeded timeouts", "socket(Start|Poll)Connect: "
	 "exceeded timeouts \\(([0-9]+)\\)", ",retries", NULL,
	 "port-filtered,inbound-blocked,rank-unreachable",
	 "every connect timed out until NCCL gave up", 0,
	 "node1:812:830 [0] NCCL WARN socketPollConnect: exceeded timeouts "
	 "(10)", NULL},
	{"nccl-connect-retry-exceeded", "NCCL", "src/misc/socket.cc "
	 "socketStartConnect (src/os/linux.cc from 2.28)",
	 "2.27-2.30", "exceeded error retry count",
	 "connect to " NCCL_ADDR " returned ([A-Za-z ]+), exceeded error "
	 "retry count", "addr,port,err", NULL,
	 "port-closed,port-filtered,inbound-blocked",
	 "NCCL retried a connect until it gave up", LOGSIG_PEER,
	 "node1:812:830 [0] NCCL WARN socketStartConnect: connect to "
	 "10.231.0.2<45678> returned Connection refused, exceeded error "
	 "retry count after 35 attempts", NULL},
	{"nccl-poll-connect-failed", "NCCL",
	 "src/misc/socket.cc socketPollConnect", "2.19-2.28",
	 "PollConnect", "[Cc]onnect to " NCCL_ADDR " (returned [0-9]+\\(|"
	 "failed with error )([A-Za-z ]+)", "addr,port,,err", NULL,
	 "port-closed,port-filtered,inbound-blocked",
	 "a non-blocking connect to a rank failed", LOGSIG_PEER,
	 "node1:812:830 [0] NCCL WARN socketPollConnect: Connect to "
	 "10.231.0.2<45678> returned 110(Connection timed out) errno "
	 "115(Operation now in progress)", NULL},
	{"nccl-peer-closed", "NCCL", "src/misc/socket.cc socketProgress",
	 "2.4-2.30", "losed by remote peer",
	 "Connection closed by remote peer( " NCCL_ADDR ")?", ",addr,port",
	 NULL, NULL,
	 "a peer rank closed its socket: it died or aborted first, so its "
	 "own log holds the cause", LOGSIG_PEER | LOGSIG_SYMPTOM |
	 LOGSIG_REACHED,
	 "node1:812:830 [1] NCCL WARN socketProgress: Connection closed by "
	 "remote peer node2<51234>", NULL},
	/* A socket of an established connection whose recv or send failed
	 * with ETIMEDOUT: TCP gave up retransmitting. The peer host went
	 * away, a path drops the big segments (an MTU black hole), or a
	 * middlebox forgot the flow; the line cannot tell which. ECONNRESET
	 * on recv is not printed here: NCCL reports it as closed. */
	{"nccl-socket-io-timeout", "NCCL", "src/misc/socket.cc "
	 "socketProgressOpt (\"Net : Call to recv from\" before 2.18; send "
	 "too from 2.24; src/os/linux.cc ncclOsSocketProgressOpt from 2.29)",
	 "2.12-2.30", "failed : Connection timed out",
	 "Call to (recv from|send to) " NCCL_ADDR " failed : Connection "
	 "timed out", ",addr,port", NULL,
	 "rank-unreachable,mtu-blackhole,heartbeat-dropped",
	 "TCP gave up retransmitting on an established NCCL socket",
	 LOGSIG_REACHED,
	 "node1:812:840 [0] NCCL WARN socketProgressOpt: Call to recv from "
	 "10.231.0.2<40123> failed : Connection timed out", NULL},
	{"nccl-bootstrap-no-iface", "NCCL", "src/bootstrap.cc bootstrapNetInit",
	 "2.4-2.30", "no socket interface found",
	 "Bootstrap : no socket interface found", "", "nccl-ifname-nomatch",
	 NULL, "NCCL_SOCKET_IFNAME matched no usable interface", 0,
	 "node1:812:812 [0] NCCL WARN Bootstrap : no socket interface found", NULL},
	{"nccl-socket-no-iface", "NCCL", "src/transport/net_socket.cc",
	 "2.4-2.30", "NET/Socket : no interface found",
	 "NET/Socket : no interface found", "", "nccl-ifname-nomatch", NULL,
	 "the socket transport found no interface NCCL_SOCKET_IFNAME allows",
	 0, "node1:812:812 [0] NCCL WARN NET/Socket : no interface found", NULL},
	{"nccl-no-listening-iface", "NCCL", "src/bootstrap.cc bootstrapNetInit",
	 "2.27-2.30", "No usable listening interface",
	 "NET/Socket : No usable listening interface found", "",
	 "nccl-comm-id-subnet", NULL,
	 "no local interface is in NCCL_COMM_ID's subnet", 0,
	 "node1:812:812 [0] NCCL WARN NET/Socket : No usable listening "
	 "interface found", NULL},
	{"nccl-no-subnet-iface", "NCCL",
	 "src/misc/socket.cc ncclFindInterfaceMatchSubnet (src/include/"
	 "socket.h before 2.12)", "2.4-2.26",
	 "same subnet as remote address",
	 "No interface found in the same subnet as remote address "
	 NCCL_ADDR, "addr,port", "nccl-comm-id-subnet", NULL,
	 "NCCL_COMM_ID points outside every local subnet", 0,
	 "node1:812:812 [0] NCCL WARN Net : No interface found in the same "
	 "subnet as remote address 10.99.0.1<29400>", NULL},
	{"nccl-oob-no-device", "NCCL", "src/bootstrap.cc", "2.23-2.30",
	 "verify NCCL_OOB_NET_IFNAME",
	 "no device found (matching|after excluding) (exactly )?([^,]+), "
	 "verify NCCL_OOB_NET_IFNAME", ",,,setting_oob",
	 "nccl-ifname-nomatch", NULL,
	 "NCCL_OOB_NET_IFNAME matched no network device", 0,
	 "node1:812:812 [0] NCCL WARN no device found matching eth9, verify "
	 "NCCL_OOB_NET_IFNAME", NULL},
	{"nccl-version-mismatch", "NCCL", "src/init.cc initTransportsRank",
	 "2.23-2.30 (read at the tags: no such check before)",
	 "Mismatched NCCL version",
	 "Mismatched NCCL version detected : rank ([0-9]+) version ([0-9]+) "
	 "rank ([0-9]+) version ([0-9]+)", "rank,version_code,rank,"
	 "version_code", "nccl-version-mismatch", NULL,
	 "two ranks run different NCCL versions", 0,
	 "node1:812:812 [0] NCCL WARN Mismatched NCCL version detected : "
	 "rank 0 version 22105 rank 1 version 21805", NULL},
	/* NCCL's own text (from 2.12.10) says the sizes or the settings
	 * (NCCL_PROTO, NCCL_ALGO) may differ between ranks: a version
	 * mismatch is one way, not the only one, so it stays open. The
	 * connection worked, so the peer's address class proves nothing. */
	{"nccl-message-truncated", "NCCL", "src/transport/net_socket.cc "
	 "ncclNetSocketTest", "2.12-2.30", "message truncated",
	 "NET/Socket : peer " NCCL_ADDR " message truncated", "addr,port",
	 NULL, "nccl-version-mismatch",
	 "ranks disagree on a message's size: mixed versions or settings",
	 LOGSIG_REACHED,
	 "node1:812:840 [0] NCCL WARN NET/Socket : peer 10.231.0.2<40123> "
	 "message truncated : receiving 1048576 bytes instead of 65536", NULL},
	{"nccl-shm-create", "NCCL", "src/misc/shmutils.cc ncclShmOpen",
	 "2.4-2.30 (src/include/shm.h before 2.12)",
	 "creating shared memory segment",
	 "Error while creating shared memory segment ([^ ]+) \\(size "
	 "([0-9]+)", "path,bytes", "shm-small", NULL,
	 "/dev/shm could not hold NCCL's segment", 0,
	 "node1:812:812 [0] NCCL WARN Error while creating shared memory "
	 "segment /dev/shm/nccl-Ab12Cd (size 9637888)", NULL},
	{"nccl-shm-extend", "NCCL", "src/misc/shmutils.cc (src/os/linux.cc)",
	 "2.12-2.30", "ailed to extend",
	 "[Ff]ailed to extend ([^ ]+) to ([0-9]+) bytes", "path,bytes",
	 "shm-small", NULL, "/dev/shm is too small for NCCL's segment", 0,
	 "node1:812:812 [0] NCCL INFO fallocate: Failed to extend "
	 "/dev/shm/nccl-Ab12Cd to 9637892 bytes, error: No space left on "
	 "device (28) - retrying", NULL},
	{"nccl-ib-no-device", "NCCL", "src/transport/net_ib.cc ncclIbInit "
	 "(src/transport/net_ib/init.cc from 2.28)", "2.12-2.30",
	 "NET/IB : No device found", "NET/IB : No device found", "",
	 NULL, RDMA_OPEN,
	 "NCCL found no RDMA device and fell back to sockets",
	 LOGSIG_IB_FALLBACK,
	 "node1:812:812 [0] NCCL INFO NET/IB : No device found.", NULL},
	{"nccl-ibv-nomem", "NCCL", "src/misc/ibvwrap.cc IBV_*_CHECK_ERRNO",
	 "2.12-2.30", "failed with error Cannot allocate memory",
	 "Call to (ibv_[a-z_0-9]+) failed with error Cannot allocate memory",
	 "verb", "rdma-memlock", NULL,
	 "a verbs call could not pin memory: the memlock limit is too low",
	 0, "node1:812:850 [0] NCCL WARN Call to ibv_reg_mr failed with "
	 "error Cannot allocate memory", NULL},
	{"nccl-ib-async-port-error", "NCCL", "src/transport/net_ib.cc "
	 "ncclIbAsyncThreadMain", "2.4-2.30", "Got async ",
	 "NET/IB ?: ([^ ]+ )?Got async (error )?event ?: (port error)",
	 ",,event", "rdma-port-down", NULL,
	 "the RDMA port reported an error and went down under the job", 0,
	 "node1:812:860 [0] NCCL WARN NET/IB : Got async event : port "
	 "error", NULL},
	{"nccl-ib-completion-error", "NCCL", "src/transport/net_ib.cc "
	 "ncclIbTest (src/transport/net_ib/p2p.cc from 2.28)", "2.12-2.30",
	 "Got completion from peer",
	 "NET/IB[/A-Z]* ?: Got completion from peer ([^ ]+) with "
	 "(status=[^(]*\\(|error )([0-9]+)(.*localGid ([^ ]+) remoteGids? "
	 "([^ ]+))?", "peer,,wc_status,,local_gid,remote_gid", NULL,
	 "rdma-gid-index,rdma-gid-auto,rdma-netdev-netns,"
	 "rdma-fabric-mismatch",
	 "an RDMA work request failed: retry exceeded (12) most often "
	 "means a GID that does not route between the nodes", 0,
	 "node1:812:870 [0] NCCL WARN NET/IB: Got completion from peer "
	 "10.231.0.2<56789> with status=transport retry counter "
	 "exceeded(12) opcode=IBV_WC_SEND(0) vendor_err=129 localGid "
	 "::ffff:10.231.0.1 remoteGids ::ffff:10.231.0.2 hca mlx5_0", NULL},
	{"nccl-system-error", "NCCL", "src/misc/socket.cc, src/init.cc",
	 "2.12-2.30", "unhandled system error",
	 "unhandled system error.*NCCL version ([0-9.]+)", "version", NULL,
	 NCCL_SYSTEM_OPEN,
	 "a system call failed; NCCL_DEBUG=INFO says which", LOGSIG_SYMPTOM,
	 "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/"
	 "distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system "
	 "error (run with NCCL_DEBUG=INFO for details), NCCL version "
	 "2.21.5", NULL},
	{"nccl-remote-error", "NCCL", "src/include/nccl.h ncclRemoteError",
	 "2.13-2.30", "remote process exiting prematurely",
	 "remote process exiting prematurely", "", NULL,
	 "rank-unreachable,nccl-rank-unresponsive",
	 "a peer rank went away during a collective", LOGSIG_SYMPTOM,
	 "ncclRemoteError: A call failed possibly due to a network error or "
	 "a remote process exiting prematurely.", NULL},
	/* NCCL: facts, no cause by themselves. */
	{"nccl-version", "NCCL", "src/init.cc showVersion", "2.4-2.30",
	 "NCCL version ", "NCCL INFO NCCL version ([0-9]+\\.[0-9]+\\.[0-9]+)"
	 "(\\+cuda([0-9]+\\.[0-9]+))?", "nccl_version,,cuda_version", NULL,
	 NULL, "the NCCL and CUDA versions the job ran", LOGSIG_FACT,
	 "node1:812:812 [0] NCCL INFO NCCL version 2.21.5+cuda12.4", NULL},
	{"nccl-bootstrap-using", "NCCL", "src/bootstrap.cc bootstrapNetInit",
	 "2.4-2.30", "Using", "Bootstrap ?: Using ?(\\[?[0-9]*\\]?"
	 "([A-Za-z0-9_.@-]+):" NCCL_ADDR ".*)", "ifaces,iface,addr,port",
	 NULL, NULL,
	 "the interface NCCL's bootstrap chose",
	 LOGSIG_FACT | LOGSIG_LOCAL,
	 "node1:812:812 [0] NCCL INFO Bootstrap : Using eth0:10.231.0.1<0>", NULL},
	{"nccl-socket-using", "NCCL", "src/transport/net_socket.cc "
	 "ncclNetSocketInit", "2.4-2.30", "NET/Socket : Using",
	 "NET/Socket : Using ?(\\[[0-9]+\\]([A-Za-z0-9_.@-]+):" NCCL_ADDR
	 ".*)", "ifaces,iface,addr,port", NULL, NULL,
	 "the interfaces NCCL's socket transport chose (first shown)",
	 LOGSIG_FACT | LOGSIG_LOCAL,
	 "node1:812:812 [0] NCCL INFO NET/Socket : Using [0]eth0:"
	 "10.231.0.1<0>", NULL},
	{"nccl-ib-using", "NCCL", "src/transport/net_ib.cc ncclIbInit",
	 "2.12-2.30", "NET/IB : Using",
	 "NET/IB : Using ?\\[[0-9]+\\]([A-Za-z0-9_]+):([0-9]+)/"
	 "(IB|RoCE)", "ibdev,ibport,link_layer", NULL, NULL,
	 "the RDMA devices NCCL uses (first shown)", LOGSIG_FACT,
	 "node1:812:812 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]"
	 "mlx5_1:1/RoCE [RO]; OOB eth0:10.231.0.1<0>", NULL},
	{"nccl-env-echo", "NCCL", "src/misc/param.cc ncclLoadParam / "
	 "ncclGetEnv", "2.7-2.30 (2.4 echoed numbers only)",
	 " set by environment to ",
	 "(NCCL_[A-Z0-9_]+) set by environment to ([^ ]+)",
	 "setting_name,setting_value", NULL, NULL,
	 "a setting NCCL read from the environment", LOGSIG_FACT,
	 "node1:812:812 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment "
	 "to eth0", NULL},
	{"nccl-ib-plugin-failed", "NCCL", "src/plugin/net.cc "
	 "ncclNetPluginInit", "2.24-2.30", "Failed to initialize NET plugin",
	 "Failed to initialize NET plugin (IB|[A-Za-z_]+)", "plugin", NULL,
	 RDMA_OPEN,
	 "NCCL could not start its RDMA transport and fell back",
	 LOGSIG_IB_FALLBACK,
	 "vm:700:700 [0] NCCL INFO Failed to initialize NET plugin IB", NULL},
	{"nccl-using-network", "NCCL", "src/init.cc initTransportsRank",
	 "2.12-2.30", "Using network ", "NCCL INFO Using network "
	 "([A-Za-z_]+)", "transport", NULL, NULL,
	 "the network transport NCCL uses", LOGSIG_FACT,
	 "vm:700:700 [0] NCCL INFO Using network Socket", NULL},
	{"nccl-ras-client-listen", "NCCL", "src/ras/client_support.cc "
	 "rasClientInitSocket", "2.24-2.30", "RAS client listening socket",
	 "RAS client listening socket at " NCCL_ADDR, "ras_addr,ras_port",
	 NULL, NULL, "where the job's RAS service answers (--job)",
	 LOGSIG_FACT,
	 "vm:700:700 [0] NCCL INFO RAS client listening socket at "
	 "127.0.0.1<28028>", NULL},
	/* Gloo (pytorch/gloo; torch vendors it as third_party/gloo, so a
	 * form's torch range follows the gloo commit torch pins, which was
	 * not checked per torch tag: the ranges below are gloo's own, by
	 * commit). Gloo prints an address as [host]:port through
	 * gloo/transport/tcp/address.cc Address::str, which prints
	 * sin_port without ntohs: on a little-endian host the number is the
	 * real port with its two bytes swapped, so it is kept as
	 * port_netorder and never probed as a port. */
	{"gloo-connect-refused", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::handleConnecting (GLOO_ERROR_MSG \"connect \", peer_.str())",
	 "gloo c915f8d (2017-04) to 31b1f02 (2023-05)", "Connection refused",
	 "connect " GLOO_ADDR ": Connection refused", "addr,port_netorder",
	 "port-closed", NULL,
	 "nothing listened at the address a rank advertised", LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799]"
	 " connect [10.231.0.2]:28338: Connection refused", NULL},
	{"gloo-connect-timeout", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::handleConnecting", "gloo c915f8d (2017-04) to 31b1f02 "
	 "(2023-05)", "Connection timed out",
	 "connect " GLOO_ADDR ": Connection timed out", "addr,port_netorder",
	 NULL, "port-filtered,inbound-blocked,rank-unreachable",
	 "SYNs to a rank's advertised address got no answer", LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799]"
	 " connect [10.231.0.2]:28338: Connection timed out", NULL},
	{"gloo-connect-noroute", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::handleConnecting", "gloo c915f8d (2017-04) to 31b1f02 "
	 "(2023-05)", "connect [",
	 "connect " GLOO_ADDR ": (No route to host|Network is unreachable)",
	 "addr,port_netorder,err", "host-unreachable", NULL,
	 "no route toward a rank's advertised address", LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799]"
	 " connect [10.231.9.9]:28338: No route to host", NULL},
	/* From 31b1f02 (one listening socket per device) the connect is
	 * device.cc connectAsInitiator + helpers.h WriteValueOperation: a
	 * failed connect surfaces as the write of the sequence number,
	 * reported by Pair::connectCallback with error.what(), without the
	 * peer until 9578bb1 (2025-03) appended ", remote=". Still the form
	 * with GLOO_DISABLE_CONNECTION_RETRIES=1. */
	{"gloo-connect-write", "Gloo", "gloo/transport/tcp/helpers.h "
	 "WriteValueOperation (SystemError \"write\"), pair.cc "
	 "Pair::connectCallback", "gloo 31b1f02 (2023-05) to now",
	 "] write: ", "\\] write: ([A-Za-z ]+)(, remote=" GLOO_ADDR ")?",
	 "err,,addr,port_netorder", NULL,
	 "port-closed,port-filtered,inbound-blocked,host-unreachable",
	 "a rank's connect to a peer failed", LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:144]"
	 " write: Connection refused", NULL},
	/* From d2609ab (2025-03, connection retries) helpers.h
	 * ConnectOperation retries and then fails with a TimeoutError.
	 * torch's ProcessGroupGloo wraps both connect forms as "Gloo
	 * connectFullMesh failed with [file:line] ..." on one line. */
	{"gloo-connect-retries", "Gloo", "gloo/transport/tcp/helpers.h "
	 "ConnectOperation::handleEvents (TimeoutError)",
	 "gloo d2609ab (2025-03) to now", "timed out connecting: ",
	 "timed out connecting: SO_ERROR: ([A-Za-z ]+)(, remote="
	 GLOO_ADDR ")?", "err,,addr,port_netorder", NULL,
	 "port-closed,port-filtered,inbound-blocked,host-unreachable",
	 "a rank retried its connect to a peer until the timeout",
	 LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:144]"
	 " timed out connecting: SO_ERROR: Connection refused, "
	 "remote=[10.231.0.2]:28338", NULL},
	{"gloo-peer-closed", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::read (\"Connection closed by peer \")",
	 "gloo 045ce1c (2018-11) to now", "Connection closed by peer",
	 "Connection closed by peer " GLOO_ADDR, "addr,port_netorder",
	 NULL, NULL, "a peer rank closed its socket: the connection "
	 "existed, and the peer exited or aborted first",
	 LOGSIG_PEER | LOGSIG_SYMPTOM | LOGSIG_REACHED,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598]"
	 " Connection closed by peer [10.231.0.2]:49152", NULL},
	{"gloo-read-reset", "Gloo", "gloo/transport/tcp/pair.cc Pair::read "
	 "(\"Read error \")", "gloo f67ab32 (2017-04) to now",
	 "Connection reset by peer",
	 "Read error " GLOO_ADDR ": Connection reset by peer",
	 "addr,port_netorder", NULL, NULL,
	 "a peer rank reset the connection: it existed, and the peer "
	 "exited first", LOGSIG_PEER | LOGSIG_SYMPTOM | LOGSIG_REACHED,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:589]"
	 " Read error [10.231.0.2]:49152: Connection reset by peer", NULL},
	/* An established pair whose reads time out in the kernel (TCP gave
	 * up retransmitting): the peer host went away, a path that drops
	 * big segments (an MTU black hole), or a middlebox that forgot the
	 * flow. The line alone cannot tell which. */
	{"gloo-read-timeout", "Gloo", "gloo/transport/tcp/pair.cc Pair::read "
	 "(\"Read error \")", "gloo f67ab32 (2017-04) to now",
	 "Connection timed out",
	 "Read error " GLOO_ADDR ": Connection timed out",
	 "addr,port_netorder", NULL,
	 "rank-unreachable,mtu-blackhole,heartbeat-dropped",
	 "TCP gave up retransmitting on an established pair",
	 LOGSIG_REACHED,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:589]"
	 " Read error [10.231.0.2]:49152: Connection timed out", NULL},
	{"gloo-timeout", "Gloo", "gloo/transport/tcp/unbound_buffer.cc "
	 "UnboundBuffer::waitRecv/waitSend", "gloo 3dac0ef (2018-11) to now",
	 "Timed out waiting",
	 "Timed out waiting ([0-9]+)ms for (recv|send) operation", "ms,op",
	 NULL, "rank-unreachable,nccl-rank-unresponsive",
	 "a Gloo operation waited longer than its timeout: a peer hung or "
	 "was cut off", LOGSIG_SYMPTOM,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/"
	 "unbound_buffer.cc:81] Timed out waiting 1800000ms for recv "
	 "operation to complete", NULL},
	{"gloo-no-address", "Gloo", "gloo/transport/tcp/device.cc "
	 "lookupAddrForIface (GLOO_ENFORCE ifa != nullptr)",
	 "gloo 7def89c (2017-08) to now", "Unable to find address for: ",
	 "(ifa != nullptr|false)\\. Unable to find address for: ([^ ]+)",
	 ",setting_gloo_ifname",
	 NULL, NULL, "GLOO_SOCKET_IFNAME names no interface with an address",
	 0, "RuntimeError: [enforce fail at ../third_party/gloo/gloo/"
	 "transport/tcp/device.cc:83] ifa != nullptr. Unable to find address "
	 "for: ^lo", NULL},
	/* lookupAddrForHostname's getaddrinfo found nothing: the hostname
	 * does not resolve (no code of the catalogue names it; the fix is
	 * /etc/hosts or DNS, or GLOO_SOCKET_IFNAME so the name is not
	 * needed). Read at gloo HEAD, device.cc:138. */
	{"gloo-hostname-unresolved", "Gloo", "gloo/transport/tcp/device.cc "
	 "lookupAddrForHostname (GLOO_ENFORCE rp != nullptr)",
	 "gloo 2017 to now", "rp != nullptr. Unable to find address for: ",
	 "rp != nullptr\\. Unable to find address for: ([^ ]+)", "host",
	 NULL, NULL, "the hostname does not resolve: add it to /etc/hosts or "
	 "DNS, or set GLOO_SOCKET_IFNAME so Gloo does not need it", 0,
	 "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/"
	 "tcp/device.cc:138] rp != nullptr. Unable to find address for: "
	 "node3", NULL},
	{"gloo-socket-closed", "Gloo", "gloo/transport/tcp/pair.cc "
	 "(\"Socket closed \")", "gloo 2019 to now", "Socket closed [",
	 "Socket closed " GLOO_ADDR, "addr,port_netorder", NULL, NULL,
	 "the pair's socket was closed: an earlier error or a peer that "
	 "exited", LOGSIG_PEER | LOGSIG_SYMPTOM | LOGSIG_REACHED,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:812] "
	 "Socket closed [10.231.0.2]:41234", NULL},
	/* The hostname the rank resolved is not an address of this host:
	 * bind(2) to it fails. The address is printed with port 0, which
	 * Address::str leaves out: "[10.231.7.7]". */
	{"gloo-hostname-bind", "Gloo", "gloo/transport/tcp/device.cc "
	 "lookupAddrForHostname (GLOO_ENFORCE bind_rv == 0)",
	 "gloo 1ff2d84 (2019-07) to now", "; bind(2) for ",
	 "Unable to find address for ([^ ;]+); bind\\(2\\) for "
	 "\\[([^]]+)\\](:[0-9]+)? failed with: ([A-Za-z ]+)",
	 "host,addr,,err",
	 "hostname-unbindable", NULL,
	 "the hostname resolves to an address this host does not have", 0,
	 "RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/"
	 "tcp/device.cc:128] bind_rv == 0. Unable to find address for node1; "
	 "bind(2) for [10.231.7.7] failed with: Cannot assign requested "
	 "address", NULL},
	/* torch (c10d, elastic). socket.cpp prints an address through
	 * formatSockAddr: host:port for IPv4, [host]:port for IPv6 (older
	 * releases bracketed IPv4 too, "[localhost]:29500"; when that
	 * changed was not checked); the error as (errno: N - text). In the
	 * source read (main), SocketConnectOp retries ECONNREFUSED and
	 * ECONNRESET without a warning (C10D_TRACE), so a refused store
	 * shows only as the timeout below, or as the INFO line with
	 * TORCH_CPP_LOG_LEVEL=INFO. The torch lower bounds of this block
	 * were not checked per tag (socket.cpp is the c10d socket layer
	 * from about torch 1.11). */
	{"torch-store-connect-failed", "torch",
	 "torch/csrc/distributed/c10d/socket.cpp SocketConnectOp::tryConnect"
	 " (recordError)", "torch 1.11-2.9", "client socket has failed to "
	 "connect to ", "client socket has failed to connect to (\\[([^]]+)"
	 "\\]|([^ :(]+)):([0-9]+) \\((errno|system error): ([0-9]+) - "
	 "([A-Za-z ]+)", ",addr,addr,port,,errno,err", NULL, NULL,
	 "the TCPStore client could not reach MASTER_ADDR:MASTER_PORT",
	 LOGSIG_PEER,
	 "[W socket.cpp:697] [c10d] The client socket has failed to connect "
	 "to [10.231.9.1]:29500 (errno: 113 - No route to host).", NULL},
	{"torch-store-not-listening", "torch",
	 "torch/csrc/distributed/c10d/socket.cpp SocketConnectOp::tryConnect"
	 " (C10D_INFO, every 30 s)", "torch 2.x (lower bound not checked)", "is listening yet",
	 "No socket on \\(([^,]+), ([0-9]+)\\) is listening yet, will retry",
	 "addr,port", "port-closed", NULL,
	 "connects to the store were refused or reset: nothing listened "
	 "on its port",
	 LOGSIG_PEER,
	 "[I socket.cpp:774] [c10d] No socket on (10.231.0.1, 29500) is "
	 "listening yet, will retry.", NULL},
	{"torch-store-timeout", "torch",
	 "torch/csrc/distributed/c10d/socket.cpp "
	 "SocketConnectOp::throwTimeoutError", "torch 1.11-2.9",
	 "client socket has timed out",
	 "client socket has timed out after ([0-9]+)(ms|s|min) while trying "
	 "to connect to \\(([^,]+), ([0-9]+)\\)",
	 "timeout,timeout_unit,addr,port", NULL,
	 "port-closed,port-filtered,inbound-blocked,host-unreachable",
	 "the TCPStore client never reached MASTER_ADDR:MASTER_PORT",
	 LOGSIG_PEER,
	 "torch.distributed.DistNetworkError: The client socket has timed "
	 "out after 1800s while trying to connect to (10.231.0.1, 29500).", NULL},
	/* The libuv store backend (the default from torch 2.4). Both listen
	 * rows bind the wildcard address (AI_PASSIVE, or :: / 0.0.0.0), so
	 * the error is EADDRINUSE: a local process holds the port. No
	 * network cause of the catalogue follows from it, so the rows name
	 * none (they used to leave listener-loopback-only and
	 * hostname-unbindable open, which the line does not support). */
	{"torch-store-listen", "torch",
	 "torch/csrc/distributed/c10d/TCPStoreLibUvBackend.cpp "
	 "UvTcpServer::makeWithPort", "torch 2.3-2.9",
	 "failed to listen on any local network address. port: ",
	 "failed to listen on any local network address\\. port: "
	 "([0-9]+), useIpv6: [a-z]+, code: -?[0-9]+, name: "
	 "(EADDRINUSE|EADDRNOTAVAIL|EACCES)", "port,err", NULL, NULL,
	 "the TCPStore server could not listen on MASTER_PORT: another "
	 "process (often an earlier run) holds it", 0,
	 "torch.distributed.DistNetworkError: The server socket has failed "
	 "to listen on any local network address. port: 29500, useIpv6: "
	 "false, code: -98, name: EADDRINUSE, message: address already in "
	 "use", NULL},
	/* The socket.cpp store backend (the default before torch 2.4). */
	{"torch-store-bind", "torch",
	 "torch/csrc/distributed/c10d/socket.cpp SocketListenOp::tryListen "
	 "(recordError)", "torch 1.11-2.9",
	 "server socket has failed to bind to ",
	 "server socket has failed to bind to (\\[[^]]*\\]|[^ :]+):([0-9]+) "
	 "\\(errno: ([0-9]+) - ([A-Za-z ]+)\\)", ",port,errno,err", NULL,
	 NULL, "the TCPStore server could not bind MASTER_PORT: another "
	 "process (often an earlier run) holds it", 0,
	 "RuntimeError: The server socket has failed to listen on any local "
	 "network address. The server socket has failed to bind to [::]:29500"
	 " (errno: 98 - Address already in use). The server socket has "
	 "failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in "
	 "use).", NULL},
	/* WorkNCCL::checkTimeout builds c10::str(prefix, "Watchdog caught
	 * collective operation timeout: ", work, " ran for ", ms,
	 * " milliseconds before timing out."); the prefix is "[Rank N] ",
	 * written out in older releases and WorkNCCL::logPrefix() later, a
	 * function-local static: the N is the rank of the first WorkNCCL the
	 * process made, which for a subgroup may not be this group's rank.
	 * WorkNCCL's operator<< prints SeqNum, OpType, NumelIn, NumelOut,
	 * Timeout(ms). The regex also takes a longer bracketed prefix. */
	{"torch-nccl-watchdog", "torch",
	 "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp "
	 "ProcessGroupNCCL::WorkNCCL::checkTimeout", "torch 1.8-2.9 (SeqNum from 1.10)",
	 "Watchdog caught collective operation timeout",
	 "\\[[^]]*Rank ([0-9]+)\\] Watchdog caught collective operation "
	 "timeout: WorkNCCL\\((SeqNum=([0-9]+), )?OpType=([A-Z_]+).*Timeout"
	 "\\(ms\\)=([0-9]+)", "rank,,seq,op,timeout_ms", NULL,
	 "rank-unreachable,nccl-rank-unresponsive",
	 "a NCCL collective did not finish within the process group's "
	 "timeout: a symptom, a rank hung or was cut off", LOGSIG_SYMPTOM,
	 "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught "
	 "collective operation timeout: WorkNCCL(SeqNum=7, "
	 "OpType=ALLREDUCE, NumelIn=1048576, "
	 "NumelOut=1048576, Timeout(ms)=600000) ran for 600184 milliseconds "
	 "before timing out.", NULL},
	{"torch-elastic-store", "torch",
	 "torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py "
	 "_create_tcp_store / C10dRendezvousBackend._call_store",
	 "torch 1.9-2.9", "connection to the C10d store has failed",
	 "connection to the C10d store has failed", "", NULL,
	 "port-closed,port-filtered,host-unreachable",
	 "torchrun's rendezvous could not reach its store", 0,
	 "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError:"
	 " The connection to the C10d store has failed. See inner exception "
	 "for details.", NULL},
	/* No torch source prints this line: launch scripts and
	 * `python -m torch.utils.collect_env` ("PyTorch version: 2.4.1+cu124")
	 * do. Kept as a fact only. */
	{"torch-version", "torch", "torch/utils/collect_env.py "
	 "(\"PyTorch version: \") and launch scripts", "torch 1.8-2.9",
	 "orch ", "[Tt]orch[ =_-]+(version[: ]+)?"
	 "([0-9]+\\.[0-9]+\\.[0-9]+)(\\+cu([0-9]+))?",
	 ",torch_version,,cuda_tag", NULL, NULL, "the torch version",
	 LOGSIG_FACT, "PyTorch version: 2.4.1+cu124", NULL},
	/* Ray (ray-project/ray). */
	{"ray-node-dead", "Ray", "src/ray/gcs/gcs_node_manager.cc "
	 "GcsNodeManager::RemoveNodeFromCache (src/ray/gcs/gcs_server/"
	 "gcs_node_manager.cc RemoveNode in earlier releases), relayed to "
	 "drivers by python/ray/_private/worker.py",
	 "ray 2.0-2.5x (address form; ray 1.x printed \"node id X\" only; the "
	 "lower bound is from the forms seen, not a tag)",
	 "has been marked dead",
	 "node id:? ([0-9a-f]+)( and address: ([0-9a-fA-F.:]+))?.* has "
	 "been marked dead because the detector has missed too many "
	 "heartbeats", "node_id,,addr", NULL,
	 "inbound-blocked,nat-detected,container-bridge-nat,rank-unreachable",
	 "the head's health checks to a node failed: it was cut off, or "
	 "its raylet died", LOGSIG_PEER | LOGSIG_SYMPTOM,
	 "2026-11-20 10:00:05,001\tWARNING worker.py:2058 -- The node with "
	 "node id: 5f1e2d3c4b5a69788796a5b4c3d2e1f0 and address: 172.17.0.3 "
	 "and node name: 172.17.0.3 has been marked dead because the "
	 "detector has missed too many heartbeats from it. This can happen "
	 "when a \t(1) raylet crashes unexpectedly (OOM, etc.) ", NULL},
	{"ray-ip-mismatch", "Ray", "src/ray/gcs/gcs_client/"
	 "global_state_accessor.cc GetNodeToConnectForDriver (\"Connected to "
	 "GCS at\"; python/ray/_private/services.py said \"Redis\" before)",
	 "ray 1.0-2.5x", "but none of these match this node's IP",
	 "This node has an IP address of ([0-9a-fA-F.:]+), .*Connected to "
	 "(GCS|Redis) at ([0-9a-fA-F.:]+)", "addr,,gcs_addr", NULL,
	 "container-bridge-nat,nat-detected",
	 "the address Ray found for this node is not one the head sees",
	 LOGSIG_LOCAL,
	 "This node has an IP address of 172.17.0.2, and Ray expects this "
	 "IP address to be either the GCS address or one of the Raylet "
	 "addresses. Connected to GCS at 10.231.0.1 and found raylets at "
	 "10.231.0.1 but none of these match this node's IP 172.17.0.2.", NULL},
	{"ray-gcs-connect", "Ray", "src/ray/rpc/gcs_server/gcs_rpc_client.h "
	 "GcsRpcClient::GcsRpcClient, after channel_->WaitForConnected "
	 "(RAY_LOG WARNING, ERROR in later releases)",
	 "ray 2.x (range not pinned to tags)",
	 "Failed to connect to GCS",
	 "Failed to connect to GCS at address ([0-9A-Za-z_.-]+):([0-9]+) "
	 "within", "addr,port", NULL,
	 "port-closed,port-filtered,host-unreachable",
	 "a node could not reach the head's GCS port", LOGSIG_PEER,
	 "[2026-11-20 10:00:00,123 W 812 812] gcs_rpc_client.h:151: Failed "
	 "to connect to GCS at address 10.231.0.1:6379 within 5 seconds.", NULL},
	{"ray-start-address", "Ray", "python/ray/scripts/scripts.py start "
	 "(the head's \"Next steps\" hint)", "ray 1.0-2.5x",
	 "ray start --address",
	 "ray start --address=['\"]?([0-9a-fA-F.:]+):([0-9]+)", "addr,port",
	 NULL, NULL, "the head a Ray node joins (probed as a peer)",
	 LOGSIG_FACT | LOGSIG_PEER,
	 "  ray start --address='10.231.0.1:6379'", NULL},
	/* gRPC (Ray's transport): the chttp2 transport closes a connection
	 * whose keepalive ping went unanswered; the text is the failed
	 * RPC's status detail (grpcio prints it as details = "..."). Ray's
	 * own wrapping of the status was not checked, so the row matches the
	 * gRPC text alone. A silent drop of an idle flow by
	 * a NAT or firewall is one cause; a dead or frozen peer is another. */
	{"grpc-keepalive-timeout", "gRPC",
	 "src/core/ext/transport/chttp2/transport/chttp2_transport.cc "
	 "keepalive_watchdog_fired_locked", "grpc 1.x (client keepalive) to "
	 "now", "keepalive watchdog timeout", "keepalive watchdog timeout",
	 "", NULL, "heartbeat-dropped,rank-unreachable",
	 "a gRPC keepalive ping got no answer and the transport closed", 0,
	 "\tdetails = \"keepalive watchdog timeout\"", NULL},
	/* Open MPI (open-mpi/ompi, opal/mca/btl/tcp), read at the v2.0.0,
	 * v3.0.0, v3.1.0, v4.0.0, v4.1.0 and v5.0.0 tags. */
	{"ompi-btl-connect-old", "Open MPI",
	 "opal/mca/btl/tcp/btl_tcp_endpoint.c "
	 "mca_btl_tcp_endpoint_complete_connect (BTL_ERROR)", "2.0-3.0",
	 "mca_btl_tcp_endpoint_complete_connect",
	 "connect\\(\\) to ([0-9a-fA-F.:]+) failed: ([A-Za-z ]+) "
	 "\\(([0-9]+)\\)", "addr,err,errno", NULL, NULL,
	 "Open MPI's TCP transport tried an address the peer cannot reach",
	 0,
	 "[node1][[4242,1],0][btl_tcp_endpoint.c:796:"
	 "mca_btl_tcp_endpoint_complete_connect] connect() to 172.17.0.1 "
	 "failed: Connection refused (111)", NULL},
	/* From 3.1 the same failure is help-mpi-btl-tcp.txt
	 * [client connect fail]; its "Error:" line is a separate line. */
	{"ompi-btl-connect", "Open MPI",
	 "opal/mca/btl/tcp/btl_tcp_endpoint.c "
	 "mca_btl_tcp_endpoint_complete_connect + help-mpi-btl-tcp.txt "
	 "[client connect fail]", "3.1-5.0", "connect() to ",
	 "Message: +connect\\(\\) to ([0-9a-fA-F.:]+):([0-9]+) failed",
	 "addr,port", NULL, "port-filtered,inbound-blocked,mpi-btl-iface",
	 "Open MPI's TCP transport tried an address the peer cannot reach",
	 0, "  Message:    connect() to 172.17.0.1:1024 failed", NULL},
	{"ompi-btl-unknown-peer", "Open MPI",
	 "opal/mca/btl/tcp/help-mpi-btl-tcp.txt [server accept cannot find "
	 "guid] / [server cannot find endpoint]", "3.1-5.0",
	 "cannot find a corresponding",
	 "cannot find a corresponding (process|endpoint)", "", "mpi-btl-iface",
	 NULL,
	 "a TCP connection arrived from an address Open MPI does not know",
	 0, "another Open MPI process but cannot find a corresponding process", NULL},
	/* The openib BTL and its help file are gone in 5.0. */
	{"ompi-memlock", "Open MPI", "opal/mca/btl/openib/"
	 "help-mpi-btl-openib.txt [init-fail-no-mem]", "3.0-4.1",
	 "locked memory",
	 "allocate some locked memory", "", "rdma-memlock", NULL,
	 "Open MPI could not register memory: the memlock limit is low", 0,
	 "allocate some locked memory.  This typically can indicate that the", NULL},
	/* libibverbs and the kernel. */
	{"ibverbs-memlock", "libibverbs", "libibverbs/init.c check_memlock_limit",
	 "rdma-core 17-50", "RLIMIT_MEMLOCK is",
	 "RLIMIT_MEMLOCK is ([0-9]+) bytes", "memlock_bytes",
	 "rdma-memlock", NULL,
	 "the memlock limit is too low to register RDMA memory", 0,
	 "libibverbs: Warning: RLIMIT_MEMLOCK is 65536 bytes.", NULL},
	{"ibverbs-no-device", "libibverbs", "libibverbs/device.c "
	 "ibverbs_get_device_list", "rdma-core 17-50",
	 "no userspace device-specific driver found",
	 "no userspace device-specific driver found for ([^ ]+)", "path",
	 "rdma-ib-fallback", NULL,
	 "the RDMA device is there but its userspace driver is not", 0,
	 "libibverbs: Warning: no userspace device-specific driver found for"
	 " /sys/class/infiniband_verbs/uverbs0", NULL},
	{"kernel-neigh-overflow", "kernel", "net/core/neighbour.c "
	 "neigh_alloc", "linux 3.0-6.12", "table overflow",
	 "(arp_cache|ndisc_cache): neighbor table overflow",
	 "table", "neighbour-table-overflow", NULL,
	 "the neighbour (ARP/NDP) table is full: new peers go unresolved", 0,
	 "[12345.678901] neighbour: arp_cache: neighbor table overflow!", NULL},
	{"kernel-conntrack-full", "kernel", "net/netfilter/nf_conntrack_core.c "
	 "__nf_conntrack_alloc", "linux 3.0-6.12", "table full, dropping",
	 "nf_conntrack: table full, dropping packet", "",
	 "conntrack-table-full", NULL,
	 "the conntrack table is full: new connections are dropped", 0,
	 "[12345.678901] nf_conntrack: nf_conntrack: table full, dropping "
	 "packet", NULL},
	/* Older and rarer forms, and the lines of other frameworks (issue
	 * 32). NCCL 2.4-2.11 printed from src/include/socket.h and
	 * src/transport/net_ib.cc (src/misc/ibvwrap.cc for verbs). */
	{"nccl-socket-io-reset", "NCCL", "src/include/socket.h "
	 "socketProgressOpt (2.4-2.11), src/misc/socket.cc (2.12-2.30)",
	 "2.4-2.30", "failed : ",
	 "Call to (recv from|send to) " NCCL_ADDR " failed : (Connection "
	 "reset by peer|Broken pipe)", ",addr,port,err", NULL, NULL,
	 "a peer reset an established NCCL socket: it exited or aborted "
	 "first", LOGSIG_PEER | LOGSIG_SYMPTOM | LOGSIG_REACHED,
	 "node2:77:90 [1] NCCL WARN Net : Call to recv from 10.231.0.1<41234> "
	 "failed : Connection reset by peer", NULL},
	{"nccl-message-truncated-old", "NCCL", "src/transport/net_socket.cc "
	 "ncclSocketTest", "2.4-2.11", "message truncated : receiving",
	 "NET/Socket : message truncated : receiving ([0-9]+) bytes instead "
	 "of ([0-9]+)", "bytes,expected", NULL, "nccl-version-mismatch",
	 "ranks disagree on a message's size: mixed versions or settings",
	 LOGSIG_REACHED,
	 "node1:812:840 [0] NCCL WARN NET/Socket : message truncated : "
	 "receiving 1048576 bytes instead of 65536", NULL},
	{"nccl-ib-completion-old", "NCCL", "src/transport/net_ib.cc "
	 "ncclIbTest (\"Got completion with error %d, opcode %d, len %d, "
	 "vendor err %d\")", "2.4-2.11", "Got completion with error",
	 "NET/IB ?: Got completion with error ([0-9]+), opcode ([0-9]+), "
	 "(len [0-9]+, )?vendor err ([0-9]+)", "wc_status,opcode,,vendor_err",
	 NULL, "rdma-gid-index,rdma-gid-auto,rdma-netdev-netns,"
	 "rdma-fabric-mismatch",
	 "an RDMA work request failed: retry exceeded (12) most often "
	 "means a GID that does not route between the nodes", 0,
	 "node1:812:870 [0] NCCL WARN NET/IB : Got completion with error 12, "
	 "opcode 0, len 0, vendor err 129", NULL},
	{"nccl-ibv-qp-failed", "NCCL", "src/misc/ibvwrap.cc "
	 "wrap_ibv_modify_qp / wrap_ibv_create_ah", "2.4-2.30",
	 "Call to ibv_", "Call to (ibv_modify_qp|ibv_create_ah|ibv_query_gid) "
	 "failed with( error)? ([0-9]+ )?(Invalid argument|No such device|"
	 "Connection timed out|Network is unreachable)", "verb,,,err", NULL,
	 "rdma-gid-index,rdma-gid-auto,rdma-fabric-mismatch",
	 "a queue pair could not be moved to ready-to-receive: the GID or "
	 "the path the index selects is not usable", 0,
	 "node1:812:850 [0] NCCL WARN Call to ibv_modify_qp failed with error "
	 "Invalid argument", NULL},
	{"nccl-ib-async-other", "NCCL", "src/transport/net_ib.cc "
	 "ncclIbAsyncThreadMain", "2.4-2.30", "Got async",
	 "NET/IB ?: ([^ ]+ )?Got async (error )?event ?: (port active|GID "
	 "table change|LID change|client reregistration|[a-z ]+)", ",,event",
	 NULL, NULL, "an RDMA port event NCCL logged", LOGSIG_FACT,
	 "node1:812:860 [0] NCCL WARN NET/IB : Got async event : GID table "
	 "change", NULL},
	{"nccl-bind-in-use", "NCCL", "src/include/socket.h createListenSocket "
	 "SYSCHECK(bind) (2.4-2.11), src/misc/socket.cc ncclSocketListen",
	 "2.4-2.30", "Address already in use",
	 "(Call to bind|[Bb]ind) failed ?: Address already in use", "",
	 "port-in-use", NULL, "a listen socket could not bind its port: another process "
	 "held it (NCCL_COMM_ID's port on the root)", 0,
	 "node1:812:812 [0] NCCL WARN Call to bind failed : Address already "
	 "in use", NULL},
	{"nccl-plugin-none", "NCCL", "src/net.cc / src/plugin/net.cc "
	 "ncclNetPluginLoad", "2.4-2.30", "NET/Plugin",
	 "NET/Plugin ?: (No plugin found|Plugin load|Could not find|Loaded)",
	 "", NULL, NULL, "NCCL looked for a network plugin: normal "
	 "operation", LOGSIG_FACT,
	 "node1:812:812 [0] NCCL INFO NET/Plugin : No plugin found "
	 "(libnccl-net.so), using internal implementation", NULL},
	{"nccl-cuda-oom", "NCCL", "src/include/checks.h CUDACHECK", "2.4-2.30",
	 "out of memory'", "Cuda failure '(out of memory)'", "err", NULL,
	 NULL, "a CUDA allocation failed: the GPU is out of memory", 0,
	 "node1:812:812 [0] NCCL WARN Cuda failure 'out of memory'",
	 "gpu-oom"},
	{"nccl-unhandled-cuda", "NCCL", "src/include/nccl.h "
	 "ncclUnhandledCudaError", "2.4-2.30", "nhandled cuda error",
	 "[Uu]nhandled cuda error", "", NULL, NULL,
	 "a CUDA call failed inside NCCL: a GPU or driver fault", 0,
	 "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:825, unhandled "
	 "cuda error, NCCL version 2.7.8", "cuda-error"},
	{"nccl-invalid-usage", "NCCL", "src/include/nccl.h ncclInvalidUsage",
	 "2.4-2.30", "nvalid usage", "([Ii]nvalid usage|ncclInvalidUsage)",
	 "", NULL, NULL, "the program called NCCL wrongly (a rank on a GPU "
	 "another rank has, mismatched calls): a code bug", 0,
	 "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1191, invalid "
	 "usage, NCCL version 2.14.3", "code-bug"},
	{"nccl-duplicate-gpu", "NCCL", "src/init.cc initTransportsRank",
	 "2.4-2.30", "Duplicate GPU detected",
	 "Duplicate GPU detected : rank ([0-9]+) and rank ([0-9]+) both on "
	 "CUDA device ([0-9a-f]+)", "rank,rank,busid", NULL, NULL,
	 "two ranks use one GPU: the launch maps ranks to GPUs wrongly", 0,
	 "node1:812:812 [1] NCCL WARN Duplicate GPU detected : rank 1 and "
	 "rank 0 both on CUDA device 1000", "code-bug"},
	/* torch and Gloo, older and newer. */
	{"torch-store-listening", "torch", "torch/csrc/distributed/c10d/"
	 "socket.cpp SocketListenOp (C10D_INFO)", "torch 1.11-2.9",
	 "has started to listen on", "server socket has started to listen "
	 "on (\\[[^]]*\\]|[^ :]+):([0-9]+)", ",port", NULL, NULL,
	 "the TCPStore server listens", LOGSIG_FACT,
	 "[I socket.cpp:442] [c10d] The server socket has started to listen "
	 "on [::]:29500.", NULL},
	{"torch-addr-in-use-old", "torch", "torch/lib/c10d/TCPStore.cpp and "
	 "Python's socket.bind", "torch 1.0-1.10", "Address already in use",
	 "(RuntimeError|DistNetworkError|OSError|error)[^:]*: (\\[Errno 98\\] )"
	 "?Address already in use", ",", "port-in-use", NULL,
	 "the store could not bind MASTER_PORT: another process (often an "
	 "earlier run) holds it", 0, "RuntimeError: Address already in use",
	 NULL},
	{"torch-connect-timeout-old", "torch", "torch/lib/c10d/Utils.cpp "
	 "tcputil::connect", "torch 1.1-1.10", "connect() timed out",
	 "connect\\(\\) timed out\\. Original timeout was ([0-9]+) ms",
	 "timeout_ms", NULL,
	 "port-closed,port-filtered,inbound-blocked,host-unreachable",
	 "the TCPStore client never reached MASTER_ADDR:MASTER_PORT", 0,
	 "RuntimeError: connect() timed out. Original timeout was 1800000 "
	 "ms.", NULL},
	{"torch-store-barrier", "torch", "torch/distributed/"
	 "distributed_c10d.py _store_based_barrier", "torch 1.8-2.3",
	 "store based barrier", "Timed out initializing process group in "
	 "store based barrier on rank:? ?([0-9]+).*world_size=([0-9]+), "
	 "worker_count=([0-9]+)", "rank,world_size,worker_count", NULL,
	 "rank-unreachable",
	 "some ranks never reached the store: not started, or cut off",
	 LOGSIG_SYMPTOM,
	 "RuntimeError: Timed out initializing process group in store based "
	 "barrier on rank: 1, for key: store_based_barrier_key:1 "
	 "(world_size=2, worker_count=1, timeout=0:30:00)", NULL},
	{"torch-store-wait-clients", "torch", "torch/csrc/distributed/c10d/"
	 "TCPStore.cpp waitForWorkers", "torch 2.0-2.9",
	 "waiting for clients", "Timed out after ([0-9]+) seconds waiting "
	 "for clients\\. ([0-9]+)/([0-9]+) clients joined",
	 "timeout,joined,expected", NULL,
	 "port-filtered,inbound-blocked,rank-unreachable",
	 "the store on rank 0 waited for clients that never connected", 0,
	 "torch.distributed.DistStoreError: Timed out after 901 seconds "
	 "waiting for clients. 1/2 clients joined.", NULL},
	{"torch-socket-timeout-old", "torch", "torch/lib/c10d/Utils.hpp "
	 "recvBytes", "torch 1.0-1.10", "Socket Timeout",
	 "RuntimeError: Socket Timeout", "", NULL, "rank-unreachable",
	 "a store request waited past its timeout", LOGSIG_SYMPTOM,
	 "RuntimeError: Socket Timeout", NULL},
	{"torch-store-reset", "torch", "torch/csrc/distributed/c10d/"
	 "Utils.hpp recvBytes / sendBytes", "torch 1.0-2.9",
	 "Connection reset by peer", "(DistNetworkError|RuntimeError): "
	 "(Connection reset by peer|Broken pipe)", ",err", NULL, NULL,
	 "the store's connection was reset: the rank that held it exited",
	 LOGSIG_SYMPTOM, "torch.distributed.DistNetworkError: Connection "
	 "reset by peer", NULL},
	{"torch-nccl-abort", "torch", "torch/csrc/distributed/c10d/"
	 "ProcessGroupNCCL.cpp", "torch 1.8-2.9", "operations have failed or "
	 "timed out", "Some NCCL operations have failed or timed out", "",
	 NULL, NULL, "torch takes the process down after a failed "
	 "collective", LOGSIG_SYMPTOM,
	 "[E ProcessGroupNCCL.cpp:325] Some NCCL operations have failed or "
	 "timed out. Due to the asynchronous nature of CUDA kernels", NULL},
	{"torch-heartbeat-monitor", "torch", "torch/csrc/distributed/c10d/"
	 "ProcessGroupNCCL.cpp HeartbeatMonitor", "torch 2.2-2.9",
	 "Heartbeat monitor timed out", "Heartbeat monitor timed out", "",
	 NULL, NULL, "the watchdog itself stopped: it follows a hang",
	 LOGSIG_SYMPTOM, "[rank0]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 0] "
	 "Heartbeat monitor timed out! Process will be terminated", NULL},
	{"torch-remote-error", "torch", "torch/csrc/distributed/c10d/"
	 "NCCLUtils.cpp getNcclErrorDetailStr (ncclRemoteError)",
	 "torch 1.13-2.9", "remote process exited or there was a network",
	 "remote process exited or there was a network error", "", NULL,
	 "rank-unreachable,nccl-rank-unresponsive",
	 "a peer rank went away during a collective", LOGSIG_SYMPTOM,
	 "NCCL error in: ProcessGroupNCCL.cpp:1275, remote process exited or "
	 "there was a network error, NCCL version 2.14.3", NULL},
	{"torch-nccl-system-error", "torch", "torch/csrc/distributed/c10d/"
	 "NCCLUtils.cpp (ncclSystemError)", "torch 1.13-2.9",
	 "ncclSystemError", "ncclSystemError: System call", "", NULL,
	 NCCL_SYSTEM_OPEN, "a system call failed; NCCL_DEBUG=INFO says "
	 "which", LOGSIG_SYMPTOM, "ncclSystemError: System call (e.g. socket, "
	 "malloc) or external library call failed or device error.", NULL},
	{"torch-comm-aborted", "torch", "torch/csrc/distributed/c10d/"
	 "ProcessGroupNCCL.cpp", "torch 1.10-2.9", "communicator was aborted",
	 "NCCL communicator was aborted", "", NULL, NULL,
	 "the communicator was aborted after an earlier failure",
	 LOGSIG_SYMPTOM, "RuntimeError: NCCL communicator was aborted on rank "
	 "1.", NULL},
	{"torch-rdzv-timeout", "torch", "torch/distributed/elastic/"
	 "rendezvous/dynamic_rendezvous.py", "torch 1.9-2.9",
	 "RendezvousTimeoutError", "RendezvousTimeoutError", "", NULL,
	 "rank-unreachable", "not every node joined torchrun's rendezvous "
	 "in time", LOGSIG_SYMPTOM,
	 "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError",
	 NULL},
	{"thd-connect", "torch", "torch/lib/THD/base/ChannelUtils.cpp "
	 "connect (THD, the backend before c10d)", "torch 0.2-0.4", "THD",
	 "(Connection refused|Connection timed out|No route to host) at "
	 "[^ ]*THD", "err", NULL, NULL,
	 "the old THD backend could not connect to the master", 0,
	 "RuntimeError: Connection refused at /pytorch/torch/lib/THD/base/"
	 "ChannelUtils.cpp:174", NULL},
	/* Ray: the redis era (1.x) through gRPC's messages (2.x). */
	{"ray-redis-connect", "Ray", "redis-py connection.py _error_message "
	 "(Ray 1.x's GCS was Redis)", "ray 0.8-1.13", " connecting to ",
	 "Error ([0-9]+) connecting to ([0-9A-Za-z.:-]+):([0-9]+)\\. "
	 "([A-Za-z ]+)", "errno,addr,port,err", NULL, NULL,
	 "a node could not reach the head's Redis port", LOGSIG_PEER,
	 "redis.exceptions.ConnectionError: Error 111 connecting to "
	 "10.231.0.1:6379. Connection refused.", NULL},
	{"ray-redis-retries", "Ray", "python/ray/_private/services.py "
	 "wait_for_redis_to_start", "ray 0.8-1.13", "Unable to connect to "
	 "Redis at ", "Unable to connect to Redis at ([0-9A-Za-z.:-]+):"
	 "([0-9]+) after", "addr,port", NULL,
	 "port-closed,port-filtered,host-unreachable",
	 "a node retried the head's Redis port until it gave up",
	 LOGSIG_PEER, "ConnectionError: Unable to connect to Redis at "
	 "10.231.0.1:6379 after 12 retries.", NULL},
	{"ray-health-check", "Ray", "src/ray/gcs/gcs_server/"
	 "gcs_health_check_manager.cc", "ray 2.3-2.5x",
	 "Health check failed for node", "Health check failed for node "
	 "([0-9a-f]+), remaining checks ([0-9]+)", "node_id,remaining", NULL,
	 "inbound-blocked,nat-detected,container-bridge-nat,rank-unreachable",
	 "the GCS could not reach a node's raylet: cut off inbound, or the "
	 "raylet died", LOGSIG_SYMPTOM,
	 "[2026-11-20 10:01:00,000 W 77 77] gcs_health_check_manager.cc:108: "
	 "Health check failed for node 5f1e2d3c, remaining checks 0, status "
	 "UNAVAILABLE", NULL},
	{"grpc-connect-failed", "gRPC", "src/core/lib/iomgr/tcp_client_posix.cc"
	 " (Ray, JAX's coordination service)", "grpc 1.2x-1.6x", "ipv4:",
	 "ipv4:([0-9.]+):([0-9]+): (Failed to connect to remote host: )?"
	 "(Connection refused|Connection timed out|No route to host|Network "
	 "is unreachable)", "addr,port,,err", NULL, NULL,
	 "a gRPC channel could not connect to its peer", LOGSIG_PEER,
	 "status UNAVAILABLE: failed to connect to all addresses; last error:"
	 " UNKNOWN: ipv4:10.231.0.1:6379: Failed to connect to remote host: "
	 "Connection refused", NULL},
	{"grpc-all-addresses", "gRPC", "src/core/ext/filters/client_channel "
	 "(pick_first)", "grpc 1.2x-1.6x", "failed to connect to all "
	 "addresses", "failed to connect to all addresses", "", NULL,
	 "port-closed,port-filtered,host-unreachable",
	 "a gRPC channel found no address of its peer it could connect to",
	 0, "UNAVAILABLE: failed to connect to all addresses", NULL},
	{"ray-gcs-connect-plain", "Ray", "python/ray/_private/"
	 "gcs_utils.py / services.py", "ray 2.0-2.5x",
	 "Failed to connect to GCS", "Failed to connect to GCS( within "
	 "[0-9]+ seconds)?\\.", "", NULL,
	 "port-closed,port-filtered,host-unreachable",
	 "a node could not reach the head's GCS", 0,
	 "Failed to connect to GCS. Please check `gcs_server.out` for more "
	 "details.", NULL},
	{"ray-client-timeout", "Ray", "python/ray/util/client/worker.py",
	 "ray 1.2-2.5x", "ray client connection timeout",
	 "ray client connection timeout", "", NULL,
	 "port-closed,port-filtered,host-unreachable",
	 "the Ray client could not reach the head's client port (10001)", 0,
	 "ConnectionError: ray client connection timeout", NULL},
	{"ray-actor-died", "Ray", "python/ray/exceptions.py RayActorError",
	 "ray 1.0-2.5x", "died unexpectedly", "(actor|worker|raylet) died "
	 "unexpectedly", "", NULL, NULL, "a Ray process died; why is in its "
	 "own log", LOGSIG_SYMPTOM, "ray.exceptions.RayActorError: The actor "
	 "died unexpectedly before finishing this task.", NULL},
	{"ray-oom", "Ray", "python/ray/exceptions.py OutOfMemoryError "
	 "(memory monitor)", "ray 2.2-2.5x", "running low on memory",
	 "running low on memory", "", NULL, NULL,
	 "Ray's memory monitor killed a task: the node ran out of memory", 0,
	 "ray.exceptions.OutOfMemoryError: Task was killed due to the node "
	 "running low on memory.", "host-oom"},
	/* Open MPI's runtime (ORTE 1.x-4.x, PRRTE 5.x) and TCP BTL. */
	{"ompi-orte-start", "Open MPI", "orte/mca/plm/base/help-plm-base.txt "
	 "[no-local-orted]/[orted-failed]", "1.6-4.1",
	 "unable to reliably start one or more daemons",
	 "(ORTE|PRTE) was unable to reliably start one or more daemons", "",
	 NULL, "inbound-blocked,port-filtered,host-unreachable",
	 "mpirun's daemons could not call back: a firewall, no route, or "
	 "ssh and library trouble", 0,
	 "ORTE was unable to reliably start one or more daemons.", NULL},
	{"ompi-lost-daemon", "Open MPI", "orte/mca/errmgr "
	 "help-errmgr-base.txt [node-died]", "1.6-5.0",
	 "lost communication with a remote daemon",
	 "(ORTE|PRTE) has lost communication with a remote daemon", "", NULL,
	 "rank-unreachable", "mpirun lost a node's daemon: it died or was "
	 "cut off", LOGSIG_SYMPTOM,
	 "ORTE has lost communication with a remote daemon.", NULL},
	{"ompi-oob-connect", "Open MPI", "orte/mca/oob/tcp/"
	 "oob_tcp_connection.c mca_oob_tcp_peer_complete_connect",
	 "1.8-4.1", "tcp_peer_complete_connect: connection failed",
	 "tcp_peer_complete_connect: connection failed: ([A-Za-z ]+) "
	 "\\(([0-9]+)\\)", "err,errno", NULL, NULL,
	 "an ORTE daemon could not connect to another", 0,
	 "[node1:01234] [[4242,0],1] tcp_peer_complete_connect: connection "
	 "failed: Connection refused (111) - retrying", NULL},
	{"ompi-btl-readv", "Open MPI", "opal/mca/btl/tcp/btl_tcp_frag.c "
	 "mca_btl_tcp_frag_recv", "2.0-5.0", "readv failed",
	 "mca_btl_tcp_frag_recv: readv failed: ([A-Za-z ]+) \\(([0-9]+)\\)",
	 "err,errno", NULL, NULL, "a peer's TCP connection broke: the peer "
	 "exited first", LOGSIG_SYMPTOM,
	 "[node1][[4242,1],0][btl_tcp_frag.c:241:mca_btl_tcp_frag_recv] "
	 "mca_btl_tcp_frag_recv: readv failed: Connection reset by peer "
	 "(104)", NULL},
	{"ompi-shm-space", "Open MPI", "opal/mca/shmem/mmap/"
	 "help-opal-shmem-mmap.txt [target full]", "1.8-5.0",
	 "not enough space for", "not enough space for ([^ ]+) \\(the "
	 "shared-memory backing", "path", "shm-small", NULL,
	 "/dev/shm could not hold Open MPI's shared-memory segment", 0,
	 "It appears as if there is not enough space for /dev/shm/"
	 "vader_segment.node1.0 (the shared-memory backing file).", NULL},
	/* Horovod (runner and core). */
	{"horovod-shutdown", "Horovod", "horovod/common/operations.cc "
	 "(SHUT_DOWN_ERROR)", "0.16-0.28", "Horovod has been shut down",
	 "Horovod has been shut down", "", NULL, NULL,
	 "a rank raised an error or exited and Horovod stopped", LOGSIG_SYMPTOM,
	 "horovod.common.exceptions.HorovodInternalError: Horovod has been "
	 "shut down. This was caused by an exception on one of the ranks",
	 NULL},
	{"horovod-exit", "Horovod", "horovod/runner/launch.py / "
	 "gloo_run.py", "0.20-0.28", "exited with non-zero status",
	 "processes exited with non-zero status", "", NULL, NULL,
	 "a Horovod rank exited with an error", LOGSIG_SYMPTOM,
	 "Horovod detected that one or more processes exited with non-zero "
	 "status, thus causing the job to be terminated.", NULL},
	{"horovod-driver-unreachable", "Horovod", "horovod/runner/common/util/"
	 "network.py (NoValidAddressesFound)", "0.20-0.28",
	 "unable to connect to horovod driver service",
	 "unable to connect to horovod driver service", "", NULL,
	 "inbound-blocked,port-filtered,no-usable-interface",
	 "the tasks could not reach horovodrun's driver on any address", 0,
	 "NoValidAddressesFound: Horovod was unable to connect to horovod "
	 "driver service on any of the following addresses", NULL},
	{"horovod-no-common-iface", "Horovod", "horovod/runner/driver/"
	 "driver_service.py", "0.20-0.28", "common task-to-task",
	 "Unable to find a set of common task-to-task communication "
	 "interfaces", "", NULL, "no-usable-interface,inbound-blocked",
	 "the hosts share no interface name that routes between them", 0,
	 "RuntimeError: Unable to find a set of common task-to-task "
	 "communication interfaces: []", NULL},
	{"horovod-stall", "Horovod", "horovod/common/stall_inspector.cc",
	 "0.16-0.28", "subset of ranks", "submitted to be reduced, gathered "
	 "or broadcasted by subset of ranks", "", NULL, NULL,
	 "some ranks submitted a tensor the others did not", LOGSIG_SYMPTOM,
	 "One or more tensors were submitted to be reduced, gathered or "
	 "broadcasted by subset of ranks and are waiting for remainder of "
	 "ranks for more than 60 seconds.", NULL},
	/* JAX / XLA's coordination service (over gRPC). */
	{"jax-barrier-timeout", "JAX", "xla/tsl/distributed_runtime/"
	 "coordination/coordination_service.cc", "jax 0.4.x",
	 "Barrier timed out", "Barrier timed out", "", NULL,
	 "rank-unreachable", "not every task reached the coordinator's "
	 "barrier: not started, or cut off", LOGSIG_SYMPTOM,
	 "jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier "
	 "timed out. Barrier_id: PjRT_Client_Connect", NULL},
	{"jax-missing-heartbeats", "JAX", "xla/tsl/distributed_runtime/"
	 "coordination/coordination_service_agent.cc", "jax 0.4.x",
	 "missing heartbeats", "detected missing heartbeats", "", NULL,
	 "rank-unreachable,heartbeat-dropped", "the coordinator stopped "
	 "hearing from a task", LOGSIG_SYMPTOM,
	 "Terminating process because the coordinator detected missing "
	 "heartbeats.", NULL},
	/* Launchers: ssh (pdsh, DeepSpeed, mpirun), DeepSpeed's. */
	{"ssh-connect", "ssh", "openssh sshconnect.c ssh_connect_direct",
	 "openssh 5-9", "ssh: connect to host ",
	 "ssh: connect to host ([^ ]+) port ([0-9]+): ([A-Za-z ]+)",
	 "addr,port,err", NULL, NULL,
	 "the launcher's ssh could not reach a node", LOGSIG_PEER,
	 "ssh: connect to host 10.231.0.2 port 22: Connection timed out",
	 NULL},
	{"pdsh-ssh-exit", "pdsh", "pdsh src/modules/sshcmd.c", "pdsh 2.x",
	 "ssh exited with exit code",
	 "([^ :]+): ssh exited with exit code ([0-9]+)", "host,code", NULL,
	 NULL, "pdsh's ssh to a node failed; the line above says why",
	 LOGSIG_SYMPTOM, "pdsh@node1: node2: ssh exited with exit code 255",
	 NULL},
	{"ssh-auth", "ssh", "openssh sshconnect2.c / sshconnect.c",
	 "openssh 5-9", "ermission denied (",
	 "Permission denied \\((publickey|password)", "method", NULL, NULL,
	 "ssh reached the node and was refused the login", 0,
	 "node2: Permission denied (publickey,password).", "ssh-auth"},
	{"ssh-hostkey", "ssh", "openssh sshconnect.c check_host_key",
	 "openssh 5-9", "Host key verification failed",
	 "Host key verification failed", "", NULL, NULL,
	 "ssh reached the node and refused its host key", 0,
	 "Host key verification failed.", "ssh-auth"},
	{"deepspeed-killed", "DeepSpeed", "deepspeed/launcher/launch.py "
	 "sigkill_handler", "0.3-0.14", "exits with return code = -9",
	 "exits with return code = -9([^0-9]|$)", "", NULL, NULL,
	 "a rank was killed with SIGKILL: most often the host's OOM killer",
	 0, "[ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', "
	 "'-u', 'train.py'] exits with return code = -9", "process-killed"},
	{"torchrun-sigkill", "torch", "torch/distributed/elastic/multiprocessing"
	 "/api.py", "torch 1.9-2.9", "Signal 9 (SIGKILL) received",
	 "Signal 9 \\(SIGKILL\\) received by PID ([0-9]+)", "pid", NULL, NULL,
	 "torchrun's child was killed with SIGKILL: most often the host's "
	 "OOM killer", 0, "torch.distributed.elastic.multiprocessing.api:"
	 "Signal 9 (SIGKILL) received by PID 4242", "process-killed"},
	/* UCX (Open MPI's and others' transport). */
	{"ucx-connect", "UCX", "src/ucs/sys/sock.c ucs_socket_connect",
	 "ucx 1.9-1.17", "dest_addr=", "connect\\(fd=[0-9]+, dest_addr="
	 "([0-9a-fA-F.:]+):([0-9]+)\\) failed: ([A-Za-z ]+)",
	 "addr,port,err", NULL, NULL, "UCX's TCP connect to a peer failed",
	 LOGSIG_PEER, "[1700000000.123456] [node1:4242:0] sock.c:325 UCX "
	 "ERROR connect(fd=31, dest_addr=10.231.0.2:43567) failed: "
	 "Connection refused", NULL},
	{"ucx-ib-retry-exceeded", "UCX", "src/uct/ib/mlx5/ib_mlx5_log.c",
	 "ucx 1.9-1.17", "retry count exceeded on",
	 "(Transport|RNR) retry count exceeded on ([a-z0-9_]+):([0-9]+)",
	 ",ibdev,ibport", NULL, "rdma-gid-index,rdma-gid-auto,"
	 "rdma-netdev-netns,rdma-fabric-mismatch",
	 "an RDMA send was retried until UCX gave up: the GID or the "
	 "fabric path", 0, "[node1:4242:0:4242] ib_mlx5_log.c:177 Transport "
	 "retry count exceeded on mlx5_0:1/RoCE (synd 0x15 vend 0x81 "
	 "hw_synd 0/0)", NULL},
	{"ucx-memlock", "UCX", "src/uct/ib/base/ib_iface.c / ib_md.c",
	 "ucx 1.9-1.17", "failed: Cannot allocate memory",
	 "(ibv_create_cq|ibv_reg_mr|ibv_create_qp|ibv_create_srq)[^ ]* "
	 "failed: Cannot allocate memory", "verb", "rdma-memlock", NULL,
	 "UCX could not pin memory: the memlock limit is too low", 0,
	 "ib_iface.c:744 UCX ERROR ibv_create_cq(cqe=4096) failed: Cannot "
	 "allocate memory", NULL},
	/* GPU, driver and host faults that are not the network. */
	{"cuda-oom", "torch", "c10/cuda/CUDACachingAllocator.cpp",
	 "torch 1.0-2.9", "out of memory",
	 "(CUDA|cuda|GPU|HIP)[^\\n]*out of memory", "", NULL, NULL,
	 "a GPU ran out of memory", 0, "torch.cuda.OutOfMemoryError: CUDA "
	 "out of memory. Tried to allocate 2.00 GiB", "gpu-oom"},
	{"host-oom", "kernel", "mm/oom_kill.c oom_kill_process",
	 "linux 3.0-6.12", "ut of memory: Kill",
	 "[Oo]ut of memory: Kill(ed)? process ([0-9]+)", ",pid", NULL, NULL,
	 "the kernel's OOM killer killed a process", 0,
	 "[ 812.345678] Out of memory: Killed process 4242 (python) "
	 "total-vm:123456kB", "host-oom"},
	{"cuda-driver-insufficient", "CUDA", "CUDA runtime "
	 "cudaErrorInsufficientDriver", "CUDA 9-13",
	 "driver version is insufficient",
	 "driver version is insufficient for CUDA runtime version", "", NULL,
	 NULL, "the CUDA runtime is newer than the driver supports", 0,
	 "RuntimeError: CUDA error: CUDA driver version is insufficient for "
	 "CUDA runtime version", "driver-mismatch"},
	{"nvml-mismatch", "NVML", "libnvidia-ml nvmlInit",
	 "driver 390-580", "Driver/library version mismatch",
	 "Driver/library version mismatch", "", NULL, NULL,
	 "the loaded kernel driver and the user-space driver differ", 0,
	 "Failed to initialize NVML: Driver/library version mismatch",
	 "driver-mismatch"},
	{"torch-driver-old", "torch", "c10/cuda/CUDAFunctions.cpp",
	 "torch 1.0-2.9", "driver on your system is too old",
	 "NVIDIA driver on your system is too old", "", NULL, NULL,
	 "the driver is older than torch's CUDA needs", 0,
	 "RuntimeError: The NVIDIA driver on your system is too old (found "
	 "version 10020).", "driver-mismatch"},
	{"cuda-system-not-ready", "CUDA", "CUDA runtime "
	 "cudaErrorSystemNotReady", "CUDA 10-13", "system not yet initialized",
	 "system not yet initialized", "", NULL, NULL,
	 "CUDA is not ready: on NVSwitch systems the fabric manager is not "
	 "running", 0, "RuntimeError: CUDA error: system not yet initialized",
	 "fabric-manager"},
	{"fabric-manager", "NVIDIA", "nvidia-fabricmanager service",
	 "fabricmanager 450-580", "abric",
	 "[Ff]abric ?[Mm]anager.*([Ff]ail|[Ee]rror|not running|inactive)",
	 "", NULL, NULL, "NVIDIA's fabric manager failed: the GPUs of an "
	 "NVSwitch system cannot talk", 0,
	 "nvidia-fabricmanager.service: Failed with result 'exit-code'.",
	 "fabric-manager"},
	{"nvrm-xid", "NVIDIA", "the kernel driver (NVRM)", "driver 390-580",
	 "NVRM: Xid", "NVRM: Xid \\(([^)]*)\\): ([0-9]+)", "pci,xid", NULL,
	 NULL, "the GPU driver reported a GPU fault (Xid)", 0,
	 "[ 9876.5] NVRM: Xid (PCI:0000:3b:00): 79, pid=4242, GPU has "
	 "fallen off the bus.", "gpu-xid"},
	{"cuda-device-assert", "torch", "CUDA kernels (device-side assert)",
	 "torch 1.0-2.9", "device-side assert triggered",
	 "device-side assert triggered", "", NULL, NULL,
	 "a kernel's assertion failed: a code or data bug", 0,
	 "RuntimeError: CUDA error: device-side assert triggered",
	 "code-bug"},
	{"cuda-illegal-access", "CUDA", "cudaErrorIllegalAddress",
	 "CUDA 9-13", "illegal memory access",
	 "illegal memory access", "", NULL, NULL,
	 "a kernel read or wrote memory it does not own: a code bug", 0,
	 "RuntimeError: CUDA error: an illegal memory access was "
	 "encountered", "code-bug"},
	{"torch-device-mismatch", "torch", "aten (TensorIterator)",
	 "torch 1.5-2.9", "Expected all tensors to be on the same device",
	 "Expected all tensors to be on the same device", "", NULL, NULL,
	 "tensors on different devices: a code bug", 0,
	 "RuntimeError: Expected all tensors to be on the same device, but "
	 "found at least two devices, cuda:0 and cpu!", "code-bug"},
	{"torch-shape", "torch", "aten (matmul, load_state_dict)",
	 "torch 1.0-2.9", "shapes cannot be multiplied",
	 "shapes cannot be multiplied", "", NULL, NULL,
	 "tensor shapes do not fit: a code bug", 0,
	 "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 "
	 "and 256x10)", "code-bug"},
	{"py-type-error", "Python", "a Python exception", "python 3",
	 "TypeError: ", "(^|[^A-Za-z])TypeError: ", "", NULL, NULL,
	 "the program raised TypeError: a code bug", 0,
	 "TypeError: forward() got an unexpected keyword argument 'mask'",
	 "code-bug"},
	{"py-attribute-error", "Python", "a Python exception", "python 3",
	 "AttributeError: ", "(^|[^A-Za-z])AttributeError: ", "", NULL, NULL,
	 "the program raised AttributeError: a code bug", 0,
	 "AttributeError: 'NoneType' object has no attribute 'shape'",
	 "code-bug"},
	{"py-key-error", "Python", "a Python exception", "python 3",
	 "KeyError: ", "(^|[^A-Za-z])KeyError: ", "", NULL, NULL,
	 "the program raised KeyError: a code bug", 0,
	 "KeyError: 'input_ids'", "code-bug"},
	{"py-index-error", "Python", "a Python exception", "python 3",
	 "IndexError: ", "(^|[^A-Za-z])IndexError: ", "", NULL, NULL,
	 "the program raised IndexError: a code bug", 0,
	 "IndexError: list index out of range", "code-bug"},
	{"py-name-error", "Python", "a Python exception", "python 3",
	 "NameError: ", "(^|[^A-Za-z])NameError: ", "", NULL, NULL,
	 "the program raised NameError: a code bug", 0,
	 "NameError: name 'model' is not defined", "code-bug"},
	{"py-value-error", "Python", "a Python exception", "python 3",
	 "ValueError: ", "(^|[^A-Za-z])ValueError: ", "", NULL, NULL,
	 "the program raised ValueError: a code or configuration bug", 0,
	 "ValueError: too many values to unpack (expected 2)", "code-bug"},
	{"py-assertion-error", "Python", "a Python exception", "python 3",
	 "AssertionError", "(^|[^A-Za-z])AssertionError", "", NULL, NULL,
	 "the program's own assertion failed: a code bug", 0,
	 "AssertionError: batch size must divide world size", "code-bug"},
	{"py-import-error", "Python", "a Python exception", "python 3",
	 "Error: No module named", "(ModuleNotFoundError|ImportError): No "
	 "module named", "", NULL, NULL, "a module is missing from the "
	 "environment", 0, "ModuleNotFoundError: No module named 'apex'",
	 "code-bug"},
	/* The kernel: a NIC's link, and ping's answers pasted with a log. */
	{"kernel-link-down", "kernel", "drivers/net (mlx5_core, ixgbe, i40e, "
	 "ice, bnxt_en ... netif_carrier_off messages)", "linux 3.0-6.12",
	 "Link down", "([A-Za-z0-9_.-]+): Link down", "iface",
	 "interface-down", NULL, "a NIC lost its link during the job", 0,
	 "[ 4242.1] mlx5_core 0000:3b:00.0 ens1f0np0: Link down", NULL},
	{"ping-frag-needed", "ping", "iputils ping (ICMP fragmentation "
	 "needed)", "iputils 2010-2024", "Frag needed and DF set",
	 "From ([^ ]+).*Frag needed and DF set \\(mtu = ([0-9]+)\\)",
	 "hop,mtu", "mtu-mismatch", NULL,
	 "a hop on the path has a smaller MTU than the packets sent", 0,
	 "From 10.231.0.254 icmp_seq=1 Frag needed and DF set (mtu = 1450)",
	 NULL},
	{"ping-msg-too-long", "ping", "iputils ping (EMSGSIZE)",
	 "iputils 2010-2024", "message too long, mtu",
	 "local error: [Mm]essage too long, mtu=([0-9]+)", "mtu",
	 "mtu-mismatch", NULL,
	 "this interface's MTU is below the size the path was meant to "
	 "carry", 0, "ping: local error: message too long, mtu=1500", NULL},
	{"ping-reply", "ping", "iputils ping", "iputils 2010-2024",
	 "icmp_seq=", "([0-9]+) bytes from [^ ]+( \\([^)]*\\))?: icmp_seq=",
	 "bytes", NULL, NULL, "a ping of that size was answered",
	 LOGSIG_FACT, "8980 bytes from 10.231.0.2: icmp_seq=1 ttl=64 "
	 "time=0.31 ms", NULL},
	/* Read from the public threads of issue 32's sources: forms users
	 * paste that the rows above missed. */
	{"nccl-connect-aborted", "NCCL", "src/misc/socket.cc "
	 "socketStartConnect (ECONNABORTED from its error path)",
	 "2.18-2.23", "Software caused connection abort",
	 "[Cc]onnect to " NCCL_ADDR " failed : Software caused connection "
	 "abort", "addr,port", NULL, "port-closed,port-filtered,rank-unreachable",
	 "NCCL's error handling (fixed in 2.24) reports an earlier failure "
	 "as an aborted connect: the first WARN, or a peer's log, holds the "
	 "cause", LOGSIG_SYMPTOM | LOGSIG_PEER,
	 "n1:39964:40075 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: "
	 "Connect to 10.231.0.2<45763> failed : Software caused connection "
	 "abort", NULL},
	{"nccl-collective-mismatch", "NCCL", "src/transport/net_ib.cc "
	 "(p2p.cc from 2.28) ncclIbTest (\"local size %d remote %d\" "
	 "before 2.14)", "2.4-2.30",
	 "collective mismatch error",
	 "collective mismatch error,? local size ([0-9]+) remote (size )?"
	 "([0-9]+)", "local_size,,remote_size", NULL, NULL,
	 "two ranks called different collectives or sizes: a code bug", 0,
	 "n1:1:9 [0] NCCL WARN NET/IB : req 0/1 tag 7 peer 10.231.0.2<3456> "
	 "collective mismatch error, local size 1048576 remote size 524288",
	 "code-bug"},
	{"gloo-size-mismatch", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::read (GLOO_ENFORCE_LE)", "gloo 2018-2025",
	 "op.preamble.length <= op.nbytes",
	 "op\\.preamble\\.length <= op\\.nbytes\\. ([0-9]+) vs ([0-9]+)",
	 "length,nbytes", NULL, NULL,
	 "ranks sent different sizes to one collective: a code bug", 0,
	 "what():  [enforce fail at ../third_party/gloo/gloo/transport/tcp/"
	 "pair.cc:490] op.preamble.length <= op.nbytes. 8773632 vs 4",
	 "code-bug"},
	{"cuda-invalid-ordinal", "CUDA", "cudaErrorInvalidDevice",
	 "CUDA 9-13", "invalid device ordinal", "invalid device ordinal", "",
	 NULL, NULL, "a rank asked for a GPU the node does not have: the "
	 "launch maps ranks to GPUs wrongly", 0,
	 "RuntimeError: CUDA error: invalid device ordinal", "code-bug"},
	{"ompi-unreachable", "Open MPI", "ompi/mca/bml/r2/help-mca-bml-r2.txt "
	 "[unreachable proc]", "1.6-5.0", "unable to reach each other",
	 "are unable to reach each other for", "", NULL,
	 "mpi-btl-iface,port-filtered,no-usable-interface",
	 "no Open MPI transport found a path between two processes", 0,
	 "At least one pair of MPI processes are unable to reach each other "
	 "for", NULL},
	{"jax-register-task", "JAX", "xla/tsl/distributed_runtime/"
	 "coordination (RegisterTask RPC)", "jax 0.4.x",
	 "CoordinationService/RegisterTask",
	 "CoordinationService/RegisterTask", "", NULL, "rank-unreachable",
	 "a task did not register with the coordinator in time: not "
	 "started, slow, or cut off", LOGSIG_SYMPTOM,
	 "Additional GRPC error information from remote target "
	 "unknown_target_for_coordination_leader while calling "
	 "/tensorflow.CoordinationService/RegisterTask:", NULL},
	{"jax-heartbeat-timeout", "JAX", "xla/tsl/distributed_runtime/"
	 "coordination/coordination_service.cc", "jax 0.4.x",
	 "heartbeat timeout", "Task [^ ]+ heartbeat timeout", "", NULL,
	 "rank-unreachable,heartbeat-dropped",
	 "the coordinator stopped hearing from a task: it died or was cut "
	 "off", LOGSIG_SYMPTOM,
	 "UNAVAILABLE: Task /job:jax_worker/replica:0/task:0 heartbeat "
	 "timeout. This indicates that the remote task has failed", NULL},
	{"jax-fatal-errors", "JAX", "xla/pjrt/distributed/client.h",
	 "jax 0.4.x", "distributed service detected fatal errors",
	 "distributed service detected fatal errors", "", NULL, NULL,
	 "another task failed first: its log holds the cause",
	 LOGSIG_SYMPTOM, "Terminating process because the JAX distributed "
	 "service detected fatal errors.", NULL},
	{"ray-gcs-unable", "Ray", "python/ray/_private/utils.py / "
	 "services.py (\"Unable to connect to GCS\")", "ray 1.11-2.5x",
	 "Unable to connect to GCS", "Unable to connect to GCS( \\(ray "
	 "head\\))? at ([0-9A-Za-z_.-]+):([0-9]+)", ",addr,port", NULL,
	 "port-closed,port-filtered,host-unreachable",
	 "a node could not reach the head's GCS port", LOGSIG_PEER,
	 "WARNING utils.py:1401 -- Unable to connect to GCS (ray head) at "
	 "10.231.0.1:6379. Check that (1) Ray with matching version started",
	 NULL},
	{"torch-unique-id", "torch", "torch/csrc/distributed/c10d/"
	 "ProcessGroupNCCL.cpp broadcastUniqueNCCLID", "torch 2.1-2.9",
	 "retrieving ncclUniqueId from", "retrieving ncclUniqueId from "
	 "\\[([0-9]+)\\] via c10d key-value store.*got error: ([A-Za-z ]+)",
	 "rank,err", NULL, "rank-unreachable",
	 "a rank could not get NCCL's id from rank 0 through the store: rank "
	 "0 exited or was cut off", LOGSIG_SYMPTOM,
	 "torch.distributed.DistBackendError: [1] is setting up NCCL "
	 "communicator and retrieving ncclUniqueId from [0] via c10d "
	 "key-value store by key '0', but store->get('0') got error: "
	 "Connection reset by peer", NULL},
	{"torch-child-failed", "torch", "torch/distributed/elastic/"
	 "multiprocessing/errors ChildFailedError", "torch 1.9-2.9",
	 "ChildFailedError", "ChildFailedError", "", NULL, NULL,
	 "torchrun reports that a rank failed; its own traceback says why",
	 LOGSIG_SYMPTOM,
	 "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
	 NULL},
	{"torch-collective-mismatch", "torch", "torch/csrc/distributed/c10d/"
	 "ProcessGroupWrapper.cpp (TORCH_DISTRIBUTED_DEBUG=DETAIL)",
	 "torch 1.10-2.9", "Detected mismatch between collectives",
	 "Detected mismatch between collectives on ranks", "", NULL, NULL,
	 "ranks called different collectives: a code bug", 0,
	 "RuntimeError: Detected mismatch between collectives on ranks. Rank "
	 "0 is running collective: CollectiveFingerPrint(OpType=ALLREDUCE",
	 "code-bug"},
	{"nccl-proxy-failed", "NCCL", "src/proxy.cc proxyServiceInitOp / "
	 "ncclProxyService", "2.12-2.30", "Failed to execute operation",
	 "Failed to execute operation ([A-Za-z]+) from rank ([0-9]+)",
	 "op,rank", NULL, NULL, "NCCL's proxy thread failed an operation; "
	 "the WARN before it says why", LOGSIG_SYMPTOM,
	 "n1:1:9 [0] proxy.cc:1519 NCCL WARN [Proxy Service 0] Failed to "
	 "execute operation Connect from rank 0, retcode 2", NULL},
	{"nccl-cuda-p2p", "NCCL", "src/include/checks.h CUDACHECK",
	 "2.4-2.30", "peer access is not supported",
	 "peer access is not supported between these two devices", "", NULL,
	 NULL, "GPU peer access is not available between two GPUs: a "
	 "topology or driver setting, not the network", 0,
	 "n1:1:1 [0] NCCL WARN Cuda failure 'peer access is not supported "
	 "between these two devices'", "cuda-error"},
	{"nccl-fallocate", "NCCL", "src/include/shm.h shmOpen "
	 "SYSCHECK(posix_fallocate)", "2.4-2.11", "posix_fallocate failed",
	 "posix_fallocate failed : No space left on device", "", "shm-small",
	 NULL, "/dev/shm could not hold NCCL's segment", 0,
	 "n1:1:1 [0] NCCL WARN Call to posix_fallocate failed : No space "
	 "left on device", NULL},
	{"ucx-ep-unreachable", "UCX", "ompi/mca/pml/ucx/pml_ucx.c "
	 "(ucp_ep_create) and src/ucp/wireup/select.c", "ucx 1.5-1.17",
	 "Destination is unreachable", "(ucp_ep_create\\(proc=[0-9]+\\) "
	 "failed|no active messages transport to [^:]*:[^-]*-) ?:? ?"
	 "Destination is unreachable", "", NULL,
	 "mpi-btl-iface,port-filtered,host-unreachable",
	 "UCX found no transport that reaches a peer: the lines around it say "
	 "which address it tried", LOGSIG_SYMPTOM,
	 "[n1:4242] pml_ucx.c:419 Error: ucp_ep_create(proc=9) failed: "
	 "Destination is unreachable", NULL},
	{"ompi-oob-unable", "Open MPI", "orte/mca/oob/tcp/"
	 "help-oob-tcp.txt (prrte's from 5.0)", "1.8-5.0",
	 "unable to complete a TCP connection",
	 "A process or daemon was unable to complete a TCP connection", "",
	 NULL, "port-filtered,inbound-blocked,mpi-btl-iface",
	 "mpirun's daemons could not connect back: a firewall, or the "
	 "runtime's TCP chose an interface the other node cannot reach", 0,
	 "A process or daemon was unable to complete a TCP connection",
	 NULL},
	{"torch-store-errno-old", "torch", "torch/lib/c10d/Utils.cpp "
	 "tcputil::connect (std::system_error's strerror)", "torch 1.0-1.10",
	 "RuntimeError: ", "RuntimeError: (Connection refused|No route to "
	 "host|Network is unreachable)\\.?$", "err", NULL, NULL,
	 "the store client's connect failed", 0,
	 "RuntimeError: Connection refused", NULL},
	{"nccl-proxy-recv", "NCCL", "src/proxy.cc ncclPollProxyResponse",
	 "2.12-2.30", "Socket recv failed while polling",
	 "Socket recv failed while polling for opId", "", NULL, NULL,
	 "NCCL's proxy lost its socket: an earlier failure, or a peer that "
	 "exited", LOGSIG_SYMPTOM,
	 "n1:1:9 [0] proxy.cc:1143 NCCL WARN Socket recv failed while "
	 "polling for opId=0x7f6f18cb7f40", NULL},
	/* NCCL 2.4-2.11, read at the v2.4.8-1, v2.7.8-1 and v2.11.4-1
	 * tags. */
	{"nccl-recv-failed-old", "NCCL", "src/include/socket.h socketProgress "
	 "(\"Call to recv failed : %s\", no address)", "2.4-2.10",
	 "Call to recv failed : ", "Call to recv failed : (Connection timed "
	 "out)", "err", NULL,
	 "rank-unreachable,mtu-blackhole,heartbeat-dropped",
	 "TCP gave up retransmitting on an established NCCL socket",
	 LOGSIG_REACHED,
	 "n1:1:9 [0] NCCL WARN Call to recv failed : Connection timed out",
	 NULL},
	{"nccl-recv-reset-old", "NCCL", "src/include/socket.h socketProgress "
	 "(\"Call to recv failed : %s\", no address)", "2.4-2.10",
	 "Call to recv failed : ", "Call to recv failed : (Connection reset "
	 "by peer)", "err", NULL, NULL,
	 "a peer reset an established NCCL socket: it exited first",
	 LOGSIG_SYMPTOM | LOGSIG_REACHED,
	 "n1:1:9 [0] NCCL WARN Call to recv failed : Connection reset by "
	 "peer", NULL},
	{"nccl-bootstrap-truncated", "NCCL", "src/bootstrap.cc bootstrapRecv",
	 "2.4-2.30", "Message truncated : received",
	 "Message truncated : received ([0-9]+) bytes instead of ([0-9]+)",
	 "bytes,expected", NULL, "nccl-version-mismatch",
	 "the bootstrap got a message of another size: ranks of different "
	 "versions or settings", LOGSIG_REACHED,
	 "n1:1:1 [0] NCCL WARN Message truncated : received 4352 bytes "
	 "instead of 4096", NULL},
	{"nccl-root-rank-count", "NCCL", "src/bootstrap.cc bootstrapRoot",
	 "2.4-2.30", "mismatch in rank count",
	 "Bootstrap Root : mismatch in rank count from procs ([0-9]+) : "
	 "([0-9]+)", "nranks,got", NULL, NULL,
	 "processes disagree on the number of ranks: the launch is wrong (a "
	 "world size, or two jobs on one NCCL_COMM_ID)", 0,
	 "n1:1:1 [0] NCCL WARN Bootstrap Root : mismatch in rank count from "
	 "procs 16 : 8", "code-bug"},
	{"torch-nccl-work-timeout", "torch", "torch/csrc/distributed/c10d/"
	 "ProcessGroupNCCL.cpp (watchdog's progress line)", "torch 2.2-2.9",
	 "Timeout at NCCL work", "Timeout at NCCL work: ([0-9]+), last "
	 "enqueued NCCL work: ([0-9]+), last completed NCCL work: ([0-9]+)",
	 "work,enqueued,completed", NULL,
	 "rank-unreachable,nccl-rank-unresponsive",
	 "a NCCL collective did not finish in time: a symptom, a rank hung "
	 "or was cut off", LOGSIG_SYMPTOM,
	 "[rank0]:[E ProcessGroupNCCL.cpp:1182] [PG 0 Rank 0] Timeout at NCCL "
	 "work: 12345, last enqueued NCCL work: 12345, last completed NCCL "
	 "work: 12344.", NULL},
	{"ray-raylet-terminated", "Ray", "python/ray/_private/worker.py "
	 "(raylet death report)", "ray 2.3-2.5x", "Raylet is terminated",
	 "Raylet is terminated: ip=([0-9a-fA-F.:]+)", "addr", NULL, NULL,
	 "a node's raylet died (SIGKILL by the OOM killer, a crash): its own "
	 "log holds the cause", LOGSIG_SYMPTOM,
	 "(raylet) Raylet is terminated: ip=10.231.0.2, id=5f1e2d3c. "
	 "Termination is unexpected.", NULL},
	{"nccl-connect-retry-exceeded-224", "NCCL", "src/misc/socket.cc "
	 "socketStartConnect (\"%s: connect returned %s, exceeded error "
	 "retry count (%d)\", no address)", "2.24-2.26",
	 "exceeded error retry count", "connect returned ([A-Za-z ]+), "
	 "exceeded error retry count", "err", NULL, NULL,
	 "NCCL retried a connect until it gave up", 0,
	 "n1:1:9 [0] misc/socket.cc:543 NCCL WARN socketStartConnect: "
	 "connect returned Connection refused, exceeded error retry count "
	 "(35)", NULL},
};

const struct logsig *logsig_table(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
