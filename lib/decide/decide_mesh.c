/* The membership of a mesh, judged on node 0 (decide_mesh.h): each node
 * that did not take part, or took part twice, by name, and each join
 * turned away; and on every node, the --ports ports another process
 * holds. */
#include "decide/decide_mesh.h"

#include <stdio.h>
#include <string.h>

/* One member's finding, if its outcome has one. */
static int member(const char *source, size_t i,
                  const struct mesh_member_facts *m, struct doc *d)
{
	json_t *ev = NULL;

	if (m->outcome == MESH_OUT_DONE)
		return 0;
	if (evidence_add(&ev, "mesh", "entry %zu of %s: %s", i + 1, source,
	                 m->entry[0] ? m->entry : m->name) < 0)
		goto nomem;
	switch (m->outcome) {
	case MESH_OUT_MISSING:
		return doc_add_finding(d, FINDING_MESH_NODE_MISSING, -1, ev,
		                       NULL, "%s %s", m->name, m->why);
	case MESH_OUT_DUPLICATE:
		return doc_add_finding(d, FINDING_MESH_NODE_DUPLICATE, -1, ev,
		                       NULL, "%s: %s", m->name, m->why);
	case MESH_OUT_DIED:
		if (evidence_add(&ev, "mesh", "joined from %s after %.1f s",
		                 m->observed, (double)m->join_us / 1e6) < 0)
			goto nomem;
		return doc_add_finding(d, FINDING_MESH_NODE_DIED, -1, ev, NULL,
		                       "%s %s; the others' results stand",
		                       m->name, m->why);
	case MESH_OUT_DONE:
		break;
	}
	json_decref(ev);
	return 0;
nomem:
	json_decref(ev);
	return -1;
}

/* Who said what, as fields of the last evidence object of ev: address
 * and hostname (and name), each only where known. Returns 0, or -1 on
 * no memory. */
static int who_fields(json_t *ev, const char *name, const char *addr,
                      const char *host)
{
	json_t *o = json_array_get(ev, json_array_size(ev) - 1);

	if (o == NULL)
		return -1;
	if (name != NULL && name[0] != '\0' &&
	    json_object_set_new(o, "name", json_string(name)) < 0)
		return -1;
	if (addr != NULL && addr[0] != '\0' &&
	    json_object_set_new(o, "address", json_string(addr)) < 0)
		return -1;
	if (host != NULL && host[0] != '\0' &&
	    json_object_set_new(o, "hostname", json_string(host)) < 0)
		return -1;
	return 0;
}

/* The evidence of one join turned away into *ev: who, and where it
 * claimed a rank another member holds, that member. Returns 0, or -1 on
 * no memory. */
static int reject_evidence(const struct mesh_reject_facts *r, json_t **ev)
{
	if (evidence_add(ev, "rendezvous", "join from %s", r->who) < 0 ||
	    who_fields(*ev, NULL, r->addr, r->hostname) < 0)
		return -1;
	if (r->held_name == NULL || r->held_name[0] == '\0')
		return 0;
	if (evidence_add(ev, "rendezvous", "%s holds that rank, joined from %s "
	                 "(host %s)",
	                 r->held_name,
	                 r->held_addr && r->held_addr[0] ? r->held_addr : "?",
	                 r->held_host && r->held_host[0] ? r->held_host
	                                                 : "?") < 0 ||
	    who_fields(*ev, r->held_name, r->held_addr, r->held_host) < 0)
		return -1;
	return 0;
}

int decide_mesh(const char *source, const struct mesh_member_facts *m, size_t n,
                const struct mesh_reject_facts *r, size_t nr, struct doc *d)
{
	for (size_t i = 0; i < n; i++)
		if (member(source, i, &m[i], d) < 0)
			return -1;
	for (size_t i = 0; i < nr; i++) {
		json_t *ev = NULL;

		if (reject_evidence(&r[i], &ev) < 0) {
			json_decref(ev);
			return -1;
		}
		if (doc_add_finding(d, r[i].code, -1, ev, NULL, "%s %s",
		                    r[i].who, r[i].why) < 0)
			return -1;
	}
	return 0;
}

/* True for a listener address on loopback only. */
static bool loopback_addr(const char *a)
{
	return strncmp(a, "127.", 4) == 0 || strcmp(a, "::1") == 0 ||
	       strncmp(a, "::ffff:127.", 11) == 0;
}

/* See decide_mesh.h. */
int decide_mesh_taken(const struct mesh_taken *taken, size_t n,
                      struct doc *d)
{
	for (size_t i = 0; i < n; i++) {
		const struct mesh_taken *t = &taken[i];
		char who[SOCKOWNER_COMM_MAX + 32];
		json_t *ev = NULL;
		bool lo = loopback_addr(t->o.addr);

		if (t->o.pid > 0)
			snprintf(who, sizeof(who), "%s (pid %d)",
			         t->o.comm[0] ? t->o.comm : "?", t->o.pid);
		else
			snprintf(who, sizeof(who), "another process");
		evidence_add(&ev, "bind", "%u/tcp: address already in use",
		             t->port);
		evidence_add(&ev, "/proc/net/tcp", "%u/tcp: listener on %s%s%s",
		             t->port, t->o.addr[0] ? t->o.addr : "?",
		             t->o.pid > 0 ? " held by " : "",
		             t->o.pid > 0 ? who : "");
		if (lo) {
			char fix[384];

			snprintf(fix, sizeof(fix),
			         "make %s listen on 0.0.0.0 or on the address "
			         "peers use, or stop it so the job can take "
			         "port %u (ss -ltnp 'sport = :%u')",
			         who, t->port, t->port);
			if (doc_add_finding(d, FINDING_LISTENER_LOOPBACK_ONLY, -1,
			                    ev, fix,
			                    "port %u/tcp is held by %s on %s only: "
			                    "peers cannot reach it",
			                    t->port, who, t->o.addr) < 0)
				return -1;
		} else {
			char fix[384];

			snprintf(fix, sizeof(fix),
			         "if %s is not the job's own, stop it before "
			         "the job starts, or give the job another port "
			         "(ss -ltnp 'sport = :%u' shows it)",
			         who, t->port);
			if (doc_add_finding(
			        d, FINDING_PORT_IN_USE, -1, ev, fix,
			        "port %u/tcp is already held by %s: "
			        "peers reached it, a job that needs the "
			        "port cannot bind it",
			        t->port, who) < 0)
				return -1;
		}
	}
	return 0;
}
