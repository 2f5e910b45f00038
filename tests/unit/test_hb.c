/* Unit tests for the heartbeat statistics and decider. */
#include <check.h>

#include "doc/doc.h"
#include "probe/hb.h"

static void fill(struct hb_side *s, const long long *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(hb_side_add(s, v[i]), 0);
		s->sent++;
		s->received++;
	}
}

START_TEST(stats_percentiles)
{
	struct hb_side s = {.enabled = true, .dropped_after_us = -1};
	struct hb_stats st;
	long long v[100];

	for (int i = 0; i < 100; i++)
		v[i] = 100 - i; /* 100 .. 1 */
	fill(&s, v, 100);
	s.sent += 100;
	s.lost = 100;
	hb_stats_compute(&s, &st);
	ck_assert_int_eq(st.min, 1);
	ck_assert_int_eq(st.max, 100);
	ck_assert_int_eq(st.median, 50);
	ck_assert_int_eq(st.p90, 90);
	ck_assert_int_eq(st.p99, 99);
	ck_assert_int_eq(st.jitter_us, 1);
	ck_assert(st.loss_pct > 49.9 && st.loss_pct < 50.1);
	hb_side_free(&s);
	hb_stats_compute(&s, &st);
	ck_assert_int_eq(st.median, -1);
}
END_TEST

START_TEST(decide_dropped_and_loss)
{
	struct hb_side t = {.enabled = true,
	                    .dropped_after_us = 3000000,
	                    .detect_us = 150000},
	               u = {.enabled = true, .dropped_after_us = -1};
	struct hb_gate g = {-1, -1};
	struct doc d;
	long long v[] = {100, 110, 105};

	fill(&t, v, 3);
	fill(&u, v, 3);
	u.sent = 10;
	u.lost = 7;
	ck_assert_int_eq(doc_init(&d, "netprobe", "heartbeat"), 0);
	ck_assert_int_eq(hb_decide(&t, &u, &g, 100000, &d), 0);
	ck_assert(doc_has_finding(&d, "heartbeat-dropped"));
	ck_assert(doc_has_finding(&d, "heartbeat-loss"));
	ck_assert_int_eq(doc_exit_status(&d, true), 1);
	doc_free(&d);
	hb_side_free(&t);
	hb_side_free(&u);
}
END_TEST

START_TEST(decide_clean_and_gates)
{
	struct hb_side t = {.enabled = true, .dropped_after_us = -1},
	               u = {.enabled = false, .dropped_after_us = -1};
	struct hb_gate g = {-1, -1};
	struct doc d;
	long long v[] = {100, 110, 105, 5000};

	fill(&t, v, 4);
	ck_assert_int_eq(doc_init(&d, "netprobe", "heartbeat"), 0);
	ck_assert_int_eq(hb_decide(&t, &u, &g, 100000, &d), 0);
	ck_assert_int_eq(doc_exit_status(&d, true), 0);
	doc_free(&d);
	g.max_rtt_us = 1000; /* p99 is 5000 */
	ck_assert_int_eq(doc_init(&d, "netprobe", "heartbeat"), 0);
	ck_assert_int_eq(hb_decide(&t, &u, &g, 100000, &d), 1);
	ck_assert_int_eq(doc_exit_status(&d, true), 1);
	doc_free(&d);
	g.max_rtt_us = -1;
	g.max_loss_pct = 0;
	t.sent++;
	t.lost++;
	ck_assert_int_eq(doc_init(&d, "netprobe", "heartbeat"), 0);
	ck_assert_int_eq(hb_decide(&t, &u, &g, 100000, &d), 1);
	doc_free(&d);
	hb_side_free(&t);
}
END_TEST

START_TEST(json_shape)
{
	struct hb_side t = {.enabled = true, .dropped_after_us = -1};
	long long v[] = {10, 20};
	json_t *o, *a;
	char buf[32];

	fill(&t, v, 2);
	o = hb_side_json(&t, true);
	ck_assert_ptr_nonnull(o);
	ck_assert(json_is_null(json_object_get(o, "dropped_after_us")));
	ck_assert_int_eq(json_integer_value(json_object_get(
	                     json_object_get(o, "rtt_us"), "max")),
	                 20);
	ck_assert_ptr_nonnull(json_object_get(o, "reconnects"));
	json_decref(o);
	o = hb_side_json(&t, false);
	ck_assert_ptr_null(json_object_get(o, "reconnects"));
	json_decref(o);
	for (int i = 0; i < 3000; i++)
		hb_side_add(&t, i);
	a = hb_samples_json(&t);
	ck_assert_int_eq(json_array_size(a), HB_SAMPLES_OUT);
	json_decref(a);
	hb_side_free(&t);
	ck_assert_str_eq(hb_fmt_us(812, buf, sizeof(buf)), "812us");
	ck_assert_str_eq(hb_fmt_us(1250, buf, sizeof(buf)), "1.25ms");
	ck_assert_str_eq(hb_fmt_us(3400000, buf, sizeof(buf)), "3.40s");
}
END_TEST

Suite *suite_hb(void)
{
	Suite *s = suite_create("hb");
	TCase *tc = tcase_create("hb");

	tcase_add_test(tc, stats_percentiles);
	tcase_add_test(tc, decide_dropped_and_loss);
	tcase_add_test(tc, decide_clean_and_gates);
	tcase_add_test(tc, json_shape);
	suite_add_tcase(s, tc);
	return s;
}
