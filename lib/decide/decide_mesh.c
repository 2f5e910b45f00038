/* The membership of a mesh, judged on node 0 (decide_mesh.h): each node
 * that did not take part, or took part twice, by name, and each join
 * turned away. */
#include "decide/decide_mesh.h"

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

int decide_mesh(const char *source, const struct mesh_member_facts *m, size_t n,
                const struct mesh_reject_facts *r, size_t nr, struct doc *d)
{
	for (size_t i = 0; i < n; i++)
		if (member(source, i, &m[i], d) < 0)
			return -1;
	for (size_t i = 0; i < nr; i++) {
		json_t *ev = NULL;

		if (evidence_add(&ev, "rendezvous", "join from %s", r[i].who) <
		    0) {
			json_decref(ev);
			return -1;
		}
		if (doc_add_finding(d, r[i].code, -1, ev, NULL, "%s %s",
		                    r[i].who, r[i].why) < 0)
			return -1;
	}
	return 0;
}
