/* Lines of the services a job leans on, in their own words (issue 42:
 * blind42p's classes): a connect that timed out in words or by a Go
 * deadline with its endpoint on the line, a port held in a program's
 * own words, Erlang's nxdomain, a Kafka broker's advertised address,
 * FFmpeg's errno numbers, curl's TLS timeout, ping's EINVAL of a full
 * neighbour table, Docker's subnet overlap, Calico's pick of a virtual
 * interface, CycleCloud's reverse lookup, a Slurm daemon on a host its
 * configuration does not name, and a reset through a published port;
 * then blind42q's: Fabric's timeout and a check's "cannot reach" toward
 * a named host, etcdctl's endpoints, curl's reset handshake, HDFS's
 * reverse lookup, Cassandra's listen_address, RabbitMQ's epmd and
 * Envoy's upstream closed before headers; blind42r's NCCL connect
 * that woke with no POLLOUT; CoreDNS's UDP query to an upstream that
 * never answered (Go's "read udp A->B: i/o timeout"); blind42o's bind
 * that failed in a server's own words. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "unitfix.h"

START_TEST(service_lines)
{
	static const struct unitfix_line t[] = {
		{"worker:  Connecting to /10.142.0.23:7077 timed out (120000 "
		 "ms)    [Up 6m]", "open port-filtered", NULL},
		{"2020-11-05 03:34:20.548 [ERROR][1] client.go 255: Error "
		 "getting cluster information config ClusterInformation="
		 "\"default\" error=Get https://10.152.183.1:443/apis/crd."
		 "projectcalico.org/v1/clusterinformations/default: context "
		 "deadline exceeded", "open port-filtered", NULL},
		/* a bare deadline names nothing to test */
		{"Error: context deadline exceeded", NULL,
		 "open port-filtered"},
		{"Get http://10.231.0.9:8080/healthz: net/http: request "
		 "canceled while waiting for connection (Client.Timeout "
		 "exceeded while awaiting headers)", "open host-unreachable",
		 NULL},
		{"\tPort 10251 is in use", "cause port-in-use", NULL},
		{"\t[ERROR Port-10250]: Port 10250 is in use",
		 "cause port-in-use", NULL},
		{"Exception: The parameter `port`:52321 is already in use.",
		 "open port-in-use", NULL},
		{"ERROR: epmd error for host r1-server-0.r1-nodes.rabbitmq-"
		 "system: nxdomain (non-existing domain)",
		 "open name-unresolved", NULL},
		/* a broker's advertised loopback, on a one-host log too */
		{"[AdminClient clientId=adminclient-1] Connection to node 1001 "
		 "(/127.0.0.1:9092) could not be established. Broker may not "
		 "be available.", "open hostname-loopback", NULL},
		{"Connection to tcp://10.231.0.4:1935?tcp_nodelay=0 failed: "
		 "Error number -138 occurred", "open port-filtered", NULL},
		{"Connection to tcp://10.231.0.4:1935?tcp_nodelay=0 failed: "
		 "Error number -107 occurred", "open port-closed", NULL},
		{"curl: (28) SSL connection timeout", "open mtu-blackhole",
		 NULL},
		{"ping: sendmsg: Invalid argument",
		 "open neighbour-table-overflow", NULL},
		{"    [debug] driver.go:254 172.17.42.1/16 requested network "
		 "overlaps with existing network", "cause overlapping-subnets",
		 NULL},
		{"calico-node-vgs4z calico-node 2022-10-27 08:33:48.674 "
		 "[INFO][81] monitor-addresses/autodetection_methods.go 103: "
		 "Using autodetected IPv4 address on interface nodelocaldns: "
		 "10.96.0.10/32", "open address-conflict", NULL},
		/* the node's own NIC is what it should pick */
		{"startup/autodetection_methods.go 103: Using autodetected "
		 "IPv4 address on interface ens5: 10.215.101.177/24", NULL,
		 "open address-conflict"},
		/* blind42q's */
		{"Fatal error: Timed out trying to connect to ec2-54-193-66-"
		 "121.us-west-1.compute.amazonaws.com (tried 1 time)",
		 "open port-filtered", NULL},
		{"Sandbox containers cannot reach the gateway at "
		 "host.openshell.internal:8080 (172.18.0.1:8080).",
		 "open port-filtered", NULL},
		{"Error:  cannot sync with the cluster using endpoints "
		 "http://127.0.0.1:4001, http://127.0.0.1:2379",
		 "open listener-loopback-only", NULL},
		{"curl: (35) OpenSSL SSL_connect: Connection reset by peer in "
		 "connection to registry.terraform.io:443",
		 "open mtu-blackhole", NULL},
		{"Datanode denied communication with namenode because hostname "
		 "cannot be resolved (ip=10.0.0.13, hostname=10.0.0.13): "
		 "DatanodeRegistration(0.0.0.0:50010)",
		 "open name-unresolved", NULL},
		{"Unknown listen_address '10.10.0.26 172.18.0.16'",
		 "open hostname-unbindable", NULL},
		{"- unable to connect to epmd on controller-1: address (cannot "
		 "connect to host/port)", "open port-filtered", NULL},
		{"403 upstream connect error or disconnect/reset before "
		 "headers. reset reason: connection termination",
		 "open idle-connection-killed", NULL},
		/* blind42r's */
		{"[misc/socket.cc:586] [s12gn3064:pid=3942408] NCCL WARN "
		 "socketPollConnect poll() returned 1, no POLLOUT events",
		 "open somaxconn-low", NULL},
		{"ERROR: Node(execute-1, 11w3w000000, Standard_F2s_v2, x) has a "
		 "hostname that can not be queried via reverse dns "
		 "(private_ip=10.170.1.4 reverse dns hostname=localhost)",
		 "open hosts-stale", NULL},
		/* a UDP request with no reply; a TCP read's deadline is a
		 * slow peer on a connection that existed */
		{"[ERROR] plugin/errors: 2 example.org. HINFO: read udp "
		 "10.244.5.20:33008->10.231.1.1:53: i/o timeout",
		 "open port-filtered", NULL},
		{"error: read tcp 10.231.0.1:5000->10.231.0.2:8443: i/o "
		 "timeout", NULL, "open port-filtered"},
		/* a bind in a program's own words: on every address only
		 * another socket can hold the port; another errno after the
		 * port is not these rows' */
		{"fatal error: Failed to listen on INADDR_ANY:47764 (Broker::"
		 "listen(Broker::default_listen_address, Cluster::self$p))",
		 "open port-in-use", "open hostname-unbindable"},
		{"could not bind to 10.231.0.5:7000", "open hostname-unbindable",
		 NULL},
		{"Failed to bind to 10.231.0.5:8080: Permission denied", NULL,
		 "open port-in-use"},
	};

	UNITFIX_EXPECT(t);
}
END_TEST

/* A daemon that exited at start explains the refusals toward it. */
START_TEST(daemon_down_explains_refusal)
{
	static const char *const l[] = {
		"[2017-01-18T16:05:30.000] fatal: This host not configured to "
		"run SlurmDBD (vm-1-74 != frontend001 | (backup) (null))",
		"sacctmgr: error: slurm_persist_conn_open_without_init: failed "
		"to open persistent connection to host:frontend001:6819: "
		"Connection refused",
		NULL,
	};
	struct explain_result r;

	unitfix_explain(l, -1, &r);
	ck_assert(unitfix_has(&r, "other service-down"));
	ck_assert(!unitfix_has(&r, "open port-closed"));
}
END_TEST

/* A reset says where only beside a port Docker publishes. */
START_TEST(reset_through_published_port)
{
	static const char *const l[] = {
		"ca0d88f95f15 dius/pact_broker:latest Up 4 seconds "
		"0.0.0.0:80->80/tcp pact-broker",
		"$ curl -v localhost:80",
		"curl: (56) Recv failure: Connection reset by peer",
		NULL,
	};
	struct explain_result r;

	unitfix_explain(l, -1, &r);
	ck_assert(unitfix_has(&r, "open listener-loopback-only"));
	unitfix_expect_said(l, "open listener-loopback-only", UNITFIX_NEXT,
			    "0.0.0.0:80");
	unitfix_explain(l + 1, -1, &r);
	ck_assert(!unitfix_has(&r, "open listener-loopback-only"));
	ck_assert(!unitfix_has(&r, "open port-closed"));
}
END_TEST

/* A connect toward loopback is tested on the node that printed it; a
 * broker's advertised loopback is asked of the broker. */
START_TEST(loopback_next_commands)
{
	static const char *const one[] = {
		"Error:  cannot sync with the cluster using endpoints "
		"http://127.0.0.1:4001, http://127.0.0.1:2379",
		NULL,
	};
	static const char *const dns[] = {
		"[ERROR] plugin/errors: 2 example.org. A: read udp "
		"10.244.5.20:60708->10.231.1.1:53: i/o timeout",
		NULL,
	};
	static const char *const kafka[] = {
		"Connection to node 1001 (/127.0.0.1:9092) could not be "
		"established. Broker may not be available.",
		NULL,
	};

	unitfix_expect_said(one, "open port-closed", UNITFIX_NEXT,
			    "ss -ltnp 'sport = :4001'");
	unitfix_expect_said(kafka, "open hostname-loopback", UNITFIX_NEXT,
			    "advertised.listeners");
	unitfix_expect_said(dns, "open port-filtered", UNITFIX_NEXT,
			    "dig @10.231.1.1 kubernetes.io");
}
END_TEST

Suite *suite_explain_services(void)
{
	Suite *s = suite_create("explain_services");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, service_lines);
	tcase_add_test(tc, daemon_down_explains_refusal);
	tcase_add_test(tc, reset_through_published_port);
	tcase_add_test(tc, loopback_next_commands);
	suite_add_tcase(s, tc);
	return s;
}
