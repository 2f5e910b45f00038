/* netprobe explain's generic rows in the words of runtimes rather than
 * libc (issue 42): Python's asyncio ("[Errno 111] Connect call
 * failed"), aiohttp's and curl's errno-less "Cannot connect to",
 * Winsock's texts, Node's ENOTFOUND. Each opens what
 * its errno allows with the endpoint the line names, and the endpoint
 * parser does not take a log's own prefix ("[W socket.cpp:663]",
 * "gcs_rpc_client.h:151") for a host. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

/* Whether r holds any network cause, open or decided. */
static bool any_net(const struct explain_result *r)
{
	for (size_t i = 0; i < r->ncauses; i++)
		if (r->causes[i].kind == EXPLAIN_NET)
			return true;
	return false;
}

START_TEST(asyncio_errno_number_decides_class)
{
	static const char *const refused[] = {
		"ConnectionRefusedError: [Errno 111] Connect call failed "
		"('10.1.2.3', 6379)", NULL};
	static const char *const noroute[] = {
		"OSError: [Errno 113] Connect call failed ('10.1.2.3', 29500)",
		NULL};
	static const char *const mac[] = {
		"OSError: Multiple exceptions: [Errno 61] Connect call failed "
		"('::1', 8265, 0, 0), [Errno 61] Connect call failed "
		"('127.0.0.1', 8265)", NULL};
	struct explain_result r;
	const struct explain_cause *c;

	unitfix_explain(refused, -1, &r);
	c = unitfix_cause(&r, "open port-closed");
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open listener-loopback-only"));
	/* the port comes from Python's address tuple */
	ck_assert_msg(strstr(c->next, "netprobe ports 10.1.2.3 6379"),
		      "next: %s", c->next);
	unitfix_explain(noroute, -1, &r);
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open host-unreachable"));
	ck_assert_ptr_null(unitfix_cause(&r, "open port-closed"));
	unitfix_explain(mac, -1, &r);
	c = unitfix_cause(&r, "open port-closed");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(strstr(c->next, ":8265"), "next: %s", c->next);
}
END_TEST

START_TEST(connect_without_errno_needs_a_host)
{
	static const char *const aio[] = {
		"aiohttp.client_exceptions.ClientConnectorError: Cannot "
		"connect to host worker-1:8265 ssl:default [Connect call "
		"failed ('10.1.2.3', 8265)]", NULL};
	/* Ray's GCS address with its host left empty: a setting, and
	 * the file:line prefix is no host */
	static const char *const empty[] = {
		"[2025-07-23 10:05:49,679 W 51000 51000] gcs_rpc_client.h:151: "
		"Failed to connect to GCS at address :6379 within 5 seconds.",
		NULL};
	static const char *const bare[] = {
		"Error: unable to connect to the server", NULL};
	/* a service's name is no host */
	static const char *const service[] = {
		"Exception: Failed to connect to NATS: NATS server URL is "
		"invalid: invalid port number.", NULL};
	/* beside a framework row's candidates it adds nothing */
	static const char *const hydra[] = {
		"HYDU_sock_connect (utils/sock/sock.c:180): unable to connect "
		"from \"node2\" to \"node1\" (Connection timed out)",
		"[proxy:0:1@node2] main (pm/pmiserv/pmip.c:185): unable to "
		"connect to server node1 at port 35322 (check for firewalls!)",
		NULL};
	/* a name with a dot and the port after "at port" */
	static const char *const words[] = {
		"ERROR unable to connect to server head.cluster at port 6379",
		NULL};
	/* a role's word before the host (Spark) */
	static const char *const role[] = {
		"WARN Worker: Failed to connect to master spark-master:7077",
		NULL};
	struct explain_result r;
	const struct explain_cause *c;

	unitfix_explain(aio, -1, &r);
	c = unitfix_cause(&r, "open port-filtered");
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open port-closed"));
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open host-unreachable"));
	ck_assert_msg(strstr(c->next, "netprobe ports worker-1 8265"),
		      "next: %s", c->next);
	unitfix_explain(empty, -1, &r);
	ck_assert(!any_net(&r));
	unitfix_explain(bare, -1, &r);
	ck_assert(!any_net(&r));
	unitfix_explain(service, -1, &r);
	ck_assert(!any_net(&r));
	unitfix_explain(hydra, -1, &r);
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open inbound-blocked"));
	ck_assert_ptr_null(unitfix_cause(&r, "open port-closed"));
	unitfix_explain(words, -1, &r);
	c = unitfix_cause(&r, "open port-closed");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(strstr(c->next, "netprobe ports head.cluster 6379"),
		      "next: %s", c->next);
	unitfix_explain(role, -1, &r);
	c = unitfix_cause(&r, "open port-filtered");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(strstr(c->next, "netprobe ports spark-master 7077"),
		      "next: %s", c->next);
}
END_TEST

START_TEST(log_prefix_is_no_endpoint)
{
	/* "[W socket.cpp:663]" is torch's prefix, the host is the
	 * bracketed name after it */
	static const char *const l[] = {
		"[W socket.cpp:663] worker: could not connect to "
		"[node-7.cluster]:29500 (Connection refused)", NULL};
	struct explain_result r;
	const struct explain_cause *c;

	unitfix_explain(l, -1, &r);
	c = unitfix_cause(&r, "open port-closed");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(strstr(c->next, "netprobe ports node-7.cluster 29500"),
		      "next: %s", c->next);
}
END_TEST

START_TEST(torch_row_reads_any_language)
{
	/* Windows in Chinese: the c10d row still reads its line, and a
	 * retried 10049 warning opens nothing (blind42b 012) */
	static const char *const l[] = {
		"[W socket.cpp:663] [c10d] The client socket has failed to "
		"connect to [BJSK-A02133.example.com]:10086 (system error: "
		"10049 - \xe5\x9c\xa8\xe5\x85\xb6\xe4\xb8\x8a\xe4\xb8\x8b\xe6"
		"\x96\x87\xe4\xb8\xad).", NULL};
	struct explain_result r;

	unitfix_explain(l, -1, &r);
	ck_assert(!any_net(&r));
}
END_TEST

START_TEST(other_runtimes_lookups)
{
	static const char *const win[] = {
		"socket.gaierror: [Errno 11001] getaddrinfo failed", NULL};
	static const char *const node[] = {
		"Error: getaddrinfo ENOTFOUND redis-master", NULL};
	static const char *const akka[] = {
		"WARN ReliableDeliverySupervisor: Association with remote "
		"system [akka.tcp://sparkMaster@spark-master:7077] has failed. "
		"Reason: [Association failed] Caused by: [spark-master: "
		"unknown error]", NULL};
	/* Go: the cluster's DNS server did not answer */
	static const char *const godns[] = {
		"dial tcp: lookup etcd-0.etcd on 10.96.0.10:53: read udp "
		"10.244.1.5:43210->10.96.0.10:53: i/o timeout", NULL};
	/* an HTTP client's connect toward a peer's address is the job's */
	static const char *const health[] = {
		"requests.exceptions.ConnectionError: HTTPConnectionPool(host="
		"'10.1.2.3', port=8000): Max retries exceeded with url: /health "
		"(Caused by NewConnectionError('<urllib3.connection."
		"HTTPConnection object at 0x7f>: Failed to establish a new "
		"connection: [Errno 111] Connection refused'))", NULL};
	/* a download's is not */
	static const char *const hub[] = {
		"requests.exceptions.ConnectionError: HTTPSConnectionPool(host="
		"'huggingface.co', port=443): Max retries exceeded (Caused by "
		"NewConnectionError('<urllib3.connection.HTTPSConnection object "
		"at 0x7f>: Failed to establish a new connection: [Errno 111] "
		"Connection refused'))", NULL};
	static const char *const master[] = {
		"WARN ReliableDeliverySupervisor: Association with remote "
		"system [akka.tcp://sparkMaster@spark-master:7077] has failed, "
		"address is now gated for [5000] ms. Reason: [Association "
		"failed with [akka.tcp://sparkMaster@spark-master:7077]] Caused "
		"by: [spark-master: unknown error]",
		"WARN Worker: Failed to connect to master spark-master:7077",
		NULL};
	/* CUDA's "unknown error" is no lookup */
	static const char *const cuda[] = {
		"RuntimeError: CUDA error: unknown error", NULL};
	static const char *const wsa[] = {
		"TimeoutError: [WinError 10060] A connection attempt failed "
		"because the connected party did not properly respond after a "
		"period of time (10.1.2.3:29500)", NULL};
	struct explain_result r;
	const struct explain_cause *c;

	unitfix_explain(win, -1, &r);
	c = unitfix_cause(&r, "open name-unresolved");
	ck_assert_ptr_nonnull(c);
	/* "failed" is no host name */
	ck_assert_msg(strstr(c->next, "getent hosts NAME "), "next: %s",
		      c->next);
	unitfix_explain(node, -1, &r);
	c = unitfix_cause(&r, "open name-unresolved");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(strstr(c->next, "getent hosts redis-master "),
		      "next: %s", c->next);
	unitfix_explain(akka, -1, &r);
	c = unitfix_cause(&r, "open name-unresolved");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(strstr(c->next, "getent hosts spark-master "),
		      "next: %s", c->next);
	/* the connect to the name that did not resolve failed for that
	 * reason: no candidates of its own */
	unitfix_explain(master, -1, &r);
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open name-unresolved"));
	ck_assert_ptr_null(unitfix_cause(&r, "open port-filtered"));
	unitfix_explain(godns, -1, &r);
	c = unitfix_cause(&r, "open name-unresolved");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(strstr(c->next, "getent hosts etcd-0.etcd "),
		      "next: %s", c->next);
	unitfix_explain(health, -1, &r);
	c = unitfix_cause(&r, "open port-closed");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(strstr(c->next, "netprobe ports 10.1.2.3 8000"),
		      "next: %s", c->next);
	unitfix_explain(hub, -1, &r);
	ck_assert(!any_net(&r));
	unitfix_explain(cuda, -1, &r);
	ck_assert_ptr_null(unitfix_cause(&r, "open name-unresolved"));
	unitfix_explain(wsa, -1, &r);
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open port-filtered"));
}
END_TEST

Suite *suite_explain_runtime(void)
{
	Suite *s = suite_create("explain_runtime");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, asyncio_errno_number_decides_class);
	tcase_add_test(tc, connect_without_errno_needs_a_host);
	tcase_add_test(tc, log_prefix_is_no_endpoint);
	tcase_add_test(tc, torch_row_reads_any_language);
	tcase_add_test(tc, other_runtimes_lookups);
	suite_add_tcase(s, tc);
	return s;
}
