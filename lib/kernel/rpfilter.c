/* Reverse-path filtering settings (rpfilter.h). */
#include "kernel/rpfilter.h"

#include <stdio.h>
#include <string.h>

/* conf/IF/key as an int, -1 when absent or above max. */
static int read_conf(const struct sysroot *sr, const char *ifname,
                     const char *key, long long max)
{
	char path[128];
	long long v;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv4/conf/%s/%s", ifname,
	         key);
	if (sysroot_read_ll(sr, path, &v) < 0 || v < 0 || v > max)
		return -1;
	return (int)v;
}

/* See rpfilter.h. arp_ignore's largest value is 8 (drop every request). */
void rpfilter_collect(const struct sysroot *sr, const struct iface_list *l,
                      struct rpf_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->all = read_conf(sr, "all", "rp_filter", 2);
	f->all_arp_ignore = read_conf(sr, "all", "arp_ignore", 8);
	f->all_arp_announce = read_conf(sr, "all", "arp_announce", 2);
	for (size_t i = 0; i < l->n && f->n < RPF_MAX_IFACES; i++) {
		snprintf(f->v[f->n].name, sizeof(f->v[f->n].name), "%s",
		         l->v[i].name);
		f->v[f->n].own = read_conf(sr, l->v[i].name, "rp_filter", 2);
		f->v[f->n].arp_ignore =
		    read_conf(sr, l->v[i].name, "arp_ignore", 8);
		f->v[f->n].arp_announce =
		    read_conf(sr, l->v[i].name, "arp_announce", 2);
		f->n++;
	}
}

/* See rpfilter.h. */
int rpfilter_effective(const struct rpf_facts *f, const char *ifname)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->v[i].name, ifname) == 0)
			return f->all > f->v[i].own ? f->all : f->v[i].own;
	return f->all;
}

/* A value, or null where unread. */
static json_t *int_or_null(int v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

/* One {rp_filter, arp_ignore, arp_announce} object. */
static json_t *conf_json(int rp, int ign, int ann)
{
	return json_pack("{s:o, s:o, s:o}", "rp_filter", int_or_null(rp),
	                 "arp_ignore", int_or_null(ign), "arp_announce",
	                 int_or_null(ann));
}

/* See rpfilter.h. */
json_t *rpfilter_to_json(const struct rpf_facts *f)
{
	json_t *o = json_object();

	if (o == NULL ||
	    json_object_set_new(o, "all",
	                        conf_json(f->all, f->all_arp_ignore,
	                                  f->all_arp_announce)) < 0) {
		json_decref(o);
		return NULL;
	}
	for (size_t i = 0; i < f->n; i++)
		if (json_object_set_new(o, f->v[i].name,
		                        conf_json(f->v[i].own,
		                                  f->v[i].arp_ignore,
		                                  f->v[i].arp_announce)) < 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}
