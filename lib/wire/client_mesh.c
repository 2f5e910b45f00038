/* A member's side of the mesh rendezvous: join, plan and members,
 * document, verdict (client_mesh.h). */
#include "wire/client_mesh.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/monoclock.h"
#include "wire/auth.h"
#include "wire/client_conn.h"

#define CLIENT_STRAY_JOIN_US 200000LL

/* See client_mesh.h. */
int client_mesh_open(struct np_client *c, const char *host, unsigned port,
                     long long timeout_us)
{
	return client_mesh_open_via(c, host, port, timeout_us, NULL, NULL);
}

/* See client_mesh.h. */
int client_mesh_open_via(struct np_client *c, const char *host, unsigned port,
                         long long timeout_us, const char *dev,
                         const char *src)
{
	/* small segments: a hop that drops large packets without ICMP (the
	 * black hole the mesh is there to find) must not also swallow the
	 * member's document on its way to node 0 */
	if (client_connect_via(c, host, port, timeout_us, CLIENT_MESH_MSS,
	                       dev, src) < 0 ||
	    client_hello(c) < 0)
		return -1;
	if (c->hello.proto_version < PROTO_VERSION_MESH ||
	    !(c->hello.flags & PROTO_HELLO_MESH)) {
		/* an empty JOIN all the same, which it answers "no
		 * rendezvous here": a mesh member there (node 0 in a NAT'd
		 * container, not in the list) learns it is taken for node 0
		 * (its send is best effort; the answer is not waited for) */
		client_send_frame(c, PROTO_JOIN, 0,
		                  mono_now_us() + CLIENT_STRAY_JOIN_US);
		if (c->hello.flags & PROTO_HELLO_MEMBER)
			return client_fail(c, CLIENT_E_PROTOCOL,
			                   "%s:%u answers as a netprobe mesh "
			                   "member ('%s'), not as node 0's "
			                   "rendezvous",
			                   c->addr, c->port, c->hello.node);
		return client_fail(
		    c, CLIENT_E_PROTOCOL,
		    "%s:%u answers as netprobe serve ('%s', %s), "
		    "not as a mesh: is node 0's mesh on another "
		    "port? the mesh's default is %u",
		    c->addr, c->port, c->hello.node, c->hello.software,
		    PROTO_MESH_DEFAULT_PORT);
	}
	return 0;
}

/* Waits for one frame of type want before the deadline. Returns its
 * payload length, or -1 (ERROR frames become CLIENT_E_REFUSED). */
static ssize_t wait_frame(struct np_client *c, uint8_t want,
                          long long deadline_us)
{
	size_t len;
	int t = client_recv_frame(c, &len, deadline_us);

	if (t < 0)
		return -1;
	if (t != want)
		return client_fail(c, CLIENT_E_PROTOCOL,
		                   "node 0 at %s:%u sent %s, not %s", c->addr,
		                   c->port, proto_type_name((unsigned)t),
		                   proto_type_name(want));
	return (ssize_t)len;
}

/* Answers node 0's challenge with the token. Returns 0, or -1. */
static int answer_challenge(struct np_client *c, const char *token_file,
			    long long deadline_us)
{
	struct auth_key k;
	ssize_t n;
	int rc = -1;

	if (client_auth_load(c, token_file, &k) < 0)
		return -1;
	n = wait_frame(c, PROTO_AUTH_CHALLENGE, deadline_us);
	if (n < 0 || client_auth_sign(c, &k, n) < 0)
		goto out;
	if (client_send_frame(c, PROTO_AUTH_RESPONSE, PROTO_MAC_LEN,
			      deadline_us) < 0)
		goto out;
	n = wait_frame(c, PROTO_AUTH_RESPONSE, deadline_us);
	if (n < 0 || client_auth_check(c, n) < 0)
		goto out;
	rc = 0;
out:
	explicit_bzero(&k, sizeof(k));
	return rc;
}

/* See client_mesh.h. Without a token where node 0 holds one, the join
 * still goes out so that node 0 can name this node; its refusal comes as
 * an ERROR before or instead of the start. */
int client_mesh_join(struct np_client *c, const struct proto_join *j,
                     const char *token_file, long long deadline_us)
{
	int len =
	    proto_join_encode(j, c->buf + PROTO_HDR_LEN, PROTO_MAX_PAYLOAD);

	if (len < 0)
		return client_fail(c, CLIENT_E_USAGE, "cannot encode the join");
	if (client_send_frame(c, PROTO_JOIN, (size_t)len, deadline_us) < 0)
		return -1;
	if ((c->hello.flags & PROTO_HELLO_AUTH) && token_file != NULL)
		return answer_challenge(c, token_file, deadline_us);
	return 0;
}

/* See client_mesh.h. */
int client_mesh_start(struct np_client *c, struct proto_mesh_start *st,
                      struct proto_member **members, long long deadline_us)
{
	struct proto_member *m = NULL, *batch = NULL;
	const char *why;
	size_t got = 0, n;
	uint32_t first;
	ssize_t len = wait_frame(c, PROTO_MESH_START, deadline_us);

	*members = NULL;
	if (len < 0)
		return -1;
	if (proto_mesh_start_decode(c->buf + PROTO_HDR_LEN, (size_t)len, st,
	                            &why) < 0)
		return client_fail(c, CLIENT_E_PROTOCOL,
		                   "node 0 sent a bad start: %s", why);
	if (st->members > PROTO_MESH_DOC_MAX / 16)
		return client_fail(c, CLIENT_E_PROTOCOL,
		                   "node 0 announces %u members", st->members);
	m = calloc(st->members, sizeof(*m));
	/* a member takes at least 10 bytes of a MEMBERS payload */
	batch = calloc(PROTO_MAX_PAYLOAD / 10, sizeof(*batch));
	if (m == NULL || batch == NULL) {
		client_fail(c, CLIENT_E_IO, "out of memory");
		goto fail;
	}
	while (got < st->members) {
		len = wait_frame(c, PROTO_MEMBERS, deadline_us);
		if (len < 0)
			goto fail;
		if (proto_members_decode(c->buf + PROTO_HDR_LEN, (size_t)len,
		                         &first, batch, PROTO_MAX_PAYLOAD / 10,
		                         &n, &why) < 0) {
			client_fail(c, CLIENT_E_PROTOCOL,
			            "node 0 sent a bad member list: %s", why);
			goto fail;
		}
		if (first != got || n > st->members - got) {
			client_fail(c, CLIENT_E_PROTOCOL,
			            "node 0 sent members %u-%zu out of order",
			            first, first + n);
			goto fail;
		}
		memcpy(m + got, batch, n * sizeof(*m));
		got += n;
	}
	free(batch);
	*members = m;
	return 0;
fail:
	free(batch);
	free(m);
	return -1;
}

/* See client_mesh.h. */
int client_mesh_result(struct np_client *c, const char *doc, size_t len,
                       long long deadline_us)
{
	if (len == 0 || len > PROTO_MESH_DOC_MAX)
		return client_fail(c, CLIENT_E_USAGE,
		                   "document of %zu bytes cannot be sent", len);
	for (size_t off = 0; off < len;) {
		size_t n =
		    len - off < PROTO_MESH_CHUNK ? len - off : PROTO_MESH_CHUNK;
		int pl = proto_result_encode(
		    (uint32_t)len, (uint32_t)off, doc + off, n,
		    c->buf + PROTO_HDR_LEN, PROTO_MAX_PAYLOAD);

		if (pl < 0)
			return client_fail(c, CLIENT_E_USAGE,
			                   "cannot encode the document");
		if (client_send_frame(c, PROTO_RESULT, (size_t)pl,
		                      deadline_us) < 0)
			return -1;
		off += n;
	}
	return 0;
}

/* See client_mesh.h. */
int client_mesh_verdict(struct np_client *c, struct proto_verdict *v,
                        long long deadline_us)
{
	const char *why;
	ssize_t len = wait_frame(c, PROTO_VERDICT, deadline_us);

	if (len < 0)
		return -1;
	if (proto_verdict_decode(c->buf + PROTO_HDR_LEN, (size_t)len, v, &why) <
	    0)
		return client_fail(c, CLIENT_E_PROTOCOL,
		                   "node 0 sent a bad verdict: %s", why);
	return 0;
}
