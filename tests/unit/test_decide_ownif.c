/* The scan's deciders of a node's own NIC and bridge ports (issue 48):
 * an address left on a bridge's port, the NOARP flag on a LAN NIC, a
 * bridge port stuck short of forwarding; each finding on a case that
 * raises it and on the decoys that must not. Split from
 * test_decide_net.c, whose other networks and state stay there. */
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

/* A default route of the main table, for decide_bridge_ports. */
static void def_route(struct route_info *r, int fam, const char *gw,
                      const char *dev, int metric)
{
	memset(r, 0, sizeof(*r));
	r->family = fam;
	snprintf(r->destination, sizeof(r->destination), "default");
	snprintf(r->gateway, sizeof(r->gateway), "%s", gw);
	snprintf(r->out_interface, sizeof(r->out_interface), "%s", dev);
	r->metric = metric;
}

/* Adds one more address (fe80:: scope link) to an interface. */
static void more_addr(struct iface *ifc, const char *a, unsigned plen)
{
	unsigned char buf[16];
	int fam = strchr(a, ':') ? AF_INET6 : AF_INET;

	ck_assert_int_eq(inet_pton(fam, a, buf), 1);
	ck_assert_int_eq(iface_add_addr(ifc, fam, buf, plen,
					strncmp(a, "fe80", 4) ? 0 : 253), 0);
}

/* Makes port a member of br. */
static void enslave(struct iface *port, const struct iface *br)
{
	port->master_index = br->index;
	snprintf(port->master, sizeof(port->master), "%s", br->name);
}

/* The command of d's only finding, a bridge-port-addressed fault. */
static const char *brport_cmd(const struct doc *d)
{
	return unitfix_only_fault_cmd(d, "bridge-port-addressed");
}

/* Issue 48 (blind48b 04, devplayer0/docker-net-dhcp#19): a NIC enslaved
 * to a bridge with its address and default route left on it is a fault
 * whose command moves both to the bridge, IPv4 and IPv6, and leaves the
 * port no IPv6 (its fe80:: NCCL would use); a bridge that is down gets
 * its port released. Healthy bridges say nothing: the address
 * on the bridge, ports with only fe80::, Docker's veth ports, a port
 * that is down, a bond's slave. */
START_TEST(bridge_port_addressed)
{
	struct iface_list l = {0};
	struct iface *lan, *br;
	struct route_info r[2];
	struct doc d;

	unitfix_lo(&l);
	add(&l, "lan0", IFK_PHYSICAL, UPRUN, "10.231.62.3", 24);
	more_addr(&l.v[1], "fe80::3", 64);
	br = add(&l, "my-bridge", IFK_BRIDGE, UPRUN, NULL, 0);
	lan = &l.v[1]; /* add may have moved the list */
	enslave(lan, br);
	def_route(&r[0], AF_INET, "10.231.62.254", "lan0", 0);
	doc_start(&d);
	ck_assert_int_eq(decide_bridge_ports(&l, r, 1, &d), 0);
	ck_assert_str_eq(brport_cmd(&d),
			 "ip route del default via 10.231.62.254 dev lan0 && "
			 "ip addr del 10.231.62.3/24 dev lan0 && "
			 "ip addr add 10.231.62.3/24 dev my-bridge && "
			 "ip route add default via 10.231.62.254 dev "
			 "my-bridge && sysctl -w "
			 "net.ipv6.conf.lan0.disable_ipv6=1");
	doc_free(&d);

	/* IPv6 too: the global address and the RA's default route move,
	 * fe80:: stays */
	more_addr(lan, "fd84::3", 64);
	def_route(&r[1], AF_INET6, "fe80::1", "lan0", 1024);
	doc_start(&d);
	ck_assert_int_eq(decide_bridge_ports(&l, r, 2, &d), 0);
	ck_assert_str_eq(brport_cmd(&d),
			 "ip route del default via 10.231.62.254 dev lan0 && "
			 "ip -6 route del default via fe80::1 dev lan0 metric "
			 "1024 && "
			 "ip addr del 10.231.62.3/24 dev lan0 && "
			 "ip addr add 10.231.62.3/24 dev my-bridge && "
			 "ip addr del fd84::3/64 dev lan0 && "
			 "ip addr add fd84::3/64 dev my-bridge && "
			 "ip route add default via 10.231.62.254 dev my-bridge "
			 "&& ip -6 route add default via fe80::1 dev my-bridge "
			 "metric 1024 && sysctl -w "
			 "net.ipv6.conf.lan0.disable_ipv6=1");
	doc_free(&d);

	/* the bridge set down: the port is released */
	br = &l.v[2];
	br->flags = 0;
	doc_start(&d);
	ck_assert_int_eq(decide_bridge_ports(&l, r, 2, &d), 0);
	ck_assert_str_eq(brport_cmd(&d), "ip link set lan0 nomaster");
	doc_free(&d);
	br->flags = UPRUN;

	/* the default route alone by the port, the address on the bridge */
	lan->naddrs = 1;
	lan->addrs[0] = lan->addrs[1]; /* fe80::3 only */
	more_addr(br, "10.231.62.3", 24);
	doc_start(&d);
	ck_assert_int_eq(decide_bridge_ports(&l, r, 1, &d), 0);
	ck_assert_str_eq(brport_cmd(&d),
			 "ip route del default via 10.231.62.254 dev lan0 && "
			 "ip route add default via 10.231.62.254 dev "
			 "my-bridge && sysctl -w "
			 "net.ipv6.conf.lan0.disable_ipv6=1");
	doc_free(&d);

	/* healthy: the address and the route on the bridge, the port with
	 * fe80:: only (its IPv6 default route alone says nothing) */
	def_route(&r[0], AF_INET, "10.231.62.254", "my-bridge", 0);
	doc_start(&d);
	ck_assert_int_eq(decide_bridge_ports(&l, r, 2, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	/* Docker: docker0 with an address, veth ports without (add may
	 * move the list: members by index) */
	add(&l, "docker0", IFK_BRIDGE, UPRUN, "172.17.0.1", 16);
	add(&l, "veth1a2b", IFK_VETH, UPRUN, "fe80::5", 64);
	enslave(&l.v[l.n - 1], &l.v[l.n - 2]);
	/* a port that is down keeps its address silently (interface-down
	 * is the scan's word for it) */
	add(&l, "eth9", IFK_PHYSICAL, 0, "10.231.9.1", 24);
	enslave(&l.v[l.n - 1], &l.v[2]); /* my-bridge */
	/* a bond's slave is no bridge port */
	add(&l, "bond0", IFK_BOND, UPRUN, NULL, 0);
	add(&l, "eth8", IFK_PHYSICAL, UPRUN, "10.231.8.1", 24);
	enslave(&l.v[l.n - 1], &l.v[l.n - 2]);
	doc_start(&d);
	ck_assert_int_eq(decide_bridge_ports(&l, r, 2, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

/* Issue 48 (blind48d 05, systemd/systemd#4644): a NIC with a LAN
 * address and the NOARP flag is a fault on its node, with the command
 * that turns ARP on; a NOARP interface that is down, holds a /32 only, or
 * is a dummy or tunnel is not. */
START_TEST(nic_noarp)
{
	struct iface_list l = {0};
	struct doc d;
	const json_t *f;

	unitfix_lo(&l);
	add(&l, "lan0", IFK_PHYSICAL, UPRUN | IFF_NOARP, "10.231.106.2", 24);
	doc_start(&d);
	ck_assert_int_eq(decide_noarp(&l, NULL, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 1);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "code")),
			 "nic-noarp");
	ck_assert_str_eq(json_string_value(json_object_get(f, "command")),
			 "ip link set dev lan0 arp on");
	ck_assert_int_eq(d.nfault, 1);
	doc_free(&d);

	/* neighbours set by hand (another MAC than lan0's own): a
	 * deliberate static setup; the kernel's own NOARP entry is not */
	{
		struct neigh_statics st = {0};

		snprintf(l.v[1].mac, sizeof(l.v[1].mac), "02:00:00:00:00:02");
		st.n = 1;
		st.v[0] = (struct neigh_entry){AF_INET, l.v[1].index,
					       NUD_NOARP, "10.231.106.1",
					       "02:00:00:00:00:02"};
		doc_start(&d);
		ck_assert_int_eq(decide_noarp(&l, &st, &d), 0);
		ck_assert_int_eq(json_array_size(d.findings), 1);
		doc_free(&d);
		st.v[0].state = NUD_PERMANENT;
		snprintf(st.v[0].lladdr, sizeof(st.v[0].lladdr),
			 "02:00:00:00:00:01");
		doc_start(&d);
		ck_assert_int_eq(decide_noarp(&l, &st, &d), 0);
		ck_assert_int_eq(json_array_size(d.findings), 0);
		doc_free(&d);
	}

	/* IPv6 alone: neighbour discovery is off too */
	l.v[1].naddrs = 0;
	more_addr(&l.v[1], "fd84::2", 64);
	doc_start(&d);
	ck_assert_int_eq(decide_noarp(&l, NULL, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 1);
	doc_free(&d);

	/* healthy: ARP on; down with a service address (blind48d 08's
	 * ipvs0); a /32 alone; a dummy, a tunnel, point-to-point */
	l.v[1].flags = UPRUN;
	add(&l, "ipvs0", IFK_PHYSICAL, IFF_NOARP, "10.231.116.10", 24);
	add(&l, "vip0", IFK_PHYSICAL, UPRUN | IFF_NOARP, "10.231.116.11", 32);
	add(&l, "kube-ipvs0", IFK_DUMMY, UPRUN | IFF_NOARP, "10.96.0.1", 16);
	add(&l, "tunl0", IFK_IPIP, UPRUN | IFF_NOARP, "10.231.117.1", 24);
	add(&l, "ppp0", IFK_PHYSICAL, UPRUN | IFF_NOARP | IFF_POINTOPOINT,
	    "10.231.118.1", 24);
	add(&l, "ll0", IFK_PHYSICAL, UPRUN | IFF_NOARP, "fe80::9", 64);
	doc_start(&d);
	ck_assert_int_eq(decide_noarp(&l, NULL, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

/* Issue 48 (blind48d 04, ipspace/netlab#2259): a NIC that is the port
 * of the bridge holding the node's address, stuck in learning with STP
 * off, is a fault with the command that sets it forwarding; forwarding,
 * STP on (a port on its way), disabled, or a bridge without an address
 * are not. */
START_TEST(bridge_port_stuck)
{
	struct iface_list l = {0};
	struct iface *br;
	struct doc d;
	const json_t *f;

	unitfix_lo(&l);
	add(&l, "lan0", IFK_PHYSICAL, UPRUN, NULL, 0);
	br = add(&l, "br0", IFK_BRIDGE, UPRUN, "10.231.105.3", 24);
	enslave(&l.v[1], br);
	l.v[1].brport_state = 2; /* learning */
	l.v[2].br_stp = 0;
	doc_start(&d);
	ck_assert_int_eq(decide_bridge_stuck(&l, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 1);
	f = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "code")),
			 "bridge-port-stuck");
	ck_assert_str_eq(json_string_value(json_object_get(f, "command")),
			 "ip link set dev lan0 type bridge_slave state 3");
	ck_assert_int_eq(d.nfault, 1);
	doc_free(&d);

	/* blocking, set by hand with STP off: stuck too; IPv6 alone */
	l.v[1].brport_state = 4;
	l.v[2].naddrs = 0;
	more_addr(&l.v[2], "fd84::3", 64);
	doc_start(&d);
	ck_assert_int_eq(decide_bridge_stuck(&l, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 1);
	doc_free(&d);

	/* healthy: forwarding; disabled (its link down); unknown; STP on
	 * (kernel or user space: the kernel moves it, or blocks a loop);
	 * STP unread */
	static const int port[] = {3, 0, -1, 2, 2, 2};
	static const int stp[] = {0, 0, 0, 1, 2, -1};
	for (size_t k = 0; k < sizeof(port) / sizeof(port[0]); k++) {
		l.v[1].brport_state = port[k];
		l.v[2].br_stp = stp[k];
		doc_start(&d);
		ck_assert_int_eq(decide_bridge_stuck(&l, &d), 0);
		ck_assert_int_eq(json_array_size(d.findings), 0);
		doc_free(&d);
	}
	/* a bridge without a global address (VMs' only) */
	l.v[1].brport_state = 2;
	l.v[2].br_stp = 0;
	l.v[2].naddrs = 0;
	more_addr(&l.v[2], "fe80::3", 64);
	doc_start(&d);
	ck_assert_int_eq(decide_bridge_stuck(&l, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

Suite *suite_decide_ownif(void)
{
	Suite *s = suite_create("decide_ownif");
	TCase *tc = tcase_create("ownif");

	tcase_add_test(tc, bridge_port_addressed);
	tcase_add_test(tc, nic_noarp);
	tcase_add_test(tc, bridge_port_stuck);
	suite_add_tcase(s, tc);
	return s;
}
