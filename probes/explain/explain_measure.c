/* netprobe explain: what this node measures for the log's causes. The
 * scan's own collection and deciders (with the settings the log echoes
 * where this shell has none), its peer probes toward the addresses the log
 * names, the RDMA side as scan judges it (explain_rdma.c), and the few
 * checks the scan has no finding for (neighbour and conntrack tables). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "doc/finding.h"
#include "kernel/nl.h"
#include "explain/explain_int.h"
#include "probe/ras.h"
#include "scan/scan_int.h"

#define MAX_PROBED 4

/* A table near its limit: count against max from two files. */
static void check_table(struct explain_run *r, const struct sysroot *sr,
			enum finding_code id, const char *count_path,
			const char *max_path, const char *what)
{
	const char *code = finding_name(id);
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
	explain_checked(r, code);
	explain_note(r, "%s: %lld of %lld", what, cnt, max);
	if (cnt * 10 >= max * 9) {
		snprintf(ev, sizeof(ev), "%s holds %lld entries of %lld here",
			 what, cnt, max);
		explain_found(r, code, ev);
	}
}

/* Settings the log echoes that this shell lacks: the scan then judges
 * the job's own values on this node. */
static void adopt_settings(struct explain_run *r)
{
	static const char *const names[] = {"NCCL_SOCKET_IFNAME",
		"NCCL_SOCKET_FAMILY", "NCCL_COMM_ID"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *v = explain_setting(&r->lg, names[i]);
		const char *env = getenv(names[i]);

		if (v == NULL)
			continue;
		if (env == NULL) {
			setenv(names[i], v, 1);
			explain_note(r, "%s=%s taken from the log for the "
				     "scan", names[i], v);
		} else if (strcmp(env, v) != 0) {
			explain_note(r, "%s is '%s' here but the log's job "
				     "used '%s'", names[i], env, v);
		}
	}
}

/* How many peers may be probed: all MAX_PROBED, but with --job no more
 * than the whole run's 60 s leave room for (PEER_BOUND_US each, after
 * what asking the job took and the local scan's slack). */
static size_t probe_room(struct explain_run *r)
{
	long long left;
	size_t n;

	if (!r->o.job || r->job_t0_ms == 0)
		return MAX_PROBED;
	left = 55000 - (ras_now_ms() - r->job_t0_ms);
	n = left > 0 ? (size_t)(left / (PEER_BOUND_US / 1000)) : 0;
	if (n < MAX_PROBED && r->njob_nodes > (int)n)
		explain_note(r, "probed %zu of the %d node(s) RAS named: the "
			     "60 s bound", n, r->njob_nodes);
	return n < MAX_PROBED ? n : MAX_PROBED;
}

/* The distinct peer addresses the log names, loopback left out. */
static size_t log_peers(struct explain_run *r, const char **out, size_t cap)
{
	size_t n = 0;

	for (int i = 0; i < r->njob_nodes && n < cap; i++)
		if ((out[n] = explain_keep(r, r->job_nodes[i])) != NULL)
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
		if (!dup && (out[n] = explain_keep(r, a)) != NULL)
			n++;
	}
	return n;
}

/* What the peer checks showed of each node RAS named (the verdict's
 * "h5 answers probes"): answered with its figures, or why not. */
static void record_probes(struct explain_run *r, const struct scan *s,
			  size_t np)
{
	for (size_t i = 0; i < np && i < s->npeers && r->nprobed < 4; i++) {
		const struct peer_verdict *v = &s->peers[i];
		bool job = false;

		for (int k = 0; k < r->njob_nodes && !job; k++)
			job = strcmp(r->job_nodes[k], v->peer) == 0;
		if (!job)
			continue;
		snprintf(r->probed[r->nprobed].node,
			 sizeof(r->probed[0].node), "%.127s", v->peer);
		/* a refused connect came back from the host: reachable, only
		 * no responder there to measure loss and MTU */
		r->probed[r->nprobed].answered =
			v->responded || v->connect_errno == ECONNREFUSED;
		if (v->responded)
			snprintf(r->probed[r->nprobed].what,
				 sizeof(r->probed[0].what), "rtt %lld us, "
				 "%d of %d echoes lost, path MTU %d",
				 v->rtt_us, v->udp_lost, v->udp_sent,
				 v->path_mtu);
		else if (v->connect_errno == ECONNREFUSED)
			snprintf(r->probed[r->nprobed].what,
				 sizeof(r->probed[0].what), "it refused the "
				 "responder's port: no netprobe serve there, "
				 "loss and MTU not measured");
		else
			snprintf(r->probed[r->nprobed].what,
				 sizeof(r->probed[0].what), "%s",
				 v->connect_errno ? strerror(v->connect_errno)
						  : "no responder answered");
		r->nprobed++;
	}
}

/* The scan: its findings are this node's measurements. Findings of the
 * port family (the responder's port itself) say nothing about the job's
 * ports. */
static void run_scan(struct explain_run *r)
{
	/* what the scan checks of this node, whether it found them or not */
	static const enum finding_code scan_checks[] = {
		FINDING_CONTAINER_BRIDGE_NAT, FINDING_WSL2_NAT,
		FINDING_WSL_CONTAINER_DOUBLE_NAT, FINDING_HOSTNAME_LOOPBACK,
		FINDING_HOSTNAME_UNBINDABLE, FINDING_NCCL_DEFAULT_IFACE_UNSAFE,
		FINDING_NCCL_IFNAME_OVERMATCH, FINDING_NCCL_IFNAME_NOMATCH,
		FINDING_GLOO_IFNAME_SYNTAX, FINDING_NCCL_COMM_ID_SUBNET,
		FINDING_IPV6_LINK_LOCAL_ONLY, FINDING_NO_USABLE_INTERFACE,
		FINDING_SHM_SMALL};
	struct scan *s = calloc(1, sizeof(*s));
	const char *peers[MAX_PROBED];
	size_t np = 0, i;
	json_t *f;

	if (s == NULL)
		return;
	if (sysroot_init(&s->sr, r->o.sysroot) < 0 ||
	    cmd_init(&s->run, "netprobe", "scan", NULL, NULL) < 0)
		goto out;
	if (!r->o.no_probe && sysroot_is_live(&s->sr) &&
	    (np = log_peers(r, peers, probe_room(r))) > 0 &&
	    scan_peers_alloc(s, np) == 0) {
		for (i = 0; i < np; i++)
			s->o.peers[i] = peers[i];
		s->o.npeers = np;
	} else {
		np = 0;
	}
	if (scan_collect(s) != 0 || scan_peers(s) != 0 ||
	    scan_decide(s) != 0) {
		explain_note(r, "the local scan could not run");
		goto out;
	}
	for (i = 0; i < sizeof(scan_checks) / sizeof(scan_checks[0]); i++)
		explain_checked(r, finding_name(scan_checks[i]));
	r->have_container = s->have_layers;
	r->container = s->have_layers ? s->ly.container : CONTAINER_NONE;
	record_probes(r, s, np);
	if (np > 0) {
		explain_checked(r, finding_name(FINDING_NAT_DETECTED));
		explain_checked(r, finding_name(FINDING_INBOUND_BLOCKED));
		for (i = 0; i < np; i++)
			explain_note(r, "probed %s with the scan's peer checks "
			     "(responder port 7470)", peers[i]);
	}
	json_array_foreach(s->run.doc.findings, i, f) {
		const char *code = json_string_value(json_object_get(f, "code"));
		const char *sum =
			json_string_value(json_object_get(f, "summary"));
		const char *sev =
			json_string_value(json_object_get(f, "severity"));

		/* info is a guess the measurement overruled: not a fault;
		 * the RDMA family comes from explain_rdma, with the log's
		 * settings */
		if (code && !finding_in_family(code, FAMILY_PORT) &&
		    !finding_in_family(code, FAMILY_RDMA) && sev &&
		    strcmp(sev, "info") != 0)
			explain_found(r, code, sum);
	}
	explain_note(r, "local scan: %zu finding(s)%s",
		     json_array_size(s->run.doc.findings),
		     r->o.sysroot ? " (recorded sysroot)" : "");
out:
	scan_free(s);
	free(s);
}

/* Whether the log is this host's: its hostname or one of its addresses
 * (rtnetlink's RTM_GETADDR dump) named in the log. */
static enum origin_verdict log_origin(struct explain_run *r,
				      const struct sysroot *sr)
{
	struct iface_list l = {0};
	const char *addrs[128];
	size_t n = 0;
	enum origin_verdict v;

	if (gethostname(r->this_host, sizeof(r->this_host) - 1) < 0)
		r->this_host[0] = '\0';
	if (iface_collect(&l, sr) == 0)
		for (size_t i = 0; i < l.n; i++)
			for (int k = 0; k < l.v[i].naddrs && n < 128; k++)
				addrs[n++] = l.v[i].addrs[k].str;
	v = explain_origin_match(&r->origin, r->this_host, addrs, n,
				 r->where_why, sizeof(r->where_why));
	iface_list_free(&l);
	return v;
}

/* The hosts and addresses the log names, comma-separated, into buf. */
static const char *origin_names(const struct explain_run *r, char *buf,
				size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->origin.nhosts + r->origin.naddrs; i++) {
		const char *s = i < r->origin.nhosts ? r->origin.hosts[i] :
				r->origin.addrs[i - r->origin.nhosts];
		int w = snprintf(buf + o, len - o, "%s%s", o ? ", " : "", s);

		if (w < 0 || (size_t)w >= len - o)
			break;
		o += (size_t)w;
	}
	return buf;
}

/* A live measurement is of this host: only for a log that names it (or
 * --here). Returns true when measuring here may go on; otherwise says
 * where the log is from and what to run there. */
static bool log_is_here(struct explain_run *r, const struct sysroot *sr)
{
	char names[512];

	r->where_checked = true;
	if (r->o.here) {
		r->where = ORIGIN_HERE;
		snprintf(r->where_why, sizeof(r->where_why), "--here");
		return true;
	}
	/* --job alone asks the job from here: here is what is measured,
	 * and the nodes RAS names are probed from here */
	if (r->o.job && r->o.nfiles == 0) {
		r->where = ORIGIN_HERE;
		snprintf(r->where_why, sizeof(r->where_why), "--job");
		return true;
	}
	r->where = log_origin(r, sr);
	if (r->where == ORIGIN_HERE) {
		explain_note(r, "measured here: %s", r->where_why);
		return true;
	}
	if (r->where == ORIGIN_ELSEWHERE)
		explain_note(r, "nothing measured: the log is from elsewhere "
			     "(it names %s; this host is %s)",
			     origin_names(r, names, sizeof(names)),
			     r->this_host[0] ? r->this_host : "unnamed");
	else
		explain_note(r, "nothing measured: the log names no host or "
			     "address, so it cannot tell it is this host's");
	explain_note(r, "on the node that wrote the log run: netprobe "
		     "explain --here LOG (or here, if it is this one)");
	return false;
}

void explain_measure(struct explain_run *r)
{
	struct sysroot sr;

	if (r->o.no_probe && r->o.sysroot == NULL) {
		explain_note(r, "nothing measured: --no-probe (the log alone)");
		return;
	}
	if (sysroot_init(&sr, r->o.sysroot) < 0) {
		explain_note(r, "cannot read sysroot '%s': %s", r->o.sysroot,
		     strerror(errno));
		return;
	}
	if (r->o.sysroot == NULL && !log_is_here(r, &sr))
		return;
	r->ms.ran = true;
	adopt_settings(r);
	run_scan(r);
	explain_rdma(r, &sr);
	check_table(r, &sr, FINDING_NEIGHBOUR_TABLE_OVERFLOW, "/proc/net/arp",
		    "/proc/sys/net/ipv4/neigh/default/gc_thresh3",
		    "the neighbour table");
	check_table(r, &sr, FINDING_CONNTRACK_TABLE_FULL,
		    "/proc/sys/net/netfilter/nf_conntrack_count",
		    "/proc/sys/net/netfilter/nf_conntrack_max",
		    "the conntrack table");
	if (r->o.no_probe)
		explain_note(r, "no peer probed: --no-probe");
}
