/* rp-filter-strict: the sysctls read through a sysroot, the kernel's
 * larger-of-two rule, and the decider on the nodes that must and must not
 * raise it. */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/decide.h"
#include "kernel/rpfilter.h"

#define UPRUN (IFF_UP | IFF_RUNNING)

/* Adds a running physical interface with one IPv4 address. */
static void add(struct iface_list *l, const char *name, const char *addr,
                unsigned plen)
{
	struct iface *ifc = iface_list_add(l);
	struct in_addr a;

	ck_assert_ptr_nonnull(ifc);
	snprintf(ifc->name, sizeof(ifc->name), "%s", name);
	ifc->index = (int)l->n;
	ifc->kind = IFK_PHYSICAL;
	ifc->flags = UPRUN;
	ifc->carrier = 1;
	ck_assert_int_eq(inet_pton(AF_INET, addr, &a), 1);
	ck_assert_int_eq(iface_add_addr(ifc, AF_INET, &a, plen, 0), 0);
}

/* rp_filter facts: all's value, then eth0's and eth1's. */
static void facts(struct rpf_facts *f, int all, int eth0, int eth1)
{
	memset(f, 0, sizeof(*f));
	f->all = all;
	snprintf(f->v[0].name, sizeof(f->v[0].name), "eth0");
	f->v[0].own = eth0;
	snprintf(f->v[1].name, sizeof(f->v[1].name), "eth1");
	f->v[1].own = eth1;
	f->n = 2;
}

/* Runs the decider; returns the number of rp-filter-strict findings. */
static int run(const struct iface_list *l, const struct rpf_facts *f,
               struct doc *d)
{
	ck_assert_int_eq(doc_init(d, "netprobe", "scan"), 0);
	ck_assert_int_eq(decide_rp_filter(l, f, d), 0);
	return (int)json_array_size(d->findings);
}

START_TEST(multi_rail_strict)
{
	struct iface_list l = {0};
	struct rpf_facts f;
	struct doc d;
	json_t *x;

	add(&l, "eth0", "10.231.0.1", 24);
	add(&l, "eth1", "10.231.0.2", 24);
	facts(&f, 1, 0, 0);
	ck_assert_int_eq(run(&l, &f, &d), 1);
	x = json_array_get(d.findings, 0);
	ck_assert_str_eq(json_string_value(json_object_get(x, "code")),
	                 "rp-filter-strict");
	ck_assert_str_eq(json_string_value(json_object_get(x, "severity")),
	                 "warning");
	ck_assert_ptr_nonnull(
	    strstr(json_string_value(json_object_get(x, "summary")),
	           "both in 10.231.0.0/24"));
	ck_assert_ptr_nonnull(
	    strstr(json_string_value(json_object_get(x, "fix")),
	           "net.ipv4.conf.all.rp_filter=2"));
	/* the command the report runs as this node's cause: the runtime
	 * half only (keeping it writes /etc, the reader's) */
	ck_assert_str_eq(json_string_value(json_object_get(x, "command")),
	                 "sysctl -w net.ipv4.conf.all.rp_filter=2");
	doc_free(&d);
	/* the interfaces' own 1 counts as much as all's */
	facts(&f, 0, 1, 1);
	ck_assert_int_eq(run(&l, &f, &d), 1);
	doc_free(&d);
	/* a /16 holding a /24 is one subnet too */
	iface_list_free(&l);
	add(&l, "eth0", "10.231.0.1", 16);
	add(&l, "eth1", "10.231.7.1", 24);
	facts(&f, 1, 1, 1);
	ck_assert_int_eq(run(&l, &f, &d), 1);
	ck_assert_ptr_nonnull(
	    strstr(json_string_value(json_object_get(
	               json_array_get(d.findings, 0), "summary")),
	           "both in 10.231.0.0/16"));
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

START_TEST(healthy_nodes_silent)
{
	struct iface_list l = {0};
	struct rpf_facts f;
	struct doc d;

	/* single-homed, strict */
	add(&l, "eth0", "10.231.0.1", 24);
	facts(&f, 1, 1, 1);
	ck_assert_int_eq(run(&l, &f, &d), 0);
	doc_free(&d);
	/* two subnets, strict: each reply's route leaves by its own NIC */
	add(&l, "eth1", "10.231.1.1", 24);
	ck_assert_int_eq(run(&l, &f, &d), 0);
	doc_free(&d);
	iface_list_free(&l);
	add(&l, "eth0", "10.231.0.1", 24);
	add(&l, "eth1", "10.231.0.2", 24);
	/* one subnet, loose through all (the larger wins) */
	facts(&f, 2, 1, 1);
	ck_assert_int_eq(run(&l, &f, &d), 0);
	doc_free(&d);
	/* one subnet, one of the two loose: the route may use the strict
	 * one, and then nothing is dropped */
	facts(&f, 0, 1, 2);
	ck_assert_int_eq(run(&l, &f, &d), 0);
	doc_free(&d);
	/* one subnet, not known */
	facts(&f, -1, -1, -1);
	ck_assert_int_eq(run(&l, &f, &d), 0);
	doc_free(&d);
	/* one subnet, strict, but eth1 down */
	facts(&f, 1, 1, 1);
	l.v[1].flags = IFF_UP;
	l.v[1].carrier = 0;
	ck_assert_int_eq(run(&l, &f, &d), 0);
	doc_free(&d);
	iface_list_free(&l);
}
END_TEST

START_TEST(sysroot_larger_of_two)
{
	struct iface_list l = {0};
	struct sysroot sr;
	struct rpf_facts f;

	ck_assert_int_eq(
	    sysroot_init(&sr, SRCDIR "/tests/fixtures/rpfilter/multi-rail"), 0);
	add(&l, "eth0", "10.231.0.1", 24);
	add(&l, "eth1", "10.231.0.2", 24);
	add(&l, "eth2", "10.231.9.1", 24);
	rpfilter_collect(&sr, &l, &f);
	ck_assert_int_eq(f.all, 1);
	ck_assert_uint_eq(f.n, 3);
	ck_assert_int_eq(f.v[0].own, 0);
	ck_assert_int_eq(f.v[1].own, 2);
	ck_assert_int_eq(f.v[2].own, -1); /* not recorded */
	ck_assert_int_eq(rpfilter_effective(&f, "eth0"), 1);
	ck_assert_int_eq(rpfilter_effective(&f, "eth1"), 2);
	ck_assert_int_eq(rpfilter_effective(&f, "eth2"), 1);
	iface_list_free(&l);
}
END_TEST

/* The scan records rp_filter, arp_ignore and arp_announce of all and each
 * interface (issue 48, audit48), as the sysctls hold them: eth0 set up
 * against ARP flux (1 and 2), eth1's arp_ignore out of range (9) and its
 * arp_announce absent both unread, eth2 with no files. */
START_TEST(conf_recorded_per_interface)
{
	struct iface_list l = {0};
	struct sysroot sr;
	struct rpf_facts f;
	json_t *o, *x;

	ck_assert_int_eq(
	    sysroot_init(&sr, SRCDIR "/tests/fixtures/rpfilter/multi-rail"), 0);
	add(&l, "eth0", "10.231.0.1", 24);
	add(&l, "eth1", "10.231.0.2", 24);
	add(&l, "eth2", "10.231.9.1", 24);
	rpfilter_collect(&sr, &l, &f);
	ck_assert_int_eq(f.all_arp_ignore, 0);
	ck_assert_int_eq(f.v[0].arp_ignore, 1);
	ck_assert_int_eq(f.v[0].arp_announce, 2);
	ck_assert_int_eq(f.v[1].arp_ignore, -1);
	o = rpfilter_to_json(&f);
	ck_assert_ptr_nonnull(o);
	x = json_object_get(o, "all");
	ck_assert_int_eq(json_integer_value(json_object_get(x, "rp_filter")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(x, "arp_announce")),
	                 0);
	x = json_object_get(o, "eth0");
	ck_assert_int_eq(json_integer_value(json_object_get(x, "rp_filter")), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(x, "arp_ignore")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(x, "arp_announce")),
	                 2);
	x = json_object_get(o, "eth1");
	ck_assert_int_eq(json_integer_value(json_object_get(x, "rp_filter")), 2);
	ck_assert(json_is_null(json_object_get(x, "arp_ignore")));
	ck_assert(json_is_null(json_object_get(x, "arp_announce")));
	x = json_object_get(o, "eth2");
	ck_assert(json_is_null(json_object_get(x, "rp_filter")));
	ck_assert_uint_eq(json_object_size(o), 4);
	json_decref(o);
	iface_list_free(&l);
}
END_TEST

Suite *suite_rpfilter(void)
{
	Suite *s = suite_create("rpfilter");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, multi_rail_strict);
	tcase_add_test(tc, healthy_nodes_silent);
	tcase_add_test(tc, sysroot_larger_of_two);
	tcase_add_test(tc, conf_recorded_per_interface);
	suite_add_tcase(s, tc);
	return s;
}
