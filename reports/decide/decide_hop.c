/* netprobe report, decide: the mesh's hop probe read (issue 48). A
 * member's TTL-limited walk toward a failed port (the peer entry's "hop",
 * lib/probe/hopprobe.c) becomes the elimination's evidence: whether the
 * answer or the silence starts before the peer, the hop it names, and
 * the walk in words for the path cause's evidence. */
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

