/* netprobe mesh on a member (every node but node 0): join node 0 within
 * the join timeout, take the plan and the members, probe, send the
 * document, wait for the verdict. Every wait is bounded. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include "base/monoclock.h"
#include "mesh/mesh_int.h"
#include "wire/client_mesh.h"

#define JOIN_RETRY_NS 250000000L

/* True (reported) when this node is in the list neither by address nor
 * by name and has no rank from its launcher, yet others' joins for node
 * 0 reach its responder: it is node 0 behind NAT (a container listed by
 * its host's address), which cannot know it. No use waiting the join
 * timeout. */
static bool unlisted_node0(struct mesh *ms)
{
	char own[320];
	unsigned n = atomic_load(&ms->joins_here);

	if (ms->rank >= 0 || n == 0)
		return false;
	mesh_own_addrs(ms, own, sizeof(own));
	cmd_failf(&ms->run, "mesh",
	          "%u join%s for node 0 (%s) reached this node "
	          "(%s, addresses %s), which is not in --hosts: it is node 0 "
	          "behind NAT (a container listed by its host's address), and "
	          "cannot know it; give it its rank: NODE_RANK=0 (or the "
	          "launcher's GROUP_RANK or SLURM_NODEID)",
	          n, n == 1 ? "" : "s", ms->node0, ms->hostname,
	          own[0] ? own : "none");
	return true;
}

/* True when what answered node 0's port is a plain responder (`netprobe
 * serve`, no mesh): node 0's mesh cannot hold a port serve holds, so
 * waiting out the join timeout is no use. */
static bool plain_responder(const struct np_client *c)
{
	return c->code == CLIENT_E_PROTOCOL && c->hello.proto_version > 0 &&
	       !(c->hello.flags & (PROTO_HELLO_MESH | PROTO_HELLO_MEMBER));
}

/* The hint when what answered node 0's address was a mesh member
 * (audit48): that node is no node 0 in its own membership, so this node's
 * node 0 (its --hosts' first entry, or its launcher's MASTER_ADDR) names
 * another node than the others' does. Neither node 0's firewall nor the
 * path: a member there answered. */
static void member_hint(const struct mesh *ms, const char *member, int n,
                        char *buf, size_t len)
{
	const char *src = ms->env.source ? ms->env.source : "--hosts";
	bool vars = ms->env.vars[0] && strcmp(ms->env.vars, src) != 0;

	snprintf(buf, len,
	         "; %d of the tries reached netprobe mesh member '%s' there, "
	         "not node 0's rendezvous: that node is not node 0 in its own "
	         "membership, so this node's node 0 (%s%s%s) names another "
	         "node than the other nodes' does (neither node 0's firewall "
	         "nor the path: a member answered); fix: give every node the "
	         "same --hosts, whose first entry is node 0 (under a launcher: "
	         "the same MASTER_ADDR, rank 0's address)",
	         n, member, src, vars ? ": " : "", vars ? ms->env.vars : "");
}

/* TCP keepalives on the connection to node 0 every second (issue 48):
 * it stays quiet while this node probes, and a stateful box on the way
 * that times out idle connections would forget it, losing this node's
 * document. A failure to set them only leaves it as it was. */
static void keepalive(int fd)
{
	int on = 1, idle = 1, intvl = 1, cnt = 60;

	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on)) < 0)
		return;
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl,
	                 sizeof(intvl));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
}

/* Connects to node 0, retrying until the join timeout: node 0 may start
 * after us. A plain responder answering for MESH_SERVE_GRACE_US (one
 * being replaced by node 0's mesh is gone by then) ends it at once.
 * Returns 0, or 2 (reported). */
static int join_connect(struct mesh *ms)
{
	long long end = ms->t0_us + ms->o.join_us, serve_since = 0, now;
	char last[CLIENT_ERR_MAX] = "", hint[1024], route[1024];
	char vdev[IF_NAMESIZE] = "", vsrc[INET6_ADDRSTRLEN] = "";
	char member[sizeof(ms->c.hello.node)] = "";
	int tries = 0, last_errno = 0, member_tries = 0;
	bool have_via = false, use_via = false, denied = false;

	for (;;) {
		if (client_mesh_open_via(&ms->c, ms->node0, ms->node0_port,
		                         MESH_STEP_US, use_via ? vdev : NULL,
		                         use_via ? vsrc : NULL) == 0) {
			keepalive(ms->c.fd);
			if (use_via)
				cmd_note(&ms->run,
				         "joined node 0 by bridge %s from %s: "
				         "this node's route toward it leaves by "
				         "a port of that bridge, which receives "
				         "nothing (its scan says why)",
				         vdev, vsrc);
			return 0;
		}
		snprintf(last, sizeof(last), "%s", ms->c.err);
		last_errno =
		    ms->c.code == CLIENT_E_CONNECT ? ms->c.sys_errno : 0;
		if (ms->c.code == CLIENT_E_PROTOCOL &&
		    (ms->c.hello.flags & PROTO_HELLO_MEMBER) &&
		    !(ms->c.hello.flags & PROTO_HELLO_MESH)) {
			snprintf(member, sizeof(member), "%s", ms->c.hello.node);
			member_tries++;
		}
		client_close(&ms->c);
		tries++;
		if (unlisted_node0(ms))
			return 2;
		/* the route leaves by a bridge's port: every other try goes
		 * by the bridge, so node 0 gets this node's evidence (issue
		 * 48), and the plain tries still work where broute rules
		 * hand the port its frames; its probes keep the kernel's
		 * routes */
		if (use_via && ms->c.code == CLIENT_E_IO) {
			have_via = false; /* no CAP_NET_RAW: as before */
			denied = true;
		} else if (!have_via && !denied) {
			have_via = mesh_bridge_way(ms, vdev, sizeof(vdev),
			                           vsrc, sizeof(vsrc));
		}
		use_via = have_via && !use_via;
		now = mono_now_us();
		if (!plain_responder(&ms->c))
			serve_since = 0;
		else if (serve_since == 0)
			serve_since = now;
		else if (now - serve_since >= MESH_SERVE_GRACE_US)
			return cmd_failf(&ms->run, "mesh", "node 0 at %s",
			                 last);
		if (now >= end)
			break;
		nanosleep(&(struct timespec){0, JOIN_RETRY_NS}, NULL);
	}
	mesh_unlisted_hint(ms, hint, sizeof(hint));
	/* a connect that failed here (no source port) is no route's, nor
	 * one that a member answered */
	if (member_tries > 0)
		member_hint(ms, member, member_tries, route, sizeof(route));
	else if (!mesh_limit_hint(last_errno, route, sizeof(route))) {
		mesh_route_toward(ms->node0, route, sizeof(route));
		/* where that way is a VXLAN overlay, its settings (issue
		 * 48); a member's or a port range's hint ends in its fix */
		mesh_overlay_toward(ms, route + strlen(route),
		                    sizeof(route) - strlen(route));
	}
	snprintf(ms->join_err, sizeof(ms->join_err),
	         "node 0 (%s:%u) did not take the join within "
	         "%.0f s (%d tries): %s%s%s",
	         ms->node0, ms->node0_port, (double)ms->o.join_us / 1e6, tries,
	         last, hint, route);
	cmd_failf(&ms->run, "mesh", "%s", ms->join_err);
	return 2;
}

/* The members node 0 sent, over ours (names, targets, ports, states). */
static int take_members(struct mesh *ms, const struct proto_member *pm)
{
	if (ms->start.members != ms->n) {
		cmd_failf(&ms->run, "mesh",
		          "node 0 sent %u members, this node "
		          "counts %zu",
		          ms->start.members, ms->n);
		return 2;
	}
	for (size_t i = 0; i < ms->n; i++) {
		struct mesh_member *m = &ms->m[i];

		m->state = pm[i].state;
		m->port = pm[i].port;
		snprintf(m->name, sizeof(m->name), "%s", pm[i].name);
		snprintf(m->target, sizeof(m->target), "%s", pm[i].target);
	}
	ms->rank = (int)ms->start.index;
	return 0;
}

/* Writes this node's document into --out as NAME.json. */
static void keep_own(struct mesh *ms)
{
	char path[4096], why[512];
	json_t *doc;

	if (ms->o.out_dir == NULL)
		return;
	if (mkdir(ms->o.out_dir, 0755) < 0 && errno != EEXIST)
		cmd_failf(&ms->run, "mesh", "cannot create '%s': %s",
		          ms->o.out_dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/%s.json", ms->o.out_dir,
	         ms->m[ms->rank].name);
	doc = json_loads(ms->own_doc, 0, NULL);
	if (doc == NULL)
		cmd_failf(&ms->run, "mesh", "cannot write '%s': not JSON",
		          path);
	else if (doc_json_write_output(doc, path, NULL, why, sizeof(why)) < 0)
		cmd_failf(&ms->run, "mesh", "%s", why);
	json_decref(doc);
}

/* The faults a member that could not join found on itself, one line
 * each on standard error with the command that fixes it here (issue 48):
 * node 0 never gets them, and a fault of the node's own (a ruleset that
 * drops every peer's packets, blind48b 05) is often why it could not
 * join. Returns 0, or -1 when its scan could not decide. */
static int own_faults(struct mesh *ms)
{
	struct scan *s = ms->scan;
	size_t i;
	json_t *f;

	if (scan_decide(s) < 0)
		return -1;
	json_array_foreach(s->run.doc.findings, i, f) {
		const char *cmd = json_string_value(
		    json_object_get(f, "command"));
		const char *sev = json_string_value(
		    json_object_get(f, "severity"));

		if (sev == NULL || strcmp(sev, "fault") != 0)
			continue;
		cmd_note(&ms->run, "this node's own scan: %s: %s%s%s",
		         json_string_value(json_object_get(f, "code")),
		         json_string_value(json_object_get(f, "summary")),
		         cmd != NULL ? "; the fix here: " : "",
		         cmd != NULL ? cmd : "");
	}
	return 0;
}

/* A member that could not join node 0 still reports (issue 48): its own
 * faults on standard error (own_faults), its scan, and why it could not
 * join (its route toward node 0 included), as NAME.json in --out, which
 * `netprobe report` merges with node 0's documents. Nothing without a
 * scan; no document without --out. */
static void leave_doc(struct mesh *ms)
{
	struct scan *s = ms->scan;
	char path[4096], why[512], name[PROTO_MESH_NAME_MAX + 1];

	if (s == NULL || ms->join_err[0] == '\0')
		return;
	if (own_faults(ms) < 0) {
		cmd_failf(&ms->run, "mesh", "cannot build this node's document");
		return;
	}
	if (ms->o.out_dir == NULL)
		return;
	/* its list entry, as node 0 names it (the names node 0 sends come
	 * only with a join) */
	snprintf(name, sizeof(name), "%s",
	         ms->rank >= 0 && (size_t)ms->rank < ms->n
	             ? (ms->m[ms->rank].name[0] ? ms->m[ms->rank].name
	                                        : ms->m[ms->rank].entry)
	             : ms->hostname);
	if (name[0] == '\0' || strchr(name, '/') != NULL)
		return;
	doc_add_error(&s->run.doc, "mesh", "%s", ms->join_err);
	if (scan_build_doc(s) < 0 ||
	    doc_set(&s->run.doc, "mesh",
	            json_pack("{s:i, s:s, s:b, s:s, s:i}", "rank", ms->rank,
	                      "name", name, "joined", 0, "node0", ms->node0,
	                      "node0_port", (int)ms->node0_port)) < 0) {
		cmd_failf(&ms->run, "mesh", "cannot build this node's document");
		return;
	}
	doc_set_fixed(&s->run.doc, NULL, name);
	if (mkdir(ms->o.out_dir, 0755) < 0 && errno != EEXIST) {
		cmd_failf(&ms->run, "mesh", "cannot create '%s': %s",
		          ms->o.out_dir, strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/%s.json", ms->o.out_dir, name);
	if (doc_json_write_output(s->run.doc.root, path, NULL, why,
	                          sizeof(why)) < 0)
		cmd_failf(&ms->run, "mesh", "%s", why);
	else
		cmd_note(&ms->run, "this node's document is in '%s': merge it "
		                   "with node 0's (netprobe report)",
		         path);
}

/* See mesh_int.h. */
int mesh_join_run(struct mesh *ms)
{
	struct proto_member *pm = NULL;
	struct proto_join j;
	struct proto_verdict v;
	long long t, start_us;
	int rc;

	if ((rc = join_connect(ms)) != 0) {
		leave_doc(ms);
		return rc;
	}
	mesh_join_msg(ms, ms->c.local_addr, &j);
	t = mono_now_us();
	if (client_mesh_join(&ms->c, &j, ms->o.token_file, t + MESH_STEP_US) <
	        0 ||
	    client_mesh_start(&ms->c, &ms->start, &pm,
	                      t + ms->o.join_us + MESH_RESULT_SLACK_US) < 0) {
		snprintf(ms->join_err, sizeof(ms->join_err), "%s%s",
		         ms->c.code == CLIENT_E_REFUSED
		             ? "node 0 turned this node away: "
		             : "",
		         ms->c.err);
		cmd_failf(&ms->run, "mesh", "%s", ms->join_err);
		leave_doc(ms);
		free(pm);
		return 2;
	}
	start_us = mono_now_us();
	rc = take_members(ms, pm);
	free(pm);
	if (rc != 0)
		return rc;
	if (ms->o.verbose)
		cmd_note(&ms->run,
		         "joined as rank %d '%s'; probing bound "
		         "%.1f s",
		         ms->rank, ms->m[ms->rank].name,
		         (double)ms->start.probe_ms / 1e3);
	if (mesh_probe_start(ms) < 0 || mesh_probe_finish(ms) < 0) {
		cmd_failf(&ms->run, "mesh", "cannot probe: %s",
		          strerror(errno ? errno : ENOMEM));
		return 2;
	}
	keep_own(ms);
	if (client_mesh_result(&ms->c, ms->own_doc, ms->own_doclen,
	                       start_us +
	                           (long long)ms->start.result_ms * 1000) < 0 ||
	    client_mesh_verdict(&ms->c, &v,
	                        start_us +
	                            (long long)ms->start.result_ms * 1000 +
	                            MESH_VERDICT_SLACK_US) < 0) {
		cmd_failf(&ms->run, "mesh", "%s", ms->c.err);
		return 2;
	}
	cmd_note(&ms->run, "%s (this node: %s, %zu peers probed)", v.msg,
	         ms->m[ms->rank].name, ms->ntargets);
	return v.status;
}
