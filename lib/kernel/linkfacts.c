/* Link facts (kernel/linkfacts.h): interfaces from iface_collect (netlink
 * live, the recorded tree otherwise) with sysfs's carrier_changes, and
 * InfiniBand ports from sysfs. */
#include "kernel/linkfacts.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/nl.h"

const char *const lf_counter_names[LF_NCTR] = {
	"link_downed", "symbol_error", "port_rcv_errors",
	"link_error_recovery"};

static long long read_ll(const struct sysroot *sr, const char *path)
{
	long long v;

	return sysroot_read_ll(sr, path, &v) == 0 ? v : -1;
}

static void read_links(struct linkfacts *lf, const struct sysroot *sr,
		       const struct iface_list *l)
{
	char p[64];

	for (size_t i = 0; i < l->n && lf->nlinks < LF_MAX_LINKS; i++) {
		const struct iface *f = &l->v[i];
		struct lf_link *k;

		if (f->flags & IFF_LOOPBACK)
			continue;
		k = &lf->links[lf->nlinks++];
		snprintf(k->name, sizeof(k->name), "%s", f->name);
		k->carrier = f->carrier;
		k->oper_up = f->operstate < 0 ? -1 : f->operstate == 6;
		k->speed_mbps = f->speed_mbps;
		snprintf(p, sizeof(p), "/sys/class/net/%.16s/carrier_changes",
			 f->name);
		k->carrier_changes = read_ll(sr, p);
	}
}

/* One port of an RDMA device: "4: ACTIVE", "200 Gb/sec (4X HDR)" and the
 * counters. */
static void read_port(struct linkfacts *lf, const struct sysroot *sr,
		      const char *dev, const char *port)
{
	char p[600], line[96];
	struct lf_port *q;

	if (lf->nports >= LF_MAX_PORTS)
		return;
	q = &lf->ports[lf->nports++];
	snprintf(q->dev, sizeof(q->dev), "%.31s", dev);
	q->port = (unsigned)strtoul(port, NULL, 10);
	snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports/%s/state", dev,
		 port);
	q->state = sysroot_read_line(sr, p, line, sizeof(line)) > 0
			   ? atoi(line) : -1;
	snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports/%s/rate", dev,
		 port);
	q->rate_gbps = sysroot_read_line(sr, p, line, sizeof(line)) > 0
			       ? atoi(line) : 0;
	for (int c = 0; c < LF_NCTR; c++) {
		snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports/%s/"
			 "counters/%s", dev, port, lf_counter_names[c]);
		q->ctr[c] = read_ll(sr, p);
	}
}

static void read_ports(struct linkfacts *lf, const struct sysroot *sr)
{
	char path[256], sub[600];
	struct dirent *d, *e;
	DIR *dd, *pd;

	if (sysroot_path(sr, "/sys/class/infiniband", path, sizeof(path)) < 0 ||
	    (dd = opendir(path)) == NULL)
		return;
	while ((d = readdir(dd)) != NULL && lf->nports < LF_MAX_PORTS) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/ports", path, d->d_name);
		if ((pd = opendir(sub)) == NULL)
			continue;
		while ((e = readdir(pd)) != NULL)
			if (e->d_name[0] != '.')
				read_port(lf, sr, d->d_name, e->d_name);
		closedir(pd);
	}
	closedir(dd);
}

int linkfacts_read(struct linkfacts *lf, const struct sysroot *sr,
		   long long at_ms)
{
	struct iface_list l = {0};

	memset(lf, 0, sizeof(*lf));
	lf->at_ms = at_ms;
	if (iface_collect(&l, sr) < 0)
		return -1;
	read_links(lf, sr, &l);
	iface_list_free(&l);
	read_ports(lf, sr);
	return 0;
}

static size_t add(struct lf_change *out, size_t n, size_t max,
		  long long at, const char *subj, const char *text)
{
	if (n >= max)
		return n;
	out[n].at_ms = at;
	snprintf(out[n].subject, sizeof(out[n].subject), "%s", subj);
	snprintf(out[n].text, sizeof(out[n].text), "%s", text);
	return n + 1;
}

static const struct lf_link *link_in(const struct linkfacts *f,
				     const char *name)
{
	for (size_t i = 0; i < f->nlinks; i++)
		if (strcmp(f->links[i].name, name) == 0)
			return &f->links[i];
	return NULL;
}

static const struct lf_port *port_in(const struct linkfacts *f,
				     const struct lf_port *q)
{
	for (size_t i = 0; i < f->nports; i++)
		if (strcmp(f->ports[i].dev, q->dev) == 0 &&
		    f->ports[i].port == q->port)
			return &f->ports[i];
	return NULL;
}

static size_t diff_link(const struct lf_link *x, const struct lf_link *y,
			long long at, struct lf_change *out, size_t n,
			size_t max)
{
	char t[160];
	bool seen = false;

	if (x->carrier == 1 && y->carrier == 0) {
		n = add(out, n, max, at, y->name, "lost its carrier (link down)");
		seen = true;
	} else if (x->carrier == 0 && y->carrier == 1) {
		n = add(out, n, max, at, y->name, "carrier back (link up)");
		seen = true;
	}
	if (x->speed_mbps > 0 && y->speed_mbps > 0 &&
	    x->speed_mbps != y->speed_mbps) {
		snprintf(t, sizeof(t), "went from %lld to %lld Mb/s",
			 x->speed_mbps, y->speed_mbps);
		n = add(out, n, max, at, y->name, t);
	}
	/* a flap faster than the looks: only the counter saw it */
	if (!seen && x->carrier_changes >= 0 &&
	    y->carrier_changes > x->carrier_changes) {
		snprintf(t, sizeof(t), "carrier changed %lld time(s)",
			 y->carrier_changes - x->carrier_changes);
		n = add(out, n, max, at, y->name, t);
	}
	return n;
}

static size_t diff_port(const struct lf_port *x, const struct lf_port *y,
			long long at, struct lf_change *out, size_t n,
			size_t max)
{
	char subj[48], t[160];

	snprintf(subj, sizeof(subj), "%.31s port %u", y->dev, y->port);
	if (x->rate_gbps > 0 && y->rate_gbps > 0 &&
	    x->rate_gbps != y->rate_gbps) {
		snprintf(t, sizeof(t), "went from %d to %d Gb/s", x->rate_gbps,
			 y->rate_gbps);
		n = add(out, n, max, at, subj, t);
	}
	if (x->state == 4 && y->state != 4 && y->state >= 0) {
		snprintf(t, sizeof(t), "left ACTIVE (state %d)", y->state);
		n = add(out, n, max, at, subj, t);
	} else if (x->state != 4 && x->state >= 0 && y->state == 4) {
		n = add(out, n, max, at, subj, "ACTIVE again");
	}
	for (int c = 0; c < LF_NCTR; c++) {
		if (x->ctr[c] < 0 || y->ctr[c] <= x->ctr[c])
			continue;
		snprintf(t, sizeof(t), "%s rose by %lld (to %lld)",
			 lf_counter_names[c], y->ctr[c] - x->ctr[c],
			 y->ctr[c]);
		n = add(out, n, max, at, subj, t);
	}
	return n;
}

size_t linkfacts_diff(const struct linkfacts *a, const struct linkfacts *b,
		      struct lf_change *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < b->nlinks; i++) {
		const struct lf_link *x = link_in(a, b->links[i].name);

		if (x != NULL)
			n = diff_link(x, &b->links[i], b->at_ms, out, n, max);
	}
	for (size_t i = 0; i < b->nports; i++) {
		const struct lf_port *x = port_in(a, &b->ports[i]);

		if (x != NULL)
			n = diff_port(x, &b->ports[i], b->at_ms, out, n, max);
	}
	return n;
}

size_t linkfacts_now(const struct linkfacts *lf, struct lf_change *out,
		     size_t max)
{
	size_t n = 0;
	char subj[48], t[160];

	for (size_t i = 0; i < lf->nlinks; i++)
		if (lf->links[i].carrier == 0)
			n = add(out, n, max, 0, lf->links[i].name,
				"has no carrier (link down)");
	for (size_t i = 0; i < lf->nports; i++) {
		const struct lf_port *q = &lf->ports[i];

		snprintf(subj, sizeof(subj), "%.31s port %u", q->dev, q->port);
		if (q->state >= 0 && q->state != 4) {
			snprintf(t, sizeof(t), "is not ACTIVE (state %d)",
				 q->state);
			n = add(out, n, max, 0, subj, t);
		}
		/* counts since the port's counters were cleared: a rise,
		 * not a value, says when */
		for (int c = 0; c < LF_NCTR; c++) {
			if (q->ctr[c] <= 0)
				continue;
			snprintf(t, sizeof(t), "%s is %lld (since the "
				 "counters were cleared)", lf_counter_names[c],
				 q->ctr[c]);
			n = add(out, n, max, 0, subj, t);
		}
	}
	return n;
}
