/* netprobe mesh --watch: a round's state and the hysteresis over rounds
 * (probe/watchstate.h). */
#include "probe/watchstate.h"

#include <stdio.h>
#include <string.h>

/* See watchstate.h. */
const char *watch_state_name(enum watch_state s)
{
	static const char *const names[WATCH_NSTATES] = {"up", "degraded",
	                                                 "lossy", "down"};

	return s < WATCH_NSTATES ? names[s] : "?";
}

/* See watchstate.h. */
enum watch_state watch_classify(const struct watch_round *r,
                                long long best_med_us)
{
	bool udp_any = r->answered > 0;

	if (!r->tcp_ok && !udp_any)
		return WATCH_DOWN;
	if (!r->tcp_ok || (r->sent > 0 && !udp_any))
		return WATCH_DEGRADED;
	if (r->sent > 0 &&
	    (r->sent - r->answered) * 100 >= r->sent * WATCH_LOSSY_PCT)
		return WATCH_LOSSY;
	if (best_med_us >= 0 && r->rtt_med_us >= 0 &&
	    r->rtt_med_us > WATCH_RTT_FACTOR * best_med_us &&
	    r->rtt_med_us > best_med_us + WATCH_RTT_SLACK_US)
		return WATCH_DEGRADED;
	return WATCH_UP;
}

/* See watchstate.h. */
void watch_pair_init(struct watch_pair *p, long long start_us)
{
	memset(p, 0, sizeof(*p));
	p->state = p->cand = WATCH_UP;
	p->since_us = start_us;
	p->best_med_us = -1;
}

/* See watchstate.h. */
bool watch_pair_feed(struct watch_pair *p, const struct watch_round *r,
                     long long at_us, struct watch_change *ch)
{
	enum watch_state s = watch_classify(r, p->best_med_us);

	if (s == WATCH_UP && r->rtt_med_us >= 0 &&
	    (p->best_med_us < 0 || r->rtt_med_us < p->best_med_us))
		p->best_med_us = r->rtt_med_us;
	if (s == p->state) {
		p->cand = p->state;
		p->cand_rounds = 0;
		return false;
	}
	if (s != p->cand) {
		p->cand = s;
		p->cand_rounds = 0;
		p->cand_since_us = at_us;
	}
	if (++p->cand_rounds < WATCH_CONFIRM)
		return false;
	ch->was = p->state;
	ch->now = s;
	ch->at_us = p->cand_since_us;
	ch->lasted_us = p->cand_since_us - p->since_us;
	p->state = s;
	p->since_us = p->cand_since_us;
	p->cand_rounds = 0;
	p->changes++;
	return true;
}

/* See watchstate.h. */
void watch_evidence(const struct watch_round *r, char *buf, size_t len)
{
	char tcp[96];

	if (r->tcp_ok)
		snprintf(tcp, sizeof(tcp), "tcp connect: %.2f ms",
		         (double)r->connect_us / 1e3);
	else
		snprintf(tcp, sizeof(tcp), "tcp connect: %s",
		         r->tcp_errno == 0 || r->tcp_errno == 110
		             ? "timed out"
		             : strerror(r->tcp_errno));
	if (r->rtt_med_us >= 0)
		snprintf(buf, len,
		         "%s; udp echo: %u of %u answered, median %.2f ms, "
		         "max %.2f ms",
		         tcp, r->answered, r->sent, (double)r->rtt_med_us / 1e3,
		         (double)r->rtt_max_us / 1e3);
	else
		snprintf(buf, len, "%s; udp echo: %u of %u answered", tcp,
		         r->answered, r->sent);
}
