/* What the rtnetlink suites (test_nl.c, test_nl_vxlan.c) share: link
 * messages built in memory with libmnl, their IFLA_LINKINFO nest, and
 * parsing one. */
#ifndef NP_TEST_NL_FX_H
#define NP_TEST_NL_FX_H

#include <check.h>
#include <stdbool.h>

#include <linux/if_arp.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "kernel/nl.h"

/* Room for any message the suites build. */
#define BUFSZ 2048

/* A RTM_NEWLINK header with name and flags; callers add attributes. */
static inline struct nlmsghdr *link_msg(char *buf, int index, const char *name,
                                        unsigned flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifm;

	nlh->nlmsg_type = RTM_NEWLINK;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_type = ARPHRD_ETHER;
	ifm->ifi_index = index;
	ifm->ifi_flags = flags;
	if (name != NULL)
		mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nlh;
}

/* IFLA_LINKINFO with the kind; returns the open IFLA_INFO_DATA nest (or
 * NULL when with_data is false, the linkinfo then already closed). */
static inline struct nlattr *put_kind(struct nlmsghdr *nlh, const char *kind,
                                      bool with_data, struct nlattr **li)
{
	*li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, kind);
	if (!with_data) {
		mnl_attr_nest_end(nlh, *li);
		return NULL;
	}
	return mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
}

/* Closes the IFLA_INFO_DATA nest data and the linkinfo li put_kind
 * opened. */
static inline void end_kind(struct nlmsghdr *nlh, struct nlattr *data,
                            struct nlattr *li)
{
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
}

/* Parses one link message and returns the last interface. */
static inline const struct iface *parse1(struct iface_list *l,
                                         struct nlmsghdr *nlh)
{
	ck_assert_int_eq(nl_parse_link(nlh, l), 0);
	return &l->v[l->n - 1];
}

#endif
