/* netprobe explain: a handshake whose largest answer never came.
 * curl's verbose trace of a TLS handshake that sent
 * its hello over a connection that stood and heard nothing back: the
 * "Client hello (1)" line with no "Server hello (2)" after it. The
 * server's hello and certificates are the exchange's largest packets,
 * the first an MTU black hole loses (issue 42: blind42n c14, curl in an
 * OpenVPN client's container, hung for hours after its Client hello).
 * A Server hello anywhere in the paste (a handshake that went on, or an
 * earlier request that worked) leaves the answer to the error lines.
 * ssh -v's key exchange is the same shape: "expecting
 * SSH2_MSG_KEX_ECDH_REPLY" and no reply after it (blind42s c02). */

#include "decide/explain.h"
#include "decide/explain_priv.h"

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

/* See explain_priv.h. */
void explain_handshake_unanswered(const struct explain_ctx *x,
				  struct explain_result *r)
{
	if (x->other)
		return;
	for (size_t i = 0; i < sizeof(shakes) / sizeof(shakes[0]); i++) {
		const struct explain_hit *asked =
			explain_first_hit(x->lg, shakes[i].asked);

		/* an answer anywhere: the exchange went on */
		if (asked == NULL ||
		    explain_first_hit(x->lg, shakes[i].answered) != NULL)
			continue;
		explain_open(r, asked, "mtu-blackhole,mtu-mismatch",
			     shakes[i].why, NULL);
	}
}
