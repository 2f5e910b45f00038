/* netprobe scan's port checks toward one peer: the failed connect-back
 * checks and the outbound connects to the peer's ephemeral samples, into
 * findings and the plan of ports to open. */
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "decide/portfind.h"
#include "kernel/portrange.h"
#include "probe/portrun.h"
#include "probe/portscan.h"
#include "probe/portspec.h"
#include "scan_int.h"
#include "wire/client.h"

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
void scan_peer_ports(struct scan *s, const struct peer_verdict *v,
                            json_t *obj)
{
	struct fw_result r[32];
	size_t n = port_results(obj, "inbound", r, 32);
	char what[INET6_ADDRSTRLEN + 32];
	json_t *ev = NULL;

	/* Through NAT the connect-back reaches the NAT's address, not this
	 * process: its failures (or a success on whatever listens there)
	 * say nothing about a firewall here, and opening ports cannot help;
	 * nat-detected says what can. */
	if (v->nat == 1)
		return;
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
	evidence_add(&ev, PORT_RANGE_PATH, "%u %u", s->eph_lo, s->eph_hi);
	doc_add_finding(&s->d, "ephemeral-range-blocked", -1, ev, NULL,
	                "%s connects back to this host's fixed port but not "
	                "to its ephemeral ports %u-%u",
	                v->peer_addr, s->eph_lo, s->eph_hi);
}

/*
 * Outbound: connects to samples at both ends of the peer's ephemeral
 * range, on listeners its responder holds (ports_run, as `netprobe ports
 * PEER ephemeral` does), adds the results to the peer's `ports` with
 * direction "outbound", the findings of ports_decide to the document, and
 * the failed ones to the plan as ports to open on the peer.
 */
void scan_outbound(struct scan *s, const struct peer_verdict *v,
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
	t = (struct ports_target){v->peer, r.addr, r.responder, r.next_hop,
				   r.neigh_state, r.no_host};
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
			    portscan_state_name(&r.out[i]), r.out[i].reason};
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
