/* netprobe explain: a handshake whose largest answer never came.
 * curl's verbose trace of a TLS handshake that sent
 * its hello over a connection that stood and heard nothing back: the
 * "Client hello (1)" line with no "Server hello (2)" after it. The
 * server's hello and certificates are the exchange's largest packets,
 * the first an MTU black hole loses (issue 42: blind42n c14, curl in an
 * OpenVPN client's container, hung for hours after its Client hello).
 * Each attempt is read apart: a Client hello answered by a Server hello
 * before the next Client hello went on; one with none after it, before
 * the next attempt or the paste's end, is the stall (blind42v a08: the
 * hung attempt, then ip link set mtu 1400, then one that went on). A
 * paste whose every hello was answered leaves the answer to the error
 * lines.
 * ssh -v's key exchange is the same shape: "expecting
 * SSH2_MSG_KEX_ECDH_REPLY" and no reply after it (blind42s c02). */

#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <string.h>

/* A handshake's question, the rows that show its answer (a row id's
 * prefix), and what no answer means. */
struct handshake {
	const char *asked;
	const char *answered;
	const char *why;
};

static const struct handshake shakes[] = {
	{"curl-tls-client-hello", "curl-tls-server-hello",
	 "curl sent its TLS Client hello over a connection that stood and "
	 "the trace shows no Server hello after it: the server's answer, "
	 "the exchange's largest packets, lost on the way (an MTU the path "
	 "does not carry), or a proxy in the way"},
	{"ssh-kex-expecting-reply", "ssh-kex-answer",
	 "ssh sent its key exchange over a connection that stood and the "
	 "trace shows no reply from the server: its reply, the exchange's "
	 "largest packet, lost on the way (an MTU the path does not carry: "
	 "a tunnel, WSL2's or a VPN's)"},
};

/* Whether hit h's row id starts with prefix. */
static bool is_row(const struct explain_hit *h, const char *prefix)
{
	return strncmp(h->m.sig->id, prefix, strlen(prefix)) == 0;
}

/* The first question of handshake k in lg that no answer follows before
 * the next question or the paste's end, or NULL. */
static const struct explain_hit *unanswered(const struct explain_log *lg,
					    const struct handshake *k)
{
	const struct explain_hit *open = NULL;

	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];

		if (is_row(h, k->asked)) {
			if (open != NULL)
				return open;
			open = h;
		} else if (is_row(h, k->answered))
			open = NULL;
	}
	return open;
}

/* See explain_priv.h. */
void explain_handshake_unanswered(const struct explain_ctx *x,
				  struct explain_result *r)
{
	if (x->other)
		return;
	for (size_t i = 0; i < sizeof(shakes) / sizeof(shakes[0]); i++) {
		const struct explain_hit *asked = unanswered(x->lg, &shakes[i]);

		if (asked != NULL)
			explain_open(r, asked, "mtu-blackhole,mtu-mismatch",
				     shakes[i].why, NULL);
	}
}
