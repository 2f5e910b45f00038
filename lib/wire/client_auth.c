/* The client's half of the responder's challenge and response, shared by
 * a probe's connection (client_open.c) and a mesh member's join
 * (client_mesh.c), which only fetch the frames differently. */
#include <errno.h>
#include <string.h>

#include "wire/auth.h"
#include "wire/client_conn.h"

/* See client_conn.h. */
int client_auth_load(struct np_client *c, const char *token_file,
		     struct auth_key *k)
{
	if (auth_load(token_file, k) == 0)
		return 0;
	return client_fail(c, CLIENT_E_USAGE,
			   "cannot read token file '%s': %s", token_file,
			   errno == EINVAL ? "needs one line of 8 to 256 bytes"
					   : strerror(errno));
}

/* See client_conn.h. */
int client_auth_sign(struct np_client *c, const struct auth_key *k,
		     ssize_t n)
{
	uint8_t nonce[PROTO_NONCE_LEN];
	const char *why;

	if (proto_fixed_decode(c->buf + PROTO_HDR_LEN, (size_t)n,
			       PROTO_NONCE_LEN, nonce, &why) < 0)
		return client_fail(c, CLIENT_E_PROTOCOL, "bad challenge: %s",
				   why);
	if (auth_mac(k, nonce, c->buf + PROTO_HDR_LEN) < 0)
		return client_fail(c, CLIENT_E_IO, "hmac failed");
	return 0;
}

/* See client_conn.h. */
int client_auth_check(struct np_client *c, ssize_t n)
{
	const char *why;
	uint8_t ok = 0;

	if (proto_fixed_decode(c->buf + PROTO_HDR_LEN, (size_t)n, 1, &ok,
			       &why) < 0 ||
	    ok != 1)
		return client_fail(c, CLIENT_E_PROTOCOL,
				   "bad authentication reply");
	c->authed = true;
	return 0;
}
