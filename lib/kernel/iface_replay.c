/* Interfaces of a recorded sysroot: /sys/class/net, /proc/net/if_inet6,
 * /proc/net/fib_trie and /proc/net/route, in the kernel's own formats, so
 * tests and `--sysroot` replay what a node recorded. Its routes are
 * route_replay.c's. */
#include "kernel/nl.h"
#include "kernel/proc_route.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/if_arp.h>
#include <linux/if_tun.h>
#include <linux/rtnetlink.h>

#define REPLAY_MAX_IFACES 4096
#define REPLAY_MAX_ADDRS 1024
#define REPLAY_MAX_ROUTES 1024
#define PROC_BUF (256 * 1024)

/* Reads /sys/class/net/NAME/FILE as an integer (base 0: "0x1003" too). */
static int net_ll(const struct sysroot *sr, const char *name, const char *file,
                  long long *v)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", name, file);
	return sysroot_read_ll(sr, path, v);
}

/* First line of /sys/class/net/NAME/FILE. */
static ssize_t net_line(const struct sysroot *sr, const char *name,
                        const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", name, file);
	return sysroot_read_line(sr, path, buf, len);
}

/* True when /sys/class/net/NAME/FILE was recorded. */
static bool net_exists(const struct sysroot *sr, const char *name,
                       const char *file)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", name, file);
	return sysroot_exists(sr, path);
}

/* The operstate file's word to IF_OPER_*; -1 when unknown. */
static int operstate_from_str(const char *s)
{
	static const char *const names[] = {
	    "unknown", "notpresent", "down", "lowerlayerdown",
	    "testing", "dormant",    "up",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

/* "aa:bb:cc:dd:ee:ff" only; IPoIB's 20-byte addresses do not fit. */
static void read_mac(const struct sysroot *sr, struct iface *ifc)
{
	char buf[80];

	if (net_line(sr, ifc->name, "address", buf, sizeof(buf)) == 17)
		nl_copy(ifc->mac, sizeof(ifc->mac), buf);
}

/* DEVTYPE from uevent names the kind for the drivers that set one. */
static enum iface_kind read_devtype(const struct sysroot *sr, struct iface *ifc)
{
	char path[PATH_MAX], buf[1024], *line, *save = NULL;

	snprintf(path, sizeof(path), "/sys/class/net/%s/uevent", ifc->name);
	if (sysroot_read(sr, path, buf, sizeof(buf)) < 0)
		return IFK_UNKNOWN;
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "DEVTYPE=", 8) != 0)
			continue;
		nl_copy(ifc->kind_str, sizeof(ifc->kind_str), line + 8);
		if (strcmp(line + 8, "wlan") == 0 ||
		    strcmp(line + 8, "wwan") == 0)
			return IFK_PHYSICAL;
		return iface_kind_from_str(line + 8);
	}
	return IFK_UNKNOWN;
}

/* Basename of a recorded link ("../upper_br0" style targets too). */
static bool link_base(const struct sysroot *sr, const char *name,
                      const char *file, char *out, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *b;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", name, file);
	if (sysroot_readlink(sr, path, target, sizeof(target)) < 0)
		return false;
	b = strrchr(target, '/');
	nl_copy(out, len, b != NULL ? b + 1 : target);
	return out[0] != '\0';
}

/* One /sys/class/net entry. Returns 0, or -1 when it has no ifindex (not
 * an interface directory). */
static int replay_one(const struct sysroot *sr, const char *name,
                      struct iface_list *l, int *iflink)
{
	struct iface *ifc;
	long long v, type = ARPHRD_ETHER;
	char buf[64];
	enum iface_kind k;

	if (net_ll(sr, name, "ifindex", &v) < 0 || v <= 0 || v > INT32_MAX)
		return -1;
	ifc = iface_list_add(l);
	if (ifc == NULL)
		return -1;
	ifc->index = (int)v;
	nl_copy(ifc->name, sizeof(ifc->name), name);
	*iflink = net_ll(sr, name, "iflink", &v) == 0 ? (int)v : ifc->index;
	if (net_ll(sr, name, "flags", &v) == 0)
		ifc->flags = (unsigned)v;
	if (net_ll(sr, name, "mtu", &v) == 0 && v > 0)
		ifc->mtu = (unsigned)v;
	if (net_line(sr, name, "operstate", buf, sizeof(buf)) > 0)
		ifc->operstate = operstate_from_str(buf);
	if (net_ll(sr, name, "carrier", &v) == 0)
		ifc->carrier = v != 0;
	/* sysfs's flags file holds dev->flags without IFF_RUNNING, which the
	 * kernel adds in dev_get_flags() when netif_oper_up(): operational
	 * state up (6) or unknown (0). Do the same so a replayed interface is
	 * running exactly when netlink would say so. */
	if ((ifc->flags & IFF_UP) && ifc->carrier != 0 &&
	    (ifc->operstate == 6 || ifc->operstate == 0))
		ifc->flags |= IFF_RUNNING;
	(void)net_ll(sr, name, "type", &type);
	read_mac(sr, ifc);
	k = read_devtype(sr, ifc);
	if (net_exists(sr, name, "bridge"))
		k = IFK_BRIDGE;
	else if (net_exists(sr, name, "bonding"))
		k = IFK_BOND;
	if (net_exists(sr, name, "tun_flags"))
		k = net_ll(sr, name, "tun_flags", &v) == 0 && (v & IFF_TAP)
		        ? IFK_TAP
		        : IFK_TUN;
	if (type == ARPHRD_LOOPBACK || (ifc->flags & IFF_LOOPBACK))
		k = IFK_LOOPBACK;
	else if (type == ARPHRD_INFINIBAND)
		k = IFK_INFINIBAND;
	ifc->kind = k;
	if (k == IFK_LOOPBACK || k == IFK_INFINIBAND || k == IFK_PHYSICAL)
		ifc->kind_str[0] = '\0';
	/* A master's index is filled once every entry is read. */
	if (!link_base(sr, name, "master", ifc->master, sizeof(ifc->master)))
		(void)link_base(sr, name, "brport/bridge", ifc->master,
		                sizeof(ifc->master));
	return 0;
}

/* Addresses of /proc/net/if_inet6: "addr ifindex plen scope flags name",
 * scope in the IPv6 encoding (0x10 host, 0x20 link, 0x40 site). */
static void replay_inet6(const struct sysroot *sr, struct iface_list *l,
                         char *buf)
{
	char *line, *save = NULL;
	int count = 0;

	if (sysroot_read(sr, "/proc/net/if_inet6", buf, PROC_BUF) < 0)
		return;
	for (line = strtok_r(buf, "\n", &save);
	     line != NULL && count < REPLAY_MAX_ADDRS;
	     line = strtok_r(NULL, "\n", &save), count++) {
		char hex[33], name[IF_NAMESIZE];
		unsigned idx, plen, scope, flags, rts;
		struct in6_addr a;
		struct iface *ifc;

		if (sscanf(line, "%32s %x %x %x %x %15s", hex, &idx, &plen,
		           &scope, &flags, name) != 6 ||
		    strlen(hex) != 32 || plen > 128)
			continue;
		for (int i = 0; i < 16; i++) {
			unsigned byte;

			if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
				goto next;
			a.s6_addr[i] = (uint8_t)byte;
		}
		rts = scope == 0x10   ? RT_SCOPE_HOST
		      : scope == 0x20 ? RT_SCOPE_LINK
		      : scope == 0x40 ? RT_SCOPE_SITE
		                      : RT_SCOPE_UNIVERSE;
		ifc = iface_find_index(l, (int)idx);
		if (ifc != NULL && strcmp(ifc->name, name) == 0)
			(void)iface_add_addr(ifc, AF_INET6, &a, plen, rts);
	next:;
	}
}

struct v4_route {
	char dev[IF_NAMESIZE];
	uint32_t dst, mask; /* as recorded: network order in host memory */
};

/* Connected routes (Gateway 00000000) of /proc/net/route, the only
 * recorded link between an IPv4 address and its interface. */
static size_t read_connected(const struct sysroot *sr, char *buf,
                             struct v4_route *rt, size_t max)
{
	char *line, *save = NULL;
	size_t n = 0;

	if (sysroot_read(sr, "/proc/net/route", buf, PROC_BUF) < 0)
		return 0;
	line = strtok_r(buf, "\n", &save); /* header */
	while (line != NULL && n < max) {
		struct proc_route row;

		line = strtok_r(NULL, "\n", &save);
		if (line == NULL)
			break;
		if (proc_route_parse(line, &row) < 0 || row.gw != 0 ||
		    !(row.flags & PROC_ROUTE_UP))
			continue;
		nl_copy(rt[n].dev, sizeof(rt[n].dev), row.dev);
		rt[n].dst = row.dst;
		rt[n].mask = row.mask;
		n++;
	}
	return n;
}

/* Prefix length of a contiguous netmask. */
static unsigned mask_len(uint32_t mask)
{
	return (unsigned)__builtin_popcount(mask);
}

/* Local addresses are the "/32 host LOCAL" leaves of fib_trie; each goes
 * to the interface whose connected route holds it (longest mask), and
 * 127/8 to the loopback interface. */
static void replay_inet(const struct sysroot *sr, struct iface_list *l,
                        char *buf)
{
	struct v4_route *rt = calloc(REPLAY_MAX_ROUTES, sizeof(*rt));
	uint32_t *seen = calloc(REPLAY_MAX_ADDRS, sizeof(*seen));
	size_t nrt, nseen = 0;
	char *line, *save = NULL, leaf[INET_ADDRSTRLEN] = "";

	if (rt == NULL || seen == NULL)
		goto out;
	nrt = read_connected(sr, buf, rt, REPLAY_MAX_ROUTES);
	if (sysroot_read(sr, "/proc/net/fib_trie", buf, PROC_BUF) < 0)
		goto out;
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *s = line + strspn(line, " ");
		size_t sl = strlen(s);
		struct in_addr a;
		struct iface *ifc = NULL;
		unsigned plen = 0, best = 0;
		bool dup = false;

		while (sl > 0 && (s[sl - 1] == ' ' || s[sl - 1] == '\t'))
			s[--sl] = '\0';
		if (strncmp(s, "|-- ", 4) == 0) {
			nl_copy(leaf, sizeof(leaf), s + 4);
			continue;
		}
		if (strcmp(s, "/32 host LOCAL") != 0 || leaf[0] == '\0' ||
		    inet_pton(AF_INET, leaf, &a) != 1)
			continue;
		for (size_t i = 0; i < nseen; i++)
			dup |= seen[i] == a.s_addr;
		if (dup || nseen >= REPLAY_MAX_ADDRS)
			continue;
		seen[nseen++] = a.s_addr;
		for (size_t i = 0; i < nrt; i++) {
			struct iface *cand;

			if ((a.s_addr & rt[i].mask) != rt[i].dst ||
			    (ifc != NULL && mask_len(rt[i].mask) <= best))
				continue;
			cand = (struct iface *)iface_by_name(l, rt[i].dev);
			if (cand == NULL)
				continue;
			ifc = cand;
			best = plen = mask_len(rt[i].mask);
		}
		if (ifc == NULL && (ntohl(a.s_addr) >> 24) == 127) {
			for (size_t j = 0; j < l->n && ifc == NULL; j++)
				if (l->v[j].kind == IFK_LOOPBACK)
					ifc = &l->v[j];
			plen = 8;
		}
		if (ifc != NULL)
			(void)iface_add_addr(ifc, AF_INET, &a, plen,
			                     plen == 8 &&
			                             ifc->kind == IFK_LOOPBACK
			                         ? RT_SCOPE_HOST
			                         : RT_SCOPE_UNIVERSE);
	}
out:
	free(rt);
	free(seen);
}

/* iflink tells the peer or parent: local and pointing back is a veth
 * pair in this netns; absent here is a peer in another netns. */
static void replay_links(struct iface_list *l, const int *iflink)
{
	for (size_t i = 0; i < l->n; i++) {
		struct iface *ifc = &l->v[i];
		const struct iface *m;
		int link = iflink[i];

		if (ifc->master[0] != '\0' &&
		    (m = iface_by_name(l, ifc->master)) != NULL)
			ifc->master_index = m->index;
		if (link <= 0 || link == ifc->index)
			continue;
		ifc->link_index = link;
		m = iface_find_index(l, link);
		if (m == NULL) {
			ifc->link_netnsid = 0;
			if (ifc->kind == IFK_UNKNOWN) {
				ifc->kind = IFK_VETH;
				nl_copy(ifc->kind_str, sizeof(ifc->kind_str),
				        "veth");
			}
			continue;
		}
		for (size_t j = 0; j < l->n; j++)
			if (&l->v[j] == m && iflink[j] == ifc->index &&
			    ifc->kind == IFK_UNKNOWN) {
				ifc->kind = IFK_VETH;
				nl_copy(ifc->kind_str, sizeof(ifc->kind_str),
				        "veth");
			}
	}
}

/* qsort order for directory entries: by name. */
static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Readdir, the per-entry reads, then addresses and sysfs extras. */
int iface_replay(struct iface_list *out, const struct sysroot *sr)
{
	char path[PATH_MAX], *buf = NULL, **names = NULL;
	int *iflink = NULL, saved;
	size_t nnames = 0;
	struct dirent *de;
	DIR *d;

	if (sysroot_path(sr, "/sys/class/net", path, sizeof(path)) < 0)
		return -1;
	d = opendir(path);
	if (d == NULL)
		return -1;
	names = calloc(REPLAY_MAX_IFACES, sizeof(*names));
	if (names == NULL)
		goto fail;
	while ((de = readdir(d)) != NULL && nnames < REPLAY_MAX_IFACES) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= IF_NAMESIZE)
			continue;
		names[nnames] = strdup(de->d_name);
		if (names[nnames] == NULL)
			goto fail;
		nnames++;
	}
	closedir(d);
	d = NULL;
	/* readdir order is arbitrary; name order first, index order below. */
	qsort(names, nnames, sizeof(*names), cmp_name);
	iflink = calloc(nnames + 1, sizeof(*iflink));
	buf = malloc(PROC_BUF);
	if (iflink == NULL || buf == NULL)
		goto fail;
	for (size_t i = 0; i < nnames; i++) {
		int link = 0;

		if (replay_one(sr, names[i], out, &link) == 0)
			iflink[out->n - 1] = link;
	}
	if (out->n == 0) {
		errno = ENOENT;
		goto fail;
	}
	/* Sort with iflink kept alongside: sort pairs by index. */
	for (size_t i = 1; i < out->n; i++) {
		for (size_t j = i;
		     j > 0 && out->v[j - 1].index > out->v[j].index; j--) {
			struct iface t = out->v[j];
			int tl = iflink[j];

			out->v[j] = out->v[j - 1];
			iflink[j] = iflink[j - 1];
			out->v[j - 1] = t;
			iflink[j - 1] = tl;
		}
	}
	replay_links(out, iflink);
	iface_list_finish(out);
	replay_inet(sr, out, buf);
	replay_inet6(sr, out, buf);
	iface_sysfs_fill(out, sr);
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	free(iflink);
	free(buf);
	return 0;
fail:
	saved = errno;
	if (d != NULL)
		closedir(d);
	for (size_t i = 0; names != NULL && i < nnames; i++)
		free(names[i]);
	free(names);
	free(iflink);
	free(buf);
	iface_list_free(out);
	errno = saved;
	return -1;
}
