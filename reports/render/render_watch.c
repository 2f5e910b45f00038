/* netprobe report: mesh --watch's change log as a timeline (text, and in
 * HTML a table and an inline SVG plot of each pair's states over the
 * watch). */
#include "render_watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"

#define WATCH_PAIRS_MAX 64 /* pairs plotted; the table has them all */
#define PW 720             /* plot width, pixels */
#define ROW 22
#define LABEL_W 190

/* Orders changes by time, then by pair. */
static int by_time(const void *a, const void *b)
{
	const json_t *x = *(const json_t *const *)a;
	const json_t *y = *(const json_t *const *)b;
	long long tx = rj_utc_ms(rj_str(x, "at")), ty = rj_utc_ms(rj_str(y, "at"));

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return strcmp(rj_strd(x, "from", ""), rj_strd(y, "from", ""));
}

/* The changes in time order (malloc'd array of borrowed pointers), or
 * NULL when there are none or no memory. */
static const json_t **sorted(const json_t *watch, size_t *n)
{
	const json_t *ch = rj_arr(watch, "changes");
	const json_t **v;
	size_t i;
	json_t *c;

	*n = json_array_size(ch);
	if (*n == 0 || (v = calloc(*n, sizeof(*v))) == NULL)
		return NULL;
	json_array_foreach(ch, i, c)
		v[i] = c;
	qsort(v, *n, sizeof(*v), by_time);
	return v;
}

/* The head line: rounds, interval, span, how it ended, changes. */
static void head(const struct out *o, const json_t *w, size_t n)
{
	out_f(o,
	      "watch: %lld rounds every %.1f s, %s to %s (ended by %s); %zu "
	      "change%s of a pair's state",
	      rj_int(w, "rounds", 0),
	      json_number_value(json_object_get(w, "interval_s")),
	      rj_strd(w, "started", "?"), rj_strd(w, "ended", "?"),
	      rj_strd(w, "stopped_by", "?"), n, n == 1 ? "" : "s");
}

/* See render_watch.h. */
void text_watch(const struct out *o, const json_t *watch)
{
	size_t n, i;
	const json_t **v = sorted(watch, &n);

	out_f(o, "  ");
	head(o, watch, n);
	out_f(o, "\n");
	for (i = 0; v != NULL && i < n; i++)
		out_f(o, "    %s  %s -> %s: %s -> %s after %.1f s (%s)\n",
		      rj_str(v[i], "at"), rj_str(v[i], "from"),
		      rj_str(v[i], "to"), rj_str(v[i], "was"),
		      rj_str(v[i], "now"),
		      (double)rj_int(v[i], "lasted_ms", 0) / 1e3,
		      rj_strd(v[i], "evidence", ""));
	free(v);
}

/* The colour of a state in the plot. */
static const char *colour(const char *state)
{
	if (strcmp(state, "up") == 0)
		return "#32d583";
	if (strcmp(state, "down") == 0)
		return "#f04438";
	return "#fdb022"; /* degraded, lossy */
}

/* One pair's row: its states from start to end, as the changes say. */
static void plot_row(const struct out *o, const json_t **v, size_t n,
                     const char *from, const char *to, int y, long long t0,
                     long long t1)
{
	const char *state = "up";
	long long at = t0;
	double scale = (double)(PW - LABEL_W - 10) / (double)(t1 - t0);

	out_f(o, "<text x=\"4\" y=\"%d\" font-size=\"11\">%s &#8594; %s</text>",
	      y + 15, from, to);
	for (size_t i = 0; i <= n; i++) {
		long long next = t1;
		const char *now = NULL;

		if (i < n) {
			if (strcmp(rj_strd(v[i], "from", ""), from) != 0 ||
			    strcmp(rj_strd(v[i], "to", ""), to) != 0)
				continue;
			next = rj_utc_ms(rj_str(v[i], "at"));
			now = rj_strd(v[i], "now", "up");
			if (next < at)
				next = at;
		}
		out_f(o,
		      "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" "
		      "fill=\"%-s\"><title>%s %s</title></rect>",
		      LABEL_W + (double)(at - t0) * scale, y + 3,
		      (double)(next - at) * scale + 0.5, colour(state), state,
		      i < n ? rj_str(v[i], "at") : "to the end");
		if (now != NULL) {
			state = now;
			at = next;
		}
	}
}

/* See render_watch.h. */
void html_watch(const struct out *o, const json_t *watch)
{
	size_t n, i, np = 0;
	const json_t **v = sorted(watch, &n);
	const char *pf[WATCH_PAIRS_MAX], *pt[WATCH_PAIRS_MAX];
	long long t0 = rj_utc_ms(rj_str(watch, "started"));
	long long t1 = rj_utc_ms(rj_str(watch, "ended"));

	out_f(o, "<h3>Watch</h3>\n<p>");
	head(o, watch, n);
	out_f(o, "</p>\n");
	if (v == NULL)
		return;
	for (i = 0; i < n && np < WATCH_PAIRS_MAX; i++) {
		const char *f = rj_strd(v[i], "from", ""), *t = rj_strd(v[i], "to", "");
		size_t k;

		for (k = 0; k < np; k++)
			if (strcmp(pf[k], f) == 0 && strcmp(pt[k], t) == 0)
				break;
		if (k == np) {
			pf[np] = f;
			pt[np++] = t;
		}
		if (rj_utc_ms(rj_str(v[i], "at")) < t0)
			t0 = rj_utc_ms(rj_str(v[i], "at"));
	}
	if (t0 >= 0 && t1 > t0) {
		out_f(o,
		      "<svg class=\"watch-plot\" width=\"%d\" height=\"%d\" "
		      "role=\"img\"><title>each pair's state over the watch: "
		      "green up, amber degraded or lossy, red down</title>",
		      PW, (int)np * ROW + 24);
		for (i = 0; i < np; i++)
			plot_row(o, v, n, pf[i], pt[i], (int)i * ROW, t0, t1);
		out_f(o,
		      "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>"
		      "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
		      "text-anchor=\"end\">%s</text></svg>\n",
		      LABEL_W, (int)np * ROW + 18, rj_str(watch, "started"),
		      PW - 10, (int)np * ROW + 18, rj_str(watch, "ended"));
	}
	out_f(o, "<table><tr><th>at</th><th>from</th><th>to</th><th>was</th>"
	         "<th>now</th><th>after</th><th>evidence</th></tr>\n");
	for (i = 0; i < n; i++)
		out_f(o,
		      "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
		      "<td class=\"%s\">%s</td><td>%.1f s</td><td>%s</td></tr>\n",
		      rj_str(v[i], "at"), rj_str(v[i], "from"),
		      rj_str(v[i], "to"), rj_str(v[i], "was"),
		      strcmp(rj_strd(v[i], "now", ""), "up") == 0
		          ? "reachable"
		          : "unreachable",
		      rj_str(v[i], "now"),
		      (double)rj_int(v[i], "lasted_ms", 0) / 1e3,
		      rj_strd(v[i], "evidence", ""));
	out_f(o, "</table>\n");
	free(v);
}
