/* Payload encoders and decoders of the responder protocol: network byte
 * order, explicit lengths, every read checked against the payload's end. */
#include "wire/proto_msg.h"

#include <string.h>

#include "wire/portstate.h"
#include "wire/proto_mesh.h"
#include "wire/proto_rw.h"

/* HELLO: u16 version, u16 flags, u16 max_ports, u32 max_lifetime_ms,
 * str8 node, str8 software. */
int proto_hello_encode(const struct proto_hello *m, uint8_t *buf, size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	w_u16(&w, m->proto_version);
	w_u16(&w, m->flags);
	w_u16(&w, m->max_ports);
	w_u32(&w, m->max_lifetime_ms);
	w_str8(&w, m->node, PROTO_NODE_MAX);
	w_str8(&w, m->software, PROTO_SOFT_MAX);
	return w_done(&w);
}

/* Rejects version 0, long or unprintable strings, short or long input. */
int proto_hello_decode(const uint8_t *p, size_t len, struct proto_hello *m,
                       const char **why)
{
	struct rd r = {p, len, 0, false};

	memset(m, 0, sizeof(*m));
	m->proto_version = r_u16(&r);
	m->flags = r_u16(&r);
	m->max_ports = r_u16(&r);
	m->max_lifetime_ms = r_u32(&r);
	if (r_str8(&r, m->node, PROTO_NODE_MAX, why) < 0 ||
	    r_str8(&r, m->software, PROTO_SOFT_MAX, why) < 0)
		return -1;
	if (m->proto_version == 0) {
		*why = "protocol version 0";
		return -1;
	}
	if (m->max_ports > PROTO_MAX_PORTS) {
		*why = "max_ports too large";
		return -1;
	}
	return r_end(&r, why);
}

/* REFLECT_REPLY: u8 family, u16 port, 4 or 16 address bytes. */
int proto_reflect_reply_encode(const struct proto_reflect_reply *m,
                               uint8_t *buf, size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	if (m->family != 4 && m->family != 6)
		return -1;
	w_u8(&w, m->family);
	w_u16(&w, m->port);
	w_bytes(&w, m->addr, m->family == 4 ? 4 : 16);
	return w_done(&w);
}

/* Rejects families other than 4 and 6 and wrong lengths. */
int proto_reflect_reply_decode(const uint8_t *p, size_t len,
                               struct proto_reflect_reply *m, const char **why)
{
	struct rd r = {p, len, 0, false};
	const uint8_t *a;

	memset(m, 0, sizeof(*m));
	m->family = r_u8(&r);
	m->port = r_u16(&r);
	if (!r.bad && m->family != 4 && m->family != 6) {
		*why = "bad address family";
		return -1;
	}
	a = r_bytes(&r, m->family == 6 ? 16 : 4);
	if (a)
		memcpy(m->addr, a, m->family == 6 ? 16 : 4);
	return r_end(&r, why);
}

/* Ports must be 1-65535 and at most PROTO_MAX_PORTS of them. */
static int r_ports(struct rd *r, uint16_t n, uint16_t *ports, const char **why)
{
	for (uint16_t i = 0; i < n; i++) {
		ports[i] = r_u16(r);
		if (!r->bad && ports[i] == 0) {
			*why = "port 0";
			return -1;
		}
	}
	return 0;
}

/* True for the transports version 1 knows: TCP and UDP. */
static bool proto_ok(uint8_t proto)
{
	return proto == PROTO_TCP || proto == PROTO_UDP;
}

/* LISTEN: u8 proto, u8 flags, u32 lifetime_ms, u16 n, n ports (none
 * with EPHEMERAL). */
int proto_listen_encode(const struct proto_listen *m, uint8_t *buf, size_t cap)
{
	struct wr w = {buf, cap, 0, false};
	bool eph = m->flags & PROTO_LISTEN_EPHEMERAL;

	if (m->nports == 0 || m->nports > PROTO_MAX_PORTS ||
	    !proto_ok(m->proto))
		return -1;
	w_u8(&w, m->proto);
	w_u8(&w, m->flags);
	w_u32(&w, m->lifetime_ms);
	w_u16(&w, m->nports);
	for (uint16_t i = 0; !eph && i < m->nports; i++)
		w_u16(&w, m->ports[i]);
	return w_done(&w);
}

/* Rejects unknown flags and transports, 0 or >256 ports, port 0. */
int proto_listen_decode(const uint8_t *p, size_t len, struct proto_listen *m,
                        const char **why)
{
	struct rd r = {p, len, 0, false};

	memset(m, 0, sizeof(*m));
	m->proto = r_u8(&r);
	m->flags = r_u8(&r);
	m->lifetime_ms = r_u32(&r);
	m->nports = r_u16(&r);
	if (r.bad)
		return r_end(&r, why);
	if (!proto_ok(m->proto)) {
		*why = "bad transport";
		return -1;
	}
	if (m->flags & ~PROTO_LISTEN_EPHEMERAL) {
		*why = "unknown flags";
		return -1;
	}
	if (m->nports == 0 || m->nports > PROTO_MAX_PORTS) {
		*why = "bad port count";
		return -1;
	}
	if (!(m->flags & PROTO_LISTEN_EPHEMERAL) &&
	    r_ports(&r, m->nports, m->ports, why) < 0)
		return -1;
	return r_end(&r, why);
}

/* LISTEN_REPLY: u8 proto, u32 lifetime_ms, u16 range lo and hi, u16
 * n, then n x (u16 port, u8 status). */
int proto_listen_reply_encode(const struct proto_listen_reply *m, uint8_t *buf,
                              size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	if (m->nports > PROTO_MAX_PORTS)
		return -1;
	w_u8(&w, m->proto);
	w_u32(&w, m->lifetime_ms);
	w_u16(&w, m->range_lo);
	w_u16(&w, m->range_hi);
	w_u16(&w, m->nports);
	for (uint16_t i = 0; i < m->nports; i++) {
		w_u16(&w, m->ports[i]);
		w_u8(&w, m->status[i]);
	}
	return w_done(&w);
}

/* Rejects a range with lo > hi, port 0 and unknown statuses. */
int proto_listen_reply_decode(const uint8_t *p, size_t len,
                              struct proto_listen_reply *m, const char **why)
{
	struct rd r = {p, len, 0, false};

	memset(m, 0, sizeof(*m));
	m->proto = r_u8(&r);
	m->lifetime_ms = r_u32(&r);
	m->range_lo = r_u16(&r);
	m->range_hi = r_u16(&r);
	m->nports = r_u16(&r);
	if (r.bad)
		return r_end(&r, why);
	if (!proto_ok(m->proto)) {
		*why = "bad transport";
		return -1;
	}
	if (m->nports > PROTO_MAX_PORTS) {
		*why = "bad port count";
		return -1;
	}
	if (m->range_lo > m->range_hi) {
		*why = "bad port range";
		return -1;
	}
	for (uint16_t i = 0; i < m->nports && !r.bad; i++) {
		m->ports[i] = r_u16(&r);
		m->status[i] = r_u8(&r);
		if (!r.bad &&
		    (m->ports[i] == 0 || m->status[i] > PROTO_LS_FAILED)) {
			*why = "bad port result";
			return -1;
		}
	}
	return r_end(&r, why);
}

/* CONNECT_BACK: u8 proto, u32 timeout_ms, u16 n, n ports. */
int proto_connect_back_encode(const struct proto_connect_back *m, uint8_t *buf,
                              size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	if (m->nports == 0 || m->nports > PROTO_MAX_PORTS ||
	    !proto_ok(m->proto))
		return -1;
	w_u8(&w, m->proto);
	w_u32(&w, m->timeout_ms);
	w_u16(&w, m->nports);
	for (uint16_t i = 0; i < m->nports; i++)
		w_u16(&w, m->ports[i]);
	return w_done(&w);
}

/* Rejects unknown transports, 0 or >256 ports, port 0. */
int proto_connect_back_decode(const uint8_t *p, size_t len,
                              struct proto_connect_back *m, const char **why)
{
	struct rd r = {p, len, 0, false};

	memset(m, 0, sizeof(*m));
	m->proto = r_u8(&r);
	m->timeout_ms = r_u32(&r);
	m->nports = r_u16(&r);
	if (r.bad)
		return r_end(&r, why);
	if (!proto_ok(m->proto)) {
		*why = "bad transport";
		return -1;
	}
	if (m->nports == 0 || m->nports > PROTO_MAX_PORTS) {
		*why = "bad port count";
		return -1;
	}
	if (r_ports(&r, m->nports, m->ports, why) < 0)
		return -1;
	return r_end(&r, why);
}

/* CONNECT_BACK_REPLY: u8 proto, u16 n, then n x (u16 port, u8 state,
 * u32 rtt_us, str8 reason). */
int proto_connect_back_reply_encode(const struct proto_connect_back_reply *m,
                                    uint8_t *buf, size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	if (m->nports > PROTO_MAX_PORTS)
		return -1;
	w_u8(&w, m->proto);
	w_u16(&w, m->nports);
	for (uint16_t i = 0; i < m->nports; i++) {
		w_u16(&w, m->r[i].port);
		w_u8(&w, m->r[i].state);
		w_u32(&w, m->r[i].rtt_us);
		w_str8(&w, m->r[i].reason, PROTO_REASON_MAX);
	}
	return w_done(&w);
}

/* Rejects port 0, unknown states and bad reasons. */
int proto_connect_back_reply_decode(const uint8_t *p, size_t len,
                                    struct proto_connect_back_reply *m,
                                    const char **why)
{
	struct rd r = {p, len, 0, false};

	memset(m, 0, sizeof(*m));
	m->proto = r_u8(&r);
	m->nports = r_u16(&r);
	if (r.bad)
		return r_end(&r, why);
	if (!proto_ok(m->proto)) {
		*why = "bad transport";
		return -1;
	}
	if (m->nports > PROTO_MAX_PORTS) {
		*why = "bad port count";
		return -1;
	}
	for (uint16_t i = 0; i < m->nports; i++) {
		struct proto_cb_result *c = &m->r[i];

		c->port = r_u16(&r);
		c->state = r_u8(&r);
		c->rtt_us = r_u32(&r);
		if (r.bad)
			return r_end(&r, why);
		if (c->port == 0 || c->state > PORT_RESOLVE) {
			*why = "bad port result";
			return -1;
		}
		if (r_str8(&r, c->reason, PROTO_REASON_MAX, why) < 0)
			return -1;
	}
	return r_end(&r, why);
}

/* MTU_REPLY: u32 seq, u32 bytes, u32 ifmtu. */
int proto_mtu_reply_encode(const struct proto_mtu_reply *m, uint8_t *buf,
                           size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	w_u32(&w, m->seq);
	w_u32(&w, m->bytes);
	w_u32(&w, m->ifmtu);
	return w_done(&w);
}

/* Exactly 12 bytes. */
int proto_mtu_reply_decode(const uint8_t *p, size_t len,
                           struct proto_mtu_reply *m, const char **why)
{
	struct rd r = {p, len, 0, false};

	m->seq = r_u32(&r);
	m->bytes = r_u32(&r);
	m->ifmtu = r_u32(&r);
	return r_end(&r, why);
}

/* MTU_PROBE: a u32 seq, then any padding. */
int proto_mtu_probe_decode(const uint8_t *p, size_t len, uint32_t *seq,
                           const char **why)
{
	struct rd r = {p, len, 0, false};

	*seq = r_u32(&r);
	if (r.bad) {
		*why = "truncated payload";
		return -1;
	}
	return 0;
}

/* ERROR: u16 code, then the message to the end of the payload. */
int proto_error_encode(const struct proto_error *m, uint8_t *buf, size_t cap)
{
	struct wr w = {buf, cap, 0, false};
	size_t n = strnlen(m->msg, PROTO_ERRMSG_MAX + 1);

	if (n > PROTO_ERRMSG_MAX)
		return -1;
	w_u16(&w, m->code);
	w_bytes(&w, m->msg, n);
	return w_done(&w);
}

/* Rejects a message that is long or unprintable. */
int proto_error_decode(const uint8_t *p, size_t len, struct proto_error *m,
                       const char **why)
{
	struct rd r = {p, len, 0, false};
	size_t n;

	memset(m, 0, sizeof(*m));
	m->code = r_u16(&r);
	if (r.bad) {
		*why = "truncated payload";
		return -1;
	}
	n = len - r.off;
	if (n > PROTO_ERRMSG_MAX) {
		*why = "string too long";
		return -1;
	}
	if (!printable(p + r.off, n)) {
		*why = "string not printable";
		return -1;
	}
	memcpy(m->msg, p + r.off, n);
	m->msg[n] = '\0';
	return 0;
}

/* The heartbeat stamp: u32 seq, u64 send time. */
int proto_echo_stamp_encode(const struct proto_echo_stamp *m, uint8_t *buf,
                            size_t cap)
{
	struct wr w = {buf, cap, 0, false};

	w_u32(&w, m->seq);
	w_u32(&w, (uint32_t)(m->sent_us >> 32));
	w_u32(&w, (uint32_t)m->sent_us);
	return w_done(&w);
}

/* Exactly 12 bytes. */
int proto_echo_stamp_decode(const uint8_t *p, size_t len,
                            struct proto_echo_stamp *m, const char **why)
{
	struct rd r = {p, len, 0, false};
	uint64_t hi;

	m->seq = r_u32(&r);
	hi = r_u32(&r);
	m->sent_us = (hi << 32) | r_u32(&r);
	return r_end(&r, why);
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
		uint8_t raw[PROTO_NONCE_LEN];
	} u;
	uint32_t seq;
	int rc = 0;

	if (proto_hdr_decode(buf, len, &h, why) < 0)
		return -1;
	n = len - PROTO_HDR_LEN;
	if (n != h.length) {
		*why = n < h.length ? "truncated frame" : "trailing bytes";
		return -1;
	}
	switch (h.type) {
	case PROTO_HELLO:
		rc = proto_hello_decode(p, n, &u.hello, why);
		break;
	case PROTO_REFLECT:
		rc = proto_fixed_decode(p, n, 0, u.raw, why);
		break;
	case PROTO_REFLECT_REPLY:
		rc = proto_reflect_reply_decode(p, n, &u.rr, why);
		break;
	case PROTO_ECHO:
	case PROTO_ECHO_REPLY:
		break;
	case PROTO_LISTEN:
		rc = proto_listen_decode(p, n, &u.l, why);
		break;
	case PROTO_LISTEN_REPLY:
		rc = proto_listen_reply_decode(p, n, &u.lr, why);
		break;
	case PROTO_CONNECT_BACK:
		rc = proto_connect_back_decode(p, n, &u.cb, why);
		break;
	case PROTO_CONNECT_BACK_REPLY:
		rc = proto_connect_back_reply_decode(p, n, &u.cbr, why);
		break;
	case PROTO_MTU_PROBE:
		rc = proto_mtu_probe_decode(p, n, &seq, why);
		break;
	case PROTO_MTU_REPLY:
		rc = proto_mtu_reply_decode(p, n, &u.mr, why);
		break;
	case PROTO_AUTH_CHALLENGE:
		if (n != 0)
			rc = proto_fixed_decode(p, n, PROTO_NONCE_LEN, u.raw,
			                        why);
		break;
	case PROTO_AUTH_RESPONSE:
		if (n != 1)
			rc =
			    proto_fixed_decode(p, n, PROTO_MAC_LEN, u.raw, why);
		break;
	case PROTO_ERROR:
		rc = proto_error_decode(p, n, &u.e, why);
		break;
	case PROTO_JOIN:
	case PROTO_MESH_START:
	case PROTO_MEMBERS:
	case PROTO_RESULT:
	case PROTO_VERDICT:
		rc = proto_mesh_check(h.type, p, n, why);
		break;
	default:
		*why = "unknown type";
		return -1;
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
	    "unknown",     "malformed",     "unsupported", "refused", "limit",
	    "auth-failed", "auth-required", "busy",        "internal",
	    "rejected"};

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
