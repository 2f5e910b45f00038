/* Rows mined from libraries' source rather than from a thread (issue
 * 42: every fresh blind set brought a library's own words no row knew):
 * NCCL's IB transport, UCX, TensorRT-LLM's and NIXL's KV-cache
 * transfer, Slurm, Horovod; and NCCL's retried connect, whose errno
 * picks its candidates (a timeout is no refusal). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

/* One line explained from the log alone. */
static void one(const char *line, struct explain_result *r)
{
	const char *l[] = {line, NULL};

	unitfix_explain(l, -1, r);
}

START_TEST(nccl_ib_words)
{
	struct explain_result r;

	one("node1:812:812 [0] NCCL WARN NET/IB : No IP interface found.",
	    &r);
	ck_assert(unitfix_has(&r, "open nccl-ifname-nomatch"));
	ck_assert(unitfix_has(&r, "open no-usable-interface"));
	one("node1:812:812 [0] NCCL WARN NET/IB : Unable to open device "
	    "mlx5_2", &r);
	ck_assert(unitfix_has(&r, "open rdma-uverbs-missing"));
	one("node1:812:850 [0] NCCL WARN NET/IB : Attempted to connect "
	    "incompatible devices: [0]mlx5_0:1/IB and [1]mlx5_bond_0:1/RoCE. "
	    "Try selecting NICs of only one link type using NCCL_IB_HCA", &r);
	ck_assert(unitfix_has(&r, "cause rdma-fabric-mismatch"));
	/* 2.19+ words the port's event "non-fatal" and adds its number */
	one("node1:812:860 [0] NCCL WARN NET/IB : mlx5_3:1 Got non-fatal "
	    "async event: port error(10)", &r);
	ck_assert(unitfix_has(&r, "cause rdma-port-down"));
	one("node1:812:860 [0] NCCL WARN NET/IB : mlx5_3:1 Got non-fatal "
	    "async event: port active(9)", &r);
	ck_assert(!unitfix_has(&r, "cause rdma-port-down"));
}
END_TEST

START_TEST(ucx_words)
{
	struct explain_result r;

	one("[1733566500.1] [node1:4242:0] ucp_context.c:1508 UCX  WARN  "
	    "network device 'mlx5_4:1' is not available, please use one or "
	    "more of: 'eth0'(tcp), 'lo'(tcp), 'mlx5_0:1'(ib)", &r);
	ck_assert(unitfix_has(&r, "open nccl-ifname-nomatch"));
	one("[1733566500.3] [node1:4242:0] ib_device.c:1433 UCX  ERROR "
	    "invalid gid[3] on mlx5_0:1", &r);
	ck_assert(unitfix_has(&r, "open rdma-gid-index"));
	/* ib_md.c prints the registration's arguments, spaces and all */
	one("[1733566500.1] [node1:4242:0] ib_md.c:309 UCX  ERROR "
	    "ibv_reg_mr(address=0x7f1a40000000, length=268435456, "
	    "access=0xf) failed: Cannot allocate memory", &r);
	ck_assert(unitfix_has(&r, "cause rdma-memlock"));
}
END_TEST

START_TEST(kv_transfer_and_launchers)
{
	struct explain_result r;

	one("[TensorRT-LLM][ERROR] UCX   No valid IP address found please "
	    "set correct UCX interface with env variable "
	    "TRTLLM_UCX_INTERFACE", &r);
	ck_assert(unitfix_has(&r, "open no-usable-interface"));
	one("E1207 10:12:04.001002 41235 nixl_p2p_metadata_backend.cpp:325] "
	    "P2P backend could not connect to IP 10.0.3.17 and port 5555",
	    &r);
	ck_assert(unitfix_has(&r, "open port-closed"));
	one("E1207 10:12:03.418101 41235 nixl_listener.cpp:76] select "
	    "timed out for ip_addr: 10.0.3.17 and port: 5555", &r);
	ck_assert(unitfix_has(&r, "open port-filtered"));
	ck_assert(!unitfix_has(&r, "open port-closed"));
	one("srun: error: Unable to allocate resources: Unable to contact "
	    "slurm controller (connect failure)", &r);
	/* a controller down more often than a network (blind42g b09,
	 * blind42k c14): a symptom, no candidate */
	ck_assert(!unitfix_has(&r, "open port-closed"));
	ck_assert(r.ncauses > 0 && r.causes[0].kind == EXPLAIN_SYMPTOM);
	one("RuntimeError: Cannot find an IPv4 address of the common "
	    "interface.", &r);
	ck_assert(unitfix_has(&r, "open no-usable-interface"));
}
END_TEST

/* Spark, TensorFlow's gRPC server, flannel; Java's "/ADDR:PORT". */
START_TEST(jvm_and_overlay_words)
{
	struct explain_result r;

	one("21/05/23 01:58:56 WARN Utils: Service 'sparkDriver' could not "
	    "bind on a random free port. You may check whether configuring "
	    "an appropriate binding address.", &r);
	ck_assert(unitfix_has(&r, "open hostname-unbindable"));
	one("java.net.BindException: Cannot assign requested address: "
	    "Service 'sparkDriver' failed after 16 retries (on a random free "
	    "port)!", &r);
	ck_assert(unitfix_has(&r, "open hostname-unbindable"));
	/* every port of SparkUI's range held: the errno decides */
	one("java.net.BindException: Address already in use: Service "
	    "'SparkUI' failed after 16 retries (starting from 4040)!", &r);
	ck_assert(unitfix_has(&r, "cause port-in-use"));
	one("E tensorflow/core/distributed_runtime/rpc/grpc_server_lib.cc:"
	    "447] Unknown: Could not start gRPC server", &r);
	ck_assert(unitfix_has(&r, "open port-in-use"));
	one("E0101 10:00:00.000000 1 main.go:289] Failed to find any valid "
	    "interface to use: failed to get default interface: Unable to "
	    "find default route", &r);
	ck_assert(unitfix_has(&r, "open no-usable-interface"));
	one("java.io.IOException: Failed to connect to /10.0.0.5:7077", &r);
	ck_assert(unitfix_has(&r, "open port-closed"));
}
END_TEST

/* NCCL 2.3-2.11 said a retried connect's errno; only a refusal means
 * nothing listened. */
START_TEST(nccl_retry_errno)
{
	struct explain_result r;

	one("node1:26407:26474 NCCL INFO Call to connect returned Connection "
	    "refused, retrying", &r);
	ck_assert(unitfix_has(&r, "open port-closed"));
	one("node1:26407:26474 NCCL INFO Call to connect returned Connection "
	    "timed out, retrying", &r);
	ck_assert(!unitfix_has(&r, "open port-closed"));
	ck_assert(unitfix_has(&r, "open port-filtered"));
	one("node1:26407:26474 NCCL INFO Call to connect returned No route "
	    "to host, retrying", &r);
	ck_assert(!unitfix_has(&r, "open port-closed"));
	ck_assert(unitfix_has(&r, "open host-unreachable"));
	ck_assert(!unitfix_has(&r, "cause host-unreachable"));
}
END_TEST

Suite *suite_explain_mined(void)
{
	Suite *s = suite_create("explain_mined");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, nccl_ib_words);
	tcase_add_test(tc, ucx_words);
	tcase_add_test(tc, kv_transfer_and_launchers);
	tcase_add_test(tc, jvm_and_overlay_words);
	tcase_add_test(tc, nccl_retry_errno);
	suite_add_tcase(s, tc);
	return s;
}
