/* Path MTU search: pure logic over a transport given as function pointers
 * (pmtu_udp.c holds the socket side); decide/decide_path.c judges it. */
#include "probe/pmtu.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define PMTU_TIMEOUT_FLOOR_US 50000LL
#define PMTU_RTT_FACTOR 4

/* A probe that did not settle because the deadline came first. */
#define PMTU_DEADLINE 3

void pmtu_config_default(struct pmtu_config *c, int family, unsigned ifmtu)
{
	memset(c, 0, sizeof(*c));
	c->min_size = family == AF_INET6 ? PMTU_MIN_V6 : PMTU_MIN_V4;
	c->max_size = ifmtu > c->min_size ? ifmtu : c->min_size;
	c->tries = 3;
	c->first_timeout_us = 500000;
	c->probe_timeout_us = 250000;
	c->deadline_us = 5000000;
}

struct search {
	const struct pmtu_config *cfg;
	const struct pmtu_ops *ops;
	struct pmtu_result *r;
	long long start_us;
	long long timeout_us; /* per attempt, shrinks once an RTT is known */
	bool last_silent;     /* the last failed size got no ICMP either */
	bool patient;         /* the timeout stays first_timeout_us */
};

/* Remembers one size's outcome; sizes beyond PMTU_MAX_PROBES are still
 * searched, only not listed (the caller bounds the count anyway). */
static void record(struct search *s, unsigned size, bool ok)
{
	struct pmtu_result *r = s->r;

	if (r->nprobes < PMTU_MAX_PROBES) {
		r->probes[r->nprobes].size = size;
		r->probes[r->nprobes].ok = ok;
		r->nprobes++;
	}
}

/* Learns from an answer: RTT (to shorten the wait) and the peer's MTU. */
static void learn(struct search *s, const struct pmtu_answer *a)
{
	struct pmtu_result *r = s->r;
	long long t;

	r->responded = true;
	if (a->peer_ifmtu != 0)
		r->peer_ifmtu = a->peer_ifmtu;
	if (a->rtt_us >= 0 && (r->rtt_us < 0 || a->rtt_us < r->rtt_us))
		r->rtt_us = a->rtt_us;
	if (s->patient)
		return;
	t = r->rtt_us * PMTU_RTT_FACTOR;
	if (t < PMTU_TIMEOUT_FLOOR_US)
		t = PMTU_TIMEOUT_FLOOR_US;
	if (t > s->cfg->probe_timeout_us)
		t = s->cfg->probe_timeout_us;
	s->timeout_us = t;
}

/* Tries one size up to cfg->tries times. Returns PMTU_OK, PMTU_LOST,
 * PMTU_TOOBIG (no retry: the answer is definite), PMTU_DEADLINE, or
 * PMTU_ERR. */
static int try_size(struct search *s, unsigned size)
{
	struct pmtu_answer a;
	long long left, t;
	int rc;

	for (int i = 0; i < s->cfg->tries; i++) {
		left = s->cfg->deadline_us -
		       (s->ops->now_us(s->ops->ctx) - s->start_us);
		if (left <= 0)
			return PMTU_DEADLINE;
		t = s->timeout_us < left ? s->timeout_us : left;
		memset(&a, 0, sizeof(a));
		a.rtt_us = -1;
		rc = s->ops->probe(s->ops->ctx, size, t, &a);
		switch (rc) {
		case PMTU_OK:
			learn(s, &a);
			return PMTU_OK;
		case PMTU_TOOBIG:
			if (!a.local) {
				s->r->frag_needed = true;
				if (a.next_mtu != 0)
					s->r->frag_mtu = a.next_mtu;
			}
			s->last_silent = false;
			return PMTU_TOOBIG;
		case PMTU_LOST:
			break;
		default:
			s->r->error = errno != 0 ? errno : EIO;
			return PMTU_ERR;
		}
	}
	s->last_silent = true;
	return PMTU_LOST;
}

/* The next size to try inside (lo, hi): the MTU an ICMP error named when
 * it falls inside, then one byte above it to close the gap at once, else
 * the middle. */
static unsigned next_size(const struct pmtu_result *r, unsigned lo, unsigned hi,
                          int *hint)
{
	if (*hint == 0 && r->frag_mtu > lo && r->frag_mtu < hi) {
		*hint = 1;
		return r->frag_mtu;
	}
	if (*hint == 1 && lo == r->frag_mtu) {
		*hint = 2;
		return lo + 1;
	}
	return lo + (hi - lo) / 2;
}

/* One search from the smallest size up (see pmtu.h); r is zeroed first.
 * Returns the last probe's PMTU_* code. */
static int search_once(struct search *s)
{
	const struct pmtu_config *cfg = s->cfg;
	struct pmtu_result *r = s->r;
	unsigned lo, hi = 0, size;
	bool silent_hi = false;
	int rc, hint = 0, steps = 0;

	memset(r, 0, sizeof(*r));
	r->rtt_us = -1;
	s->start_us = s->ops->now_us(s->ops->ctx);
	s->timeout_us = cfg->first_timeout_us;
	s->last_silent = false;

	/* the smallest size says whether a responder is there at all */
	rc = try_size(s, cfg->min_size);
	if (rc != PMTU_DEADLINE)
		record(s, cfg->min_size, rc == PMTU_OK);
	if (rc != PMTU_OK)
		return rc;
	lo = cfg->min_size;

	if (cfg->max_size > lo) {
		rc = try_size(s, cfg->max_size);
		if (rc == PMTU_ERR)
			return rc;
		if (rc != PMTU_DEADLINE)
			record(s, cfg->max_size, rc == PMTU_OK);
		if (rc == PMTU_OK) {
			lo = cfg->max_size;
		} else if (rc != PMTU_DEADLINE) {
			hi = cfg->max_size;
			silent_hi = s->last_silent;
		}
	}
	while (hi != 0 && hi - lo > 1 && steps++ < PMTU_MAX_PROBES) {
		size = next_size(r, lo, hi, &hint);
		rc = try_size(s, size);
		if (rc == PMTU_ERR || rc == PMTU_DEADLINE)
			break;
		record(s, size, rc == PMTU_OK);
		if (rc == PMTU_OK) {
			lo = size;
		} else {
			hi = size;
			silent_hi = s->last_silent;
		}
	}
	r->largest_ok = lo;
	r->smallest_lost = hi;
	r->lost_silently = hi != 0 && silent_hi;
	r->complete =
	    rc != PMTU_ERR && rc != PMTU_DEADLINE && (hi == 0 || hi - lo <= 1);
	/* one more answer at the size found, so a lucky probe on a lossy
	 * link is not reported as the path MTU */
	if (r->complete && hi != 0) {
		rc = try_size(s, lo);
		r->confirmed = rc == PMTU_OK;
	} else if (r->complete) {
		r->confirmed = true;
	}
	return rc;
}

/* A size that vanished while the timeouts were a few RTTs may only have
 * been answered late: a loaded host (a training job on every core)
 * starves the responder or this process for longer than 4 RTTs. Before a
 * silent loss stands, the smallest lost size gets the first answer's
 * patience (first_timeout_us, tries times); if it answers now, the whole
 * search runs again at that patience, so a late answer never reads as a
 * black hole. Bounded: at most two searches and one recheck. */
int pmtu_search(const struct pmtu_config *cfg, const struct pmtu_ops *ops,
                struct pmtu_result *r)
{
	struct search s = {cfg, ops, r, 0, 0, false, false};
	long long t0;
	int rc;

	if (cfg->min_size == 0 || cfg->min_size > cfg->max_size ||
	    cfg->max_size > 65535 || cfg->tries < 1 ||
	    cfg->first_timeout_us <= 0 || cfg->probe_timeout_us <= 0 ||
	    cfg->deadline_us <= 0 || ops->probe == NULL ||
	    ops->now_us == NULL) {
		errno = EINVAL;
		return -1;
	}
	t0 = ops->now_us(ops->ctx);
	rc = search_once(&s);
	if (rc != PMTU_ERR && r->lost_silently &&
	    s.timeout_us < cfg->first_timeout_us) {
		unsigned hi = r->smallest_lost;

		s.patient = true;
		s.timeout_us = cfg->first_timeout_us;
		s.start_us = ops->now_us(ops->ctx);
		if (try_size(&s, hi) == PMTU_OK) {
			rc = search_once(&s);
			r->rechecked = true;
		} else {
			r->loss_rechecked = true;
		}
	}
	r->elapsed_us = ops->now_us(ops->ctx) - t0;
	if (rc == PMTU_ERR) {
		errno = r->error;
		return -1;
	}
	return 0;
}

/* A positive number, or JSON null for 0 (unknown). */
static json_t *num_or_null(unsigned v)
{
	return v != 0 ? json_integer(v) : json_null();
}

json_t *pmtu_to_json(const struct pmtu_result *r, unsigned if_mtu,
                     unsigned kernel_pmtu, unsigned route_mtu)
{
	json_t *o, *probes = json_array();

	if (probes == NULL)
		return NULL;
	for (int i = 0; i < r->nprobes; i++) {
		json_t *p = json_pack("{s:I, s:b}", "size",
		                      (json_int_t)r->probes[i].size, "ok",
		                      r->probes[i].ok);

		if (p == NULL || json_array_append_new(probes, p) < 0) {
			json_decref(probes);
			return NULL;
		}
	}
	o = json_pack(
	    "{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:b, "
	    "s:b, s:I, s:o}",
	    "largest_ok", num_or_null(r->largest_ok), "smallest_lost",
	    num_or_null(r->smallest_lost), "interface_mtu", num_or_null(if_mtu),
	    "peer_interface_mtu", num_or_null(r->peer_ifmtu), "kernel_pmtu",
	    num_or_null(kernel_pmtu), "route_mtu", num_or_null(route_mtu),
	    "frag_mtu", num_or_null(r->frag_mtu), "frag_needed", r->frag_needed,
	    "rtt_us", r->rtt_us >= 0 ? json_integer(r->rtt_us) : json_null(),
	    "complete", r->complete, "confirmed", r->confirmed, "elapsed_us",
	    (json_int_t)r->elapsed_us, "probes", probes);
	return o;
}

/* See pmtu.h. */
void pmtu_probes_text(const struct pmtu_result *r, char *buf, size_t len)
{
	size_t off = 0;
	int n;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (int i = 0; i < r->nprobes && off < len; i++) {
		n = snprintf(buf + off, len - off, "%s%u %s", i ? ", " : "",
		             r->probes[i].size,
		             r->probes[i].ok ? "ok" : "lost");
		if (n < 0)
			break;
		off += (size_t)n;
	}
}
