/* netprobe explain: curl's verbose trace of a TLS handshake that sent
 * its hello over a connection that stood and heard nothing back: the
 * "Client hello (1)" line with no "Server hello (2)" after it. The
 * server's hello and certificates are the exchange's largest packets,
 * the first an MTU black hole loses (issue 42: blind42n c14, curl in an
 * OpenVPN client's container, hung for hours after its Client hello).
 * A Server hello anywhere in the paste (a handshake that went on, or an
 * earlier request that worked) leaves the answer to the error lines. */
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "decide/explain_priv.h"

/* See explain_priv.h. */
void explain_tls_no_server_hello(const struct explain_ctx *x,
				 struct explain_result *r)
{
	const struct explain_hit *hello = NULL;

	if (x->other)
		return;
	for (size_t i = 0; i < x->lg->nhits; i++) {
		const char *id = x->lg->hits[i].m.sig->id;

		if (strcmp(id, "curl-tls-server-hello") == 0)
			return; /* the server answered */
		if (strcmp(id, "curl-tls-client-hello") == 0 && hello == NULL)
			hello = &x->lg->hits[i];
	}
	if (hello == NULL)
		return;
	explain_open(r, hello, "mtu-blackhole,mtu-mismatch",
		     "curl sent its TLS Client hello over a connection that "
		     "stood and the trace shows no Server hello after it: the "
		     "server's answer, the exchange's largest packets, lost on "
		     "the way (an MTU the path does not carry), or a proxy in "
		     "the way", NULL);
}
