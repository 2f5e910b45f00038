/* netprobe scan's peers: the route toward each --peer, then what its
 * responder says (hello, reflection, connect-back, heartbeat, path MTU),
 * within the scan's time bound. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hostport.h"
#include "base/monoclock.h"
#include "decide/scan_json.h"
#include "kernel/portrange.h"
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

	char buf[256], hint[320];
	const char *cause;

	/* this node's own route or link first: then the responder is never
	 * reached, and host-unreachable says why */
	pc.v = s->peers[i];
	cause = decide_route_cause(&s->ifaces, &pc.v, buf, sizeof(buf));
	if (cause != NULL)
		snprintf(hint, sizeof(hint),
		         "not reached from here: %s (host-unreachable)", cause);
	o.step_us = PEER_STEP_US;
	o.heartbeat_us = s->o.quick ? -1 : PEER_HEARTBEAT_US;
	o.path_us = s->o.quick ? -1 : PEER_PATH_US;
	o.outbound = !s->o.quick;
	o.token_file = s->o.token_file;
	o.no_responder_hint = cause != NULL
	                          ? hint
	                          : "is `netprobe serve` running on the peer? "
	                            "(the verdict knows only the route)";
	peercheck_run(&pc, &o, &s->run.doc);
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
	peercheck_free(&pc);
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
		doc_add_error(d, "route", "no route toward peer '%s' (%s): %s",
		              spec, v->peer_addr, strerror(errno));
		return 0;
	}
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
