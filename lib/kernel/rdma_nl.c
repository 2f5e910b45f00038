/* RDMA netlink (NETLINK_RDMA, client RDMA_NL_NLDEV): the messages `rdma
 * dev`, `rdma link` and `rdma system` use. The parser is fed bytes, so
 * tests build messages in memory; the dump loop is bounded. */
#include "kernel/rdma.h"
#include "kernel/nl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>


/* Attribute table callback: keeps types within the table. */
static int rdma_attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(a);

	if (type < 0 || type >= RDMA_NLDEV_ATTR_MAX)
		return MNL_CB_OK;
	tb[type] = a;
	return MNL_CB_OK;
}

/* Copies a string attribute that the kernel NUL-terminates. */
static void attr_str(const struct nlattr *a, char *dst, size_t n)
{
	size_t len = mnl_attr_get_payload_len(a);
	const char *s = mnl_attr_get_payload(a);

	if (len >= n)
		len = n - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/* Each attribute's size is checked before it is read. */
int rdma_nl_parse(const void *msg, size_t len, struct rdma_nl_rec *r)
{
	const struct nlmsghdr *nlh = msg;
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = {0};
	static const struct {
		int attr;
		size_t size;
	} sizes[] = {{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
	             {RDMA_NLDEV_ATTR_PORT_INDEX, 4},
	             {RDMA_NLDEV_ATTR_NODE_GUID, 8},
	             {RDMA_NLDEV_ATTR_PORT_STATE, 1},
	             {RDMA_NLDEV_ATTR_PORT_PHYS_STATE, 1},
	             {RDMA_NLDEV_ATTR_NDEV_INDEX, 4},
	             {RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1}};

	memset(r, 0, sizeof(*r));
	r->port_state = r->phys_state = r->netns_mode = -1;
	if (len < sizeof(*nlh) || nlh->nlmsg_len > len ||
	    !mnl_nlmsg_ok(nlh, (int)len) ||
	    RDMA_NL_GET_CLIENT(nlh->nlmsg_type) != RDMA_NL_NLDEV) {
		errno = EINVAL;
		return -1;
	}
	r->cmd = RDMA_NL_GET_OP(nlh->nlmsg_type);
	if (mnl_attr_parse(nlh, 0, rdma_attr_cb, tb) < 0) {
		errno = EINVAL;
		return -1;
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (tb[sizes[i].attr] != NULL &&
		    mnl_attr_get_payload_len(tb[sizes[i].attr]) <
		        sizes[i].size) {
			errno = EINVAL;
			return -1;
		}
	if (tb[RDMA_NLDEV_ATTR_DEV_INDEX])
		r->dev_index = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	if (tb[RDMA_NLDEV_ATTR_DEV_NAME])
		attr_str(tb[RDMA_NLDEV_ATTR_DEV_NAME], r->dev_name,
		         sizeof(r->dev_name));
	if (tb[RDMA_NLDEV_ATTR_PORT_INDEX]) {
		unsigned p = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);

		/* CMD_GET carries the port count in the same attribute */
		if (r->cmd == RDMA_NLDEV_CMD_GET)
			r->nports = p;
		else
			r->port = p;
	}
	if (tb[RDMA_NLDEV_ATTR_NODE_GUID]) {
		r->node_guid = mnl_attr_get_u64(tb[RDMA_NLDEV_ATTR_NODE_GUID]);
		r->has_guid = true;
	}
	if (tb[RDMA_NLDEV_ATTR_PORT_STATE])
		r->port_state = mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_PORT_STATE]);
	if (tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE])
		r->phys_state =
		    mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]);
	if (tb[RDMA_NLDEV_ATTR_NDEV_INDEX])
		r->ndev_index = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_NDEV_INDEX]);
	if (tb[RDMA_NLDEV_ATTR_NDEV_NAME])
		attr_str(tb[RDMA_NLDEV_ATTR_NDEV_NAME], r->ndev_name,
		         sizeof(r->ndev_name));
	if (tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE])
		r->netns_mode =
		    mnl_attr_get_u8(tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]);
	return 0;
}

/* The device of that name, added when new; NULL when the table is
 * full. */
static struct rdma_dev *dev_get(struct rdma_info *info, const char *name)
{
	struct rdma_dev *d;

	for (int i = 0; i < info->ndevs; i++)
		if (strcmp(info->devs[i].name, name) == 0)
			return &info->devs[i];
	if (info->ndevs >= RDMA_MAX_DEVS)
		return NULL;
	d = &info->devs[info->ndevs++];
	memset(d, 0, sizeof(*d));
	d->numa = -1;
	nl_copy(d->name, sizeof(d->name), name);
	return d;
}

/* A port record fills the state and netdev the kernel gives; the
 * netdev is there only when it is in this netns (fill_port_info). */
int rdma_nl_merge(struct rdma_info *info, const struct rdma_nl_rec *r)
{
	struct rdma_dev *d;
	struct rdma_port *p = NULL;

	if (r->netns_mode >= 0) {
		info->netns_mode = r->netns_mode;
		snprintf(info->netns_from, sizeof(info->netns_from),
		         "RDMA netlink (rdma system)");
	}
	if (r->dev_name[0] == '\0')
		return 0;
	d = dev_get(info, r->dev_name);
	if (d == NULL)
		return -1;
	d->index = r->dev_index;
	if (r->has_guid) {
		uint64_t g = r->node_guid;

		snprintf(d->node_guid, sizeof(d->node_guid),
		         "%04x:%04x:%04x:%04x", (unsigned)(g >> 48) & 0xffff,
		         (unsigned)(g >> 32) & 0xffff,
		         (unsigned)(g >> 16) & 0xffff, (unsigned)g & 0xffff);
	}
	if (r->port == 0)
		return 0;
	for (int i = 0; i < d->nports; i++)
		if (d->ports[i].num == r->port)
			p = &d->ports[i];
	if (p == NULL) {
		if (d->nports >= RDMA_MAX_PORTS)
			return -1;
		p = &d->ports[d->nports++];
		memset(p, 0, sizeof(*p));
		p->num = r->port;
		p->state = p->phys_state = -1;
	}
	if (r->port_state >= 0)
		p->state = r->port_state;
	if (r->phys_state >= 0)
		p->phys_state = r->phys_state;
	if (r->ndev_name[0] != '\0') {
		nl_copy(p->netdev, sizeof(p->netdev), r->ndev_name);
		p->netdev_here = true;
	}
	return 0;
}

struct nl_ctx {
	struct rdma_info *info;
	int full;
};

/* Each answer is parsed and merged; a malformed one stops the dump. */
static int rdma_nl_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_ctx *c = data;
	struct rdma_nl_rec r;

	if (rdma_nl_parse(nlh, nlh->nlmsg_len, &r) < 0)
		return MNL_CB_ERROR;
	if (rdma_nl_merge(c->info, &r) < 0)
		c->full = 1;
	return MNL_CB_OK;
}

/* One request over its own socket (nl_request_bus: every read bounded
 * by a 2 s timeout, the loop in messages and in time). */
static int rdma_nl_request(int cmd, bool dump, struct nl_ctx *c)
{
	union {
		struct nlmsghdr h;
		char b[MNL_NLMSG_HDRLEN];
	} req;
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(req.b);

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
	return nl_request_bus(NETLINK_RDMA, nlh, rdma_nl_cb, c);
}

/* Devices first (names, GUIDs), then ports (state, netdev); the netns
 * mode is asked last and may be missing on kernels before 5.2. */
int rdma_nl_collect(struct rdma_info *info)
{
	struct nl_ctx c = {.info = info};

	if (rdma_nl_request(RDMA_NLDEV_CMD_GET, true, &c) < 0 ||
	    rdma_nl_request(RDMA_NLDEV_CMD_PORT_GET, true, &c) < 0)
		return -1;
	(void)rdma_nl_request(RDMA_NLDEV_CMD_SYS_GET, false, &c);
	info->from_netlink = true;
	return 0;
}
