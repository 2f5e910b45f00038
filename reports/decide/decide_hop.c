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
		snprintf(buf + l, len - l, ": dropped after hop %lld (%s)",
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


/* Offers hop h, of rank r, to name path cause k: the best rank of its
 * pairs wins (5 and 4: a hop probe that saw the box before the peer,
 * from the first subnet's side, the second's; 3: the gateway the first
 * subnet's side takes, the address its members know the box by; 2 and
 * 1: a hop probe that saw nothing before the peer, from the first
 * side, the second's: the last hop it names is only a hop on the way,
 * so it never outranks the first side's own gateway, issue 48's seeds
 * 117 and 129). */
static void path_offer(json_t *k, const char *h, int r)
{
	if (h[0] == '\0' || r <= rj_int(k, "hop_rank", 0))
		return;
	json_object_set_new(k, "node", json_string(h));
	json_object_set_new(k, "hop_rank", json_integer(r));
}

/* The same for the second subnet's side's view of the box ("seen"):
 * its hop probe that saw the box before the peer (3), its gateway (2),
 * another hop of its probe (1); the words name it beside the first
 * side's when the two differ (a router has an address on each). */
static void path_seen(json_t *k, const char *h, int r)
{
	if (h[0] == '\0' || r <= rj_int(k, "seen_rank", 0))
		return;
	json_object_set_new(k, "seen", json_string(h));
	json_object_set_new(k, "seen_rank", json_integer(r));
}

/* Settles path cause k's name: its hop, else its subnets. */
/* See decide_hop.h. */
void rd_path_name(json_t *k)
{
	const json_t *nets = json_object_get(k, "nets");
	char node[128], id[160];

	if (rj_strd(k, "node", "")[0] != '\0')
		snprintf(node, sizeof(node), "%s", rj_str(k, "node"));
	else
		snprintf(node, sizeof(node), "%s<->%s",
			 json_string_value(json_array_get(nets, 0)),
			 json_string_value(json_array_get(nets, 1)));
	snprintf(id, sizeof(id), "path:%s", node);
	json_object_set_new(k, "id", json_string(id));
	json_object_set_new(k, "node", json_string(node));
	json_object_set_new(json_object_get(k, "fix"), "node",
			    json_string(node));
	/* named by the second side's own view (4, 1): no other to add */
	if (rj_int(k, "hop_rank", 0) == 4 || rj_int(k, "hop_rank", 0) == 1)
		json_object_del(k, "seen");
	json_object_del(k, "hop_rank");
	json_object_del(k, "seen_rank");
}

/* See decide_hop.h. */
void rd_hop_offer(json_t *pk, const struct elim_ev *e, bool first)
{
	path_offer(pk, first ? e->gw_a : e->gw_b, 3);
	path_offer(pk, first ? e->hop_a : e->hop_b, 2);
	path_offer(pk, first ? e->hop_b : e->hop_a, 1);
	path_offer(pk, e->hop_box_a == 1 ? e->hop_a : "", first ? 5 : 4);
	path_offer(pk, e->hop_box_b == 1 ? e->hop_b : "", first ? 4 : 5);
	path_seen(pk, first ? e->hop_b : e->hop_a, 1);
	path_seen(pk, first ? e->gw_b : e->gw_a, 2);
	path_seen(pk, (first ? e->hop_box_b : e->hop_box_a) == 1
			      ? (first ? e->hop_b : e->hop_a)
			      : "",
		  3);
}
