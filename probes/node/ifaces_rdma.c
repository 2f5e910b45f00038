/* netprobe ifaces' RDMA part: the map `ibdev2netdev` prints, each port's
 * state, link layer, rate and PCIe place, and the GID table in the shape
 * `show_gids` prints (non-empty entries only). */
#include <stdio.h>
#include <string.h>

#include "node/ifaces_rdma.h"

/* "::ffff:10.0.0.1"'s IPv4 text, or "" for any other GID. */
static void gid_v4(const unsigned char raw[16], char *buf, size_t len)
{
	static const unsigned char pfx[12] = {0, 0, 0, 0, 0,    0,
	                                      0, 0, 0, 0, 0xff, 0xff};

	if (memcmp(raw, pfx, 12) == 0)
		snprintf(buf, len, "%u.%u.%u.%u", raw[12], raw[13], raw[14],
		         raw[15]);
	else
		buf[0] = '\0';
}

/* Up/Down as ibdev2netdev words the port's state; then the GIDs. */
void ifaces_rdma_text(const struct rdma_info *in)
{
	static const unsigned char zero[16];
	bool any_gid = false;

	if (in->ndevs == 0) {
		if (in->pci_rdma_funcs > 0)
			printf("\nrdma: no device in this netns (%d Mellanox "
			       "PCI functions on the bus, netns mode %s)\n",
			       in->pci_rdma_funcs,
			       in->netns_mode == 0   ? "exclusive"
			       : in->netns_mode == 1 ? "shared"
			                             : "unknown");
		return;
	}
	printf("\nrdma (%s; netns mode %s; uverbs %d):\n",
	       in->from_netlink ? "netlink+sysfs" : "sysfs",
	       in->netns_mode == 1   ? "shared"
	       : in->netns_mode == 0 ? "exclusive"
	                             : "unknown",
	       in->nuverbs);
	for (int d = 0; d < in->ndevs; d++) {
		const struct rdma_dev *x = &in->devs[d];

		for (int i = 0; i < x->nports; i++) {
			const struct rdma_port *p = &x->ports[i];

			printf("  %s port %u ==> %s (%s)  %s %s %s, pci %s numa "
			       "%d%s\n",
			       x->name, p->num, p->netdev[0] ? p->netdev : "-",
			       p->state == 4 ? "Up" : "Down",
			       rdma_link_name(p->link),
			       p->state_str[0] ? p->state_str : "?",
			       p->rate[0] ? p->rate : "rate ?",
			       x->pci[0] ? x->pci : "?", x->numa,
			       p->netdev[0] && !p->netdev_here
			           ? " (netdev in another netns)"
			           : "");
			for (int g = 0; g < p->ngids; g++)
				any_gid |= memcmp(p->gids[g].raw, zero, 16) != 0;
		}
	}
	if (!any_gid)
		return;
	printf("\n  %-12s %4s %5s  %-39s  %-15s %-4s %s\n", "DEV", "PORT",
	       "INDEX", "GID", "IPv4", "VER", "DEV");
	for (int d = 0; d < in->ndevs; d++) {
		const struct rdma_dev *x = &in->devs[d];

		for (int i = 0; i < x->nports; i++) {
			const struct rdma_port *p = &x->ports[i];

			for (int g = 0; g < p->ngids; g++) {
				const struct rdma_gid *e = &p->gids[g];
				char v4[16];

				if (memcmp(e->raw, zero, 16) == 0)
					continue;
				gid_v4(e->raw, v4, sizeof(v4));
				printf("  %-12s %4u %5d  %-39s  %-15s %-4s %s\n",
				       x->name, p->num, e->index, e->text, v4,
				       e->type == RDMA_GID_ROCE_V2   ? "v2"
				       : e->type == RDMA_GID_ROCE_V1 ? "v1"
				       : e->type == RDMA_GID_IB      ? "IB"
				                                     : "?",
				       e->ndev);
			}
		}
	}
}
