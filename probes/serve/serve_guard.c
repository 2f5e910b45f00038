/* netprobe serve's admission (serve_guard.h): per-address caps, eviction
 * when full, and the frame deadlines, so that one address can never lock
 * the others out, whether it holds silent connections or sends a byte a
 * second. */
#include "serve/serve_guard.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "base/monoclock.h"

#include "serve/serve_conn.h"

unsigned sv_addr_cap(const struct server *s)
{
	unsigned m = s->o.max_clients, cap = m / 4;

	if (cap < 4)
		cap = m < 4 ? m : 4;
	return cap;
}

static unsigned sv_addr_unauth_cap(const struct server *s)
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

/* True when a and b are the same host address (ports ignored; an
 * IPv4-mapped IPv6 address equals its IPv4 one). */
static bool sv_same_host(const struct sockaddr_storage *a,
                         const struct sockaddr_storage *b)
{
	uint8_t ka[16], kb[16];

	host_key(a, ka);
	host_key(b, kb);
	return memcmp(ka, kb, 16) == 0;
}

/* See serve_guard.h: a client being served never gives way. */
int sv_give_way(const struct conn *c, long long now)
{
	if (!c || c->dead || c->authed)
		return 0;
	if (c->frames == 0)
		return 2;
	if (c->requests == 0 &&
	    now - c->frame_us >= SERVE_REQUEST_S * 1000000LL)
		return 1;
	if (now - c->frame_us >= SERVE_SERVED_IDLE_S * 1000000LL)
		return 1;
	return 0;
}

/* A connection and its address's count, for sorting by address. */
struct seat {
	uint8_t key[16];
	struct conn *c;
	unsigned held; /* connections its address holds */
};

/* qsort order: by address, so that one address's seats are a run. */
static int seat_cmp(const void *a, const void *b)
{
	return memcmp(((const struct seat *)a)->key,
	              ((const struct seat *)b)->key, 16);
}

/* True when a should give way before b: a silent one before one that
 * spoke, then the address that holds more, then the longest silent. */
static bool before(const struct seat *a, int wa, const struct seat *b, int wb)
{
	long long ta = a->c->frames ? a->c->frame_us : a->c->accepted_us;
	long long tb = b->c->frames ? b->c->frame_us : b->c->accepted_us;

	if (wa != wb)
		return wa > wb;
	if (a->held != b->held)
		return a->held > b->held;
	return ta < tb;
}

/* See serve_guard.h. The counts per address come from one sort of the
 * table, and only when someone may give way at all. */
struct conn *sv_victim(const struct server *s,
                       const struct sockaddr_storage *ss, long long now)
{
	struct seat *v = calloc(s->o.max_clients ? s->o.max_clients : 1,
	                        sizeof(*v));
	uint8_t nk[16];
	unsigned n = 0, mine = 0, cands = 0;
	struct conn *best = NULL;
	int bw = 0;
	size_t bi = 0;

	if (!v)
		return NULL;
	host_key(ss, nk);
	for (unsigned i = 0; i < s->o.max_clients; i++) {
		struct conn *c = s->conns[i];

		if (!c || c->dead)
			continue;
		host_key(&c->peer, v[n].key);
		v[n].c = c;
		mine += memcmp(v[n].key, nk, 16) == 0;
		cands += sv_give_way(c, now) > 0;
		n++;
	}
	if (cands == 0) {
		free(v);
		return NULL;
	}
	qsort(v, n, sizeof(*v), seat_cmp);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && memcmp(v[j].key, v[i].key, 16) == 0;
		     j++)
			;
		for (size_t k = i; k < j; k++)
			v[k].held = (unsigned)(j - i);
	}
	for (size_t i = 0; i < n; i++) {
		int w = sv_give_way(v[i].c, now);

		/* the newcomer's address must end up holding fewer than the
		 * victim's: a one-for-one swap between equals would only
		 * churn */
		if (w == 0 || v[i].held < mine + 2)
			continue;
		if (!best || before(&v[i], w, &v[bi], bw)) {
			best = v[i].c;
			bw = w;
			bi = i;
		}
	}
	free(v);
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
	v = sv_victim(s, ss, mono_now_us());
	if (!v) {
		*why = "too many clients: the table is full";
		return -1;
	}
	s->st.evicted++;
	sv_conn_drop(s, v, "evicted",
	             v->frames == 0 ? "its table is full and this connection "
	                              "had sent no whole frame"
	             : v->requests == 0
	                 ? "its table is full and this connection made no "
	                   "request after its hello"
	                 : "its table is full and this connection was "
	                   "idle");
	return 0;
}

const char *sv_conn_due(const struct conn *c, long long now, long long *next)
{
	long long due;

	if (c->frames == 0) {
		due = c->accepted_us + SERVE_FIRST_FRAME_S * 1000000LL;
		if (now >= due)
			return "no whole frame within 5 s of the connect";
		if (due < *next)
			*next = due;
	}
	if (c->partial_since_us) {
		due = c->partial_since_us + SERVE_FRAME_S * 1000000LL;
		if (now >= due)
			return "a frame left unfinished for 5 s";
		if (due < *next)
			*next = due;
	}
	due = c->last_us + SERVE_IDLE_S * 1000000LL;
	if (now >= due)
		return "idle for 10 minutes";
	return NULL;
}
