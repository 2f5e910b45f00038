/* The kernel's view of this node, live or recorded: rtnetlink dumps and
 * sysfs on the live system, the replay of /sys and /proc otherwise. The
 * one place that picks between them, so the parsers and the replay never
 * call each other. */
#include "kernel/nl.h"

#include <errno.h>

#include <linux/rtnetlink.h>

struct collect_ctx {
	struct iface_list *l;
	int err;
};

/* Dump callbacks: a malformed message fails the whole collection rather
 * than listing a half-read interface. */
static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	struct collect_ctx *c = data;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return MNL_CB_OK;
	if (nl_parse_link(nlh, c->l) < 0) {
		c->err = errno;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

/* Same for RTM_NEWADDR. */
static int addr_cb(const struct nlmsghdr *nlh, void *data)
{
	struct collect_ctx *c = data;

	if (nlh->nlmsg_type != RTM_NEWADDR)
		return MNL_CB_OK;
	if (nl_parse_addr(nlh, c->l) < 0) {
		c->err = errno;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

/* One dump request of the given type and family into the list. */
static int dump(int type, struct collect_ctx *c)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = (uint16_t)type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	if (type == RTM_GETLINK) {
		struct ifinfomsg *ifm =
		    mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));

		ifm->ifi_family = AF_UNSPEC;
		/* Statistics are most of a link message's bytes. */
		mnl_attr_put_u32(nlh, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
	} else {
		struct ifaddrmsg *ifa =
		    mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));

		ifa->ifa_family = AF_UNSPEC;
	}
	c->err = 0;
	if (nl_request(nlh, type == RTM_GETLINK ? link_cb : addr_cb, c) < 0) {
		if (c->err != 0)
			errno = c->err;
		return -1;
	}
	return 0;
}

/* Live: two dumps and sysfs; recorded: replay. A dump the kernel marks
 * interrupted (NLM_F_DUMP_INTR: links or addresses changed meanwhile;
 * libmnl reports EINTR) is started again, at most NL_DUMP_TRIES times. */
int iface_collect(struct iface_list *out, const struct sysroot *sr)
{
	struct collect_ctx c = {.l = out};
	int saved = 0;

	if (!sysroot_is_live(sr))
		return iface_replay(out, sr);
	for (int tries = 0; tries < NL_DUMP_TRIES; tries++) {
		if (dump(RTM_GETLINK, &c) == 0) {
			iface_list_finish(out);
			if (dump(RTM_GETADDR, &c) == 0) {
				iface_sysfs_fill(out, sr);
				return 0;
			}
		}
		saved = errno;
		iface_list_free(out);
		if (saved != EINTR)
			break;
	}
	errno = saved;
	return -1;
}

/* Live: two netlink dumps (IPv4, IPv6); recorded: /proc/net/route and
 * /proc/net/ipv6_route. */
int route_defaults(const struct sysroot *sr, struct route_info *out, size_t max,
                   size_t *n)
{
	if (!sysroot_is_live(sr))
		return route_defaults_replay(sr, out, max, n);
	return route_defaults_live(out, max, n);
}
