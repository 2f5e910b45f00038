/* netprobe scan's peers: the route toward each --peer, then what its
 * responder says (hello, reflection, connect-back, heartbeat, path MTU),
 * within the scan's time bound. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hostport.h"
#include "base/monoclock.h"
#include "decide/scan_json.h"
#include "kernel/portrange.h"
#include "probe/nhsettle.h"
#include "decide/peerdecide.h"
#include "probe/peercheck.h"
#include "probe/reach.h"
#include "scan/scan_int.h"
#include "wire/client.h"

/*
 * Asks one peer, by a connection from each address the frameworks will
 * advertise (other than the one the route already uses toward it),
 * whether it can reach that address; each address once, the answer kept
 * for every framework that uses it and listed in obj's "reach". Not
 * through NAT: the peer then sees the NAT's address whatever is bound.
 */
static void scan_reach_peer(struct scan *s, size_t pi, json_t *obj)
{
	const struct peer_verdict *v = &s->peers[pi];
	json_t *arr = json_array();
	unsigned port = v->port;

	if (arr == NULL || !v->responded || v->nat == 1 || v->host[0] == '\0') {
		json_decref(arr);
		return;
	}
	for (size_t i = 0; i < s->nadv; i++) {
		const struct advert *a = &s->adv[i];
		struct reach_result *r = NULL;
		json_t *fws;

		if (strcmp(a->addr, v->local_addr) == 0 ||
		    s->nreach >= sizeof(s->reach) / sizeof(s->reach[0]))
			continue;
		for (size_t k = 0; k < s->nreach && r == NULL; k++)
			if (s->reach[k].peer == pi &&
			    strcmp(s->adv[s->reach[k].adv].addr, a->addr) == 0)
				r = &s->reach[k];
		if (r != NULL) { /* this address was asked already */
			s->reach[s->nreach] = *r;
			s->reach[s->nreach++].adv = i;
			continue;
		}
		r = &s->reach[s->nreach++];
		r->adv = i;
		r->peer = pi;
		r->state = reach_probe(&s->sr, a->addr, a->ifname,
		                       v->local_ifname, v->peer_addr, port,
		                       PEER_STEP_US, r->detail,
		                       sizeof(r->detail));
		fws = json_array();
		for (size_t j = i; j < s->nadv; j++)
			if (strcmp(s->adv[j].addr, a->addr) == 0)
				json_array_append_new(
				    fws, json_string(advert_fw_name(s->adv[j].fw)));
		json_array_append_new(
		    arr, json_pack("{s:s, s:s, s:o, s:s, s:s}", "address",
		                   a->addr, "interface", a->ifname, "frameworks",
		                   fws, "reached", reach_state_name(r->state),
		                   "detail", r->detail));
	}
	json_object_set_new(obj, "reach", arr);
}

/* See scan_int.h. */
void scan_peer_settle(struct peer_verdict *v, struct doc *d)
{
	if (v->responded || !v->have_match || v->match.nnh < 2)
		return;
	if (nh_settle(&v->match, mono_now_us() + NH_SETTLE_US) < 0)
		doc_add_error(d, "route", "peer '%s': cannot read the "
		              "neighbour table: %s", v->peer, strerror(errno));
}

/* See scan_int.h. */
int scan_peer_match_json(const struct peer_verdict *v, json_t *obj)
{
	json_t *m;

	if (!v->have_match || !json_is_object(obj))
		return 0;
	if ((m = route_to_json(&v->match)) == NULL ||
	    (v->have_fallback &&
	     json_object_set_new(m, "fallback", json_string(v->fallback)) <
	         0) ||
	    json_object_set_new(obj, "route_match", m) < 0)
		return -1;
	return 0;
}

/*
 * Checks one peer (peercheck_run: hello, reflection, connect-back, a short
 * heartbeat, unless --quick the path and the outbound connects to its
 * ephemeral samples) and decides what its ports ask to open. The
 * route-only verdict in s->peers[i] stays where the probe learns nothing
 * (no responder: an error naming `netprobe serve`, and the scan goes
 * on). Fills s->peer_json[i].
 */
static void scan_probe_peer(struct scan *s, size_t i)
{
	struct peercheck pc = {0};
	struct peercheck_opts o = {0};

	char buf[256], hint[320] = "";
	const char *cause;

	/* this node's own route or link first: then the responder is never
	 * reached, and host-unreachable says why */
	pc.v = s->peers[i];
	cause = decide_route_cause(&s->ifaces, &pc.v, buf, sizeof(buf));
	if (cause != NULL)
		snprintf(hint, sizeof(hint),
		         "not reached from here: %s (host-unreachable)", cause);
	else if (pc.v.have_match && pc.v.match.type != RTN_UNICAST &&
	         route_type_name(pc.v.match.type) != NULL)
		snprintf(hint, sizeof(hint),
		         "not reached from here: this node's %s route %s "
		         "holds it (route-type-drop)",
		         route_type_name(pc.v.match.type),
		         pc.v.match.destination);
	if (hint[0] != '\0')
		cause = hint;
	o.step_us = PEER_STEP_US;
	o.heartbeat_us = s->o.quick ? -1 : PEER_HEARTBEAT_US;
	o.path_us = s->o.quick ? -1 : PEER_PATH_US;
	o.outbound = !s->o.quick;
	o.token_file = s->o.token_file;
	o.no_responder_hint = cause != NULL
	                          ? cause
	                          : "is `netprobe serve` running on the peer? "
	                            "(the verdict knows only the route)";
	peercheck_run(&pc, &o, &s->run.doc);
	scan_peer_settle(&pc.v, &s->run.doc);
	s->peers[i] = pc.v;
	if (pc.obj == NULL) {
		s->peer_json[i] = peer_verdict_to_json(&pc.v);
	} else {
		peercheck_decide(&pc, s->eph_lo, s->eph_hi, &s->fw,
		                 &s->run.doc);
		if (pc.rc == 0)
			scan_reach_peer(s, i, pc.obj);
		s->peer_json[i] = json_incref(pc.obj);
	}
	if (scan_peer_match_json(&pc.v, s->peer_json[i]) < 0)
		doc_add_error(&s->run.doc, "memory", "out of memory");
	peercheck_free(&pc);
}

/* True when the lookup's errno e (EINVAL, EHOSTUNREACH, EACCES: what a
 * blackhole, unreachable and prohibit route answer, IPv4 and IPv6 alike)
 * comes from such a route of the tables that holds the peer: then it is
 * v's match, with the unicast route that would take over once it goes. */
static bool scan_peer_drop(int fam, const void *addr, int e,
                           struct peer_verdict *v)
{
	struct route_info fb;
	int type = e == EINVAL         ? RTN_BLACKHOLE
	           : e == EHOSTUNREACH ? RTN_UNREACHABLE
	           : e == EACCES       ? RTN_PROHIBIT
	                               : 0;

	if (type == 0 || route_covering(fam, addr, -1, type, &v->match) != 1)
		return false;
	v->have_match = true;
	if (route_covering(fam, addr, -1, RTN_UNICAST, &fb) == 1) {
		v->have_fallback = true;
		snprintf(v->fallback, sizeof(v->fallback), "%s%s%s%s%s",
		         fb.destination, fb.gateway[0] ? " via " : "",
		         fb.gateway, fb.out_interface[0] ? " dev " : "",
		         fb.out_interface);
	}
	return true;
}

/* The next hop the peer's packets take: the lookup again with the
 * source a connection gets (the multipath hash covers it), and the
 * tables' multipath route that holds the peer, if one does. */
static void scan_peer_flow(int fam, const void *addr, struct route_info *ri,
                           struct peer_verdict *v)
{
	unsigned char src[16];
	struct route_info r2, m;

	if (ri->source[0] != '\0' && inet_pton(fam, ri->source, src) == 1 &&
	    route_get_src(fam, addr, src, &r2) == 0) {
		/* the answer names the given source as RTA_SRC, not as
		 * the preferred one: keep it */
		if (r2.source[0] == '\0')
			memcpy(r2.source, ri->source, sizeof(r2.source));
		*ri = r2;
	}
	snprintf(v->gateway, sizeof(v->gateway), "%s", ri->gateway);
	if (route_covering(fam, addr, ri->table, RTN_UNICAST, &m) == 1 &&
	    m.nnh > 1) {
		v->have_match = true;
		v->match = m;
	}
}

/* The route-only verdict toward one peer; see scan_int.h. */
int scan_peer_route(const char *spec, int resolve_ms, struct peer_verdict *v,
                    struct route_info *ri, bool *have_ri, struct doc *d,
                    char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	char rerr[320];
	const char *why;

	memset(v, 0, sizeof(*v));
	v->nat = -1;
	v->inbound = -1;
	v->rtt_us = -1;
	v->path_mtu = -1;
	*have_ri = false;
	snprintf(v->peer, sizeof(v->peer), "%s", spec);
	/* the one parse of this --peer: later steps read v->host, v->port */
	switch (hostport_parse(spec, PROTO_DEFAULT_PORT, v->host,
	                       sizeof(v->host), &v->port, &why, NULL)) {
	case HOSTPORT_OK:
		break;
	case HOSTPORT_E_PORT:
		snprintf(err, errlen, "invalid peer '%s': the port is %s (1 "
		         "to 65535)", spec, why);
		return -1;
	default:
		snprintf(err, errlen, "invalid peer '%s': %s", spec, why);
		return -1;
	}
	if (resolve_bounded(v->host, AF_UNSPEC, &ss, 1, resolve_ms, rerr,
	                    sizeof(rerr)) < 1) {
		snprintf(err, errlen, "invalid peer '%s': %s", spec, rerr);
		return -1;
	}
	inet_ntop(ss.ss_family, sockaddr_addr(&ss), v->peer_addr,
	          sizeof(v->peer_addr));
	if (route_get(ss.ss_family, sockaddr_addr(&ss), ri) < 0) {
		int e = errno;

		/* a route that drops answers with its errno alone: the
		 * tables name it (route-type-drop), no part failed */
		if (scan_peer_drop(ss.ss_family, sockaddr_addr(&ss), e, v))
			return 0;
		doc_add_error(d, "route", "no route toward peer '%s' (%s): %s",
		              spec, v->peer_addr, strerror(e));
		return 0;
	}
	scan_peer_flow(ss.ss_family, sockaddr_addr(&ss), ri, v);
	snprintf(v->local_ifname, sizeof(v->local_ifname), "%s",
	         ri->out_interface);
	snprintf(v->local_addr, sizeof(v->local_addr), "%s", ri->source);
	*have_ri = true;
	return 0;
}

/* Room for n peers; see scan_int.h. */
int scan_peers_alloc(struct scan *s, size_t n)
{
	if (n == 0 || s->cap_peers >= n)
		return 0;
	s->peers = calloc(n, sizeof(*s->peers));
	s->peer_json = calloc(n, sizeof(*s->peer_json));
	if (s->peers == NULL || s->peer_json == NULL)
		return -1;
	s->cap_peers = n;
	return 0;
}

/*
 * One verdict per --peer: the route toward it (local_ifname, local_addr
 * from `ip route get`), then what its responder says (scan_probe_peer).
 * recommend() reads the array as it is. Peers are probed one after
 * another; one that would start past the scan's bound is skipped with an
 * error. Returns 0, or 2 when a peer is malformed or does not resolve
 * (reported).
 */
int scan_peers(struct scan *s)
{
	long long t0 = mono_now_us();
	struct nccl_env ne;

	if (scan_peers_alloc(s, s->o.npeers) < 0)
		return cmd_fail(&s->run, "memory", "out of memory", NULL, NULL);
	scan_env_nccl(&s->env,
	              s->comm_id_numeric[0] ? s->comm_id_numeric : NULL, &ne);
	s->nadv = decide_advertised(&s->env, &ne, &s->host, &s->ifaces, s->adv,
	                            ADV_MAX);
	if (s->o.npeers > 0 && port_range_read(&s->sr, &s->eph_lo,
	                                       &s->eph_hi) < 0) {
		s->eph_lo = s->eph_hi = 0;
		doc_add_error(&s->run.doc, "ports", "cannot read %s: %s",
		              PORT_RANGE_PATH, strerror(errno));
	}

	for (size_t i = 0; i < s->o.npeers; i++) {
		struct peer_verdict *v = &s->peers[s->npeers];
		struct route_info ri;
		bool have_ri = false;
		char err[400];

		if (!sysroot_is_live(&s->sr)) {
			doc_add_error(&s->run.doc, "peer",
			              "peer '%s' ignored: routes are looked up "
			              "only on the live system, not in a "
			              "recorded sysroot",
			              s->o.peers[i]);
			continue;
		}
		if (scan_peer_route(s->o.peers[i], RESOLVE_MS, v, &ri, &have_ri,
		                    &s->run.doc, err, sizeof(err)) < 0)
			return cmd_failf(&s->run, "peer", "%s", err);
		s->npeers++;
		if (have_ri && !s->have_lookup) {
			s->lookup = ri;
			s->have_lookup = true;
		}
		/* the k-th peer starts by k bounds (plus the local
		 * collection's slack), so N peers end within N bounds */
		if (mono_now_us() - t0 >
		    (long long)(s->npeers - 1) * PEER_BOUND_US +
		        PEER_SLACK_US) {
			doc_add_error(
			    &s->run.doc, "peer",
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
	scan_setting_reach(s);
	return 0;
}
