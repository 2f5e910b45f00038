/* The classes blind42v's misses showed (issue 42): musl's strerror words
 * (Alpine, Rust's io::Error), a program's own words for a DNS record or
 * a URL it could not reach, Spark's bind loop wrapped by pytest before
 * its count, memberlist with no private address, MinIO's name on
 * loopback, rabbitmqctl's hostname mismatch, dig's ICMP errors, curl's
 * SSL connect error as a receive failure, ping's header resolving a
 * host name to loopback, Nomad's bridge pool; and curl's trace read
 * attempt by attempt. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(blind42v_lines)
{
	static const struct unitfix_line t[] = {
		{"WARN quinn_udp: sendmsg error: Os { code: 101, kind: "
		 "NetworkUnreachable, message: \"Network unreachable\" }, "
		 "Transmit: { destination: [2600:1900:4000:a47e:0:d::]:3478, "
		 "src_ip: None }",
		 "open host-unreachable", NULL},
		{"listen tcp 10.231.0.5:7000: bind: Address in use",
		 "open port-in-use", NULL},
		{"=== Cannot resolve the DNS entry for spark-master. Has the "
		 "service been created yet?", "open name-unresolved", NULL},
		{"ERROR: http://10.231.0.17:8080/v1 is not accessible",
		 "open port-filtered", NULL},
		{"E  : java.net.BindException: Cannot assign requested "
		 "address: Service 'sparkDriver' failed after",
		 "open hostname-unbindable", NULL},
		{"[ERR] Could not start serf: Failed to start the Serf agent: "
		 "Error creating Serf: Failed to create memberlist: No private "
		 "IP address found, and explicit IP not provided",
		 "cause no-usable-interface", NULL},
		{"Error: minio01.example.lan resolves to localhost in a "
		 "containerized deployment, waiting for it to resolve to a "
		 "valid IP", "cause hostname-loopback", NULL},
		{"  * Hostname mismatch: node \"rabbit@server1\" believes its "
		 "host is different. Please ensure that hostnames resolve the "
		 "same way locally and on \"rabbit@server1\"",
		 "open hostname-loopback", NULL},
		{";; communications error to 10.89.0.1#53: host unreachable",
		 "open port-prohibited", NULL},
		{";; communications error to 10.96.0.10#53: connection refused",
		 "open port-closed", NULL},
		{"curl: (35) Recv failure: Connection reset by peer",
		 "open mtu-blackhole", NULL},
		{"PING test345 (127.0.1.1) 56(84) bytes of data.",
		 "open hostname-loopback", NULL},
		{"level=warn msg=\"TCPTransport: WriteTo failed\" "
		 "addr=172.26.64.20:26979 err=\"dial tcp 172.26.64.20:26979: "
		 "connect: no route to host\"",
		 "open container-bridge-nat", NULL},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* The lines that must open nothing of the classes above: loopback's own
 * name pinged, another bridge's range, dig's answer. */
START_TEST(blind42v_quiet)
{
	static const struct unitfix_line t[] = {
		{"PING localhost (127.0.0.1) 56(84) bytes of data.", NULL,
		 "open hostname-loopback"},
		{"dial tcp 172.26.80.20:26979: connect: no route to host", NULL,
		 "open container-bridge-nat"},
		{";; ANSWER SECTION:", NULL, "open port-prohibited"},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* curl's trace, attempt by attempt: an attempt whose Client hello no
 * Server hello answers before the next attempt is the stall, a later
 * one that went on notwithstanding (blind42v a08: the hung attempt, ip
 * link set mtu 1400, one that went on); every hello answered is no
 * stall. */
START_TEST(curl_attempts)
{
	static const char *const stalled_then_ok[] = {
		"*   Trying 3.222.35.6:443...",
		"* Connected to registry-1.docker.io (3.222.35.6) port 443 (#0)",
		"* TLSv1.3 (OUT), TLS handshake, Client hello (1):",
		"^C",
		"root@localhost ~ $ sudo ip link set ens18 mtu 1400",
		"*   Trying 52.20.100.68:443...",
		"* TLSv1.3 (OUT), TLS handshake, Client hello (1):",
		"* TLSv1.3 (IN), TLS handshake, Server hello (2):",
		NULL,
	};
	static const char *const all_answered[] = {
		"* TLSv1.3 (OUT), TLS handshake, Client hello (1):",
		"* TLSv1.3 (IN), TLS handshake, Server hello (2):",
		"* TLSv1.3 (OUT), TLS handshake, Client hello (1):",
		"* TLSv1.3 (IN), TLS handshake, Server hello (2):",
		NULL,
	};
	struct explain_result r;

	unitfix_explain(stalled_then_ok, -1, &r);
	ck_assert(unitfix_has(&r, "open mtu-blackhole"));
	unitfix_explain(all_answered, -1, &r);
	ck_assert(!unitfix_has(&r, "open mtu-blackhole"));
}
END_TEST

Suite *suite_explain_blind42v(void)
{
	Suite *s = suite_create("explain_blind42v");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, blind42v_lines);
	tcase_add_test(tc, blind42v_quiet);
	tcase_add_test(tc, curl_attempts);
	suite_add_tcase(s, tc);
	return s;
}
