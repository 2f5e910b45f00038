/* The classes blind42y's misses showed (issue 42): Boost.Asio's and
 * ClickHouse's words for a failed lookup, Debian's 127.0.1.1 (the host
 * name's own entry) dialled, Proxmox's cluster file system finding no
 * usable address, a Ceph OSD's unanswered heartbeats, NVSHMEM's local
 * socket missing where two nodes share a name, brpc's queue pair that
 * would not reach RTR, Python's HTTP reset beside a published port, a
 * server that answered in another protocol, an interface listing with a
 * veth above its uplink's MTU; and what must stay quiet:
 * gRPC's sentence after "connect to" names no host (the wrong cause
 * blind42y e01 had), curl handed a shell's split argument, a resolver
 * "failing" on an address literal. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(blind42y_lines)
{
	static const struct unitfix_line t[] = {
		{"hpx::init: hpx::exception caught: resolve: Host not found "
		 "(authoritative) (while trying to resolve: exp-2-19:0): "
		 "HPX(network_error)", "open name-unresolved", NULL},
		{"Code: 198. DB::Exception: Not found address of host: ch-2. "
		 "(DNS_ERROR)", "open name-unresolved", NULL},
		{"2019/05/03 08:39:34 [ERR] raft: Failed to heartbeat to "
		 "127.0.1.1:10008: dial tcp 127.0.1.1:10008: connect: "
		 "connection refused", "open hostname-loopback", NULL},
		{"Mar 24 18:28:59 pve03 pmxcfs[16589]: [main] crit: Unable to "
		 "get local IP address", "open hostname-loopback", NULL},
		{"osd.0 10 heartbeat_check: no reply from 10.1.57.0:6803 osd.1 "
		 "ever on either front or back", "open host-unreachable",
		 NULL},
		{"IPC failure: Sending data over socket failed: No such file "
		 "or directory", "open hostname-shared", NULL},
		{"W1017 15:55:46.241584 10770 4294969345 src/brpc/rdma/"
		 "rdma_endpoint.cpp:1237 BringUpQp] Fail to modify QP from "
		 "INIT to RTR: No such device", "open rdma-netdev-netns", NULL},
		{"InferenceServerException: [StatusCode.UNAVAILABLE] failed to "
		 "connect to all addresses; last error: INTERNAL: ipv4:"
		 "10.231.9.5:443: Trying to connect an http1.x server",
		 "other protocol-mismatch", "open port-filtered"},
		{"Get \"https://10.231.9.5:5000/v2/\": http: server gave HTTP "
		 "response to HTTPS client", "other protocol-mismatch",
		 "open host-unreachable"},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* Quiet: gRPC's refusal on loopback in a one-host log decides no
 * advertised loopback ("connect to all addresses", "connect to remote
 * host" are words); curl given "2.0," as a host; Asio "failing" to
 * resolve 0.0.0.0. */
START_TEST(blind42y_quiet)
{
	static const struct unitfix_line t[] = {
		{"UNKNOWN:failed to connect to all addresses; last error: "
		 "UNKNOWN: ipv4:127.0.0.1:6334: Failed to connect to remote "
		 "host: Connection refused", "open port-closed",
		 "cause hostname-loopback"},
		{"curl: (6) Could not resolve host: 2.0,", NULL,
		 "open name-unresolved"},
		{"[coro_http_server.hpp:725] bad address: 0.0.0.0 error: Host "
		 "not found (authoritative)", NULL, "open name-unresolved"},
		{"curl: (6) Could not resolve host: trainer-0; Name or service "
		 "not known", "open name-unresolved", NULL},
		{"Failed to resolve host: gpu-b:29500: Name or service not "
		 "known", "open name-unresolved", NULL},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* Python's reset beside a port Docker publishes opens the listener
 * behind it. */
START_TEST(python_reset_beside_published)
{
	static const char *const log[] = {
		"requests.exceptions.ConnectionError: ('Connection aborted.', "
		"ConnectionResetError(104, 'Connection reset by peer'))",
		"85aaaa50ab1f   tensorflow/serving   \"/usr/bin/tf_serving\"   "
		"59 seconds ago   Up 56 seconds   8500-8501/tcp, "
		"0.0.0.0:8502->8502/tcp   zen_wiles",
		NULL,
	};
	struct explain_result r;

	unitfix_explain(log, -1, &r);
	ck_assert(unitfix_has(&r, "open port-closed"));
}
END_TEST

/* An interface listing: a veth, a bridge or an overlay above every
 * uplink's MTU opens the MTU pair (blind42y c07); MTUs that fit, an
 * interface down, and devices whose MTU is no inner MTU (Cilium's
 * cilium_vxlan, OVS's tunnel ports) open nothing. */
START_TEST(mtu_listing)
{
	static const char *const calico[] = {
		"2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc mq "
		"state UP group default qlen 1000",
		"4: calif4fad8d7ab0@if2: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu "
		"1500 qdisc noqueue state UP group default qlen 1000",
		NULL,
	};
	static const char *const dind[] = {
		"eth0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1400",
		"docker0: flags=4099<UP,BROADCAST,MULTICAST>  mtu 1500",
		NULL,
	};
	static const char *const flannel[] = {
		"2: ens3: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq",
		"3: flannel.1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc "
		"noqueue",
		NULL,
	};
	static const char *const healthy[] = {
		"2: ens3: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq",
		"3: flannel.1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc "
		"noqueue",
		"4: docker0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500",
		"5: cilium_vxlan: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500",
		"6: genev_sys_6081: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 65000",
		"7: br-1a2b3c: <BROADCAST,MULTICAST> mtu 9000 qdisc noop",
		NULL,
	};
	struct explain_result r;

	unitfix_explain(calico, -1, &r);
	ck_assert(unitfix_has(&r, "open mtu-mismatch"));
	unitfix_explain(dind, -1, &r);
	ck_assert(unitfix_has(&r, "open mtu-mismatch"));
	unitfix_explain(flannel, -1, &r);
	ck_assert(unitfix_has(&r, "open mtu-mismatch"));
	unitfix_explain(healthy, -1, &r);
	ck_assert(!unitfix_has(&r, "open mtu-mismatch"));
}
END_TEST

Suite *suite_explain_blind42y(void)
{
	Suite *s = suite_create("explain_blind42y");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, blind42y_lines);
	tcase_add_test(tc, blind42y_quiet);
	tcase_add_test(tc, python_reset_beside_published);
	tcase_add_test(tc, mtu_listing);
	suite_add_tcase(s, tc);
	return s;
}
