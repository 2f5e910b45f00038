/* netprobe report, decide: the pairs a node's own notrack-untracked-drop
 * (its scan's: packets exempted from connection tracking, then dropped
 * because no accept matches them untracked; issue 48) cuts it off from.
 * Every member whose address the exemption covers and whose pair with
 * the node failed goes into the finding's "cuts", as decide_names.c's
 * findings, so those pairs are that setting cause's and no one else's,
 * and never undecided. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

/* True when address a lies in p ("10.0.0.0/24", or one address). */
static bool in_source(const char *a, const char *p)
{
	unsigned char x[16], y[16];
	char net[64], tail;
	const char *sl = strchr(p, '/');
	int fam = strchr(a, ':') != NULL ? AF_INET6 : AF_INET;
	long len = fam == AF_INET6 ? 128 : 32, max = len;

	snprintf(net, sizeof(net), "%.*s", sl ? (int)(sl - p) : (int)strlen(p),
		 p);
	if (inet_pton(fam, a, x) != 1 || inet_pton(fam, net, y) != 1 ||
	    (sl != NULL && sscanf(sl + 1, "%ld%c", &len, &tail) != 1) ||
	    len < 0 || len > max)
		return false;
	for (long b = 0; b < len; b++)
		if (((x[b / 8] ^ y[b / 8]) >> (7 - b % 8)) & 1)
			return false;
	return true;
}

/* True when notrack rule r exempts packets from one of the global
 * addresses of scan doc db (a rule without sources: every address). */
static bool rule_covers(const json_t *r, const json_t *db)
{
	size_t j, k, l;
	json_t *s, *fi, *ad;

	if (json_array_size(rj_arr(r, "saddr")) == 0)
		return true;
	json_array_foreach(rj_arr(r, "saddr"), j, s)
		json_array_foreach(rj_arr(db, "interfaces"), k, fi)
			json_array_foreach(rj_arr(fi, "addresses"), l, ad)
				if (in_source(rj_strd(ad, "address", ""),
					      json_string_value(s)))
					return true;
	return false;
}

/* How the notrack rules of scan doc d's firewall exempt node db's
 * packets: 0 not at all, 1 to some ports only (the node's connections to
 * it, whose replies come to other ports, are not cut), 2 to every port
 * (its replies too). */
static int exempts(const json_t *d, const json_t *db)
{
	size_t i;
	json_t *r;
	int how = 0;

	json_array_foreach(rj_arr(json_object_get(d, "firewall"), "notrack"),
			   i, r) {
		if (!rule_covers(r, db))
			continue;
		if (json_array_size(rj_arr(r, "ports")) == 0)
			return 2;
		how = 1;
	}
	return how;
}

/* True when a finding of node a (a fault or a warning: a port that
 * timed out, a peer unreached) names node b as its pair's other end. */
static bool finding_toward(const struct rctx *c, const char *a,
			   const char *b)
{
	size_t i;
	json_t *f;

	json_array_foreach(c->findings, i, f) {
		const char *sev = rj_strd(f, "severity", "");
		const char *o;

		if (strcmp(rj_strd(f, "node", ""), a) != 0 ||
		    (strcmp(sev, "fault") != 0 && strcmp(sev, "warning")) ||
		    finding_is(rj_strd(f, "code", ""),
			       FINDING_NOTRACK_UNTRACKED_DROP))
			continue;
		if ((o = rd_pair_of(c, f)) != NULL && strcmp(o, b) == 0)
			return true;
	}
	return false;
}

/* The cuts of node a's finding: the members its exemption covers whose
 * connections to a failed (a peer unreached, a port that timed out), or
 * a's to them where their replies are exempted too. */
static json_t *cuts_of(const struct rctx *c, const char *a, const json_t *d)
{
	size_t n = json_array_size(c->nodes);
	json_t *cuts = json_array();

	for (size_t k = 0; cuts != NULL && k < n; k++) {
		const char *b = json_string_value(json_array_get(c->nodes, k));
		const struct report_input *ib = rd_node_scan(c, b);

		int how;

		if (strcmp(a, b) == 0 || ib == NULL ||
		    (how = exempts(d, ib->doc)) == 0)
			continue;
		/* b's connections to a die on a's input; a's own to b only
		 * where b's replies are exempted too (every port) */
		if (!rd_failed_toward(c, ib->doc, a) && !finding_toward(c, b, a) &&
		    (how < 2 ||
		     (!rd_failed_toward(c, d, b) && !finding_toward(c, a, b))))
			continue;
		rj_add_unique(cuts, b);
	}
	return cuts;
}

/* See report_decide.h. */
void rd_untracked_cuts(struct rctx *c)
{
	size_t i;
	json_t *f;

	json_array_foreach(rx_code_findings(c, FINDING_NOTRACK_UNTRACKED_DROP),
			   i, f) {
		const char *a = rj_strd(f, "node", "");
		const struct report_input *in;

		if (!finding_is(rj_strd(f, "code", ""),
				FINDING_NOTRACK_UNTRACKED_DROP) ||
		    json_object_get(f, "cuts") != NULL ||
		    (in = rd_node_scan(c, a)) == NULL)
			continue;
		json_object_set_new(f, "cuts", cuts_of(c, a, in->doc));
	}
}

/* See report_decide.h. */
int rd_untracked_toward(const struct rctx *c, const char *a, const char *b)
{
	const struct report_input *in = rd_node_scan(c, a);
	const json_t *fw = in != NULL ? json_object_get(in->doc, "firewall")
				      : NULL;
	const char *be = rj_strd(fw, "backend", "");
	size_t i, j;
	json_t *f, *v;

	/* iptables-legacy's raw table is read by its own save */
	if ((strcmp(be, "nftables") != 0 &&
	     (strcmp(be, "iptables-legacy") != 0 ||
	      rj_str(fw, "notrack_tool") == NULL)) ||
	    json_is_true(json_object_get(fw, "truncated")) ||
	    json_is_true(json_object_get(fw, "notrack_unread")))
		return -1;
	json_array_foreach(rx_code_findings(c, FINDING_NOTRACK_UNTRACKED_DROP),
			   i, f) {
		if (!finding_is(rj_strd(f, "code", ""),
				FINDING_NOTRACK_UNTRACKED_DROP) ||
		    strcmp(rj_strd(f, "node", ""), a) != 0)
			continue;
		json_array_foreach(rj_arr(f, "cuts"), j, v)
			if (strcmp(json_string_value(v), b) == 0)
				return 1;
	}
	return 0;
}
