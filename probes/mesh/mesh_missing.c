/* netprobe mesh on node 0: a listed member that did not join is probed
 * before the verdict (issue 31), so "not started" and "started but cannot
 * reach node 0" read apart: its responder answering node 0 means it runs
 * and its way to node 0 is what fails; a refusal means nothing listens
 * there; silence leaves both open. Bounded: a few members, one short
 * connect each. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh_int.h"
#include "wire/client.h"

/* at most this many missing members are probed, each within this long */
#define MISSING_MAX 8
#define MISSING_US 1500000LL

/* Node 0's own route toward a member that did not answer it either,
 * kept for the routing table's deciders (decide_ecmp.h, issue 48): a
 * multipath route whose picked next hop is dead, or a drop route, is
 * node 0's own fault toward that member. */
static void lost_route(const struct mesh *ms, const char *host,
                       unsigned port)
{
	struct scan *s = ms->scan;
	struct peer_verdict *v;
	struct route_info ri;
	bool have_ri;
	struct doc scratch;
	char spec[PROTO_MESH_NAME_MAX + 16], err[400];

	if (s->lost == NULL &&
	    (s->lost = calloc(MISSING_MAX, sizeof(*s->lost))) == NULL)
		return;
	if (s->nlost >= MISSING_MAX)
		return;
	v = &s->lost[s->nlost];
	snprintf(spec, sizeof(spec), strchr(host, ':') ? "[%s]:%u" : "%s:%u",
	         host, port);
	/* what fails here is said by the member's why already: the
	 * lookup's own errors stay out of node 0's document */
	if (doc_init(&scratch, "netprobe", NULL) < 0)
		return;
	if (scan_peer_route(spec, (int)(MISSING_US / 1000), v, &ri, &have_ri,
	                    &scratch, err, sizeof(err)) == 0 &&
	    v->have_match) {
		scan_peer_settle(v, &scratch);
		s->nlost++;
	}
	doc_free(&scratch);
}

/* Appends what node 0 saw of member m's responder to its why. */
static void probe_member(const struct mesh *ms, struct mesh_member *m)
{
	struct np_client c;
	size_t l = strlen(m->why);
	const char *host = m->target[0] ? m->target : m->entry;
	unsigned port = m->port ? m->port : ms->port;

	if (host[0] == '\0' || l >= sizeof(m->why) - 1)
		return;
	int rc = client_open(&c, host, port, MISSING_US, ms->o.token_file);

	/* the address its joins would come from, for the report to match
	 * node 0's ruleset against (decide_missing.c) */
	snprintf(m->probed, sizeof(m->probed), "%s", c.addr);
	if (rc == 0)
		snprintf(m->why + l, sizeof(m->why) - l,
		         ", although its responder answers node 0 at %.48s:%u: "
		         "it runs and cannot reach node 0 (its route or "
		         "firewall toward node 0, or node 0's on port %u)",
		         c.addr, port, ms->port);
	else if (c.code == CLIENT_E_CONNECT && c.sys_errno == ECONNREFUSED)
		snprintf(m->why + l, sizeof(m->why) - l,
		         "; nothing listens at %.48s:%u (it refused node 0): "
		         "netprobe mesh is not running there, or a rule there "
		         "rejects or redirects the port",
		         c.addr[0] ? c.addr : host, port);
	else {
		snprintf(m->why + l, sizeof(m->why) - l,
		         "; %.48s:%u does not answer node 0 either (%.60s): "
		         "the node is down, or the path drops both ways",
		         c.addr[0] ? c.addr : host, port, c.err);
		lost_route(ms, host, port);
	}
	client_close(&c);
}

/* See mesh_int.h. */
void mesh_probe_missing(struct mesh *ms)
{
	size_t probed = 0;

	for (size_t i = 0; i < ms->n && probed < MISSING_MAX; i++)
		if (ms->m[i].state == PROTO_MS_MISSING && (int)i != ms->rank) {
			probe_member(ms, &ms->m[i]);
			probed++;
		}
}
