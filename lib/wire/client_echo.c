/* REFLECT and ECHO over the held TCP connection: the address the
 * responder saw, and one round trip. */
#include "wire/client.h"

#include <arpa/inet.h>
#include <string.h>

#include "base/monoclock.h"
#include "wire/client_conn.h"

/* REFLECT: the address and port the responder saw. */
int client_reflect(struct np_client *c, char *addr, size_t addrlen,
                   unsigned *port)
{
	struct proto_reflect_reply r;
	const char *why;
	ssize_t n = client_call(c, PROTO_REFLECT, 0, PROTO_REFLECT_REPLY);

	if (n < 0)
		return -1;
	if (proto_reflect_reply_decode(c->buf + PROTO_HDR_LEN, (size_t)n, &r,
	                               &why) < 0)
		return client_fail(c, CLIENT_E_PROTOCOL,
		                   "bad reflect reply: %s", why);
	if (!inet_ntop(r.family == 4 ? AF_INET : AF_INET6, r.addr, addr,
	               (socklen_t)addrlen))
		return client_fail(c, CLIENT_E_USAGE,
		                   "address buffer too small");
	if (port)
		*port = r.port;
	return 0;
}

/* One ECHO and its matching reply; other echo replies are skipped. */
int client_echo_tcp(struct np_client *c, const void *payload, size_t len,
                    long long *rtt_us)
{
	long long t0 = mono_now_us(), deadline = t0 + c->timeout_us;
	size_t plen;
	int t;

	if (c->fd < 0)
		return client_fail(c, CLIENT_E_USAGE, "not connected");
	if (len > PROTO_MAX_PAYLOAD)
		return client_fail(c, CLIENT_E_USAGE, "echo payload too large");
	if (len)
		memmove(c->buf + PROTO_HDR_LEN, payload, len);
	if (client_send_frame(c, PROTO_ECHO, len, deadline) < 0)
		return -1;
	for (int i = 0; i < 1024; i++) {
		t = client_recv_frame(c, &plen, deadline);
		if (t < 0)
			return -1;
		if (t != PROTO_ECHO_REPLY)
			return client_fail(c, CLIENT_E_PROTOCOL,
			                   "responder answered %s to echo",
			                   proto_type_name(t));
		if (plen == len && (len == 0 || memcmp(c->buf + PROTO_HDR_LEN,
		                                       payload, len) == 0)) {
			if (rtt_us)
				*rtt_us = mono_now_us() - t0;
			return 0;
		}
	}
	return client_fail(c, CLIENT_E_PROTOCOL, "echo reply never matched");
}
