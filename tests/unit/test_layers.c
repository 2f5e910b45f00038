/* Unit tests for the layers deciders: network shapes built in memory. */
#include <arpa/inet.h>
#include <check.h>
#include <string.h>

#include "layers/layers_int.h"

/* Adds an interface with one IPv4 address to l. */
static struct iface *add_if(struct iface_list *l, const char *name,
			    enum iface_kind kind, int index, int netnsid,
			    const char *addr, unsigned plen)
{
	struct iface *ifc = iface_list_add(l);
	struct in_addr a;

	ck_assert_ptr_nonnull(ifc);
	snprintf(ifc->name, sizeof(ifc->name), "%s", name);
	ifc->kind = kind;
	ifc->index = index;
	ifc->link_netnsid = netnsid;
	ifc->flags = IFF_UP | IFF_RUNNING |
		     (kind == IFK_LOOPBACK ? IFF_LOOPBACK : 0);
	if (addr != NULL) {
		ck_assert_int_eq(inet_pton(AF_INET, addr, &a), 1);
		ck_assert_int_eq(iface_add_addr(ifc, AF_INET, &a, plen, 0), 0);
	}
	return ifc;
}

/* A default route through ifname via gw. */
static void set_default(struct layers_facts *f, const char *ifname,
			const char *gw)
{
	f->def.have = true;
	snprintf(f->def.ifname, sizeof(f->def.ifname), "%s", ifname);
	f->def.has_gw = gw != NULL;
	if (gw != NULL)
		ck_assert_int_eq(inet_pton(AF_INET, gw, &f->def.gw), 1);
}

static void run_decide(struct layers *ly, const struct layers_facts *f,
		       const struct iface_list *l)
{
	memset(ly, 0, sizeof(*ly));
	ly->shm_bytes = -1;
	snprintf(ly->virt, sizeof(ly->virt), "none");
	ly->evidence = json_array();
	ly->bridges = json_array();
	layers_decide(ly, f, l);
	ck_assert_int_eq(layers_bridges(ly, l), 0);
}

START_TEST(namespace_behind_bridge_is_nat)
{
	struct iface_list l = {0};
	struct layers_facts f = {0};
	struct layers ly;
	struct doc d;

	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	add_if(&l, "eth0", IFK_VETH, 2, 0, "172.17.0.2", 16);
	set_default(&f, "eth0", "172.17.0.1");
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.netmode, NETMODE_BRIDGE_NAT);
	ck_assert_int_eq(ly.reach, REACH_NAT);
	ck_assert_int_eq(doc_init(&d, "netprobe", "layers"), 0);
	layers_findings(&ly, &d);
	ck_assert(doc_has_finding(&d, "container-bridge-nat"));
	ck_assert_int_eq(doc_exit_status(&d, true), 1);
	doc_free(&d);
	layers_free(&ly);
	iface_list_free(&l);
}
END_TEST

START_TEST(lan_host_on_veth_is_not_nat)
{
	struct iface_list l = {0};
	struct layers_facts f = {0};
	struct layers ly;
	struct doc d;

	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	add_if(&l, "lan0", IFK_VETH, 2, 0, "10.231.0.2", 24);
	/* no default route */
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.netmode, NETMODE_HOST);
	ck_assert_int_eq(ly.reach, REACH_DIRECT);
	layers_free(&ly);
	/* a default route whose gateway is not the subnet's first host */
	set_default(&f, "lan0", "10.231.0.254");
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.netmode, NETMODE_HOST);
	ck_assert_int_eq(doc_init(&d, "netprobe", "layers"), 0);
	layers_findings(&ly, &d);
	ck_assert(!doc_has_finding(&d, "container-bridge-nat"));
	ck_assert_int_eq(doc_exit_status(&d, true), 0);
	doc_free(&d);
	layers_free(&ly);
	iface_list_free(&l);
}
END_TEST

START_TEST(route_text_parsed)
{
	static const char text[] =
		"Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\t"
		"Mask\t\tMTU\tWindow\tIRTT\n"
		"eth0\t00000000\t010011AC\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
		"eth0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n";
	struct layers_route rt;
	char b[INET_ADDRSTRLEN];

	ck_assert_int_eq(layers_parse_route(text, &rt), 0);
	ck_assert(rt.have);
	ck_assert_str_eq(rt.ifname, "eth0");
	ck_assert_str_eq(inet_ntop(AF_INET, &rt.gw, b, sizeof(b)),
			 "172.17.0.1");
	ck_assert(rt.has_subnet);
	ck_assert_uint_eq(rt.prefixlen, 16);
	ck_assert_int_eq(layers_parse_route("garbage", &rt), -1);
}
END_TEST

START_TEST(shm_options_parsed)
{
	ck_assert_int_eq(
		layers_parse_shm("1 2 0:5 / /dev/shm rw,nosuid - tmpfs shm "
				 "rw,size=65536k\n",
				 false),
		64LL << 20);
	ck_assert_int_eq(layers_parse_shm("shm /dev/shm tmpfs rw,size=1g 0 0\n",
					  true),
			 1LL << 30);
	ck_assert_int_eq(layers_parse_shm("tmpfs /dev/shm tmpfs rw 0 0\n",
					  true),
			 -2);
	ck_assert_int_eq(layers_parse_shm("proc /proc proc rw 0 0\n", true),
			 -1);
}
END_TEST

/* A decision over l and f, then its findings' codes. */
static int findings_of(const struct layers *ly, const char *code)
{
	struct doc d;
	int has;

	ck_assert_int_eq(doc_init(&d, "netprobe", "layers"), 0);
	layers_findings(ly, &d);
	has = doc_has_finding(&d, code);
	doc_free(&d);
	return has;
}

START_TEST(macvlan_and_overlay)
{
	struct iface_list l = {0};
	struct layers_facts f = {0};
	struct layers ly;
	struct iface *m;

	f.container = CONTAINER_DOCKER;
	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	m = add_if(&l, "eth0", IFK_MACVLAN, 2, 0, "10.0.0.50", 24);
	snprintf(m->macvlan_mode, sizeof(m->macvlan_mode), "bridge");
	set_default(&f, "eth0", "10.0.0.1");
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.netmode, NETMODE_MACVLAN);
	ck_assert_int_eq(ly.reach, REACH_DIRECT);
	ck_assert(!findings_of(&ly, "container-bridge-nat"));
	layers_free(&ly);
	iface_list_free(&l);

	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	add_if(&l, "flannel.1", IFK_VXLAN, 3, -1, "10.244.0.0", 32);
	add_if(&l, "eth0", IFK_PHYSICAL, 2, -1, "10.0.0.9", 24);
	set_default(&f, "flannel.1", NULL);
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.netmode, NETMODE_OVERLAY);
	ck_assert_int_eq(ly.reach, REACH_UNKNOWN);
	layers_free(&ly);
	iface_list_free(&l);
}
END_TEST

START_TEST(rootless_user_mode_nat)
{
	struct iface_list l = {0};
	struct layers_facts f = {0};
	struct layers ly;

	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	add_if(&l, "tap0", IFK_TAP, 2, -1, "10.0.2.100", 24);
	set_default(&f, "tap0", "10.0.2.2");
	/* a tap on a host is a VPN or a VM's, not our NAT */
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.netmode, NETMODE_HOST);
	layers_free(&ly);
	f.container = CONTAINER_PODMAN;
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.netmode, NETMODE_BRIDGE_NAT);
	ck_assert_int_eq(ly.reach, REACH_NAT);
	ck_assert(findings_of(&ly, "container-bridge-nat"));
	layers_free(&ly);
	iface_list_free(&l);
}
END_TEST

START_TEST(only_loopback_is_none)
{
	struct iface_list l = {0};
	struct layers_facts f = {0};
	struct layers ly;

	f.container = CONTAINER_DOCKER;
	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.netmode, NETMODE_NONE);
	ck_assert(!findings_of(&ly, "container-bridge-nat"));
	layers_free(&ly);
	iface_list_free(&l);
}
END_TEST

START_TEST(container_on_host_network)
{
	struct iface_list l = {0};
	struct layers_facts f = {0};
	struct layers ly;
	struct iface *v;

	f.container = CONTAINER_DOCKER;
	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	add_if(&l, "eno1", IFK_PHYSICAL, 2, -1, "10.0.0.21", 24);
	add_if(&l, "docker0", IFK_BRIDGE, 3, -1, "172.17.0.1", 16);
	v = add_if(&l, "veth1", IFK_VETH, 4, 0, NULL, 0);
	v->master_index = 3;
	snprintf(v->master, sizeof(v->master), "docker0");
	set_default(&f, "eno1", "10.0.0.1");
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.netmode, NETMODE_HOST);
	ck_assert_int_eq(ly.reach, REACH_DIRECT);
	ck_assert_uint_eq(json_array_size(ly.bridges), 1);
	ck_assert(!findings_of(&ly, "container-bridge-nat"));
	layers_free(&ly);
	iface_list_free(&l);
}
END_TEST

START_TEST(veth_that_is_the_gateway_is_not_nat)
{
	struct iface_list l = {0};
	struct layers_facts f = {0};
	struct layers ly;

	/* a router namespace whose own veth holds the .1 */
	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	add_if(&l, "lan0", IFK_VETH, 2, 0, "10.231.0.1", 24);
	set_default(&f, "lan0", "10.231.0.1");
	run_decide(&ly, &f, &l);
	ck_assert_int_ne(ly.netmode, NETMODE_BRIDGE_NAT);
	layers_free(&ly);
	/* a veth whose peer is in this namespace: no other netns */
	iface_list_free(&l);
	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	add_if(&l, "eth0", IFK_VETH, 2, -1, "172.17.0.2", 16);
	set_default(&f, "eth0", "172.17.0.1");
	run_decide(&ly, &f, &l);
	ck_assert_int_ne(ly.netmode, NETMODE_BRIDGE_NAT);
	layers_free(&ly);
	iface_list_free(&l);
}
END_TEST

START_TEST(wsl_modes)
{
	struct iface_list l = {0};
	struct layers_facts f = {0};
	struct layers ly;

	snprintf(f.osrelease, sizeof(f.osrelease),
		 "5.15.153.1-microsoft-standard-WSL2");
	f.run_wsl = true;
	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	add_if(&l, "eth0", IFK_PHYSICAL, 2, -1, "172.29.150.7", 20);
	set_default(&f, "eth0", "172.29.144.1");
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.wsl, WSL_2_NAT);
	ck_assert_int_eq(ly.reach, REACH_NAT);
	ck_assert(findings_of(&ly, "wsl2-nat"));
	layers_free(&ly);

	/* a LAN gateway that happens to be .1 is not WSL's NAT */
	iface_list_free(&l);
	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	add_if(&l, "eth0", IFK_PHYSICAL, 2, -1, "192.168.1.50", 24);
	set_default(&f, "eth0", "192.168.1.1");
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.wsl, WSL_2_UNKNOWN);
	ck_assert_int_eq(ly.reach, REACH_UNKNOWN);
	ck_assert(!findings_of(&ly, "wsl2-nat"));
	layers_free(&ly);
	add_if(&l, "loopback0", IFK_UNKNOWN, 3, -1, NULL, 0);
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.wsl, WSL_2_MIRRORED);
	ck_assert_int_eq(ly.reach, REACH_DIRECT);
	layers_free(&ly);
	iface_list_free(&l);

	/* WSL1 */
	snprintf(f.osrelease, sizeof(f.osrelease), "4.4.0-19041-Microsoft");
	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	run_decide(&ly, &f, &l);
	ck_assert_int_eq(ly.wsl, WSL_1);
	ck_assert_int_eq(ly.netmode, NETMODE_HOST);
	layers_free(&ly);
	iface_list_free(&l);

	/* not WSL */
	snprintf(f.osrelease, sizeof(f.osrelease), "6.1.0-18-amd64");
	run_decide(&ly, &f, NULL);
	ck_assert_int_eq(ly.wsl, WSL_NONE);
	ck_assert_int_eq(ly.netmode, NETMODE_UNKNOWN);
	layers_free(&ly);
}
END_TEST

START_TEST(double_nat_in_wsl)
{
	struct iface_list l = {0};
	struct layers_facts f = {0};
	struct layers ly;

	snprintf(f.osrelease, sizeof(f.osrelease),
		 "5.15.153.1-microsoft-standard-WSL2");
	f.container = CONTAINER_DOCKER;
	add_if(&l, "lo", IFK_LOOPBACK, 1, -1, "127.0.0.1", 8);
	add_if(&l, "eth0", IFK_VETH, 12, 0, "172.17.0.3", 16);
	set_default(&f, "eth0", "172.17.0.1");
	run_decide(&ly, &f, &l);
	ck_assert(ly.wsl_container);
	ck_assert_int_eq(ly.reach, REACH_DOUBLE_NAT);
	ck_assert(findings_of(&ly, "wsl-container-double-nat"));
	ck_assert(!findings_of(&ly, "container-bridge-nat"));
	layers_free(&ly);
	/* the same container with WSL's own markers is the distro itself */
	f.run_wsl = true;
	run_decide(&ly, &f, &l);
	ck_assert(!ly.wsl_container);
	ck_assert_int_eq(ly.reach, REACH_NAT);
	layers_free(&ly);
	iface_list_free(&l);
}
END_TEST

START_TEST(shm_small_only_in_containers)
{
	struct layers_facts f = {0};
	struct layers ly;

	run_decide(&ly, &f, NULL);
	ly.shm_bytes = 64LL << 20;
	ck_assert(!findings_of(&ly, "shm-small"));
	ly.container = CONTAINER_DOCKER;
	ck_assert(findings_of(&ly, "shm-small"));
	ly.shm_bytes = 1LL << 30;
	ck_assert(!findings_of(&ly, "shm-small"));
	ly.shm_bytes = -1;
	ck_assert(!findings_of(&ly, "shm-small"));
	layers_free(&ly);
}
END_TEST

START_TEST(tables_and_names)
{
	ck_assert_int_eq(layers_container_from_name("docker"),
			 CONTAINER_DOCKER);
	ck_assert_int_eq(layers_container_from_name("lxc-libvirt"),
			 CONTAINER_LXC);
	ck_assert_int_eq(layers_container_from_name("systemd-nspawn"),
			 CONTAINER_OTHER);
	ck_assert_int_eq(layers_container_from_name(""), CONTAINER_NONE);
	ck_assert_str_eq(layers_dmi_vendor("KVM"), "kvm");
	ck_assert_str_eq(layers_dmi_vendor("QEMU"), "qemu");
	ck_assert_str_eq(layers_dmi_vendor("VMware, Inc."), "vmware");
	ck_assert_str_eq(layers_dmi_vendor("Google Compute Engine"), "google");
	ck_assert_str_eq(layers_dmi_vendor("innotek GmbH"), "oracle");
	ck_assert_ptr_null(layers_dmi_vendor("Dell Inc."));
	ck_assert_str_eq(layers_netmode_name(NETMODE_BRIDGE_NAT), "bridge-nat");
	ck_assert_str_eq(layers_wsl_name(WSL_2_MIRRORED), "wsl2-mirrored");
	ck_assert_str_eq(layers_reach_name(REACH_DOUBLE_NAT), "double-nat");
	ck_assert_str_eq(layers_container_name(CONTAINER_KUBERNETES),
			 "kubernetes");
	ck_assert_str_eq(layers_container_name((enum layer_container)99),
			 "other");
}
END_TEST

Suite *suite_layers(void)
{
	Suite *s = suite_create("layers");
	TCase *tc = tcase_create("decide");

	tcase_add_test(tc, namespace_behind_bridge_is_nat);
	tcase_add_test(tc, lan_host_on_veth_is_not_nat);
	tcase_add_test(tc, route_text_parsed);
	tcase_add_test(tc, shm_options_parsed);
	tcase_add_test(tc, macvlan_and_overlay);
	tcase_add_test(tc, rootless_user_mode_nat);
	tcase_add_test(tc, only_loopback_is_none);
	tcase_add_test(tc, container_on_host_network);
	tcase_add_test(tc, veth_that_is_the_gateway_is_not_nat);
	tcase_add_test(tc, wsl_modes);
	tcase_add_test(tc, double_nat_in_wsl);
	tcase_add_test(tc, shm_small_only_in_containers);
	tcase_add_test(tc, tables_and_names);
	suite_add_tcase(s, tc);
	return s;
}
