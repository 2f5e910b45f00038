/* IPsec policies and states over NETLINK_XFRM (xfrm.h): the two dumps
 * iproute2's ip xfrm policy and ip xfrm state show, parsed from their
 * fixed structures and the template attribute. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/xfrm.h>

#include "kernel/nl.h"
#include "kernel/xfrm.h"

/* The address of family fam (4 or 16 bytes of x) into out. */
static void addr_copy(unsigned char *out, const xfrm_address_t *x, int fam)
{
	memset(out, 0, 16);
	memcpy(out, x, fam == AF_INET6 ? 16 : 4);
}

/* A NEWPOLICY message's policy into db. */
static int add_policy(const struct nlmsghdr *nlh, struct xfrm_db *db)
{
	const struct xfrm_userpolicy_info *pi = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;
	struct xf_policy *p;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*pi)) {
		errno = EINVAL;
		return -1;
	}
	/* per-socket policies (dir >= XFRM_POLICY_MAX) are a program's */
	if (pi->dir >= XFRM_POLICY_MAX)
		return 0;
	if (db->np == XF_MAX) {
		db->truncated = true;
		return 0;
	}
	p = &db->p[db->np++];
	memset(p, 0, sizeof(*p));
	p->dir = pi->dir;
	p->action = pi->action;
	p->index = pi->index;
	p->priority = pi->priority;
	p->src.family = p->dst.family = pi->sel.family;
	addr_copy(p->src.a, &pi->sel.saddr, pi->sel.family);
	addr_copy(p->dst.a, &pi->sel.daddr, pi->sel.family);
	p->src.plen = pi->sel.prefixlen_s;
	p->dst.plen = pi->sel.prefixlen_d;
	p->narrow = pi->sel.proto != 0 || pi->sel.dport_mask != 0 ||
	            pi->sel.sport_mask != 0 || pi->sel.ifindex != 0;
	mnl_attr_for_each(a, nlh, sizeof(*pi)) {
		const struct xfrm_user_tmpl *t;
		size_t n;

		if (mnl_attr_get_type(a) != XFRMA_TMPL)
			continue;
		t = mnl_attr_get_payload(a);
		n = mnl_attr_get_payload_len(a) / sizeof(*t);
		for (size_t i = 0; i < n; i++) {
			struct xf_tmpl *k;

			if (p->nt == XF_TMPL) {
				p->tmpl_truncated = true;
				break;
			}
			k = &p->t[p->nt++];
			k->family = t[i].family ? t[i].family : pi->sel.family;
			addr_copy(k->daddr, &t[i].id.daddr, k->family);
			addr_copy(k->saddr, &t[i].saddr, k->family);
			k->proto = t[i].id.proto;
			k->mode = t[i].mode;
			k->reqid = t[i].reqid;
			k->optional = t[i].optional != 0;
		}
	}
	return 0;
}

/* A NEWSA message's state into db. */
static int add_state(const struct nlmsghdr *nlh, struct xfrm_db *db)
{
	const struct xfrm_usersa_info *si = mnl_nlmsg_get_payload(nlh);
	struct xf_state *s;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*si)) {
		errno = EINVAL;
		return -1;
	}
	if (db->ns == XF_MAX) {
		db->truncated = true;
		return 0;
	}
	s = &db->s[db->ns++];
	memset(s, 0, sizeof(*s));
	s->family = si->family;
	addr_copy(s->daddr, &si->id.daddr, si->family);
	addr_copy(s->saddr, &si->saddr, si->family);
	s->proto = si->id.proto;
	s->mode = si->mode;
	s->reqid = si->reqid;
	s->spi = ntohl(si->id.spi);
	return 0;
}

/* See xfrm.h. */
int xfrm_parse_msg(const struct nlmsghdr *nlh, struct xfrm_db *db)
{
	if (nlh->nlmsg_type == XFRM_MSG_NEWPOLICY)
		return add_policy(nlh, db);
	if (nlh->nlmsg_type == XFRM_MSG_NEWSA)
		return add_state(nlh, db);
	return 0;
}

/* mnl callback: one dumped message into the db. */
static int dump_cb(const struct nlmsghdr *nlh, void *data)
{
	return xfrm_parse_msg(nlh, data) < 0 ? MNL_CB_ERROR : MNL_CB_OK;
}

/* One dump of type (XFRM_MSG_GETPOLICY or GETSA) into db. */
static int dump(struct xfrm_db *db, unsigned type)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *req = mnl_nlmsg_put_header(buf);

	req->nlmsg_type = (unsigned short)type;
	req->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	return nl_request_bus(NETLINK_XFRM, req, dump_cb, db);
}

/* See xfrm.h. */
int xfrm_collect(struct xfrm_db *db)
{
	memset(db, 0, sizeof(*db));
	if (dump(db, XFRM_MSG_GETPOLICY) < 0 || dump(db, XFRM_MSG_GETSA) < 0)
		return -1;
	db->read = true;
	return 0;
}

/* See xfrm.h. */
const char *xfrm_addr_text(int family, const unsigned char *a, char *buf,
                           size_t len)
{
	if (inet_ntop(family == AF_INET6 ? AF_INET6 : AF_INET, a, buf,
	              (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
	return buf;
}
