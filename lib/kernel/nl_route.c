/* Routes over rtnetlink: the `ip route get` question and the default
 * routes of the main table. */
#include "kernel/nl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/rtnetlink.h>

/* Address attribute to text; its length must match the family. */
static int addr_str(int family, const struct nlattr *a, char *buf, size_t len)
{
	size_t want = family == AF_INET ? 4 : 16;

	if (mnl_attr_get_payload_len(a) != want ||
	    inet_ntop(family, mnl_attr_get_payload(a), buf, (socklen_t)len) ==
	        NULL) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* RTA_VIA (a gateway of the other family, IPv4 over IPv6 next hop). */
static int via_str(const struct nlattr *a, char *buf, size_t len)
{
	const struct rtvia *v = mnl_attr_get_payload(a);
	size_t plen = mnl_attr_get_payload_len(a);

	if (plen < sizeof(*v) ||
	    (v->rtvia_family == AF_INET && plen < sizeof(*v) + 4) ||
	    (v->rtvia_family == AF_INET6 && plen < sizeof(*v) + 16) ||
	    (v->rtvia_family != AF_INET && v->rtvia_family != AF_INET6)) {
		errno = EINVAL;
		return -1;
	}
	inet_ntop(v->rtvia_family, v->rtvia_addr, buf, (socklen_t)len);
	return 0;
}

/* RTA_MULTIPATH: every next hop (ROUTE_NH_MAX at most) into out->nh;
 * the first stands for the route (its oif and gateway). */
static int parse_multipath(int family, const struct nlattr *mp,
                           struct route_info *out)
{
	const char *p = mnl_attr_get_payload(mp);
	size_t len = mnl_attr_get_payload_len(mp);

	out->nnh = 0;
	while (len > 0) {
		const struct rtnexthop *nh = (const struct rtnexthop *)p;
		const struct nlattr *tb[RTA_MAX + 1];
		struct route_nexthop *h = &out->nh[out->nnh];
		size_t step;

		if (len < sizeof(*nh) || nh->rtnh_len < sizeof(*nh) ||
		    nh->rtnh_len > len) {
			errno = EINVAL;
			return -1;
		}
		step = RTNH_ALIGN(nh->rtnh_len);
		if (nl_attr_table(p + RTNH_ALIGN(sizeof(*nh)),
		                  nh->rtnh_len - RTNH_ALIGN(sizeof(*nh)), tb,
		                  RTA_MAX, NULL) < 0)
			return -1;
		if (out->nnh < ROUTE_NH_MAX) {
			memset(h, 0, sizeof(*h));
			h->oif = nh->rtnh_ifindex;
			h->flags = nh->rtnh_flags;
			if (tb[RTA_GATEWAY] &&
			    addr_str(family, tb[RTA_GATEWAY], h->gateway,
			             sizeof(h->gateway)) < 0)
				return -1;
			if (tb[RTA_VIA] &&
			    via_str(tb[RTA_VIA], h->gateway,
			            sizeof(h->gateway)) < 0)
				return -1;
			out->nnh++;
		}
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	if (out->nnh == 0) {
		errno = EINVAL;
		return -1;
	}
	out->oif = out->nh[0].oif;
	memcpy(out->gateway, out->nh[0].gateway, sizeof(out->gateway));
	return 0;
}

/* One RTM_NEWROUTE message; out_interface is left for the caller, which
 * knows whether names can be asked for (if_indextoname). */
int nl_parse_route(const struct nlmsghdr *nlh, struct route_info *out)
{
	static const enum mnl_attr_data_type t[RTA_MAX + 1] = {
	    [RTA_OIF] = MNL_TYPE_U32,
	    [RTA_PRIORITY] = MNL_TYPE_U32,
	    [RTA_TABLE] = MNL_TYPE_U32,
	    [RTA_METRICS] = MNL_TYPE_NESTED,
	};
	const struct nlattr *tb[RTA_MAX + 1];
	const struct rtmsg *rtm;
	struct route_info r;
	unsigned full;

	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*rtm) ||
	    nlh->nlmsg_type != RTM_NEWROUTE)
		goto bad;
	rtm = mnl_nlmsg_get_payload(nlh);
	if (rtm->rtm_family != AF_INET && rtm->rtm_family != AF_INET6)
		goto bad;
	full = rtm->rtm_family == AF_INET ? 32 : 128;
	if (rtm->rtm_dst_len > full)
		goto bad;
	if (nl_attr_table(mnl_nlmsg_get_payload_offset(nlh, sizeof(*rtm)),
	                  nlh->nlmsg_len - MNL_NLMSG_HDRLEN -
	                      MNL_ALIGN(sizeof(*rtm)),
	                  tb, RTA_MAX, t) < 0)
		goto bad;
	memset(&r, 0, sizeof(r));
	r.family = rtm->rtm_family;
	r.table = rtm->rtm_table;
	r.type = rtm->rtm_type;
	if (tb[RTA_TABLE])
		r.table = (int)mnl_attr_get_u32(tb[RTA_TABLE]);
	if (tb[RTA_DST]) {
		char a[INET6_ADDRSTRLEN];

		if (addr_str(r.family, tb[RTA_DST], a, sizeof(a)) < 0)
			goto bad;
		snprintf(r.destination, sizeof(r.destination), "%s/%u", a,
		         rtm->rtm_dst_len);
	} else if (rtm->rtm_dst_len == 0) {
		snprintf(r.destination, sizeof(r.destination), "default");
	} else {
		goto bad;
	}
	if (tb[RTA_OIF])
		r.oif = (int)mnl_attr_get_u32(tb[RTA_OIF]);
	if (tb[RTA_PREFSRC] &&
	    addr_str(r.family, tb[RTA_PREFSRC], r.source, sizeof(r.source)) < 0)
		goto bad;
	if (tb[RTA_GATEWAY] && addr_str(r.family, tb[RTA_GATEWAY], r.gateway,
	                                sizeof(r.gateway)) < 0)
		goto bad;
	if (tb[RTA_VIA] &&
	    via_str(tb[RTA_VIA], r.gateway, sizeof(r.gateway)) < 0)
		goto bad;
	if (tb[RTA_MULTIPATH] && r.oif == 0 &&
	    parse_multipath(r.family, tb[RTA_MULTIPATH], &r) < 0)
		goto bad;
	if (tb[RTA_PRIORITY])
		r.metric = (int)mnl_attr_get_u32(tb[RTA_PRIORITY]);
	if (tb[RTA_METRICS]) {
		const struct nlattr *mx[RTAX_MAX + 1];
		static const enum mnl_attr_data_type mt[RTAX_MAX + 1] = {
		    [RTAX_MTU] = MNL_TYPE_U32,
		};

		if (nl_attr_table(mnl_attr_get_payload(tb[RTA_METRICS]),
		                  mnl_attr_get_payload_len(tb[RTA_METRICS]), mx,
		                  RTAX_MAX, mt) < 0)
			goto bad;
		if (mx[RTAX_MTU])
			r.mtu = mnl_attr_get_u32(mx[RTAX_MTU]);
	}
	*out = r;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

struct get_ctx {
	struct route_info *out;
	int got, err;
};

/* The single RTM_NEWROUTE answer of a route get; the ACK ends it. */
static int get_cb(const struct nlmsghdr *nlh, void *data)
{
	struct get_ctx *c = data;

	if (nlh->nlmsg_type != RTM_NEWROUTE)
		return MNL_CB_OK;
	if (nl_parse_route(nlh, c->out) < 0) {
		c->err = errno;
		return MNL_CB_ERROR;
	}
	c->got = 1;
	return MNL_CB_OK;
}

/* Out interface name of a route; "" when the index is gone. */
static void fill_oif_name(struct route_info *r)
{
	if (r->oif <= 0 ||
	    if_indextoname((unsigned)r->oif, r->out_interface) == NULL)
		r->out_interface[0] = '\0';
}

/* NLM_F_ACK makes the kernel close the answer with an ACK, so the loop
 * knows when it is complete. src NULL: the kernel picks the source. */
static int route_ask(int family, const void *dst, const void *src,
                     struct route_info *out)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct get_ctx c = {.out = out};
	struct rtmsg *rtm;
	char a[INET6_ADDRSTRLEN];
	size_t alen = family == AF_INET ? 4 : 16;

	if (family != AF_INET && family != AF_INET6) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	nlh->nlmsg_type = RTM_GETROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (unsigned char)family;
	rtm->rtm_dst_len = (unsigned char)(alen * 8);
	/* the table the route came from (a policy rule's), not main's
	 * number for every answer (issue 31). IPv4 only: IPv6 answers with
	 * its table anyway, and under the strict check our socket asks for
	 * it refuses any flag but RTM_F_FIB_MATCH with EINVAL (issue 48) */
	if (family == AF_INET)
		rtm->rtm_flags = RTM_F_LOOKUP_TABLE;
	mnl_attr_put(nlh, RTA_DST, alen, dst);
	if (src != NULL) {
		rtm->rtm_src_len = (unsigned char)(alen * 8);
		mnl_attr_put(nlh, RTA_SRC, alen, src);
	}
	if (nl_request(nlh, get_cb, &c) < 0) {
		if (c.err != 0)
			errno = c.err;
		return -1;
	}
	if (!c.got) {
		errno = EHOSTUNREACH;
		return -1;
	}
	inet_ntop(family, dst, a, sizeof(a));
	snprintf(out->destination, sizeof(out->destination), "%s", a);
	fill_oif_name(out);
	return 0;
}

/* See nl.h. */
int route_get(int family, const void *dst, struct route_info *out)
{
	return route_ask(family, dst, NULL, out);
}

/* See nl.h. */
int route_get_src(int family, const void *dst, const void *src,
                  struct route_info *out)
{
	return route_ask(family, dst, src, out);
}

struct def_ctx {
	struct route_info *out;
	size_t max, n;
	int err;
};

/* Keeps unicast default routes of the main table. */
static int def_cb(const struct nlmsghdr *nlh, void *data)
{
	struct def_ctx *c = data;
	const struct rtmsg *rtm;
	struct route_info r;

	if (nlh->nlmsg_type != RTM_NEWROUTE)
		return MNL_CB_OK;
	if (nl_parse_route(nlh, &r) < 0) {
		c->err = errno;
		return MNL_CB_ERROR;
	}
	rtm = mnl_nlmsg_get_payload(nlh);
	if (rtm->rtm_dst_len != 0 || rtm->rtm_type != RTN_UNICAST ||
	    r.table != RT_TABLE_MAIN)
		return MNL_CB_OK;
	if (c->n < c->max) {
		fill_oif_name(&r);
		c->out[c->n++] = r;
	}
	return MNL_CB_OK;
}

/* Two dumps, IPv4 then IPv6. */
int route_defaults_live(struct route_info *out, size_t max, size_t *n)
{
	static const int fams[] = {AF_INET, AF_INET6};
	struct def_ctx c = {.out = out, .max = max};

	*n = 0;
	for (size_t i = 0; i < 2; i++) {
		char buf[NL_REQ_SIZE];
		struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
		struct rtmsg *rtm;

		nlh->nlmsg_type = RTM_GETROUTE;
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
		rtm->rtm_family = (unsigned char)fams[i];
		/* With strict checking the kernel dumps only the main table
		 * (not the local one, a route per address); def_cb filters
		 * again for kernels without it. */
		rtm->rtm_table = RT_TABLE_MAIN;
		mnl_attr_put_u32(nlh, RTA_TABLE, RT_TABLE_MAIN);
		for (int tries = 0;; tries++) {
			size_t before = c.n;

			c.err = 0;
			if (nl_request(nlh, def_cb, &c) == 0)
				break;
			if (c.err != 0)
				errno = c.err;
			if (errno != EINTR || tries + 1 >= NL_DUMP_TRIES)
				return -1;
			c.n = before; /* interrupted: dump this family again */
		}
	}
	*n = c.n;
	return 0;
}
