/* The live side of kernel/qdisc.h: one RTM_GETQDISC dump of this netns
 * (root, ingress and clsact qdiscs kept), one RTM_GETTCLASS dump per
 * htb, interfaces named by index. */
#include "kernel/qdisc.h"

#include <errno.h>
#include <string.h>

#include <linux/rtnetlink.h>

struct qd_ctx {
	struct qdisc_list *l;
	struct qdisc_info *q; /* the htb whose classes a class dump reads */
	int err;
};

/* One qdisc of the dump: kept when it is an interface's root or its
 * ingress/clsact. */
static int qdisc_cb(const struct nlmsghdr *nlh, void *data)
{
	struct qd_ctx *c = data;
	struct qdisc_info q;

	if (nlh->nlmsg_type != RTM_NEWQDISC)
		return MNL_CB_OK;
	if (nl_parse_qdisc(nlh, &q) < 0) {
		c->err = errno;
		return MNL_CB_ERROR;
	}
	if (!q.root && !q.ingress)
		return MNL_CB_OK;
	if (c->l->n >= QDISC_MAX) {
		c->l->truncated = true;
		return MNL_CB_OK;
	}
	c->l->v[c->l->n++] = q;
	return MNL_CB_OK;
}

/* One class of an htb's class dump. */
static int class_cb(const struct nlmsghdr *nlh, void *data)
{
	struct qd_ctx *c = data;

	if (nlh->nlmsg_type != RTM_NEWTCLASS)
		return MNL_CB_OK;
	if (nl_parse_tclass(nlh, c->q) < 0) {
		c->err = errno;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

/* One dump of type (RTM_GETQDISC, RTM_GETTCLASS) for ifindex (0: all),
 * retried while the kernel marks it interrupted. */
static int qd_dump(int type, int ifindex, mnl_cb_t cb, struct qd_ctx *c)
{
	for (int tries = 0; tries < NL_DUMP_TRIES; tries++) {
		char buf[NL_REQ_SIZE];
		struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
		struct tcmsg *t;

		nlh->nlmsg_type = (unsigned short)type;
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		t = mnl_nlmsg_put_extra_header(nlh, sizeof(*t));
		t->tcm_family = AF_UNSPEC;
		t->tcm_ifindex = ifindex;
		c->err = 0;
		if (type == RTM_GETQDISC) {
			c->l->n = 0;
			c->l->truncated = false;
		} else {
			c->q->nclasses = 0;
			c->q->default_leaf = 0;
		}
		if (nl_request(nlh, cb, c) == 0)
			return 0;
		if (c->err != 0)
			errno = c->err;
		if (errno != EINTR)
			return -1;
	}
	return -1;
}

/* See qdisc.h. */
int qdisc_collect(struct qdisc_list *out)
{
	struct qd_ctx c = {.l = out};

	memset(out, 0, sizeof(*out));
	if (qd_dump(RTM_GETQDISC, 0, qdisc_cb, &c) < 0)
		return -1;
	for (size_t i = 0; i < out->n; i++) {
		struct qdisc_info *q = &out->v[i];

		if (q->ifindex <= 0 ||
		    if_indextoname((unsigned)q->ifindex, q->ifname) == NULL)
			q->ifname[0] = '\0';
		if (!q->htb)
			continue;
		c.q = q;
		/* a class dump the kernel refuses leaves the class unread */
		if (qd_dump(RTM_GETTCLASS, q->ifindex, class_cb, &c) < 0)
			q->default_leaf = -1;
	}
	return 0;
}
