/* netprobe mesh's deciders (decide_mesh.c): the membership findings of
 * node 0's mesh document, from what the rendezvous collected. */
#ifndef NP_DECIDE_MESH_H
#define NP_DECIDE_MESH_H

#include <stddef.h>

#include "doc/doc.h"

/* What became of one member, as node 0 saw it. */
enum mesh_outcome {
	MESH_OUT_DONE = 0,  /* joined and sent its results, or still may */
	MESH_OUT_MISSING,   /* did not join within the timeout */
	MESH_OUT_DUPLICATE, /* the same node as an earlier entry */
	MESH_OUT_DIED,      /* joined, then closed or went silent */
};

struct mesh_member_facts {
	const char *name;     /* as the report names it */
	const char *entry;    /* the list entry ("" for none) */
	const char *why;      /* the reason node 0 recorded */
	const char *observed; /* the address it joined from */
	long long join_us;    /* when it joined, since node 0 started */
	enum mesh_outcome outcome;
};

/* A join node 0 turned away: the rendezvous chose its code. */
struct mesh_reject_facts {
	enum finding_code code;
	const char *who, *why;
};

/* Adds mesh-node-missing, mesh-node-duplicate and mesh-node-died for the
 * members (source names the membership's source, "slurm", "hosts"), then
 * one finding per join turned away. Returns 0, or -1 on no memory. */
int decide_mesh(const char *source, const struct mesh_member_facts *m, size_t n,
                const struct mesh_reject_facts *r, size_t nr, struct doc *d);

#endif
