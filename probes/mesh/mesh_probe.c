/* netprobe mesh's probing: this node's targets from the plan node 0 sent
 * (probe/meshplan.h), each checked as `scan --peer` checks a peer
 * (probe/peercheck.h) by a pool of threads of the plan's concurrency, so
 * the wall time follows the slowest peer, not the number of peers; then
 * the scan's deciders over all of them and this node's document. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/monoclock.h"
#include "base/hostport.h"
#include "decide/decide_idle.h"
#include "decide/peerdecide.h"
#include "decide/scan_json.h"
#include "kernel/portrange.h"
#include "mesh/mesh_int.h"
#include "probe/meshplan.h"
#include "probe/hopprobe.h"
#include "probe/retryprobe.h"

/* Formats HOST:PORT, brackets around an IPv6 address. */
static void peer_spec(const struct mesh_member *m, char *buf, size_t len)
{
	if (hostport_format(m->target, m->port, buf, len) < 0 && len > 0)
		buf[0] = '\0';
}

/* The first outbound TCP port of peer entry e that failed silently (a
 * timeout, no answer); 0 when none. */
static uint16_t silent_port(const json_t *e)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(e, "ports"), i, p) {
		const char *st = json_string_value(json_object_get(p, "state"));
		const char *why = json_string_value(json_object_get(p, "reason"));
		const char *dir =
		    json_string_value(json_object_get(p, "direction"));
		const char *pr = json_string_value(json_object_get(p, "proto"));
		json_int_t port = json_integer_value(json_object_get(p, "port"));

		if (dir != NULL && strcmp(dir, "outbound") == 0 && pr != NULL &&
		    strcmp(pr, "tcp") == 0 && st != NULL &&
		    strcmp(st, "filtered") == 0 && why != NULL &&
		    strcmp(why, "timeout") == 0 && port > 0 && port <= 65535)
			return (uint16_t)port;
	}
	return 0;
}

/* The deciding probe of a silent failure (issue 48): where a port of the
 * peer failed with no answer while its responder answered, that
 * port and the responder's are connected to again in turns (retryprobe.h),
 * so the report tells a rule that stops the port from loss on the path;
 * the counts join the peer's entry as "retry". */
static void retry_silent(struct mesh *ms, const struct mesh_member *t,
                         struct peercheck *pc, struct doc *d)
{
	struct retry_result r;
	uint16_t port;
	/* within the bound of a peer started last (its idle probe's share
	 * left to it), and no longer than its tries take */
	long long end = ms->probe_deadline_us + MESH_PEER_US;
	long long most = mono_now_us() + 2 * RETRY_TRIES * RETRY_EACH_US;
	json_t *o;

	if (pc->obj == NULL || pc->rc != 0 || pc->v.peer_addr[0] == '\0' ||
	    !json_is_true(json_object_get(pc->obj, "responded")) ||
	    (port = silent_port(pc->obj)) == 0 ||
	    mono_now_us() + RETRY_EACH_US > end)
		return;
	if (end > most)
		end = most;
	if (retry_probe(pc->v.peer_addr, port, t->port, end, &r) < 0) {
		doc_add_error(d, "retry", "peer '%s': %s", t->name, r.err);
		return;
	}
	o = json_pack("{s:i, s:s, s:i, s:i, s:i, s:i, s:i, s:i}", "port",
	              (int)r.port, "proto", "tcp", "tries", r.tries, "answered",
	              r.answered, "refused", r.refused, "control_port",
	              (int)r.control,
	              "control_tries", r.ctl_tries, "control_answered",
	              r.ctl_answered);
	if (o == NULL || json_object_set_new(pc->obj, "retry", o) < 0)
		doc_add_error(d, "retry", "peer '%s': out of memory", t->name);
}

/* The first outbound TCP port of peer entry e that failed (a reset, a
 * refusal, an ICMP error or silence); 0 when none. */
static uint16_t failed_port(const json_t *e)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(e, "ports"), i, p) {
		const char *st = json_string_value(json_object_get(p, "state"));
		const char *dir =
		    json_string_value(json_object_get(p, "direction"));
		const char *pr = json_string_value(json_object_get(p, "proto"));
		json_int_t port = json_integer_value(json_object_get(p, "port"));

		if (dir != NULL && strcmp(dir, "outbound") == 0 && pr != NULL &&
		    strcmp(pr, "tcp") == 0 && st != NULL &&
		    (strcmp(st, "closed") == 0 || strcmp(st, "filtered") == 0 ||
		     strcmp(st, "prohibited") == 0 ||
		     strcmp(st, "unreachable") == 0) &&
		    port > 0 && port <= 65535)
			return (uint16_t)port;
	}
	return 0;
}

/* One walk's steps as an array of {ttl, answer, from}; NULL on no
 * memory. */
static json_t *hop_steps(const struct hop_walk *w)
{
	json_t *a = json_array();

	for (int i = 0; a != NULL && i < w->nsteps; i++) {
		const struct hop_step *st = &w->steps[i];
		json_t *o = json_pack("{s:i, s:s}", "ttl", i + 1, "answer",
		                      hop_answer_name(st->answer));

		if (o != NULL && st->from[0] != '\0')
			json_object_set_new(o, "from", json_string(st->from));
		if (o == NULL || json_array_append_new(a, o) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The hop probe's object for the peer entry (netprobe-json(5)); NULL on
 * no memory. */
static json_t *hop_json(const struct hop_result *r)
{
	const struct hop_walk *p = &r->port;
	json_t *o = json_pack(
	    "{s:i, s:s, s:i, s:s, s:i, s:o, s:o}", "port", (int)p->port,
	    "proto", "tcp", "control_port", (int)r->control.port, "answer",
	    hop_answer_name(p->answer), "answer_ttl", p->answer_ttl,
	    "box_before_peer",
	    r->box_before_peer < 0 ? json_null()
	                           : json_boolean(r->box_before_peer),
	    "steps", hop_steps(p));

	if (o == NULL)
		return NULL;
	if (r->path_len > 0)
		json_object_set_new(o, "path_len", json_integer(r->path_len));
	if (p->answer_from[0] != '\0')
		json_object_set_new(o, "answer_from",
		                    json_string(p->answer_from));
	if (r->hop[0] != '\0')
		json_object_set_new(o, "hop", json_string(r->hop));
	if (p->last_hop_ttl > 0)
		json_object_set_new(o, "last_hop_ttl",
		                    json_integer(p->last_hop_ttl));
	return o;
}

/* The deciding probe of a failed port across a router (issue 48): where
 * a port of a peer failed while its responder answered, and the route
 * toward it goes through a gateway, a TTL-limited walk toward that port
 * and toward the responder's (hopprobe.h) says at which hop the answer
 * (or the silence) starts, so the report names the box on the path and
 * tells it from the peer's own firewall. A few peers per member only
 * (each router answers time-exceeded at a limited rate); the result
 * joins the peer's entry as "hop". */
static void hop_failed(struct mesh *ms, size_t k, struct peercheck *pc,
                       struct doc *d)
{
	const struct mesh_member *t = &ms->m[ms->targets[k]];
	struct hop_result r;
	uint16_t port;
	long long end = ms->probe_deadline_us + MESH_PEER_US;
	long long most = mono_now_us() + MESH_HOP_US;
	json_t *o;

	if (pc->obj == NULL || pc->rc != 0 || pc->v.peer_addr[0] == '\0' ||
	    !ms->have_route[k] || ms->routes[k].gateway[0] == '\0' ||
	    !json_is_true(json_object_get(pc->obj, "responded")) ||
	    (port = failed_port(pc->obj)) == 0 ||
	    mono_now_us() + HOP_STEP_US > end ||
	    atomic_fetch_add(&ms->hop_runs, 1) >= MESH_HOP_PEERS)
		return;
	if (end > most)
		end = most;
	if (hop_probe(pc->v.peer_addr, port, t->port, HOP_MAX_TTL, end, &r) <
	    0) {
		doc_add_error(d, "hop", "peer '%s': %s", t->name, r.err);
		return;
	}
	o = hop_json(&r);
	if (o == NULL || json_object_set_new(pc->obj, "hop", o) < 0)
		doc_add_error(d, "hop", "peer '%s': out of memory", t->name);
}

/* One target: its route, then every check; skipped with an error when
 * it would start past the probing bound. */
static void probe_one(struct mesh *ms, size_t k)
{
	const struct mesh_member *t = &ms->m[ms->targets[k]];
	struct peercheck *pc = &ms->checks[k];
	struct doc *d = &ms->check_docs[k];
	struct peercheck_opts o = {0};
	struct route_info *ri = &ms->routes[k];
	bool *have_ri = &ms->have_route[k];
	char spec[PROTO_MESH_NAME_MAX + 16], err[400];
	bool quick = ms->start.flags & PROTO_START_QUICK;

	peer_spec(t, spec, sizeof(spec));
	if (scan_peer_route(spec, (int)(MESH_PROBE_STEP_US / 1000), &pc->v, ri,
	                    have_ri, d, err, sizeof(err)) < 0) {
		doc_add_error(d, "peer", "%s (member '%s')", err, t->name);
		return;
	}
	if (mono_now_us() > ms->probe_deadline_us) {
		doc_add_error(d, "peer",
		              "peer '%s' (%s) not probed: the mesh's probing "
		              "bound of %.0f s ran out",
		              t->name, spec, (double)ms->start.probe_ms / 1e3);
		return;
	}
	o.step_us = MESH_PROBE_STEP_US;
	o.open_tries = 2;
	o.heartbeat_us = quick ? -1 : PEER_HEARTBEAT_US;
	o.path_us = quick ? -1 : PEER_PATH_US;
	o.outbound = true;
	o.ports = ms->start.ports[0] ? ms->start.ports : NULL;
	o.ports_held = o.ports != NULL;
	o.token_file = ms->o.token_file;
	o.inbound_ports = ms->sample_ports;
	o.ninbound = ms->nsamples;
	o.no_responder_hint = "the member joined the mesh, so its responder "
	                      "runs unless it died: something on the path "
	                      "stops the connection";
	peercheck_run(pc, &o, d);
	retry_silent(ms, t, pc, d);
	hop_failed(ms, k, pc, d);
	scan_peer_settle(&pc->v, d);
	/* a connection held idle, then used (issue 48): only toward a
	 * peer whose responder answered fresh connections */
	if (ms->o.idle_us > 0 && pc->obj != NULL && pc->rc == 0 &&
	    pc->v.peer_addr[0] != '\0' &&
	    idle_probe(pc->v.peer_addr, t->port, ms->o.token_file,
	               ms->o.idle_us,
	               MESH_IDLE_WAIT_US, &ms->idle[k]) < 0)
		doc_add_error(d, "idle", "peer '%s': %s", t->name,
		              strerror(errno));
}

/* A worker: takes the next target until none is left. */
static void *worker(void *arg)
{
	struct mesh *ms = arg;

	for (;;) {
		size_t k = atomic_fetch_add(&ms->next_target, 1);

		if (k >= ms->ntargets)
			break;
		probe_one(ms, k);
		atomic_fetch_add(&ms->targets_done, 1);
	}
	return NULL;
}

/* The plan's targets among the members that joined, in rank order. */
static int plan_targets(struct mesh *ms)
{
	size_t *joined = calloc(ms->n, sizeof(*joined)), nj = 0, me = 0;
	size_t *idx = calloc(ms->n, sizeof(*idx));

	if (joined == NULL || idx == NULL) {
		free(joined);
		free(idx);
		return -1;
	}
	for (size_t i = 0; i < ms->n; i++)
		if (ms->m[i].state == PROTO_MS_JOINED) {
			if ((int)i == ms->rank)
				me = nj;
			joined[nj++] = i;
		}
	ms->ntargets =
	    meshplan_targets(me, nj, ms->start.pair_limit, idx, ms->n);
	for (size_t k = 0; k < ms->ntargets; k++)
		idx[k] = joined[idx[k]];
	ms->targets = idx;
	free(joined);
	return 0;
}

/* See mesh_int.h. */
int mesh_probe_start(struct mesh *ms)
{
	struct scan *s = ms->scan;
	size_t nw;

	/* node 0's plan may name ports this node was not given */
	mesh_hold_ports(ms, ms->start.ports);
	if (plan_targets(ms) < 0 || scan_peers_alloc(s, ms->ntargets) < 0)
		return -1;
	if (port_range_read(&s->sr, &s->eph_lo, &s->eph_hi) < 0) {
		s->eph_lo = s->eph_hi = 0;
		doc_add_error(&s->run.doc, "ports", "cannot read %s: %s",
		              PORT_RANGE_PATH, strerror(errno));
	}
	/* no peer starts later than one peer's bound before the end */
	ms->probe_deadline_us = mono_now_us() +
	                        (long long)ms->start.probe_ms * 1000 -
	                        MESH_PEER_IDLE_US(&ms->o);
	if (ms->ntargets == 0)
		return 0;
	ms->checks = calloc(ms->ntargets, sizeof(*ms->checks));
	ms->check_docs = calloc(ms->ntargets, sizeof(*ms->check_docs));
	ms->routes = calloc(ms->ntargets, sizeof(*ms->routes));
	ms->have_route = calloc(ms->ntargets, sizeof(*ms->have_route));
	ms->idle = calloc(ms->ntargets, sizeof(*ms->idle));
	if (ms->checks == NULL || ms->check_docs == NULL || ms->idle == NULL ||
	    ms->routes == NULL || ms->have_route == NULL)
		return -1;
	for (size_t k = 0; k < ms->ntargets; k++)
		if (doc_init(&ms->check_docs[k], "netprobe", NULL) < 0)
			return -1;
	nw = ms->start.concurrency < ms->ntargets ? ms->start.concurrency
	                                          : ms->ntargets;
	ms->workers = calloc(nw, sizeof(*ms->workers));
	if (ms->workers == NULL)
		return -1;
	if (ms->o.verbose)
		cmd_note(&ms->run, "probing %zu peers, %zu at once",
		         ms->ntargets, nw);
	for (size_t i = 0; i < nw; i++) {
		int e = pthread_create(&ms->workers[i], NULL, worker, ms);

		if (e != 0) {
			errno = e;
			/* the started ones take every target */
			if (ms->nworkers > 0)
				break;
			return -1;
		}
		ms->nworkers++;
	}
	return 0;
}

/* See mesh_int.h. */
bool mesh_probe_done(struct mesh *ms)
{
	return atomic_load(&ms->targets_done) >= ms->ntargets;
}

/* The `mesh` object of this node's document: who it is in the mesh and
 * what it probed. */
static json_t *mesh_json(const struct mesh *ms)
{
	json_t *t = json_array();
	const struct mesh_member *me = &ms->m[ms->rank];

	for (size_t k = 0; t != NULL && k < ms->ntargets; k++)
		json_array_append_new(t,
		                      json_string(ms->m[ms->targets[k]].name));
	return json_pack(
	    "{s:i, s:i, s:s, s:s, s:s, s:s, s:i, s:o, s:{s:i, "
	    "s:i, s:i, s:b, s:s?}, s:o*}",
	    "rank", ms->rank, "size", (int)ms->n, "name", me->name, "target",
	    me->target, "source", ms->env.source, "variables",
	    ms->env.vars, "port", (int)ms->port, "targets", t, "plan",
	    "all_pairs", (int)ms->start.pair_limit, "concurrency",
	    (int)ms->start.concurrency, "probe_ms", (int)ms->start.probe_ms,
	    "quick", (ms->start.flags & PROTO_START_QUICK) != 0, "ports",
	    ms->start.ports[0] ? ms->start.ports : NULL, "ports",
	    ms->start.ports[0] ? mesh_hold_json(ms) : NULL);
}

/* What this node resolved rank 0's entry to (it probed it), or NULL:
 * rank 0 itself, or rank 0 not among its targets. */
static const char *rank0_addr(const struct mesh *ms)
{
	if (ms->rank == 0)
		return NULL;
	for (size_t k = 0; k < ms->ntargets; k++)
		if (ms->targets[k] == 0 && ms->checks[k].v.peer_addr[0] != '\0')
			return ms->checks[k].v.peer_addr;
	return NULL;
}

/* See mesh_int.h. */
int mesh_probe_finish(struct mesh *ms)
{
	struct scan *s = ms->scan;

	for (size_t i = 0; i < ms->nworkers; i++)
		pthread_join(ms->workers[i], NULL);
	ms->nworkers = 0;
	s->npeers = 0;
	for (size_t k = 0; k < ms->ntargets; k++) {
		struct peercheck *pc = &ms->checks[k];
		const struct mesh_member *t = &ms->m[ms->targets[k]];
		size_t j = s->npeers;

		if (doc_merge(&s->run.doc, &ms->check_docs[k]) < 0)
			return -1;
		/* a name that did not resolve is an error in the document,
		 * not a peer without a route for the recommendation */
		if (pc->v.peer_addr[0] == '\0')
			continue;
		s->peers[j] = pc->v;
		if (pc->obj == NULL) {
			s->peer_json[j] = peer_verdict_to_json(&pc->v);
		} else {
			peercheck_decide(pc, s->eph_lo, s->eph_hi, &s->fw,
			                 &s->run.doc);
			peercheck_decide_member(pc, t->name, t->port,
			                        &s->run.doc);
			if (idle_decide(&ms->idle[k], t->name, pc->v.peer_addr,
			                pc->obj, &s->run.doc) < 0)
				return -1;
			s->peer_json[j] = json_incref(pc->obj);
		}
		/* the route this node looked up toward the peer (ip route
		 * get: rules and tables included), the evidence the report
		 * reads where the pair fails (issue 31) */
		if (ms->have_route[k] && json_is_object(s->peer_json[j]) &&
		    json_object_get(s->peer_json[j], "route") == NULL)
			json_object_set_new(s->peer_json[j], "route",
			                    route_to_json(&ms->routes[k]));
		if (scan_peer_match_json(&pc->v, s->peer_json[j]) < 0)
			return -1;
		if (!s->have_lookup && ms->have_route[k]) {
			s->lookup = ms->routes[k];
			s->have_lookup = true;
		}
		s->npeers++;
	}
	if (decide_mesh_taken(ms->taken, ms->ntaken, &s->run.doc) < 0 ||
	    decide_master_rank0(&s->env, &s->master, &s->ifaces, ms->rank,
	                        ms->n > 0 ? ms->m[0].target : NULL,
	                        rank0_addr(ms), s->peers, s->npeers,
	                        &s->run.doc) < 0 ||
	    scan_decide(s) != 0 || scan_build_doc(s) < 0 ||
	    doc_set(&s->run.doc, "mesh", mesh_json(ms)) < 0)
		return -1;
	doc_set_fixed(&s->run.doc, NULL, ms->m[ms->rank].name);
	ms->own_doc =
	    json_dumps(s->run.doc.root, JSON_COMPACT | JSON_SORT_KEYS);
	if (ms->own_doc == NULL)
		return -1;
	ms->own_doclen = strlen(ms->own_doc);
	return 0;
}
