/* netprobe serve's limits: token buckets, what a connection may ask for,
 * and the open-file budget its clients need. */
#include "serve/serve_limits.h"

#include <stdio.h>
#include <sys/resource.h>

#include "base/monoclock.h"
#include "serve/serve_int.h"

/* Refills by elapsed time, then takes one token if there is one. */
bool sv_bucket_take(struct bucket *b, double rate, double burst,
                    long long now_us)
{
	if (b->t_us == 0) {
		b->tokens = burst;
		b->t_us = now_us;
	}
	b->tokens += (double)(now_us - b->t_us) * rate / 1e6;
	if (b->tokens > burst)
		b->tokens = burst;
	b->t_us = now_us;
	if (b->tokens < 1.0)
		return false;
	b->tokens -= 1.0;
	return true;
}

/* An open responder grants less than one whose token the client proved,
 * and no more than SERVE_HEAVY_RATE heavy requests a second to either. */
int sv_grant(const struct server *s, struct conn *c, struct sv_grant *g,
             const char **msg)
{
	if (s->have_key && !c->authed) {
		*msg = "this responder needs a token for listen and "
		       "connect-back";
		return PROTO_E_AUTH_REQUIRED;
	}
	g->max_ports = c->authed ? PROTO_MAX_PORTS : SERVE_OPEN_PORTS;
	g->max_life_ms = c->authed ? SERVE_AUTH_LIFE_MS : SERVE_OPEN_LIFE_MS;
	g->max_cb_ms = c->authed ? SERVE_AUTH_CB_MS : SERVE_OPEN_CB_MS;
	if (!sv_bucket_take(&c->heavy, SERVE_HEAVY_RATE, 2 * SERVE_HEAVY_RATE,
	                    mono_now_us())) {
		*msg = "too many requests";
		return PROTO_E_LIMIT;
	}
	return 0;
}

/* Raises the open-file limit to what max_clients needs (clients, their
 * connect-backs, temporary listeners), or lowers max_clients to what the
 * hard limit allows. Returns the max_clients to use. */
unsigned sv_fd_budget(unsigned want)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)want + SERVE_MAX_TEMP + SERVE_MAX_CB_SOCKS + 32;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return want;
	if (rl.rlim_cur < need) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need
		                  ? need
		                  : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur < need) {
		rlim_t spare = SERVE_MAX_TEMP + SERVE_MAX_CB_SOCKS + 32;
		unsigned n = rl.rlim_cur > spare + 16
		                 ? (unsigned)(rl.rlim_cur - spare)
		                 : 16;

		fprintf(stderr,
		        "netprobe serve: open-file limit %llu allows "
		        "%u clients, not %u\n",
		        (unsigned long long)rl.rlim_cur, n, want);
		return n < want ? n : want;
	}
	return want;
}
