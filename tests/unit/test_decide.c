/* The scan's deciders of names and interface variables (hostname, NCCL,
 * Gloo, the comm id, IPv6): each finding code on a case that raises it
 * and on one that must not. Networks and state are test_decide_net.c's. */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/decide.h"
#include "kernel/hostname.h"
#include "decide/recommend.h"
#include "decide_fx.h"

START_TEST(hostname_loopback)
{
	struct iface_list l = {0};
	struct hostname_info h = {.name = "node1", .resolved_by = "/etc/hosts"};
	struct doc d;

	two_lans(&l);
	host_addr(&h, "127.0.1.1", -1);
	doc_start(&d);
	decide_hostname(&h, &l, NULL, NULL, &d);
	ck_assert(doc_has_finding(&d, "hostname-loopback"));
	ck_assert_int_eq(d.nfault, 1);
	doc_free(&d);
	/* the fix names the recommended interface and address */
	{
		struct recommendation r = {0};
		const char *fix;

		r.ifc = &l.v[2];
		r.addr = &l.v[2].addrs[0];
		doc_start(&d);
		decide_hostname(&h, &l, &r, NULL, &d);
		fix = json_string_value(
		    json_object_get(json_array_get(d.findings, 0), "fix"));
		ck_assert_ptr_nonnull(strstr(fix, "map node1 to 10.231.1.1"));
		ck_assert_ptr_nonnull(strstr(fix, "GLOO_SOCKET_IFNAME=eth1"));
		doc_free(&d);
	}

	memset(&h.addrs, 0, sizeof(h.addrs));
	h.naddrs = 0;
	host_addr(&h, "10.231.0.1", 1);
	doc_start(&d);
	decide_hostname(&h, &l, NULL, NULL, &d);
	ck_assert(!doc_has_finding(&d, "hostname-loopback"));
	ck_assert(!doc_has_finding(&d, "hostname-unbindable"));
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

/* The fix's other half, applied (issue 23's closed loop, e2e
 * hostname-loopback-*): with GLOO_SOCKET_IFNAME on an interface that has
 * an address and MASTER_ADDR set, the name no longer decides anything;
 * one of the two alone, or a name no interface has, still is a fault. */
START_TEST(hostname_fixed_by_settings)
{
	struct iface_list l = {0};
	struct hostname_info h = {.name = "node1", .resolved_by = "/etc/hosts"};
	struct scan_env e = {.gloo_socket_ifname = "eth1",
	                     .master_addr = "10.231.1.1"};
	struct doc d;

	two_lans(&l);
	host_addr(&h, "127.0.1.1", -1);
	doc_start(&d);
	decide_hostname(&h, &l, NULL, &e, &d);
	ck_assert_int_eq(d.nfault + d.nwarning, 0);
	ck_assert(!doc_has_finding(&d, "hostname-loopback"));
	doc_free(&d);
	e.master_addr = NULL; /* Gloo's half only: the store still */
	doc_start(&d);
	decide_hostname(&h, &l, NULL, &e, &d);
	ck_assert(doc_has_finding(&d, "hostname-loopback"));
	doc_free(&d);
	e.master_addr = "127.0.1.1";
	doc_start(&d);
	decide_hostname(&h, &l, NULL, &e, &d);
	ck_assert(doc_has_finding(&d, "hostname-loopback"));
	doc_free(&d);
	e.master_addr = "10.231.1.1";
	e.gloo_socket_ifname = "eth9"; /* no such interface */
	doc_start(&d);
	decide_hostname(&h, &l, NULL, &e, &d);
	ck_assert(doc_has_finding(&d, "hostname-loopback"));
	doc_free(&d);
	/* a name no interface holds: Gloo's setting alone is its fix */
	e.gloo_socket_ifname = "eth1";
	e.master_addr = NULL;
	memset(&h.addrs, 0, sizeof(h.addrs));
	h.naddrs = 0;
	host_addr(&h, "10.231.9.9", 0);
	doc_start(&d);
	decide_hostname(&h, &l, NULL, &e, &d);
	ck_assert(!doc_has_finding(&d, "hostname-unbindable"));
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

START_TEST(hostname_unbindable)
{
	struct iface_list l = {0};
	struct hostname_info h = {.name = "node1",
	                          .resolved_by = "getaddrinfo"};
	struct doc d;

	two_lans(&l);
	host_addr(&h, "10.231.9.9", 0);
	doc_start(&d);
	decide_hostname(&h, &l, NULL, NULL, &d);
	ck_assert(doc_has_finding(&d, "hostname-unbindable"));
	ck_assert(!doc_has_finding(&d, "hostname-loopback"));
	doc_free(&d);

	/* not tried (recorded sysroot): the interface list decides */
	h.addrs[0].bindable = -1;
	doc_start(&d);
	decide_hostname(&h, &l, NULL, NULL, &d);
	ck_assert(doc_has_finding(&d, "hostname-unbindable"));
	doc_free(&d);
	h.naddrs = 0;
	host_addr(&h, "10.231.1.1", -1);
	doc_start(&d);
	decide_hostname(&h, &l, NULL, NULL, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	/* the live resolver does not know the name */
	h.naddrs = 0;
	h.resolved = false;
	h.live = true;
	snprintf(h.error, sizeof(h.error), "cannot resolve 'node1'");
	doc_start(&d);
	decide_hostname(&h, &l, NULL, NULL, &d);
	ck_assert(doc_has_finding(&d, "hostname-unbindable"));
	doc_free(&d);
	/* nor does a recorded tree's hosts file: not judged */
	h.live = false;
	doc_start(&d);
	decide_hostname(&h, &l, NULL, NULL, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

START_TEST(nccl_ifname_overmatch_and_nomatch)
{
	struct iface_list l = {0};
	struct scan_env e = {0};
	struct nccl_env ne;
	struct doc d;

	two_lans(&l);
	add(&l, "bond0", IFK_BOND, UPRUN, "10.231.2.1", 24);
	add(&l, "bond0.2093", IFK_VLAN, UPRUN, "10.231.3.1", 24);

	e.nccl_socket_ifname = "eth";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, NULL, &d);
	ck_assert(doc_has_finding(&d, "nccl-ifname-overmatch"));
	/* no recommendation: the fix names no interface, never NCCL's first
	 * match */
	ck_assert_ptr_null(strstr(json_string_value(json_object_get(
	                              json_array_get(d.findings, 0), "fix")),
	                          "eth0"));
	doc_free(&d);
	/* the fix names the recommended interface, not NCCL's first match */
	{
		struct recommendation r = {0};

		r.ifc = &l.v[2];
		doc_start(&d);
		decide_nccl_ifname(&e, &ne, &l, &r, &d);
		ck_assert_ptr_nonnull(strstr(
		    json_string_value(
		        json_object_get(json_array_get(d.findings, 0), "fix")),
		    "NCCL_SOCKET_IFNAME==eth1"));
		doc_free(&d);
	}

	e.nccl_socket_ifname = "bond0";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, NULL, &d);
	ck_assert(doc_has_finding(&d, "nccl-ifname-overmatch"));
	doc_free(&d);

	/* exact form, and a list naming each interface: fine */
	e.nccl_socket_ifname = "=bond0";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, NULL, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	e.nccl_socket_ifname = "eth0,eth1";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, NULL, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	/* bond0 not running: "bond0" selects only bond0.2093 */
	l.v[3].flags = IFF_UP;
	e.nccl_socket_ifname = "bond0";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, NULL, &d);
	ck_assert(doc_has_finding(&d, "nccl-ifname-overmatch"));
	doc_free(&d);
	l.v[3].flags = UPRUN;

	e.nccl_socket_ifname = "nope";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, NULL, &d);
	ck_assert(doc_has_finding(&d, "nccl-ifname-nomatch"));
	ck_assert_int_eq(d.nfault, 1);
	doc_free(&d);

	/* matching only loopback is no better */
	e.nccl_socket_ifname = "lo";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, NULL, &d);
	ck_assert(doc_has_finding(&d, "nccl-ifname-nomatch"));
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

START_TEST(gloo_ifname)
{
	struct iface_list l = {0};
	struct scan_env e = {0};
	struct doc d;
	static const char *const bad[] = {"^lo",       "=eth0",     "eth",
	                                  "eth0,nope", "eth0:1234", ""};

	two_lans(&l);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		e.gloo_socket_ifname = bad[i];
		doc_start(&d);
		decide_gloo_ifname(&e, &l, &d);
		ck_assert_msg(doc_has_finding(&d, "gloo-ifname-syntax"),
		              "not flagged: '%s'", bad[i]);
		doc_free(&d);
	}
	e.gloo_socket_ifname = "eth1";
	doc_start(&d);
	decide_gloo_ifname(&e, &l, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

START_TEST(comm_id_subnet)
{
	struct iface_list l = {0};
	struct scan_env e = {0};
	struct nccl_env ne;
	struct doc d;

	two_lans(&l);
	e.nccl_comm_id = "10.99.0.1:29500";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_comm_id(&e, &ne, &l, &d);
	ck_assert(doc_has_finding(&d, "nccl-comm-id-subnet"));
	doc_free(&d);

	e.nccl_comm_id = "10.231.1.20:29500";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_comm_id(&e, &ne, &l, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	/* a name the caller resolved */
	e.nccl_comm_id = "master:29500";
	scan_env_nccl(&e, "10.231.0.5:29500", &ne);
	doc_start(&d);
	decide_comm_id(&e, &ne, &l, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

START_TEST(ipv6_link_local)
{
	struct iface_list l = {0};
	struct nccl_env ne = {0};
	struct doc d;

	two_lans(&l);
	add(&l, "veth9", IFK_VETH, UPRUN, "fe80::9", 64);
	doc_start(&d);
	decide_ipv6_link_local(&l, &ne, &d);
	ck_assert(doc_has_finding(&d, "ipv6-link-local-only"));
	doc_free(&d);

	ne.socket_family = "AF_INET";
	doc_start(&d);
	decide_ipv6_link_local(&l, &ne, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	/* pinned to an interface with IPv4: NCCL takes its IPv4 address */
	ne.socket_family = NULL;
	ne.socket_ifname = "=eth0";
	doc_start(&d);
	decide_ipv6_link_local(&l, &ne, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

/* Issue 48: NCCL_SOCKET_FAMILY=AF_INET6 on a host whose only IPv6 is
 * link-local is a fault whose one line sets AF_INET; with a ULA address
 * beside it, or no family forced, it is not. */
START_TEST(ipv6_family_forced_link_local)
{
	static const unsigned char ll[16] = {0xfe, 0x80, [15] = 1};
	static const unsigned char ula[16] = {0xfd, 0x23, [15] = 1};
	struct iface_list l = {0};
	struct nccl_env ne = {.socket_family = "AF_INET6"};
	struct doc d;
	json_t *f;

	one_lan(&l);
	ck_assert_int_eq(iface_add_addr(&l.v[1], AF_INET6, ll, 64, 253), 0);
	doc_start(&d);
	ck_assert_int_eq(decide_ipv6_link_local(&l, &ne, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 1);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "code")),
	                 "ipv6-link-local-only");
	ck_assert_str_eq(json_string_value(json_object_get(f, "severity")),
	                 "fault");
	ck_assert_str_eq(unitfix_finding_cmd(&d, "ipv6-link-local-only"),
	                 "export NCCL_SOCKET_FAMILY=AF_INET");
	doc_free(&d);

	/* a ULA address NCCL would take: nothing to say */
	ck_assert_int_eq(iface_add_addr(&l.v[1], AF_INET6, ula, 64, 0), 0);
	doc_start(&d);
	ck_assert_int_eq(decide_ipv6_link_local(&l, &ne, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);

	/* no IPv6 at all: NCCL finds no interface, the same fault */
	one_lan(&l);
	doc_start(&d);
	ck_assert_int_eq(decide_ipv6_link_local(&l, &ne, &d), 0);
	ck_assert_str_eq(unitfix_finding_cmd(&d, "ipv6-link-local-only"),
	                 "export NCCL_SOCKET_FAMILY=AF_INET");
	doc_free(&d);

	/* not forced: an IPv4 host says nothing */
	ne.socket_family = NULL;
	doc_start(&d);
	ck_assert_int_eq(decide_ipv6_link_local(&l, &ne, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

START_TEST(nccl_default)
{
	struct iface_list l = {0};
	struct nccl_env ne = {0};
	struct recommendation r;
	struct rec_input in = {.ifaces = &l};
	struct nccl_default nd;
	struct doc d;

	one_lan(&l);
	add(&l, "docker0", IFK_BRIDGE, UPRUN, "172.17.0.1", 16);
	ck_assert_int_eq(recommend(&in, &r), 0);
	doc_start(&d);
	ck_assert_int_eq(decide_nccl_default(&l, &ne, &r, &nd, &d), 0);
	ck_assert(nd.safe);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	ck_assert_str_eq(nd.choice.rule, "^docker,lo,virbr");
	doc_free(&d);
	recommendation_free(&r);

	/* br-* and veth pass NCCL's filter */
	add(&l, "br-5f2a", IFK_BRIDGE, UPRUN, "172.18.0.1", 16);
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_str_eq(r.ifc->name, "eth0");
	doc_start(&d);
	/* the choice is computed with NCCL_SOCKET_IFNAME unset */
	ne.socket_ifname = "=br-5f2a";
	ck_assert_int_eq(decide_nccl_default(&l, &ne, &r, &nd, &d), 0);
	ck_assert(!nd.safe);
	ck_assert(doc_has_finding(&d, "nccl-default-iface-unsafe"));
	ck_assert_int_eq(nd.choice.n, 2);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(
	                                 json_array_get(d.findings, 0), "fix")),
	                             "==eth0"));
	doc_free(&d);
	/* a setting that already pins the recommendation raises nothing */
	ne.socket_ifname = "=eth0";
	doc_start(&d);
	ck_assert_int_eq(decide_nccl_default(&l, &ne, &r, &nd, &d), 0);
	ck_assert(!nd.safe);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	ck_assert_ptr_nonnull(strstr(nd.why, "already selects eth0"));
	doc_free(&d);
	/* a prefix selecting eth0 alone matches too; one that also selects
	 * br-5f2a does not */
	ne.socket_ifname = "eth";
	doc_start(&d);
	decide_nccl_default(&l, &ne, &r, &nd, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	ne.socket_ifname = "eth0,br-";
	doc_start(&d);
	decide_nccl_default(&l, &ne, &r, &nd, &d);
	ck_assert(doc_has_finding(&d, "nccl-default-iface-unsafe"));
	doc_free(&d);
	ne.socket_ifname = NULL;
	recommendation_free(&r);

	/* NCCL picks ib0 first, the recommendation is eth0 */
	l.v[3].flags = 0;
	add(&l, "ib0", IFK_INFINIBAND, UPRUN, "10.231.8.1", 24);
	{
		const char *defs[] = {"eth0"};

		in.default_ifnames = defs;
		in.ndefault = 1;
		ck_assert_int_eq(recommend(&in, &r), 0);
	}
	ck_assert_str_eq(r.ifc->name, "eth0");
	doc_start(&d);
	ck_assert_int_eq(decide_nccl_default(&l, &ne, &r, &nd, &d), 0);
	ck_assert(!nd.safe);
	ck_assert_str_eq(nd.choice.rule, "ib");
	ck_assert(doc_has_finding(&d, "nccl-default-iface-unsafe"));
	doc_free(&d);
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

Suite *suite_decide(void)
{
	Suite *s = suite_create("decide");
	TCase *tc = tcase_create("findings");

	tcase_add_test(tc, hostname_loopback);
	tcase_add_test(tc, hostname_unbindable);
	tcase_add_test(tc, hostname_fixed_by_settings);
	tcase_add_test(tc, nccl_ifname_overmatch_and_nomatch);
	tcase_add_test(tc, gloo_ifname);
	tcase_add_test(tc, comm_id_subnet);
	tcase_add_test(tc, ipv6_link_local);
	tcase_add_test(tc, ipv6_family_forced_link_local);
	tcase_add_test(tc, nccl_default);
	suite_add_tcase(s, tc);
	return s;
}
