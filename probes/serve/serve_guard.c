/* netprobe serve's admission (serve_guard.h): per-address caps, eviction
 * when full, and the frame deadlines, so that one address can never lock
 * the others out, whether it holds silent connections or sends a byte a
 * second. */
#include "serve/serve_guard.h"

#include <netinet/in.h>
#include <string.h>

#include "serve/serve_conn.h"

unsigned sv_addr_cap(const struct server *s)
{
	unsigned m = s->o.max_clients, cap = m / 4;

	if (cap < 4)
		cap = m < 4 ? m : 4;
	return cap;
}

unsigned sv_addr_unauth_cap(const struct server *s)
{
	unsigned m = s->o.max_clients, cap;

	if (!s->have_key)
		return sv_addr_cap(s);
	cap = m / 16;
	if (cap < 2)
		cap = m < 2 ? m : 2;
	return cap;
}

/* The 16 bytes of an address, IPv4 as IPv4-mapped IPv6. */
static void host_key(const struct sockaddr_storage *ss, uint8_t out[16])
{
	memset(out, 0, 16);
	if (ss->ss_family == AF_INET6) {
		memcpy(out, &((const struct sockaddr_in6 *)(const void *)ss)
		                  ->sin6_addr,
		       16);
	} else if (ss->ss_family == AF_INET) {
		out[10] = out[11] = 0xff;
		memcpy(out + 12,
		       &((const struct sockaddr_in *)(const void *)ss)->sin_addr,
		       4);
	}
}

bool sv_same_host(const struct sockaddr_storage *a,
                  const struct sockaddr_storage *b)
{
	uint8_t ka[16], kb[16];

	host_key(a, ka);
	host_key(b, kb);
	return memcmp(ka, kb, 16) == 0;
}

/* The connection that gives way when the table is full: never an
 * authenticated one; one that has not sent a whole frame before one that
 * has; among those the longest silent. NULL when every one is
 * authenticated. */
static struct conn *victim(struct server *s)
{
	struct conn *best = NULL;

	for (unsigned i = 0; i < s->o.max_clients; i++) {
		struct conn *c = s->conns[i];

		if (!c || c->dead || c->authed)
			continue;
		if (!best || (c->frames == 0 && best->frames > 0) ||
		    ((c->frames == 0) == (best->frames == 0) &&
		     c->last_us < best->last_us))
			best = c;
	}
	return best;
}

int sv_admit(struct server *s, const struct sockaddr_storage *ss,
             const char **why)
{
	unsigned n = 0, unauth = 0;
	struct conn *v;

	for (unsigned i = 0; i < s->o.max_clients; i++) {
		struct conn *c = s->conns[i];

		if (!c || c->dead || !sv_same_host(&c->peer, ss))
			continue;
		n++;
		unauth += !c->authed;
	}
	if (n >= sv_addr_cap(s) || unauth >= sv_addr_unauth_cap(s)) {
		*why = "too many connections from this address";
		return -1;
	}
	if (s->nconns < s->o.max_clients)
		return 0;
	v = victim(s);
	if (!v) {
		*why = "too many clients";
		return -1;
	}
	s->st.evicted++;
	sv_conn_close(s, v, "evicted: the table is full");
	return 0;
}

const char *sv_conn_due(const struct conn *c, long long now, long long *next)
{
	long long due;

	if (c->frames == 0) {
		due = c->accepted_us + SERVE_FIRST_FRAME_S * 1000000LL;
		if (now >= due)
			return "no whole frame within the first frame's "
			       "deadline";
		if (due < *next)
			*next = due;
	}
	if (c->partial_since_us) {
		due = c->partial_since_us + SERVE_FRAME_S * 1000000LL;
		if (now >= due)
			return "frame left unfinished";
		if (due < *next)
			*next = due;
	}
	due = c->last_us + SERVE_IDLE_S * 1000000LL;
	if (now >= due)
		return "idle";
	return NULL;
}
