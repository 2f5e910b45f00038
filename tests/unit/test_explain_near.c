/* A line that says how a connect failed and not where takes the
 * endpoint a line near it names (issue 42: blind42m c06's microk8s join
 * timing out under urllib3's frames, e11's Airflow refusal under the
 * URL it fetched, blind42l b08's Julia refusal): it then names
 * something to test. Too far, a download's public server, or a bind
 * (a process's limit as often as a port held) stays quiet. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "decide/explain_near.h"
#include "unitfix.h"

START_TEST(command_before_a_python_timeout)
{
	/* urllib3's frames would make it a download's connect, but the
	 * command names a private peer: a join toward a cluster node */
	static const char *const l[] = {
		"$ microk8s.join 172.31.27.55:25000/QmORvwSNynEiAarocTIZ",
		"Traceback (most recent call last):",
		"  File \"/usr/lib/python3/dist-packages/urllib3/connection.py\", "
		"line 137, in _new_conn",
		"    sock.connect(sa)",
		"TimeoutError: [Errno 110] Connection timed out",
		NULL,
	};
	unitfix_expect_said(l, "open port-filtered", UNITFIX_NEXT,
			    "netprobe ports 172.31.27.55 25000");
}
END_TEST

START_TEST(url_before_and_endpoint_after_a_refusal)
{
	static const char *const before[] = {
		"*** Fetching from: http://airflow-scheduler-0.airflow-scheduler"
		".airflow.svc.cluster.local:8793/log/attempt=1.log",
		"*** Failed to fetch log file from worker. [Errno 111] "
		"Connection refused",
		NULL,
	};
	static const char *const after[] = {
		"IOError: connect: connection refused (ECONNREFUSED)",
		"while adding worker tcp://10.231.0.7:9350 to the cluster",
		NULL,
	};
	static const char *const bare_url[] = {
		"$ docker run -it --add-host host:host-gateway curlimages/curl "
		"--connect-timeout 1 http://host:8080/",
		"curl: (28) Connection timed out after 1001 milliseconds",
		NULL,
	};

	unitfix_expect_said(before, "open port-closed", UNITFIX_WHY,
			    "line 1, near it, names airflow-scheduler-0");
	unitfix_expect_said(after, "open port-closed", UNITFIX_WHY,
			    "10.231.0.7:9350");
	/* a URL's host is a host, a bare word though it is */
	unitfix_expect_said(bare_url, "open port-filtered", UNITFIX_WHY,
			    "names host:8080");
}
END_TEST

START_TEST(far_download_or_bind_stays_quiet)
{
	static const char *filler = "  File \"/opt/app/train.py\", line 12, "
				    "in main";
	const char *far[16] = {"$ ./join.sh 10.231.0.9:25000"};
	/* a model hub's public server: a download's connect */
	static const char *const hub[] = {
		"Downloading https://huggingface.co:443/gpt2/config.json",
		"  File \"/usr/lib/python3/dist-packages/urllib3/connection.py\", "
		"line 174, in _new_conn",
		"TimeoutError: [Errno 110] Connection timed out",
		NULL,
	};
	/* blind42c 009: Open MPI's EADDRINUSE for a full descriptor
	 * table, its node's address a line before */
	static const char *const bind[] = {
		"[cn8][[311,1],510][btl_tcp_endpoint.c:730:mca_btl_tcp_"
		"endpoint_start_connect] bind on local address "
		"(10.231.0.16:4400) failed",
		": Address already in use (98)",
		NULL,
	};
	/* a key and its value is no host and port (blind42o b01) */
	static const char *const key[] = {
		"retcode 100, status:100, see the flow service",
		"*** [Errno 111] Connection refused",
		NULL,
	};
	struct explain_result r;
	int k = 1;

	for (; k < 1 + EXPLAIN_NEAR_LINES; k++)
		far[k] = filler;
	far[k++] = "ConnectionRefusedError: [Errno 111] Connection refused";
	far[k] = NULL;
	unitfix_explain(far, -1, &r);
	ck_assert(!unitfix_has(&r, "open port-closed"));
	unitfix_explain(key, -1, &r);
	ck_assert(!unitfix_has(&r, "open port-closed"));
	unitfix_explain(hub, -1, &r);
	ck_assert(!unitfix_has(&r, "open port-filtered"));
	unitfix_explain(bind, -1, &r);
	ck_assert(!unitfix_has(&r, "open port-in-use"));
}
END_TEST

START_TEST(reset_forgets_the_last_file)
{
	static struct explain_near n;

	explain_near_reset(&n);
	ck_assert_uint_eq(n.n, 0);
	ck_assert_int_eq(n.pend_left, 0);
}
END_TEST

Suite *suite_explain_near(void)
{
	Suite *s = suite_create("explain_near");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, command_before_a_python_timeout);
	tcase_add_test(tc, url_before_and_endpoint_after_a_refusal);
	tcase_add_test(tc, far_download_or_bind_stays_quiet);
	tcase_add_test(tc, reset_forgets_the_last_file);
	suite_add_tcase(s, tc);
	return s;
}
