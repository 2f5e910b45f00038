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
	 "TCP gave up retransmitting on an established NCCL socket", 0,
	 "node1:812:840 [0] NCCL WARN socketProgressOpt: Call to recv from "
	 "10.231.0.2<40123> failed : Connection timed out"},
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
	/* NCCL's own text (from 2.12.10) says the sizes or the settings
	 * (NCCL_PROTO, NCCL_ALGO) may differ between ranks: a version
	 * mismatch is one way, not the only one, so it stays open. The
	 * connection worked, so the peer's address class proves nothing. */
	{"nccl-message-truncated", "NCCL", "src/transport/net_socket.cc "
	 "ncclNetSocketTest", "2.12-2.30", "message truncated",
	 "NET/Socket : peer " NCCL_ADDR " message truncated", "addr,port",
	 NULL, "nccl-version-mismatch",
	 "ranks disagree on a message's size: mixed versions or settings",
	 0,
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
	 NULL, RDMA_OPEN,
	 "NCCL found no RDMA device and fell back to sockets", 0,
	 "node1:812:812 [0] NCCL INFO NET/IB : No device found."},
	{"nccl-ibv-nomem", "NCCL", "src/misc/ibvwrap.cc IBV_*_CHECK_ERRNO",
	 "2.12-2.30", "failed with error Cannot allocate memory",
	 "Call to (ibv_[a-z_0-9]+) failed with error Cannot allocate memory",
	 "verb", "rdma-memlock", NULL,
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
	{"nccl-ib-completion-error", "NCCL", "src/transport/net_ib.cc "
	 "ncclIbTest (src/transport/net_ib/p2p.cc from 2.28)", "2.12-2.30",
	 "Got completion from peer",
	 "NET/IB[/A-Z]* ?: Got completion from peer ([^ ]+) with "
	 "(status|error)", "peer,", NULL,
	 "rdma-gid-index,rdma-gid-auto,rdma-netdev-netns,"
	 "rdma-fabric-mismatch",
	 "an RDMA work request failed: retry exceeded (12) most often "
	 "means a GID that does not route between the nodes", 0,
	 "node1:812:870 [0] NCCL WARN NET/IB: Got completion from peer "
	 "10.231.0.2<56789> with status=transport retry counter "
	 "exceeded(12) opcode=IBV_WC_SEND(0) vendor_err=129 localGid "
	 "::ffff:10.231.0.1 remoteGids ::ffff:10.231.0.2 hca mlx5_0"},
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
	 RDMA_OPEN,
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
	 " connect [10.231.0.2]:28338: Connection refused"},
	{"gloo-connect-timeout", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::handleConnecting", "gloo c915f8d (2017-04) to 31b1f02 "
	 "(2023-05)", "Connection timed out",
	 "connect " GLOO_ADDR ": Connection timed out", "addr,port_netorder",
	 NULL, "port-filtered,inbound-blocked,rank-unreachable",
	 "SYNs to a rank's advertised address got no answer", LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799]"
	 " connect [10.231.0.2]:28338: Connection timed out"},
	{"gloo-connect-noroute", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::handleConnecting", "gloo c915f8d (2017-04) to 31b1f02 "
	 "(2023-05)", "connect [",
	 "connect " GLOO_ADDR ": (No route to host|Network is unreachable)",
	 "addr,port_netorder,err", "host-unreachable", NULL,
	 "no route toward a rank's advertised address", LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799]"
	 " connect [10.231.9.9]:28338: No route to host"},
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
	 " write: Connection refused"},
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
	 "remote=[10.231.0.2]:28338"},
	{"gloo-peer-closed", "Gloo", "gloo/transport/tcp/pair.cc "
	 "Pair::read (\"Connection closed by peer \")",
	 "gloo 045ce1c (2018-11) to now", "Connection closed by peer",
	 "Connection closed by peer " GLOO_ADDR, "addr,port_netorder",
	 "rank-unreachable", NULL, "a peer rank closed its socket",
	 LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598]"
	 " Connection closed by peer [10.231.0.2]:49152"},
	{"gloo-read-reset", "Gloo", "gloo/transport/tcp/pair.cc Pair::read "
	 "(\"Read error \")", "gloo f67ab32 (2017-04) to now",
	 "Connection reset by peer",
	 "Read error " GLOO_ADDR ": Connection reset by peer",
	 "addr,port_netorder", "rank-unreachable", NULL,
	 "a peer rank reset the connection", LOGSIG_PEER,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:589]"
	 " Read error [10.231.0.2]:49152: Connection reset by peer"},
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
	 "TCP gave up retransmitting on an established pair", 0,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:589]"
	 " Read error [10.231.0.2]:49152: Connection timed out"},
	{"gloo-timeout", "Gloo", "gloo/transport/tcp/unbound_buffer.cc "
	 "UnboundBuffer::waitRecv/waitSend", "gloo 3dac0ef (2018-11) to now",
	 "Timed out waiting",
	 "Timed out waiting ([0-9]+)ms for (recv|send) operation", "ms,op",
	 "collective-timeout", "rank-unreachable,port-filtered",
	 "a Gloo operation waited longer than its timeout", 0,
	 "RuntimeError: [../third_party/gloo/gloo/transport/tcp/"
	 "unbound_buffer.cc:81] Timed out waiting 1800000ms for recv "
	 "operation to complete"},
	{"gloo-no-address", "Gloo", "gloo/transport/tcp/device.cc "
	 "lookupAddrForIface (GLOO_ENFORCE ifa != nullptr)",
	 "gloo 7def89c (2017-08) to now", "Unable to find address for: ",
	 "ifa != nullptr\\. Unable to find address for: ([^ ]+)",
	 "setting_gloo_ifname",
	 NULL, NULL, "GLOO_SOCKET_IFNAME names no interface with an address",
	 0, "RuntimeError: [enforce fail at ../third_party/gloo/gloo/"
	 "transport/tcp/device.cc:83] ifa != nullptr. Unable to find address "
	 "for: ^lo"},
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
	 "address"},
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
	 "\\]|([^ :(]+)):([0-9]+) \\(errno: ([0-9]+) - ([A-Za-z ]+)\\)",
	 ",addr,addr,port,errno,err", NULL, "host-unreachable",
	 "the TCPStore client could not reach MASTER_ADDR:MASTER_PORT",
	 LOGSIG_PEER,
	 "[W socket.cpp:697] [c10d] The client socket has failed to connect "
	 "to [10.231.9.1]:29500 (errno: 113 - No route to host)."},
	{"torch-store-not-listening", "torch",
	 "torch/csrc/distributed/c10d/socket.cpp SocketConnectOp::tryConnect"
	 " (C10D_INFO, every 30 s)", "torch 2.x (lower bound not checked)", "is listening yet",
	 "No socket on \\(([^,]+), ([0-9]+)\\) is listening yet, will retry",
	 "addr,port", "port-closed", NULL,
	 "connects to the store were refused or reset: nothing listened "
	 "on its port",
	 LOGSIG_PEER,
	 "[I socket.cpp:774] [c10d] No socket on (10.231.0.1, 29500) is "
	 "listening yet, will retry."},
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
	 "out after 1800s while trying to connect to (10.231.0.1, 29500)."},
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
	 "use"},
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
	 "use)."},
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
	 "ProcessGroupNCCL::WorkNCCL::checkTimeout", "torch 1.13-2.9",
	 "Watchdog caught collective operation timeout",
	 "\\[[^]]*Rank ([0-9]+)\\] Watchdog caught collective operation "
	 "timeout: WorkNCCL\\(SeqNum=([0-9]+), OpType=([A-Z_]+).*Timeout"
	 "\\(ms\\)=([0-9]+)", "rank,seq,op,timeout_ms", "collective-timeout",
	 "rank-unreachable",
	 "a NCCL collective did not finish within the process group's "
	 "timeout", 0,
	 "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught "
	 "collective operation timeout: WorkNCCL(SeqNum=7, "
	 "OpType=ALLREDUCE, NumelIn=1048576, "
	 "NumelOut=1048576, Timeout(ms)=600000) ran for 600184 milliseconds "
	 "before timing out."},
	{"torch-elastic-store", "torch",
	 "torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py "
	 "_create_tcp_store / C10dRendezvousBackend._call_store",
	 "torch 1.9-2.9", "connection to the C10d store has failed",
	 "connection to the C10d store has failed", "", NULL,
	 "port-closed,port-filtered,host-unreachable",
	 "torchrun's rendezvous could not reach its store", 0,
	 "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError:"
	 " The connection to the C10d store has failed. See inner exception "
	 "for details."},
	/* No torch source prints this line: launch scripts and
	 * `python -m torch.utils.collect_env` ("PyTorch version: 2.4.1+cu124")
	 * do. Kept as a fact only. */
	{"torch-version", "torch", "torch/utils/collect_env.py "
	 "(\"PyTorch version: \") and launch scripts", "torch 1.8-2.9",
	 "orch ", "[Tt]orch[ =_-]+(version[: ]+)?"
	 "([0-9]+\\.[0-9]+\\.[0-9]+)(\\+cu([0-9]+))?",
	 ",torch_version,,cuda_tag", NULL, NULL, "the torch version",
	 LOGSIG_FACT, "PyTorch version: 2.4.1+cu124"},
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
	 "the head's health checks to a node failed", LOGSIG_PEER,
	 "2026-11-20 10:00:05,001\tWARNING worker.py:2058 -- The node with "
	 "node id: 5f1e2d3c4b5a69788796a5b4c3d2e1f0 and address: 172.17.0.3 "
	 "and node name: 172.17.0.3 has been marked dead because the "
	 "detector has missed too many heartbeats from it. This can happen "
	 "when a \t(1) raylet crashes unexpectedly (OOM, etc.) "},
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
	 "10.231.0.1 but none of these match this node's IP 172.17.0.2."},
	{"ray-gcs-connect", "Ray", "src/ray/rpc/gcs_server/gcs_rpc_client.h "
	 "GcsRpcClient::GcsRpcClient, after channel_->WaitForConnected "
	 "(RAY_LOG WARNING, ERROR in later releases)",
	 "ray 2.x (range not pinned to tags)",
	 "Failed to connect to GCS",
	 "Failed to connect to GCS at address ([0-9a-fA-F.:]+):([0-9]+) "
	 "within", "addr,port", NULL,
	 "port-closed,port-filtered,host-unreachable",
	 "a node could not reach the head's GCS port", LOGSIG_PEER,
	 "[2026-11-20 10:00:00,123 W 812 812] gcs_rpc_client.h:151: Failed "
	 "to connect to GCS at address 10.231.0.1:6379 within 5 seconds."},
	{"ray-start-address", "Ray", "python/ray/scripts/scripts.py start "
	 "(the head's \"Next steps\" hint)", "ray 1.0-2.5x",
	 "ray start --address",
	 "ray start --address=['\"]?([0-9a-fA-F.:]+):([0-9]+)", "addr,port",
	 NULL, NULL, "the head a Ray node joins (probed as a peer)",
	 LOGSIG_FACT | LOGSIG_PEER,
	 "  ray start --address='10.231.0.1:6379'"},
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
	 "\tdetails = \"keepalive watchdog timeout\""},
	/* Open MPI (open-mpi/ompi, opal/mca/btl/tcp), read at the v2.0.0,
	 * v3.0.0, v3.1.0, v4.0.0, v4.1.0 and v5.0.0 tags. */
	{"ompi-btl-connect-old", "Open MPI",
	 "opal/mca/btl/tcp/btl_tcp_endpoint.c "
	 "mca_btl_tcp_endpoint_complete_connect (BTL_ERROR)", "2.0-3.0",
	 "mca_btl_tcp_endpoint_complete_connect",
	 "connect\\(\\) to ([0-9a-fA-F.:]+) failed: ([A-Za-z ]+) "
	 "\\(([0-9]+)\\)", "addr,err,errno", "mpi-btl-iface", NULL,
	 "Open MPI's TCP transport tried an address the peer cannot reach",
	 0,
	 "[node1][[4242,1],0][btl_tcp_endpoint.c:796:"
	 "mca_btl_tcp_endpoint_complete_connect] connect() to 172.17.0.1 "
	 "failed: Connection refused (111)"},
	/* From 3.1 the same failure is help-mpi-btl-tcp.txt
	 * [client connect fail]; its "Error:" line is a separate line. */
	{"ompi-btl-connect", "Open MPI",
	 "opal/mca/btl/tcp/btl_tcp_endpoint.c "
	 "mca_btl_tcp_endpoint_complete_connect + help-mpi-btl-tcp.txt "
	 "[client connect fail]", "3.1-5.0", "connect() to ",
	 "Message: +connect\\(\\) to ([0-9a-fA-F.:]+):([0-9]+) failed",
	 "addr,port", "mpi-btl-iface", NULL,
	 "Open MPI's TCP transport tried an address the peer cannot reach",
	 0, "  Message:    connect() to 172.17.0.1:1024 failed"},
	{"ompi-btl-unknown-peer", "Open MPI",
	 "opal/mca/btl/tcp/help-mpi-btl-tcp.txt [server accept cannot find "
	 "guid] / [server cannot find endpoint]", "3.1-5.0",
	 "cannot find a corresponding",
	 "cannot find a corresponding (process|endpoint)", "", "mpi-btl-iface",
	 NULL,
	 "a TCP connection arrived from an address Open MPI does not know",
	 0, "another Open MPI process but cannot find a corresponding process"},
	/* The openib BTL and its help file are gone in 5.0. */
	{"ompi-memlock", "Open MPI", "opal/mca/btl/openib/"
	 "help-mpi-btl-openib.txt [init-fail-no-mem]", "3.0-4.1",
	 "locked memory",
	 "allocate some locked memory", "", "rdma-memlock", NULL,
	 "Open MPI could not register memory: the memlock limit is low", 0,
	 "allocate some locked memory.  This typically can indicate that the"},
	/* libibverbs and the kernel. */
	{"ibverbs-memlock", "libibverbs", "libibverbs/init.c check_memlock_limit",
	 "rdma-core 17-50", "RLIMIT_MEMLOCK is",
	 "RLIMIT_MEMLOCK is ([0-9]+) bytes", "memlock_bytes",
	 "rdma-memlock", NULL,
	 "the memlock limit is too low to register RDMA memory", 0,
	 "libibverbs: Warning: RLIMIT_MEMLOCK is 65536 bytes."},
	{"ibverbs-no-device", "libibverbs", "libibverbs/device.c "
	 "ibverbs_get_device_list", "rdma-core 17-50",
	 "no userspace device-specific driver found",
	 "no userspace device-specific driver found for ([^ ]+)", "path",
	 "rdma-ib-fallback", NULL,
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
