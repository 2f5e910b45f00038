/* netprobe report, decide: links that went down while netprobe mesh
 * --watch ran (issue 44). From the change log of node 0's mesh document,
 * one link-down-during-watch fault per pair that was ever down, on the
 * member that probed it, with when it went down, came back and for how
 * long. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "doc/finding.h"
#include "report_decide.h"

/* One pair's outages, as its changes tell them. */
struct outage {
	const char *from, *to;
	const char *down_at, *up_at; /* the first outage; up_at NULL: still
	                              * down at the end */
	long long down_ms;           /* the first outage's length, -1 unknown */
	long long total_ms;          /* every outage's, -1 unknown */
	int n;                       /* outages */
	bool still_down;             /* the last one lasted to the end */
	const char *since;           /* when the last one began */
	json_t *evidence;            /* the pair's changes to and from down */
	char made[40]; /* the first outage's start where no change has it */
};

/* ms since the epoch as "YYYY-MM-DDTHH:MM:SS.mmmZ", as the watch
 * writes its times. */
static void fmt_ms(long long ms, char *buf, size_t len)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	char s[32];

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(s, sizeof(s), "?");
	snprintf(buf, len, "%s.%03dZ", s, (int)(ms % 1000));
}

/* Orders changes by pair (from, then to), then by time. */
static int by_pair(const void *a, const void *b)
{
	const json_t *x = *(const json_t *const *)a;
	const json_t *y = *(const json_t *const *)b;
	int d = strcmp(rj_strd(x, "from", ""), rj_strd(y, "from", ""));
	long long tx, ty;

	if (d == 0)
		d = strcmp(rj_strd(x, "to", ""), rj_strd(y, "to", ""));
	if (d != 0)
		return d;
	tx = rj_utc_ms(rj_str(x, "at"));
	ty = rj_utc_ms(rj_str(y, "at"));
	return (tx > ty) - (tx < ty);
}

/* True when change c is a state of the pair: both ends named, and an
 * RFC 3339 time. */
static bool usable(const json_t *c)
{
	return rj_str(c, "from") != NULL && rj_str(c, "to") != NULL &&
	       rj_str(c, "was") != NULL && rj_str(c, "now") != NULL &&
	       rj_utc_ms(rj_str(c, "at")) >= 0;
}

/* Seconds with one decimal, from milliseconds. */
static double secs(long long ms)
{
	return (double)ms / 1e3;
}

/* A change as a fact of the evidence. Returns 0, or -1 on no memory. */
static int cite(json_t *ev, const json_t *c)
{
	char fact[512];

	snprintf(fact, sizeof(fact), "%s: %s -> %s: %s -> %s after %.1f s (%s)",
	         rj_str(c, "at"), rj_str(c, "from"), rj_str(c, "to"),
	         rj_str(c, "was"), rj_str(c, "now"),
	         secs(rj_int(c, "lasted_ms", 0)), rj_strd(c, "evidence", ""));
	return json_array_append_new(ev, json_pack("{s:s, s:s}", "fact", fact,
	                                           "source",
	                                           "mesh --watch change log"));
}

/* One outage ended (up_at NULL: lasted to the end of the watch). */
static void outage_end(struct outage *o, const char *down_at, const char *up_at,
                       long long ms)
{
	if (o->n == 0) {
		o->down_at = down_at;
		o->up_at = up_at;
		o->down_ms = ms;
	}
	o->n++;
	if (ms < 0 || o->total_ms < 0)
		o->total_ms = -1;
	else
		o->total_ms += ms;
	o->since = down_at;
	o->still_down = up_at == NULL;
}

/* Walks one pair's changes v[0..n) in time order into o. ended: the
 * watch's end, -1 unknown. Returns 0, or -1 on no memory. */
static int pair_walk(const json_t **v, size_t n, long long ended,
                     struct outage *o)
{
	const char *down_at = NULL;
	long long down_ms = -1;

	for (size_t i = 0; i < n; i++) {
		const char *was = rj_str(v[i], "was"),
		           *now = rj_str(v[i], "now");
		long long at = rj_utc_ms(rj_str(v[i], "at"));
		bool to_down = strcmp(now, "down") == 0;

		if (!to_down && strcmp(was, "down") != 0)
			continue;
		if (cite(o->evidence, v[i]) < 0)
			return -1;
		if (to_down) {
			if (down_at == NULL) {
				down_at = rj_str(v[i], "at");
				down_ms = at;
			}
			continue;
		}
		/* back from down: the prober's own measure of how long,
		 * the times where it has none; the change to down may be
		 * missing (past the log's bound) */
		long long lasted = rj_int(v[i], "lasted_ms", -1);

		if (lasted < 0 && down_ms >= 0)
			lasted = at - down_ms;
		if (down_at == NULL && o->n == 0) {
			fmt_ms(at - (lasted > 0 ? lasted : 0), o->made,
			       sizeof(o->made));
			down_at = o->made;
		}
		outage_end(o, down_at != NULL ? down_at : rj_str(v[i], "at"),
		           rj_str(v[i], "at"), lasted);
		down_at = NULL;
		down_ms = -1;
	}
	if (down_at != NULL)
		outage_end(o, down_at, NULL,
		           ended >= down_ms ? ended - down_ms : -1);
	return 0;
}

/* A length in seconds, or "for an unknown time". */
static const char *len_s(long long ms, char *buf, size_t len)
{
	if (ms < 0)
		snprintf(buf, len, "for an unknown time");
	else
		snprintf(buf, len, "%.1f s", secs(ms));
	return buf;
}

/* The finding of one pair into c->findings. ended: the watch's end as
 * written. Returns 0, or -1 on no memory. */
static int down_finding(struct rctx *c, struct outage *o, const char *ended)
{
	char sum[1024], more[160], fix[1024], a[32], b[32];
	json_t *f, *link;

	more[0] = '\0';
	if (o->n > 1)
		snprintf(more, sizeof(more), " (%d outages, %s down in all%s)",
		         o->n, len_s(o->total_ms, a, sizeof(a)),
		         o->still_down ? ", down again from the last one to "
		                         "the end"
		                       : "");
	if (o->up_at != NULL)
		snprintf(sum, sizeof(sum),
		         "link %s -> %s was down %s during the watch, from "
		         "%s to %s%s",
		         o->from, o->to, len_s(o->down_ms, b, sizeof(b)),
		         o->down_at, o->up_at, more);
	else
		snprintf(sum, sizeof(sum),
		         "link %s -> %s went down during the watch at %s and "
		         "was still down when it ended at %s (%s)",
		         o->from, o->to, o->down_at, ended,
		         len_s(o->down_ms, b, sizeof(b)));
	snprintf(fix, sizeof(fix),
	         "find what cut %s -> %s at %s: ip -s link and ethtool -S on "
	         "both nodes (errors, carrier changes), the switch port's "
	         "log, dmesg, a firewall or route change then; a job running "
	         "then lost the link; run netprobe mesh --watch again to see "
	         "that it holds",
	         o->from, o->to, o->still_down ? o->since : o->down_at);
	f = rd_finding(FINDING_LINK_DOWN_DURING_WATCH, o->from, SEV_FAULT, sum,
	               fix, json_incref(o->evidence));
	link = json_pack("{s:s, s:s, s:s, s:s?, s:I, s:i, s:I, s:b}", "from",
	                 o->from, "to", o->to, "down_at", o->down_at, "up_at",
	                 o->up_at, "down_ms", (json_int_t)o->down_ms, "outages",
	                 o->n, "down_ms_total", (json_int_t)o->total_ms,
	                 "still_down", o->still_down);
	if (f == NULL || link == NULL ||
	    json_object_set_new(f, "link", link) < 0 ||
	    json_array_append_new(c->findings, f) < 0) {
		json_decref(f);
		return -1;
	}
	return 0;
}

/* See report_decide.h. */
int rd_watch_down(struct rctx *c)
{
	const json_t *d = rd_mesh_doc(c);
	const json_t *w = json_object_get(json_object_get(d, "mesh"), "watch");
	const json_t *ch = rj_arr(w, "changes");
	const json_t **v;
	size_t n = 0, i, j;
	long long ended = rj_utc_ms(rj_str(w, "ended"));
	int rc = 0;
	json_t *e;

	if (json_array_size(ch) == 0)
		return 0;
	v = calloc(json_array_size(ch), sizeof(*v));
	if (v == NULL)
		return -1;
	json_array_foreach(ch, i, e) if (usable(e)) v[n++] = e;
	qsort(v, n, sizeof(*v), by_pair);
	for (i = 0; i < n && rc == 0; i = j) {
		struct outage o = {.from = rj_str(v[i], "from"),
		                   .to = rj_str(v[i], "to"),
		                   .evidence = json_array()};

		for (j = i + 1;
		     j < n && strcmp(rj_str(v[j], "from"), o.from) == 0 &&
		     strcmp(rj_str(v[j], "to"), o.to) == 0;
		     j++)
			;
		if (o.evidence == NULL ||
		    pair_walk(v + i, j - i, ended, &o) < 0 ||
		    (o.n > 0 &&
		     down_finding(c, &o, rj_strd(w, "ended", "?")) < 0))
			rc = -1;
		json_decref(o.evidence);
	}
	free(v);
	return rc;
}
