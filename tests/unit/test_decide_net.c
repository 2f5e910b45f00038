/* The scan's deciders of the node's networks and state (subnets,
 * routes, reach, interface state, MPI and MASTER_ADDR, layers, the hosts
 * file): each finding code on a case that raises it and on one that must
 * not. The names' and interface variables' are test_decide.c's. */
#include <arpa/inet.h>
#include <check.h>
#include <linux/neighbour.h>
#include <stdio.h>
#include <string.h>

#include "decide/decide.h"
#include "decide/recommend.h"
#include "decide_fx.h"
#include "kernel/hostname.h"
#include "kernel/neigh.h"
#include "kernel/nl.h"

START_TEST(overlapping_subnets)
{
	struct iface_list l = {0};
	struct doc d;
	struct peer_verdict p;
	json_t *f;

	two_lans(&l);
	doc_start(&d);
	decide_subnets(&l, NULL, 0, NULL, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	add(&l, "eth2", IFK_PHYSICAL, UPRUN, "10.231.1.200", 16);
	add(&l, "eth3", IFK_PHYSICAL, UPRUN, "fe80::3", 64); /* never */
	memset(&p, 0, sizeof(p));
	snprintf(p.local_ifname, sizeof(p.local_ifname), "eth1");
	doc_start(&d);
	decide_subnets(&l, &p, 1, NULL, &d);
	ck_assert(doc_has_finding(&d, "overlapping-subnets"));
	/* 10.231.0.0/24 and 10.231.1.0/24 both sit inside 10.231.0.0/16 */
	ck_assert_int_eq(json_array_size(d.findings), 2);
	ck_assert_int_eq(d.nfault, 0);
	/* no recommendation: the fix pins nothing, never the route's */
	f = json_array_get(d.findings, 0);
	ck_assert_ptr_null(
	    strstr(json_string_value(json_object_get(f, "fix")), "eth1"));
	doc_free(&d);
	/* the fix names the recommended interface */
	{
		struct recommendation r = {0};

		r.ifc = &l.v[1];
		doc_start(&d);
		decide_subnets(&l, &p, 1, &r, &d);
		f = json_array_get(d.findings, 0);
		ck_assert_ptr_nonnull(
		    strstr(json_string_value(json_object_get(f, "fix")),
		           "NCCL_SOCKET_IFNAME==eth0"));
		doc_free(&d);
	}

	/* a down interface does not overlap */
	l.v[3].flags = 0;
	doc_start(&d);
	decide_subnets(&l, NULL, 0, NULL, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

/* A pool bridge overlapping the LAN captures the route toward a peer:
 * a fault whose evidence has both prefixes and the route, whose fix
 * names the LAN interface, never the bridge. */
START_TEST(route_captured_by_pool)
{
	struct iface_list l = {0};
	struct iface *v;
	struct peer_verdict p;
	struct doc d;
	json_t *f;
	const char *fix;

	unitfix_lo(&l);
	add(&l, "lan0", IFK_PHYSICAL, UPRUN, "10.231.60.1", 16);
	add(&l, "br-7c0d", IFK_BRIDGE, UPRUN, "10.231.61.1", 24);
	v = add(&l, "veth3e", IFK_VETH, UPRUN, NULL, 0);
	v->master_index = l.v[2].index;
	memset(&p, 0, sizeof(p));
	snprintf(p.peer, sizeof(p.peer), "nodeb");
	snprintf(p.peer_addr, sizeof(p.peer_addr), "10.231.61.9");
	snprintf(p.local_ifname, sizeof(p.local_ifname), "br-7c0d");
	snprintf(p.local_addr, sizeof(p.local_addr), "10.231.61.1");
	doc_start(&d);
	decide_subnets(&l, &p, 1, NULL, &d);
	ck_assert_int_eq(d.nfault, 1);
	f = json_array_get(d.findings, 0);
	fix = json_string_value(json_object_get(f, "fix"));
	ck_assert_ptr_nonnull(strstr(fix, "leaves by lan0; then use lan0"));
	ck_assert_ptr_nonnull(strstr(fix, "move br-7c0d's prefix"));
	ck_assert_int_eq(json_array_size(json_object_get(f, "evidence")), 5);
	ck_assert_ptr_nonnull(strstr(
	    json_string_value(json_object_get(
	        json_array_get(json_object_get(f, "evidence"), 2), "fact")),
	    "route toward peer nodeb (10.231.61.9) leaves by br-7c0d"));
	doc_free(&d);
	ck_assert_ptr_nonnull(decide_route_cause(&l, &p, (char[256]){0}, 256));

	/* a container on that bridge, held by no other subnet: it may be
	 * silent itself, the bridge is no cause */
	snprintf(p.peer_addr, sizeof(p.peer_addr), "10.231.61.9");
	l.v[1].addrs[0].prefixlen = 24; /* lan0 10.231.60.0/24 */
	ck_assert_ptr_null(decide_route_cause(&l, &p, (char[256]){0}, 256));
	l.v[1].addrs[0].prefixlen = 16;

	/* a peer outside the pool, routed by the LAN: only a warning */
	snprintf(p.peer_addr, sizeof(p.peer_addr), "10.231.62.9");
	snprintf(p.local_ifname, sizeof(p.local_ifname), "lan0");
	doc_start(&d);
	decide_subnets(&l, &p, 1, NULL, &d);
	ck_assert_int_eq(d.nfault, 0);
	ck_assert_int_eq(d.nwarning, 1);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

/* A peer that did not answer because of this node's route or link is
 * host-unreachable with the cause; one whose route is fine is not. */
START_TEST(peer_route_cause)
{
	struct iface_list l = {0};
	struct peer_verdict p;
	struct doc d;
	char buf[256];
	const char *c;

	unitfix_lo(&l);
	add(&l, "mgmt0", IFK_PHYSICAL, UPRUN, "10.231.70.5", 24);
	add(&l, "train0", IFK_PHYSICAL, IFF_UP, "10.231.71.5", 24);
	memset(&p, 0, sizeof(p));
	snprintf(p.peer, sizeof(p.peer), "10.231.71.6");
	snprintf(p.peer_addr, sizeof(p.peer_addr), "10.231.71.6");
	snprintf(p.local_ifname, sizeof(p.local_ifname), "train0");
	p.nat = p.inbound = -1;

	/* the route leaves by the NIC without carrier */
	c = decide_route_cause(&l, &p, buf, sizeof(buf));
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(strstr(c, "leaves by train0, which has no "
	                                "carrier"));
	doc_start(&d);
	decide_peer_routes(&l, &p, 1, &d);
	ck_assert(doc_has_finding(&d, "host-unreachable"));
	ck_assert_int_eq(d.nfault, 1);
	ck_assert_ptr_nonnull(strstr(
	    json_string_value(json_object_get(json_array_get(d.findings, 0),
	                                      "fix")),
	    "peer end of train0"));
	doc_free(&d);

	/* the NIC is down: its subnet's route is gone, the default route
	 * takes the peer to mgmt0 */
	l.v[2].flags = 0;
	snprintf(p.local_ifname, sizeof(p.local_ifname), "mgmt0");
	c = decide_route_cause(&l, &p, buf, sizeof(buf));
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(strstr(c, "train0, which is down"));
	doc_start(&d);
	decide_peer_routes(&l, &p, 1, &d);
	ck_assert_str_eq(
	    json_string_value(json_object_get(json_array_get(d.findings, 0),
	                                      "fix")),
	    "ip link set train0 up");
	doc_free(&d);

	/* no route at all */
	p.local_ifname[0] = '\0';
	ck_assert_ptr_nonnull(strstr(decide_route_cause(&l, &p, buf,
	                                                sizeof(buf)),
	                             "no route"));

	/* a sound route: the peer itself is silent, no finding */
	l.v[2].flags = UPRUN;
	l.v[2].carrier = 1;
	snprintf(p.local_ifname, sizeof(p.local_ifname), "train0");
	ck_assert_ptr_null(decide_route_cause(&l, &p, buf, sizeof(buf)));
	doc_start(&d);
	decide_peer_routes(&l, &p, 1, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	/* a peer that answered is reachable whatever the route says */
	l.v[2].carrier = 0;
	p.responded = true;
	doc_start(&d);
	decide_peer_routes(&l, &p, 1, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

/* NCCL_SOCKET_IFNAME or GLOO_SOCKET_IFNAME selecting an interface from
 * which an answering peer does not answer: rank-unreachable, fixed with
 * the recommended interface; the route's own interface, or a setting
 * already on the recommendation, raises nothing. */
START_TEST(setting_reach)
{
	struct iface_list l = {0};
	struct scan_env e = {0};
	struct nccl_env ne;
	struct peer_verdict p;
	struct src_reach m;
	struct recommendation r = {0};
	const struct iface *set[4];
	struct doc d;
	json_t *f;

	two_lans(&l); /* eth0 10.231.0.1 (the peers'), eth1 host-only */
	memset(&p, 0, sizeof(p));
	snprintf(p.peer, sizeof(p.peer), "nodeb");
	snprintf(p.peer_addr, sizeof(p.peer_addr), "10.231.0.2");
	snprintf(p.local_ifname, sizeof(p.local_ifname), "eth0");
	p.responded = true;
	memset(&m, 0, sizeof(m));
	snprintf(m.ifname, sizeof(m.ifname), "eth1");
	snprintf(m.addr, sizeof(m.addr), "10.231.1.1");
	snprintf(m.reason, sizeof(m.reason), "timeout");
	m.port = 7470;
	m.timeout_us = 1400000;
	r.ifc = &l.v[1];

	e.nccl_socket_ifname = "=eth1";
	e.gloo_socket_ifname = "eth1";
	scan_env_nccl(&e, NULL, &ne);
	ck_assert_int_eq(decide_setting_ifaces(&e, &ne, &l, set, 4), 1);
	ck_assert_ptr_eq(set[0], &l.v[2]);
	doc_start(&d);
	decide_setting_reach(&e, &ne, &l, &p, 1, &m, 1, &r, &d);
	ck_assert_int_eq(d.nfault, 2);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "code")),
	                 "rank-unreachable");
	ck_assert_ptr_nonnull(strstr(
	    json_string_value(json_object_get(f, "fix")), "==eth0"));
	ck_assert_ptr_nonnull(strstr(
	    json_string_value(json_object_get(json_array_get(d.findings, 1),
	                                      "fix")),
	    "GLOO_SOCKET_IFNAME=eth0"));
	ck_assert_int_eq(json_array_size(json_object_get(f, "evidence")), 3);
	doc_free(&d);

	/* the peer answered from eth1's address: nothing to say */
	m.answered = 1;
	doc_start(&d);
	decide_setting_reach(&e, &ne, &l, &p, 1, &m, 1, &r, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	/* not measured: cannot tell, no finding */
	m.answered = 0;
	doc_start(&d);
	decide_setting_reach(&e, &ne, &l, &p, 1, &m, 0, &r, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	/* a peer that did not answer at all is host-unreachable's */
	p.responded = false;
	doc_start(&d);
	decide_setting_reach(&e, &ne, &l, &p, 1, &m, 1, &r, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	p.responded = true;
	/* the settings on the route's interface (the recommendation) */
	e.nccl_socket_ifname = "=eth0";
	e.gloo_socket_ifname = "eth0";
	scan_env_nccl(&e, NULL, &ne);
	doc_start(&d);
	decide_setting_reach(&e, &ne, &l, &p, 1, &m, 1, &r, &d);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	/* a prefix selecting both: eth1's failure is still a fault */
	e.nccl_socket_ifname = "eth";
	e.gloo_socket_ifname = NULL;
	scan_env_nccl(&e, NULL, &ne);
	ck_assert_int_eq(decide_setting_ifaces(&e, &ne, &l, set, 4), 2);
	doc_start(&d);
	decide_setting_reach(&e, &ne, &l, &p, 1, &m, 1, NULL, &d);
	ck_assert_int_eq(d.nfault, 1);
	ck_assert_ptr_null(strstr(
	    json_string_value(json_object_get(json_array_get(d.findings, 0),
	                                      "fix")),
	    "eth1"));
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

	unitfix_lo(&l);
	add(&l, "eth0", IFK_PHYSICAL, UPRUN, "fe80::1", 64);
	doc_start(&d);
	decide_iface_state(&l, &d);
	ck_assert(doc_has_finding(&d, "no-usable-interface"));
	ck_assert(!doc_has_finding(&d, "interface-down"));
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

/* Issue 48 (blind48b 01): loopback down, or without 127.0.0.1 on an
 * IPv4 host, is a fault with its command; up with 127.0.0.1, or bare on
 * an IPv6-only host, is nothing. */
START_TEST(loopback_state)
{
	struct iface_list l = {0};
	struct doc d;
	const json_t *f;

	two_lans(&l);
	doc_start(&d);
	decide_iface_state(&l, &d);
	ck_assert(!doc_has_finding(&d, "loopback-down"));
	doc_free(&d);

	l.v[0].flags = IFF_LOOPBACK; /* ip link set lo down */
	doc_start(&d);
	decide_iface_state(&l, &d);
	ck_assert(doc_has_finding(&d, "loopback-down"));
	ck_assert_int_eq(d.nfault, 1);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "command")),
			 "ip link set lo up");
	doc_free(&d);
	iface_list_free(&l);

	/* up, 127.0.0.1 removed, on an IPv4 host */
	add(&l, "lo", IFK_LOOPBACK, UPRUN | IFF_LOOPBACK, "::1", 128);
	add(&l, "eth0", IFK_PHYSICAL, UPRUN, "10.231.0.1", 24);
	doc_start(&d);
	decide_iface_state(&l, &d);
	ck_assert(doc_has_finding(&d, "loopback-down"));
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "command")),
			 "ip addr add 127.0.0.1/8 dev lo");
	doc_free(&d);
	iface_list_free(&l);

	/* the same lo on an IPv6-only host: nothing to say */
	add(&l, "lo", IFK_LOOPBACK, UPRUN | IFF_LOOPBACK, "::1", 128);
	add(&l, "eth0", IFK_PHYSICAL, UPRUN, "fd84::1", 64);
	doc_start(&d);
	decide_iface_state(&l, &d);
	ck_assert(!doc_has_finding(&d, "loopback-down"));
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
	/* the default route leaves by it: an uplink whose port is a veth
	 * (issue 48: a lab's LAN bridge, blind48b 04 after its fix) */
	l.v[0].default_route = true;
	ck_assert(!decide_is_container_bridge(&l, &l.v[0]));
	l.v[0].default_route = false;
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

/* A peer that saw this node's own address and connected back outranks
 * the layering's NAT guess: info with both facts, no fault. */
START_TEST(layers_contradicted_by_peers)
{
	struct iface_list l = {0};
	struct layers ly = {.container = CONTAINER_LXC,
	                    .netmode = NETMODE_BRIDGE_NAT,
	                    .reach = REACH_NAT,
	                    .shm_bytes = 64 << 20};
	struct peer_verdict p[2];
	struct doc d;
	json_t *f;
	const char *ev;

	unitfix_lo(&l);
	add(&l, "eth0", IFK_VETH, UPRUN, "10.231.40.7", 24);
	ck_assert_int_eq(evidence_add(&ly.evidence, "netlink",
	                              "eth0 is a veth, gateway the bridge"),
	                 0);
	memset(p, 0, sizeof(p));
	for (int i = 0; i < 2; i++) {
		snprintf(p[i].peer, sizeof(p[i].peer), "node%d", i);
		snprintf(p[i].local_ifname, sizeof(p[i].local_ifname), "eth0");
		snprintf(p[i].observed_addr, sizeof(p[i].observed_addr),
		         "10.231.40.7");
		p[i].responded = true;
		p[i].nat = 0;
		p[i].inbound = 1;
	}
	ck_assert(decide_peers_direct(&l, p, 2));
	doc_start(&d);
	decide_layers(&ly, &l, p, 2, &d);
	ck_assert_int_eq(d.nfault, 0);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "code")),
	                 "container-bridge-nat");
	ck_assert_str_eq(json_string_value(json_object_get(f, "severity")),
	                 "info");
	ck_assert_int_eq(json_array_size(json_object_get(f, "evidence")), 3);
	ev = json_string_value(json_object_get(
	    json_array_get(json_object_get(f, "evidence"), 1), "fact"));
	ck_assert_ptr_nonnull(strstr(ev, "node0 saw this node as 10.231.40.7"));
	/* shm-small is no guess about reachability: it stays */
	ck_assert(doc_has_finding(&d, "shm-small"));
	ck_assert_int_eq(d.nwarning, 1);
	doc_free(&d);

	/* a peer that did not answer measured nothing: the guess stands */
	p[1].responded = false;
	p[1].inbound = -1;
	p[1].nat = -1;
	ck_assert(!decide_peers_direct(&l, p, 2));
	doc_start(&d);
	decide_layers(&ly, &l, p, 2, &d);
	ck_assert_int_eq(d.nfault, 1);
	doc_free(&d);

	/* a peer that is this host measures nothing either */
	snprintf(p[1].local_ifname, sizeof(p[1].local_ifname), "lo");
	ck_assert(decide_peers_direct(&l, p, 2));
	ck_assert(!decide_peers_direct(&l, &p[1], 1));
	/* no peers: the guess is a fault */
	ck_assert(!decide_peers_direct(&l, p, 0));
	doc_start(&d);
	decide_layers(&ly, &l, p, 0, &d);
	ck_assert_int_eq(d.nfault, 1);
	ck_assert(doc_has_finding(&d, "container-bridge-nat"));
	doc_free(&d);
	/* a peer that saw NAT confirms it */
	p[0].nat = 1;
	ck_assert(!decide_peers_direct(&l, p, 1));
	layers_free(&ly);
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

Suite *suite_decide_net(void)
{
	Suite *s = suite_create("decide_net");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, overlapping_subnets);
	tcase_add_test(tc, interface_state);
	tcase_add_test(tc, loopback_state);
	tcase_add_test(tc, mpi_btl);
	tcase_add_test(tc, master_addr);
	tcase_add_test(tc, predicates);
	tcase_add_test(tc, hosts_file);
	tcase_add_test(tc, layers_contradicted_by_peers);
	tcase_add_test(tc, route_captured_by_pool);
	tcase_add_test(tc, peer_route_cause);
	tcase_add_test(tc, setting_reach);
	suite_add_tcase(s, tc);
	return s;
}
