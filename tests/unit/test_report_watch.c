/* netprobe report: a link that went down during netprobe mesh --watch is a
 * fault with its times, on the member that saw it, in the verdict's first
 * line, the exit status and every format's first screen (issue 44). The
 * mesh documents are built in memory. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_decide.h"
#include "report_model.h"
#include "unitfix.h"

#define T0 "2026-12-06T10:00:00.000Z"
#define T_DOWN "2026-12-06T10:00:12.250Z"
#define T_UP "2026-12-06T10:00:17.450Z"
#define T_END "2026-12-06T10:00:30.000Z"

/* A change of the pair from -> to. */
static json_t *change(const char *at, const char *from, const char *to,
                      const char *was, const char *now, long long lasted_ms)
{
	return json_pack(
	    "{s:s, s:I, s:s, s:s, s:s, s:s, s:I, s:s, s:f, s:n}", "at", at,
	    "t_ms", (json_int_t)0, "from", from, "to", to, "was", was, "now",
	    now, "lasted_ms", (json_int_t)lasted_ms, "evidence",
	    "tcp timed out; udp 0 of 10", "loss_ratio", 1.0, "rtt_ms");
}

/* A member of the mesh that joined and sent its document. */
static json_t *member(int rank, const char *name)
{
	return json_pack("{s:i, s:s, s:s, s:s, s:s, s:n, s:s}", "rank", rank,
	                 "name", name, "state", "joined", "result", "received",
	                 "target", name, "why", "observed_addr", name);
}

/* Node 0's mesh document of node01..node03 with a watch whose change log
 * is changes (taken; NULL: no watch at all). */
static json_t *mesh_doc(json_t *changes)
{
	json_t *d = json_pack(
	    "{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:{s:i, s:i, s:s, "
	    "s:s, s:i, s:I, s:{s:i, s:i}, s:[o, o, o]}}",
	    "schema", "netprobe/1", "tool", "netprobe", "command", "mesh",
	    "host", "node01", "started", T0, "findings", "errors", "mesh",
	    "size", 3, "joined", 3, "source", "--hosts", "variables", "",
	    "port", 7470, "elapsed_ms", (json_int_t)2000, "plan", "all_pairs",
	    32, "concurrency", 8, "members", member(0, "node01"),
	    member(1, "node02"), member(2, "node03"));

	ck_assert_ptr_nonnull(d);
	if (changes != NULL)
		ck_assert_int_eq(
		    json_object_set_new(
		        json_object_get(d, "mesh"), "watch",
		        json_pack("{s:f, s:f, s:s, s:s, s:I, s:I, "
		                  "s:I, s:s, s:i, s:o}",
		                  "interval_s", 1.0, "duration_s", 30.0,
		                  "started", T0, "ended", T_END, "rounds",
		                  (json_int_t)29, "rounds_stalled",
		                  (json_int_t)0, "changes_dropped",
		                  (json_int_t)0, "stopped_by", "duration",
		                  "echoes_per_round", 10, "changes", changes)),
		    0);
	return d;
}

/* A scan document of host with no finding. */
static json_t *scan(const char *host)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:[], s:[]}",
	                 "schema", "netprobe/1", "tool", "netprobe", "command",
	                 "scan", "host", host, "started", T0, "findings",
	                 "errors", "interfaces", "peers");
}

/* The report over the three nodes' scans and node 0's mesh document
 * (changes as mesh_doc takes them). */
static struct report_model *build(struct report_set *set, json_t *changes)
{
	struct report_model *m;

	unitfix_load_doc(set, "node01.json", scan("node01"));
	unitfix_load_doc(set, "node02.json", scan("node02"));
	unitfix_load_doc(set, "node03.json", scan("node03"));
	unitfix_load_doc(set, "mesh.json", mesh_doc(changes));
	m = report_build(set);
	ck_assert_ptr_nonnull(m);
	return m;
}

/* The link-down-during-watch findings of the report. */
static size_t outages(const struct report_model *m, const json_t **first)
{
	size_t i, n = 0;
	json_t *f;

	*first = NULL;
	json_array_foreach(rj_arr(report_doc(m), "findings"), i,
	                   f) if (strcmp(rj_strd(f, "code", ""),
	                                 "link-down-during-watch") == 0)
	{
		if (n++ == 0)
			*first = f;
	}
	return n;
}

/* One format of the report into a string (free it). */
static char *render(const struct report_model *m, int fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(fp);
	switch (fmt) {
	case 0:
		ck_assert_int_eq(report_render_text(m, fp, false), 0);
		break;
	case 1:
		ck_assert_int_eq(report_render_md(m, fp), 0);
		break;
	case 2:
		ck_assert_int_eq(report_render_html(m, fp), 0);
		break;
	case 3:
		ck_assert_int_eq(report_render_json(m, fp), 0);
		break;
	default:
		ck_assert_int_eq(report_render_junit(m, fp, REPORT_FAIL_FAULT),
		                 0);
	}
	fclose(fp);
	return buf;
}

/* True when needle is within the first lines lines of text. */
static bool in_first(const char *text, const char *needle, int lines)
{
	const char *at = strstr(text, needle), *p = text;

	for (int i = 0; at != NULL && i < lines && p != NULL; i++) {
		p = strchr(p, '\n');
		if (p == NULL || at < p)
			return true;
		p++;
	}
	return false;
}

START_TEST(outage_in_the_middle_is_a_fault_with_its_times)
{
	struct report_set set = {0};
	json_t *ch = json_pack(
	    "[o, o]", change(T_DOWN, "node01", "node02", "up", "down", 12250),
	    change(T_UP, "node01", "node02", "down", "up", 5200));
	struct report_model *m = build(&set, ch);
	const json_t *f, *link;
	const char *want = "link node01 -> node02 was down 5.2 s during the "
	                   "watch, from " T_DOWN " to " T_UP;
	char *txt, *md, *html, *js, *xml;

	ck_assert_int_eq(outages(m, &f), 1);
	ck_assert_str_eq(rj_str(f, "node"), "node01");
	ck_assert_str_eq(rj_str(f, "severity"), "fault");
	ck_assert_str_eq(rj_str(f, "summary"), want);
	link = json_object_get(f, "link");
	ck_assert_str_eq(rj_str(link, "down_at"), T_DOWN);
	ck_assert_str_eq(rj_str(link, "up_at"), T_UP);
	ck_assert_int_eq(rj_int(link, "down_ms", 0), 5200);
	ck_assert(json_is_false(json_object_get(link, "still_down")));
	ck_assert_int_eq(json_array_size(rj_arr(f, "evidence")), 2);
	ck_assert_str_eq(rj_str(report_doc(m), "verdict"), "fault");
	ck_assert_int_eq(report_gate(m, REPORT_FAIL_FAULT), 1);
	txt = render(m, 0);
	ck_assert_msg(strncmp(txt,
	                      "verdict: FAULT: 1 fault, 0 warnings on 3 "
	                      "nodes; link node01 -> node02 was down 5.2 s",
	                      60) == 0 &&
	                  in_first(txt, want, 1),
	              "%s", txt);
	ck_assert_msg(strstr(txt, "LINKS DOWN DURING THE WATCH") <
	                  strstr(txt, "RECOMMENDATION"),
	              "%s", txt);
	/* Markdown and HTML escape the arrow */
	md = render(m, 1);
	ck_assert_msg(in_first(md,
	                       "**link node01 -\\> node02 was down 5.2 s "
	                       "during the watch, from " T_DOWN " to " T_UP
	                       "**",
	                       6),
	              "%s", md);
	html = render(m, 2);
	ck_assert_msg(strstr(html, "<b>link node01 -&gt; node02 was down "
	                           "5.2 s during the watch, from " T_DOWN
	                           " to " T_UP "</b>") != NULL &&
	                  strstr(html, T_UP) < strstr(html, "<main>"),
	              "%s", html);
	ck_assert(strstr(html, "<h2>Links down during the watch</h2>") <
	          strstr(html, "<h2>Recommendation</h2>"));
	js = render(m, 3);
	ck_assert_msg(strstr(js, want) != NULL, "%s", js);
	xml = render(m, 4);
	ck_assert_msg(strstr(xml, "<failure") != NULL &&
	                  strstr(xml, "link-down-during-watch on node01") !=
	                      NULL,
	              "%s", xml);
	free(txt);
	free(md);
	free(html);
	free(js);
	free(xml);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

START_TEST(still_down_at_the_end)
{
	struct report_set set = {0};
	json_t *ch = json_pack(
	    "[o]", change(T_DOWN, "node02", "node03", "up", "down", 12250));
	struct report_model *m = build(&set, ch);
	const json_t *f;

	ck_assert_int_eq(outages(m, &f), 1);
	ck_assert_str_eq(rj_str(f, "node"), "node02");
	ck_assert_str_eq(
	    rj_str(f, "summary"),
	    "link node02 -> node03 went down during the watch at " T_DOWN
	    " and was still down when it ended at " T_END " (17.8 s)");
	ck_assert(json_is_true(
	    json_object_get(json_object_get(f, "link"), "still_down")));
	ck_assert_int_eq(report_gate(m, REPORT_FAIL_FAULT), 1);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A pair that flapped and is up at the end is still a fault: a job
 * running through it lost the link. */
START_TEST(flapped_and_back_is_a_fault)
{
	struct report_set set = {0};
	json_t *ch =
	    json_pack("[o, o, o, o]",
	              change("2026-12-06T10:00:20.000Z", "node03", "node01",
	                     "up", "down", 7000),
	              change(T_DOWN, "node03", "node01", "up", "down", 12250),
	              change("2026-12-06T10:00:25.500Z", "node03", "node01",
	                     "down", "up", 5500),
	              change(T_UP, "node03", "node01", "down", "up", 5200));
	struct report_model *m = build(&set, ch);
	const json_t *f;

	ck_assert_int_eq(outages(m, &f), 1);
	ck_assert_str_eq(rj_str(f, "summary"),
	                 "link node03 -> node01 was down 5.2 s during the "
	                 "watch, from " T_DOWN " to " T_UP
	                 " (2 outages, 10.7 s down in all)");
	ck_assert_str_eq(rj_str(f, "severity"), "fault");
	ck_assert_int_eq(report_gate(m, REPORT_FAIL_FAULT), 1);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* The change to down left out (past the log's bound): the outage starts
 * where the change back says it began. */
START_TEST(back_up_without_its_down_change)
{
	struct report_set set = {0};
	json_t *ch = json_pack(
	    "[o]", change(T_UP, "node02", "node01", "down", "up", 5200));
	struct report_model *m = build(&set, ch);
	const json_t *f;

	ck_assert_int_eq(outages(m, &f), 1);
	ck_assert_str_eq(rj_str(f, "summary"),
	                 "link node02 -> node01 was down 5.2 s during the "
	                 "watch, from " T_DOWN " to " T_UP);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Seen down from node01 only: node01's finding, naming node01 -> node02;
 * nothing on node02, whose own evidence shows nothing. */
START_TEST(blames_only_the_side_that_saw_it)
{
	struct report_set set = {0};
	json_t *ch =
	    json_pack("[o, o, o, o]",
	              change(T_DOWN, "node01", "node02", "up", "down", 12250),
	              change(T_UP, "node01", "node02", "down", "up", 5200),
	              change(T_DOWN, "node02", "node01", "up", "lossy", 12250),
	              change(T_UP, "node02", "node01", "lossy", "up", 5200));
	struct report_model *m = build(&set, ch);
	const json_t *f;
	size_t i;
	json_t *g;

	ck_assert_int_eq(outages(m, &f), 1);
	ck_assert_str_eq(rj_str(f, "node"), "node01");
	json_array_foreach(rj_arr(report_doc(m), "findings"), i, g)
	    ck_assert_str_ne(rj_strd(g, "node", ""), "node02");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A watch with no change, or only a lossy round, raises no outage, and
 * the report says what it says without a watch. */
START_TEST(healthy_watch_unchanged)
{
	struct report_set a = {0}, b = {0}, c = {0};
	struct report_model *ma = build(&a, NULL);
	struct report_model *mb = build(&b, json_array());
	struct report_model *mc = build(
	    &c,
	    json_pack("[o, o]",
	              change(T_DOWN, "node01", "node03", "up", "lossy", 12250),
	              change(T_UP, "node01", "node03", "lossy", "up", 5200)));
	const json_t *f;
	char *ta = render(ma, 0), *tb = render(mb, 0), *tc = render(mc, 0);

	ck_assert_int_eq(outages(mb, &f), 0);
	ck_assert_int_eq(outages(mc, &f), 0);
	ck_assert_str_eq(rj_str(report_doc(mb), "verdict"), "pass");
	ck_assert_int_eq(report_gate(mb, REPORT_FAIL_FAULT), 0);
	ck_assert_int_eq(report_gate(mc, REPORT_FAIL_FAULT), 0);
	/* the first lines (before DETAILS, which shows the watch) agree */
	*strstr(ta, "\nDETAILS") = '\0';
	*strstr(tb, "\nDETAILS") = '\0';
	ck_assert_str_eq(ta, tb);
	ck_assert(strstr(tc, "LINKS DOWN") == NULL);
	free(ta);
	free(tb);
	free(tc);
	report_model_free(ma);
	report_model_free(mb);
	report_model_free(mc);
	report_set_free(&a);
	report_set_free(&b);
	report_set_free(&c);
}
END_TEST

Suite *suite_report_watch(void)
{
	Suite *s = suite_create("report_watch");
	TCase *tc = tcase_create("watch");

	tcase_add_test(tc, outage_in_the_middle_is_a_fault_with_its_times);
	tcase_add_test(tc, still_down_at_the_end);
	tcase_add_test(tc, flapped_and_back_is_a_fault);
	tcase_add_test(tc, back_up_without_its_down_change);
	tcase_add_test(tc, blames_only_the_side_that_saw_it);
	tcase_add_test(tc, healthy_watch_unchanged);
	suite_add_tcase(s, tc);
	return s;
}
