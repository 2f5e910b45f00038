/* Lines of the services a job leans on, in their own words (issue 42:
 * blind42p's classes): a connect that timed out in words or by a Go
 * deadline with its endpoint on the line, a port held in a program's
 * own words, Erlang's nxdomain, a Kafka broker's advertised address,
 * FFmpeg's errno numbers, curl's TLS timeout, ping's EINVAL of a full
 * neighbour table, Docker's subnet overlap, Calico's pick of a virtual
 * interface, CycleCloud's reverse lookup, a Slurm daemon on a host its
 * configuration does not name, and a reset through a published port. */
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
		{"ERROR: Node(execute-1, 11w3w000000, Standard_F2s_v2, x) has a "
		 "hostname that can not be queried via reverse dns "
		 "(private_ip=10.170.1.4 reverse dns hostname=localhost)",
		 "open hosts-stale", NULL},
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

Suite *suite_explain_services(void)
{
	Suite *s = suite_create("explain_services");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, service_lines);
	tcase_add_test(tc, daemon_down_explains_refusal);
	tcase_add_test(tc, reset_through_published_port);
	suite_add_tcase(s, tc);
	return s;
}
