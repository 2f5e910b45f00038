/* A vxlan's IFLA_INFO_DATA into struct iface (issue 48): its VNI, UDP
 * port, local and group address, underlay device, learning, proxy,
 * l2miss and l3miss, as `ip -d link show` prints them, so the report
 * can compare one overlay's devices across its members (a member on another VNI or port reaches
 * none of them; a proxy device with no entry for a peer's address
 * swallows the ARP for it). */
#include "kernel/nl.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/if_link.h>

/* An address attribute of len bytes (4: IPv4, 16: IPv6) as text into out
 * ("" for the unspecified address); -1 with EINVAL for another size. */
static int addr_text(const struct nlattr *a, size_t want, char *out,
                     size_t len)
{
	static const unsigned char zero[16];
	const void *p = mnl_attr_get_payload(a);

	if (mnl_attr_get_payload_len(a) != want) {
		errno = EINVAL;
		return -1;
	}
	out[0] = '\0';
	if (memcmp(p, zero, want) == 0)
		return 0;
	if (inet_ntop(want == 4 ? AF_INET : AF_INET6, p, out,
	              (socklen_t)len) == NULL) {
		out[0] = '\0';
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* See nl.h. */
int nl_parse_vxlan(const struct nlattr *data, struct iface *ifc)
{
	enum mnl_attr_data_type t[IFLA_VXLAN_LOCAL6 + 1] = {0};
	const struct nlattr *tb[IFLA_VXLAN_LOCAL6 + 1];

	t[IFLA_VXLAN_ID] = MNL_TYPE_U32;
	t[IFLA_VXLAN_LINK] = MNL_TYPE_U32;
	t[IFLA_VXLAN_PORT] = MNL_TYPE_U16;
	t[IFLA_VXLAN_LEARNING] = MNL_TYPE_U8;
	t[IFLA_VXLAN_PROXY] = MNL_TYPE_U8;
	t[IFLA_VXLAN_L2MISS] = MNL_TYPE_U8;
	t[IFLA_VXLAN_L3MISS] = MNL_TYPE_U8;
	if (nl_attr_table(mnl_attr_get_payload(data),
	                  mnl_attr_get_payload_len(data), tb,
	                  IFLA_VXLAN_LOCAL6, t) < 0)
		return -1;
	if (tb[IFLA_VXLAN_ID])
		ifc->vxlan_id = mnl_attr_get_u32(tb[IFLA_VXLAN_ID]);
	if (tb[IFLA_VXLAN_LINK])
		ifc->vxlan_link = (int)mnl_attr_get_u32(tb[IFLA_VXLAN_LINK]);
	/* the kernel keeps the port in network order */
	if (tb[IFLA_VXLAN_PORT])
		ifc->vxlan_port = ntohs(mnl_attr_get_u16(tb[IFLA_VXLAN_PORT]));
	if (tb[IFLA_VXLAN_LEARNING])
		ifc->vxlan_learning =
		    mnl_attr_get_u8(tb[IFLA_VXLAN_LEARNING]) != 0;
	if (tb[IFLA_VXLAN_PROXY])
		ifc->vxlan_proxy = mnl_attr_get_u8(tb[IFLA_VXLAN_PROXY]) != 0;
	if (tb[IFLA_VXLAN_L2MISS])
		ifc->vxlan_l2miss = mnl_attr_get_u8(tb[IFLA_VXLAN_L2MISS]) != 0;
	if (tb[IFLA_VXLAN_L3MISS])
		ifc->vxlan_l3miss = mnl_attr_get_u8(tb[IFLA_VXLAN_L3MISS]) != 0;
	if ((tb[IFLA_VXLAN_LOCAL] &&
	     addr_text(tb[IFLA_VXLAN_LOCAL], 4, ifc->vxlan_local,
	               sizeof(ifc->vxlan_local)) < 0) ||
	    (tb[IFLA_VXLAN_GROUP] &&
	     addr_text(tb[IFLA_VXLAN_GROUP], 4, ifc->vxlan_group,
	               sizeof(ifc->vxlan_group)) < 0))
		return -1;
	/* the IPv6 ones where the IPv4 ones are absent or unspecified */
	if ((tb[IFLA_VXLAN_LOCAL6] && ifc->vxlan_local[0] == '\0' &&
	     addr_text(tb[IFLA_VXLAN_LOCAL6], 16, ifc->vxlan_local,
	               sizeof(ifc->vxlan_local)) < 0) ||
	    (tb[IFLA_VXLAN_GROUP6] && ifc->vxlan_group[0] == '\0' &&
	     addr_text(tb[IFLA_VXLAN_GROUP6], 16, ifc->vxlan_group,
	               sizeof(ifc->vxlan_group)) < 0))
		return -1;
	return 0;
}
