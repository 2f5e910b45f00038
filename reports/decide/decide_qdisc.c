/* netprobe report, decide: a node's own queueing discipline that drops
 * full frames (the scan's qdisc-drops-frames, issue 48, blind48e 01).
 * Large packets that node sends vanish while the MTUs are equal: the
 * path MTU search reads that as a black hole, but no MTU setting is at
 * fault, so the MTU deciders leave such a node's paths to the qdisc's
 * setting cause and print no MTU to set. */
#include <stdio.h>
#include <string.h>

#include "doc/finding.h"
#include "elim.h"
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

/* True when a path measurement of peer entry en carried less than its
 * interface's MTU (the probe may exceed it by a header), with its MTU
 * and the peer's into *mine and *peer (0 unknown). */
static bool short_path(const json_t *en, long long *mine, long long *peer)
{
	const json_t *pm = json_object_get(json_object_get(en, "path"), "pmtu");
	long long ok = rj_int(pm, "largest_ok", -1);

	*mine = rj_int(pm, "interface_mtu", 0);
	*peer = rj_int(pm, "peer_interface_mtu", 0);
	return ok > 0 && *mine > 0 && ok + 8 < *mine;
}

/* See report_decide.h. */
void rd_qdisc_ev(const struct rctx *c, const json_t *da, const json_t *db,
		 const json_t *ea, const json_t *eb, struct elim_ev *e)
{
	long long ma = 0, pa = 0, mb = 0, pb = 0;
	bool sa = short_path(ea, &ma, &pa), sb = short_path(eb, &mb, &pb);
	long long m = ma > 0 ? ma : pb, o = pa > 0 ? pa : mb;

	e->qdisc_a = rd_qdisc_of(c, e->a) != NULL;
	e->qdisc_b = rd_qdisc_of(c, e->b) != NULL;
	e->qdisc_read = json_is_array(json_object_get(da, "qdiscs")) &&
			json_is_array(json_object_get(db, "qdiscs"));
	e->large_fail = sa || sb;
	e->mtu_eq = m > 0 && m == o && m < 1000000 ? (unsigned)m : 0;
	snprintf(e->if_a, sizeof(e->if_a), "%s",
		 rj_strd(json_object_get(ea, "route"), "out_interface", ""));
}

/* True when node's latest scan recorded no qdiscs (an older netprobe,
 * netlink refused, or no scan). */
static bool qdiscs_unread(const struct rctx *c, const char *node)
{
	const struct report_input *in = node != NULL ? rd_node_scan(c, node)
						     : NULL;

	return in == NULL || !json_is_array(json_object_get(in->doc, "qdiscs"));
}

/* See report_decide.h. */
void rd_qdisc_hint(const struct rctx *c, const char *from, const char *to,
		   const char *ifc, char *why, size_t len)
{
	size_t n = strlen(why);

	if (!qdiscs_unread(c, from) && !qdiscs_unread(c, to))
		return;
	snprintf(why + n, len - n,
		 "; first run tc -s qdisc show dev %s on %s%s%s: with the "
		 "MTUs equal, a shaper whose burst is below a full frame "
		 "drops large frames the same way",
		 ifc != NULL ? ifc : "IF", from, to != NULL ? " and on " : "",
		 to != NULL ? to : "");
}
