/* A connect whose line names the peer's name and the address that name
 * gave opens hosts-stale beside the errno's candidates, with the
 * look-up that decides it (issue 42: blind42m c03, a node's own name
 * mapped by an old /etc/hosts entry to an address none of its
 * interfaces held). A public service's name, localhost, or a URL's
 * path does not. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(name_and_address_open_hosts_stale)
{
	static const char go[] = "Error from server: Get \"https://racoon:"
				 "10250/containerLogs/default/microbot\": dial "
				 "tcp 192.0.0.2:10250: i/o timeout";
	static const char java[] = "java.net.ConnectException: Connection "
				   "refused: spark-master/10.231.0.5:7077";
	static const char svc[] = "io.netty.channel.AbstractChannel$"
				  "AnnotatedConnectException: Connection "
				  "refused: node-1.cluster.local/10.231.0.6:"
				  "7337";
	static const struct unitfix_line t[] = {
		{go, "open hosts-stale", NULL},
		{go, "open port-filtered", NULL},
		{java, "open hosts-stale", NULL},
		{svc, "open hosts-stale", NULL},
		/* a public registry's name is not what goes stale here */
		{"Get \"https://registry-1.docker.io/v2/\": dial tcp "
		 "54.1.2.3:443: i/o timeout", "open port-filtered",
		 "open hosts-stale"},
		{"java.net.ConnectException: Connection refused: "
		 "localhost/127.0.0.1:8080", NULL, "open hosts-stale"},
		/* the endpoint must follow the slash */
		{"Get \"https://10.231.0.4:443/a/x/1.2 rc\": Connection refused "
		 "toward 10.231.0.4:443", NULL, "open hosts-stale"},
	};
	static const char *const l[] = {go, NULL};

	UNITFIX_EXPECT(t);
	unitfix_expect_said(l, "open hosts-stale", UNITFIX_NEXT,
			    "getent hosts racoon on the node that dialled "
			    "(it gave 192.0.0.2");
}
END_TEST

Suite *suite_explain_stale(void)
{
	Suite *s = suite_create("explain_stale");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, name_and_address_open_hosts_stale);
	suite_add_tcase(s, tc);
	return s;
}
