/* netprobe scan's peers: the route toward each --peer, then what its
 * responder says (hello, reflection, connect-back, heartbeat, path MTU),
 * within the scan's time bound. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "decide/scan_json.h"
#include "kernel/portrange.h"
#include "probe/pathprobe.h"
#include "probe/peerprobe.h"
#include "probe/reach.h"
#include "scan_int.h"
#include "wire/client.h"

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
 * Asks one peer, by a connection from each address the frameworks will
 * advertise (other than the one the route already uses toward it),
 * whether it can reach that address; each address once, the answer kept
 * for every framework that uses it and listed in obj's "reach". Not
 * through NAT: the peer then sees the NAT's address whatever is bound.
 */
static void scan_reach_peer(struct scan *s, size_t pi, json_t *obj)
{
	const struct peer_verdict *v = &s->peers[pi];
	char host[256], err[CLIENT_ERR_MAX];
	json_t *arr = json_array();
	unsigned port;

	if (arr == NULL || !v->responded || v->nat == 1 ||
	    client_parse_peer(v->peer, PROTO_DEFAULT_PORT, host, sizeof(host),
	                      &port, err, sizeof(err)) < 0) {
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
	if (rc == 1) {
		char buf[256], hint[320];
		const char *cause =
		    decide_route_cause(&s->ifaces, v, buf, sizeof(buf));

		/* this node's own route or link first: then the responder
		 * was never reached, and host-unreachable says why */
		if (cause != NULL)
			snprintf(hint, sizeof(hint),
			         "not reached from here: %s (host-unreachable)",
			         cause);
		error_hint(&s->d,
		           cause != NULL ? hint
		                         : "is `netprobe serve` running on the "
		                           "peer? (the verdict knows only the "
		                           "route)");
	}
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
	if (rc == 0)
		scan_reach_peer(s, i, obj);
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
int scan_peers(struct scan *s)
{
	long long t0 = client_now_us();
	struct nccl_env ne;

	scan_env_nccl(&s->env,
	              s->comm_id_numeric[0] ? s->comm_id_numeric : NULL, &ne);
	s->nadv = decide_advertised(&s->env, &ne, &s->host, &s->ifaces, s->adv,
	                            ADV_MAX);

	if (s->o.npeers > 0 && port_range_read(&s->sr, &s->eph_lo,
	                                       &s->eph_hi) < 0) {
		s->eph_lo = s->eph_hi = 0;
		doc_add_error(&s->d, "ports", "cannot read %s: %s",
		              PORT_RANGE_PATH, strerror(errno));
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
		inet_ntop(ss.ss_family, sockaddr_addr(&ss), v->peer_addr,
		          sizeof(v->peer_addr));
		s->npeers++;
		if (route_get(ss.ss_family, sockaddr_addr(&ss), &ri) < 0) {
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
	scan_setting_reach(s);
	return 0;
}
