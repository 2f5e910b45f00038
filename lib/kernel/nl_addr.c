/* RTM_NEWADDR messages into the addresses of the interfaces already
 * listed, in the kernel's dump order. */
#include "kernel/nl.h"

#include <errno.h>
#include <string.h>

#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

/* IFA_LOCAL is this end's address on point-to-point links, where
 * IFA_ADDRESS is the peer; elsewhere both are equal or only IFA_ADDRESS is
 * sent (IPv6). An address of an unlisted interface (it appeared between
 * the two dumps) or beyond IFACE_MAX_ADDRS is skipped, not an error. */
int nl_parse_addr(const struct nlmsghdr *nlh, struct iface_list *l)
{
	const struct nlattr *tb[IFA_MAX + 1];
	const struct ifaddrmsg *ifa;
	const struct nlattr *a;
	struct iface *ifc;
	size_t want;

	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*ifa) ||
	    nlh->nlmsg_type != RTM_NEWADDR)
		goto bad;
	ifa = mnl_nlmsg_get_payload(nlh);
	if (nl_attr_table(mnl_nlmsg_get_payload_offset(nlh, sizeof(*ifa)),
	                  nlh->nlmsg_len - MNL_NLMSG_HDRLEN -
	                      MNL_ALIGN(sizeof(*ifa)),
	                  tb, IFA_MAX, NULL) < 0)
		goto bad;
	if (ifa->ifa_family == AF_INET)
		want = 4;
	else if (ifa->ifa_family == AF_INET6)
		want = 16;
	else
		return 0; /* other families carry no IP address */
	if (ifa->ifa_prefixlen > want * 8)
		goto bad;
	a = tb[IFA_LOCAL] ? tb[IFA_LOCAL] : tb[IFA_ADDRESS];
	if (a == NULL || mnl_attr_get_payload_len(a) != want)
		goto bad;
	ifc = iface_find_index(l, (int)ifa->ifa_index);
	if (ifc == NULL || ifc->naddrs >= IFACE_MAX_ADDRS)
		return 0;
	if (iface_add_addr(ifc, ifa->ifa_family, mnl_attr_get_payload(a),
	                   ifa->ifa_prefixlen, ifa->ifa_scope) < 0)
		return -1;
	/* an IPv4 alias: getifaddrs names the address by its label */
	if (ifa->ifa_family == AF_INET && tb[IFA_LABEL] != NULL &&
	    mnl_attr_get_payload_len(tb[IFA_LABEL]) > 0) {
		struct iface_addr *x = &ifc->addrs[ifc->naddrs - 1];
		size_t n = strnlen(mnl_attr_get_payload(tb[IFA_LABEL]),
		                   mnl_attr_get_payload_len(tb[IFA_LABEL]));

		if (n < sizeof(x->label) &&
		    (strlen(ifc->name) != n ||
		     strncmp(ifc->name, mnl_attr_get_payload(tb[IFA_LABEL]),
		             n) != 0)) {
			memcpy(x->label, mnl_attr_get_payload(tb[IFA_LABEL]),
			       n);
			x->label[n] = '\0';
		}
	}
	return 0;
bad:
	errno = EINVAL;
	return -1;
}
