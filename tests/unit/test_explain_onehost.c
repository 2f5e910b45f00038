/* A loopback peer proves a rank advertised its host name's loopback
 * mapping only where the job spans hosts. On a log that names no other
 * host, 127.0.0.1 is how one host's processes meet (issue 42: blind42n
 * d05, trl's client timing out on a port another service held; b07,
 * Horovod's elastic test killing a rank on one host): a connect there
 * opens the listener missing, the port held, or the mapping; a reset
 * there is its peer's exit. 127.0.1.1 comes only from a host name. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "decide/explain_origin.h"
#include "unitfix.h"

START_TEST(origin_other_hosts)
{
	struct explain_origin o;

	memset(&o, 0, sizeof(o));
	ck_assert(!explain_origin_other_hosts(&o)); /* names nothing */
	explain_origin_line(&o, "connect to (127.0.0.1, 51216) failed");
	ck_assert(!explain_origin_other_hosts(&o));
	explain_origin_line(&o, "MASTER_ADDR=10.231.0.4");
	ck_assert(explain_origin_other_hosts(&o));
}
END_TEST

START_TEST(one_host_loopback_opens)
{
	static const char store[] = "torch.distributed.DistNetworkError: The "
				    "client socket has timed out after "
				    "300000ms while trying to connect to "
				    "(127.0.0.1, 51216).";
	static const char *const two_hosts[] = {
		"[W socket.cpp:601] [c10d] The server socket on node-b "
		"(10.231.0.7) has bound port 29500",
		store,
		NULL,
	};
	static const char *const one[] = {store, NULL};
	struct explain_result r;

	unitfix_explain_line(store, &r);
	ck_assert(!unitfix_has(&r, "cause hostname-loopback"));
	ck_assert(unitfix_has(&r, "open port-closed"));
	ck_assert(unitfix_has(&r, "open hostname-loopback"));
	unitfix_expect_said(one, "open port-in-use", UNITFIX_NEXT,
			    "ss -ltnp 'sport = :51216'");
	/* a log that names another host: the old proof */
	unitfix_explain(two_hosts, -1, &r);
	ck_assert(unitfix_has(&r, "cause hostname-loopback"));
}
END_TEST

START_TEST(hostname_mapping_still_proves)
{
	struct explain_result r;

	/* Debian's 127.0.1.1 is a host name's, never a program's choice */
	unitfix_explain_line("RuntimeError: [../third_party/gloo/gloo/"
			     "transport/tcp/pair.cc:799] connect "
			     "[127.0.1.1]:37913: Connection refused", &r);
	ck_assert(unitfix_has(&r, "cause hostname-loopback"));
}
END_TEST

START_TEST(killed_rank_resets_on_one_host)
{
	static const char *const l[] = {
		"[1]<stderr>:  what():  [/pytorch/third_party/gloo/gloo/"
		"transport/tcp/pair.cc:589] Read error [127.0.0.1]:3977: "
		"Connection reset by peer",
		"Process 0 exit with status code 137.",
		NULL,
	};
	struct explain_result r;

	unitfix_explain(l, -1, &r);
	ck_assert(unitfix_has(&r, "other process-killed"));
	ck_assert(!unitfix_has(&r, "cause hostname-loopback"));
	unitfix_explain_line("Process 3 exit with status code 134.", &r);
	ck_assert(!unitfix_has(&r, "other process-killed")); /* SIGABRT */
}
END_TEST

Suite *suite_explain_onehost(void)
{
	Suite *s = suite_create("explain_onehost");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, origin_other_hosts);
	tcase_add_test(tc, one_host_loopback_opens);
	tcase_add_test(tc, hostname_mapping_still_proves);
	tcase_add_test(tc, killed_rank_resets_on_one_host);
	suite_add_tcase(s, tc);
	return s;
}
