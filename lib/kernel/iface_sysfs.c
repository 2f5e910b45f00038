/* What netlink does not say about an interface, from sysfs through the
 * sysroot: link speed, driver, backing device, NUMA node, PCI address,
 * the RDMA device on the same hardware, tap versus tun. */
#include "kernel/nl.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/if_tun.h>

/* The last path component of a link target such as
 * "../../../0000:3b:00.0". */
static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s != NULL ? s + 1 : p;
}

/* "0000:3b:00.0": domain:bus:slot.function, all hex. */
static bool is_pci_addr(const char *s)
{
	static const char pat[] = "xxxx:xx:xx.x";

	if (strlen(s) != sizeof(pat) - 1)
		return false;
	for (size_t i = 0; pat[i] != '\0'; i++) {
		if (pat[i] == 'x' ? !isxdigit((unsigned char)s[i])
		                  : s[i] != pat[i])
			return false;
	}
	return true;
}

/* Kinds without a device of their own: reading their sysfs files would
 * cost time on hosts with thousands of veths and tell nothing. */
static bool has_no_device(const struct iface *ifc)
{
	switch (ifc->kind) {
	case IFK_UNKNOWN:
	case IFK_INFINIBAND:
	case IFK_PHYSICAL:
		return false;
	default:
		return true;
	}
}

/* virtio and some other buses hang the netdev below a bus device of their
 * own ("0000:00:03.0/virtio2"): the PCI function is the last PCI-looking
 * component of the class link's target. */
static void pci_from_class_link(struct iface *ifc, const struct sysroot *sr)
{
	char path[PATH_MAX], link[PATH_MAX], *save = NULL, *c;

	snprintf(path, sizeof(path), "/sys/class/net/%s", ifc->name);
	if (sysroot_readlink(sr, path, link, sizeof(link)) < 0)
		return;
	for (c = strtok_r(link, "/", &save); c != NULL;
	     c = strtok_r(NULL, "/", &save))
		if (is_pci_addr(c))
			nl_copy(ifc->pci, sizeof(ifc->pci), c);
}

/* Fills the device facts of one interface that may have hardware. */
static void fill_device(struct iface *ifc, const struct sysroot *sr)
{
	char path[PATH_MAX], link[PATH_MAX];
	long long v;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifc->name);
	if (sysroot_readlink(sr, path, link, sizeof(link)) < 0)
		return;
	ifc->real_device = true;
	if (ifc->kind == IFK_UNKNOWN)
		ifc->kind = IFK_PHYSICAL;
	if (is_pci_addr(base(link)))
		nl_copy(ifc->pci, sizeof(ifc->pci), base(link));
	else
		pci_from_class_link(ifc, sr);
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver",
	         ifc->name);
	if (sysroot_readlink(sr, path, link, sizeof(link)) >= 0)
		nl_copy(ifc->driver, sizeof(ifc->driver), base(link));
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/numa_node",
	         ifc->name);
	if (sysroot_read_ll(sr, path, &v) == 0 && v >= 0 && v < 65536)
		ifc->numa_node = (int)v;
	if (ifc->numa_node < 0 && ifc->pci[0] != '\0') {
		snprintf(path, sizeof(path),
		         "/sys/bus/pci/devices/%s/numa_node", ifc->pci);
		if (sysroot_read_ll(sr, path, &v) == 0 && v >= 0 && v < 65536)
			ifc->numa_node = (int)v;
	}
	/* speed fails with EINVAL while the link is down: unknown, -1. */
	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", ifc->name);
	if (sysroot_read_ll(sr, path, &v) == 0 && v > 0)
		ifc->speed_mbps = v;
}

/* A tun device says tap or tun in tun_flags when netlink did not. */
static void fill_tun(struct iface *ifc, const struct sysroot *sr)
{
	char path[PATH_MAX];
	long long v;

	snprintf(path, sizeof(path), "/sys/class/net/%s/tun_flags", ifc->name);
	if (sysroot_read_ll(sr, path, &v) == 0 && (v & IFF_TAP))
		ifc->kind = IFK_TAP;
}

/* RDMA devices: by the same PCI function first, else by the netdev a
 * port's first GID is bound to (RoCE, IPoIB children). */
static void fill_rdma(struct iface_list *l, const struct sysroot *sr)
{
	char path[PATH_MAX], link[PATH_MAX], name[IF_NAMESIZE];
	struct dirent *de;
	DIR *d;
	int seen = 0;

	if (sysroot_path(sr, "/sys/class/infiniband", path, sizeof(path)) < 0)
		return;
	d = opendir(path);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL && seen++ < 256) {
		const char *ib = de->d_name;

		if (ib[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device",
		         ib);
		if (sysroot_readlink(sr, path, link, sizeof(link)) >= 0) {
			for (size_t i = 0; i < l->n; i++)
				if (l->v[i].pci[0] != '\0' &&
				    l->v[i].rdma[0] == '\0' &&
				    strcmp(l->v[i].pci, base(link)) == 0)
					nl_copy(l->v[i].rdma,
					        sizeof(l->v[i].rdma), ib);
		}
		for (int port = 1; port <= 4; port++) {
			struct iface *ifc;

			snprintf(path, sizeof(path),
			         "/sys/class/infiniband/%s/ports/%d/gid_attrs/"
			         "ndevs/0",
			         ib, port);
			if (sysroot_read_line(sr, path, name, sizeof(name)) <=
			    0)
				continue;
			for (size_t i = 0; i < l->n; i++) {
				ifc = &l->v[i];
				if (strcmp(ifc->name, name) == 0 &&
				    ifc->rdma[0] == '\0')
					nl_copy(ifc->rdma, sizeof(ifc->rdma),
					        ib);
			}
		}
	}
	closedir(d);
}

/* A bridge's STP setting and its ports' states (issue 48: a port stuck
 * in learning with STP off forwards nothing, ever). */
static void fill_bridge(struct iface *ifc, const struct sysroot *sr)
{
	char path[PATH_MAX];
	long long v;

	if (ifc->kind == IFK_BRIDGE) {
		snprintf(path, sizeof(path),
		         "/sys/class/net/%s/bridge/stp_state", ifc->name);
		if (sysroot_read_ll(sr, path, &v) == 0 && v >= 0 && v <= 2)
			ifc->br_stp = (int)v;
	}
	if (ifc->master_index == 0)
		return;
	snprintf(path, sizeof(path), "/sys/class/net/%s/brport/state",
	         ifc->name);
	if (sysroot_read_ll(sr, path, &v) == 0 && v >= 0 && v <= 4)
		ifc->brport_state = (int)v;
}

/* Per interface: tap/tun, a bridge's and a port's STP state, then
 * device facts where a device can exist; RDMA mapping once, only when
 * some interface has hardware. */
void iface_sysfs_fill(struct iface_list *l, const struct sysroot *sr)
{
	bool any_hw = false;

	for (size_t i = 0; i < l->n; i++) {
		struct iface *ifc = &l->v[i];

		if (ifc->kind == IFK_TUN)
			fill_tun(ifc, sr);
		fill_bridge(ifc, sr);
		if (has_no_device(ifc))
			continue;
		fill_device(ifc, sr);
		any_hw |= ifc->real_device;
	}
	if (any_hw)
		fill_rdma(l, sr);
}
