/* Payloads of the mesh rendezvous, protocol version 2 (docs/protocol.md,
 * "Mesh rendezvous"): a node joins node 0 (JOIN), node 0 answers the plan
 * and the member list (MESH_START, MEMBERS), the node sends its document
 * back in slices (RESULT) and node 0 the mesh's exit status (VERDICT).
 * Pure code like proto_msg.h: no sockets; every decoder rejects
 * malformed, truncated or overlong payloads. */
#ifndef NP_PROTO_MESH_H
#define NP_PROTO_MESH_H

#include <stddef.h>
#include <stdint.h>

#include "wire/proto.h"

#define PROTO_MESH_NAME_MAX 255  /* member names and probe targets */
#define PROTO_MESH_HOST_MAX 64   /* a hostname */
#define PROTO_MESH_ADDRS 8       /* addresses one JOIN advertises */
#define PROTO_MESH_DUPS 16       /* other entries a node also matches */
#define PROTO_MESH_PORTS_MAX 200 /* the --ports text */
#define PROTO_MESH_MSG_MAX 255   /* the VERDICT's message */
#define PROTO_MESH_NO_RANK 0xffffffffu
#define PROTO_MESH_DOC_MAX (64u << 20) /* one node's document */
#define PROTO_MESH_CHUNK 60000u        /* document bytes per RESULT */

/* JOIN flags. */
#define PROTO_JOIN_TOKEN 0x1 /* the node holds a token file */

/* MESH_START flags. */
#define PROTO_START_QUICK 0x1 /* no heartbeat, no path MTU search */

/* ERROR code of a join node 0 turned away (the message says why). */
#define PROTO_E_REJECTED 9

/* A member's state in MEMBERS. */
enum proto_member_state {
	PROTO_MS_JOINED = 0,
	PROTO_MS_MISSING = 1,   /* did not join within the timeout */
	PROTO_MS_REJECTED = 2,  /* joined, turned away (token, list, rank) */
	PROTO_MS_DUPLICATE = 3, /* the same node as an earlier entry */
	PROTO_MS_MAX = PROTO_MS_DUPLICATE,
};

struct proto_mesh_addr {
	uint8_t family;   /* 4 or 6 */
	uint8_t addr[16]; /* 4 bytes used for IPv4 */
};

struct proto_join {
	uint32_t rank;      /* PROTO_MESH_NO_RANK: not found in the list */
	uint32_t size;      /* members as this node counts them, >= 1 */
	uint32_t list_hash; /* proto_mesh_list_hash of its list; 0 none */
	uint16_t port;      /* its responder's TCP and UDP port */
	uint8_t flags;      /* PROTO_JOIN_* */
	char name[PROTO_MESH_NAME_MAX + 1];     /* its entry, or hostname */
	char hostname[PROTO_MESH_HOST_MAX + 1]; /* gethostname */
	uint8_t naddrs; /* the first is its source toward node 0 */
	struct proto_mesh_addr addrs[PROTO_MESH_ADDRS];
	uint8_t ndups; /* further list entries that name this node */
	uint32_t dups[PROTO_MESH_DUPS];
};

struct proto_mesh_start {
	uint32_t members;     /* entries the MEMBERS frames carry, >= 1 */
	uint32_t index;       /* the receiver's entry */
	uint32_t pair_limit;  /* every pair up to this many joined members */
	uint32_t probe_ms;    /* each node's probing ends within this */
	uint32_t result_ms;   /* node 0 waits this long for documents */
	uint16_t concurrency; /* peers probed at once, >= 1 */
	uint8_t flags;        /* PROTO_START_* */
	char ports[PROTO_MESH_PORTS_MAX + 1]; /* extra ports, "" none */
};

struct proto_member {
	uint32_t rank;
	uint8_t state;                      /* enum proto_member_state */
	uint16_t port;                      /* its responder; 0 unless joined */
	char name[PROTO_MESH_NAME_MAX + 1]; /* as reports name it */
	char target[PROTO_MESH_NAME_MAX + 1]; /* what peers probe */
};

struct proto_result {
	uint32_t total;      /* the document's bytes, 1..PROTO_MESH_DOC_MAX */
	uint32_t offset;     /* of this slice */
	const uint8_t *data; /* into the payload */
	size_t len;          /* >= 1; offset + len <= total */
};

struct proto_verdict {
	uint8_t status; /* the exit status: 0, 1 or 2 */
	char msg[PROTO_MESH_MSG_MAX + 1];
};

/* Encoders write the payload into buf (cap bytes) and return its length,
 * or -1 when it does not fit or a field is out of range; decoders read
 * exactly len bytes and return 0, or -1 with *why a static phrase. */
int proto_join_encode(const struct proto_join *m, uint8_t *buf, size_t cap);
int proto_join_decode(const uint8_t *p, size_t len, struct proto_join *m,
                      const char **why);
int proto_mesh_start_encode(const struct proto_mesh_start *m, uint8_t *buf,
                            size_t cap);
int proto_mesh_start_decode(const uint8_t *p, size_t len,
                            struct proto_mesh_start *m, const char **why);

/* MEMBERS: u32 first (the index of m[0]), u16 n, then n members. */
int proto_members_encode(uint32_t first, const struct proto_member *m, size_t n,
                         uint8_t *buf, size_t cap);
/* Decodes at most cap members into out (*n of them, *first their first
 * index); more than cap is malformed. */
int proto_members_decode(const uint8_t *p, size_t len, uint32_t *first,
                         struct proto_member *out, size_t cap, size_t *n,
                         const char **why);
/* The bytes one member takes in a MEMBERS payload. */
size_t proto_member_size(const struct proto_member *m);

int proto_result_encode(uint32_t total, uint32_t offset, const void *data,
                        size_t len, uint8_t *buf, size_t cap);
int proto_result_decode(const uint8_t *p, size_t len, struct proto_result *m,
                        const char **why);
int proto_verdict_encode(const struct proto_verdict *m, uint8_t *buf,
                         size_t cap);
int proto_verdict_decode(const uint8_t *p, size_t len, struct proto_verdict *m,
                         const char **why);

/* FNV-1a over the names, each followed by '\n': equal lists hash equal,
 * so node 0 can tell a node whose --hosts differs. Never 0. */
uint32_t proto_mesh_list_hash(char *const *names, size_t n);

/* Decodes a mesh payload by type (15-19), as proto_frame_check does for
 * the others. Returns 0, or -1 with *why. */
int proto_mesh_check(uint8_t type, const uint8_t *p, size_t len,
                     const char **why);

#endif
