/* netprobe explain: every signature row matches its own example, the
 * decider's address rules, the RAS answer parser, and the RAS client
 * against a fake RAS service on loopback speaking NCCL's protocol. */
#include <check.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "decide/explain.h"
#include "decide/explain_origin.h"
#include "decide/ras_parse.h"
#include "doc/doc.h"
#include "doc/finding.h"
#include "doc/logmatch.h"
#include "probe/ras.h"
#include "unitfix.h"

/* A row is known by its id (the evidence, the rules, the docs): two
 * rows with one id, as two merged changes once wrote, would each hide
 * the other's codes. */
START_TEST(every_row_id_unique)
{
	size_t n;
	const struct logsig *t = logsig_table(&n);

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			ck_assert_msg(strcmp(t[i].id, t[j].id) != 0,
				      "two rows are %s", t[i].id);
}
END_TEST

START_TEST(every_row_matches_its_example)
{
	struct logmatcher m;
	const char *bad = NULL;

	ck_assert_int_eq(logmatch_init(&m, &bad), 0);
	for (size_t i = 0; i < m.n; i++) {
		const struct logsig *s = &m.sigs[i];
		struct logmatch mt;
		size_t start = 0;
		int found = 0;

		while (logmatch_line(&m, s->example, &start, &mt)) {
			if (mt.sig == s)
				found = 1;
			start++;
		}
		ck_assert_msg(found, "row %s does not match its example",
			      s->id);
		for (const char *p = s->codes; p && *p;) {
			char code[48];
			size_t n = strcspn(p, ",");

			snprintf(code, sizeof(code), "%.*s", (int)n, p);
			ck_assert_msg(finding_lookup(code) != NULL,
				      "row %s: unknown code %s", s->id, code);
			p += n + (p[n] == ',');
		}
		for (const char *p = s->maybe; p && *p;) {
			char code[48];
			size_t n = strcspn(p, ",");

			snprintf(code, sizeof(code), "%.*s", (int)n, p);
			ck_assert_msg(finding_lookup(code) != NULL,
				      "row %s: unknown code %s", s->id, code);
			p += n + (p[n] == ',');
		}
	}
	logmatch_free(&m);
}
END_TEST

/* A row's own next command is one line that fits a cause's next, and
 * it is what explain prints for a line of that row: the text lives on
 * the row, beside the source it was read from. */
static const struct logsig *row_by_id(const char *id)
{
	size_t n;
	const struct logsig *t = logsig_table(&n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(t[i].id, id) == 0)
			return &t[i];
	return NULL;
}

START_TEST(row_next_fits_and_is_printed)
{
	static const struct {
		const char *id, *what;
	} rows[] = {
		{"coredns-loop", "open name-unresolved"},
		{"efa-tx-error", "open port-filtered"},
		{"rust-io-addrnotavail", "open hostname-unbindable"},
	};
	struct explain_cause c;
	size_t n;
	const struct logsig *t = logsig_table(&n);

	for (size_t i = 0; i < n; i++) {
		if (t[i].next == NULL)
			continue;
		ck_assert_msg(t[i].next[0] != '\0' &&
			      strlen(t[i].next) < sizeof(c.next) &&
			      strchr(t[i].next, '\n') == NULL,
			      "row %s: next is empty, too long or two lines",
			      t[i].id);
	}
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct logsig *s = row_by_id(rows[i].id);
		const char *line[2];

		ck_assert_ptr_nonnull(s);
		ck_assert_ptr_nonnull(s->next);
		line[0] = s->example;
		line[1] = NULL;
		unitfix_expect_said(line, rows[i].what, UNITFIX_NEXT, s->next);
	}
}
END_TEST

START_TEST(fields_extracted)
{
	struct logmatcher m;
	struct logmatch mt;
	const char *bad = NULL;
	size_t start = 0;

	ck_assert_int_eq(logmatch_init(&m, &bad), 0);
	ck_assert(logmatch_line(&m, "h:1:2 [0] NCCL WARN socketStartConnect: "
		  "Connect to fe80::1%eth0<45678> failed : Connection timed "
		  "out", &start, &mt));
	ck_assert_str_eq(mt.sig->id, "nccl-connect-timeout");
	ck_assert_str_eq(logmatch_field(&mt, "addr"), "fe80::1%eth0");
	ck_assert_str_eq(logmatch_field(&mt, "port"), "45678");
	start = 0;
	ck_assert(logmatch_line(&m, "h:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME "
		  "set by environment to =eth0", &start, &mt));
	ck_assert_str_eq(logmatch_field(&mt, "setting_value"), "=eth0");
	start = 0;
	ck_assert(!logmatch_line(&m, "epoch 1 loss 0.5", &start, &mt));
	logmatch_free(&m);
}
END_TEST

/* The forms the frameworks print, as their sources format them: torch's
 * socket.cpp brackets only IPv6, Gloo's retry error names the peer after
 * "remote=", Ray 1.x named no address, Open MPI 3.1+ puts the address on
 * the help text's Message line. */
START_TEST(framework_forms)
{
	static const struct {
		const char *line, *id, *field, *value;
	} rows[] = {
		{"[W socket.cpp:663] [c10d] The client socket has failed to "
		 "connect to [::ffff:10.231.0.1]:29500 (errno: 110 - Connection "
		 "timed out).", "torch-store-connect-failed", "addr",
		 "::ffff:10.231.0.1"},
		{"[W socket.cpp:697] [c10d] The client socket has failed to "
		 "connect to node0:29500 (errno: 113 - No route to host).",
		 "torch-store-connect-failed", "err", "No route to host"},
		{"[E socket.cpp:871] [c10d] The client socket has timed out "
		 "after 600000ms while trying to connect to (node0, 29500).",
		 "torch-store-timeout", "timeout_unit", "ms"},
		{"RuntimeError: [gloo/transport/tcp/pair.cc:144] timed out "
		 "connecting: SO_ERROR: No route to host, remote=[10.231.9.9]:"
		 "28338", "gloo-connect-retries", "addr", "10.231.9.9"},
		{"RuntimeError: [gloo/transport/tcp/pair.cc:144] timed out "
		 "connecting: SO_ERROR: Connection refused",
		 "gloo-connect-retries", "err", "Connection refused"},
		{"RuntimeError: [gloo/transport/tcp/pair.cc:144] write: "
		 "Connection refused, remote=[10.231.0.2]:28338",
		 "gloo-connect-write", "port_netorder", "28338"},
		{"2021-03-01 10:00:00,000\tWARNING worker.py:1107 -- The node "
		 "with node id 0a1b2c3d4e5f has been marked dead because the "
		 "detector has missed too many heartbeats from it.",
		 "ray-node-dead", "node_id", "0a1b2c3d4e5f"},
		{"  Message:    connect() to 10.231.0.9:1025 failed",
		 "ompi-btl-connect", "port", "1025"},
		{"node1:812:840 [0] NCCL WARN ncclOsSocketProgressOpt: Call to "
		 "send to 10.231.0.2<40123> failed : Connection timed out",
		 "nccl-socket-io-timeout", "addr", "10.231.0.2"},
		{"\tdetails = \"keepalive watchdog timeout\"",
		 "grpc-keepalive-timeout", NULL, NULL},
		/* issue 42: the forms of the public threads each row cites */
		{"[W socket.cpp:697] [c10d] The IPv4 network addresses of "
		 "(node0, 29500) cannot be retrieved (gai error: -3 - Temporary "
		 "failure in name resolution).", "torch-gai", "err",
		 "Temporary failure in name resolution"},
		{"[W socket.cpp:601] [c10d] The IPv6 network addresses of "
		 "(localhost, 51595) cannot be retrieved (gai error: -2 - Name "
		 "or service not known).", "torch-gai", "family", "IPv6 "},
		{"socket.gaierror: [Errno -3] Temporary failure in name "
		 "resolution", "py-gaierror", "errno", "-3"},
		{"ssh: Could not resolve hostname localhost:4: Temporary "
		 "failure in name resolution", "ssh-resolve", "host",
		 "localhost:4"},
		{"ValueError: host not found: Name or service not known",
		 "torch-host-not-found-old", NULL, NULL},
		{"misc/ibvwrap.cu:63 NCCL WARN Failed to open libibverbs.so[.1]",
		 "nccl-libibverbs-missing", NULL, NULL},
		{"n1:1:1 [0] NCCL INFO Count not open libibverbs.so.1",
		 "nccl-libibverbs-missing", NULL, NULL},
		{"n1:1:2 [0] NCCL WARN NET/IBP:Got completion from peer "
		 "10.231.6.83<36315> with status=12 opcode=32698 len=32696 "
		 "vendor err 129 (Send)", "nccl-ib-completion-status",
		 "wc_status", "12"},
		{"n1:1:2 [0] NCCL WARN NET/IB : Got completion from peer "
		 "10.231.6.83<36315> with status=12 opcode=1 len=0 vendor err "
		 "129 (Send) localGid ::ffff:10.231.6.1 remoteGids::ffff:"
		 "10.231.6.83", "nccl-ib-completion-status", "remote_gid",
		 "::ffff:10.231.6.83"},
		{"n1:1:2 [0] NCCL WARN NET/IB : Got completion from peer "
		 "10.231.6.3<42019> with error 12, opcode 0, len 0, vendor err "
		 "129", "nccl-ib-completion-error", "wc_status", "12"},
		{"n1:1:2 [0] NCCL WARN NET/IB: Got completion from peer "
		 "10.231.6.3<42019> with status=IBV_WC_RETRY_EXC_ERR(12) "
		 "opcode=IBV_WC_SEND(0) vendor_err=129 hca mlx5_0",
		 "nccl-ib-completion-error", "wc_status", "12"},
		{"include/socket.h:344 WARN Socket creation failed : Address "
		 "family not supported by protocol", "nccl-socket-create-family",
		 NULL, NULL},
		{"n1:1:3 [0] NCCL WARN NET/IB : mlx5_0:1 GID table changed",
		 "nccl-ib-gid-changed", "ibdev", "mlx5_0"},
		{"n1:1:3 [0] NCCL INFO NET/IB : mlx5_0:1 speed change detected: "
		 "400000 -> N/A Mbps", "nccl-ib-speed-change", "speed_new",
		 "N/A"},
		{"n1:1:3 [0] NCCL INFO HINT: In many cases this error occurs when "
		 "NICs are not cross-rail connected.", "nccl-hint", "hint",
		 "In many cases this error occurs when NICs are not cross-rail "
		 "connected."},
		{"RuntimeError: Version mismatch: The cluster was started with:",
		 "ray-version-mismatch", NULL, NULL},
		{"[2023-04-12 11:23:25,823 E 946 946] (raylet) gcs_rpc_client.h:"
		 "533: Failed to connect to GCS within 60 seconds. GCS may have "
		 "been killed.", "ray-gcs-lost", "seconds", "60"},
		{"[rank1]:[E602 11:17:52.557891708 ProcessGroupNCCL.cpp:1743] "
		 "[PG ID 0 PG GUID 0(default_pg) Rank 1] Received a dump signal "
		 "due to a collective timeout from this local rank and we will",
		 "torch-dump-signal", "from", "this local rank"},
		{"[1530549338.253029] [clx-007:20497:0]       rc_iface.c:966  "
		 "UCX  ERROR failed to create qp: Invalid argument",
		 "ucx-create-qp", "err", "Invalid argument"},
		{"ssh not successful for host worker-1:", "horovod-ssh-failed",
		 "host", "worker-1"},
	};
	struct logmatcher m;
	const char *bad = NULL;

	ck_assert_int_eq(logmatch_init(&m, &bad), 0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct logmatch mt;
		size_t start = 0;
		int found = 0;

		while (!found && logmatch_line(&m, rows[i].line, &start, &mt)) {
			if (strcmp(mt.sig->id, rows[i].id) == 0)
				found = 1;
			else
				start++;
		}
		ck_assert_msg(found, "%s: no %s", rows[i].line, rows[i].id);
		if (rows[i].field != NULL)
			ck_assert_str_eq(logmatch_field(&mt, rows[i].field),
					 rows[i].value);
	}
	logmatch_free(&m);
}
END_TEST

/* The causes explain decides from the lines given, one hit each. */
static void decide_lines(const char *const *lines, size_t n,
			 struct explain_result *r)
{
	unitfix_explain(lines, (long)n, r);
}

static size_t count_kind(const struct explain_result *r,
			 enum explain_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ncauses; i++)
		n += r->causes[i].kind == k;
	return n;
}

/* Issue 42: a watchdog timeout alone is no network evidence: no
 * candidate, and the symptom says what to collect; the same timeout
 * beside a refused connect opens its candidates; a bare "unhandled
 * system error" names the NCCL_DEBUG settings to collect. */
START_TEST(symptom_alone_opens_nothing)
{
	static const char *const wd[] = {
		"[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog "
		"caught collective operation timeout: WorkNCCL(SeqNum=7, "
		"OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000)"
		" ran for 600184 milliseconds before timing out.",
		"node1:812:830 [0] NCCL WARN socketStartConnect: Connect to "
		"10.231.0.2<45678> failed : Connection refused"};
	static const char *const bare[] = {
		"RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/"
		"ProcessGroupNCCL.cpp:1269, unhandled system error, NCCL "
		"version 2.14.3"};
	struct explain_result *r = malloc(sizeof(*r));

	ck_assert_ptr_nonnull(r);
	decide_lines(wd, 1, r);
	ck_assert_uint_eq(count_kind(r, EXPLAIN_NET), 0);
	ck_assert_uint_eq(count_kind(r, EXPLAIN_SYMPTOM), 1);
	ck_assert_ptr_nonnull(strstr(r->causes[0].next, "dmesg"));
	ck_assert_ptr_nonnull(strstr(r->causes[0].next, "explain --job"));
	decide_lines(wd, 2, r);
	ck_assert_uint_ge(count_kind(r, EXPLAIN_NET), 2);
	decide_lines(bare, 1, r);
	ck_assert_uint_eq(count_kind(r, EXPLAIN_NET), 0);
	ck_assert_uint_ge(count_kind(r, EXPLAIN_SYMPTOM), 1);
	ck_assert_ptr_nonnull(strstr(r->causes[0].next, "NCCL_DEBUG=WARN"));
	ck_assert_ptr_nonnull(strstr(r->causes[0].next,
				     "NCCL_DEBUG_SUBSYS=INIT,NET"));
	free(r);
}
END_TEST

/* The cause the result holds for code (decided or open), or NULL. */
static const struct explain_cause *cause_with(const struct explain_result *r,
					      const char *code)
{
	for (size_t i = 0; i < r->ncauses; i++)
		for (size_t j = 0; j < r->causes[i].ncodes; j++)
			if (strcmp(r->causes[i].codes[j], code) == 0)
				return &r->causes[i];
	return NULL;
}

/* Issue 42 (blind42e a06, a14): NCCL dialling lo's own address is its
 * interface choice, open, never a hostname mapped to loopback (which
 * 127.0.1.1, not on lo, still decides); an exclusion list the log
 * echoes opens overmatch. c10d's reverse lookup with EAI_AGAIN opens
 * name-unresolved; with EAI_NONAME (-2) it is harmless. */
START_TEST(nccl_lo_and_resolver_again)
{
	static const char *const lo[] = {
		"n1:1:2 [0] NCCL WARN socketStartConnect: Connect to "
		"127.0.0.1<39000> failed : Connection refused"};
	static const char *const hosts[] = {
		"n1:1:2 [0] NCCL WARN socketStartConnect: Connect to "
		"127.0.1.1<39000> failed : Connection refused"};
	static const char *const excl[] = {
		"n1:1:1 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment "
		"to ^docker0",
		"n1:1:2 [0] NCCL WARN socketStartConnect: Connect to "
		"127.0.0.1<39000> failed : Connection refused"};
	static const char *const again[] = {
		"[W724 18:22:38.909218572 socket.cpp:200] [c10d] The hostname "
		"of the client socket cannot be retrieved. err=-3"};
	static const char *const noname[] = {
		"[W724 18:22:38.909218572 socket.cpp:200] [c10d] The hostname "
		"of the client socket cannot be retrieved. err=-2"};
	struct explain_result *r = malloc(sizeof(*r));
	const struct explain_cause *c;

	ck_assert_ptr_nonnull(r);
	decide_lines(lo, 1, r);
	ck_assert_ptr_null(cause_with(r, "hostname-loopback"));
	c = cause_with(r, "nccl-default-iface-unsafe");
	ck_assert_ptr_nonnull(c);
	ck_assert(c->open);
	ck_assert_ptr_nonnull(strstr(c->next, "NCCL_DEBUG_SUBSYS=INIT,NET"));
	decide_lines(hosts, 1, r);
	c = cause_with(r, "hostname-loopback");
	ck_assert_ptr_nonnull(c);
	ck_assert(!c->open);
	decide_lines(excl, 2, r);
	ck_assert_ptr_nonnull(cause_with(r, "nccl-ifname-overmatch"));
	ck_assert_ptr_null(cause_with(r, "hostname-loopback"));
	decide_lines(again, 1, r);
	c = cause_with(r, "name-unresolved");
	ck_assert_ptr_nonnull(c);
	ck_assert(c->open);
	ck_assert_ptr_nonnull(strstr(c->next, "getent hosts"));
	decide_lines(noname, 1, r);
	ck_assert_uint_eq(count_kind(r, EXPLAIN_NET), 0);
	free(r);
}
END_TEST

/* Issue 42: a name that did not resolve is the cause only where
 * nothing in the log says otherwise: a quoted name is a name; one the
 * launcher cut short (a lost letter, Open MPI's first label) is the
 * launcher; one ssh failed on twice may not exist yet. A connect that
 * timed out opens candidates, except beside an HTTP client's frames
 * (a download, not a peer of the job). */
START_TEST(names_the_log_qualifies)
{
	static const char *const quoted[] = {
		"ssh: Could not resolve hostname `job-launcher-0.job`: Name or "
		"service not known"};
	static const char *const cut[] = {
		"$ echo localhost > hostfile",
		"ssh: Could not resolve hostname localhos: Name or service not "
		"known"};
	static const char *const dot[] = {
		"mpirun -np 2 -H job-worker-0.job:1,job-worker-1.job:1 python "
		"train.py",
		"ssh: Could not resolve hostname job-worker-1: Name or service "
		"not known"};
	static const char *const asis[] = {
		"mpirun -np 2 -H node1,node1.lan python train.py",
		"ssh: Could not resolve hostname node1: Name or service not "
		"known"};
	static const char *const twice[] = {
		"ssh: Could not resolve hostname w-0.svc: Name or service not "
		"known",
		"ssh: Could not resolve hostname w-0.svc: Name or service not "
		"known"};
	static const char *const http[] = {
		"  File \"/usr/lib/python3.8/http/client.py\", line 1011, in "
		"_send_output",
		"TimeoutError: [Errno 110] Connection timed out"};
	struct explain_result *r = malloc(sizeof(*r));

	ck_assert_ptr_nonnull(r);
	decide_lines(quoted, 1, r);
	ck_assert_uint_eq(count_kind(r, EXPLAIN_OTHER), 0);
	ck_assert_uint_eq(r->ncauses, 1);
	ck_assert_str_eq(r->causes[0].codes[0], "name-unresolved");
	ck_assert(!r->causes[0].open);
	ck_assert_ptr_nonnull(strstr(r->causes[0].fix, "getent hosts "
				     "job-launcher-0.job "));
	decide_lines(cut, 2, r);
	ck_assert_uint_eq(count_kind(r, EXPLAIN_NET), 0);
	ck_assert_uint_eq(count_kind(r, EXPLAIN_OTHER), 1);
	ck_assert_ptr_nonnull(strstr(r->causes[0].why, "'localhost'"));
	decide_lines(dot, 2, r);
	ck_assert_uint_eq(count_kind(r, EXPLAIN_NET), 0);
	ck_assert_ptr_nonnull(strstr(r->causes[0].fix,
				     "orte_keep_fqdn_hostnames 1"));
	decide_lines(asis, 2, r);
	ck_assert_uint_eq(count_kind(r, EXPLAIN_OTHER), 0);
	ck_assert_uint_eq(count_kind(r, EXPLAIN_NET), 1);
	decide_lines(twice, 2, r);
	ck_assert_uint_eq(r->ncauses, 1);
	ck_assert(r->causes[0].open);
	ck_assert_ptr_nonnull(strstr(r->causes[0].next, "kubectl get pods"));
	decide_lines(http, 2, r);
	ck_assert_uint_eq(count_kind(r, EXPLAIN_NET), 0);
	decide_lines(http + 1, 1, r);
	ck_assert_uint_eq(count_kind(r, EXPLAIN_NET), 1);
	ck_assert(r->causes[0].open);
	free(r);
}
END_TEST

/* Issue 42: the hosts a log names, read at NCCL's prefix, torch's store
 * forms, a launcher's ssh error and every IPv4 literal; a file name, a
 * version or a time is none; the log is this host's only where one is. */
START_TEST(origin_names_and_match)
{
	struct explain_origin o;
	const char *mine[] = {"10.231.62.9", "127.0.0.1"};
	char why[128];

	memset(&o, 0, sizeof(o));
	explain_origin_line(&o, "gpu-b:2231:2231 [0] NCCL INFO Bootstrap : "
			    "Using eth0:10.231.62.2<0>");
	explain_origin_line(&o, "[E socket.cpp:957] [c10d] The client socket "
			    "has timed out after 1800s while trying to "
			    "connect to (trainer-0, 29500).");
	explain_origin_line(&o, "ssh: Could not resolve hostname worker-7: "
			    "Name or service not known");
	explain_origin_line(&o, "  File \"/work/train.py\", line 41, NCCL "
			    "version 2.21.5+cuda12.4 at 12:30:45.123");
	ck_assert_uint_eq(o.nhosts, 3);
	ck_assert_str_eq(o.hosts[0], "gpu-b");
	ck_assert_str_eq(o.hosts[1], "trainer-0");
	ck_assert_str_eq(o.hosts[2], "worker-7");
	ck_assert_uint_eq(o.naddrs, 1);
	ck_assert_str_eq(o.addrs[0], "10.231.62.2");
	ck_assert_int_eq(explain_origin_match(&o, "support-1", mine, 2, why,
					      sizeof(why)), ORIGIN_ELSEWHERE);
	ck_assert_int_eq(explain_origin_match(&o, "GPU-B.example.org", mine,
					      2, why, sizeof(why)),
			 ORIGIN_HERE);
	ck_assert_ptr_nonnull(strstr(why, "gpu-b"));
	explain_origin_line(&o, "bind to 10.231.62.9:29500 failed");
	ck_assert_int_eq(explain_origin_match(&o, "support-1", mine, 2, why,
					      sizeof(why)), ORIGIN_HERE);
	/* a program's sentence after "connect to" names no host (issue
	 * 42: blind42y e01, gRPC's words); ssh's host before its port
	 * does */
	memset(&o, 0, sizeof(o));
	explain_origin_line(&o, "failed to connect to all addresses; last "
			    "error: UNKNOWN: ipv4:127.0.0.1:6334: Failed to "
			    "connect to remote host: Connection refused");
	ck_assert_uint_eq(o.nhosts, 0);
	ck_assert(!explain_origin_other_hosts(&o));
	explain_origin_line(&o, "ssh: connect to host node1 port 22: "
			    "Connection refused");
	ck_assert_uint_eq(o.nhosts, 1);
	ck_assert_str_eq(o.hosts[0], "node1");
	/* docker0's 172.17.0.1 is on every Docker host: it names none */
	memset(&o, 0, sizeof(o));
	explain_origin_line(&o, "NCCL INFO Bootstrap : Using docker0:"
			    "172.17.0.1<0>");
	mine[0] = "172.17.0.1";
	ck_assert_int_eq(explain_origin_match(&o, "support-1", mine, 2, why,
					      sizeof(why)), ORIGIN_UNNAMED);
	memset(&o, 0, sizeof(o));
	explain_origin_line(&o, "connect [127.0.1.1]:23456: Connection "
			    "refused");
	ck_assert_int_eq(explain_origin_match(&o, "gnode", mine, 2, why,
					      sizeof(why)), ORIGIN_UNNAMED);
}
END_TEST

START_TEST(address_classes)
{
	ck_assert_str_eq(explain_addr_class("127.0.1.1"), "loopback");
	ck_assert_str_eq(explain_addr_class("172.17.0.2"), "docker-bridge");
	ck_assert_str_eq(explain_addr_class("10.88.0.4"), "podman-bridge");
	ck_assert_str_eq(explain_addr_class("fe80::1%eth0"), "link-local");
	ck_assert_str_eq(explain_addr_class("172.18.0.2"), "docker-gwbridge");
	/* the rest of 172.16/12 is any site's (AWS's default VPC 172.31) */
	ck_assert_ptr_null(explain_addr_class("172.19.0.2"));
	ck_assert_ptr_null(explain_addr_class("172.31.0.2"));
	ck_assert_ptr_null(explain_addr_class("10.231.0.1"));
	ck_assert(explain_iface_virtual("veth12ab"));
	ck_assert(!explain_iface_virtual("eth0"));
}
END_TEST

/* What NCCL 2.28's RAS prints for a 2-rank job one of whose processes
 * stopped (client_support.cc's formats). */
static const char ras_answer[] =
	"NCCL version 2.28.3+cuda13.0 compiled with CUDA 13.0\n"
	"CUDA runtime version 13000, driver version 13000\n\n"
	"Job summary\n===========\n\n"
	"  Nodes  Processes         GPUs  Processes     GPUs\n"
	"(total)   per node  per process    (total)  (total)\n"
	"      1          2            1          2        2\n\n"
	"Gathering data about the RAS network (timeout 5s)... obtained a "
	"result in 5.002s\n"
	" Warning: missing data from 1 process (received from 1, expected 2)"
	"\n  The missing process:\n"
	"  Process 4711 on node gpu-a managing GPU 1\n"
	"\nCommunicators... (5.003s)\n=============\n\n"
	"Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  "
	"Errors\n"
	"    #  in group  per comm  per node  per comm  in group\n"
	"    0         1         1         2         2         2   RUNNING  "
	"INCOMPLETE\n\n"
	"Errors\n======\n\n"
	"INCOMPLETE\n  Missing communicator data from 1 job process\n"
	"  Process 4711 on node gpu-a managing GPU 1\n\n"
	"#0-0 (f1e2d3c4b5a69788) INCOMPLETE\n"
	"  Missing communicator data from 1 rank\n"
	"  Rank 1 -- GPU 1 managed by process 4711 on node gpu-a\n\n"
	"Warnings\n========\n\n"
	"TIMEOUT\n  Encountered 2 communication timeouts while gathering "
	"communicator data\n\n";

START_TEST(ras_parse_status)
{
	struct ras_state st;

	ck_assert_int_eq(ras_parse(ras_answer, &st), 0);
	ck_assert_str_eq(st.nccl_version, "2.28.3+cuda13.0");
	ck_assert_int_eq(st.nmissing_procs, 1);
	ck_assert_int_eq(st.timeouts, 2);
	ck_assert_uint_eq(st.ncomms, 1);
	ck_assert_str_eq(st.comms[0].what, "INCOMPLETE");
	ck_assert_int_eq(st.comms[0].nmissing, 1);
	ck_assert_uint_eq(st.nprocs, 2);
	ck_assert_int_eq(st.procs[0].kind, RAS_PROC_UNRESPONSIVE);
	ck_assert_int_eq(st.procs[0].pid, 4711);
	ck_assert_str_eq(st.procs[0].node, "gpu-a");
	ck_assert_int_eq(st.procs[1].kind, RAS_PROC_MISSING_RANK);
	ck_assert_int_eq(st.procs[1].rank, 1);
	ck_assert_str_eq(st.procs[1].gpu, "1");
	ck_assert_int_eq(ras_parse("hello\n", &st), -1);
}
END_TEST

/* A RAS answer whose version and node hold bytes that are no UTF-8 (a
 * corrupt or hostile service; fuzz_ras found it): explain could not
 * write its document (`cannot write output`, exit 2). The parser keeps
 * well-formed UTF-8 and makes each other byte '?'. */
START_TEST(ras_parse_not_utf8)
{
	struct ras_state st;

	ck_assert_int_eq(ras_parse("NCCL version 2.28.3\xff+cuda13.0\nDEAD\n"
				   "  Process 7 on node gpu-\xe9 managing GPU "
				   "0\xc3\n", &st), 0);
	ck_assert_str_eq(st.nccl_version, "2.28.3?+cuda13.0");
	ck_assert_uint_eq(st.nprocs, 1);
	ck_assert_str_eq(st.procs[0].node, "gpu-?");
	ck_assert_str_eq(st.procs[0].gpu, "0?");
	/* a node named in UTF-8 keeps its name */
	ck_assert_int_eq(ras_parse("NCCL version 2.28.3+cuda13.0\nDEAD\n"
				   "  Process 7 on node gpu-\xc3\xa9 managing "
				   "GPU 0\n", &st), 0);
	ck_assert_str_eq(st.procs[0].node, "gpu-\xc3\xa9");
}
END_TEST

/* doc_utf8_fix: well-formed characters stay, each other byte is '?':
 * a lone continuation, a Latin-1 byte, an overlong form, a surrogate, a
 * character cut at the end, a code point above U+10FFFF. */
START_TEST(utf8_fix_forms)
{
	char a[] = "ok \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
	char b[] = "\x80x\xe9y\xc0\xafz\xed\xa0\x80w\xe2\x82";
	char c[] = "\xf4\x90\x80\x80.";

	doc_utf8_fix(a);
	ck_assert_str_eq(a, "ok \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	doc_utf8_fix(b);
	ck_assert_str_eq(b, "?x?y??z???w??");
	doc_utf8_fix(c);
	ck_assert_str_eq(c, "????.");
}
END_TEST

START_TEST(ras_addr_forms)
{
	char h[64], p[16];

	ck_assert_int_eq(ras_addr_split(NULL, h, sizeof(h), p, sizeof(p)), 0);
	ck_assert_str_eq(h, "localhost");
	ck_assert_str_eq(p, "28028");
	ck_assert_int_eq(ras_addr_split("10.0.0.1:3000", h, sizeof(h), p,
					sizeof(p)), 0);
	ck_assert_str_eq(h, "10.0.0.1");
	ck_assert_str_eq(p, "3000");
	ck_assert_int_eq(ras_addr_split("[::1]:3001", h, sizeof(h), p,
					sizeof(p)), 0);
	ck_assert_str_eq(h, "::1");
	ck_assert_str_eq(p, "3001");
	ck_assert_int_eq(ras_addr_split(":abc", h, sizeof(h), p, sizeof(p)),
			 -1);
}
END_TEST

/* The fake RAS service: NCCL's side of the handshake, then the answer,
 * then close (as rasClientTerminate does). One client, then exit. */
static void fake_ras(int lfd, bool wrong)
{
	char buf[256];
	int fd = accept(lfd, NULL, NULL);
	ssize_t n;

	if (fd < 0)
		_exit(1);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0 || strncmp(buf, "CLIENT PROTOCOL 2\n", 18) != 0)
		_exit(2);
	if (wrong) {
		(void)!write(fd, "SSH-2.0-OpenSSH\n", 16);
		_exit(0);
	}
	(void)!write(fd, "SERVER PROTOCOL 2\n", 18);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0 || strncmp(buf, "TIMEOUT ", 8) != 0)
		_exit(3);
	(void)!write(fd, "OK\n", 3);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0 || strncmp(buf, "VERBOSE STATUS\n", 15) != 0)
		_exit(4);
	(void)!write(fd, ras_answer, sizeof(ras_answer) - 1);
	close(fd);
	_exit(0);
}

static int fake_listen(unsigned short *port)
{
	struct sockaddr_in a;
	int fd = unitfix_listen(8, &a);

	*port = ntohs(a.sin_port);
	return fd;
}

static void query_fake(bool wrong)
{
	unsigned short port;
	char ps[16], why[256], *ans = NULL;
	int lfd = fake_listen(&port), st, rc;
	struct ras_state ras;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		fake_ras(lfd, wrong);
	close(lfd);
	snprintf(ps, sizeof(ps), "%u", port);
	rc = ras_query("127.0.0.1", ps, 2000, 1, &ans, why, sizeof(why));
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	if (wrong) {
		ck_assert_int_eq(rc, -1);
		ck_assert_ptr_nonnull(strstr(why, "not a NCCL RAS service"));
		return;
	}
	ck_assert_msg(rc == 0, "%s", why);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_int_eq(ras_parse(ans, &ras), 0);
	ck_assert_uint_eq(ras.nprocs, 2);
	free(ans);
}

START_TEST(ras_client_fake_service)
{
	query_fake(false);
	query_fake(true);
}
END_TEST

START_TEST(ras_client_nobody)
{
	unsigned short port;
	char ps[16], why[256], *ans = NULL;
	int lfd = fake_listen(&port);

	close(lfd); /* nothing listens there now */
	snprintf(ps, sizeof(ps), "%u", port);
	ck_assert_int_eq(ras_query("127.0.0.1", ps, 500, 1, &ans, why,
				   sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "Connection refused"));
}
END_TEST

/* A process stopped by SIGSTOP keeps its listening socket: the kernel
 * completes the handshake, nothing answers. Every try times out, and the
 * reason says how many were made. */
START_TEST(ras_client_silent)
{
	unsigned short port;
	char ps[16], why[256], *ans = NULL;
	int lfd = fake_listen(&port);

	snprintf(ps, sizeof(ps), "%u", port);
	ck_assert_int_eq(ras_query("127.0.0.1", ps, 100, 1, &ans, why,
				   sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "no answer to the handshake"));
	ck_assert_ptr_nonnull(strstr(why, "(6 tries)"));
	ck_assert_ptr_null(ans);
	close(lfd);
}
END_TEST

Suite *suite_explain(void)
{
	Suite *s = suite_create("explain");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_row_id_unique);
	tcase_add_test(tc, every_row_matches_its_example);
	tcase_add_test(tc, row_next_fits_and_is_printed);
	tcase_add_test(tc, fields_extracted);
	tcase_add_test(tc, framework_forms);
	tcase_add_test(tc, address_classes);
	tcase_add_test(tc, symptom_alone_opens_nothing);
	tcase_add_test(tc, nccl_lo_and_resolver_again);
	tcase_add_test(tc, names_the_log_qualifies);
	tcase_add_test(tc, origin_names_and_match);
	tcase_add_test(tc, ras_parse_status);
	tcase_add_test(tc, ras_parse_not_utf8);
	tcase_add_test(tc, utf8_fix_forms);
	tcase_add_test(tc, ras_addr_forms);
	tcase_add_test(tc, ras_client_fake_service);
	tcase_add_test(tc, ras_client_nobody);
	tcase_add_test(tc, ras_client_silent);
	suite_add_tcase(s, tc);
	return s;
}
