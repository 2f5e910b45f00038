/* The idle probe (idleprobe.h): a responder connection held idle, then
 * used. The responder keeps a silent connection that has spoken for
 * SERVE_IDLE_S (600 s), so the connection says HELLO and one echo before
 * its idle spell, and one echo after. */
#include "base/monoclock.h"
#include "probe/idleprobe.h"

#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "wire/client.h"

const char *idle_state_name(enum idle_state s)
{
	switch (s) {
	case IDLE_ALIVE:
		return "alive";
	case IDLE_KILLED:
		return "killed";
	case IDLE_NOCONN:
		return "no-connection";
	case IDLE_UNTESTED:
		break;
	}
	return "untested";
}

/* See idleprobe.h. */
int idle_probe(const char *addr, unsigned port, const char *token_file,
               long long idle_us, long long wait_us, struct idle_result *r)
{
	struct np_client c;
	long long t0, rtt;

	memset(r, 0, sizeof(*r));
	r->port = port;
	r->state = IDLE_NOCONN;
	if (client_open(&c, addr, port, wait_us, token_file) < 0 ||
	    client_echo_tcp(&c, "idle", 4, &rtt) < 0) {
		snprintf(r->err, sizeof(r->err), "%s", c.err);
		client_close(&c);
		return 0;
	}
	/* idle: nothing sent, nothing read, for idle_us (bounded) */
	t0 = mono_now_us();
	while (mono_now_us() - t0 < idle_us) {
		long long left = idle_us - (mono_now_us() - t0);
		struct pollfd p = {c.fd, POLLIN, 0};

		/* the peer closing first is no idle timeout's doing */
		if (poll(&p, 1, (int)(left / 1000) + 1) > 0) {
			snprintf(r->err, sizeof(r->err),
			         "the responder closed the connection while "
			         "idle");
			client_close(&c);
			return 0;
		}
	}
	r->held_ms = (mono_now_us() - t0) / 1000;
	r->wait_ms = wait_us / 1000;
	r->state = IDLE_ALIVE;
	/* one echo, its reply awaited wait_us: the deadline is the
	 * client's timeout */
	c.timeout_us = wait_us;
	if (client_echo_tcp(&c, "idle", 4, NULL) < 0) {
		/* silence is the box's; any other error (a reset) is an
		 * answer the path carried, whatever the responder made of
		 * it */
		if (c.code == CLIENT_E_TIMEOUT)
			r->state = IDLE_KILLED;
		else
			snprintf(r->err, sizeof(r->err), "%s", c.err);
	}
	client_close(&c);
	return 0;
}
