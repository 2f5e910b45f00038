/* Unit tests for the layers deciders: network shapes built in memory. */
#include <arpa/inet.h>
#include <check.h>
#include <string.h>

#include "layers_int.h"

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

Suite *suite_layers(void)
{
	Suite *s = suite_create("layers");
	TCase *tc = tcase_create("decide");

	tcase_add_test(tc, namespace_behind_bridge_is_nat);
	tcase_add_test(tc, lan_host_on_veth_is_not_nat);
	tcase_add_test(tc, route_text_parsed);
	tcase_add_test(tc, shm_options_parsed);
	suite_add_tcase(s, tc);
	return s;
}
