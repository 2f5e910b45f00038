/* Unit tests for the heartbeat statistics and decider. */
#include <check.h>
#include <string.h>

#include "doc/doc.h"
#include "decide/decide_heartbeat.h"
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
	ck_assert_int_eq(decide_heartbeat(&t, &u, &g, 100000, &d), 0);
	ck_assert(doc_has_finding(&d, "heartbeat-dropped"));
	ck_assert(doc_has_finding(&d, "heartbeat-loss"));
	ck_assert_int_eq(doc_exit_status(&d, true), 1);
	doc_free(&d);
	hb_side_free(&t);
	hb_side_free(&u);
}
END_TEST

/* The retransmissions asked for grow with the loss measured, and a
 * short run is not trusted. */
START_TEST(retx_needed)
{
	ck_assert_int_eq(hb_retx_needed(0, 5000), 1);
	ck_assert_int_eq(hb_retx_needed(0, 100), 2);
	ck_assert_int_eq(hb_retx_needed(2, 100), 3); /* about 1 % */
	ck_assert_int_eq(hb_retx_needed(6, 100), 4); /* 6 % */
	ck_assert_int_eq(hb_retx_needed(0, 10), 4);  /* too few to trust */
	ck_assert_int_eq(hb_retx_needed(50, 50), HB_RETX_MAX);
	ck_assert_int_eq(hb_retx_needed(-1, -1), HB_RETX_MAX);
}
END_TEST

/* Silence becomes a drop only past the kernel's retransmissions. */
START_TEST(silent_past_retx)
{
	struct hb_tcpinfo ti = {
	    .valid = true, .rto_us = 200000, .retransmits = 0, .unacked = 1};

	/* within the timeout: an echo may still come back */
	ck_assert(!hb_silent_past_retx(100000, 190000, &ti, 1, -1));
	/* past it, but the kernel has not retransmitted yet: loss it is
	 * still repairing */
	ck_assert(!hb_silent_past_retx(250000, 190000, &ti, 1, -1));
	ti.retransmits = 1;
	/* retransmitted, the retransmission not yet given its time */
	ck_assert(!hb_silent_past_retx(300000, 190000, &ti, 1, 50000));
	ck_assert(hb_silent_past_retx(500000, 190000, &ti, 1, 200000));
	/* a lossy path asks for more retransmissions */
	ck_assert(!hb_silent_past_retx(500000, 190000, &ti, 3, -1));
	ti.retransmits = 3;
	ck_assert(hb_silent_past_retx(3000000, 190000, &ti, 3, 200000));
	/* everything acknowledged: the path and the peer's kernel work */
	ti.unacked = 0;
	ck_assert(!hb_silent_past_retx(9000000, 190000, &ti, 1, 5000000));
	/* no TCP_INFO: the timeout and one second more */
	ti.valid = false;
	ck_assert(!hb_silent_past_retx(900000, 190000, &ti, 1, -1));
	ck_assert(hb_silent_past_retx(1200000, 190000, &ti, 1, -1));
}
END_TEST

/* A silent connection is a dropped state only when something else still
 * got through; otherwise everything was lost. */
START_TEST(decide_silent_drop)
{
	struct hb_side t = {.enabled = true,
	                    .dropped_after_us = 3000000,
	                    .detect_us = 600000},
	               u = {.enabled = true, .dropped_after_us = -1};
	struct hb_gate g = {-1, -1};
	struct doc d;
	long long v[] = {100, 110, 105};
	json_t *f;

	fill(&t, v, 3);
	fill(&u, v, 3);
	t.drop.kind = HB_DROP_SILENT;
	t.drop.retransmits = 2;
	t.drop.needed = 2;
	t.drop.rto_us = 200000;
	t.drop.udp_answered = 4;
	ck_assert_int_eq(doc_init(&d, "netprobe", "heartbeat"), 0);
	decide_heartbeat(&t, &u, &g, 100000, &d);
	ck_assert(doc_has_finding(&d, "heartbeat-dropped"));
	f = json_array_get(d.findings, 0);
	ck_assert_ptr_nonnull(strstr(
	    json_string_value(json_object_get(
	        json_array_get(json_object_get(f, "evidence"), 2), "fact")),
	    "retransmitted the oldest unanswered segment 2 times"));
	doc_free(&d);

	/* nothing answered after it: loss of everything, not NAT */
	t.drop.udp_answered = 0;
	ck_assert_int_eq(doc_init(&d, "netprobe", "heartbeat"), 0);
	decide_heartbeat(&t, &u, &g, 100000, &d);
	ck_assert(!doc_has_finding(&d, "heartbeat-dropped"));
	ck_assert(doc_has_finding(&d, "heartbeat-loss"));
	ck_assert_int_eq(d.nfault, 1);
	doc_free(&d);

	/* a new connection answered: the state was dropped */
	t.drop.reconnected = true;
	ck_assert_int_eq(doc_init(&d, "netprobe", "heartbeat"), 0);
	decide_heartbeat(&t, &u, &g, 100000, &d);
	ck_assert(doc_has_finding(&d, "heartbeat-dropped"));
	doc_free(&d);
	hb_side_free(&t);
	hb_side_free(&u);
}
END_TEST

/* TCP's losses show as retransmissions: heartbeat-loss with the rate,
 * a warning, never a drop. */
START_TEST(decide_tcp_retransmissions)
{
	struct hb_side t = {.enabled = true, .dropped_after_us = -1},
	               u = {.enabled = false, .dropped_after_us = -1};
	struct hb_gate g = {-1, -1};
	struct doc d;
	long long v[] = {100, 110, 105, 104};
	json_t *j;

	fill(&t, v, 4);
	t.retrans = 3;
	t.segs_out = 100;
	ck_assert_int_eq(doc_init(&d, "netprobe", "heartbeat"), 0);
	decide_heartbeat(&t, &u, &g, 100000, &d);
	ck_assert(doc_has_finding(&d, "heartbeat-loss"));
	ck_assert(!doc_has_finding(&d, "heartbeat-dropped"));
	ck_assert_int_eq(d.nfault, 0);
	ck_assert_ptr_nonnull(
	    strstr(json_string_value(json_object_get(
	               json_array_get(d.findings, 0), "summary")),
	           "3.0% of segments retransmitted"));
	doc_free(&d);
	j = hb_side_json(&t, true);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "retransmits")),
	                 3);
	ck_assert(json_is_null(json_object_get(j, "drop")));
	json_decref(j);
	hb_side_free(&t);
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
	ck_assert_int_eq(decide_heartbeat(&t, &u, &g, 100000, &d), 0);
	ck_assert_int_eq(doc_exit_status(&d, true), 0);
	doc_free(&d);
	g.max_rtt_us = 1000; /* p99 is 5000 */
	ck_assert_int_eq(doc_init(&d, "netprobe", "heartbeat"), 0);
	ck_assert_int_eq(decide_heartbeat(&t, &u, &g, 100000, &d), 1);
	ck_assert_int_eq(doc_exit_status(&d, true), 1);
	doc_free(&d);
	g.max_rtt_us = -1;
	g.max_loss_pct = 0;
	t.sent++;
	t.lost++;
	ck_assert_int_eq(doc_init(&d, "netprobe", "heartbeat"), 0);
	ck_assert_int_eq(decide_heartbeat(&t, &u, &g, 100000, &d), 1);
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
	tcase_add_test(tc, retx_needed);
	tcase_add_test(tc, silent_past_retx);
	tcase_add_test(tc, decide_silent_drop);
	tcase_add_test(tc, decide_tcp_retransmissions);
	suite_add_tcase(s, tc);
	return s;
}
