/* The routing tables' own entry for an address (issue 48): which route of
 * the tables holds a peer, with its type (a blackhole, unreachable or
 * prohibit route answers `ip route get` with an errno only) and every next
 * hop of a multipath route (the lookup names the one it chose). */
#include "kernel/nl.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <linux/rtnetlink.h>

struct cover_ctx {
	int family, table, type;
	unsigned char addr[16];
	struct route_info *out;
	int best_len, best_metric, found, err;
};

/* True when the first len bits of a and p agree. */
static bool prefix_holds(const unsigned char *a, const unsigned char *p,
                         int len)
{
	for (int b = 0; b < len; b++)
		if (((a[b / 8] ^ p[b / 8]) >> (7 - b % 8)) & 1)
			return false;
	return true;
}

/* One route of the dump: kept when it holds the address and beats the
 * best so far (a longer prefix, else a lower metric). */
static int cover_cb(const struct nlmsghdr *nlh, void *data)
{
	struct cover_ctx *c = data;
	const struct rtmsg *rtm;
	struct route_info r;
	unsigned char p[16] = {0};
	char net[INET6_ADDRSTRLEN + 4], *sl;

	if (nlh->nlmsg_type != RTM_NEWROUTE)
		return MNL_CB_OK;
	if (nl_parse_route(nlh, &r) < 0) {
		c->err = errno;
		return MNL_CB_ERROR;
	}
	rtm = mnl_nlmsg_get_payload(nlh);
	if (r.family != c->family || r.table == RT_TABLE_LOCAL ||
	    rtm->rtm_type == RTN_LOCAL || rtm->rtm_type == RTN_BROADCAST ||
	    rtm->rtm_type == RTN_MULTICAST || rtm->rtm_type == RTN_ANYCAST ||
	    (c->table >= 0 && r.table != c->table) ||
	    (c->type > 0 && rtm->rtm_type != c->type))
		return MNL_CB_OK;
	if (strcmp(r.destination, "default") != 0) {
		snprintf(net, sizeof(net), "%s", r.destination);
		if ((sl = strchr(net, '/')) != NULL)
			*sl = '\0';
		if (inet_pton(c->family, net, p) != 1)
			return MNL_CB_OK;
	}
	if (!prefix_holds(c->addr, p, rtm->rtm_dst_len) ||
	    (int)rtm->rtm_dst_len < c->best_len ||
	    ((int)rtm->rtm_dst_len == c->best_len &&
	     r.metric >= c->best_metric))
		return MNL_CB_OK;
	c->best_len = rtm->rtm_dst_len;
	c->best_metric = r.metric;
	*c->out = r;
	c->found = 1;
	return MNL_CB_OK;
}

/* See nl.h. */
int route_covering(int family, const void *dst, int table, int type,
                   struct route_info *out)
{
	struct cover_ctx c = {.family = family, .table = table, .type = type,
	                      .out = out};

	if (family != AF_INET && family != AF_INET6) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	memcpy(c.addr, dst, family == AF_INET ? 4 : 16);
	for (int tries = 0; tries < NL_DUMP_TRIES; tries++) {
		char buf[NL_REQ_SIZE];
		struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
		struct rtmsg *rtm;

		nlh->nlmsg_type = RTM_GETROUTE;
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
		rtm->rtm_family = (unsigned char)family;
		c.best_len = -1;
		c.best_metric = 0;
		c.found = 0;
		c.err = 0;
		if (nl_request(nlh, cover_cb, &c) == 0)
			break;
		if (c.err != 0)
			errno = c.err;
		if (errno != EINTR || tries + 1 >= NL_DUMP_TRIES)
			return -1;
	}
	if (!c.found)
		return 0;
	if (out->oif <= 0 ||
	    if_indextoname((unsigned)out->oif, out->out_interface) == NULL)
		out->out_interface[0] = '\0';
	for (size_t i = 0; i < out->nnh; i++)
		if (out->nh[i].oif <= 0 ||
		    if_indextoname((unsigned)out->nh[i].oif,
		                   out->nh[i].ifname) == NULL)
			out->nh[i].ifname[0] = '\0';
	return 1;
}

/* See nl.h. */
const char *route_type_name(int type)
{
	switch (type) {
	case RTN_UNICAST:
		return "unicast";
	case RTN_BLACKHOLE:
		return "blackhole";
	case RTN_UNREACHABLE:
		return "unreachable";
	case RTN_PROHIBIT:
		return "prohibit";
	case RTN_THROW:
		return "throw";
	default:
		return NULL;
	}
}
