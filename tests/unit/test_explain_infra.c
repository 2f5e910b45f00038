/* Lines of the infrastructure around a job that name a network fault
 * (issue 42: blind42n's classes): Docker's subnet overlap, CoreDNS's
 * forwarding loop, OpenVPN's unanswered handshake, ping's total loss,
 * NFS's unanswered RPC, Parsl's unreachable interchange, HCCL's bound
 * port, Compose's held port, no RDMA device in sysfs, anyio's "All
 * connection attempts failed" near an endpoint, a TLS handshake with no
 * answer, and NCCL reaching a peer at an IPv4 link-local address. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(infra_lines)
{
	static const struct unitfix_line t[] = {
		{"failed to create network x_default: Error response from "
		 "daemon: Pool overlaps with other one on this address space",
		 "cause overlapping-subnets", NULL},
		{"2018/09/06 13:02:45 [FATAL] plugin/loop: Seen \"HINFO IN "
		 "2050421060481615995.5620656063561519376.\" more than twice, "
		 "loop detected", "open name-unresolved", NULL},
		{"[FATAL] plugin/loop: Loop (127.0.0.1:55953 -> :53) detected "
		 "for zone \".\", see https://coredns.io/plugins/loop",
		 "open name-unresolved", NULL},
		{"2015-06-17 17:53:47 TLS Error: TLS key negotiation failed to "
		 "occur within 60 seconds (check your network connectivity)",
		 "open port-filtered", NULL},
		{"4 packets transmitted, 0 packets received, 100% packet loss",
		 "open host-unreachable", NULL},
		{"3 packets transmitted, 0 received, +3 errors, 100% packet "
		 "loss, time 2031ms", "open port-filtered", NULL},
		/* some came back: no total loss */
		{"4 packets transmitted, 3 received, 25% packet loss", NULL,
		 "open host-unreachable"},
		{"mount.nfs: portmap query failed: RPC: Timed out",
		 "open inbound-blocked", NULL},
		{"Failed to find a viable address to connect to interchange. "
		 "Exiting", "open port-filtered", NULL},
		{"EJ0003: [PID: 159] Failed to bind the IP port. Reason: The IP "
		 "address and port have been bound already.",
		 "cause port-in-use", NULL},
		{"host nic listen start failed, port[60000], return[11]",
		 "open port-in-use", NULL},
		{"misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
		 "169.254.255.18<42219> failed : Software caused connection "
		 "abort", "open nccl-default-iface-unsafe", NULL},
		{"Fatal error:  device '*': sys files not found "
		 "(/sys/class/infiniband/*/ports)", "open rdma-ib-fallback",
		 NULL},
		{"No IB devices found", "open rdma-ib-fallback", NULL},
		{"Creating pihole ... \nHost is already in use by another "
		 "container\nCreating pihole ... error", "open port-in-use",
		 NULL},
		{"Bind for 0.0.0.0:58946 failed: port is already allocated",
		 "cause port-in-use", NULL},
		{"Error response from daemon: error parsing HTTP 408 response "
		 "body: invalid character '<' looking for beginning of value",
		 "open mtu-blackhole", NULL},
		{"java.lang.RuntimeException: Something wrong with network/dns "
		 "config, host cant figure out its name",
		 "open name-unresolved", NULL},
		{"Cannot resolve a local IP address that isn't 127.0.0. Your "
		 "machines might not have a local IP address assigned",
		 "open hostname-loopback", NULL},
		{" [FATAL] plugin/loop: Forwarding loop detected in \".\" zone. "
		 "Exiting.", "open name-unresolved", NULL},
		{"dial tcp NODEIP:10250: i/o timeout", "open port-filtered",
		 NULL},
		{"[JvmBridge] java.net.BindException: Cannot assign requested "
		 "address: bind: Service 'sparkDriver' failed after 16 retries",
		 "open hostname-unbindable", NULL},
		{"Caused by: java.io.IOException: Failed to connect to "
		 "kyuubi-example:42845", "open name-unresolved", NULL},
		/* localhost always resolves; a one-host log's loopback is no
		 * peer's advertisement */
		{"failed to connect to localhost:8080", "open port-closed",
		 "open name-unresolved"},
		{"failed to connect to localhost:8080", NULL,
		 "open hostname-loopback"},
		{"  : IOError(Os { code: 111, kind: ConnectionRefused }) "
		 "toward 10.231.0.5:9866", "open port-closed", NULL},
		/* a TLS handshake with no answer over a connection that
		 * stood (blind42n c13) */
		{"[discovery] Failed to request cluster info, will try "
		 "again: [Get https://10.0.32.140:6443/api/v1/namespaces/"
		 "kube-public/configmaps/cluster-info: net/http: TLS "
		 "handshake timeout]", "open mtu-blackhole", NULL},
		{"ssl.SSLError: ('_ssl.c:1091: The handshake operation timed "
		 "out',)", "open mtu-mismatch", NULL},
		{"curl: (35) Unknown SSL protocol error in connection to "
		 "api.rubygems.org:443 ", "open mtu-blackhole", NULL},
		/* no endpoint on it or near it: nothing to test */
		{"ERROR - Failed to get meta from running instance x: All "
		 "connection attempts failed.", NULL, "open port-closed"},
	};
	static const char *const near[] = {
		"$ curl http://10.231.0.9:10150/v1/models",
		"{\"error\":{\"message\":\"An unexpected error occurred: All "
		"connection attempts failed\",\"code\":503}}",
		NULL,
	};
	struct explain_result r;

	UNITFIX_EXPECT(t);
	unitfix_explain(near, -1, &r);
	ck_assert(unitfix_has(&r, "open port-closed"));
	ck_assert(unitfix_has(&r, "open port-filtered"));
}
END_TEST

/* A daemon's segfault explains mpirun's failure to start it; a row
 * that captures nothing opens no candidate beside it. */
START_TEST(crash_explains_the_launch)
{
	static const char *const l[] = {
		"[vegas26:00823] *** Process received signal ***",
		"[vegas26:00823] Signal: Segmentation fault (11)",
		"ORTE was unable to reliably start one or more daemons.",
		NULL,
	};
	struct explain_result r;

	unitfix_explain(l, -1, &r);
	ck_assert(unitfix_has(&r, "other code-bug"));
	ck_assert(!unitfix_has(&r, "open inbound-blocked"));
	unitfix_explain(l + 2, -1, &r);
	ck_assert(unitfix_has(&r, "open inbound-blocked"));
}
END_TEST

Suite *suite_explain_infra(void)
{
	Suite *s = suite_create("explain_infra");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, infra_lines);
	tcase_add_test(tc, crash_explains_the_launch);
	suite_add_tcase(s, tc);
	return s;
}
