/* Stragglers (decide/ras_straggle.h): per communicator and collective,
 * the leaders' count and who is behind it. */
#include "decide/ras_straggle.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *straggle_kind_name(enum straggle_kind k)
{
	static const char *const n[] = {"behind", "stopped", "slow",
					"caught up", "keeping up"};

	return k <= STRAGGLE_KEEPING_UP ? n[k] : "?";
}

int straggle_suspect(enum straggle_kind k)
{
	return k == STRAGGLE_BEHIND || k == STRAGGLE_STOPPED ||
	       k == STRAGGLE_SLOW;
}

static bool same_group(const struct ras_count *a, const struct ras_count *b)
{
	return strcmp(a->comm, b->comm) == 0 && strcmp(a->op, b->op) == 0;
}

/* The leaders' count of c's group in st, and how many ranks hold it. */
static unsigned long long lead_of(const struct ras_state *st,
				  const struct ras_count *c, int *nlead)
{
	unsigned long long max = 0;

	*nlead = 0;
	for (size_t i = 0; i < st->ncounts; i++)
		if (same_group(&st->counts[i], c) && st->counts[i].count > max)
			max = st->counts[i].count;
	for (size_t i = 0; i < st->ncounts; i++)
		if (same_group(&st->counts[i], c) &&
		    st->counts[i].count == max)
			*nlead += st->counts[i].nranks;
	return max;
}

/* The same rank's count of the same group in st, or NULL. A rank the
 * answer does not list by name was at the leaders' count (the JSON reader
 * keeps only the ranks behind, and the leaders' count where any is):
 * *tmp holds that. */
static const struct ras_count *find(const struct ras_state *st,
				    const struct ras_count *c,
				    struct ras_count *tmp)
{
	bool group = false;
	int n;

	for (size_t i = 0; st && i < st->ncounts; i++) {
		if (!same_group(&st->counts[i], c))
			continue;
		group = true;
		if (st->counts[i].rank == c->rank && c->rank >= 0)
			return &st->counts[i];
	}
	if (!group || c->rank < 0 || !st->json)
		return NULL;
	*tmp = *c;
	tmp->count = lead_of(st, c, &n);
	return tmp;
}

static void fill(struct ras_straggler *s, enum straggle_kind k,
		 const struct ras_count *c, unsigned long long ahead,
		 int nahead)
{
	memset(s, 0, sizeof(*s));
	s->kind = k;
	snprintf(s->comm, sizeof(s->comm), "%s", c->comm);
	snprintf(s->op, sizeof(s->op), "%s", c->op);
	s->rank = c->rank;
	s->nranks = c->nranks;
	s->pid = c->pid;
	snprintf(s->node, sizeof(s->node), "%s", c->node);
	snprintf(s->gpu, sizeof(s->gpu), "%s", c->gpu);
	s->count = c->count;
	s->ahead = ahead;
	s->nahead = nahead;
}

static int by_gap(const void *a, const void *b)
{
	const struct ras_straggler *x = a, *y = b;
	unsigned long long gx = x->ahead - x->count, gy = y->ahead - y->count;

	static const int order[] = {2, 0, 1, 3, 4}; /* stopped first */

	if (x->kind != y->kind)
		return order[x->kind] - order[y->kind];
	return gx > gy ? -1 : gx < gy ? 1 : x->rank - y->rank;
}

size_t ras_stragglers(const struct ras_state *now,
		      const struct ras_state *before,
		      struct ras_straggler *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < now->ncounts && n < max; i++) {
		const struct ras_count *c = &now->counts[i];
		struct ras_count tmp;
		const struct ras_count *was = find(before, c, &tmp);
		unsigned long long lead;
		int nlead;
		enum straggle_kind k = STRAGGLE_BEHIND;

		if (c->nranks <= 0)
			continue; /* a group whose ranks are all named */
		lead = lead_of(now, c, &nlead);
		if (c->count < lead) {
			int bl;
			unsigned long long blead =
				was ? lead_of(before, was, &bl) : 0;

			if (was != NULL && was->count == c->count)
				k = STRAGGLE_STOPPED;
			else if (was != NULL)
				k = lead - c->count > blead - was->count
					    ? STRAGGLE_SLOW
					    : STRAGGLE_KEEPING_UP;
			fill(&out[n], k, c, lead, nlead);
			out[n].moved = was && c->count > was->count
					       ? c->count - was->count : 0;
			n++;
			continue;
		}
		if (was != NULL) {
			int blead;
			unsigned long long bl = lead_of(before, was, &blead);

			if (was->count < bl) {
				fill(&out[n], STRAGGLE_CAUGHT_UP, c, lead,
				     nlead);
				out[n].moved = c->count - was->count;
				n++;
			}
		}
	}
	/* behind in the first look and no longer listed: level now */
	for (size_t i = 0; before && i < before->ncounts && n < max; i++) {
		const struct ras_count *w = &before->counts[i], *c;
		struct ras_count tmp;
		unsigned long long lead;
		int bl, nlead;

		if (w->rank < 0 || w->count >= lead_of(before, w, &bl))
			continue;
		c = find(now, w, &tmp);
		if (c != &tmp)
			continue; /* listed now: the loop above said it */
		lead = lead_of(now, c, &nlead);
		fill(&out[n], STRAGGLE_CAUGHT_UP, w, lead, nlead);
		out[n].count = c->count;
		out[n].moved = c->count > w->count ? c->count - w->count : 0;
		n++;
	}
	qsort(out, n, sizeof(*out), by_gap);
	return n;
}
