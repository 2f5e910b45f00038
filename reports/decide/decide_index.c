/* netprobe report, decide: what the deciders ask of every pair, indexed
 * once per report where it rests on a decider (merge_index.c holds the
 * merge stage's lookups). rd_pair_lossy asked rd_pair_of of every
 * link-lossy finding for each pair it was asked about: with a lossy link
 * per member, 1,024 members made that the square of the members times the
 * words of each finding (bench/mesh/RESULTS.md). */
#include <string.h>

#include "report_decide.h"

/* Marks name in set (NULL or empty: nothing). Returns 0 or -1. */
static int mark(json_t *set, const char *name)
{
	if (name == NULL || json_object_get(set, name) != NULL)
		return 0;
	return json_object_set_new(set, name, json_true());
}

int rd_index_lossy(struct rctx *c)
{
	static const enum finding_code codes[] = {FINDING_LINK_LOSSY,
						  FINDING_HEARTBEAT_LOSS};
	size_t i;
	json_t *f;

	json_decref(c->lossy);
	c->lossy = json_object();
	if (c->lossy == NULL)
		return -1;
	for (size_t k = 0; k < 2; k++)
		json_array_foreach(rx_code_findings(c, codes[k]), i, f) {
			if (!finding_is(rj_strd(f, "code", ""), codes[k]))
				continue;
			if (mark(c->lossy, rj_str(f, "node")) < 0 ||
			    mark(c->lossy, rd_pair_of(c, f)) < 0)
				return -1;
		}
	return 0;
}
