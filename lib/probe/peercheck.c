/* One peer checked as the scan and the mesh check it (peercheck.h): the
 * peer probe, the path, the outbound connects, into one `peers` object
 * whose ports say their direction. */
#include "probe/peercheck.h"

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/pathprobe.h"
#include "probe/peerprobe.h"
#include "probe/portscan.h"
#include "probe/portspec.h"
#include "wire/client.h"
#include "wire/proto.h"

/* Appends the hint to the newest error of the document: the peer probe
 * says why the connection failed, the caller what to do about it. */
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

/* Marks every port object of `ports` without a direction with dir:
 * peerprobe lists connect-back results only. */
static void mark_direction(json_t *obj, const char *dir)
{
	json_t *p;
	size_t i;

	json_array_foreach(json_object_get(obj, "ports"), i, p)
	{
		if (json_object_get(p, "direction") == NULL)
			json_object_set_new(p, "direction", json_string(dir));
	}
}

/* Outbound: connects to samples at both ends of the peer's ephemeral
 * range on listeners its responder holds (as `netprobe ports PEER
 * ephemeral` does), and to the ports asked for; each result goes into
 * the object's `ports` with direction "outbound". */
static void outbound(struct peercheck *pc, const struct peercheck_opts *o,
                     struct doc *d)
{
	struct ports_run_opts ro = {0};
	struct port_list pl;
	struct portspec_err e;
	json_t *ports = json_object_get(pc->obj, "ports");

	port_list_init(&pl);
	if (pc->v.host[0] == '\0' || portspec_parse("ephemeral", &pl, &e) < 0)
		goto out;
	if (o->ports != NULL && *o->ports != '\0' &&
	    portspec_parse(o->ports, &pl, &e) < 0) {
		doc_add_error(d, "ports", "invalid ports '%s': %s", e.token,
		              e.why);
		goto out;
	}
	ro.timeout_us = o->step_us > 0 ? o->step_us : 1000000;
	ro.resp_port = pc->v.port;
	ro.token_file = o->token_file;
	if (ports_run(pc->v.peer_addr, &pl, &ro, &pc->out, d) != 0)
		goto out;
	pc->out_ran = true;
	for (size_t i = 0; i < pc->out.nout; i++) {
		json_t *j = portscan_json_port(&pc->out.out[i]);

		if (j != NULL && json_is_array(ports)) {
			json_object_set_new(j, "direction",
			                    json_string("outbound"));
			json_array_append_new(ports, j);
		} else {
			json_decref(j);
		}
	}
out:
	port_list_free(&pl);
}

/* See peercheck.h. The route-only view in pc->v stays where the probe
 * learns nothing (no responder). */
void peercheck_run(struct peercheck *pc, const struct peercheck_opts *o,
                   struct doc *d)
{
	struct peer_verdict *v = &pc->v, pv;
	struct peerprobe_opts po = {0};
	struct path_opts pa;
	json_t *obj = NULL, *path = NULL;

	po.step_us = o->step_us;
	po.heartbeat_us = o->heartbeat_us;
	po.token_file = o->token_file;
	po.inbound_ports = o->inbound_ports;
	po.ninbound = o->ninbound;
	po.open_tries = o->open_tries;
	if (v->host[0] != '\0') { /* split by the caller: once */
		po.host = v->host;
		po.port = v->port;
	}
	pc->ports_held = o->ports_held;
	pc->rc = peerprobe_run(v->peer, &po, &pv, &obj, d);
	/* a responder that turned us away is there: no hint to start one */
	if (pc->rc == 1 && o->no_responder_hint != NULL && !pv.turned_away)
		error_hint(d, o->no_responder_hint);
	if (pc->rc < 0 || obj == NULL) {
		json_decref(obj);
		return;
	}
	if (pv.local_ifname[0] == '\0')
		memcpy(pv.local_ifname, v->local_ifname,
		       sizeof(pv.local_ifname));
	if (pv.local_addr[0] == '\0')
		memcpy(pv.local_addr, v->local_addr, sizeof(pv.local_addr));
	if (pv.peer_addr[0] == '\0')
		memcpy(pv.peer_addr, v->peer_addr, sizeof(pv.peer_addr));
	/* the tables' route the caller read (scan_peer_route): the probe
	 * knows nothing of it */
	memcpy(pv.gateway, v->gateway, sizeof(pv.gateway));
	pv.have_match = v->have_match;
	pv.match = v->match;
	pv.have_fallback = v->have_fallback;
	memcpy(pv.fallback, v->fallback, sizeof(pv.fallback));
	*v = pv;
	if (pc->rc == 0 && o->path_us >= 0) {
		path_opts_default(&pa);
		pa.deadline_us = o->path_us > 0 ? o->path_us : 2000000;
		path_for_peer(&pa, v, &path, &pc->path, d);
	}
	set_str(obj, "local_ifname", v->local_ifname);
	set_str(obj, "local_addr", v->local_addr);
	set_str(obj, "peer_addr", v->peer_addr);
	json_object_set_new(obj, "path_mtu",
	                    v->path_mtu >= 0 ? json_integer(v->path_mtu)
	                                     : json_null());
	json_object_set_new(obj, "path", path != NULL ? path : json_null());
	mark_direction(obj, "inbound");
	pc->obj = obj;
	if (pc->rc == 0 && o->outbound)
		outbound(pc, o, d);
}

/* See peercheck.h. */
void peercheck_free(struct peercheck *pc)
{
	json_decref(pc->obj);
	pc->obj = NULL;
	ports_run_free(&pc->out);
	pc->out_ran = false;
	free(pc->path);
	pc->path = NULL;
}
