/* netprobe explain: a connection through a port Docker publishes that
 * was accepted and then reset or closed with nothing sent. Docker's
 * proxy on the host accepts every connection to a published port and
 * then connects to the container's address; where nothing listens
 * there (the service bound 127.0.0.1 inside the container, or is not
 * up) it closes the client's connection: curl's "(56) Recv failure:
 * Connection reset by peer" or "(52) Empty reply from server", wget's
 * "Read error (Connection reset by peer)" (issue 42: blind42p c12,
 * rackup on localhost behind -p 80:80). A reset alone says nothing of
 * where; beside a published port it does, and so it does beside the
 * server's own words that it listens on loopback only (Gradio's
 * "Running on local URL:  http://127.0.0.1:7860" in a compose log, issue
 * 42: blind42w a01), unless it says it runs on another address too
 * (Flask's "Running on all addresses (0.0.0.0)"). */
#include <stdio.h>
#include <string.h>

#include "decide/explain.h"
#include "decide/explain_priv.h"

/* The server's line saying it listens on loopback only, or NULL where
 * none does or one names another address (every address, a LAN's). */
static const struct explain_hit *loopback_only(const struct explain_log *lg)
{
	const struct explain_hit *lo = NULL;

	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *h = &lg->hits[i];
		const char *a = logmatch_field(&h->m, "addr");

		if (strcmp(h->m.sig->id, "server-running-on") != 0)
			continue;
		if (a == NULL || explain_addr_class(a) == NULL ||
		    strcmp(explain_addr_class(a), "loopback") != 0)
			return NULL;
		if (lo == NULL)
			lo = h;
	}
	return lo;
}

/* Opens the listener on loopback or nothing listening from the reset,
 * with the line that says where (ref) among the cause's lines. */
static void open_listener(struct explain_result *r,
			  const struct explain_hit *reset,
			  const struct explain_hit *ref, const char *why,
			  const char *next)
{
	struct explain_cause *c;

	explain_open(r, reset, "listener-loopback-only,port-closed", why,
		     next);
	c = explain_cause_for(r, EXPLAIN_NET, true,
			      "listener-loopback-only,port-closed");
	if (c != NULL)
		explain_add_ref(c, ref);
}

/* A reset beside the server's own loopback-only listen: a client from
 * outside its host (or its container) reached the port and found no
 * listener on the address it came to. */
static void reset_beside_loopback(const struct explain_ctx *x,
				  const struct explain_hit *reset,
				  struct explain_result *r)
{
	const struct explain_hit *lo = loopback_only(x->lg);
	const char *port;
	char why[384], next[384];

	if (lo == NULL)
		return;
	port = logmatch_field(&lo->m, "port");
	snprintf(why, sizeof(why), "a connection was reset or closed with no "
		 "answer, and the server says it listens on %s:%s only (line "
		 "%ld): a client from another host or from outside its "
		 "container finds nothing listening on the address it comes "
		 "to", logmatch_field(&lo->m, "addr"), port ? port : "?",
		 lo->line);
	snprintf(next, sizeof(next), "where the server runs: ss -ltnp "
		 "'sport = :%s' (127.0.0.1 only: start it listening on "
		 "0.0.0.0, as --listen, --host 0.0.0.0 or its bind setting)",
		 port ? port : "PORT");
	open_listener(r, reset, lo, why, next);
}

/* See explain_priv.h. */
void explain_docker_published(const struct explain_ctx *x,
			      struct explain_result *r)
{
	const struct explain_hit *reset = explain_first_hit(x->lg, "http-reset-");
	const struct explain_hit *pub = explain_first_hit(x->lg, "docker-publish");
	const char *port;
	char why[384], next[384];

	if (reset == NULL || x->other)
		return;
	if (pub == NULL) {
		reset_beside_loopback(x, reset, r);
		return;
	}
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
	open_listener(r, reset, pub, why, next);
}
