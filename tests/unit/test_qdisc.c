/* Queueing disciplines (issue 48, blind48e 01 and 03): RTM_NEWQDISC and
 * RTM_NEWTCLASS messages built in memory as the kernel dumps them (tbf
 * with a burst below a frame, above it, 64-bit rates and a peak rate;
 * htb with direct_qlen 0 and 1000; fq_codel; malformed ones) through
 * nl_parse_qdisc and nl_parse_tclass, then decide_qdisc on the
 * interface that carries the node's traffic, a bridge's port and a
 * macvlan's lower device, with the decoys that must stay silent. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "decide/decide_qdisc.h"
#include "decide_fx.h"

/* tc's buffer ticks for burst bytes at rate bytes/s (tc_calc_xmittime:
 * the time in 64 ns ticks). */
static unsigned ticks(unsigned long long burst, unsigned long long rate)
{
	return (unsigned)(burst * 1000000000ULL / rate / 64);
}

/* An RTM_NEWQDISC of kind on ifindex, parent root, with drops. */
static struct nlmsghdr *qmsg(char *buf, int ifindex, const char *kind,
			     unsigned handle, unsigned drops)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct tcmsg *t;
	struct nlattr *st;
	struct gnet_stats_queue g = {.drops = drops};

	nlh->nlmsg_type = RTM_NEWQDISC;
	t = mnl_nlmsg_put_extra_header(nlh, sizeof(*t));
	t->tcm_ifindex = ifindex;
	t->tcm_handle = handle;
	t->tcm_parent = TC_H_ROOT;
	mnl_attr_put_strz(nlh, TCA_KIND, kind);
	st = mnl_attr_nest_start(nlh, TCA_STATS2);
	mnl_attr_put(nlh, TCA_STATS_QUEUE, sizeof(g), &g);
	mnl_attr_nest_end(nlh, st);
	return nlh;
}

/* A tbf of rate bytes/s and burst bytes (as `tc qdisc add ... tbf rate
 * R burst B latency 50ms` sends it), rate64 when it does not fit 32
 * bits. */
static struct nlmsghdr *tbf_msg(char *buf, int ifindex,
				unsigned long long rate,
				unsigned long long burst)
{
	struct nlmsghdr *nlh = qmsg(buf, ifindex, "tbf", 0x80010000u, 7);
	struct tc_tbf_qopt p;
	struct nlattr *o;

	memset(&p, 0, sizeof(p));
	p.rate.rate = rate > 0xffffffffULL ? 0xffffffffu : (unsigned)rate;
	p.rate.linklayer = TC_LINKLAYER_ETHERNET;
	p.buffer = ticks(burst, rate);
	p.limit = (unsigned)(rate / 20 + burst);
	o = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put(nlh, TCA_TBF_PARMS, sizeof(p), &p);
	if (rate > 0xffffffffULL)
		mnl_attr_put_u64(nlh, TCA_TBF_RATE64, rate);
	mnl_attr_nest_end(nlh, o);
	return nlh;
}

/* An htb 1: with default class defcls and direct queue qlen. */
static struct nlmsghdr *htb_msg(char *buf, int ifindex, unsigned defcls,
				unsigned qlen, unsigned drops)
{
	struct nlmsghdr *nlh = qmsg(buf, ifindex, "htb", 0x10000u, drops);
	struct tc_htb_glob g = {.version = 3, .rate2quantum = 10,
				.defcls = defcls};
	struct nlattr *o = mnl_attr_nest_start(nlh, TCA_OPTIONS);

	mnl_attr_put(nlh, TCA_HTB_INIT, sizeof(g), &g);
	mnl_attr_put_u32(nlh, TCA_HTB_DIRECT_QLEN, qlen);
	mnl_attr_nest_end(nlh, o);
	return nlh;
}

/* An htb class 1:minor on ifindex at level. */
static struct nlmsghdr *class_msg(char *buf, int ifindex, unsigned minor,
				  unsigned level)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct tcmsg *t;
	struct tc_htb_opt o;
	struct nlattr *n;

	memset(&o, 0, sizeof(o));
	o.level = level;
	nlh->nlmsg_type = RTM_NEWTCLASS;
	t = mnl_nlmsg_put_extra_header(nlh, sizeof(*t));
	t->tcm_ifindex = ifindex;
	t->tcm_handle = 0x10000u | minor;
	t->tcm_parent = TC_H_ROOT;
	mnl_attr_put_strz(nlh, TCA_KIND, "htb");
	n = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put(nlh, TCA_HTB_PARMS, sizeof(o), &o);
	mnl_attr_nest_end(nlh, n);
	return nlh;
}

/* Issue 48 (blind48e 01): tbf rate 1gbit burst 1000 passes 1000 bytes,
 * a burst of 256kb passes it all; 100gbit comes in TCA_TBF_RATE64; a
 * peak rate's mtu caps it too. */
START_TEST(parse_tbf)
{
	char buf[1024];
	struct qdisc_info q;

	ck_assert_int_eq(nl_parse_qdisc(tbf_msg(buf, 2, 125000000ULL, 1000),
					&q),
			 0);
	ck_assert(q.root && q.tbf && !q.htb);
	ck_assert_str_eq(q.kind, "tbf");
	ck_assert_int_eq(q.ifindex, 2);
	ck_assert_uint_eq(q.rate, 125000000ULL);
	ck_assert_uint_eq(q.max_size, 1000);
	ck_assert(q.drops_read);
	ck_assert_uint_eq(q.drops, 7);
	ck_assert(decide_qdisc_drops(&q, 1514));

	ck_assert_int_eq(nl_parse_qdisc(tbf_msg(buf, 2, 125000000ULL, 262144),
					&q),
			 0);
	ck_assert_uint_ge(q.max_size, 262000);
	ck_assert(!decide_qdisc_drops(&q, 1514));

	ck_assert_int_eq(
	    nl_parse_qdisc(tbf_msg(buf, 2, 12500000000ULL, 1000000), &q), 0);
	ck_assert_uint_eq(q.rate, 12500000000ULL);
	ck_assert_uint_ge(q.max_size, 999000);
	ck_assert(!decide_qdisc_drops(&q, 9014));

	/* what the kernel computes, overhead and ATM cells included */
	ck_assert_uint_eq(qdisc_tbf_max(125000000ULL, 8000, 0, false), 1000);
	ck_assert_uint_eq(qdisc_tbf_max(125000000ULL, 8000, 24, false), 976);
	ck_assert_uint_eq(qdisc_tbf_max(125000000ULL, 8000, 0, true), 864);
	ck_assert_uint_eq(qdisc_tbf_max(125000000ULL, 8000, 2000, false), 0);
}
END_TEST

/* htb: direct_qlen and the default class read; fq_codel has neither;
 * a truncated message or a tbf without its parameters is refused. */
START_TEST(parse_htb_and_malformed)
{
	char buf[1024];
	struct qdisc_info q;
	struct nlmsghdr *nlh;

	ck_assert_int_eq(nl_parse_qdisc(htb_msg(buf, 3, 0x10, 0, 9), &q), 0);
	ck_assert(q.htb && !q.tbf);
	ck_assert(q.direct_qlen_read);
	ck_assert_uint_eq(q.direct_qlen, 0);
	ck_assert_uint_eq(q.defcls, 0x10);
	ck_assert_int_eq(q.default_leaf, -1);
	ck_assert(!decide_qdisc_drops(&q, 1514)); /* classes unread */
	q.default_leaf = 0;
	ck_assert(decide_qdisc_drops(&q, 1514));
	/* the default class exists as a leaf: classified, queued there */
	ck_assert_int_eq(nl_parse_tclass(class_msg(buf, 3, 0x10, 0), &q), 0);
	ck_assert_int_eq(q.default_leaf, 1);
	ck_assert_uint_eq(q.nclasses, 1);
	ck_assert(!decide_qdisc_drops(&q, 1514));
	/* another interface's class is not counted */
	ck_assert_int_eq(nl_parse_tclass(class_msg(buf, 4, 0x20, 0), &q), 0);
	ck_assert_uint_eq(q.nclasses, 1);
	/* an inner class as the default: htb sends to the direct queue */
	q.nclasses = 0;
	q.default_leaf = 0;
	ck_assert_int_eq(nl_parse_tclass(class_msg(buf, 3, 0x10, 1), &q), 0);
	ck_assert_int_eq(q.default_leaf, 0);
	ck_assert(decide_qdisc_drops(&q, 1514)); /* 9 drops */
	q.drops = 0;
	ck_assert(!decide_qdisc_drops(&q, 1514)); /* filters may classify */

	/* the default class without its options: unknown, not dropping */
	{
		struct nlmsghdr *c = mnl_nlmsg_put_header(buf);
		struct tcmsg *t = mnl_nlmsg_put_extra_header(c, sizeof(*t));

		c->nlmsg_type = RTM_NEWTCLASS;
		t->tcm_ifindex = 3;
		t->tcm_handle = 0x10010u;
		mnl_attr_put_strz(c, TCA_KIND, "htb");
		q.default_leaf = 0;
		ck_assert_int_eq(nl_parse_tclass(c, &q), 0);
		ck_assert_int_eq(q.default_leaf, -1);
		ck_assert(!decide_qdisc_drops(&q, 1514));
	}

	ck_assert_int_eq(nl_parse_qdisc(htb_msg(buf, 3, 0x10, 1000, 0), &q),
			 0);
	q.default_leaf = 0;
	ck_assert_uint_eq(q.direct_qlen, 1000);
	ck_assert(!decide_qdisc_drops(&q, 1514));

	ck_assert_int_eq(nl_parse_qdisc(qmsg(buf, 2, "fq_codel", 0, 0), &q),
			 0);
	ck_assert(!q.tbf && !q.htb);
	ck_assert(!decide_qdisc_drops(&q, 1514));

	nlh = tbf_msg(buf, 2, 125000000ULL, 1000);
	nlh->nlmsg_len -= 8;
	errno = 0;
	ck_assert_int_eq(nl_parse_qdisc(nlh, &q), -1);
	ck_assert_int_eq(errno, EINVAL);
	nlh = qmsg(buf, 2, "tbf", 0, 0);
	mnl_attr_nest_end(nlh, mnl_attr_nest_start(nlh, TCA_OPTIONS));
	ck_assert_int_eq(nl_parse_qdisc(nlh, &q), -1);
}
END_TEST

/* The list of one root qdisc parsed from msg, named ifname. */
static void one_qdisc(struct qdisc_list *qs, const struct nlmsghdr *nlh,
		      const char *ifname)
{
	ck_assert_int_eq(nl_parse_qdisc(nlh, &qs->v[qs->n]), 0);
	snprintf(qs->v[qs->n].ifname, sizeof(qs->v[qs->n].ifname), "%s",
		 ifname);
	qs->n++;
}

/* The command of d's only finding, a qdisc-drops-frames fault. */
static const char *qdisc_cmd(const struct doc *d)
{
	return unitfix_only_fault_cmd(d, "qdisc-drops-frames");
}

/* Issue 48 (blind48e 01): the small tbf on the chosen interface is a
 * fault whose command keeps the rate and latency with a burst of
 * rate/250; on an interface that carries nothing it is silent, as are
 * the big burst (blind48e 05) and fq_codel. Over IPv6 alike. */
START_TEST(decide_tbf)
{
	struct iface_list l = {0};
	struct qdisc_list *qs = calloc(1, sizeof(*qs));
	struct doc d;
	const char *carry[] = {"lan0"};
	struct iface *lan0, *oth;

	ck_assert_ptr_nonnull(qs);
	unitfix_lo(&l);
	add(&l, "lan0", IFK_PHYSICAL, UPRUN, "10.231.124.3", 24);
	add(&l, "docker0", IFK_BRIDGE, UPRUN, "172.17.0.1", 16);
	lan0 = &l.v[1]; /* the list may move while it grows */
	oth = &l.v[2];
	lan0->mtu = oth->mtu = 1500;
	snprintf(lan0->mac, sizeof(lan0->mac), "52:54:00:e7:7c:03");
	snprintf(oth->mac, sizeof(oth->mac), "52:54:00:e7:7c:09");
	one_qdisc(qs, tbf_msg((char[1024]){0}, lan0->index, 125000000ULL,
			      1000),
		  "lan0");
	doc_start(&d);
	ck_assert_int_eq(decide_qdisc(qs, &l, carry, 1, &d), 0);
	ck_assert_str_eq(qdisc_cmd(&d),
			 "tc qdisc replace dev lan0 root tbf rate "
			 "1000000000bit burst 500000 latency 50ms");
	doc_free(&d);
	/* no interface named: the addressed ones carry, lan0 among them */
	doc_start(&d);
	ck_assert_int_eq(decide_qdisc(qs, &l, NULL, 0, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 1);
	doc_free(&d);
	/* IPv6 only on lan0 */
	lan0->naddrs = 0;
	{
		unsigned char a6[16];

		ck_assert_int_eq(inet_pton(AF_INET6, "fd84:7c::3", a6), 1);
		ck_assert_int_eq(iface_add_addr(lan0, AF_INET6, a6, 64, 0), 0);
	}
	doc_start(&d);
	ck_assert_int_eq(decide_qdisc(qs, &l, NULL, 0, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 1);
	doc_free(&d);
	/* the same tbf on docker0, which carries nothing toward peers */
	snprintf(qs->v[0].ifname, sizeof(qs->v[0].ifname), "docker0");
	qs->v[0].ifindex = oth->index;
	doc_start(&d);
	ck_assert_int_eq(decide_qdisc(qs, &l, carry, 1, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	/* decoys: a big burst, fq_codel, a truncated list */
	qs->n = 0;
	one_qdisc(qs, tbf_msg((char[1024]){0}, lan0->index, 125000000ULL,
			      262144),
		  "lan0");
	one_qdisc(qs, qmsg((char[1024]){0}, oth->index, "fq_codel", 0, 0),
		  "docker0");
	doc_start(&d);
	ck_assert_int_eq(decide_qdisc(qs, &l, carry, 1, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	qs->n = 0;
	one_qdisc(qs, tbf_msg((char[1024]){0}, lan0->index, 125000000ULL,
			      1000),
		  "lan0");
	qs->truncated = true;
	doc_start(&d);
	ck_assert_int_eq(decide_qdisc(qs, &l, carry, 1, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	ck_assert_int_eq(decide_qdisc(NULL, &l, carry, 1, &d), 0);
	doc_free(&d);
	free(qs);
	iface_list_free(&l);
}
END_TEST

/* Issue 48 (blind48e 03): htb direct_qlen 0 with no class on a port of
 * the bridge that holds the address is a fault whose command gives the
 * device a queue and a new htb; a macvlan's lower device is read too;
 * htb with a 1000-packet direct queue (blind48e 06) is silent. */
START_TEST(decide_htb_ports)
{
	struct iface_list l = {0};
	struct qdisc_list *qs = calloc(1, sizeof(*qs));
	struct doc d;
	const char *carry[] = {"br0"};
	struct iface *br, *port, *mv, *low;

	ck_assert_ptr_nonnull(qs);
	unitfix_lo(&l);
	add(&l, "br0", IFK_BRIDGE, UPRUN, "10.231.128.13", 24);
	add(&l, "eth0", IFK_PHYSICAL, UPRUN, NULL, 0);
	br = &l.v[1];
	port = &l.v[2];
	port->master_index = br->index;
	br->mtu = port->mtu = 1500;
	snprintf(port->mac, sizeof(port->mac), "52:54:00:e7:80:0d");
	one_qdisc(qs, htb_msg((char[1024]){0}, port->index, 0x10, 0, 0),
		  "eth0");
	qs->v[0].default_leaf = 0;
	doc_start(&d);
	ck_assert_int_eq(decide_qdisc(qs, &l, carry, 1, &d), 0);
	ck_assert_str_eq(qdisc_cmd(&d),
			 "ip link set dev eth0 txqueuelen 1000 && tc qdisc "
			 "replace dev eth0 root handle 2: htb default 10 "
			 "direct_qlen 1000");
	doc_free(&d);
	qs->v[0].direct_qlen = 1000;
	doc_start(&d);
	ck_assert_int_eq(decide_qdisc(qs, &l, carry, 1, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 0);
	doc_free(&d);

	/* a macvlan's lower device carries its frames */
	add(&l, "enp1", IFK_PHYSICAL, UPRUN, NULL, 0);
	add(&l, "mv0", IFK_MACVLAN, UPRUN, "10.231.129.5", 24);
	low = &l.v[3];
	mv = &l.v[4];
	mv->link_index = low->index;
	mv->link_netnsid = -1;
	low->mtu = mv->mtu = 9000;
	snprintf(low->mac, sizeof(low->mac), "52:54:00:e7:81:01");
	qs->n = 0;
	one_qdisc(qs, tbf_msg((char[1024]){0}, low->index, 125000000ULL,
			      8000),
		  "enp1");
	carry[0] = "mv0";
	doc_start(&d);
	ck_assert_int_eq(decide_qdisc(qs, &l, carry, 1, &d), 0);
	ck_assert_int_eq(json_array_size(d.findings), 1);
	doc_free(&d);
	free(qs);
	iface_list_free(&l);
}
END_TEST

Suite *suite_qdisc(void)
{
	Suite *s = suite_create("qdisc");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parse_tbf);
	tcase_add_test(tc, parse_htb_and_malformed);
	tcase_add_test(tc, decide_tbf);
	tcase_add_test(tc, decide_htb_ports);
	suite_add_tcase(s, tc);
	return s;
}
