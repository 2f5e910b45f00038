/* The netprobe responder protocol, version 2 (docs/protocol.md): a 12-byte
 * header in network byte order, then `length` payload bytes. TCP carries a
 * stream of frames, UDP one frame per datagram. The framing is version 1
 * (the header's byte); HELLO's proto_version names the message set: 1 the
 * responder's, 2 adds the mesh rendezvous (types 15-19). */
#ifndef NP_PROTO_H
#define NP_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define PROTO_MAGIC 0x4e505242u /* "NPRB" */
#define PROTO_FRAME_VERSION 1 /* the header's version byte */
#define PROTO_VERSION 2       /* HELLO's proto_version: message set */
#define PROTO_VERSION_MESH 2  /* the first with the mesh rendezvous */
#define PROTO_HDR_LEN 12
#define PROTO_MAX_PAYLOAD 65000u /* fits one UDP datagram with the header */
#define PROTO_DEFAULT_PORT 7470
/* netprobe mesh's port when neither -p nor MASTER_PORT names one: not the
 * responder's, so a mesh runs on a node whose netprobe-serve unit holds
 * 7470 (issue 44) */
#define PROTO_MESH_DEFAULT_PORT 7471

enum proto_type {
	PROTO_HELLO = 1,        /* both ways: version, node, netprobe version */
	PROTO_REFLECT = 2,      /* ask: what source address did you see? */
	PROTO_REFLECT_REPLY = 3,
	PROTO_ECHO = 4,         /* heartbeat; reply returns the payload */
	PROTO_ECHO_REPLY = 5,
	PROTO_LISTEN = 6,       /* open short-lived listeners on ports */
	PROTO_LISTEN_REPLY = 7,
	PROTO_CONNECT_BACK = 8, /* connect to the requester on ports */
	PROTO_CONNECT_BACK_REPLY = 9,
	PROTO_MTU_PROBE = 10,   /* UDP, DF set: u32 seq then padding */
	PROTO_MTU_REPLY = 11,   /* u32 seq, u32 bytes received (UDP payload) */
	PROTO_AUTH_CHALLENGE = 12,
	PROTO_AUTH_RESPONSE = 13,
	PROTO_ERROR = 14,       /* u16 code, then a UTF-8 message */
	/* version 2: the mesh rendezvous on node 0 (proto_mesh.h) */
	PROTO_JOIN = 15,        /* a node: who it is, what it advertises */
	PROTO_MESH_START = 16,  /* node 0: the plan, then MEMBERS frames */
	PROTO_MEMBERS = 17,     /* node 0: a slice of the member list */
	PROTO_RESULT = 18,      /* a node: a slice of its JSON document */
	PROTO_VERDICT = 19,     /* node 0: the mesh's exit status */
	PROTO_TYPE_MAX = PROTO_VERDICT,
};

struct proto_hdr {
	uint32_t magic;
	uint8_t version;
	uint8_t type;
	uint16_t flags;
	uint32_t length;
};

/* Writes the 12-byte header for type and payload length into buf. */
void proto_hdr_encode(uint8_t *buf, uint8_t type, uint16_t flags,
		      uint32_t length);

/* Decodes and validates a header from at least PROTO_HDR_LEN bytes.
 * Returns 0, or -1 with *why set ("bad magic", "unsupported version",
 * "payload too large", "unknown type"). */
int proto_hdr_decode(const uint8_t *buf, size_t len, struct proto_hdr *h,
		     const char **why);

#endif
