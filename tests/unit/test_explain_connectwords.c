/* How a failed connect is worded decides what it opens (issue 42:
 * blind42l): musl's and libuv's "host is unreachable" is EHOSTUNREACH
 * as surely as glibc's "No route to host", and opens its candidates
 * with or without an address (no peer process answers with it); a
 * REJECT's ICMP prohibited is among them; a framework's failure that
 * names no errno opens every errno's candidates, the loopback-only
 * listener of a refusal too. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(host_is_unreachable_words)
{
	static const char curl[] = "curl: (7) Failed to connect to 10.1.2.3 "
				   "port 8080: Host is unreachable";
	/* Julia's Distributed prints libuv's words and no address */
	static const char julia[] = "ERROR: connect: host is unreachable "
				    "(EHOSTUNREACH)";
	static const struct unitfix_line t[] = {
		{curl, "open host-unreachable", NULL},
		{curl, "open port-prohibited", NULL},
		{julia, "open port-prohibited", "cause host-unreachable"},
		/* a refusal with no address still names nothing to test */
		{"IOError: connect: connection refused (ECONNREFUSED)", NULL,
		 "open port-closed"},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

START_TEST(unknown_errno_opens_every_errno)
{
	static const char grpc[] = "ERROR - Could not connect to server: "
				   "imtl-3:8765 Setting flag for stopping "
				   "training. failed to connect to all "
				   "addresses";
	static const struct unitfix_line t[] = {
		{grpc, "open listener-loopback-only", NULL},
		{grpc, "open port-filtered", NULL},
		{grpc, "open port-closed", NULL},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* EHOSTUNREACH is a neighbour that never answered or a REJECT with
 * host-prohibited (firewalld's default: blind42n c11): it opens both;
 * ENETUNREACH is this host's own routes and decides. */
START_TEST(no_route_opens_the_reject_too)
{
	static const char go[] = "E1009 20:09:39.098145 1 reflector.go:214] "
				 "Failed to list *api.Endpoints: Get https://"
				 "100.64.0.1:443/api/v1/endpoints: dial tcp "
				 "100.64.0.1:443: getsockopt: no route to host";
	static const struct unitfix_line t[] = {
		{go, "open port-prohibited", "cause host-unreachable"},
		{go, "open host-unreachable", NULL},
		{"RuntimeError: [../third_party/gloo/gloo/transport/tcp/"
		 "pair.cc:799] connect [10.231.9.9]:28338: No route to host",
		 "open port-prohibited", "cause host-unreachable"},
		{"Get \"https://10.43.0.1:443/version\": dial tcp "
		 "10.43.0.1:443: connect: network is unreachable",
		 "cause host-unreachable", NULL},
	};
	static const char *const l[] = {go, NULL};

	UNITFIX_EXPECT(t);
	unitfix_expect_said(l, "open port-prohibited", UNITFIX_NEXT,
			    "netprobe ports 100.64.0.1 443");
}
END_TEST

Suite *suite_explain_connectwords(void)
{
	Suite *s = suite_create("explain_connectwords");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, host_is_unreachable_words);
	tcase_add_test(tc, unknown_errno_opens_every_errno);
	tcase_add_test(tc, no_route_opens_the_reject_too);
	suite_add_tcase(s, tc);
	return s;
}
