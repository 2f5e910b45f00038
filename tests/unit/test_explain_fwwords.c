/* Frameworks' own words for a peer they could not reach or a port they
 * could not have (issue 42: blind42l's misses, each a class):
 * TensorPipe's agent errors (libuv's errno, a worker's name), a dask-ssh
 * worker told a loopback scheduler, ssh's refused remote forward, Ray's
 * own port plan. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(tensorpipe_errno)
{
	static const char refused[] = "[W tensorpipe_agent.cpp:641] RPC agent "
		"for Test0 encountered error when sending outgoing request "
		"#0 to Test1: ECONNREFUSED: connection refused";
	/* a timeout is no refusal: the errno picks the set */
	static const char timedout[] = "[W tensorpipe_agent.cpp:641] RPC "
		"agent for w0 encountered error when sending outgoing "
		"request #3 to w1: ETIMEDOUT: connection timed out";
	static const struct unitfix_line t[] = {
		{refused, "open hostname-loopback", "cause port-closed"},
		{timedout, "open port-filtered", "open listener-loopback-only"},
	};
	struct explain_result r;
	const struct explain_cause *c;

	UNITFIX_EXPECT(t);
	unitfix_explain_line(refused, &r);
	c = unitfix_cause(&r, "open listener-loopback-only");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(strstr(c->next, "Test1") &&
		      strstr(c->next, "TP_SOCKET_IFNAME"),
		      "next: %s", c->next);
}
END_TEST

START_TEST(dask_ssh_worker_loopback)
{
	static const struct unitfix_line t[] = {
		{"[ worker NotARealMachine.edu ] : distributed.worker - INFO - "
		 "Waiting to connect to: tcp://localhost:8786",
		 "open hostname-loopback", NULL},
		/* on the scheduler's own host loopback is right */
		{"[ worker localhost ] : distributed.worker - INFO - Waiting to "
		 "connect to: tcp://localhost:8786", NULL,
		 "open hostname-loopback"},
		{"[ worker 127.0.0.1 ] : distributed.worker - INFO - Waiting to "
		 "connect to: tcp://127.0.0.1:8786", NULL,
		 "open hostname-loopback"},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

START_TEST(ports_not_had)
{
	/* Rich wrapped the line after "remote port" */
	static const char fwd[] = "                    forwarding failed "
				  "for listen port 8001";
	static const struct unitfix_line t[] = {
		/* Ray's own plan, not a code bug of the program */
		{"ValueError: Ray component worker_ports is trying to use a "
		 "port number 53058 that is used by other components.",
		 "open port-in-use", "other code-bug"},
	};
	struct explain_result r;
	const struct explain_cause *c;

	UNITFIX_EXPECT(t);
	unitfix_explain_line(fwd, &r);
	c = unitfix_cause(&r, "open port-in-use");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(strstr(c->next, "sport = :8001"), "next: %s", c->next);
}
END_TEST

/* blind42m's classes: kubeadm's own word that the kubelet is down (not
 * the network), Java NIO's unresolved address, Winsock's forbidden bind,
 * gunicorn's and gRPC's binds, a client given its server's loopback
 * URL, Julia's peer connect. */
START_TEST(after_blind42m)
{
	static const struct unitfix_line t[] = {
		{"[kubelet-check] It seems like the kubelet isn't running or "
		 "healthy.", "other service-down", NULL},
		{"java.nio.channels.UnresolvedAddressException",
		 "open name-unresolved", NULL},
		{"Error: listen tcp 127.0.0.1:11434: bind: An attempt was made "
		 "to access a socket in a way forbidden by its access "
		 "permissions.", "open port-in-use", NULL},
		{"[2018-07-08 16:36:08 -0700] [17612] [ERROR] Connection in use: "
		 "('127.0.0.1', 5000)", "cause port-in-use", NULL},
		{"E0820 server_chttp2.cc:40] {\"description\":\"No address "
		 "added out of total 1 resolved\"}", "open port-in-use", NULL},
		{"Failed to connect to Hub API at 'http://127.0.0.1:8081/hub/"
		 "api'.  Is the Hub accessible at this URL (from host: "
		 "629e66de64a1)?", "open listener-loopback-only", NULL},
		{"trains_agent: ERROR: Connection Error: it seems *api_server* is "
		 "misconfigured. Is this the TRAINS API server "
		 "http://localhost:8008 ?", "open container-bridge-nat", NULL},
		{"Connection failed. Hostname ml00 should resolve to "
		 "192.168.20.10, but it did not. Refusing join. (400).",
		 "open hosts-stale", NULL},
		{"Error [connect: connection refused (ECONNREFUSED)] on 3 while "
		 "connecting to peer 2. Exiting.", "open listener-loopback-only",
		 NULL},
	};
	static const char kubeadm[] = "The HTTP call equal to 'curl -sSL "
		"http://localhost:10248/healthz' failed with error: Get "
		"http://localhost:10248/healthz: dial tcp 127.0.0.1:10248: "
		"connect: connection refused.";
	static const char *const log[] = {
		kubeadm, "[kubelet-check] It seems like the kubelet isn't "
		"running or healthy.", NULL};
	struct explain_result r;
	const struct explain_cause *c;

	UNITFIX_EXPECT(t);
	/* the refusal on localhost is the kubelet's echo, not a network
	 * candidate; alone it stays the refusal it is */
	unitfix_explain(log, -1, &r);
	ck_assert(unitfix_has(&r, "other service-down"));
	ck_assert(!unitfix_has(&r, "open port-closed"));
	/* ssh refused: the fix names the port this ssh dialed */
	unitfix_explain_line("ssh: connect to host node2 port 22: Connection "
			     "refused", &r);
	c = unitfix_cause(&r, "cause port-closed");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(strstr(c->fix, "ssh -G node2"), "fix: %s", c->fix);
}
END_TEST

Suite *suite_explain_fwwords(void)
{
	Suite *s = suite_create("explain_fwwords");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, tensorpipe_errno);
	tcase_add_test(tc, dask_ssh_worker_loopback);
	tcase_add_test(tc, ports_not_had);
	tcase_add_test(tc, after_blind42m);
	suite_add_tcase(s, tc);
	return s;
}
