/* The classes blind42w's misses showed (issue 42): a bind in a program's
 * own words on Java's "/0.0.0.0:PORT", BusyBox's "bad address", UCX's
 * memlock warning, Cilium Hubble's policy drop, Doris's and StarRocks's
 * frontend on loopback and backend toward the master, a connection "to"
 * a target with no "to" before the verb; a reset beside a server's own
 * loopback-only listen; and what must stay quiet: a preposition glued to
 * an address is no host name, a resolver handed a lone "[" is a
 * parser's fault, and a lookup of "null" a setting left unset (the
 * small blind42x's one class). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(blind42w_lines)
{
	static const struct unitfix_line t[] = {
		{"Caused by: java.lang.RuntimeException: Failed to listen on "
		 "address /0.0.0.0:20030 for web server Alluxio worker web "
		 "service", "open port-in-use", NULL},
		{"nc: bad address 'apisix-admin.ingress-apisix.svc.cluster."
		 "local'", "open name-unresolved", NULL},
		{"allocate memory : Please set max locked memory (ulimit -l) "
		 "to 'unlimited' (current: 8192 kbytes)",
		 "cause rdma-memlock", NULL},
		{"Mar 15 12:00:07.234: jhub01/hub-6cdf:54686 (ID:154794) <> "
		 "jhub01/traefik-7665:8000 (ID:135336) Policy denied DROPPED "
		 "(TCP Flags: SYN)", "cause port-filtered", NULL},
		{"fe.log:2021-11-12 17:16:44,386 INFO (main|1) "
		 "[FrontendOptions.init():96] local address: /127.0.0.1.",
		 "cause hostname-loopback", NULL},
		{"W0919 11:11:05.690816  6218 utils.cpp:183] master client, get "
		 "client from cache failed.host: 10.231.7.1, port: 9020, code: "
		 "7", "open rank-unreachable", NULL},
		{"FdfsConnectException: can't create connection to/"
		 "172.17.0.3:23000", "open container-bridge-nat",
		 "open hosts-stale"},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* Quiet: a resolver handed an IPv6 literal's bracket; "Could not
 * establish connection" with no target names nothing; a lookup of a
 * program's empty value (blind42x a03, Java's "null"). */
START_TEST(blind42w_quiet)
{
	static const struct unitfix_line t[] = {
		{"broker[1]: Warning: unable to resolve upstream peer [: Name "
		 "or service not known", NULL, "open name-unresolved"},
		{"srv  setup_child_: failed to notify router server: Could not "
		 "establish connection", NULL, "open port-closed"},
		{"java.net.UnknownHostException: null", NULL,
		 "open name-unresolved"},
		{"dial tcp: lookup None: no such host", NULL,
		 "open name-unresolved"},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* A reset beside the server's own words that it listens on loopback
 * only opens the loopback listener; a server that also says it runs on
 * every address or on another one (Flask's three lines) does not. */
START_TEST(reset_beside_loopback_listen)
{
	static const char *const lo[] = {
		"curl: (56) Recv failure: Connection reset by peer",
		"webui_1  | Running on local URL:  http://127.0.0.1:7860",
		NULL,
	};
	static const char *const any[] = {
		"curl: (56) Recv failure: Connection reset by peer",
		" * Running on all addresses (0.0.0.0)",
		" * Running on http://127.0.0.1:5000",
		" * Running on http://172.17.0.3:5000",
		NULL,
	};
	struct explain_result r;

	unitfix_explain(lo, -1, &r);
	ck_assert(unitfix_has(&r, "open listener-loopback-only"));
	unitfix_explain(any, -1, &r);
	ck_assert(!unitfix_has(&r, "open listener-loopback-only"));
}
END_TEST

Suite *suite_explain_blind42w(void)
{
	Suite *s = suite_create("explain_blind42w");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, blind42w_lines);
	tcase_add_test(tc, blind42w_quiet);
	tcase_add_test(tc, reset_beside_loopback_listen);
	suite_add_tcase(s, tc);
	return s;
}
