/* Rows mined from libraries' source rather than from a thread (issue
 * 42: every fresh blind set brought a library's own words no row knew):
 * NCCL's IB transport, UCX, TensorRT-LLM's and NIXL's KV-cache
 * transfer, Slurm, Horovod, Spark, TensorFlow, flannel; and NCCL's
 * retried connect, whose errno picks its candidates (a timeout is no
 * refusal). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(rdma_words)
{
	static const struct unitfix_line t[] = {
		{"node1:812:812 [0] NCCL WARN NET/IB : No IP interface found.",
		 "open nccl-ifname-nomatch", NULL},
		{"node1:812:812 [0] NCCL WARN NET/IB : Unable to open device "
		 "mlx5_2", "open rdma-uverbs-missing", NULL},
		{"node1:812:850 [0] NCCL WARN NET/IB : Attempted to connect "
		 "incompatible devices: [0]mlx5_0:1/IB and "
		 "[1]mlx5_bond_0:1/RoCE. Try selecting NICs of only one link "
		 "type using NCCL_IB_HCA", "cause rdma-fabric-mismatch", NULL},
		/* 2.19+ words the port's event "non-fatal", adds its number */
		{"node1:812:860 [0] NCCL WARN NET/IB : mlx5_3:1 Got non-fatal "
		 "async event: port error(10)", "cause rdma-port-down", NULL},
		{"node1:812:860 [0] NCCL WARN NET/IB : mlx5_3:1 Got non-fatal "
		 "async event: port active(9)", NULL, "cause rdma-port-down"},
		{"[1733566500.1] [node1:4242:0] ucp_context.c:1508 UCX  WARN  "
		 "network device 'mlx5_4:1' is not available, please use one "
		 "or more of: 'eth0'(tcp), 'lo'(tcp), 'mlx5_0:1'(ib)",
		 "open nccl-ifname-nomatch", NULL},
		{"[1733566500.3] [node1:4242:0] ib_device.c:1433 UCX  ERROR "
		 "invalid gid[3] on mlx5_0:1", "open rdma-gid-index", NULL},
		/* ib_md.c prints the registration's arguments, spaces and all */
		{"[1733566500.1] [node1:4242:0] ib_md.c:309 UCX  ERROR "
		 "ibv_reg_mr(address=0x7f1a40000000, length=268435456, "
		 "access=0xf) failed: Cannot allocate memory",
		 "cause rdma-memlock", NULL},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

START_TEST(kv_transfer_and_launchers)
{
	static const struct unitfix_line t[] = {
		{"[TensorRT-LLM][ERROR] UCX   No valid IP address found please "
		 "set correct UCX interface with env variable "
		 "TRTLLM_UCX_INTERFACE", "open no-usable-interface", NULL},
		{"E1207 10:12:04.001002 41235 nixl_p2p_metadata_backend.cpp:"
		 "325] P2P backend could not connect to IP 10.0.3.17 and port "
		 "5555", "open port-closed", NULL},
		{"E1207 10:12:03.418101 41235 nixl_listener.cpp:76] select "
		 "timed out for ip_addr: 10.0.3.17 and port: 5555",
		 "open port-filtered", "open port-closed"},
		{"RuntimeError: Cannot find an IPv4 address of the common "
		 "interface.", "open no-usable-interface", NULL},
	};
	struct explain_result r;

	UNITFIX_EXPECT(t);
	/* a controller down more often than a network (blind42g b09,
	 * blind42k c14): a symptom, no candidate */
	unitfix_explain_line("srun: error: Unable to allocate resources: "
			     "Unable to contact slurm controller (connect "
			     "failure)", &r);
	ck_assert(!unitfix_has(&r, "open port-closed"));
	ck_assert(r.ncauses > 0 && r.causes[0].kind == EXPLAIN_SYMPTOM);
}
END_TEST

/* Spark, TensorFlow's gRPC server, flannel; Java's "/ADDR:PORT". */
START_TEST(jvm_and_overlay_words)
{
	static const struct unitfix_line t[] = {
		{"21/05/23 01:58:56 WARN Utils: Service 'sparkDriver' could not "
		 "bind on a random free port. You may check whether "
		 "configuring an appropriate binding address.",
		 "open hostname-unbindable", NULL},
		{"java.net.BindException: Cannot assign requested address: "
		 "Service 'sparkDriver' failed after 16 retries (on a random "
		 "free port)!", "open hostname-unbindable", NULL},
		/* every port of SparkUI's range held: the errno decides */
		{"java.net.BindException: Address already in use: Service "
		 "'SparkUI' failed after 16 retries (starting from 4040)!",
		 "cause port-in-use", NULL},
		{"E tensorflow/core/distributed_runtime/rpc/grpc_server_lib.cc:"
		 "447] Unknown: Could not start gRPC server",
		 "open port-in-use", NULL},
		{"E0101 10:00:00.000000 1 main.go:289] Failed to find any valid "
		 "interface to use: failed to get default interface: Unable "
		 "to find default route", "open no-usable-interface", NULL},
		{"java.io.IOException: Failed to connect to /10.0.0.5:7077",
		 "open port-closed", NULL},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* The mined rows of frameworks blind42l's collectors named, written
 * after its one measurement: Gloo, Dask, Open MPI and PRRTE, MPICH's
 * Hydra, EFA, Mooncake, Ray, vLLM. */
START_TEST(after_blind42l)
{
	static const struct unitfix_line t[] = {
		{"RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.h:"
		 "311] Connect timeout [10.231.0.2]:28547", "open port-filtered",
		 NULL},
		{"OSError: Timed out trying to connect to tcp://10.231.0.12:8786 "
		 "after 30 s", "open listener-loopback-only", NULL},
		{"distributed.nanny - ERROR - Timed out connecting Nanny "
		 "'<Nanny: None, threads: 8>' to scheduler "
		 "'tcp://10.231.0.12:8786'", "open port-closed", NULL},
		{"ValueError: interface 'ib0' doesn't have an IPv4 address",
		 "open interface-down", NULL},
		{"WARNING: An invalid value was given for btl_tcp_if_include.  "
		 "This value will be ignored.", "open mpi-btl-iface", NULL},
		{"[node1][[24583,1],0][btl_tcp_component.c:1128:mca_btl_tcp_"
		 "component_create_listen] bind() failed: no port available in "
		 "the range [1024..1088]", "open port-range-narrow", NULL},
		/* a launcher that did not start it as often (blind42f b12,
		 * blind42g b05): a symptom */
		{"An ORTE daemon has unexpectedly failed after launch and "
		 "before communicating back to mpirun.",
		 "symptom ompi-daemon-no-callback", "open inbound-blocked"},
		{"No usable network interfaces were found on this host, so no "
		 "TCP sockets can be opened", "open no-usable-interface", NULL},
		{"[mpiexec@node1] HYDU_sock_get_iface_ip (lib/utils/sock.c:447): "
		 "unable to find interface ib0", "open nccl-ifname-nomatch",
		 NULL},
		{"[mpiexec@node1] HYDU_sock_listen (lib/utils/sock.c:83): listen "
		 "error (Address already in use)", "cause port-in-use", NULL},
		{"EFA internal error: (15) Unreachable remote - never received a "
		 "response", "open inbound-blocked", NULL},
		{"NCCL WARN NET/OFI Couldn't register memory region with "
		 "regattr. RC: -12, ERROR: Cannot allocate memory",
		 "open rdma-memlock", NULL},
		{"E1207 transfer_metadata_plugin.cpp:454] EtcdStoragePlugin: "
		 "unable to connect 10.231.0.5:2379: context deadline exceeded",
		 "open port-filtered", NULL},
		{"grpc_server.cc:133:  Check failed: server_ Failed to start the "
		 "grpc server. The specified port is 10014.", "open port-in-use",
		 NULL},
		{"RuntimeError: Every node should have a unique IP address. Got "
		 "2 nodes with node ids ['5a1c', '9f3d'] and 1 unique IP "
		 "addresses {'172.17.0.2'}.", "open address-conflict", NULL},
		{"UserWarning: Failed to get the IP address, using 0.0.0.0 by "
		 "default.", "open no-usable-interface", NULL},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* NCCL 2.3-2.11 said a retried connect's errno; only a refusal means
 * nothing listened. */
START_TEST(nccl_retry_errno)
{
	static const struct unitfix_line t[] = {
		{"node1:26407:26474 NCCL INFO Call to connect returned "
		 "Connection refused, retrying", "open port-closed", NULL},
		{"node1:26407:26474 NCCL INFO Call to connect returned "
		 "Connection timed out, retrying", "open port-filtered",
		 "open port-closed"},
		{"node1:26407:26474 NCCL INFO Call to connect returned No route "
		 "to host, retrying", "open host-unreachable",
		 "cause host-unreachable"},
		{"node1:26407:26474 NCCL INFO Call to connect returned No route "
		 "to host, retrying", NULL, "open port-closed"},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

Suite *suite_explain_mined(void)
{
	Suite *s = suite_create("explain_mined");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, rdma_words);
	tcase_add_test(tc, kv_transfer_and_launchers);
	tcase_add_test(tc, jvm_and_overlay_words);
	tcase_add_test(tc, after_blind42l);
	tcase_add_test(tc, nccl_retry_errno);
	suite_add_tcase(s, tc);
	return s;
}
