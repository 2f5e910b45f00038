/* netprobe mesh's deciders (decide_mesh.c): the membership findings of
 * node 0's mesh document, from what the rendezvous collected, and each
 * node's findings on the --ports ports another process holds. */
#ifndef NP_DECIDE_MESH_H
#define NP_DECIDE_MESH_H

#include <stddef.h>
#include <stdint.h>

#include "doc/doc.h"
#include "kernel/sockowner.h"

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
	/* the join's address and hostname (NULL or "": unknown), and for a
	 * rank another member holds, that member's name, address and
	 * hostname: the report's evidence of an address held twice */
	const char *addr, *hostname;
	const char *held_name, *held_addr, *held_host;
};

/* Adds mesh-node-missing, mesh-node-duplicate and mesh-node-died for the
 * members (source names the membership's source, "slurm", "hosts"), then
 * one finding per join turned away. Returns 0, or -1 on no memory. */
int decide_mesh(const char *source, const struct mesh_member_facts *m, size_t n,
                const struct mesh_reject_facts *r, size_t nr, struct doc *d);

/* A --ports port another process holds on this node (mesh_hold.c), with
 * that process as the socket table names it. */
struct mesh_taken {
	uint16_t port;
	struct sock_owner o;
};

/* One finding per port another process holds: port-in-use, or
 * listener-loopback-only where it listens on loopback only. Returns 0,
 * or -1 on no memory. */
int decide_mesh_taken(const struct mesh_taken *taken, size_t n,
                      struct doc *d);

#endif
