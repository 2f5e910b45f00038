/* netprobe explain: curl's verbose trace of a TLS handshake that sent
 * its hello over a connection that stood and heard nothing back: the
 * "Client hello (1)" line with no "Server hello (2)" after it. The
 * server's hello and certificates are the exchange's largest packets,
 * the first an MTU black hole loses (issue 42: blind42n c14, curl in an
 * OpenVPN client's container, hung for hours after its Client hello).
 * A Server hello anywhere in the paste (a handshake that went on, or an
 * earlier request that worked) leaves the answer to the error lines. */

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
