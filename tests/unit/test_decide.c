/* The scan's deciders: each finding code on a case that raises it and on
 * one that must not. */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/decide.h"
#include "kernel/hostname.h"
#include "decide/recommend.h"

#define UPRUN (IFF_UP | IFF_RUNNING)

/* Adds an interface of a kind with flags and an optional address. */
static struct iface *add(struct iface_list *l, const char *name,
                         enum iface_kind kind, unsigned flags, const char *addr,
                         unsigned plen)
{
	struct iface *ifc = iface_list_add(l);
	unsigned char buf[16];

	ck_assert_ptr_nonnull(ifc);
	snprintf(ifc->name, sizeof(ifc->name), "%s", name);
	ifc->index = (int)l->n;
	ifc->kind = kind;
	ifc->flags = flags;
	ifc->carrier = (flags & IFF_RUNNING) ? 1 : 0;
	if (addr != NULL) {
		int fam = strchr(addr, ':') ? AF_INET6 : AF_INET;
		unsigned scope = 0;

		ck_assert_int_eq(inet_pton(fam, addr, buf), 1);
		if (fam == AF_INET6 && strncmp(addr, "fe80", 4) == 0)
			scope = 253;
		if (kind == IFK_LOOPBACK)
			scope = 254;
		ck_assert_int_eq(iface_add_addr(ifc, fam, buf, plen, scope), 0);
	}
	return ifc;
}

/* lo, eth0 10.231.0.1/24 and eth1 10.231.1.1/24. */
static void two_lans(struct iface_list *l)
{
	add(l, "lo", IFK_LOOPBACK, UPRUN | IFF_LOOPBACK, "127.0.0.1", 8);
	add(l, "eth0", IFK_PHYSICAL, UPRUN, "10.231.0.1", 24);
	add(l, "eth1", IFK_PHYSICAL, UPRUN, "10.231.1.1", 24);
}

/* A fresh document for one decider run. */
static void doc_start(struct doc *d)
{
	ck_assert_int_eq(doc_init(d, "netprobe", "scan"), 0);
}

/* One hostname address, bind result given. */
static void host_addr(struct hostname_info *h, const char *a, int bindable)
{
	struct hostname_addr *x = &h->addrs[h->naddrs++];
	int fam = strchr(a, ':') ? AF_INET6 : AF_INET;

	x->family = fam;
	ck_assert_int_eq(inet_pton(fam, a, &x->a), 1);
	snprintf(x->str, sizeof(x->str), "%s", a);
	x->bindable = bindable;
	x->bind_errno = bindable == 0 ? 99 : 0;
	h->resolved = true;
}

START_TEST(hostname_loopback)
{
	struct iface_list l = {0};
	struct hostname_info h = {.name = "node1", .resolved_by = "/etc/hosts"};
	struct doc d;

	two_lans(&l);
	host_addr(&h, "127.0.1.1", -1);
	doc_start(&d);
	decide_hostname(&h, &l, &d);
	ck_assert(doc_has_finding(&d, "hostname-loopback"));
	ck_assert_int_eq(d.nfault, 1);
	doc_free(&d);

	memset(&h.addrs, 0, sizeof(h.addrs));
	h.naddrs = 0;
	host_addr(&h, "10.231.0.1", 1);
	doc_start(&d);
	decide_hostname(&h, &l, &d);
	ck_assert(!doc_has_finding(&d, "hostname-loopback"));
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
	decide_hostname(&h, &l, &d);
	ck_assert(doc_has_finding(&d, "hostname-unbindable"));
	ck_assert(!doc_has_finding(&d, "hostname-loopback"));
	doc_free(&d);

	/* not tried (recorded sysroot): the interface list decides */
	h.addrs[0].bindable = -1;
	doc_start(&d);
	decide_hostname(&h, &l, &d);
	ck_assert(doc_has_finding(&d, "hostname-unbindable"));
	doc_free(&d);
	h.naddrs = 0;
	host_addr(&h, "10.231.1.1", -1);
	doc_start(&d);
	decide_hostname(&h, &l, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	/* the live resolver does not know the name */
	h.naddrs = 0;
	h.resolved = false;
	h.live = true;
	snprintf(h.error, sizeof(h.error), "cannot resolve 'node1'");
	doc_start(&d);
	decide_hostname(&h, &l, &d);
	ck_assert(doc_has_finding(&d, "hostname-unbindable"));
	doc_free(&d);
	/* nor does a recorded tree's hosts file: not judged */
	h.live = false;
	doc_start(&d);
	decide_hostname(&h, &l, &d);
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
	decide_nccl_ifname(&e, &ne, &l, &d);
	ck_assert(doc_has_finding(&d, "nccl-ifname-overmatch"));
	doc_free(&d);

	e.nccl_socket_ifname = "bond0";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, &d);
	ck_assert(doc_has_finding(&d, "nccl-ifname-overmatch"));
	doc_free(&d);

	/* exact form, and a list naming each interface: fine */
	e.nccl_socket_ifname = "=bond0";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	e.nccl_socket_ifname = "eth0,eth1";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	/* bond0 not running: "bond0" selects only bond0.2093 */
	l.v[3].flags = IFF_UP;
	e.nccl_socket_ifname = "bond0";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, &d);
	ck_assert(doc_has_finding(&d, "nccl-ifname-overmatch"));
	doc_free(&d);
	l.v[3].flags = UPRUN;

	e.nccl_socket_ifname = "nope";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, &d);
	ck_assert(doc_has_finding(&d, "nccl-ifname-nomatch"));
	ck_assert_int_eq(d.nfault, 1);
	doc_free(&d);

	/* matching only loopback is no better */
	e.nccl_socket_ifname = "lo";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_nccl_ifname(&e, &ne, &l, &d);
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

START_TEST(nccl_default)
{
	struct iface_list l = {0};
	struct nccl_env ne = {0};
	struct recommendation r;
	struct rec_input in = {.ifaces = &l};
	struct nccl_default nd;
	struct doc d;

	add(&l, "lo", IFK_LOOPBACK, UPRUN | IFF_LOOPBACK, "127.0.0.1", 8);
	add(&l, "eth0", IFK_PHYSICAL, UPRUN, "10.231.0.1", 24);
	add(&l, "docker0", IFK_BRIDGE, UPRUN, "172.17.0.1", 16);
	ck_assert_int_eq(recommend(&in, &r), 0);
	doc_start(&d);
	ck_assert(decide_nccl_default(&l, &ne, &r, &nd, &d));
	ck_assert_int_eq(json_array_size(d.findings), 0);
	ck_assert_str_eq(nd.choice.rule, "^docker,lo,virbr");
	doc_free(&d);
	recommendation_free(&r);

	/* br-* and veth pass NCCL's filter */
	add(&l, "br-5f2a", IFK_BRIDGE, UPRUN, "172.18.0.1", 16);
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_str_eq(r.ifc->name, "eth0");
	doc_start(&d);
	/* NCCL_SOCKET_IFNAME in the environment is ignored here */
	ne.socket_ifname = "=eth0";
	ck_assert(!decide_nccl_default(&l, &ne, &r, &nd, &d));
	ck_assert(doc_has_finding(&d, "nccl-default-iface-unsafe"));
	ck_assert_int_eq(nd.choice.n, 2);
	doc_free(&d);
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
	ck_assert(!decide_nccl_default(&l, &ne, &r, &nd, &d));
	ck_assert_str_eq(nd.choice.rule, "ib");
	ck_assert(doc_has_finding(&d, "nccl-default-iface-unsafe"));
	doc_free(&d);
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

START_TEST(overlapping_subnets)
{
	struct iface_list l = {0};
	struct doc d;
	struct peer_verdict p;
	json_t *f;

	two_lans(&l);
	doc_start(&d);
	decide_subnets(&l, NULL, 0, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	add(&l, "eth2", IFK_PHYSICAL, UPRUN, "10.231.1.200", 16);
	add(&l, "eth3", IFK_PHYSICAL, UPRUN, "fe80::3", 64); /* never */
	memset(&p, 0, sizeof(p));
	snprintf(p.local_ifname, sizeof(p.local_ifname), "eth1");
	doc_start(&d);
	decide_subnets(&l, &p, 1, &d);
	ck_assert(doc_has_finding(&d, "overlapping-subnets"));
	/* 10.231.0.0/24 and 10.231.1.0/24 both sit inside 10.231.0.0/16 */
	ck_assert_int_eq(json_array_size(d.findings), 2);
	f = json_array_get(d.findings, 0);
	ck_assert_ptr_nonnull(
	    strstr(json_string_value(json_object_get(f, "fix")), "eth1"));
	doc_free(&d);

	/* a down interface does not overlap */
	l.v[3].flags = 0;
	doc_start(&d);
	decide_subnets(&l, NULL, 0, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

START_TEST(interface_state)
{
	struct iface_list l = {0};
	struct iface *br;
	struct doc d;

	two_lans(&l);
	add(&l, "eth2", IFK_PHYSICAL, 0, "10.231.5.1", 24); /* down */
	add(&l, "eth3", IFK_PHYSICAL, 0, NULL, 0); /* down, no address */
	br = add(&l, "docker0", IFK_BRIDGE, IFF_UP, "172.17.0.1", 16);
	br->carrier = 0; /* no container yet: no carrier, never flagged */
	doc_start(&d);
	decide_iface_state(&l, &d);
	ck_assert(doc_has_finding(&d, "interface-down"));
	ck_assert_int_eq(json_array_size(d.findings), 1);
	ck_assert(!doc_has_finding(&d, "no-usable-interface"));
	doc_free(&d);

	/* up without carrier */
	l.v[3].flags = IFF_UP;
	doc_start(&d);
	decide_iface_state(&l, &d);
	ck_assert(doc_has_finding(&d, "interface-down"));
	doc_free(&d);
	iface_list_free(&l);

	add(&l, "lo", IFK_LOOPBACK, UPRUN | IFF_LOOPBACK, "127.0.0.1", 8);
	add(&l, "eth0", IFK_PHYSICAL, UPRUN, "fe80::1", 64);
	doc_start(&d);
	decide_iface_state(&l, &d);
	ck_assert(doc_has_finding(&d, "no-usable-interface"));
	ck_assert(!doc_has_finding(&d, "interface-down"));
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

START_TEST(mpi_btl)
{
	struct iface_list l = {0};
	struct scan_env e = {0};
	struct recommendation r;
	struct rec_input in = {.ifaces = &l};
	struct doc d;

	two_lans(&l);
	l.v[2].flags = 0;
	add(&l, "virbr0", IFK_BRIDGE, IFF_UP, "192.168.122.1", 24);
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_str_eq(r.ifc->name, "eth0");
	doc_start(&d);
	decide_mpi(&e, &l, &r, &d);
	ck_assert(doc_has_finding(&d, "mpi-btl-iface"));
	doc_free(&d);

	e.ompi_if_exclude = "lo,virbr0";
	doc_start(&d);
	decide_mpi(&e, &l, &r, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	e.ompi_if_include = "eth1";
	doc_start(&d);
	decide_mpi(&e, &l, &r, &d);
	ck_assert(doc_has_finding(&d, "mpi-btl-iface"));
	doc_free(&d);

	/* a pod's veth that is itself the recommendation is no fault */
	{
		struct iface_list pod = {0};
		struct recommendation pr;
		struct rec_input pin = {.ifaces = &pod};
		struct scan_env pe = {0};

		add(&pod, "eth0", IFK_VETH, UPRUN, "10.244.1.7", 24);
		ck_assert_int_eq(recommend(&pin, &pr), 0);
		doc_start(&d);
		decide_mpi(&pe, &pod, &pr, &d);
		ck_assert_int_eq(json_array_size(d.findings), 0);
		doc_free(&d);
		recommendation_free(&pr);
		iface_list_free(&pod);
	}

	e.ompi_if_include = "10.231.0.0/24";
	doc_start(&d);
	decide_mpi(&e, &l, &r, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	/* include and exclude both set: Open MPI refuses the pair
	 * (btl_tcp_component.c, mca_base_var_check_exclusive) */
	e.ompi_if_exclude = "virbr0";
	doc_start(&d);
	ck_assert(decide_mpi_lists(&e, &l, &r, &d));
	ck_assert(doc_has_finding(&d, "mpi-btl-iface"));
	ck_assert_int_eq(d.nfault, 1);
	doc_free(&d);
	e.ompi_if_exclude = NULL;
	doc_start(&d);
	ck_assert(!decide_mpi_lists(&e, &l, &r, &d));
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	/* the OOB list: a name this node lacks is a fault, one without the
	 * recommended interface a warning, both lists refused */
	e.oob_if_include = "ib0";
	doc_start(&d);
	decide_mpi_lists(&e, &l, &r, &d);
	ck_assert_int_eq(d.nfault, 1);
	doc_free(&d);
	e.oob_if_include = "eth1";
	doc_start(&d);
	decide_mpi_lists(&e, &l, &r, &d);
	ck_assert(doc_has_finding(&d, "mpi-btl-iface"));
	ck_assert_int_eq(d.nfault, 0);
	doc_free(&d);
	e.oob_if_include = "eth0";
	e.oob_if_exclude = "eth1";
	doc_start(&d);
	decide_mpi_lists(&e, &l, &r, &d);
	ck_assert_int_eq(d.nfault, 1);
	doc_free(&d);
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

START_TEST(master_addr)
{
	struct iface_list l = {0};
	struct scan_env e = {.master_addr = "127.0.0.1", .nodes = 2};
	struct master_info m = {.resolved = true,
	                        .family = AF_INET,
	                        .str = "127.0.0.1",
	                        .route = 1};
	struct doc d;

	two_lans(&l);
	inet_pton(AF_INET, "127.0.0.1", m.addr);
	doc_start(&d);
	decide_master_addr(&e, &m, &l, &d);
	ck_assert(doc_has_finding(&d, "rank-unreachable"));
	ck_assert_int_eq(d.nfault, 1);
	doc_free(&d);

	e.nodes = 0; /* one node, or unknown: information only */
	doc_start(&d);
	decide_master_addr(&e, &m, &l, &d);
	ck_assert_int_eq(d.nfault, 0);
	doc_free(&d);

	e.master_addr = "10.50.0.1";
	inet_pton(AF_INET, "10.50.0.1", m.addr);
	m.route = 0;
	doc_start(&d);
	decide_master_addr(&e, &m, &l, &d);
	ck_assert(doc_has_finding(&d, "host-unreachable"));
	doc_free(&d);

	e.master_addr = "10.231.1.1"; /* this node is rank 0 */
	inet_pton(AF_INET, "10.231.1.1", m.addr);
	doc_start(&d);
	decide_master_addr(&e, &m, &l, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

START_TEST(predicates)
{
	struct iface_list l = {0};
	struct iface *br, *eth;

	br = add(&l, "br0", IFK_BRIDGE, UPRUN, "10.231.0.1", 24);
	ck_assert(decide_is_container_bridge(&l, br)); /* no port */
	add(&l, "vethA", IFK_VETH, UPRUN, NULL, 0)->master_index = br->index;
	ck_assert(decide_is_container_bridge(&l, &l.v[0]));
	eth = add(&l, "eth0", IFK_PHYSICAL, UPRUN, NULL, 0);
	eth->master_index = l.v[0].index;
	ck_assert(!decide_is_container_bridge(&l, &l.v[0]));
	ck_assert(decide_is_virtual(&l.v[1]));
	ck_assert(!decide_is_virtual(&l.v[2]));
	snprintf(l.v[2].name, IF_NAMESIZE, "cali123");
	l.v[2].kind = IFK_UNKNOWN;
	ck_assert(decide_is_virtual(&l.v[2]));
	iface_list_free(&l);
}
END_TEST

START_TEST(hosts_file)
{
	static const char hosts[] =
	    "127.0.0.1\tlocalhost\n"
	    "127.0.1.1\ttestnode.example testnode # Debian\n"
	    "# 10.0.0.1 testnode\n"
	    "::1 localhost ip6-localhost\n"
	    "10.231.0.1 other testnode\n"
	    "10.231.0.1 testnode\n";
	struct hostname_addr a[4];

	ck_assert_int_eq(hostname_hosts_lookup(hosts, "testnode", a, 4), 2);
	ck_assert_str_eq(a[0].str, "127.0.1.1");
	ck_assert_str_eq(a[1].str, "10.231.0.1");
	ck_assert_int_eq(a[0].bindable, -1);
	ck_assert_int_eq(hostname_hosts_lookup(hosts, "nobody", a, 4), 0);
	ck_assert_int_eq(hostname_hosts_lookup(hosts, "TESTNODE", a, 1), 1);
}
END_TEST

Suite *suite_decide(void)
{
	Suite *s = suite_create("decide");
	TCase *tc = tcase_create("findings");

	tcase_add_test(tc, hostname_loopback);
	tcase_add_test(tc, hostname_unbindable);
	tcase_add_test(tc, nccl_ifname_overmatch_and_nomatch);
	tcase_add_test(tc, gloo_ifname);
	tcase_add_test(tc, comm_id_subnet);
	tcase_add_test(tc, ipv6_link_local);
	tcase_add_test(tc, nccl_default);
	tcase_add_test(tc, overlapping_subnets);
	tcase_add_test(tc, interface_state);
	tcase_add_test(tc, mpi_btl);
	tcase_add_test(tc, master_addr);
	tcase_add_test(tc, predicates);
	tcase_add_test(tc, hosts_file);
	suite_add_tcase(s, tc);
	return s;
}
