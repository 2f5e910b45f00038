/* Payload codecs of the responder protocol: one field table per message
 * (proto_codec.h) in wire order, walked by one encoder and one decoder;
 * then frames, and the names of types and error codes. */
#include "wire/proto_msg.h"

#include <stddef.h>
#include <string.h>

#include "wire/portstate.h"
#include "wire/proto_codec.h"
#include "wire/proto_mesh.h"

/* HELLO: u16 version, u16 flags, u16 max_ports, u32 max_lifetime_ms,
 * str8 node, str8 software. */
#define HE(f) offsetof(struct proto_hello, f)
static const struct pf_field hello_f[] = {
    PF_NUM_C(PF_U16, HE(proto_version),
             PF_MIN(1, "protocol version 0", PF_DEC)),
    PF_NUM(PF_U16, HE(flags)),
    PF_NUM_C(PF_U16, HE(max_ports),
             PF_MAX(PROTO_MAX_PORTS, "max_ports too large", PF_DEC)),
    PF_NUM(PF_U32, HE(max_lifetime_ms)),
    PF_STR(HE(node), PROTO_NODE_MAX),
    PF_STR(HE(software), PROTO_SOFT_MAX),
};

/* REFLECT_REPLY: u8 family, u16 port, 4 or 16 address bytes. */
#define RR(f) offsetof(struct proto_reflect_reply, f)
static const struct pf_field reflect_reply_f[] = {
    PF_NUM_C(PF_U8, RR(family), PF_EITHER(4, 6, "bad address family", PF_BOTH)),
    PF_NUM(PF_U16, RR(port)),
    {.kind = PF_ADDR, .off = RR(addr), .ref = RR(family), .refk = PF_U8},
};

/* The transports version 1 knows, TCP and UDP; port counts. */
#define TRANSPORT(who) PF_EITHER(PROTO_TCP, PROTO_UDP, "bad transport", who)
#define NPORTS_MIN PF_MIN(1, "bad port count", PF_BOTH)
#define NPORTS_MAX PF_MAX(PROTO_MAX_PORTS, "bad port count", PF_BOTH)

/* LISTEN: u8 proto, u8 flags, u32 lifetime_ms, u16 n, n ports (none
 * with EPHEMERAL). */
#define LI(f) offsetof(struct proto_listen, f)
static const struct pf_field listen_port_f[] = {
    PF_EL_C(PF_U16, LI(ports), 2, PF_MIN(1, "port 0", PF_DEC)),
};
static const struct pf_field listen_f[] = {
    PF_NUM_C(PF_U8, LI(proto), TRANSPORT(PF_BOTH)),
    PF_NUM_C(PF_U8, LI(flags),
             PF_MASK(PROTO_LISTEN_EPHEMERAL, "unknown flags", PF_DEC)),
    PF_NUM(PF_U32, LI(lifetime_ms)),
    PF_NUM_C(PF_U16, LI(nports), NPORTS_MIN, NPORTS_MAX),
    {.kind = PF_ARRAY,
     .ref = LI(nports),
     .refk = PF_U16,
     .max = PROTO_MAX_PORTS,
     .skip_off = LI(flags),
     .skip_mask = PROTO_LISTEN_EPHEMERAL,
     .sub = listen_port_f,
     .nsub = PF_LEN(listen_port_f)},
};

/* LISTEN_REPLY: u8 proto, u32 lifetime_ms, u16 range lo and hi, u16
 * n, then n x (u16 port, u8 status). */
#define LR(f) offsetof(struct proto_listen_reply, f)
static const struct pf_field listen_reply_port_f[] = {
    PF_EL_C(PF_U16, LR(ports), 2, PF_MIN(1, "bad port result", PF_DEC)),
    PF_EL_C(PF_U8, LR(status), 1,
            PF_MAX(PROTO_LS_FAILED, "bad port result", PF_DEC)),
};
static const struct pf_field listen_reply_f[] = {
    PF_NUM_C(PF_U8, LR(proto), TRANSPORT(PF_DEC)),
    PF_NUM(PF_U32, LR(lifetime_ms)),
    PF_NUM(PF_U16, LR(range_lo)),
    PF_REF_C(PF_U16, LR(range_hi), LR(range_lo), PF_U16,
             PF_GE_REF("bad port range", PF_DEC)),
    PF_NUM_C(PF_U16, LR(nports), NPORTS_MAX),
    PF_ARR(LR(nports), PF_U16, PROTO_MAX_PORTS, listen_reply_port_f),
};

/* CONNECT_BACK: u8 proto, u32 timeout_ms, u16 n, n ports. */
#define CB(f) offsetof(struct proto_connect_back, f)
static const struct pf_field connect_back_port_f[] = {
    PF_EL_C(PF_U16, CB(ports), 2, PF_MIN(1, "port 0", PF_DEC)),
};
static const struct pf_field connect_back_f[] = {
    PF_NUM_C(PF_U8, CB(proto), TRANSPORT(PF_BOTH)),
    PF_NUM(PF_U32, CB(timeout_ms)),
    PF_NUM_C(PF_U16, CB(nports), NPORTS_MIN, NPORTS_MAX),
    PF_ARR(CB(nports), PF_U16, PROTO_MAX_PORTS, connect_back_port_f),
};

/* CONNECT_BACK_REPLY: u8 proto, u16 n, then n x (u16 port, u8 state,
 * u32 rtt_us, str8 reason). */
#define CBR(f) offsetof(struct proto_connect_back_reply, f)
#define CBR_R(f) (CBR(r) + offsetof(struct proto_cb_result, f))
#define CBR_STEP sizeof(struct proto_cb_result)
static const struct pf_field cb_result_f[] = {
    PF_EL_C(PF_U16, CBR_R(port), CBR_STEP,
            PF_MIN(1, "bad port result", PF_DEC)),
    PF_EL_C(PF_U8, CBR_R(state), CBR_STEP,
            PF_MAX(PORT_RESOLVE, "bad port result", PF_DEC)),
    PF_EL(PF_U32, CBR_R(rtt_us), CBR_STEP),
    {.kind = PF_STR8,
     .off = CBR_R(reason),
     .stride = CBR_STEP,
     .max = PROTO_REASON_MAX,
     .whole = true},
};
static const struct pf_field connect_back_reply_f[] = {
    PF_NUM_C(PF_U8, CBR(proto), TRANSPORT(PF_DEC)),
    PF_NUM_C(PF_U16, CBR(nports), NPORTS_MAX),
    PF_ARR(CBR(nports), PF_U16, PROTO_MAX_PORTS, cb_result_f),
};

/* MTU_REPLY: u32 seq, u32 bytes, u32 ifmtu. */
#define MR(f) offsetof(struct proto_mtu_reply, f)
static const struct pf_field mtu_reply_f[] = {
    PF_NUM(PF_U32, MR(seq)),
    PF_NUM(PF_U32, MR(bytes)),
    PF_NUM(PF_U32, MR(ifmtu)),
};

/* MTU_PROBE: a u32 seq, then any padding. */
static const struct pf_field mtu_probe_f[] = {PF_NUM(PF_U32, 0)};

/* ERROR: u16 code, then the message to the end of the payload. */
#define ER(f) offsetof(struct proto_error, f)
static const struct pf_field error_f[] = {
    PF_NUM(PF_U16, ER(code)),
    {.kind = PF_TAIL_STR, .off = ER(msg), .max = PROTO_ERRMSG_MAX},
};

/* The heartbeat stamp: u32 seq, u64 send time. */
#define ES(f) offsetof(struct proto_echo_stamp, f)
static const struct pf_field echo_stamp_f[] = {
    PF_NUM(PF_U32, ES(seq)),
    PF_NUM(PF_U64, ES(sent_us)),
};

/* The timed echo: the stamp, then u32 ask, u32 held_us. */
#define ET(f) offsetof(struct proto_echo_timed, f)
static const struct pf_field echo_timed_f[] = {
    PF_NUM(PF_U32, ET(seq)),
    PF_NUM(PF_U64, ET(sent_us)),
    PF_NUM(PF_U32, ET(ask)),
    PF_NUM(PF_U32, ET(held_us)),
};

/* The messages of version 1, one table each. */
static const struct pf_msg hello_m = PF_MSG(hello_f, struct proto_hello, NULL);
static const struct pf_msg reflect_reply_m =
    PF_MSG(reflect_reply_f, struct proto_reflect_reply, NULL);
static const struct pf_msg listen_m =
    PF_MSG(listen_f, struct proto_listen, NULL);
static const struct pf_msg listen_reply_m =
    PF_MSG(listen_reply_f, struct proto_listen_reply, NULL);
static const struct pf_msg connect_back_m =
    PF_MSG(connect_back_f, struct proto_connect_back, NULL);
static const struct pf_msg connect_back_reply_m =
    PF_MSG(connect_back_reply_f, struct proto_connect_back_reply, NULL);
static const struct pf_msg mtu_reply_m =
    PF_MSG(mtu_reply_f, struct proto_mtu_reply, NULL);
static const struct pf_msg mtu_probe_m = {mtu_probe_f, 1, sizeof(uint32_t),
                                          NULL, true};
static const struct pf_msg error_m = PF_MSG(error_f, struct proto_error, NULL);
static const struct pf_msg echo_stamp_m =
    PF_MSG(echo_stamp_f, struct proto_echo_stamp, NULL);
static const struct pf_msg echo_timed_m =
    PF_MSG(echo_timed_f, struct proto_echo_timed, NULL);

/* The encoders and decoders proto_msg.h declares, one pair a table. */
PF_CODEC(hello, struct proto_hello)
PF_CODEC(reflect_reply, struct proto_reflect_reply)
PF_CODEC(listen, struct proto_listen)
PF_CODEC(listen_reply, struct proto_listen_reply)
PF_CODEC(connect_back, struct proto_connect_back)
PF_CODEC(connect_back_reply, struct proto_connect_back_reply)
PF_CODEC(mtu_reply, struct proto_mtu_reply)
PF_CODEC(error, struct proto_error)
PF_CODEC(echo_stamp, struct proto_echo_stamp)
PF_CODEC(echo_timed, struct proto_echo_timed)

/* See proto_msg.h: the payload is the client's, so only a payload of the
 * timed echo's length that asks is written, and only its held_us. */
int proto_echo_timed_fill(uint8_t *p, size_t len, uint32_t held_us)
{
	struct proto_echo_timed t;
	const char *why;

	if (len != PROTO_ECHO_TIMED_LEN ||
	    proto_echo_timed_decode(p, len, &t, &why) < 0 ||
	    t.ask != PROTO_ECHO_HELD_ASK)
		return 0;
	t.held_us = held_us;
	return proto_echo_timed_encode(&t, p, len) == (int)len;
}

/* MTU_PROBE: the seq; padding of any length may follow. */
int proto_mtu_probe_decode(const uint8_t *p, size_t len, uint32_t *seq,
                           const char **why)
{
	return pf_decode(&mtu_probe_m, p, len, seq, why);
}

/* A payload of exactly want bytes (nonce, MAC, the auth result). */
int proto_fixed_decode(const uint8_t *p, size_t len, size_t want, uint8_t *out,
                       const char **why)
{
	if (len != want) {
		*why = len < want ? "truncated payload" : "trailing bytes";
		return -1;
	}
	if (want)
		memcpy(out, p, want);
	return 0;
}

/* Header then payload; the payload may already sit after the header. */
int proto_frame_build(uint8_t *buf, size_t cap, uint8_t type,
                      const uint8_t *payload, size_t len)
{
	if (len > PROTO_MAX_PAYLOAD || cap < PROTO_HDR_LEN ||
	    len > cap - PROTO_HDR_LEN)
		return -1;
	proto_hdr_encode(buf, type, 0, (uint32_t)len);
	if (len && buf + PROTO_HDR_LEN != payload)
		memmove(buf + PROTO_HDR_LEN, payload, len);
	return (int)(PROTO_HDR_LEN + len);
}

/* The table of each version-1 type whose payload has one; the others are
 * checked by hand in proto_frame_check. */
static const struct pf_msg *const by_type[] = {
    [PROTO_HELLO] = &hello_m,
    [PROTO_REFLECT_REPLY] = &reflect_reply_m,
    [PROTO_LISTEN] = &listen_m,
    [PROTO_LISTEN_REPLY] = &listen_reply_m,
    [PROTO_CONNECT_BACK] = &connect_back_m,
    [PROTO_CONNECT_BACK_REPLY] = &connect_back_reply_m,
    [PROTO_MTU_PROBE] = &mtu_probe_m,
    [PROTO_MTU_REPLY] = &mtu_reply_m,
    [PROTO_ERROR] = &error_m,
};

/* Header check, length check, then the payload decoder of its type. */
int proto_frame_check(const uint8_t *buf, size_t len, const char **why)
{
	struct proto_hdr h;
	const uint8_t *p = buf + PROTO_HDR_LEN;
	size_t n;
	union {
		struct proto_hello hello;
		struct proto_reflect_reply rr;
		struct proto_listen l;
		struct proto_listen_reply lr;
		struct proto_connect_back cb;
		struct proto_connect_back_reply cbr;
		struct proto_mtu_reply mr;
		struct proto_error e;
		uint32_t seq;
		uint8_t raw[PROTO_NONCE_LEN];
	} u;
	int rc = 0;

	if (proto_hdr_decode(buf, len, &h, why) < 0)
		return -1;
	n = len - PROTO_HDR_LEN;
	if (n != h.length) {
		*why = n < h.length ? "truncated frame" : "trailing bytes";
		return -1;
	}
	switch (h.type) {
	case PROTO_REFLECT:
		rc = proto_fixed_decode(p, n, 0, u.raw, why);
		break;
	case PROTO_ECHO:
	case PROTO_ECHO_REPLY:
		break;
	case PROTO_AUTH_CHALLENGE: /* empty from the client */
		if (n != 0)
			rc = proto_fixed_decode(p, n, PROTO_NONCE_LEN, u.raw,
			                        why);
		break;
	case PROTO_AUTH_RESPONSE: /* one byte from the responder */
		if (n != 1)
			rc =
			    proto_fixed_decode(p, n, PROTO_MAC_LEN, u.raw, why);
		break;
	case PROTO_JOIN:
	case PROTO_MESH_START:
	case PROTO_MEMBERS:
	case PROTO_RESULT:
	case PROTO_VERDICT:
		rc = proto_mesh_check(h.type, p, n, why);
		break;
	default:
		if (h.type >= PF_LEN(by_type) || by_type[h.type] == NULL) {
			*why = "unknown type";
			return -1;
		}
		rc = pf_decode(by_type[h.type], p, n, &u, why);
		break;
	}
	return rc < 0 ? -1 : h.type;
}

/* Shows the start of a foreign reply in an error message. */
void proto_printable(const uint8_t *p, size_t len, char *out, size_t n)
{
	size_t j = 0;

	if (n == 0)
		return;
	for (size_t i = 0; i < len && j + 1 < n; i++) {
		if (p[i] == '\r' || p[i] == '\n')
			break;
		out[j++] = (p[i] >= 0x20 && p[i] <= 0x7e) ? (char)p[i] : '.';
	}
	out[j] = '\0';
}

/* Names for the ERROR codes of proto_msg.h. */
const char *proto_err_name(unsigned code)
{
	static const char *const names[] = {
	    "unknown",  "malformed",   "unsupported",   "refused",
	    "limit",    "auth-failed", "auth-required", "busy",
	    "internal", "rejected",    "dropped"};

	return code < sizeof(names) / sizeof(names[0]) ? names[code]
	                                               : "unknown";
}

/* Names for the frame types of proto.h. */
const char *proto_type_name(unsigned type)
{
	static const char *const names[] = {
	    "unknown",        "hello",
	    "reflect",        "reflect-reply",
	    "echo",           "echo-reply",
	    "listen",         "listen-reply",
	    "connect-back",   "connect-back-reply",
	    "mtu-probe",      "mtu-reply",
	    "auth-challenge", "auth-response",
	    "error",          "join",
	    "mesh-start",     "members",
	    "result",         "verdict"};

	return type < sizeof(names) / sizeof(names[0]) ? names[type]
	                                               : "unknown";
}
