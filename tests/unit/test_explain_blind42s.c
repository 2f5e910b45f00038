/* The classes blind42s's misses and wrong causes showed (issue 42): an
 * RDMA registration's ENOMEM that is not always the memlock limit, a Go
 * lookup whose DNS server could not be reached, a UDP request quoted in
 * a message, a bind of a loopback address no interface holds, a host
 * name check in microk8s's later words and in OpenPBS's start, torch's
 * store listen cut before its errno, a program's "host X is
 * unreachable", a Hazelcast member's announced container address, a
 * masked address in an HTTPS URL, ssh's key exchange with no reply,
 * and a pasted /etc/hosts that maps a host name to loopback. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(blind42s_lines)
{
	static const struct unitfix_line t[] = {
		/* the limit is the usual cause, not the only one */
		{"node1:812:850 [0] NCCL WARN Call to ibv_reg_mr failed with "
		 "error Cannot allocate memory", "open rdma-memlock",
		 "cause rdma-memlock"},
		/* dma-buf pins nothing the limit counts */
		{"kilo:318:3584 [5] misc/ibvwrap.cc:183 NCCL WARN Call to "
		 "ibv_reg_dmabuf_mr failed with error Cannot allocate memory",
		 NULL, "open rdma-memlock"},
		{"Error executing DC/OS components health check: unable to "
		 "create HTTP client: dial tcp: lookup master.mesos on "
		 "[::1]:53: dial udp [::1]:53: connect: network is "
		 "unreachable", "open name-unresolved",
		 "open no-usable-interface"},
		{"I1027 12:20:20.479434 1 logs.go:41] skydns: failure to "
		 "forward request \"read udp 10.200.5.14:55718->10.231.0.2:53: "
		 "i/o timeout\"", "open reply-blocked", NULL},
		{"failed to listen on 127.0.0.1:6444: listen tcp "
		 "127.0.0.1:6444: bind: cannot assign requested address",
		 "open loopback-down", "open port-range-narrow"},
		/* a connect's EADDRNOTAVAIL toward loopback: its ports */
		{"Error: connect 127.0.0.1:6379: Cannot assign requested "
		 "address", "open port-range-narrow", "open loopback-down"},
		{"Connection failed. The hostname (microk8s-vm) of the joining "
		 "node does not resolve to the IP \"10.231.0.213\". Refusing "
		 "join (400).", "open nat-detected", NULL},
		{"*** Invalid local hostname: testdev",
		 "cause name-unresolved", NULL},
		{"RuntimeError: The server socket has failed to listen on any "
		 "local network address. port: 46571, useIpv6: 0, code: -9",
		 "open port-in-use", NULL},
		{"ERROR: cluster.join: host \"15sp6-1\" is unreachable:",
		 "open host-unreachable", NULL},
		{"Caused by: java.io.IOException: No available connection to "
		 "address [172.17.0.3]:5702", "open container-bridge-nat",
		 NULL},
		{"E0627 02:16:27.208309 1 scraper.go:147] \"Failed to scrape "
		 "node, timeout to access kubelet\" err=\"Get \\\"https://"
		 "10.x.x.x:10250/metrics/resource\\\": context deadline "
		 "exceeded\"", "open port-filtered", NULL},
		/* a connection a client could not make, in its words */
		{"{\"type\":\"log\",\"tags\":[\"warning\",\"elasticsearch\"],"
		 "\"message\":\"Unable to revive connection: http://"
		 "elasticsearch:9200/\"}", "open port-filtered", NULL},
		/* with no endpoint it names nothing to test */
		{"Failed to establish a new connection", NULL,
		 "open port-filtered"},
		/* a name that does not resolve, in a program's words */
		{"ERROR: hostname node-7 does not resolve to 10.231.0.7",
		 "open hosts-stale", NULL},
		{"WARNING: host node-7 could not be resolved",
		 "open name-unresolved", NULL},
		/* a pasted hosts file: a host name on loopback's line */
		{"127.0.0.1   localhost hadoop1", "open hostname-loopback",
		 NULL},
		{"127.0.1.1\tnode-3.cluster node-3", "open hostname-loopback",
		 NULL},
		{"127.0.0.1 localhost localhost.localdomain localhost4", NULL,
		 "open hostname-loopback"},
		/* an access log's address is no hosts line */
		{"127.0.0.1 - - [07/Dec/2026:18:00:00 +0000] \"GET / HTTP/1.1\" "
		 "200", NULL, "open hostname-loopback"},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* The next commands name what the line gave: the holder of the cut
 * store's port, the host a program could not reach. */
START_TEST(blind42s_next_commands)
{
	static const char *const store[] = {
		"RuntimeError: The server socket has failed to listen on any "
		"local network address. port: 46571, useIpv6: 0, code: -9",
		NULL,
	};
	static const char *const crm[] = {
		"ERROR: cluster.join: host \"15sp6-1\" is unreachable:",
		NULL,
	};

	unitfix_expect_said(store, "open port-in-use", UNITFIX_NEXT,
			    "ss -ltnp 'sport = :46571'");
	unitfix_expect_said(crm, "open host-unreachable", UNITFIX_NEXT,
			    "netprobe scan --peer 15sp6-1");
}
END_TEST

/* A handshake's first message with no answer after it is the MTU pair
 * (curl's TLS Client hello, ssh -v's key exchange); with the answer (or
 * the host key ssh's reply carries), the exchange went on. */
START_TEST(handshake_without_answer)
{
	static const char *const curl_stall[] = {
		"* Connected to njal.la (95.215.19.10) port 443 (#0)",
		"* TLSv1.3 (OUT), TLS handshake, Client hello (1):",
		NULL,
	};
	static const char *const curl_on[] = {
		"* TLSv1.3 (OUT), TLS handshake, Client hello (1):",
		"* TLSv1.3 (IN), TLS handshake, Server hello (2):",
		NULL,
	};
	static const char *const ssh_stall[] = {
		"debug1: Connection established.",
		"debug1: SSH2_MSG_KEXINIT received",
		"debug1: expecting SSH2_MSG_KEX_ECDH_REPLY",
		NULL,
	};
	static const char *const ssh_on[] = {
		"debug1: expecting SSH2_MSG_KEX_ECDH_REPLY",
		"debug1: Server host key: ssh-ed25519 SHA256:abc",
		NULL,
	};
	static const char *const *const stalled[] = {curl_stall, ssh_stall};
	static const char *const *const went_on[] = {curl_on, ssh_on};
	struct explain_result r;

	for (size_t i = 0; i < 2; i++) {
		unitfix_explain(stalled[i], -1, &r);
		ck_assert_msg(unitfix_has(&r, "open mtu-blackhole"), "%zu", i);
		unitfix_explain(went_on[i], -1, &r);
		ck_assert_msg(!unitfix_has(&r, "open mtu-blackhole"), "%zu",
			      i);
	}
}
END_TEST

Suite *suite_explain_blind42s(void)
{
	Suite *s = suite_create("explain_blind42s");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, blind42s_lines);
	tcase_add_test(tc, blind42s_next_commands);
	tcase_add_test(tc, handshake_without_answer);
	suite_add_tcase(s, tc);
	return s;
}
