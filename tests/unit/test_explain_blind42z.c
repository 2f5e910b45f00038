/* The classes blind42z's misses showed (issue 42): FSx for Lustre's
 * security groups closed to LNET's port, Docker's address pools all
 * overlapping a route, Podman's network without aardvark-dns, Go's dial
 * that timed out in its lookup (no address after "dial tcp:"), a
 * --publish flag on a docker run's continued line beside curl's reset;
 * and what must not decide or open: gRPC's "DNS resolution failed" with
 * no target named (a URL handed whole to its resolver), a full stop
 * after a word ("host engine.") taken for a dotted name, a timeout
 * toward loopback. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(blind42z_lines)
{
	static const struct unitfix_line t[] = {
		{"The file system cannot be created because the default "
		 "security group in the subnet provided or the provided "
		 "security groups do not permit Lustre LNET network traffic "
		 "on port 988", "open port-filtered", NULL},
		{"ERROR: could not find an available, non-overlapping IPv4 "
		 "address pool among the defaults to assign to the network",
		 "open overlapping-subnets", NULL},
		{"WARN[0000] aardvark-dns binary not found, container dns will "
		 "not be enabled", "open name-unresolved", NULL},
		{"E0521 09:25:04.217633 1733 reflector.go:205] Failed to list "
		 "*v1.Node: Get https://localhost:6443/api/v1/nodes?"
		 "resourceVersion=0: dial tcp: i/o timeout",
		 "open name-unresolved", "open port-filtered"},
		{"details = \"DNS resolution failed for service: worker-1.job."
		 "svc.cluster.local:2222\"", "cause name-unresolved", NULL},
		{"  ✗ Host DNS resolution failed (could not resolve "
		 "integrate.api.nvidia.com).", "cause name-unresolved", NULL},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* Not decided or not opened at all. */
START_TEST(blind42z_quiet)
{
	static const struct unitfix_line t[] = {
		{"error\": \"14 UNAVAILABLE: DNS resolution failed",
		 "open name-unresolved", "cause name-unresolved"},
		{"Error: Unable to connect to host engine. Host engine "
		 "connection invalid/disconnected.", NULL,
		 "open name-unresolved"},
		{"level=error msg=\"Error performing request: Head \\\"http://"
		 "127.0.0.1:8080/v1/decisions/stream\\\": context deadline "
		 "exceeded (Client.Timeout exceeded while awaiting headers)\"",
		 NULL, "open port-filtered"},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* docker run's --publish on a continued line, beside curl's reset,
 * opens the listener behind the published port. */
START_TEST(publish_flag_beside_reset)
{
	static const char *const log[] = {
		"15:18 $ docker run -d --name=\"logspout\" \\",
		">     --volume=/var/run/docker.sock:/tmp/docker.sock \\",
		">     --publish=127.0.0.1:8000:80 \\",
		">     gliderlabs/logspout",
		"15:18 $ curl http://127.0.0.1:8000/logs",
		"curl: (56) Recv failure: Connection reset by peer",
		NULL,
	};
	struct explain_result r;

	unitfix_explain(log, -1, &r);
	ck_assert(unitfix_has(&r, "open port-closed"));
}
END_TEST

Suite *suite_explain_blind42z(void)
{
	Suite *s = suite_create("explain_blind42z");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, blind42z_lines);
	tcase_add_test(tc, blind42z_quiet);
	tcase_add_test(tc, publish_flag_beside_reset);
	suite_add_tcase(s, tc);
	return s;
}
