/* Unit tests for interfaces and default routes replayed from a recorded
 * sysroot (tests/fixtures/ifaces/basic, in the kernel's file formats). */
#include "kernel/nl.h"
#include "kernel/proc_route.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>

#include <linux/if.h>
#include <linux/rtnetlink.h>

#define FIXTURE SRCDIR "/tests/fixtures/ifaces/basic"

/* Replays the fixture into l; fails the test when it cannot. */
static void replay(struct iface_list *l)
{
	struct sysroot sr;

	ck_assert_int_eq(sysroot_init(&sr, FIXTURE), 0);
	ck_assert_int_eq(iface_collect(l, &sr), 0);
}

START_TEST(replay_kinds_and_links)
{
	struct iface_list l = {0};
	const struct iface *i;

	replay(&l);
	ck_assert_uint_eq(l.n, 12);
	for (size_t k = 1; k < l.n; k++)
		ck_assert_int_lt(l.v[k - 1].index, l.v[k].index);
	ck_assert_int_eq(iface_by_name(&l, "lo")->kind, IFK_LOOPBACK);
	i = iface_by_name(&l, "eth0");
	ck_assert_int_eq(i->kind, IFK_PHYSICAL);
	ck_assert(i->real_device);
	ck_assert_str_eq(i->pci, "0000:3b:00.0");
	ck_assert_str_eq(i->driver, "mlx5_core");
	ck_assert_int_eq(i->numa_node, 1);
	ck_assert_int_eq(i->speed_mbps, 100000);
	ck_assert_str_eq(i->rdma, "mlx5_0");
	ck_assert_uint_eq(i->mtu, 9000);
	ck_assert_int_eq(i->operstate, IF_OPER_UP);
	ck_assert_int_eq(i->carrier, 1);
	ck_assert_str_eq(i->mac, "0c:42:a1:00:00:01");
	i = iface_by_name(&l, "br0");
	ck_assert_int_eq(i->kind, IFK_BRIDGE);
	ck_assert_int_eq(i->nslaves, 1);
	ck_assert_str_eq(i->slaves[0], "vetha");
	ck_assert_int_eq(i->br_stp, 0); /* bridge/stp_state */
	ck_assert_int_eq(i->brport_state, -1);
	i = iface_by_name(&l, "vetha");
	ck_assert_int_eq(i->kind, IFK_VETH);
	ck_assert_str_eq(i->master, "br0");
	ck_assert_int_eq(i->master_index, 3);
	ck_assert_int_eq(i->brport_state, 3); /* brport/state: forwarding */
	ck_assert_int_eq(i->br_stp, -1);
	ck_assert_str_eq(i->parent, "vethb");
	ck_assert_int_eq(i->link_netnsid, -1);
	i = iface_by_name(&l, "cveth");
	ck_assert_int_eq(i->kind, IFK_VETH);
	ck_assert_int_eq(i->link_index, 17);
	ck_assert_int_eq(i->link_netnsid, 0);
	i = iface_by_name(&l, "eth0.100");
	ck_assert_int_eq(i->kind, IFK_VLAN);
	ck_assert_str_eq(i->parent, "eth0");
	i = iface_by_name(&l, "tap0");
	ck_assert_int_eq(i->kind, IFK_TAP);
	ck_assert(!(i->flags & IFF_UP));
	ck_assert_int_eq(i->carrier, -1);
	i = iface_by_name(&l, "ib0");
	ck_assert_int_eq(i->kind, IFK_INFINIBAND);
	ck_assert_str_eq(i->rdma, "mlx5_1");
	ck_assert_str_eq(i->mac, "");
	i = iface_by_name(&l, "bond0");
	ck_assert_int_eq(i->kind, IFK_BOND);
	ck_assert_int_eq(i->nslaves, 2);
	ck_assert_str_eq(i->slaves[0], "ens11");
	ck_assert_str_eq(i->slaves[1], "ens12");
	i = iface_by_name(&l, "ens12");
	ck_assert_int_eq(i->kind, IFK_PHYSICAL);
	ck_assert_str_eq(i->master, "bond0");
	ck_assert_str_eq(i->pci, "0000:af:00.1");
	ck_assert_str_eq(i->driver, ""); /* dangling device link */
	ck_assert_int_eq(i->speed_mbps, 25000);
	iface_list_free(&l);
}
END_TEST

START_TEST(replay_addresses)
{
	struct iface_list l = {0};
	const struct iface *i;

	replay(&l);
	i = iface_by_name(&l, "lo");
	ck_assert_int_eq(i->naddrs, 2);
	ck_assert_str_eq(i->addrs[0].str, "127.0.0.1");
	ck_assert_uint_eq(i->addrs[0].prefixlen, 8);
	ck_assert_uint_eq(i->addrs[0].scope, RT_SCOPE_HOST);
	ck_assert_str_eq(i->addrs[1].str, "::1");
	i = iface_by_name(&l, "eth0");
	ck_assert_int_eq(i->naddrs, 3);
	ck_assert_str_eq(i->addrs[0].str, "10.231.0.5");
	ck_assert_uint_eq(i->addrs[0].prefixlen, 24);
	ck_assert_uint_eq(i->addrs[0].scope, RT_SCOPE_UNIVERSE);
	ck_assert_str_eq(i->addrs[1].str, "fe80::e42:a1ff:fe00:1");
	ck_assert_uint_eq(i->addrs[1].scope, RT_SCOPE_LINK);
	ck_assert_str_eq(i->addrs[2].str, "fd00:231::5");
	ck_assert_uint_eq(i->addrs[2].prefixlen, 64);
	i = iface_by_name(&l, "br0");
	ck_assert_str_eq(i->addrs[0].str, "10.231.8.1");
	i = iface_by_name(&l, "eth0.100");
	ck_assert_int_eq(i->naddrs, 1);
	ck_assert_str_eq(i->addrs[0].str, "10.231.100.5");
	/* 10.9.9.9 has no connected route: not guessed onto anything. */
	for (size_t k = 0; k < l.n; k++)
		for (int a = 0; a < l.v[k].naddrs; a++)
			ck_assert_str_ne(l.v[k].addrs[a].str, "10.9.9.9");
	iface_list_free(&l);
}
END_TEST

START_TEST(replay_default_routes)
{
	struct route_info r[8];
	struct sysroot sr;
	size_t n;

	ck_assert_int_eq(sysroot_init(&sr, FIXTURE), 0);
	ck_assert_int_eq(route_defaults(&sr, r, 8, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(r[0].family, AF_INET);
	ck_assert_str_eq(r[0].destination, "default");
	ck_assert_str_eq(r[0].gateway, "10.231.0.1");
	ck_assert_str_eq(r[0].out_interface, "eth0");
	ck_assert_int_eq(r[0].oif, 2);
	ck_assert_int_eq(r[0].metric, 100);
	ck_assert_int_eq(r[0].table, RT_TABLE_MAIN);
	ck_assert_int_eq(r[1].family, AF_INET6);
	ck_assert_str_eq(r[1].gateway, "fe80::1");
	ck_assert_int_eq(r[1].metric, 1024);
	/* max bounds the output. */
	ck_assert_int_eq(route_defaults(&sr, r, 1, &n), 0);
	ck_assert_uint_eq(n, 1);
}
END_TEST

START_TEST(replay_missing_tree)
{
	struct iface_list l = {0};
	struct route_info r[2];
	struct sysroot sr;
	size_t n = 5;

	ck_assert_int_eq(sysroot_init(&sr, SRCDIR "/tests/unit"), 0);
	ck_assert_int_eq(iface_collect(&l, &sr), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_uint_eq(l.n, 0);
	ck_assert_int_eq(route_defaults(&sr, r, 2, &n), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_uint_eq(n, 0);
}
END_TEST

/* The rows of /proc/net/route that every reader of it shares: the
 * header and short rows are refused, values stay in network order, a
 * metric printed as -1 reads back as the largest. */
START_TEST(proc_route_rows)
{
	struct proc_route r;
	char b[INET_ADDRSTRLEN];

	ck_assert_int_eq(proc_route_parse("Iface\tDestination\tGateway \t"
					  "Flags\tRefCnt\tUse\tMetric\tMask",
					  &r),
			 -1);
	ck_assert_int_eq(proc_route_parse("eth0\t00000000\t010011AC", &r),
			 -1);
	ck_assert_int_eq(proc_route_parse("eth0\t00000000\t010011AC\t0003\t0"
					  "\t0\t100\t00000000\t0\t0\t0",
					  &r),
			 0);
	ck_assert_str_eq(r.dev, "eth0");
	ck_assert_uint_eq(r.dst, 0);
	ck_assert_uint_eq(r.mask, 0);
	ck_assert_uint_eq(r.flags, PROC_ROUTE_UP | PROC_ROUTE_GATEWAY);
	ck_assert_uint_eq(r.metric, 100);
	ck_assert_str_eq(inet_ntop(AF_INET, &r.gw, b, sizeof(b)),
			 "172.17.0.1");
	ck_assert_int_eq(proc_route_parse("lo\t0000007F\t00000000\t0001\t0"
					  "\t0\t-1\t000000FF",
					  &r),
			 0);
	ck_assert_uint_eq(r.metric, 4294967295u);
	ck_assert_str_eq(inet_ntop(AF_INET, &r.dst, b, sizeof(b)),
			 "127.0.0.0");
}
END_TEST

Suite *suite_iface_replay(void)
{
	Suite *s = suite_create("iface_replay");
	TCase *tc = tcase_create("fixture");

	tcase_add_test(tc, replay_kinds_and_links);
	tcase_add_test(tc, replay_addresses);
	tcase_add_test(tc, replay_default_routes);
	tcase_add_test(tc, replay_missing_tree);
	tcase_add_test(tc, proc_route_rows);
	suite_add_tcase(s, tc);
	return s;
}
