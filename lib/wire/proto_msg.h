/* Payloads of the responder protocol (docs/protocol.md): one struct per
 * message type, encoders that write network byte order into a buffer and
 * decoders that reject every malformed or truncated payload. Pure code:
 * no sockets, no allocation; the fuzz target feeds proto_frame_check. */
#ifndef NP_PROTO_MSG_H
#define NP_PROTO_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/proto.h"

#define PROTO_NODE_MAX 64    /* node name bytes in HELLO */
#define PROTO_SOFT_MAX 32    /* software version bytes in HELLO */
#define PROTO_MAX_PORTS 256  /* ports in one LISTEN or CONNECT_BACK */
#define PROTO_REASON_MAX 32  /* reason bytes per connect-back port */
#define PROTO_ERRMSG_MAX 200 /* message bytes in ERROR */
#define PROTO_NONCE_LEN 32   /* AUTH_CHALLENGE nonce */
#define PROTO_MAC_LEN 32     /* HMAC-SHA256 */

/* HELLO flags. */
#define PROTO_HELLO_AUTH 0x1   /* responder: a token is configured */
#define PROTO_HELLO_AUTHED 0x2 /* responder: this connection is trusted */
#define PROTO_HELLO_MESH 0x4   /* responder: a mesh rendezvous runs here */
#define PROTO_HELLO_MEMBER 0x8 /* responder: a mesh member's, not serve's */

/* LISTEN flags. */
#define PROTO_LISTEN_EPHEMERAL 0x1 /* responder picks samples of its range */

/* Transport numbers as on the wire (IPPROTO_TCP, IPPROTO_UDP). */
#define PROTO_TCP 6
#define PROTO_UDP 17

/* LISTEN_REPLY per-port results. */
enum proto_listen_status {
	PROTO_LS_OPENED = 0,
	PROTO_LS_IN_USE = 1, /* bind said EADDRINUSE */
	PROTO_LS_DENIED = 2, /* bind said EACCES (privileged port) */
	PROTO_LS_LIMIT = 3,  /* over the responder's listener limit */
	PROTO_LS_FAILED = 4, /* any other error */
};

/* ERROR codes. */
enum proto_err {
	PROTO_E_MALFORMED = 1,   /* the request did not decode */
	PROTO_E_UNSUPPORTED = 2, /* type not valid here (e.g. over UDP) */
	PROTO_E_REFUSED = 3,     /* policy: too many ports, too long */
	PROTO_E_LIMIT = 4,       /* rate, clients or listeners exhausted */
	PROTO_E_AUTH_FAILED = 5,
	PROTO_E_AUTH_REQUIRED = 6,
	PROTO_E_BUSY = 7, /* a connect-back is already running */
	PROTO_E_INTERNAL = 8,
	/* 9: PROTO_E_REJECTED, a mesh join turned away (proto_mesh.h) */
	PROTO_E_DROPPED = 10, /* the responder closes this connection now;
	                       * the message says why (sent unasked) */
};

struct proto_hello {
	uint16_t proto_version;
	uint16_t flags;           /* PROTO_HELLO_* */
	uint16_t max_ports;       /* responder: ports per request; client 0 */
	uint32_t max_lifetime_ms; /* responder: longest listener; client 0 */
	char node[PROTO_NODE_MAX + 1];
	char software[PROTO_SOFT_MAX + 1];
};

struct proto_reflect_reply {
	uint8_t family;   /* 4 or 6 */
	uint8_t addr[16]; /* 4 bytes used for IPv4 */
	uint16_t port;
};

struct proto_listen {
	uint8_t proto; /* PROTO_TCP or PROTO_UDP */
	uint8_t flags; /* PROTO_LISTEN_* */
	uint32_t lifetime_ms;
	uint16_t nports; /* with EPHEMERAL: samples wanted, ports unused */
	uint16_t ports[PROTO_MAX_PORTS];
};

struct proto_listen_reply {
	uint8_t proto;
	uint32_t lifetime_ms; /* granted */
	uint16_t range_lo;    /* ip_local_port_range; 0 when unknown */
	uint16_t range_hi;
	uint16_t nports;
	uint16_t ports[PROTO_MAX_PORTS];
	uint8_t status[PROTO_MAX_PORTS]; /* enum proto_listen_status */
};

struct proto_connect_back {
	uint8_t proto; /* PROTO_TCP only in version 1 */
	uint32_t timeout_ms;
	uint16_t nports;
	uint16_t ports[PROTO_MAX_PORTS];
};

struct proto_cb_result {
	uint16_t port;
	uint8_t state;   /* enum port_state */
	uint32_t rtt_us; /* 0xffffffff unknown */
	char reason[PROTO_REASON_MAX + 1];
};

struct proto_connect_back_reply {
	uint8_t proto;
	uint16_t nports;
	struct proto_cb_result r[PROTO_MAX_PORTS];
};

struct proto_mtu_reply {
	uint32_t seq;
	uint32_t bytes; /* UDP payload bytes received, header included */
	uint32_t ifmtu; /* 0 unknown */
};

struct proto_error {
	uint16_t code; /* enum proto_err */
	char msg[PROTO_ERRMSG_MAX + 1];
};

/* The heartbeat's echo payload: the responder returns it unchanged. */
struct proto_echo_stamp {
	uint32_t seq;
	uint64_t sent_us; /* client's monotonic clock */
};
#define PROTO_ECHO_STAMP_LEN 12

/* The timed echo (docs/protocol.md, ECHO): the stamp, then u32 ask
 * PROTO_ECHO_HELD_ASK and u32 held_us, sent as PROTO_ECHO_HELD_UNKNOWN. A
 * responder that knows it writes held_us, the microseconds the datagram
 * waited in its host between the kernel's receive and the reply; one that
 * does not returns the payload unchanged. The prober takes that time out
 * of the round trip, so a stalled host is not read as a slow link. */
struct proto_echo_timed {
	uint32_t seq;
	uint64_t sent_us; /* client's monotonic clock */
	uint32_t ask;     /* PROTO_ECHO_HELD_ASK */
	uint32_t held_us; /* PROTO_ECHO_HELD_UNKNOWN: not told */
};
#define PROTO_ECHO_TIMED_LEN 20
#define PROTO_ECHO_HELD_ASK 0x484c4431u /* "HLD1" */
#define PROTO_ECHO_HELD_UNKNOWN 0xffffffffu

/* Every encoder writes the payload (no header) into buf of size cap and
 * returns its length, or -1 when cap is too small or a field is out of
 * range. Every decoder reads exactly len bytes and returns 0, or -1 with
 * *why set to a static phrase when the payload is malformed. */
int proto_hello_encode(const struct proto_hello *m, uint8_t *buf, size_t cap);
int proto_hello_decode(const uint8_t *p, size_t len, struct proto_hello *m,
                       const char **why);
int proto_reflect_reply_encode(const struct proto_reflect_reply *m,
                               uint8_t *buf, size_t cap);
int proto_reflect_reply_decode(const uint8_t *p, size_t len,
                               struct proto_reflect_reply *m, const char **why);
int proto_listen_encode(const struct proto_listen *m, uint8_t *buf, size_t cap);
int proto_listen_decode(const uint8_t *p, size_t len, struct proto_listen *m,
                        const char **why);
int proto_listen_reply_encode(const struct proto_listen_reply *m, uint8_t *buf,
                              size_t cap);
int proto_listen_reply_decode(const uint8_t *p, size_t len,
                              struct proto_listen_reply *m, const char **why);
int proto_connect_back_encode(const struct proto_connect_back *m, uint8_t *buf,
                              size_t cap);
int proto_connect_back_decode(const uint8_t *p, size_t len,
                              struct proto_connect_back *m, const char **why);
int proto_connect_back_reply_encode(const struct proto_connect_back_reply *m,
                                    uint8_t *buf, size_t cap);
int proto_connect_back_reply_decode(const uint8_t *p, size_t len,
                                    struct proto_connect_back_reply *m,
                                    const char **why);
int proto_mtu_reply_encode(const struct proto_mtu_reply *m, uint8_t *buf,
                           size_t cap);
int proto_mtu_reply_decode(const uint8_t *p, size_t len,
                           struct proto_mtu_reply *m, const char **why);
int proto_error_encode(const struct proto_error *m, uint8_t *buf, size_t cap);
int proto_error_decode(const uint8_t *p, size_t len, struct proto_error *m,
                       const char **why);
int proto_echo_stamp_encode(const struct proto_echo_stamp *m, uint8_t *buf,
                            size_t cap);
int proto_echo_stamp_decode(const uint8_t *p, size_t len,
                            struct proto_echo_stamp *m, const char **why);
int proto_echo_timed_encode(const struct proto_echo_timed *m, uint8_t *buf,
                            size_t cap);
int proto_echo_timed_decode(const uint8_t *p, size_t len,
                            struct proto_echo_timed *m, const char **why);
/* The responder's half of the timed echo: writes held_us into an ECHO
 * payload in place when it is a timed echo that asks; returns 1 then, 0
 * for any other payload (returned unchanged). */
int proto_echo_timed_fill(uint8_t *p, size_t len, uint32_t held_us);
/* MTU_PROBE: u32 seq then zero padding up to len (len >= 4). */
int proto_mtu_probe_decode(const uint8_t *p, size_t len, uint32_t *seq,
                           const char **why);
/* AUTH_CHALLENGE from the responder: the nonce; from the client: empty.
 * AUTH_RESPONSE from the client: the MAC; from the responder: one byte 1. */
int proto_fixed_decode(const uint8_t *p, size_t len, size_t want, uint8_t *out,
                       const char **why);

/* Writes header and payload into buf (cap bytes). Returns the frame length,
 * or -1 when it does not fit or len exceeds PROTO_MAX_PAYLOAD. */
int proto_frame_build(uint8_t *buf, size_t cap, uint8_t type,
                      const uint8_t *payload, size_t len);

/* Decodes one whole frame (header and payload of exactly len bytes) and
 * its payload by type. Returns the type, or -1 with *why set. The fuzz
 * target's entry point; the responder and client use the same decoders. */
int proto_frame_check(const uint8_t *buf, size_t len, const char **why);

/* Formats up to n leading bytes of a foreign reply for an error message:
 * printable ASCII kept, the rest as '.', stopping at the first newline. */
void proto_printable(const uint8_t *p, size_t len, char *out, size_t n);

/* "malformed", "refused", ... : the name of an ERROR code. */
const char *proto_err_name(unsigned code);

/* Type name ("hello", "echo-reply") for logs; "unknown" otherwise. */
const char *proto_type_name(unsigned type);

#endif
