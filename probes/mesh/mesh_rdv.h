/* netprobe mesh, the rendezvous on node 0: its state, shared by
 * mesh_rdv.c (the loop), mesh_rdv_join.c (admission and results) and
 * mesh_rdv_conn.c (the connections' input and output) only. */
#ifndef NETPROBE_MESH_RDV_H
#define NETPROBE_MESH_RDV_H

#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>

#include "mesh/mesh_guard.h"
#include "mesh/mesh_int.h"
#include "wire/auth.h"

#define RDV_FRAME_MAX (PROTO_HDR_LEN + PROTO_MAX_PAYLOAD)
#define RDV_MAX_CONNS (2 * MESH_MAX_NODES)
#define RDV_CLOSE_US 2000000LL /* a refusal is flushed for this long */

enum rdv_state {
	RC_NEW = 0, /* the JOIN is in its buffer */
	RC_AUTH,    /* challenge sent, waiting for the response */
	RC_IN,      /* a member: waits for the start, then sends results */
	RC_CLOSING, /* flush what is queued, then close */
	RC_DEAD,
};

struct rdv_conn {
	int fd;
	enum rdv_state st;
	char addr[INET6_ADDRSTRLEN];
	unsigned port;
	uint8_t *in;
	size_t nin, incap;
	uint8_t *out;
	size_t nout, outoff;
	const uint8_t *shared; /* the MEMBERS frames, after out */
	size_t nshared, sharedoff;
	int member;
	struct proto_join j;
	bool by_addr; /* its rank found by its address (mesh_rdv_join.c) */
	uint8_t nonce[PROTO_NONCE_LEN];
	uint8_t *doc;
	uint32_t doctotal, docgot;
	long long close_by_us;
	long long since_us; /* handed over: the token's deadline runs */
};

struct rdv_pending {
	int fd;
	struct sockaddr_storage peer;
	uint8_t *in, *out;
	size_t nin, nout;
};

struct mesh_rdv {
	pthread_mutex_t mu;
	struct rdv_pending *pend; /* handed over, not yet taken */
	size_t npend, cappend;
	int wake[2];
	struct rdv_conn **c;
	size_t nc, capc;
	struct auth_key key;
	bool have_key;
	bool started;
	uint8_t *members; /* the MEMBERS frames, shared by every member */
	size_t nmembers;
	struct pollfd *pfd;
	size_t cappfd;
	/* the joins that had not proved the token (mesh_guard.h) */
	struct rdv_unauth *unauth;
	size_t capunauth;
	unsigned long long unauth_late, unauth_over, unauth_fds;
	/* node 0 was short of descriptors: how often it found so, its
	 * limit (0: none), and whether it was during the joins */
	unsigned long long fds_short;
	unsigned long long fd_limit;
	bool fds_short_joining;
};

/* mesh_rdv_conn.c */
int rdv_conn_queue(struct rdv_conn *c, uint8_t type, const void *payload,
                   size_t len);
void rdv_conn_refuse(struct rdv_conn *c, unsigned code, const char *msg);
void rdv_conn_gone(struct mesh *ms, struct rdv_conn *c, const char *how);
void rdv_conn_write(struct mesh *ms, struct rdv_conn *c);
bool rdv_conn_pending(const struct rdv_conn *c);
void rdv_peer_addr(const struct sockaddr_storage *ss, char *out, size_t len);
void rdv_reap(struct mesh_rdv *r);

/* mesh_rdv_guard.c: drops the joins that have not proved the token past
 * RDV_UNAUTH_US, past RDV_UNAUTH_MAX (the oldest first), and, while node
 * 0 is short of descriptors, past RDV_UNAUTH_SHORT_US; counts each
 * kind. */
void rdv_guard(struct mesh *ms);

/* mesh_rdv_join.c */
void rdv_conn_frames(struct mesh *ms, struct rdv_conn *c);

#endif
