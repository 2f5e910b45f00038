/* Queueing disciplines over rtnetlink (issue 48): the parsers of one
 * RTM_NEWQDISC or RTM_NEWTCLASS message (tbf's and htb's options read
 * as the kernel dumps them), and the dumps of this netns. */
#include "kernel/qdisc.h"

#include <errno.h>
#include <string.h>

#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

/* A psched tick, as tc_tbf_qopt's buffer and mtu count time: 64 ns
 * (PSCHED_SHIFT 6). */
#define PSCHED_TICK_NS 64ULL

/* See qdisc.h. The product can pass 2^64 for a long bucket at 100 Gbit/s:
 * 128 bits, then the kernel's clamp to u32 (max_size is a u32). */
unsigned long long qdisc_tbf_max(unsigned long long rate,
                                 unsigned long long ns, unsigned overhead,
                                 bool atm)
{
	unsigned __int128 len = (unsigned __int128)ns * rate / 1000000000ULL;

	if (atm)
		len = len / 53 * 48;
	len = len > overhead ? len - overhead : 0;
	return len > 0xffffffffULL ? 0xffffffffULL : (unsigned long long)len;
}

/* The queue's drop counter: TCA_STATS2's TCA_STATS_QUEUE, else the old
 * struct tc_stats. */
static int parse_stats(const struct nlattr *const *tb, struct qdisc_info *q)
{
	const struct nlattr *st[TCA_STATS_MAX + 1];

	if (tb[TCA_STATS2] != NULL) {
		if (nl_attr_table(mnl_attr_get_payload(tb[TCA_STATS2]),
		                  mnl_attr_get_payload_len(tb[TCA_STATS2]), st,
		                  TCA_STATS_MAX, NULL) < 0)
			return -1;
		if (st[TCA_STATS_QUEUE] != NULL) {
			struct gnet_stats_queue g;

			if (mnl_attr_get_payload_len(st[TCA_STATS_QUEUE]) <
			    sizeof(g))
				goto bad;
			memcpy(&g, mnl_attr_get_payload(st[TCA_STATS_QUEUE]),
			       sizeof(g));
			q->drops = g.drops;
			q->drops_read = true;
			return 0;
		}
	}
	if (tb[TCA_STATS] != NULL) {
		struct tc_stats s;

		if (mnl_attr_get_payload_len(tb[TCA_STATS]) < sizeof(s))
			goto bad;
		memcpy(&s, mnl_attr_get_payload(tb[TCA_STATS]), sizeof(s));
		q->drops = s.drops;
		q->drops_read = true;
	}
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

/* tbf's options: its parameters, 64-bit rates where the kernel gave
 * them, and the largest packet it passes as sch_tbf.c computes it. */
static int parse_tbf(const struct nlattr *opt, struct qdisc_info *q)
{
	const struct nlattr *tb[TCA_TBF_MAX + 1];
	struct tc_tbf_qopt p;

	if (nl_attr_table(mnl_attr_get_payload(opt),
	                  mnl_attr_get_payload_len(opt), tb, TCA_TBF_MAX,
	                  NULL) < 0)
		return -1;
	if (tb[TCA_TBF_PARMS] == NULL ||
	    mnl_attr_get_payload_len(tb[TCA_TBF_PARMS]) < sizeof(p) ||
	    (tb[TCA_TBF_RATE64] != NULL &&
	     mnl_attr_validate(tb[TCA_TBF_RATE64], MNL_TYPE_U64) < 0) ||
	    (tb[TCA_TBF_PRATE64] != NULL &&
	     mnl_attr_validate(tb[TCA_TBF_PRATE64], MNL_TYPE_U64) < 0)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(&p, mnl_attr_get_payload(tb[TCA_TBF_PARMS]), sizeof(p));
	q->tbf = true;
	q->rate = tb[TCA_TBF_RATE64] != NULL
	              ? mnl_attr_get_u64(tb[TCA_TBF_RATE64])
	              : p.rate.rate;
	q->prate = tb[TCA_TBF_PRATE64] != NULL
	               ? mnl_attr_get_u64(tb[TCA_TBF_PRATE64])
	               : p.peakrate.rate;
	q->buffer_ns = p.buffer * PSCHED_TICK_NS;
	q->mtu_ns = p.mtu * PSCHED_TICK_NS;
	q->limit = p.limit;
	q->max_size = qdisc_tbf_max(q->rate, q->buffer_ns, p.rate.overhead,
	                            (p.rate.linklayer & TC_LINKLAYER_MASK) ==
	                                TC_LINKLAYER_ATM);
	if (q->prate > 0) {
		unsigned long long pm = qdisc_tbf_max(
		    q->prate, q->mtu_ns, p.peakrate.overhead,
		    (p.peakrate.linklayer & TC_LINKLAYER_MASK) ==
		        TC_LINKLAYER_ATM);

		if (pm < q->max_size)
			q->max_size = pm;
	}
	return 0;
}

/* htb's options: its default class and direct queue length (an old
 * kernel without TCA_HTB_DIRECT_QLEN used the device's txqueuelen, left
 * unread here). */
static int parse_htb(const struct nlattr *opt, struct qdisc_info *q)
{
	const struct nlattr *tb[TCA_HTB_MAX + 1];
	struct tc_htb_glob g;

	if (nl_attr_table(mnl_attr_get_payload(opt),
	                  mnl_attr_get_payload_len(opt), tb, TCA_HTB_MAX,
	                  NULL) < 0)
		return -1;
	if (tb[TCA_HTB_INIT] == NULL ||
	    mnl_attr_get_payload_len(tb[TCA_HTB_INIT]) < sizeof(g) ||
	    (tb[TCA_HTB_DIRECT_QLEN] != NULL &&
	     mnl_attr_validate(tb[TCA_HTB_DIRECT_QLEN], MNL_TYPE_U32) < 0)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(&g, mnl_attr_get_payload(tb[TCA_HTB_INIT]), sizeof(g));
	q->htb = true;
	q->defcls = g.defcls;
	q->default_leaf = -1;
	if (tb[TCA_HTB_DIRECT_QLEN] != NULL) {
		q->direct_qlen = mnl_attr_get_u32(tb[TCA_HTB_DIRECT_QLEN]);
		q->direct_qlen_read = true;
	}
	return 0;
}

/* See qdisc.h. */
int nl_parse_qdisc(const struct nlmsghdr *nlh, struct qdisc_info *out)
{
	static const enum mnl_attr_data_type types[TCA_MAX + 1] = {
	    [TCA_KIND] = MNL_TYPE_NUL_STRING, [TCA_OPTIONS] = MNL_TYPE_NESTED,
	    [TCA_STATS2] = MNL_TYPE_NESTED};
	const struct nlattr *tb[TCA_MAX + 1];
	const struct tcmsg *t;

	memset(out, 0, sizeof(*out));
	out->default_leaf = -1;
	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*t)))
		goto bad;
	t = mnl_nlmsg_get_payload(nlh);
	if (nl_attr_table(mnl_nlmsg_get_payload_offset(nlh, sizeof(*t)),
	                  nlh->nlmsg_len - mnl_nlmsg_size(sizeof(*t)), tb,
	                  TCA_MAX, types) < 0)
		return -1;
	if (tb[TCA_KIND] == NULL)
		goto bad;
	out->ifindex = t->tcm_ifindex;
	out->handle = t->tcm_handle;
	out->parent = t->tcm_parent;
	out->root = t->tcm_parent == TC_H_ROOT;
	out->ingress = t->tcm_parent == TC_H_INGRESS;
	nl_copy(out->kind, sizeof(out->kind), mnl_attr_get_str(tb[TCA_KIND]));
	if (parse_stats(tb, out) < 0)
		return -1;
	if (tb[TCA_OPTIONS] == NULL)
		return 0;
	if (strcmp(out->kind, "tbf") == 0)
		return parse_tbf(tb[TCA_OPTIONS], out);
	if (strcmp(out->kind, "htb") == 0)
		return parse_htb(tb[TCA_OPTIONS], out);
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

/* See qdisc.h. */
int nl_parse_tclass(const struct nlmsghdr *nlh, struct qdisc_info *q)
{
	const struct nlattr *tb[TCA_MAX + 1], *ob[TCA_HTB_MAX + 1];
	const struct tcmsg *t;
	struct tc_htb_opt o;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*t)))
		goto bad;
	t = mnl_nlmsg_get_payload(nlh);
	if (nl_attr_table(mnl_nlmsg_get_payload_offset(nlh, sizeof(*t)),
	                  nlh->nlmsg_len - mnl_nlmsg_size(sizeof(*t)), tb,
	                  TCA_MAX, NULL) < 0)
		return -1;
	if (t->tcm_ifindex != q->ifindex ||
	    TC_H_MAJ(t->tcm_handle) != TC_H_MAJ(q->handle))
		return 0;
	q->nclasses++;
	if (t->tcm_handle != TC_H_MAKE(q->handle, q->defcls))
		return 0;
	/* found: a leaf or not by its level, unknown without options */
	q->default_leaf = -1;
	if (tb[TCA_OPTIONS] == NULL)
		return 0;
	if (nl_attr_table(mnl_attr_get_payload(tb[TCA_OPTIONS]),
	                  mnl_attr_get_payload_len(tb[TCA_OPTIONS]), ob,
	                  TCA_HTB_MAX, NULL) < 0)
		return -1;
	if (ob[TCA_HTB_PARMS] == NULL ||
	    mnl_attr_get_payload_len(ob[TCA_HTB_PARMS]) < sizeof(o))
		goto bad;
	memcpy(&o, mnl_attr_get_payload(ob[TCA_HTB_PARMS]), sizeof(o));
	q->default_leaf = o.level == 0;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

/* See qdisc.h. */
const struct qdisc_info *qdisc_root_of(const struct qdisc_list *l,
                                       const char *name)
{
	for (size_t i = 0; l != NULL && i < l->n; i++)
		if (l->v[i].root && strcmp(l->v[i].ifname, name) == 0)
			return &l->v[i];
	return NULL;
}
