/* netprobe explain: a connection through a port Docker publishes that
 * was accepted and then reset or closed with nothing sent. Docker's
 * proxy on the host accepts every connection to a published port and
 * then connects to the container's address; where nothing listens
 * there (the service bound 127.0.0.1 inside the container, or is not
 * up) it closes the client's connection: curl's "(56) Recv failure:
 * Connection reset by peer" or "(52) Empty reply from server", wget's
 * "Read error (Connection reset by peer)" (issue 42: blind42p c12,
 * rackup on localhost behind -p 80:80). A reset alone says nothing of
 * where; beside a published port it does. */
#include <stdio.h>

#include "decide/explain.h"
#include "decide/explain_priv.h"

/* See explain_priv.h. */
void explain_docker_published(const struct explain_ctx *x,
			      struct explain_result *r)
{
	const struct explain_hit *reset = explain_first_hit(x->lg, "http-reset-");
	const struct explain_hit *pub = explain_first_hit(x->lg, "docker-publish");
	const char *port;
	char why[384], next[384];
	struct explain_cause *c;

	if (reset == NULL || pub == NULL || x->other)
		return;
	port = logmatch_field(&pub->m, "port");
	snprintf(why, sizeof(why), "a connection was accepted and then reset "
		 "or closed with no answer, and the log shows a port Docker "
		 "publishes (line %ld): Docker's proxy took the connection "
		 "and found nothing listening on the container's address "
		 "(the service inside listens on 127.0.0.1 only, or is not "
		 "up)", pub->line);
	snprintf(next, sizeof(next), "docker exec CONTAINER ss -ltnp (or "
		 "netstat -ltnp): the service must listen on 0.0.0.0:%s, "
		 "not 127.0.0.1:%s (start it with --host 0.0.0.0 or its "
		 "bind setting); docker logs CONTAINER if nothing listens",
		 port ? port : "PORT", port ? port : "PORT");
	explain_open(r, reset, "listener-loopback-only,port-closed", why,
		     next);
	c = explain_cause_for(r, EXPLAIN_NET, true,
			      "listener-loopback-only,port-closed");
	if (c != NULL)
		explain_add_ref(c, pub);
}
