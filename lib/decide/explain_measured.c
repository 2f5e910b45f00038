/* netprobe explain: what this node measured, applied to the log's causes
 * (decide/explain.h): a cause its own checks found is proved, one they
 * checked and did not find is not seen here. */
#include "decide/explain.h"

#include <stdio.h>
#include <string.h>

/* See decide/explain.h. */
void explain_drop_normal(struct explain_result *r)
{
	size_t o = 0;

	for (size_t i = 0; i < r->ncauses; i++)
		if (!(r->causes[i].normal_unless_measured &&
		      r->causes[i].open))
			r->causes[o++] = r->causes[i];
	r->ncauses = o;
}

/* The index of code in list, or -1. */
static int measured_index(const char *const *list, size_t n,
			  const char *code)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], code) == 0)
			return (int)i;
	return -1;
}

/* See decide/explain.h. */
void explain_apply_measured(struct explain_result *r,
			    const struct explain_measured *ms)
{
	if (!ms->ran)
		return;
	for (size_t i = 0; i < r->ncauses; i++) {
		struct explain_cause *c = &r->causes[i];
		int f = -1;
		size_t k;

		if (c->kind != EXPLAIN_NET)
			continue;
		for (k = 0; k < c->ncodes && f < 0; k++)
			f = measured_index(ms->found, ms->nfound, c->codes[k]);
		if (f >= 0) {
			if (c->open) {
				if (k > 1)
					memmove(c->codes[0], c->codes[k - 1],
						sizeof(c->codes[0]));
				c->ncodes = 1;
				c->open = false;
			}
			c->state = EXPLAIN_PROVED;
			snprintf(c->measured, sizeof(c->measured), "%s",
				 ms->note[f] ? ms->note[f] :
				 "found by this node's own checks");
			/* the node's own fix, whole or not at all */
			if (ms->fix[f] && strlen(ms->fix[f]) < sizeof(c->fix))
				memcpy(c->fix, ms->fix[f],
				       strlen(ms->fix[f]) + 1);
			continue;
		}
		if (!c->open && measured_index(ms->checked, ms->nchecked,
					       c->codes[0]) >= 0) {
			c->state = EXPLAIN_NOT_SEEN;
			snprintf(c->measured, sizeof(c->measured),
				 "checked here and not present: the fault is "
				 "on the node that wrote the log");
		}
	}
}
