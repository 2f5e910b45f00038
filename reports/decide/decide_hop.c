/* netprobe report, decide: the mesh's hop probe read (issue 48). A
 * member's TTL-limited walk toward a failed port (the peer entry's "hop",
 * lib/probe/hopprobe.c) becomes the elimination's evidence: whether the
 * answer or the silence starts before the peer, the hop it names, and
 * the walk in words for the path cause's evidence; and the path cause's
 * name, from its pairs' hops and gateways. */
#include <stdio.h>
#include <string.h>

#include "decide_hop.h"

/* What the hop probe of entry en (node x's, toward node y) saw, in
 * words, into buf: each TTL's answer (with steps; without, a why line's
 * short form), the path's length, and where the answer or the silence
 * starts. */
static void hop_words(const json_t *h, const char *x, const char *y,
		      int box, bool steps, char *buf, size_t len)
{
	const char *ans = rj_strd(h, "answer", "none"), *hop = rj_str(h, "hop");
	long long at = rj_int(h, "answer_ttl", 0),
		  plen = rj_int(h, "path_len", 0),
		  last = rj_int(h, "last_hop_ttl", 0);
	size_t l = 0, i;
	json_t *st;

	l += (size_t)snprintf(buf, len,
			      "the hop probe (TTL-limited connects) from %s "
			      "toward %s's %lld/tcp%s",
			      x, y, rj_int(h, "port", 0), steps ? ":" : "");
	json_array_foreach(rj_arr(h, "steps"), i, st) {
		if (!steps)
			break;
		const char *from = rj_str(st, "from");

		if (l >= len)
			return;
		l += (size_t)snprintf(buf + l, len - l, "%s TTL %lld %s%s%s",
				      i ? "," : "", rj_int(st, "ttl", 0),
				      rj_strd(st, "answer", "?"),
				      from ? " from " : "", from ? from : "");
	}
	if (plen > 0 && l < len)
		l += (size_t)snprintf(buf + l, len - l,
				      "; %s's responder answers at TTL %lld",
				      y, plen);
	if (l >= len)
		return;
	if (box == 1 && strcmp(ans, "unreachable") == 0)
		snprintf(buf + l, len - l,
			 ": the refusal comes from %s at TTL %lld, not from "
			 "%s: a box on the path refuses it",
			 hop ? hop : "another address", at, y);
	else if (box == 1 && strcmp(ans, "reset") == 0)
		snprintf(buf + l, len - l,
			 ": the reset comes at TTL %lld, before %s: the box "
			 "at hop %lld (%s), or one right after it, sends it "
			 "in %s's name",
			 at, y, last, hop ? hop : "?", y);
	else if (box == 1)
		snprintf(buf + l, len - l,
			 ": dropped at hop %lld (%s) or right after it, before "
			 "the next hop, which answers for the responder's "
			 "port",
			 last, hop ? hop : "?");
	else if (strcmp(ans, "reset") == 0 && hop != NULL)
		snprintf(buf + l, len - l,
			 ": the reset comes at %s's own distance, after hop "
			 "%lld (%s): from %s or the box right before it",
			 y, last, hop, y);
	else if (strcmp(ans, "silent") == 0 && hop != NULL)
		snprintf(buf + l, len - l,
			 ": silent after hop %lld (%s): a drop there or "
			 "past it, or a box past it whose ICMP errors are "
			 "rate-limited",
			 last, hop);
}

/* See decide_hop.h. */
void rd_hop_of(const json_t *en, const char *x, const char *y, int *box,
	       bool *answered, char *hop, size_t hlen, char *fact,
	       char *walk, size_t flen)
{
	const json_t *h = json_object_get(en, "hop"), *b;
	const char *ans;

	if (!json_is_object(h))
		return;
	ans = rj_strd(h, "answer", "none");
	b = json_object_get(h, "box_before_peer");
	*box = json_is_true(b) ? 1 : json_is_false(b) ? 0 : -1;
	*answered = strcmp(ans, "reset") == 0 ||
		    strcmp(ans, "unreachable") == 0;
	/* the port passed this time: the walk names no box */
	if (strcmp(ans, "open") == 0)
		*box = 0;
	else
		snprintf(hop, hlen, "%s", rj_strd(h, "hop", ""));
	hop_words(h, x, y, *box, false, fact, flen);
	hop_words(h, x, y, *box, true, walk, flen);
}

/* The hop probes' lines a path cause holds at most. */
#define HOP_LINES 4

/* See decide_hop.h. */
void rd_hop_lines(json_t *k, const struct elim_ev *e)
{
	json_t *ev = json_object_get(k, "evidence"), *v;
	const char *facts[2] = {e->hop_walk_a, e->hop_walk_b};
	const char *who[2] = {e->a, e->b};
	size_t i;

	for (int j = 0; j < 2; j++) {
		bool seen = false;
		size_t n = 0;

		if (facts[j][0] == '\0')
			continue;
		json_array_foreach(ev, i, v) {
			if (strcmp(rj_strd(v, "fact", ""), facts[j]) == 0)
				seen = true;
			n += strcmp(rj_strd(v, "source", ""), "hop probe") == 0;
		}
		/* a few walks tell it; the rest say the same */
		if (!seen && n < HOP_LINES)
			json_array_append_new(
			    ev, json_pack("{s:s, s:s, s:s}", "node", who[j],
					  "fact", facts[j], "source",
					  "hop probe"));
	}
}


/* Offers hop h, of rank r, to name path cause k; the first offer of a
 * rank stays. Ranks: 7 and 6, a hop probe whose port was answered by a
 * box before the peer (an ICMP refusal names its sender, a reset comes
 * at a TTL short of the peer), from the first subnet's side, the
 * second's; 5 and 4, one whose port went silent past a hop while the
 * next hop answered the control walk (the box at that hop, unless the
 * next one's ICMP errors were rate-limited); 3, the gateway the first
 * subnet's side takes; 2 and 1, a hop probe that saw nothing before the
 * peer, from the first side, the second's (only a hop on the way, issue
 * 48's seeds 117 and 129). rd_path_name picks among them. */
static void path_offer(json_t *k, const char *h, int r)
{
	char key[16];

	if (h[0] == '\0' || r <= 0)
		return;
	snprintf(key, sizeof(key), "offer%d", r);
	if (json_object_get(k, key) == NULL)
		json_object_set_new(k, key, json_string(h));
}

/* The same for the second subnet's side's view of the box ("seen"):
 * its hop probe answered by the box before the peer (4), gone silent
 * there (3), its gateway (2), another hop of its probe (1); the words
 * name it beside the first side's when the two differ (a router has an
 * address on each). */
static void path_seen(json_t *k, const char *h, int r)
{
	if (h[0] == '\0' || r <= rj_int(k, "seen_rank", 0))
		return;
	json_object_set_new(k, "seen", json_string(h));
	json_object_set_new(k, "seen_rank", json_integer(r));
}

/* The rank a walk's box verdict offers (path_offer's): 0 where it saw
 * no box before the peer. */
static int box_rank(int box, bool answered, bool first_side)
{
	if (box != 1)
		return 0;
	return (answered ? 6 : 4) + (first_side ? 1 : 0);
}

/* Whether the offer of rank r may name path cause k: a silence names
 * no box where some walk of its pairs shows a box's ICMP errors
 * rate-limited (a silent TTL before an answer), and a gateway or a hop
 * on the way names none where the path crosses more than one box (the
 * peer answers past TTL 2): either could be any of them. */
static bool offer_pins(const json_t *k, int r)
{
	if (r >= 6)
		return true;
	if (r >= 4)
		return !json_is_true(json_object_get(k, "icmp_gap"));
	return rj_int(k, "path_len", 0) <= 2;
}

/* Settles path cause k's name: its best offer that pins the box, else
 * its subnets (the boxes it could be kept as "candidates"). */
/* See decide_hop.h. */
void rd_path_name(json_t *k)
{
	const json_t *nets = json_object_get(k, "nets");
	char node[128] = "", id[160], key[16];
	int rank = 0;

	for (int r = 7; r >= 1; r--) {
		snprintf(key, sizeof(key), "offer%d", r);
		if (rank == 0 && json_is_string(json_object_get(k, key)) &&
		    offer_pins(k, r)) {
			snprintf(node, sizeof(node), "%s",
				 rj_str(k, key));
			rank = r;
		}
		json_object_del(k, key);
	}
	if (node[0] == '\0') {
		snprintf(node, sizeof(node), "%s<->%s",
			 json_string_value(json_array_get(nets, 0)),
			 json_string_value(json_array_get(nets, 1)));
		json_object_del(k, "seen");
	} else
		json_object_del(k, "candidates");
	snprintf(id, sizeof(id), "path:%s", node);
	json_object_set_new(k, "id", json_string(id));
	json_object_set_new(k, "node", json_string(node));
	json_object_set_new(json_object_get(k, "fix"), "node",
			    json_string(node));
	/* named by the second side's own view (6, 4, 1): no other to add;
	 * the second side's gateway or a hop on its way is the same box
	 * only where the path crosses one */
	if (rank == 6 || rank == 4 || rank == 1 ||
	    (rj_int(k, "path_len", 0) > 2 && rj_int(k, "seen_rank", 0) <= 2))
		json_object_del(k, "seen");
	json_object_del(k, "seen_rank");
	json_object_del(k, "icmp_gap");
}

/* See decide_hop.h. */
void rd_hop_shape(const json_t *en, int *len, bool *gap)
{
	const json_t *h = json_object_get(en, "hop"), *st;
	bool silent = false;
	size_t i;

	if (!json_is_object(h))
		return;
	*len = (int)rj_int(h, "path_len", 0);
	*gap = false;
	json_array_foreach(rj_arr(h, "steps"), i, st) {
		if (strcmp(rj_strd(st, "answer", ""), "silent") == 0)
			silent = true;
		else if (silent)
			*gap = true;
	}
}

/* See decide_hop.h. */
void rd_hop_offer(json_t *pk, const struct elim_ev *e, bool first)
{
	int len = e->hop_len_a > e->hop_len_b ? e->hop_len_a : e->hop_len_b;
	json_t *cand = json_object_get(pk, "candidates");
	const char *g1 = first ? e->gw_a : e->gw_b;
	const char *g2 = first ? e->gw_b : e->gw_a;

	path_offer(pk, e->hop_a,
		   box_rank(e->hop_box_a, e->hop_answered_a, first));
	path_offer(pk, e->hop_b,
		   box_rank(e->hop_box_b, e->hop_answered_b, !first));
	path_offer(pk, g1, 3);
	path_offer(pk, first ? e->hop_a : e->hop_b, 2);
	path_offer(pk, first ? e->hop_b : e->hop_a, 1);
	path_seen(pk, first ? e->hop_b : e->hop_a, 1);
	path_seen(pk, first ? e->gw_b : e->gw_a, 2);
	path_seen(pk,
		  (first ? e->hop_box_b : e->hop_box_a) == 1
			  ? (first ? e->hop_b : e->hop_a)
			  : "",
		  (first ? e->hop_answered_b : e->hop_answered_a) ? 4 : 3);
	if (len > rj_int(pk, "path_len", 0))
		json_object_set_new(pk, "path_len", json_integer(len));
	if (e->hop_gap_a || e->hop_gap_b)
		json_object_set_new(pk, "icmp_gap", json_true());
	/* each side's gateway: the boxes an unpinned cause names */
	if (cand == NULL) {
		json_object_set_new(pk, "candidates", json_array());
		cand = json_object_get(pk, "candidates");
	}
	if (g1[0] != '\0')
		rj_add_unique(cand, g1);
	if (g2[0] != '\0')
		rj_add_unique(cand, g2);
}

/* See decide_hop.h. */
size_t rd_path_unpinned(json_t *k, char *buf, size_t len)
{
	const json_t *cand = json_object_get(k, "candidates"), *v;
	char names[300] = "";
	size_t i, l = 0;
	int n;

	json_array_foreach(cand, i, v)
		if (l < sizeof(names))
			l += (size_t)snprintf(names + l, sizeof(names) - l,
					      "%s%s", i ? ", " : "",
					      json_string_value(v));
	n = snprintf(buf, len,
		     "Which box stops them the hop probe could not tell: the "
		     "path crosses %lld boxes (the peer answers at TTL %lld) "
		     "and none of them answered for the failed ports (a "
		     "box's ICMP errors rate-limited or off look the same as "
		     "a drop). Decide on each box of the path%s%s%s: nft -a "
		     "list chain inet filter forward (or its ACL), and let "
		     "the ports through on the one whose rule stops them. ",
		     rj_int(k, "path_len", 0) - 1, rj_int(k, "path_len", 0),
		     names[0] ? ", first the subnets' gateways (" : "", names,
		     names[0] ? ")" : "");
	json_object_del(k, "candidates");
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}
