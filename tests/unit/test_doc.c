/* The JSON document: header keys, findings from the catalogue, errors. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "doc/doc.h"

START_TEST(header_and_findings)
{
	struct doc d;
	json_t *ev = NULL;

	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(d.root, "schema")),
			 "netprobe/1");
	ck_assert_int_eq(evidence_add(&ev, "netlink", "eth0 is a %s", "veth"),
			 0);
	ck_assert_int_eq(doc_add_finding(&d, FINDING_CONTAINER_BRIDGE_NAT, -1,
					 ev, NULL, "behind %s", "docker0"),
			 0);
	/* only a cast makes a code outside the table */
	ck_assert_int_eq(doc_add_finding(&d, (enum finding_code)FINDING_NCODES,
					 -1, NULL, NULL, "x"),
			 -1);
	ck_assert(doc_has_finding(&d, "container-bridge-nat"));
	ck_assert_int_eq(d.nfault, 1);
	ck_assert_int_eq(doc_exit_status(&d, true), 1);
	ck_assert_int_eq(doc_exit_status(&d, false), 2);
	ck_assert_int_eq(doc_set(&d, "schema", json_string("x")), -1);
	doc_free(&d);
}
END_TEST

START_TEST(catalogue_complete)
{
	size_t n;
	const struct finding_def *all = finding_all(&n);

	ck_assert_uint_ge(n, 33);
	for (size_t i = 0; i < n; i++) {
		ck_assert_ptr_eq(finding_lookup(all[i].code), &all[i]);
		ck_assert_ptr_eq(finding_get(all[i].id), &all[i]);
		ck_assert_str_eq(finding_name(all[i].id), all[i].code);
		ck_assert_ptr_nonnull(all[i].fix);
		ck_assert_ptr_nonnull(all[i].symptom);
		ck_assert_ptr_nonnull(all[i].detail);
		ck_assert_ptr_nonnull(all[i].cls);
	}
}
END_TEST

/* The codes of the table with every flag of mask (or of cause c when
 * mask is 0), comma-separated, in table order. */
static void codes_with(unsigned mask, enum finding_cause c, char *buf,
		       size_t len)
{
	size_t n, used = 0;
	const struct finding_def *all = finding_all(&n);

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		if (mask ? (all[i].flags & mask) == mask : all[i].cause == c)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? "," : "", all[i].code);
}

/* The groups the report used to keep by hand, now columns of the table:
 * the same codes as before, so its decisions did not move. */
START_TEST(catalogue_groups)
{
	char b[1024];

	codes_with(0, CAUSE_NAT, b, sizeof(b));
	ck_assert_str_eq(b, "container-bridge-nat,wsl2-nat,"
			    "wsl-container-double-nat,nat-detected");
	codes_with(0, CAUSE_HOSTNAME, b, sizeof(b));
	ck_assert_str_eq(b, "hostname-loopback,hostname-unbindable");
	codes_with(0, CAUSE_FIREWALL, b, sizeof(b));
	ck_assert_str_eq(b, "port-filtered,port-prohibited,"
			    "ephemeral-range-blocked,inbound-blocked");
	codes_with(0, CAUSE_MTU, b, sizeof(b));
	ck_assert_str_eq(b, "mtu-mismatch,mtu-blackhole");
	codes_with(FF_SELF, 0, b, sizeof(b));
	ck_assert_str_eq(b, "hostname-loopback,hostname-unbindable,"
			    "listener-loopback-only,inbound-blocked,"
			    "port-range-narrow,somaxconn-low,conn-rate-limit");
	codes_with(FF_PROBE, 0, b, sizeof(b));
	ck_assert_str_eq(b, "port-closed,port-filtered,port-prohibited,"
			    "host-unreachable,inbound-blocked,reply-blocked,"
			    "nat-detected,rank-unreachable,"
			    "idle-connection-killed");
	codes_with(FF_BEHIND_NAT, 0, b, sizeof(b));
	ck_assert_str_eq(b, "port-closed,port-filtered,port-prohibited,"
			    "host-unreachable,ephemeral-range-blocked,"
			    "heartbeat-loss,heartbeat-dropped");
	codes_with(FF_CHANGE, 0, b, sizeof(b));
	ck_assert_str_eq(b, "container-bridge-nat,wsl2-nat,"
			    "wsl-container-double-nat,hostname-loopback,"
			    "listener-loopback-only,nat-detected,"
			    "heartbeat-dropped,shm-small");
	codes_with(FF_GLOO, 0, b, sizeof(b));
	ck_assert_str_eq(b, "hostname-loopback,hostname-unbindable,"
			    "gloo-ifname-syntax");
	codes_with(FF_GUESS, 0, b, sizeof(b));
	ck_assert_str_eq(b, "container-bridge-nat,wsl2-nat,"
			    "wsl-container-double-nat");
	ck_assert(finding_has_flag("nat-detected", FF_PROBE | FF_CHANGE));
	ck_assert(!finding_has_flag("no-such-code", 0));
	ck_assert(!finding_in_cause(NULL, CAUSE_NONE));
	ck_assert_str_eq(finding_cause_name(CAUSE_FIREWALL), "firewall");
}
END_TEST

/* The codes of family f, comma-separated, in table order. */
static void codes_of_family(enum finding_family f, char *buf, size_t len)
{
	size_t n, used = 0;
	const struct finding_def *all = finding_all(&n);

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		if (all[i].family == f)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? "," : "", all[i].code);
}

/* The family column replaced explain's tests of a code's name: the same
 * codes as those names chose, and a lookup that knows no unknown code. */
START_TEST(catalogue_families)
{
	char b[1024];

	codes_of_family(FAMILY_PORT, b, sizeof(b));
	ck_assert_str_eq(b, "port-closed,port-unused,port-filtered,"
			    "port-prohibited,port-range-narrow,port-in-use");
	codes_of_family(FAMILY_RDMA, b, sizeof(b));
	ck_assert_str_eq(b, "rdma-ib-fallback,rdma-netns-exclusive,"
			    "rdma-uverbs-missing,rdma-memlock,"
			    "rdma-hca-missing,rdma-port-down,rdma-gid-index,"
			    "rdma-gid-auto,rdma-netdev-netns,rdma-nic-far,"
			    "rdma-fabric-mismatch,rdma-env-mismatch,"
			    "rdma-gdr-off");
	ck_assert(finding_in_family("port-range-narrow", FAMILY_PORT));
	ck_assert(finding_in_family("rdma-gdr-off", FAMILY_RDMA));
	ck_assert(!finding_in_family("rdma-gdr-off", FAMILY_PORT));
	ck_assert(finding_in_family("nat-detected", FAMILY_NONE));
	/* an unknown code is of no family, not even NONE */
	ck_assert(!finding_in_family("port-from-the-future", FAMILY_PORT));
	ck_assert(!finding_in_family("port-from-the-future", FAMILY_NONE));
	ck_assert(!finding_in_family(NULL, FAMILY_NONE));
	ck_assert_str_eq(finding_family_name(FAMILY_PORT), "port");
	ck_assert_str_eq(finding_family_name(FAMILY_RDMA), "rdma");
	ck_assert_str_eq(finding_family_name(FAMILY_NONE), "");
}
END_TEST

Suite *suite_doc(void)
{
	Suite *s = suite_create("doc");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, header_and_findings);
	tcase_add_test(tc, catalogue_groups);
	tcase_add_test(tc, catalogue_families);
	tcase_add_test(tc, catalogue_complete);
	suite_add_tcase(s, tc);
	return s;
}
