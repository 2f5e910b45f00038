/* netprobe explain's generic rows (issue 42): the errno words any
 * program prints open candidates on a line no framework row reads, with
 * the address, port or name the line holds in the command that decides;
 * they never decide, stay quiet on a line that names nothing to test, on
 * a download's connect and beside a cause that is not the network, and
 * add nothing where a framework row decided. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

static size_t net_causes(const struct explain_result *r, bool open)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ncauses; i++)
		n += r->causes[i].kind == EXPLAIN_NET &&
		     r->causes[i].open == open;
	return n;
}

START_TEST(refusal_with_endpoint_opens)
{
	static const char *const l[] = {
		"worker 3: could not reach 10.1.2.3:1234 (Connection refused)",
		NULL};
	static const char *const scheme[] = {
		"peer ipv4:10.1.2.3:2222 said: Connection refused", NULL};
	struct explain_result r;
	const struct explain_cause *c;

	unitfix_explain(l, -1, &r);
	ck_assert_uint_eq(net_causes(&r, false), 0);
	c = unitfix_cause(&r, "open port-closed");
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open listener-loopback-only"));
	ck_assert_ptr_null(unitfix_cause(&r, "open container-bridge-nat"));
	ck_assert_msg(strstr(c->next, "ss -ltnp 'sport = :1234'") &&
		      strstr(c->next, "netprobe ports 10.1.2.3 1234"),
		      "next: %s", c->next);
	ck_assert_ptr_nonnull(strstr(c->why, "10.1.2.3:1234"));
	/* a scheme before the address is no host:port */
	unitfix_explain(scheme, -1, &r);
	c = unitfix_cause(&r, "open port-closed");
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(strstr(c->next, "netprobe ports 10.1.2.3 2222"),
		      "next: %s", c->next);
}
END_TEST

START_TEST(errno_alone_opens_little)
{
	/* no address or port: a refusal or a port held names nothing to
	 * test, and is as often a peer that died or a process's own limit */
	static const char *const refused[] = {
		"ERROR - Failed to register worker: [Errno 111] Connection "
		"refused", NULL};
	static const char *const stamp[] = {
		"ERROR 2024-01-01 10:05:49 node1:812:830 connect failed: No "
		"route to host", NULL};
	static const char *const inuse[] = {": Address already in use (98)",
					    NULL};
	static const char *const watchdog[] = {
		"[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught "
		"collective operation timeout: WorkNCCL(SeqNum=7, "
		"OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) "
		"ran for 600184 milliseconds before timing out.",
		"ERROR - Failed to register worker: [Errno 111] Connection "
		"refused", NULL};
	static const char *const retry[] = {
		"client: connect to 10.1.2.9:5000 returned Connection refused, "
		"retrying in 1s", NULL};
	struct explain_result r;

	unitfix_explain(refused, -1, &r);
	ck_assert_uint_eq(net_causes(&r, true) + net_causes(&r, false), 0);
	/* an unreachable host is the network stack's answer, never a
	 * peer process's: it opens its candidates, address or not
	 * (issue 42: blind42l b09, Julia's libuv words) */
	unitfix_explain(stamp, -1, &r);
	ck_assert_uint_eq(net_causes(&r, false), 0);
	ck_assert_uint_gt(net_causes(&r, true), 0);
	unitfix_explain(inuse, -1, &r);
	ck_assert_uint_eq(net_causes(&r, true) + net_causes(&r, false), 0);
	/* nor is it network evidence for a symptom beside it */
	unitfix_explain(watchdog, -1, &r);
	ck_assert_uint_eq(net_causes(&r, true) + net_causes(&r, false), 0);
	/* a try the program repeats is no failure yet */
	unitfix_explain(retry, -1, &r);
	ck_assert_uint_eq(net_causes(&r, true) + net_causes(&r, false), 0);
}
END_TEST

START_TEST(framework_row_reads_first)
{
	/* Open MPI's help text repeats the errno on a line of its own:
	 * the framework row's decided cause is the answer */
	static const char *const l[] = {
		"n1:1:2 [0] misc/socket.cc:1 NCCL WARN Net : Connect to "
		"10.1.2.3<43215> failed : Connection refused",
		"client: connect to 10.1.2.9:5000 failed: Connection refused",
		NULL};
	struct explain_result r;

	unitfix_explain(l, -1, &r);
	ck_assert_uint_ge(net_causes(&r, false), 1);
	ck_assert_ptr_null(unitfix_cause(&r, "open listener-loopback-only"));
}
END_TEST

START_TEST(other_cause_explains_refusal)
{
	/* a refusal beside an OOM kill is the dead peer's echo; a name
	 * that does not resolve is this node's own and stays */
	static const char *const l[] = {
		"[ 812.345678] Out of memory: Killed process 4242 (python) "
		"total-vm:123456kB",
		"client: connect to 10.1.2.9:5000 failed: Connection refused",
		NULL};
	static const char *const name[] = {
		"[ 812.345678] Out of memory: Killed process 4242 (python) "
		"total-vm:123456kB",
		"java.net.UnknownHostException: spark-master-0", NULL};
	struct explain_result r;

	unitfix_explain(l, -1, &r);
	ck_assert_uint_eq(net_causes(&r, true) + net_causes(&r, false), 0);
	unitfix_explain(name, -1, &r);
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open name-unresolved"));
}
END_TEST

START_TEST(download_connect_quiet)
{
	static const char *const hub[] = {
		"requests.exceptions.ConnectionError: HTTPSConnectionPool("
		"host='huggingface.co', port=443): Max retries exceeded (Caused "
		"by NewConnectionError: Failed to establish a new connection: "
		"[Errno 110] Connection timed out)", NULL};
	static const char *const api[] = {
		"error retrieving resource lock default/tf-operator: Get "
		"https://10.0.0.1:443/api/v1/namespaces/default/endpoints/"
		"tf-operator: dial tcp 10.0.0.1:443: getsockopt: connection "
		"timed out", NULL};
	struct explain_result r;

	unitfix_explain(hub, -1, &r);
	ck_assert_uint_eq(net_causes(&r, true) + net_causes(&r, false), 0);
	/* a cluster's own service by address is a peer of the job */
	unitfix_explain(api, -1, &r);
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open port-filtered"));
}
END_TEST

START_TEST(name_from_the_line)
{
	static const char *const java[] = {
		"java.net.UnknownHostException: spark-master-0", NULL};
	static const char *const words[] = {
		"myframework ERROR failed to lookup host trainer-0: Name or "
		"service not known", NULL};
	static const char *const go[] = {
		"dial tcp: lookup head-svc on 10.96.0.10:53: no such host",
		NULL};
	struct explain_result r;
	const struct explain_cause *c;

	unitfix_explain(java, -1, &r);
	c = unitfix_cause(&r, "open name-unresolved");
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(net_causes(&r, false), 0);
	ck_assert_ptr_nonnull(strstr(c->next, "getent hosts spark-master-0 "));
	unitfix_explain(words, -1, &r);
	c = unitfix_cause(&r, "open name-unresolved");
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(strstr(c->next, "getent hosts trainer-0 "));
	unitfix_explain(go, -1, &r);
	c = unitfix_cause(&r, "open name-unresolved");
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(strstr(c->next, "getent hosts head-svc "));
}
END_TEST

START_TEST(pool_and_link_local_addresses)
{
	static const char *const pool[] = {
		"dial tcp 172.17.0.2:6379: connect: connection refused", NULL};
	static const char *const ll[] = {
		"bind [fe80::1%eth0]:7000 failed: Cannot assign requested "
		"address", NULL};
	static const char *const port[] = {
		"Error: listen EADDRINUSE: address already in use :::8080",
		NULL};
	struct explain_result r;
	const struct explain_cause *c;

	unitfix_explain(pool, -1, &r);
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open container-bridge-nat"));
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open port-closed"));
	unitfix_explain(ll, -1, &r);
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open ipv6-link-local-only"));
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open hostname-unbindable"));
	unitfix_explain(port, -1, &r);
	c = unitfix_cause(&r, "open port-in-use");
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(strstr(c->next, "'sport = :8080'"));
}
END_TEST

START_TEST(route_and_rdma_need_no_endpoint)
{
	/* ENETUNREACH is this node's routing table, whatever the peer */
	static const char *const route[] = {
		"OSError: [Errno 101] Network is unreachable", NULL};
	/* an RDMA completion in any library's words */
	static const char *const rdma[] = {
		"CQE ERROR wr_id=3 status=12(transport retry counter exceeded) "
		"opcode=1 byte_len=0 vendor_err=0xa qp_num=0x2c10", NULL};
	struct explain_result r;
	const struct explain_cause *c;

	unitfix_explain(route, -1, &r);
	c = unitfix_cause(&r, "open host-unreachable");
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(strstr(c->next, "ip route get"));
	unitfix_explain(rdma, -1, &r);
	ck_assert_ptr_nonnull(unitfix_cause(&r, "open rdma-gid-index"));
	ck_assert_uint_eq(net_causes(&r, false), 0);
}
END_TEST

START_TEST(exception_type_wraps_network_words)
{
	/* Python's ValueError is the wrapper: the port held is the
	 * answer, not a code bug */
	static const char *const l[] = {
		"ValueError: port_base at 30234 is not available in 30 "
		"seconds. port_base is used by a process already.", NULL};
	struct explain_result r;
	const struct explain_cause *c;

	unitfix_explain(l, -1, &r);
	c = unitfix_cause(&r, "open port-in-use");
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(strstr(c->next, "'sport = :30234'"));
	ck_assert(!unitfix_has(&r, "other code-bug"));
}
END_TEST

Suite *suite_explain_generic(void)
{
	Suite *s = suite_create("explain_generic");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, refusal_with_endpoint_opens);
	tcase_add_test(tc, errno_alone_opens_little);
	tcase_add_test(tc, framework_row_reads_first);
	tcase_add_test(tc, other_cause_explains_refusal);
	tcase_add_test(tc, download_connect_quiet);
	tcase_add_test(tc, name_from_the_line);
	tcase_add_test(tc, pool_and_link_local_addresses);
	tcase_add_test(tc, route_and_rdma_need_no_endpoint);
	tcase_add_test(tc, exception_type_wraps_network_words);
	suite_add_tcase(s, tc);
	return s;
}
