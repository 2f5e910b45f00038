/* netprobe scan: collect this node's interfaces, routes, layering,
 * hostname and environment; decide the findings and the recommendation;
 * emit text, JSON or `export` lines. */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire/client.h"
#include "commands.h"
#include "decide/decide.h"
#include "doc/doc.h"
#include "decide/fwcmd.h"
#include "kernel/hostname.h"
#include "layers/layers.h"
#include "kernel/nl.h"
#include "base/parse.h"
#include "probe/pathprobe.h"
#include "probe/peer.h"
#include "probe/peerprobe.h"
#include "probe/portrun.h"
#include "decide/portfind.h"
#include "probe/portscan.h"
#include "probe/portspec.h"
#include "decide/recommend.h"
#include "scan.h"
#include "decide/scan_json.h"
#include "base/sysroot.h"

#define SCAN_MAX_PEERS 16
#define SCAN_MAX_ROUTES 16
#define RESOLVE_MS 300 /* per name: the scan must answer in well under 1 s */
#define TABLE_MAX 24   /* interfaces listed in full in the text table */
/* Each peer: 1 s per request (connect and hello, reflection,
 * connect-back), 1 s of heartbeat, about 1.5 s of outbound connects to
 * the peer's ephemeral samples, 2 s of path MTU search; a peer that
 * started inside PEER_BOUND_US times the peers finishes within it. */
#define PEER_STEP_US 1000000LL
#define PEER_HEARTBEAT_US 1000000LL
#define PEER_PATH_US 2000000LL
#define PEER_BOUND_US 8000000LL
#define PEER_SLACK_US 1000000LL
#define EPH_RANGE "/proc/sys/net/ipv4/ip_local_port_range"

struct scan_opts {
	bool json, export, quick;
	const char *sysroot;
	const char *token_file;
	const char *peers[SCAN_MAX_PEERS];
	size_t npeers;
};

/* Everything collected, decided and emitted by one run. */
struct scan {
	struct scan_opts o;
	struct sysroot sr;
	struct doc d;
	struct iface_list ifaces;
	struct route_info defaults[SCAN_MAX_ROUTES];
	size_t ndefaults;
	bool routes_known;
	struct route_info lookup; /* the route toward the first peer */
	bool have_lookup;
	struct layers ly;
	bool have_layers;
	struct hostname_info host;
	struct scan_env env;
	char comm_id_numeric[INET6_ADDRSTRLEN + 16];
	struct master_info master;
	struct peer_verdict peers[SCAN_MAX_PEERS];
	json_t *peer_json[SCAN_MAX_PEERS]; /* the probes' objects, owned */
	size_t npeers;
	unsigned eph_lo, eph_hi; /* this node's ip_local_port_range */
	struct fw_plan fw;       /* what the failed checks ask to open */
	bool quiet;              /* scan_recommend_quiet: no output at all */
	struct recommendation rec;
	struct nccl_default nccl;
	bool color;
};

static const char usage_text[] =
    "usage: netprobe scan [--json] [--export] [--sysroot dir] [--quick]\n"
    "                     [--token-file file] [--peer host[:port]]...\n"
    "\n"
    "  --json              write the JSON document (netprobe-json(5))\n"
    "  --export            print only `export NAME=value` lines for eval\n"
    "  --sysroot dir       read /proc, /sys and /etc from a recorded tree\n"
    "  --peer host[:port]  probe the `netprobe serve` on this peer "
    "(repeatable;\n"
    "                      port 7470 unless given): NAT, inbound, RTT, "
    "path MTU\n"
    "  --quick             with --peer: no heartbeat and no path MTU "
    "search\n"
    "  --token-file file   the responders' shared secret\n"
    "  -h, --help          print this help\n"
    "\n"
    "Each peer takes at most 8 seconds; peers are probed one after "
    "another.\n";

/* Reports a run that cannot go on: one line on stderr, the error in the
 * document (written in --json mode). Returns the exit status 2. */
static int scan_fail(struct scan *s, const char *step, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int scan_fail(struct scan *s, const char *step, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->quiet)
		return 2;
	fprintf(stderr, "netprobe scan: %s\n", msg);
	if (s->d.root != NULL) {
		doc_add_error(&s->d, step, "%s", msg);
		if (s->o.json && doc_write(&s->d, stdout) < 0)
			fprintf(stderr, "netprobe scan: cannot write output\n");
	}
	return 2;
}

/* Parses the command line. Returns 0, 1 for --help (done), or 2 for bad
 * usage (already reported). */
static int scan_parse(int argc, char **argv, struct scan_opts *o)
{
	static const struct option longopts[] = {
	    {"json", no_argument, NULL, 'j'},
	    {"export", no_argument, NULL, 'e'},
	    {"sysroot", required_argument, NULL, 's'},
	    {"peer", required_argument, NULL, 'p'},
	    {"quick", no_argument, NULL, 'q'},
	    {"token-file", required_argument, NULL, 'T'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int ch;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			o->json = true;
			break;
		case 'e':
			o->export = true;
			break;
		case 's':
			o->sysroot = optarg;
			break;
		case 'p':
			if (o->npeers >= SCAN_MAX_PEERS) {
				fprintf(stderr,
				        "netprobe scan: too many peers "
				        "'%s': at most %d\n",
				        optarg, SCAN_MAX_PEERS);
				return 2;
			}
			o->peers[o->npeers++] = optarg;
			break;
		case 'q':
			o->quick = true;
			break;
		case 'T':
			o->token_file = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		case ':':
			fprintf(stderr,
			        "netprobe scan: option '%s' needs a "
			        "value\n",
			        argv[optind - 1]);
			fputs(usage_text, stderr);
			return 2;
		default:
			fprintf(stderr, "netprobe scan: unknown option '%s'\n",
			        argv[optind - 1]);
			fputs(usage_text, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "netprobe scan: unexpected argument '%s'\n",
		        argv[optind]);
		fputs(usage_text, stderr);
		return 2;
	}
	if ((o->quick || o->token_file != NULL) && o->npeers == 0) {
		fprintf(stderr, "netprobe scan: option '%s' needs --peer\n",
		        o->quick ? "--quick" : "--token-file");
		return 2;
	}
	if (o->json && o->export) {
		fprintf(stderr, "netprobe scan: --json and --export exclude "
		                "each other\n");
		return 2;
	}
	return 0;
}

/* Splits HOST[:PORT] ("[v6]:port" or a bare IPv6 address too) into host.
 * Returns 0, or -1 with *why set. */
static int split_peer(const char *spec, char *host, size_t len,
                      const char **why)
{
	const char *colon, *port = NULL, *errstr;
	size_t n;
	long long p;

	if (spec[0] == '[') {
		const char *end = strchr(spec, ']');

		if (end == NULL) {
			*why = "missing ']'";
			return -1;
		}
		n = (size_t)(end - spec - 1);
		if (end[1] == ':')
			port = end + 2;
		else if (end[1] != '\0') {
			*why = "text after ']'";
			return -1;
		}
		spec++;
	} else {
		colon = strchr(spec, ':');
		if (colon != NULL && strchr(colon + 1, ':') == NULL) {
			n = (size_t)(colon - spec);
			port = colon + 1;
		} else {
			n = strlen(spec);
		}
	}
	if (n == 0 || n >= len) {
		*why = n == 0 ? "no host" : "host too long";
		return -1;
	}
	memcpy(host, spec, n);
	host[n] = '\0';
	if (port != NULL && parse_num(port, 1, 65535, &p, &errstr) < 0) {
		*why = "the port is not a number from 1 to 65535";
		return -1;
	}
	return 0;
}

/* The binary address of a sockaddr, for route_get. */
static const void *sa_addr(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return &((const struct sockaddr_in *)(const void *)ss)
		            ->sin_addr;
	return &((const struct sockaddr_in6 *)(const void *)ss)->sin6_addr;
}

/* Appends the hint to the newest error of the document: the peer probe
 * says why the connection failed, the scan says what to do about it. */
static void error_hint(struct doc *d, const char *hint)
{
	json_t *e = json_array_get(d->errors, json_array_size(d->errors) - 1);
	const char *m = json_string_value(json_object_get(e, "message"));
	char buf[768];

	if (m == NULL)
		return;
	snprintf(buf, sizeof(buf), "%s; %s", m, hint);
	json_object_set_new(e, "message", json_string(buf));
}

/* Sets key of obj to a string, or null for "". */
static void set_str(json_t *obj, const char *key, const char *v)
{
	json_object_set_new(obj, key, *v ? json_string(v) : json_null());
}

/* The results of one direction ("inbound": connect-back, "outbound")
 * in a peer object as fw_results; the strings stay owned by obj. Returns
 * how many were filled. */
static size_t port_results(json_t *obj, const char *dir, struct fw_result *r,
                           size_t cap)
{
	json_t *ports = json_object_get(obj, "ports"), *p;
	size_t i, n = 0;

	json_array_foreach(ports, i, p)
	{
		json_int_t port =
		    json_integer_value(json_object_get(p, "port"));
		const char *d =
		    json_string_value(json_object_get(p, "direction"));

		if (n >= cap || port <= 0 || port > 65535 || d == NULL ||
		    strcmp(d, dir) != 0)
			continue;
		r[n].port = (unsigned)port;
		r[n].proto = json_string_value(json_object_get(p, "proto"));
		r[n].state = json_string_value(json_object_get(p, "state"));
		r[n].reason = json_string_value(json_object_get(p, "reason"));
		if (r[n].proto != NULL && r[n].state != NULL)
			n++;
	}
	return n;
}

/* Decides what this peer's failed connect-back checks ask to open and
 * whether only the ephemeral range is blocked (ephemeral-range-blocked,
 * beside the probe's inbound-blocked). */
static void scan_peer_ports(struct scan *s, const struct peer_verdict *v,
                            json_t *obj)
{
	struct fw_result r[32];
	size_t n = port_results(obj, "inbound", r, 32);
	char what[INET6_ADDRSTRLEN + 32];
	json_t *ev = NULL;

	snprintf(what, sizeof(what), "connect-back from %s", v->peer_addr);
	if (fwcmd_plan_results(&s->fw, r, n, s->eph_lo, s->eph_hi, what, NULL) <
	    0)
		doc_add_error(&s->d, "ports",
		              "cannot plan the ports to open "
		              "for peer '%s': too many",
		              v->peer);
	if (!fwcmd_ephemeral_only(r, n, s->eph_lo, s->eph_hi))
		return;
	for (size_t i = 0; i < n; i++)
		evidence_add(&ev, "connect-back", "%s -> port %u/%s: %s (%s)",
		             v->peer_addr, r[i].port, r[i].proto, r[i].state,
		             r[i].reason ? r[i].reason : "?");
	evidence_add(&ev, EPH_RANGE, "%u %u", s->eph_lo, s->eph_hi);
	doc_add_finding(&s->d, "ephemeral-range-blocked", -1, ev, NULL,
	                "%s connects back to this host's fixed port but not "
	                "to its ephemeral ports %u-%u",
	                v->peer_addr, s->eph_lo, s->eph_hi);
}

/* Marks every port object of the probe's `ports` with its direction:
 * peerprobe lists connect-back results only. */
static void mark_direction(json_t *obj, const char *dir)
{
	json_t *p;
	size_t i;

	json_array_foreach(json_object_get(obj, "ports"), i,
	                   p) if (json_object_get(p, "direction") == NULL)
	    json_object_set_new(p, "direction", json_string(dir));
}

/*
 * Outbound: connects to samples at both ends of the peer's ephemeral
 * range, on listeners its responder holds (ports_run, as `netprobe ports
 * PEER ephemeral` does), adds the results to the peer's `ports` with
 * direction "outbound", the findings of ports_decide to the document, and
 * the failed ones to the plan as ports to open on the peer.
 */
static void scan_outbound(struct scan *s, const struct peer_verdict *v,
                          json_t *obj)
{
	struct ports_run_opts o = {0};
	struct ports_run r = {0};
	struct port_list pl;
	struct portspec_err e;
	struct ports_target t;
	struct fw_result fr[32];
	char host[256], err[CLIENT_ERR_MAX], what[300];
	json_t *ports = json_object_get(obj, "ports");
	unsigned port;
	size_t n = 0;

	port_list_init(&pl);
	if (client_parse_peer(v->peer, PROTO_DEFAULT_PORT, host, sizeof(host),
	                      &port, err, sizeof(err)) < 0 ||
	    portspec_parse("ephemeral", &pl, &e) < 0)
		goto out;
	o.timeout_us = PEER_STEP_US;
	o.resp_port = port;
	o.token_file = s->o.token_file;
	if (ports_run(v->peer_addr, &pl, &o, &r, &s->d) != 0)
		goto out;
	t = (struct ports_target){v->peer, r.addr, r.responder};
	if (ports_decide(&s->d, &t, r.out, r.nout, NULL, 0) < 0)
		doc_add_error(&s->d, "ports", "out of memory");
	for (size_t i = 0; i < r.nout; i++) {
		json_t *j = portscan_json_port(&r.out[i]);

		if (j != NULL && json_is_array(ports)) {
			json_object_set_new(j, "direction",
			                    json_string("outbound"));
			json_array_append_new(ports, j);
		} else {
			json_decref(j);
		}
		if (n < 32 && r.out[i].state != PORT_UNKNOWN)
			fr[n++] = (struct fw_result){
			    r.out[i].port,
			    r.out[i].proto == IPPROTO_UDP ? "udp" : "tcp",
			    port_state_name(r.out[i].state), r.out[i].reason};
	}
	snprintf(what, sizeof(what), "outbound from this node to %s",
	         v->peer_addr);
	if (fwcmd_plan_results(&s->fw, fr, n, r.peer_lo, r.peer_hi, what,
	                       v->peer_addr) < 0)
		doc_add_error(&s->d, "ports",
		              "cannot plan the ports to open "
		              "for peer '%s': too many",
		              v->peer);
out:
	ports_run_free(&r);
	port_list_free(&pl);
}

/*
 * Probes one peer's responder (hello, reflection, connect-back, a short
 * heartbeat) and, unless --quick, the path toward it. The route-only
 * verdict in *v stays where the probe learns nothing (no responder: an
 * error naming `netprobe serve`, and the scan goes on). Fills
 * s->peer_json[i].
 */
static void scan_probe_peer(struct scan *s, size_t i)
{
	struct peer_verdict *v = &s->peers[i], pv;
	struct peerprobe_opts po = {0};
	struct path_opts pa;
	json_t *obj = NULL, *path = NULL;
	int rc;

	po.step_us = PEER_STEP_US;
	po.heartbeat_us = s->o.quick ? -1 : PEER_HEARTBEAT_US;
	po.token_file = s->o.token_file;
	rc = peerprobe_run(v->peer, &po, &pv, &obj, &s->d);
	if (rc == 1)
		error_hint(&s->d, "is `netprobe serve` running on the peer? "
		                  "(the verdict knows only the route)");
	if (rc < 0 || obj == NULL) {
		json_decref(obj);
		s->peer_json[i] = peer_verdict_to_json(v);
		return;
	}
	/* the route's view stays where the probe learnt nothing */
	if (pv.local_ifname[0] == '\0')
		memcpy(pv.local_ifname, v->local_ifname,
		       sizeof(pv.local_ifname));
	if (pv.local_addr[0] == '\0')
		memcpy(pv.local_addr, v->local_addr, sizeof(pv.local_addr));
	if (pv.peer_addr[0] == '\0')
		memcpy(pv.peer_addr, v->peer_addr, sizeof(pv.peer_addr));
	*v = pv;
	if (rc == 0 && !s->o.quick) {
		path_opts_default(&pa);
		pa.deadline_us = PEER_PATH_US;
		path_for_peer(v->peer, &pa, v, &path, &s->d);
	}
	set_str(obj, "local_ifname", v->local_ifname);
	set_str(obj, "local_addr", v->local_addr);
	set_str(obj, "peer_addr", v->peer_addr);
	json_object_set_new(obj, "path_mtu",
	                    v->path_mtu >= 0 ? json_integer(v->path_mtu)
	                                     : json_null());
	json_object_set_new(obj, "path", path != NULL ? path : json_null());
	mark_direction(obj, "inbound");
	if (rc == 0)
		scan_peer_ports(s, v, obj);
	if (rc == 0 && !s->o.quick)
		scan_outbound(s, v, obj);
	s->peer_json[i] = obj;
}

/*
 * One verdict per --peer: the route toward it (local_ifname, local_addr
 * from `ip route get`), then what its responder says (scan_probe_peer).
 * recommend() reads the array as it is. Peers are probed one after
 * another; one that would start past the scan's bound is skipped with an
 * error. Returns 0, or 2 when a peer is malformed or does not resolve
 * (reported).
 */
static int scan_peer_verdicts(struct scan *s)
{
	long long t0 = client_now_us();
	char line[64];

	if (s->o.npeers > 0 &&
	    (sysroot_read_line(&s->sr, EPH_RANGE, line, sizeof(line)) < 0 ||
	     fwcmd_parse_range(line, &s->eph_lo, &s->eph_hi) < 0)) {
		s->eph_lo = s->eph_hi = 0;
		doc_add_error(&s->d, "ports", "cannot read %s: %s", EPH_RANGE,
		              strerror(errno));
	}

	for (size_t i = 0; i < s->o.npeers; i++) {
		struct peer_verdict *v = &s->peers[s->npeers];
		struct sockaddr_storage ss;
		struct route_info ri;
		char host[256], err[320];
		const char *why;

		memset(v, 0, sizeof(*v));
		v->nat = -1;
		v->inbound = -1;
		v->rtt_us = -1;
		v->path_mtu = -1;
		snprintf(v->peer, sizeof(v->peer), "%s", s->o.peers[i]);
		if (split_peer(s->o.peers[i], host, sizeof(host), &why) < 0)
			return scan_fail(s, "peer", "invalid peer '%s': %s",
			                 s->o.peers[i], why);
		if (!sysroot_is_live(&s->sr)) {
			doc_add_error(&s->d, "peer",
			              "peer '%s' ignored: routes are looked up "
			              "only on the live system, not in a "
			              "recorded sysroot",
			              s->o.peers[i]);
			continue;
		}
		if (resolve_bounded(host, AF_UNSPEC, &ss, 1, RESOLVE_MS, err,
		                    sizeof(err)) < 1)
			return scan_fail(s, "peer", "invalid peer '%s': %s",
			                 s->o.peers[i], err);
		inet_ntop(ss.ss_family, sa_addr(&ss), v->peer_addr,
		          sizeof(v->peer_addr));
		s->npeers++;
		if (route_get(ss.ss_family, sa_addr(&ss), &ri) < 0) {
			doc_add_error(&s->d, "route",
			              "no route toward peer '%s' (%s): %s",
			              s->o.peers[i], v->peer_addr,
			              strerror(errno));
		} else {
			snprintf(v->local_ifname, sizeof(v->local_ifname), "%s",
			         ri.out_interface);
			snprintf(v->local_addr, sizeof(v->local_addr), "%s",
			         ri.source);
			if (!s->have_lookup) {
				s->lookup = ri;
				s->have_lookup = true;
			}
		}
		/* the k-th peer starts by k bounds (plus the local
		 * collection's slack), so N peers end within N bounds */
		if (client_now_us() - t0 >
		    (long long)(s->npeers - 1) * PEER_BOUND_US +
		        PEER_SLACK_US) {
			doc_add_error(
			    &s->d, "peer",
			    "peer '%s' not probed: the scan's bound of "
			    "%lld s for %zu peers ran out",
			    v->peer,
			    (long long)s->o.npeers * PEER_BOUND_US / 1000000,
			    s->o.npeers);
			s->peer_json[s->npeers - 1] = peer_verdict_to_json(v);
			continue;
		}
		scan_probe_peer(s, s->npeers - 1);
	}
	return 0;
}

/* Resolves MASTER_ADDR and asks for the route toward it (live only). */
static void scan_master(struct scan *s)
{
	struct master_info *m = &s->master;
	struct sockaddr_storage ss;
	struct route_info ri;
	const char *v = s->env.master_addr;

	memset(m, 0, sizeof(*m));
	m->route = -1;
	if (v == NULL || *v == '\0')
		return;
	if (inet_pton(AF_INET, v, m->addr) == 1) {
		m->family = AF_INET;
	} else if (inet_pton(AF_INET6, v, m->addr) == 1) {
		m->family = AF_INET6;
	} else if (!sysroot_is_live(&s->sr)) {
		return; /* a name: not looked up for a recorded tree */
	} else if (resolve_bounded(v, AF_UNSPEC, &ss, 1, RESOLVE_MS, m->error,
	                           sizeof(m->error)) < 1) {
		return;
	} else {
		m->family = ss.ss_family;
		memcpy(m->addr, sa_addr(&ss), m->family == AF_INET ? 4 : 16);
	}
	m->resolved = true;
	inet_ntop(m->family, m->addr, m->str, sizeof(m->str));
	if (!sysroot_is_live(&s->sr))
		return;
	if (route_get(m->family, m->addr, &ri) == 0) {
		m->route = 1;
		snprintf(m->route_ifname, sizeof(m->route_ifname), "%s",
		         ri.out_interface);
	} else {
		m->route = 0;
	}
}

/* NCCL_COMM_ID with a host name: NCCL resolves it, so do we (live). */
static void scan_comm_id(struct scan *s)
{
	const char *v = s->env.nccl_comm_id, *colon;
	struct sockaddr_storage ss;
	char host[256], addr[INET6_ADDRSTRLEN], err[320];
	size_t n;

	if (v == NULL || v[0] == '[' || !sysroot_is_live(&s->sr))
		return;
	colon = strrchr(v, ':');
	n = colon ? (size_t)(colon - v) : strlen(v);
	if (n == 0 || n >= sizeof(host))
		return;
	memcpy(host, v, n);
	host[n] = '\0';
	if (inet_pton(AF_INET, host, addr) == 1)
		return;
	if (resolve_bounded(host, AF_UNSPEC, &ss, 1, RESOLVE_MS, err,
	                    sizeof(err)) < 1) {
		doc_add_error(&s->d, "resolve", "NCCL_COMM_ID: %s", err);
		return;
	}
	inet_ntop(ss.ss_family, sa_addr(&ss), addr, sizeof(addr));
	snprintf(s->comm_id_numeric, sizeof(s->comm_id_numeric),
	         ss.ss_family == AF_INET6 ? "[%s]%s" : "%s%s", addr,
	         colon ? colon : "");
}

/* Orders default routes as the kernel prefers them: IPv4 first, then by
 * metric. */
static int route_cmp(const void *a, const void *b)
{
	const struct route_info *x = a, *y = b;

	if (x->family != y->family)
		return x->family == AF_INET ? -1 : 1;
	return (x->metric > y->metric) - (x->metric < y->metric);
}

/* Collects everything the deciders need. Returns 0, or 2 when the scan
 * cannot run (reported). */
static int scan_collect(struct scan *s)
{
	if (iface_collect(&s->ifaces, &s->sr) < 0)
		return scan_fail(s, "netlink", "cannot list interfaces%s%s: %s",
		                 sysroot_is_live(&s->sr) ? "" : " in '",
		                 sysroot_is_live(&s->sr) ? "" : s->sr.dir,
		                 strerror(errno));
	if (route_defaults(&s->sr, s->defaults, SCAN_MAX_ROUTES,
	                   &s->ndefaults) < 0) {
		doc_add_error(&s->d, "route",
		              "cannot read the default routes: "
		              "%s",
		              strerror(errno));
		s->ndefaults = 0;
	} else {
		s->routes_known = true;
		qsort(s->defaults, s->ndefaults, sizeof(s->defaults[0]),
		      route_cmp);
	}
	if (layers_detect(&s->ly, &s->sr, &s->ifaces) < 0)
		doc_add_error(&s->d, "layers", "cannot tell the layering: %s",
		              strerror(errno));
	else
		s->have_layers = true;
	if (hostname_collect(&s->sr, &s->host, RESOLVE_MS) < 0)
		doc_add_error(&s->d, "hostname", "cannot read the hostname%s%s",
		              s->host.error[0] ? ": " : "", s->host.error);
	else if (!s->host.resolved && !s->host.live)
		doc_add_error(&s->d, "hostname", "%s", s->host.error);
	if (!sysroot_is_live(&s->sr))
		doc_add_error(&s->d, "live",
		              "recorded sysroot: bind(), getaddrinfo and route "
		              "lookups were skipped");
	scan_env_from_process(&s->env);
	if (s->o.npeers > 0 && s->env.nodes == 0)
		s->env.nodes = 2; /* peers on other nodes were named */
	scan_master(s);
	scan_comm_id(s);
	return scan_peer_verdicts(s);
}

/* Runs recommend() over what was collected. Returns 0, or 2 on no
 * memory (reported). */
static int scan_recommend(struct scan *s)
{
	const char *defs[SCAN_MAX_ROUTES];
	struct rec_input in;

	for (size_t i = 0; i < s->ndefaults; i++)
		defs[i] = s->defaults[i].out_interface;
	memset(&in, 0, sizeof(in));
	in.ifaces = &s->ifaces;
	in.layers = s->have_layers ? &s->ly : NULL;
	in.default_ifnames = defs;
	in.ndefault = s->ndefaults;
	in.peers = s->peers;
	in.npeers = s->npeers;
	in.routes_known = s->routes_known;
	if (recommend(&in, &s->rec) < 0)
		return scan_fail(s, "recommend", "out of memory");
	return 0;
}

/* Runs every decider. Returns 0, or 2 on no memory (reported). */
static int scan_decide(struct scan *s)
{
	struct nccl_env ne;

	if (scan_recommend(s) != 0)
		return 2;
	scan_env_nccl(&s->env,
	              s->comm_id_numeric[0] ? s->comm_id_numeric : NULL, &ne);
	if (s->have_layers)
		layers_findings(&s->ly, &s->d);
	decide_iface_state(&s->ifaces, &s->d);
	decide_subnets(&s->ifaces, s->peers, s->npeers, &s->d);
	decide_hostname(&s->host, &s->ifaces, &s->d);
	decide_nccl_ifname(&s->env, &ne, &s->ifaces, &s->d);
	decide_gloo_ifname(&s->env, &s->ifaces, &s->d);
	decide_comm_id(&s->env, &ne, &s->ifaces, &s->d);
	decide_master_addr(&s->env, &s->master, &s->ifaces, &s->d);
	decide_mpi(&s->env, &s->ifaces, &s->rec, &s->d);
	decide_nccl_default(&s->ifaces, &ne, &s->rec, &s->nccl, &s->d);
	decide_ipv6_link_local(&s->ifaces, &ne, &s->d);
	return 0;
}

/* The `routes` object: defaults and the lookup toward the first peer. */
static json_t *routes_json(const struct scan *s)
{
	json_t *defs = json_array();

	for (size_t i = 0; defs != NULL && i < s->ndefaults; i++)
		json_array_append_new(defs, route_to_json(&s->defaults[i]));
	return json_pack("{s:o, s:o}", "defaults", defs, "lookup",
	                 s->have_lookup ? route_to_json(&s->lookup)
	                                : json_null());
}

/* Sets recommended_iface and on_recommended_iface of a path object
 * (ifname NULL: none recommended), as path_to_json would have. */
static void path_json_recommend(json_t *path, const char *ifname)
{
	const char *out = json_string_value(
	    json_object_get(json_object_get(path, "route"), "out_interface"));

	json_object_set_new(path, "recommended_iface",
	                    ifname != NULL ? json_string(ifname) : json_null());
	json_object_set_new(path, "on_recommended_iface",
	                    ifname != NULL && out != NULL
	                        ? json_boolean(strcmp(ifname, out) == 0)
	                        : json_null());
}

/* Builds the document's results. Returns 0, or -1 on no memory. */
static int scan_json(struct scan *s)
{
	json_t *peers = json_array();

	for (size_t i = 0; peers != NULL && i < s->npeers; i++) {
		json_t *p = s->peer_json[i], *path = json_object_get(p, "path");

		s->peer_json[i] = NULL;
		/* the path probe ran before the recommendation existed */
		if (json_is_object(path))
			path_json_recommend(
			    path, s->rec.ifc != NULL ? s->rec.ifc->name : NULL);
		json_array_append_new(
		    peers, p != NULL ? p : peer_verdict_to_json(&s->peers[i]));
	}
	if (doc_set(&s->d, "interfaces", iface_list_to_json(&s->ifaces)) ||
	    doc_set(&s->d, "layers",
	            s->have_layers ? layers_to_json(&s->ly) : json_null()) ||
	    doc_set(&s->d, "routes", routes_json(s)) ||
	    doc_set(&s->d, "hostname", hostname_to_json(&s->host)) ||
	    doc_set(&s->d, "nccl_default", nccl_default_to_json(&s->nccl)) ||
	    doc_set(&s->d, "recommendation", recommendation_to_json(&s->rec)) ||
	    doc_set(&s->d, "peers", peers) ||
	    doc_set(&s->d, "ports_to_open", fwcmd_ports_json(&s->fw)) ||
	    doc_set(&s->d, "commands", fwcmd_commands_json(&s->fw)))
		return -1;
	return 0;
}

/* Writes value single-quoted for sh: ' becomes '\''. */
static void sh_quote(FILE *fp, const char *value)
{
	fputc('\'', fp);
	for (const char *p = value; *p != '\0'; p++) {
		if (*p == '\'')
			fputs("'\\''", fp);
		else
			fputc(*p, fp);
	}
	fputc('\'', fp);
}

/* --export: only `export NAME='value'` lines on stdout. */
static void emit_export(const struct scan *s)
{
	const struct recommendation *r = &s->rec;

	if (r->ifc == NULL) {
		fprintf(stderr, "# netprobe scan: no recommendation: %s\n",
		        r->nreasons > 0 ? r->reasons[0] : "no interface");
		return;
	}
	for (int i = 0; i < r->nenv; i++) {
		printf("export %s=", r->env[i].name);
		sh_quote(stdout, r->env[i].value);
		putchar('\n');
	}
}

/* A short state word for the interface table. */
static const char *state_word(const struct iface *ifc)
{
	if (!(ifc->flags & IFF_UP))
		return "down";
	if (!(ifc->flags & IFF_RUNNING) || ifc->carrier == 0)
		return "no-carrier";
	return "up";
}

/* Starts and ends colour for a severity, on a terminal only. */
static const char *sev_color(const struct scan *s, const char *sev)
{
	if (!s->color)
		return "";
	if (strcmp(sev, "fault") == 0)
		return "\033[1;31m";
	if (strcmp(sev, "warning") == 0)
		return "\033[33m";
	return "\033[36m";
}

/* The interface table: interfaces with addresses, or all when few. */
static void emit_ifaces(const struct scan *s)
{
	const struct iface_list *l = &s->ifaces;
	size_t hidden = 0;

	printf("interfaces\n");
	for (size_t i = 0; i < l->n; i++) {
		const struct iface *ifc = &l->v[i];
		int shown = 0;

		if (l->n > TABLE_MAX && ifc->naddrs == 0) {
			hidden++;
			continue;
		}
		printf("  %-16s %-10s %-10s", ifc->name,
		       iface_kind_name(ifc->kind), state_word(ifc));
		for (int k = 0; k < ifc->naddrs; k++) {
			const struct iface_addr *a = &ifc->addrs[k];

			if (a->family == AF_INET6 &&
			    IN6_IS_ADDR_LINKLOCAL(&a->a.v6) && ifc->naddrs > 1)
				continue;
			printf(" %s/%u", a->str, a->prefixlen);
			shown++;
		}
		if (ifc->master[0] != '\0')
			printf(" (in %s)", ifc->master);
		else if (shown == 0)
			printf(" -");
		putchar('\n');
	}
	if (hidden > 0)
		printf("  (%zu more without addresses: --json lists them)\n",
		       hidden);
}

/* The layering in one line. */
static void emit_layers(const struct scan *s)
{
	const struct layers *ly = &s->ly;

	if (!s->have_layers)
		return;
	printf("\nlayers\n  container %s, network %s, wsl %s%s, reach %s",
	       layers_container_name(ly->container),
	       layers_netmode_name(ly->netmode), layers_wsl_name(ly->wsl),
	       ly->wsl_container ? " (container inside)" : "",
	       layers_reach_name(ly->reach));
	if (ly->shm_bytes >= 0)
		printf(", /dev/shm %lld MiB", ly->shm_bytes >> 20);
	putchar('\n');
}

/* Findings: severity, code, summary, evidence indented, fix. */
static void emit_findings(const struct scan *s)
{
	size_t i, k;
	json_t *f, *e;

	printf("\nfindings\n");
	if (json_array_size(s->d.findings) == 0)
		printf("  none\n");
	json_array_foreach(s->d.findings, i, f)
	{
		const char *sev =
		    json_string_value(json_object_get(f, "severity"));

		printf("  %s%-7s%s  %s: %s\n", sev_color(s, sev), sev,
		       s->color ? "\033[0m" : "",
		       json_string_value(json_object_get(f, "code")),
		       json_string_value(json_object_get(f, "summary")));
		json_array_foreach(json_object_get(f, "evidence"), k, e)
		    printf("           %s (%s)\n",
		           json_string_value(json_object_get(e, "fact")),
		           json_string_value(json_object_get(e, "source")));
		printf("           fix: %s\n",
		       json_string_value(json_object_get(f, "fix")));
	}
	json_array_foreach(s->d.errors, i, f)
	    printf("  %-7s  %s: %s\n", "skipped",
	           json_string_value(json_object_get(f, "step")),
	           json_string_value(json_object_get(f, "message")));
}

/* Why the other interfaces lost, one line per reason: a node with a
 * thousand veths gets one line for them, not a thousand. */
static void emit_rejected(const struct recommendation *r)
{
	for (size_t i = 0; i < r->nrejected; i++) {
		const char *why = r->rejected[i].reason;
		size_t n = 0, shown = 0;
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(r->rejected[k].reason, why) == 0;
		if (seen)
			continue;
		printf("  not ");
		for (size_t k = i; k < r->nrejected; k++) {
			if (strcmp(r->rejected[k].reason, why) != 0)
				continue;
			if (shown < 4)
				printf("%s%s", shown ? ", " : "",
				       r->rejected[k].interface);
			shown++;
			n++;
		}
		if (n > 4)
			printf(" and %zu more", n - 4);
		printf(": %s\n", why);
	}
}

/* NCCL's own choice and the recommendation with its settings. */
static void emit_choice(const struct scan *s)
{
	const struct nccl_choice *c = &s->nccl.choice;
	const struct recommendation *r = &s->rec;

	printf("\nnccl's own choice (NCCL_SOCKET_IFNAME unset)\n  rule %s:",
	       c->rule);
	for (int i = 0; i < c->n; i++)
		printf(" %s %s%s%s", c->v[i].ifc->name, c->v[i].addr->str,
		       i == 0 ? " (bootstrap)" : "", i + 1 < c->n ? "," : "");
	if (c->n == 0)
		printf(" no interface");
	printf("\n  %s: %s\n", s->nccl.safe ? "safe" : "not safe", s->nccl.why);

	printf("\nrecommendation\n");
	if (r->ifc != NULL)
		printf("  interface %s, address %s\n", r->ifc->name,
		       r->addr->str);
	else
		printf("  no interface\n");
	for (int i = 0; i < r->nenv; i++) {
		printf("  export %s=", r->env[i].name);
		sh_quote(stdout, r->env[i].value);
		putchar('\n');
	}
	for (int i = 0; i < r->nreasons; i++)
		printf("  - %s\n", r->reasons[i]);
	emit_rejected(r);
}

/* One line per peer, then the ports to open with the commands. */
static void emit_peers(const struct scan *s)
{
	char cmd[256];

	if (s->npeers == 0)
		return;
	printf("\npeers\n");
	for (size_t i = 0; i < s->npeers; i++) {
		const struct peer_verdict *v = &s->peers[i];

		printf("  %-22s %-15s", v->peer,
		       v->peer_addr[0] ? v->peer_addr : "-");
		if (!v->responded) {
			printf(" no responder (route via %s)\n",
			       v->local_ifname[0] ? v->local_ifname : "-");
			continue;
		}
		printf(" via %s %s, nat %s, inbound %s", v->local_ifname,
		       v->local_addr,
		       v->nat == 1   ? "yes"
		       : v->nat == 0 ? "no"
		                     : "?",
		       v->inbound == 1   ? "ok"
		       : v->inbound == 0 ? "blocked"
		                         : "?");
		if (v->rtt_us >= 0)
			printf(", rtt %lld us", v->rtt_us);
		if (v->path_mtu >= 0)
			printf(", path mtu %d", v->path_mtu);
		putchar('\n');
	}
	if (s->fw.n == 0)
		return;
	printf("\nports to open\n");
	for (size_t i = 0; i < s->fw.n; i++) {
		const struct fw_rule *r = &s->fw.v[i];

		if (r->lo == r->hi)
			printf("  %u/%s", r->lo, r->proto);
		else
			printf("  %u-%u/%s", r->lo, r->hi, r->proto);
		printf("  on %s: %s\n", r->node[0] ? r->node : "this node",
		       r->why);
		for (int dl = FW_NFTABLES; dl <= FW_FIREWALLD; dl++)
			if (fwcmd_format((enum fw_dialect)dl, r, cmd,
			                 sizeof(cmd)) > 0)
				printf("    %s\n", cmd);
	}
}

/* Writes the chosen output. Returns 0, or -1 when writing failed. */
static int scan_emit(struct scan *s)
{
	if (s->o.export)
		emit_export(s);
	else if (s->o.json)
		return doc_write(&s->d, stdout);
	else {
		emit_ifaces(s);
		emit_layers(s);
		emit_findings(s);
		emit_peers(s);
		emit_choice(s);
	}
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
}

/* Releases everything the run holds. */
static void scan_free(struct scan *s)
{
	for (size_t i = 0; i < SCAN_MAX_PEERS; i++)
		json_decref(s->peer_json[i]);
	recommendation_free(&s->rec);
	layers_free(&s->ly); /* safe when detection failed half way */
	iface_list_free(&s->ifaces);
	doc_free(&s->d);
}

/* The subcommand: parse, collect, decide, emit; the exit status is the
 * verdict (0 no fault, 1 fault, 2 could not run). */
int cmd_scan(int argc, char **argv)
{
	struct scan *s = calloc(1, sizeof(*s));
	int rc;

	if (s == NULL) {
		fprintf(stderr, "netprobe scan: out of memory\n");
		return 2;
	}
	rc = scan_parse(argc, argv, &s->o);
	if (rc != 0) {
		free(s);
		return rc == 1 ? 0 : 2;
	}
	s->color = !s->o.json && !s->o.export && isatty(STDOUT_FILENO) &&
	           getenv("NO_COLOR") == NULL;
	if (doc_init(&s->d, "netprobe", "scan") < 0) {
		rc = scan_fail(s, "memory", "out of memory");
		goto out;
	}
	if (sysroot_init(&s->sr, s->o.sysroot) < 0) {
		rc = scan_fail(s, "sysroot", "cannot read sysroot '%s': %s",
		               s->o.sysroot, strerror(errno));
		goto out;
	}
	if ((rc = scan_collect(s)) != 0 || (rc = scan_decide(s)) != 0)
		goto out;
	if (scan_json(s) < 0) {
		rc = scan_fail(s, "memory", "out of memory");
		goto out;
	}
	if (scan_emit(s) < 0) {
		fprintf(stderr, "netprobe scan: cannot write output\n");
		rc = 2;
		goto out;
	}
	rc = doc_exit_status(&s->d, true);
out:
	scan_free(s);
	free(s);
	return rc;
}

int scan_recommend_quiet(const struct sysroot *sr, char *ifname, size_t len)
{
	struct scan *s = calloc(1, sizeof(*s));
	int rc = -1;

	if (len > 0)
		ifname[0] = '\0';
	if (s == NULL)
		return -1;
	s->quiet = true;
	s->sr = *sr;
	if (doc_init(&s->d, "netprobe", "scan") < 0 || scan_collect(s) != 0 ||
	    scan_recommend(s) != 0)
		goto out;
	if (s->rec.ifc != NULL)
		snprintf(ifname, len, "%s", s->rec.ifc->name);
	rc = 0;
out:
	scan_free(s);
	free(s);
	return rc;
}
