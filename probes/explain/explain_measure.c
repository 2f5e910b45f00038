/* netprobe explain: what this node measures for the log's causes. The
 * scan's own collection and deciders (with the settings the log echoes
 * where this shell has none), its peer probes toward the addresses the log
 * names, and the few checks the scan has no finding for (memlock, RDMA
 * devices, neighbour and conntrack tables). */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "explain/explain_int.h"
#include "scan/scan_int.h"

#define MEMLOCK_ENOUGH (64LL << 20) /* below this RDMA registration fails */
#define MAX_PROBED 4

static const char *keep(struct explain_run *r, const char *s)
{
	char *d;

	if (r->npool >= (int)(sizeof(r->pool) / sizeof(r->pool[0])) ||
	    (d = strdup(s)) == NULL)
		return NULL;
	r->pool[r->npool++] = d;
	return d;
}

static void note(struct explain_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct explain_run *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nnotes >= (int)(sizeof(r->notes) / sizeof(r->notes[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(r->notes[r->nnotes++], sizeof(r->notes[0]), fmt, ap);
	va_end(ap);
}

static void found(struct explain_run *r, const char *code, const char *ev)
{
	struct explain_measured *m = &r->ms;

	for (size_t i = 0; i < m->nfound; i++)
		if (strcmp(m->found[i], code) == 0)
			return;
	if (m->nfound < sizeof(m->found) / sizeof(m->found[0])) {
		m->note[m->nfound] = ev ? keep(r, ev) : NULL;
		m->found[m->nfound++] = keep(r, code);
		if (m->found[m->nfound - 1] == NULL)
			m->nfound--;
	}
}

static void checked(struct explain_run *r, const char *code)
{
	struct explain_measured *m = &r->ms;

	if (m->nchecked < sizeof(m->checked) / sizeof(m->checked[0]))
		m->checked[m->nchecked++] = code;
}

/* The memlock limit: the live rlimit, or a recorded /proc/self/limits. */
static void check_memlock(struct explain_run *r, const struct sysroot *sr)
{
	char buf[4096], ev[160];
	long long soft = -1;
	struct rlimit rl;

	if (sysroot_is_live(sr)) {
		if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0)
			soft = rl.rlim_cur == RLIM_INFINITY ? -2
							    : (long long)rl.rlim_cur;
	} else if (sysroot_read(sr, "/proc/self/limits", buf, sizeof(buf)) >
		   0) {
		char *p = strstr(buf, "Max locked memory");

		if (p && sscanf(p + 17, " %lld", &soft) != 1)
			soft = strstr(p, "unlimited") ? -2 : -1;
	}
	if (soft == -1)
		return;
	checked(r, "rdma-memlock");
	if (soft == -2) {
		note(r, "memlock limit: unlimited");
		return;
	}
	snprintf(ev, sizeof(ev), "the locked-memory limit here is %lld "
		 "bytes (ulimit -l %lld)", soft, soft / 1024);
	note(r, "memlock limit: %lld bytes", soft);
	if (soft < MEMLOCK_ENOUGH)
		found(r, "rdma-memlock", ev);
}

/* RDMA devices: /sys/class/infiniband's entries. */
static void check_ib(struct explain_run *r, const struct sysroot *sr)
{
	char path[PATH_MAX], ev[160];
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (sysroot_path(sr, "/sys/class/infiniband", path, sizeof(path)) < 0)
		return;
	checked(r, "ib-device-missing");
	if ((d = opendir(path)) != NULL) {
		while ((e = readdir(d)) != NULL && n < 1000)
			if (e->d_name[0] != '.')
				n++;
		closedir(d);
	}
	note(r, "RDMA devices in /sys/class/infiniband: %d", n);
	if (n == 0) {
		snprintf(ev, sizeof(ev), "/sys/class/infiniband %s here",
			 d == NULL ? "does not exist" : "is empty");
		found(r, "ib-device-missing", ev);
	}
}

/* A table near its limit: count against max from two files. */
static void check_table(struct explain_run *r, const struct sysroot *sr,
			const char *code, const char *count_path,
			const char *max_path, const char *what)
{
	long long cnt = -1, max = -1;
	char ev[200], buf[1 << 16];

	if (sysroot_read_ll(sr, max_path, &max) < 0 || max <= 0)
		return;
	if (strcmp(count_path, "/proc/net/arp") == 0) {
		if (sysroot_read(sr, count_path, buf, sizeof(buf)) >= 0) {
			cnt = -1; /* the header line */
			for (char *p = buf; (p = strchr(p, '\n')) != NULL; p++)
				cnt++;
		}
	} else if (sysroot_read_ll(sr, count_path, &cnt) < 0) {
		return;
	}
	if (cnt < 0)
		return;
	checked(r, code);
	note(r, "%s: %lld of %lld", what, cnt, max);
	if (cnt * 10 >= max * 9) {
		snprintf(ev, sizeof(ev), "%s holds %lld entries of %lld here",
			 what, cnt, max);
		found(r, code, ev);
	}
}

/* Settings the log echoes that this shell lacks: the scan then judges
 * the job's own values on this node. */
static void adopt_settings(struct explain_run *r)
{
	static const char *const names[] = {"NCCL_SOCKET_IFNAME",
		"NCCL_SOCKET_FAMILY", "NCCL_COMM_ID", "NCCL_IB_HCA"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *v = explain_setting(&r->lg, names[i]);
		const char *env = getenv(names[i]);

		if (v == NULL)
			continue;
		if (env == NULL) {
			setenv(names[i], v, 1);
			note(r, "%s=%s taken from the log for the scan",
			     names[i], v);
		} else if (strcmp(env, v) != 0) {
			note(r, "%s is '%s' here but the log's job used '%s'",
			     names[i], env, v);
		}
	}
}

/* The distinct peer addresses the log names, loopback left out. */
static size_t log_peers(struct explain_run *r, const char **out, size_t cap)
{
	size_t n = 0;

	for (int i = 0; i < r->njob_nodes && n < cap; i++)
		if ((out[n] = keep(r, r->job_nodes[i])) != NULL)
			n++;
	for (size_t i = 0; i < r->lg.nhits && n < cap; i++) {
		const struct explain_hit *h = &r->lg.hits[i];
		const char *a = logmatch_field(&h->m, "addr");
		const char *cls = explain_addr_class(a);
		bool dup = false;

		if (!(h->m.sig->flags & LOGSIG_PEER) || a == NULL ||
		    (cls && strcmp(cls, "loopback") == 0) ||
		    explain_is_local_addr(a) ||
		    strchr(a, '%') != NULL)
			continue;
		for (size_t j = 0; j < n && !dup; j++)
			dup = strcmp(out[j], a) == 0;
		if (!dup && (out[n] = keep(r, a)) != NULL)
			n++;
	}
	return n;
}

/* The scan: its findings are this node's measurements. Findings of the
 * responder port itself (port-*) say nothing about the job's ports. */
static void run_scan(struct explain_run *r)
{
	static const char *const scan_checks[] = {"container-bridge-nat",
		"wsl2-nat", "wsl-container-double-nat", "hostname-loopback",
		"hostname-unbindable", "nccl-default-iface-unsafe",
		"nccl-ifname-overmatch", "nccl-ifname-nomatch",
		"gloo-ifname-syntax", "nccl-comm-id-subnet",
		"ipv6-link-local-only", "no-usable-interface", "shm-small"};
	struct scan *s = calloc(1, sizeof(*s));
	const char *peers[MAX_PROBED];
	size_t np = 0, i;
	json_t *f;

	if (s == NULL)
		return;
	s->quiet = true;
	if (sysroot_init(&s->sr, r->o.sysroot) < 0 ||
	    doc_init(&s->d, "netprobe", "scan") < 0)
		goto out;
	if (!r->o.no_probe && sysroot_is_live(&s->sr) &&
	    (np = log_peers(r, peers, MAX_PROBED)) > 0 &&
	    scan_peers_alloc(s, np) == 0) {
		for (i = 0; i < np; i++)
			s->o.peers[i] = peers[i];
		s->o.npeers = np;
	} else {
		np = 0;
	}
	if (scan_collect(s) != 0 || scan_peers(s) != 0 ||
	    scan_decide(s) != 0) {
		note(r, "the local scan could not run");
		goto out;
	}
	for (i = 0; i < sizeof(scan_checks) / sizeof(scan_checks[0]); i++)
		checked(r, scan_checks[i]);
	if (np > 0) {
		checked(r, "nat-detected");
		checked(r, "inbound-blocked");
		for (i = 0; i < np; i++)
			note(r, "probed %s with the scan's peer checks "
			     "(responder port 7470)", peers[i]);
	}
	json_array_foreach(s->d.findings, i, f) {
		const char *code = json_string_value(json_object_get(f, "code"));
		const char *sum =
			json_string_value(json_object_get(f, "summary"));
		const char *sev =
			json_string_value(json_object_get(f, "severity"));

		/* info is a guess the measurement overruled: not a fault */
		if (code && strncmp(code, "port-", 5) != 0 && sev &&
		    strcmp(sev, "info") != 0)
			found(r, code, sum);
	}
	note(r, "local scan: %zu finding(s)%s", json_array_size(s->d.findings),
	     r->o.sysroot ? " (recorded sysroot)" : "");
out:
	scan_free(s);
	free(s);
}

void explain_measure(struct explain_run *r)
{
	struct sysroot sr;

	if (r->o.no_probe && r->o.sysroot == NULL) {
		note(r, "nothing measured: --no-probe (the log alone)");
		return;
	}
	if (sysroot_init(&sr, r->o.sysroot) < 0) {
		note(r, "cannot read sysroot '%s': %s", r->o.sysroot,
		     strerror(errno));
		return;
	}
	r->ms.ran = true;
	adopt_settings(r);
	run_scan(r);
	check_memlock(r, &sr);
	check_ib(r, &sr);
	check_table(r, &sr, "neighbour-table-overflow", "/proc/net/arp",
		    "/proc/sys/net/ipv4/neigh/default/gc_thresh3",
		    "the neighbour table");
	check_table(r, &sr, "conntrack-table-full",
		    "/proc/sys/net/netfilter/nf_conntrack_count",
		    "/proc/sys/net/netfilter/nf_conntrack_max",
		    "the conntrack table");
	if (r->o.no_probe)
		note(r, "no peer probed: --no-probe");
}
