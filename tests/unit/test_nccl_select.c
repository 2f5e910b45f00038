/* NCCL's interface selection on tables of interfaces. */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/nccl_select.h"

/* Adds an interface with flags and one "a.b.c.d/len" or v6 address. */
static struct iface *add(struct iface_list *l, const char *name,
			 unsigned flags, const char *addr, unsigned plen)
{
	struct iface *ifc = iface_list_add(l);
	unsigned char buf[16];

	ck_assert_ptr_nonnull(ifc);
	snprintf(ifc->name, sizeof(ifc->name), "%s", name);
	ifc->index = (int)l->n;
	ifc->flags = flags;
	if (addr != NULL) {
		int fam = strchr(addr, ':') ? AF_INET6 : AF_INET;

		ck_assert_int_eq(inet_pton(fam, addr, buf), 1);
		ck_assert_int_eq(iface_add_addr(ifc, fam, buf, plen, 0), 0);
	}
	return ifc;
}

#define UPRUN (IFF_UP | IFF_RUNNING)

START_TEST(default_skips_docker_and_lo)
{
	struct iface_list l = {0};
	struct nccl_env env = {0};
	struct nccl_choice c;

	add(&l, "lo", UPRUN | IFF_LOOPBACK, "127.0.0.1", 8);
	add(&l, "docker0", UPRUN, "172.17.0.1", 16);
	add(&l, "eth0", UPRUN, "10.231.0.1", 24);
	add(&l, "br-1234", UPRUN, "172.18.0.1", 16);
	ck_assert_int_eq(nccl_select(&l, &env, &c), 2);
	ck_assert_str_eq(c.rule, "^docker,lo,virbr");
	ck_assert_str_eq(c.v[0].ifc->name, "eth0");
	ck_assert_str_eq(c.v[1].ifc->name, "br-1234");
	iface_list_free(&l);
}
END_TEST

START_TEST(ib_first_and_running_only)
{
	struct iface_list l = {0};
	struct nccl_env env = {0};
	struct nccl_choice c;

	add(&l, "eth0", UPRUN, "10.231.0.1", 24);
	add(&l, "ib0", IFF_UP, "10.231.1.1", 24); /* no carrier */
	ck_assert_int_eq(nccl_select(&l, &env, &c), 1);
	ck_assert_str_eq(c.v[0].ifc->name, "eth0");
	l.v[1].flags = UPRUN;
	ck_assert_int_eq(nccl_select(&l, &env, &c), 1);
	ck_assert_str_eq(c.rule, "ib");
	ck_assert_str_eq(c.v[0].ifc->name, "ib0");
	iface_list_free(&l);
}
END_TEST

START_TEST(ipv4_before_ipv6_and_v6_loopback)
{
	struct iface_list l = {0};
	struct nccl_env env = {0};
	struct nccl_choice c;

	add(&l, "veth1", UPRUN, "fe80::1", 64);
	add(&l, "eth0", UPRUN, "10.231.0.1", 24);
	ck_assert_int_eq(nccl_select(&l, &env, &c), 2);
	ck_assert_str_eq(c.v[0].ifc->name, "eth0");
	ck_assert_str_eq(c.v[1].addr->str, "fe80::1");
	env.socket_family = "AF_INET";
	ck_assert_int_eq(nccl_select(&l, &env, &c), 1);
	iface_list_free(&l);
}
END_TEST

START_TEST(ifname_forms)
{
	ck_assert(nccl_ifname_match("eth", "eth0"));
	ck_assert(nccl_ifname_match("eth", "eth10"));
	ck_assert(!nccl_ifname_match("=eth", "eth0"));
	ck_assert(nccl_ifname_match("=eth0,eth1", "eth1"));
	ck_assert(!nccl_ifname_match("=eth0", "eth00"));
	ck_assert(!nccl_ifname_match("^docker,lo", "docker0"));
	ck_assert(nccl_ifname_match("^docker,lo", "br-1"));
	ck_assert(nccl_ifname_match("^=eth0", "eth00"));
	ck_assert(nccl_ifname_match("bond0:1234", "bond0.2093"));
	ck_assert(nccl_ifname_match("", "anything"));
}
END_TEST

START_TEST(env_ifname_and_short_ignored)
{
	struct iface_list l = {0};
	struct nccl_env env = {0};
	struct nccl_choice c;

	add(&l, "eth0", UPRUN, "10.231.0.1", 24);
	add(&l, "eth1", UPRUN, "10.231.1.1", 24);
	env.socket_ifname = "=eth1";
	ck_assert_int_eq(nccl_select(&l, &env, &c), 1);
	ck_assert_str_eq(c.v[0].ifc->name, "eth1");
	env.socket_ifname = "e";
	ck_assert_int_eq(nccl_select(&l, &env, &c), 2);
	ck_assert(c.ifname_ignored);
	env.socket_ifname = "nope";
	ck_assert_int_eq(nccl_select(&l, &env, &c), 0);
	ck_assert_str_eq(c.rule, "NCCL_SOCKET_IFNAME");
	iface_list_free(&l);
}
END_TEST

START_TEST(comm_id_subnet)
{
	struct iface_list l = {0};
	struct nccl_env env = {0};
	struct nccl_choice c;

	add(&l, "eth0", UPRUN, "10.231.0.1", 24);
	add(&l, "eth1", UPRUN, "10.231.1.1", 24);
	env.comm_id = "10.231.1.7:29500";
	ck_assert_int_eq(nccl_select(&l, &env, &c), 1);
	ck_assert_str_eq(c.rule, "NCCL_COMM_ID subnet");
	ck_assert_str_eq(c.v[0].ifc->name, "eth1");
	env.comm_id = "10.99.0.1:29500";
	ck_assert_int_eq(nccl_select(&l, &env, &c), 2);
	ck_assert_str_eq(c.rule, "^docker,lo,virbr");
	iface_list_free(&l);
}
END_TEST

/* getifaddrs names an IPv4 alias by its label, and NCCL matches and
 * dedupes by that name (src/os/linux.cc): "eth0:1" is an interface of
 * its own, a prefix "eth0" takes both, the exact "=eth0" only eth0. */
START_TEST(ipv4_alias_is_an_interface)
{
	struct iface_list l = {0};
	struct nccl_env env = {0};
	struct nccl_choice c;
	struct iface *e;
	unsigned char b[4];

	add(&l, "lo", UPRUN | IFF_LOOPBACK, "127.0.0.1", 8);
	e = add(&l, "eth0", UPRUN, "10.231.0.1", 24);
	ck_assert_int_eq(inet_pton(AF_INET, "10.231.5.1", b), 1);
	ck_assert_int_eq(iface_add_addr(e, AF_INET, b, 24, 0), 0);
	snprintf(e->addrs[1].label, sizeof(e->addrs[1].label), "eth0:1");
	ck_assert_int_eq(nccl_select(&l, &env, &c), 2);
	ck_assert_str_eq(c.v[0].name, "eth0");
	ck_assert_str_eq(c.v[1].name, "eth0:1");
	ck_assert_str_eq(c.v[1].addr->str, "10.231.5.1");
	env.socket_ifname = "eth0";
	ck_assert_int_eq(nccl_select(&l, &env, &c), 2);
	env.socket_ifname = "=eth0";
	ck_assert_int_eq(nccl_select(&l, &env, &c), 1);
	ck_assert_str_eq(c.v[0].addr->str, "10.231.0.1");
	/* an alias cannot be named: parseStringList reads "eth0:1" as the
	 * name eth0 with port 1 (src/misc/utils.cc) */
	env.socket_ifname = "=eth0:1";
	ck_assert_int_eq(nccl_select(&l, &env, &c), 1);
	ck_assert_str_eq(c.v[0].addr->str, "10.231.0.1");
	iface_list_free(&l);
}
END_TEST

START_TEST(fallback_to_docker_then_lo)
{
	struct iface_list l = {0};
	struct nccl_env env = {0};
	struct nccl_choice c;

	add(&l, "lo", UPRUN | IFF_LOOPBACK, "127.0.0.1", 8);
	add(&l, "docker0", UPRUN, "172.17.0.1", 16);
	ck_assert_int_eq(nccl_select(&l, &env, &c), 1);
	ck_assert_str_eq(c.rule, "docker");
	l.v[1].flags = IFF_UP;
	ck_assert_int_eq(nccl_select(&l, &env, &c), 1);
	ck_assert_str_eq(c.rule, "lo");
	iface_list_free(&l);
}
END_TEST

Suite *suite_nccl_select(void)
{
	Suite *s = suite_create("nccl_select");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, default_skips_docker_and_lo);
	tcase_add_test(tc, ib_first_and_running_only);
	tcase_add_test(tc, ipv4_before_ipv6_and_v6_loopback);
	tcase_add_test(tc, ifname_forms);
	tcase_add_test(tc, env_ifname_and_short_ignored);
	tcase_add_test(tc, comm_id_subnet);
	tcase_add_test(tc, fallback_to_docker_then_lo);
	tcase_add_test(tc, ipv4_alias_is_an_interface);
	suite_add_tcase(s, tc);
	return s;
}
