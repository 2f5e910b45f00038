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

/* See explain_priv.h. */
void explain_tls_no_server_hello(const struct explain_ctx *x,
				 struct explain_result *r)
{
	const struct explain_hit *hello =
		explain_first_hit(x->lg, "curl-tls-client-hello");

	/* a Server hello: the server answered */
	if (x->other || hello == NULL ||
	    explain_first_hit(x->lg, "curl-tls-server-hello") != NULL)
		return;
	explain_open(r, hello, "mtu-blackhole,mtu-mismatch",
		     "curl sent its TLS Client hello over a connection that "
		     "stood and the trace shows no Server hello after it: the "
		     "server's answer, the exchange's largest packets, lost on "
		     "the way (an MTU the path does not carry), or a proxy in "
		     "the way", NULL);
}

/* See explain_priv.h. */
void explain_ssh_no_kex_reply(const struct explain_ctx *x,
			      struct explain_result *r)
{
	const struct explain_hit *wait =
		explain_first_hit(x->lg, "ssh-kex-expecting-reply");

	/* the reply came: the exchange went on */
	if (x->other || wait == NULL ||
	    explain_first_hit(x->lg, "ssh-kex-reply") != NULL ||
	    explain_first_hit(x->lg, "ssh-kex-host-key") != NULL)
		return;
	explain_open(r, wait, "mtu-blackhole,mtu-mismatch",
		     "ssh sent its key exchange over a connection that stood "
		     "and the trace shows no reply from the server: its "
		     "reply, the exchange's largest packet, lost on the way "
		     "(an MTU the path does not carry: a tunnel, WSL2's or "
		     "a VPN's)", NULL);
}
