/* Opening a session with the responder: connect, HELLO both ways and,
 * with a token, the challenge and response that unlock the larger
 * limits. */
#include "wire/client.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wire/auth.h"
#include "wire/client_conn.h"

/* HELLO both ways; a silent peer is named as not a responder. */
int client_hello(struct np_client *c)
{
	struct proto_hello h = {.proto_version = PROTO_VERSION};
	const char *why;
	ssize_t n;
	int len;

	if (gethostname(h.node, sizeof(h.node)) < 0)
		strcpy(h.node, "unknown");
	h.node[PROTO_NODE_MAX] = '\0';
	for (char *p = h.node; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			*p = '?';
	snprintf(h.software, sizeof(h.software), "netprobe %s",
	         NETPROBE_VERSION);
	len = proto_hello_encode(&h, c->buf + PROTO_HDR_LEN, PROTO_MAX_PAYLOAD);
	if (len < 0)
		return client_fail(c, CLIENT_E_USAGE, "cannot encode hello");
	n = client_call(c, PROTO_HELLO, (size_t)len, PROTO_HELLO);
	if (n < 0 && c->code == CLIENT_E_TIMEOUT && !c->have_hello)
		return client_fail(
		    c, CLIENT_E_PROTOCOL,
		    "peer at %s:%u accepted the connection but sent "
		    "no hello within %.3gs (not a netprobe responder?)",
		    c->addr, c->port, (double)c->timeout_us / 1e6);
	if (n < 0)
		return -1;
	if (proto_hello_decode(c->buf + PROTO_HDR_LEN, (size_t)n, &c->hello,
	                       &why) < 0)
		return client_fail(c, CLIENT_E_PROTOCOL,
		                   "responder at %s:%u sent a bad hello: %s",
		                   c->addr, c->port, why);
	c->have_hello = true;
	return 0;
}

/* Challenge and response with the shared token. Returns 0, or -1. */
static int client_auth(struct np_client *c, const char *token_file)
{
	struct auth_key k;
	ssize_t n;
	int rc = -1;

	if (client_auth_load(c, token_file, &k) < 0)
		return -1;
	n = client_call(c, PROTO_AUTH_CHALLENGE, 0, PROTO_AUTH_CHALLENGE);
	if (n < 0 || client_auth_sign(c, &k, n) < 0)
		goto out;
	n = client_call(c, PROTO_AUTH_RESPONSE, PROTO_MAC_LEN,
			PROTO_AUTH_RESPONSE);
	if (n < 0 || client_auth_check(c, n) < 0)
		goto out;
	rc = 0;
out:
	explicit_bzero(&k, sizeof(k));
	return rc;
}

/* Resolve, connect, hello and authenticate, each within the timeout. */
int client_open(struct np_client *c, const char *host, unsigned port,
                long long timeout_us, const char *token_file)
{
	if (client_connect(c, host, port, timeout_us) < 0 ||
	    client_hello(c) < 0)
		return -1;
	/* a second hello learns the limits granted after authentication */
	if (token_file &&
	    (client_auth(c, token_file) < 0 || client_hello(c) < 0))
		return -1;
	return 0;
}
