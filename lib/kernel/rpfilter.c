/* Reverse-path filtering settings (rpfilter.h). */
#include "kernel/rpfilter.h"

#include <stdio.h>
#include <string.h>

/* One sysctl as an int, -1 when absent or not a number. */
static int read_conf(const struct sysroot *sr, const char *ifname)
{
	char path[96];
	long long v;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv4/conf/%s/rp_filter",
	         ifname);
	if (sysroot_read_ll(sr, path, &v) < 0 || v < 0 || v > 2)
		return -1;
	return (int)v;
}

void rpfilter_collect(const struct sysroot *sr, const struct iface_list *l,
                      struct rpf_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->all = read_conf(sr, "all");
	for (size_t i = 0; i < l->n && f->n < RPF_MAX_IFACES; i++) {
		snprintf(f->v[f->n].name, sizeof(f->v[f->n].name), "%s",
		         l->v[i].name);
		f->v[f->n].own = read_conf(sr, l->v[i].name);
		f->n++;
	}
}

int rpfilter_effective(const struct rpf_facts *f, const char *ifname)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->v[i].name, ifname) == 0)
			return f->all > f->v[i].own ? f->all : f->v[i].own;
	return f->all;
}
