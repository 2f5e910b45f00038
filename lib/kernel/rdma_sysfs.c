/* One RDMA device's facts from /sys/class/infiniband/DEV (the kernel's
 * Documentation/ABI/stable/sysfs-class-infiniband): ports, state, link
 * layer, rate, the GID table with each entry's type and netdev, the
 * netdev ibdev2netdev prints, and the device's PCI path and NUMA node. */
#include "kernel/rdma.h"
#include "kernel/nl.h"
#include "base/sysroot.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "4: ACTIVE" into 4 and "ACTIVE". */
static void read_state(const struct sysroot *sr, const char *path, int *num,
                       char *word, size_t len)
{
	char line[64], *colon;

	if (sysroot_read_line(sr, path, line, sizeof(line)) < 0)
		return;
	*num = atoi(line);
	colon = strchr(line, ':');
	nl_copy(word, len, colon != NULL ? colon + 1 + (colon[1] == ' ')
	                                 : line);
}

/* Decodes eight groups of hex digits separated by ':'. */
static int rdma_gid_parse(const char *text, unsigned char raw[16])
{
	unsigned v[8];
	int n = 0;

	if (sscanf(text, "%4x:%4x:%4x:%4x:%4x:%4x:%4x:%4x%n", &v[0], &v[1],
	           &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &n) != 8 ||
	    text[n] != '\0')
		return -1;
	for (int i = 0; i < 8; i++) {
		raw[2 * i] = (unsigned char)(v[i] >> 8);
		raw[2 * i + 1] = (unsigned char)(v[i] & 0xff);
	}
	return 0;
}

/* include/rdma/ib_addr.h iboe_get_mtu: the netdev MTU less the RoCE v2
 * headers (GRH 40, UDP 8, BTH 12, XRC 4, AtomicETH 28, ICRC 4), rounded
 * down to an IB MTU. */
int rdma_iboe_mtu(unsigned netdev_mtu)
{
	int m = (int)netdev_mtu - 96;

	for (int ib = 4096; ib >= 256; ib /= 2)
		if (m >= ib)
			return ib;
	return 0;
}

/* "IB/RoCE v1" is RoCE v1 on Ethernet and plain IB on InfiniBand
 * (NCCL's ncclIbRoceGetVersionNum reads the same words). */
static enum rdma_gid_type gid_type(const char *s, enum rdma_link link)
{
	if (strncmp(s, "RoCE v2", 7) == 0)
		return RDMA_GID_ROCE_V2;
	if (strncmp(s, "IB/RoCE v1", 10) == 0 || strncmp(s, "RoCE v1", 7) == 0)
		return link == RDMA_LINK_IB ? RDMA_GID_IB : RDMA_GID_ROCE_V1;
	return RDMA_GID_UNKNOWN;
}

/* Counts gids/ entries: the port's gid_tbl_len. */
static int count_gids(const struct sysroot *sr, const char *dir)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *dp;
	int n = 0;

	if (sysroot_path(sr, dir, path, sizeof(path)) < 0 ||
	    (dp = opendir(path)) == NULL)
		return 0;
	while ((e = readdir(dp)) != NULL && n < 4096)
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			n++;
	closedir(dp);
	return n;
}

/* The first RDMA_MAX_GIDS entries; an all-zero entry is kept (it is
 * what ibv_query_gid returns for an empty slot). */
static void read_gids(const struct sysroot *sr, const char *base,
                      struct rdma_port *p)
{
	char path[PATH_MAX + 64], line[96];

	snprintf(path, sizeof(path), "%s/gids", base);
	p->gid_tbl_len = count_gids(sr, path);
	for (int i = 0; i < p->gid_tbl_len && i < RDMA_MAX_GIDS; i++) {
		struct rdma_gid *g = &p->gids[p->ngids++];

		memset(g, 0, sizeof(*g));
		g->index = i;
		snprintf(path, sizeof(path), "%s/gids/%d", base, i);
		if (sysroot_read_line(sr, path, line, sizeof(line)) >= 0 &&
		    rdma_gid_parse(line, g->raw) == 0)
			nl_copy(g->text, sizeof(g->text), line);
		snprintf(path, sizeof(path), "%s/gid_attrs/types/%d", base, i);
		if (sysroot_read_line(sr, path, line, sizeof(line)) >= 0)
			g->type = gid_type(line, p->link);
		snprintf(path, sizeof(path), "%s/gid_attrs/ndevs/%d", base, i);
		if (sysroot_read_line(sr, path, line, sizeof(line)) >= 0)
			nl_copy(g->ndev, sizeof(g->ndev), line);
	}
}

/* The port's netdev as ibdev2netdev finds it: the RoCE GID table's
 * netdev (a bond's too), else the PCI device's net/ entry whose dev_port
 * is the port less one (IPoIB). */
static void port_netdev(const struct sysroot *sr, const struct rdma_dev *d,
                        struct rdma_port *p)
{
	char path[PATH_MAX], sub[PATH_MAX + 300];
	struct dirent *e;
	DIR *dp;
	int guard = 0;

	for (int i = 0; i < p->ngids && p->netdev[0] == '\0'; i++)
		if (p->gids[i].ndev[0] != '\0')
			nl_copy(p->netdev, sizeof(p->netdev), p->gids[i].ndev);
	if (p->netdev[0] == '\0') {
		snprintf(sub, sizeof(sub), "/sys/class/infiniband/%s/device/net",
		         d->name);
		if (sysroot_path(sr, sub, path, sizeof(path)) == 0 &&
		    (dp = opendir(path)) != NULL) {
			while ((e = readdir(dp)) != NULL && guard++ < 256) {
				long long port = 0;

				if (e->d_name[0] == '.')
					continue;
				snprintf(sub, sizeof(sub),
				         "/sys/class/infiniband/%s/device/net/"
				         "%s/dev_port",
				         d->name, e->d_name);
				if (sysroot_read_ll(sr, sub, &port) < 0)
					port = 0;
				if ((unsigned)port + 1 == p->num) {
					nl_copy(p->netdev, sizeof(p->netdev),
					        e->d_name);
					break;
				}
			}
			closedir(dp);
		}
	}
	if (p->netdev[0] != '\0') {
		snprintf(sub, sizeof(sub), "/sys/class/net/%s", p->netdev);
		p->netdev_here = sysroot_exists(sr, sub);
	}
}

/* The port's active MTU: sysfs has none, so RoCE's comes from its
 * netdev's MTU as the kernel derives it; InfiniBand's stays unknown
 * (ibv_query_port's active_mtu, set by the subnet manager). */
static void port_mtu(const struct sysroot *sr, struct rdma_port *p)
{
	char path[PATH_MAX];
	long long mtu;

	if (p->link != RDMA_LINK_ETH || p->netdev[0] == '\0')
		return;
	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", p->netdev);
	if (sysroot_read_ll(sr, path, &mtu) < 0 || mtu <= 0)
		return;
	p->active_mtu = rdma_iboe_mtu((unsigned)mtu);
	snprintf(p->mtu_from, sizeof(p->mtu_from),
	         "%s MTU %lld (kernel iboe_get_mtu)", p->netdev, mtu);
}

/* One port directory. */
static void read_port(const struct sysroot *sr, const struct rdma_dev *d,
                      struct rdma_port *p)
{
	char base[PATH_MAX], path[PATH_MAX + 32], line[96];

	snprintf(base, sizeof(base), "/sys/class/infiniband/%s/ports/%u",
	         d->name, p->num);
	snprintf(path, sizeof(path), "%s/state", base);
	read_state(sr, path, &p->state, p->state_str, sizeof(p->state_str));
	snprintf(path, sizeof(path), "%s/phys_state", base);
	read_state(sr, path, &p->phys_state, p->phys_str,
	           sizeof(p->phys_str));
	snprintf(path, sizeof(path), "%s/link_layer", base);
	if (sysroot_read_line(sr, path, line, sizeof(line)) >= 0)
		p->link = strcmp(line, "InfiniBand") == 0 ? RDMA_LINK_IB
		          : strcmp(line, "Ethernet") == 0 ? RDMA_LINK_ETH
		                                          : RDMA_LINK_UNKNOWN;
	snprintf(path, sizeof(path), "%s/rate", base);
	if (sysroot_read_line(sr, path, line, sizeof(line)) >= 0) {
		nl_copy(p->rate, sizeof(p->rate), line);
		p->rate_gbps = atoi(line);
	}
	p->ngids = 0;
	read_gids(sr, base, p);
	port_netdev(sr, d, p);
	port_mtu(sr, p);
}

/* The realpath of a sysroot path, made relative to the root again, so
 * a recorded tree and the live system give the same "/sys/devices/..."
 * text. Returns 0, or -1. */
static int sysroot_realpath(const struct sysroot *sr, const char *path,
                            char *out, size_t len)
{
	char p[PATH_MAX], *real, *root = NULL;
	size_t rl = 0;
	int ret = -1;

	if (sysroot_path(sr, path, p, sizeof(p)) < 0 ||
	    (real = realpath(p, NULL)) == NULL)
		return -1;
	if (sr->dir[0] != '\0') {
		root = realpath(sr->dir, NULL);
		if (root == NULL)
			goto out;
		rl = strlen(root);
		if (strncmp(real, root, rl) != 0)
			goto out;
	}
	if (strlen(real + rl) < len) {
		snprintf(out, len, "%s", real + rl);
		ret = 0;
	}
out:
	free(root);
	free(real);
	return ret;
}

/* A PCI device's NUMA node from numa_node under its sysfs path. */
static int pci_numa(const struct sysroot *sr, const char *pci_path)
{
	char path[PATH_MAX];
	long long n;

	snprintf(path, sizeof(path), "%s/numa_node", pci_path);
	return sysroot_read_ll(sr, path, &n) == 0 && n >= 0 ? (int)n : -1;
}

/* Ports are numbered from 1; the directory is scanned for them. */
void rdma_sysfs_dev(struct rdma_dev *d, const struct sysroot *sr)
{
	char rel[PATH_MAX + 64], *slash;

	snprintf(rel, sizeof(rel), "/sys/class/infiniband/%s/node_guid",
	         d->name);
	if (d->node_guid[0] == '\0')
		(void)sysroot_read_line(sr, rel, d->node_guid,
		                        sizeof(d->node_guid));
	snprintf(rel, sizeof(rel), "/sys/class/infiniband/%s/device", d->name);
	if (sysroot_realpath(sr, rel, d->pci_path, sizeof(d->pci_path)) == 0) {
		slash = strrchr(d->pci_path, '/');
		nl_copy(d->pci, sizeof(d->pci),
		        slash != NULL ? slash + 1 : d->pci_path);
		d->numa = pci_numa(sr, d->pci_path);
		snprintf(rel, sizeof(rel), "%s/physfn", d->pci_path);
		d->vf = sysroot_exists(sr, rel);
	}
	for (unsigned num = 1; num <= RDMA_MAX_PORTS; num++) {
		struct rdma_port *p = NULL;

		snprintf(rel, sizeof(rel), "/sys/class/infiniband/%s/ports/%u",
		         d->name, num);
		if (!sysroot_exists(sr, rel))
			continue;
		for (int i = 0; i < d->nports; i++)
			if (d->ports[i].num == num)
				p = &d->ports[i];
		if (p == NULL) {
			if (d->nports >= RDMA_MAX_PORTS)
				break;
			p = &d->ports[d->nports++];
			memset(p, 0, sizeof(*p));
			p->num = num;
			p->state = p->phys_state = -1;
		}
		read_port(sr, d, p);
	}
}
