/* The member's side of the mesh rendezvous (docs/protocol.md, "Mesh
 * rendezvous"): join node 0 over a client connection, receive the plan
 * and the member list, send this node's document back, read the verdict.
 * Every call ends by its deadline (mono_now_us microseconds); failures
 * return -1 with c->code and c->err set, as in client.h. */
#ifndef NP_CLIENT_MESH_H
#define NP_CLIENT_MESH_H

#include "wire/client.h"
#include "wire/proto_mesh.h"

/* Connects to node 0 at host:port and says HELLO within timeout_us.
 * Returns 0, or -1: CLIENT_E_CONNECT while nothing listens yet (the
 * caller retries), CLIENT_E_PROTOCOL when what answers runs no mesh
 * rendezvous: c->hello says what it is (flag PROTO_HELLO_MEMBER: a mesh
 * member's responder; without it `netprobe serve` or an older
 * netprobe). */
int client_mesh_open(struct np_client *c, const char *host, unsigned port,
                     long long timeout_us);

/* client_mesh_open on device dev from source src (both may be NULL). */
int client_mesh_open_via(struct np_client *c, const char *host, unsigned port,
                         long long timeout_us, const char *dev,
                         const char *src);

/* Sends JOIN and, when node 0 asks (its HELLO says it holds a token),
 * proves the token of token_file (NULL: none, and node 0 turns the join
 * away naming this node). Returns 0 when node 0 took the join, or -1
 * (CLIENT_E_REFUSED: node 0's reason in c->err). */
int client_mesh_join(struct np_client *c, const struct proto_join *j,
                     const char *token_file, long long deadline_us);

/* Waits for MESH_START and the MEMBERS frames after it. *members gets
 * st->members entries (malloc'd; the caller frees). Returns 0, or -1. */
int client_mesh_start(struct np_client *c, struct proto_mesh_start *st,
                      struct proto_member **members, long long deadline_us);

/* Sends a document of len bytes as RESULT slices. Returns 0, or -1. */
int client_mesh_result(struct np_client *c, const char *doc, size_t len,
                       long long deadline_us);

/* Waits for the VERDICT. Returns 0, or -1. */
int client_mesh_verdict(struct np_client *c, struct proto_verdict *v,
                        long long deadline_us);

#endif
