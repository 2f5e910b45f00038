/* The recommendation on tables of interfaces, layerings and peers. */
#include <arpa/inet.h>
#include <errno.h>
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/recommend.h"
#include "decide_fx.h"

/* Adds a second address to the last interface. */
static void addr(struct iface_list *l, const char *a, unsigned plen)
{
	struct iface *ifc = &l->v[l->n - 1];
	unsigned char buf[16];
	int fam = strchr(a, ':') ? AF_INET6 : AF_INET;

	ck_assert_int_eq(inet_pton(fam, a, buf), 1);
	ck_assert_int_eq(iface_add_addr(ifc, fam, buf, plen,
	                                strncmp(a, "fe80", 4) == 0 ? 253 : 0),
	                 0);
}

/* Runs the recommendation on in into r (to free) and asserts that it
 * picks the interface name. */
static void picks(const struct rec_input *in, struct recommendation *r,
                  const char *name)
{
	ck_assert_int_eq(recommend(in, r), 0);
	ck_assert_ptr_nonnull(r->ifc);
	ck_assert_str_eq(r->ifc->name, name);
}

/* A LAN host with Docker: eth0, docker0 and one container's veth. */
static void lan_docker(struct iface_list *l)
{
	struct iface *br, *v;

	one_lan(l);
	addr(l, "fe80::1", 64);
	br = add(l, "docker0", IFK_BRIDGE, UPRUN, "172.17.0.1", 16);
	v = add(l, "veth1a2b", IFK_VETH, UPRUN, "fe80::2", 64);
	v->master_index = l->v[2].index;
	snprintf(v->master, sizeof(v->master), "docker0");
	(void)br;
}

START_TEST(lan_docker_veth)
{
	struct iface_list l = {0};
	struct recommendation r;
	const char *defs[] = {"eth0"};
	struct rec_input in = {.ifaces = &l,
	                       .default_ifnames = defs,
	                       .ndefault = 1,
	                       .routes_known = true};

	lan_docker(&l);
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_nonnull(r.ifc);
	ck_assert_str_eq(r.ifc->name, "eth0");
	ck_assert_str_eq(r.addr->str, "10.231.0.1");
	ck_assert_str_eq(recommendation_env(&r, "NCCL_SOCKET_IFNAME"), "=eth0");
	ck_assert_str_eq(recommendation_env(&r, "GLOO_SOCKET_IFNAME"), "eth0");
	ck_assert_str_eq(recommendation_env(&r, "OMPI_MCA_btl_tcp_if_include"),
	                 "eth0");
	/* only what is right on this node: MASTER_ADDR is rank 0's address
	 * on every node; Ray reads no variable for the node address
	 * (python/ray/scripts/scripts.py: --node-ip-address only); NCCL takes
	 * eth0's IPv4 address before its IPv6 ones (src/os/linux.cc), so no
	 * NCCL_SOCKET_FAMILY either */
	ck_assert_ptr_null(recommendation_env(&r, "MASTER_ADDR"));
	ck_assert_ptr_null(recommendation_env(&r, "RAY_NODE_IP_ADDRESS"));
	ck_assert_ptr_null(recommendation_env(&r, "NCCL_SOCKET_FAMILY"));
	ck_assert_int_eq(r.nenv, 3);
	ck_assert_ptr_nonnull(
	    strstr(recommendation_rejected(&r, "docker0"), "container"));
	ck_assert_ptr_nonnull(recommendation_rejected(&r, "veth1a2b"));
	ck_assert_str_eq(recommendation_rejected(&r, "lo"), "loopback");
	ck_assert_ptr_null(recommendation_rejected(&r, "eth0"));
	recommendation_free(&r);

	/* no default route: eth0 still wins on its kind */
	in.ndefault = 0;
	picks(&in, &r, "eth0");
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

START_TEST(two_lans_tie)
{
	struct iface_list l = {0};
	struct recommendation r;
	struct rec_input in = {.ifaces = &l, .routes_known = true};
	const char *defs[] = {"eth1"};
	json_t *j;

	two_lans(&l);
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	ck_assert_int_eq(r.none, REC_NONE_TIE);
	ck_assert_ptr_nonnull(strstr(r.reasons[0], "cannot tell between eth0 "
	                                           "and eth1"));
	ck_assert_ptr_nonnull(strstr(r.reasons[0], "--peer"));
	ck_assert_int_eq(r.nenv, 0);
	j = recommendation_to_json(&r);
	ck_assert(json_is_null(json_object_get(j, "interface")));
	ck_assert(json_is_null(json_object_get(j, "address")));
	json_decref(j);
	recommendation_free(&r);

	/* the default route breaks the tie */
	in.default_ifnames = defs;
	in.ndefault = 1;
	picks(&in, &r, "eth1");
	ck_assert_ptr_nonnull(
	    strstr(recommendation_rejected(&r, "eth0"), "default route"));
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

START_TEST(nat_container)
{
	struct iface_list l = {0};
	struct recommendation r;
	struct layers ly = {.container = CONTAINER_DOCKER,
	                    .netmode = NETMODE_BRIDGE_NAT,
	                    .reach = REACH_NAT};
	const char *defs[] = {"eth0"};
	struct rec_input in = {.ifaces = &l,
	                       .layers = &ly,
	                       .default_ifnames = defs,
	                       .ndefault = 1,
	                       .routes_known = true};
	json_t *j;

	unitfix_lo(&l);
	add(&l, "eth0", IFK_VETH, UPRUN, "172.17.0.2", 16);
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	ck_assert_int_eq(r.none, REC_NONE_NAT);
	ck_assert_int_eq(r.nenv, 0);
	ck_assert_ptr_nonnull(strstr(r.reasons[1], "--network host"));
	ck_assert_ptr_nonnull(
	    strstr(recommendation_rejected(&r, "eth0"), "NAT"));
	j = recommendation_to_json(&r);
	ck_assert(json_is_null(json_object_get(j, "interface")));
	ck_assert_int_eq(json_object_size(json_object_get(j, "env")), 0);
	json_decref(j);
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

START_TEST(wsl2_nat)
{
	struct iface_list l = {0};
	struct recommendation r;
	struct layers ly = {.wsl = WSL_2_NAT, .reach = REACH_NAT};
	struct rec_input in = {.ifaces = &l, .layers = &ly};

	add(&l, "eth0", IFK_PHYSICAL, UPRUN, "172.28.1.5", 20);
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	ck_assert_ptr_nonnull(strstr(r.reasons[1], "mirrored"));
	recommendation_free(&r);

	ly.wsl_container = true;
	ly.reach = REACH_DOUBLE_NAT;
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	ck_assert_ptr_nonnull(strstr(r.reasons[1], "two NAT"));
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

START_TEST(ib_present)
{
	struct iface_list l = {0};
	struct recommendation r;
	const char *defs[] = {"eth0"};
	struct rec_input in = {.ifaces = &l,
	                       .default_ifnames = defs,
	                       .ndefault = 1,
	                       .routes_known = true};

	add(&l, "eth0", IFK_PHYSICAL, UPRUN, "10.231.0.1", 24);
	add(&l, "ib0", IFK_INFINIBAND, UPRUN, "10.231.8.1", 24);
	/* both reach other hosts: the default route decides, and says how
	 * the peers' route could overrule it */
	picks(&in, &r, "eth0");
	ck_assert_ptr_nonnull(strstr(r.reasons[1], "--peer"));
	recommendation_free(&r);

	/* without a default route: cannot tell */
	in.ndefault = 0;
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	ck_assert_int_eq(r.none, REC_NONE_TIE);
	recommendation_free(&r);

	/* ib0 alone up: it wins over nothing else */
	l.v[0].flags = IFF_UP;
	picks(&in, &r, "ib0");
	ck_assert_ptr_nonnull(
	    strstr(recommendation_rejected(&r, "eth0"), "not running"));
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

START_TEST(peers_decide)
{
	struct iface_list l = {0};
	struct recommendation r;
	struct peer_verdict p[2];
	struct rec_input in = {
	    .ifaces = &l, .peers = p, .npeers = 1, .routes_known = true};

	memset(p, 0, sizeof(p));
	add(&l, "eth0", IFK_PHYSICAL, UPRUN, "10.231.0.1", 24);
	add(&l, "eth1", IFK_PHYSICAL, UPRUN, "10.231.1.1", 24);
	snprintf(p[0].peer, sizeof(p[0].peer), "nodeb");
	snprintf(p[0].local_ifname, sizeof(p[0].local_ifname), "eth1");
	snprintf(p[0].local_addr, sizeof(p[0].local_addr), "10.231.1.1");
	p[0].nat = -1;
	p[0].inbound = -1;
	picks(&in, &r, "eth1");
	ck_assert_str_eq(r.addr->str, "10.231.1.1");
	ck_assert_ptr_nonnull(
	    strstr(recommendation_rejected(&r, "eth0"), "peers"));
	recommendation_free(&r);

	/* a second peer behind another interface: cannot tell */
	p[1] = p[0];
	snprintf(p[1].peer, sizeof(p[1].peer), "nodec");
	snprintf(p[1].local_ifname, sizeof(p[1].local_ifname), "eth0");
	in.npeers = 2;
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	ck_assert_int_eq(r.none, REC_NONE_PEERS);
	recommendation_free(&r);

	/* a peer that sees NAT: no interface */
	in.npeers = 1;
	p[0].responded = true;
	p[0].nat = 1;
	snprintf(p[0].observed_addr, sizeof(p[0].observed_addr), "10.9.9.9");
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	ck_assert_int_eq(r.none, REC_NONE_NAT);
	ck_assert_ptr_nonnull(strstr(r.reasons[0], "10.9.9.9"));
	recommendation_free(&r);

	/* no route toward a peer: no interface */
	p[0].nat = -1;
	p[0].local_ifname[0] = '\0';
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	ck_assert_ptr_nonnull(strstr(r.reasons[0], "no route"));
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

/* t_deadnic's train0 set down: its peer's route falls back to mgmt0's
 * default and the peer does not answer there: mgmt0 reaches no peer, so
 * no interface (settings pinning mgmt0 would send the job where no peer
 * is). A peer that answers, or one not cut off by this node's own link,
 * keeps the route's interface. */
START_TEST(peer_cut_off_by_own_link)
{
	struct iface_list l = {0};
	struct recommendation r;
	struct peer_verdict p[1];
	struct rec_input in = {
	    .ifaces = &l, .peers = p, .npeers = 1, .routes_known = true};

	memset(p, 0, sizeof(p));
	add(&l, "mgmt0", IFK_PHYSICAL, UPRUN, "10.231.130.5", 24);
	add(&l, "train0", IFK_PHYSICAL, 0, "10.231.131.5", 24);
	snprintf(p[0].peer, sizeof(p[0].peer), "10.231.131.6");
	snprintf(p[0].peer_addr, sizeof(p[0].peer_addr), "10.231.131.6");
	snprintf(p[0].local_ifname, sizeof(p[0].local_ifname), "mgmt0");
	snprintf(p[0].local_addr, sizeof(p[0].local_addr), "10.231.130.5");
	p[0].nat = -1;
	p[0].inbound = -1;
	p[0].connect_errno = ETIMEDOUT;
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	ck_assert_int_eq(r.none, REC_NONE_PEERS);
	recommendation_free(&r);
	/* it answers (through a route elsewhere): mgmt0 stands */
	p[0].responded = true;
	p[0].connect_errno = 0;
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_nonnull(r.ifc);
	ck_assert_str_eq(r.ifc->name, "mgmt0");
	recommendation_free(&r);
	/* silent, but train0 up: not this node's link; mgmt0 stands */
	p[0].responded = false;
	l.v[1].flags = UPRUN;
	l.v[1].carrier = 1;
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_nonnull(r.ifc);
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

START_TEST(peers_override_layers_and_inbound)
{
	struct iface_list l = {0};
	struct recommendation r;
	struct peer_verdict p;
	struct layers ly = {.reach = REACH_NAT};
	struct rec_input in = {
	    .ifaces = &l, .layers = &ly, .peers = &p, .npeers = 1};

	memset(&p, 0, sizeof(p));
	add(&l, "eth0", IFK_PHYSICAL, UPRUN, "10.231.0.1", 24);
	snprintf(p.peer, sizeof(p.peer), "nodeb");
	snprintf(p.local_ifname, sizeof(p.local_ifname), "eth0");
	p.responded = true;
	p.nat = 0;
	p.inbound = 1;
	picks(&in, &r, "eth0");
	recommendation_free(&r);
	/* inbound untested: the layering's NAT stands */
	p.inbound = -1;
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

START_TEST(no_candidate_and_virtual_only)
{
	struct iface_list l = {0};
	struct recommendation r;
	struct rec_input in = {.ifaces = &l};

	unitfix_lo(&l);
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	ck_assert_int_eq(r.none, REC_NONE_NOCAND);
	recommendation_free(&r);
	/* a pod's eth0 is a veth with a routable address: alone, it wins */
	add(&l, "eth0", IFK_VETH, UPRUN, "10.244.1.7", 24);
	picks(&in, &r, "eth0");
	recommendation_free(&r);
	/* a physical interface beats a veth and a wireguard tunnel */
	add(&l, "wg0", IFK_WIREGUARD, UPRUN, "10.99.0.1", 24);
	add(&l, "enp3s0", IFK_PHYSICAL, UPRUN, "10.231.0.9", 24);
	picks(&in, &r, "enp3s0");
	ck_assert_ptr_nonnull(
	    strstr(recommendation_rejected(&r, "wg0"), "virtual"));
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

START_TEST(layers_undecided)
{
	struct iface_list l = {0};
	struct recommendation r;
	struct layers ly = {.container = CONTAINER_DOCKER,
	                    .netmode = NETMODE_UNKNOWN,
	                    .reach = REACH_UNKNOWN};
	struct peer_verdict p;
	struct rec_input in = {.ifaces = &l, .layers = &ly};

	/* a container whose mode is undecided: chosen, with a caution */
	add(&l, "eth0", IFK_VETH, UPRUN, "10.30.0.7", 24);
	picks(&in, &r, "eth0");
	ck_assert_ptr_nonnull(strstr(r.reasons[1], "caution"));
	recommendation_free(&r);

	/* a peer that saw the address and connected back settles it */
	memset(&p, 0, sizeof(p));
	snprintf(p.peer, sizeof(p.peer), "nodeb");
	snprintf(p.local_ifname, sizeof(p.local_ifname), "eth0");
	p.responded = true;
	p.nat = 0;
	p.inbound = 1;
	in.peers = &p;
	in.npeers = 1;
	picks(&in, &r, "eth0");
	recommendation_free(&r);

	/* a Kubernetes pod (overlay) is decided: the pod address */
	in.npeers = 0;
	ly.container = CONTAINER_KUBERNETES;
	ly.netmode = NETMODE_OVERLAY;
	picks(&in, &r, "eth0");
	recommendation_free(&r);

	/* WSL2 in an unknown mode */
	ly.container = CONTAINER_NONE;
	ly.netmode = NETMODE_HOST;
	ly.wsl = WSL_2_UNKNOWN;
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	ck_assert_int_eq(r.none, REC_NONE_LAYERS);
	ck_assert_ptr_nonnull(strstr(r.reasons[0], "WSL2"));
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

/* Issue 48 (blind48b 04): a NIC enslaved to a bridge with its address
 * left on it is no candidate (the bridge takes its frames); once the
 * address and the default route are on the bridge, the bridge is
 * recommended though its only port is a veth (a lab's or a VM's
 * uplink), as the default route leaves by it. */
START_TEST(addressed_bridge_port)
{
	struct iface_list l = {0};
	struct recommendation r;
	const char *defs[] = {"lan0"};
	struct rec_input in = {.ifaces = &l,
	                       .default_ifnames = defs,
	                       .ndefault = 1,
	                       .routes_known = true};
	struct iface *lan;

	unitfix_lo(&l);
	add(&l, "lan0", IFK_VETH, UPRUN, "10.231.62.3", 24);
	add(&l, "my-bridge", IFK_BRIDGE, UPRUN, NULL, 0);
	lan = &l.v[1];
	lan->master_index = l.v[2].index;
	snprintf(lan->master, sizeof(lan->master), "my-bridge");
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_null(r.ifc);
	ck_assert_ptr_nonnull(
	    strstr(recommendation_rejected(&r, "lan0"), "port of bridge"));
	recommendation_free(&r);

	/* the fix applied: the address on the bridge, lan0 bare */
	lan->naddrs = 0;
	addr(&l, "10.231.62.3", 24); /* on my-bridge, the last one */
	defs[0] = "my-bridge";
	l.v[2].default_route = true; /* as the scan marks it */
	ck_assert_int_eq(recommend(&in, &r), 0);
	ck_assert_ptr_nonnull(r.ifc);
	ck_assert_str_eq(r.ifc->name, "my-bridge");
	recommendation_free(&r);
	iface_list_free(&l);
}
END_TEST

Suite *suite_recommend(void)
{
	Suite *s = suite_create("recommend");
	TCase *tc = tcase_create("tables");

	tcase_add_test(tc, lan_docker_veth);
	tcase_add_test(tc, two_lans_tie);
	tcase_add_test(tc, nat_container);
	tcase_add_test(tc, wsl2_nat);
	tcase_add_test(tc, ib_present);
	tcase_add_test(tc, peers_decide);
	tcase_add_test(tc, peers_override_layers_and_inbound);
	tcase_add_test(tc, no_candidate_and_virtual_only);
	tcase_add_test(tc, layers_undecided);
	tcase_add_test(tc, peer_cut_off_by_own_link);
	tcase_add_test(tc, addressed_bridge_port);
	suite_add_tcase(s, tc);
	return s;
}
