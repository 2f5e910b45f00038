/* netprobe report, decide: a node's own queueing discipline that drops
 * full frames (the scan's qdisc-drops-frames, issue 48, blind48e 01).
 * Large packets that node sends vanish while the MTUs are equal: the
 * path MTU search reads that as a black hole, but no MTU setting is at
 * fault, so the MTU deciders leave such a node's paths to the qdisc's
 * setting cause and print no MTU to set. */
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

/* See report_decide.h. */
const json_t *rd_qdisc_of(const struct rctx *c, const char *node)
{
	size_t i;
	json_t *f;

	if (node == NULL)
		return NULL;
	json_array_foreach(rx_code_findings(c, FINDING_QDISC_DROPS_FRAMES), i,
			   f)
		if (finding_is(rj_strd(f, "code", ""),
			       FINDING_QDISC_DROPS_FRAMES) &&
		    strcmp(rj_strd(f, "node", ""), node) == 0)
			return f;
	return NULL;
}
