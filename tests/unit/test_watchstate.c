/* Unit tests for mesh --watch's states and hysteresis
 * (probe/watchstate.h): each state from a round, a flap logged once each
 * way with its start and how long the state before lasted, one bad round
 * logged never. */
#include "probe/watchstate.h"

#include <check.h>
#include <errno.h>
#include <string.h>

static const struct watch_round ok = {true, 0, 300, 10, 10, 200, 400};
static const struct watch_round dead = {false, ETIMEDOUT, 0, 10, 0, -1, -1};

START_TEST(classify)
{
	struct watch_round r = ok;

	ck_assert_int_eq(watch_classify(&ok, -1), WATCH_UP);
	ck_assert_int_eq(watch_classify(&dead, 200), WATCH_DOWN);
	r.answered = 8; /* 20 % lost */
	ck_assert_int_eq(watch_classify(&r, 200), WATCH_LOSSY);
	r.answered = 9; /* 10 %: one echo is no loss */
	ck_assert_int_eq(watch_classify(&r, 200), WATCH_UP);
	r = ok;
	r.tcp_ok = false;
	ck_assert_int_eq(watch_classify(&r, 200), WATCH_DEGRADED);
	r = ok;
	r.answered = 0;
	r.rtt_med_us = -1;
	ck_assert_int_eq(watch_classify(&r, 200), WATCH_DEGRADED);
	r = ok;
	r.rtt_med_us = 250000; /* 1250 x the best, 249.8 ms above it */
	ck_assert_int_eq(watch_classify(&r, 200), WATCH_DEGRADED);
	r.rtt_med_us = 70000; /* a loaded host's 70 ms: within 200 ms, up */
	ck_assert_int_eq(watch_classify(&r, 200), WATCH_UP);
}
END_TEST

START_TEST(flap_logged_once_each_way)
{
	struct watch_pair p;
	struct watch_change ch;
	int changes = 0;

	watch_pair_init(&p, 1000);
	for (int i = 0; i < 5; i++)
		ck_assert(!watch_pair_feed(&p, &ok, 2000 + i, &ch));
	/* down from round 10 on: logged at the second, dated by the first */
	ck_assert(!watch_pair_feed(&p, &dead, 10000000, &ch));
	ck_assert(watch_pair_feed(&p, &dead, 11000000, &ch));
	ck_assert_int_eq(ch.was, WATCH_UP);
	ck_assert_int_eq(ch.now, WATCH_DOWN);
	ck_assert_int_eq(ch.at_us, 10000000);
	ck_assert_int_eq(ch.lasted_us, 10000000 - 1000);
	for (int i = 0; i < 5; i++)
		changes += watch_pair_feed(&p, &dead, 12000000 + i, &ch);
	ck_assert_int_eq(changes, 0);
	ck_assert(!watch_pair_feed(&p, &ok, 20000000, &ch));
	ck_assert(watch_pair_feed(&p, &ok, 21000000, &ch));
	ck_assert_int_eq(ch.was, WATCH_DOWN);
	ck_assert_int_eq(ch.now, WATCH_UP);
	ck_assert_int_eq(ch.lasted_us, 10000000); /* down for 10 s */
	ck_assert_int_eq(p.changes, 2);
}
END_TEST

START_TEST(one_bad_round_is_no_change)
{
	struct watch_pair p;
	struct watch_change ch;

	watch_pair_init(&p, 0);
	for (int i = 0; i < 20; i++)
		ck_assert(!watch_pair_feed(&p, i % 3 == 1 ? &dead : &ok, i,
		                           &ch));
	ck_assert_int_eq(p.changes, 0);
	ck_assert_int_eq(p.state, WATCH_UP);
}
END_TEST

START_TEST(evidence)
{
	char b[200];

	watch_evidence(&dead, b, sizeof(b));
	ck_assert_str_eq(b, "tcp connect: timed out; udp echo: 0 of 10 "
	                    "answered");
	watch_evidence(&ok, b, sizeof(b));
	ck_assert_str_eq(b, "tcp connect: 0.30 ms; udp echo: 10 of 10 "
	                    "answered, median 0.20 ms, max 0.40 ms");
	ck_assert_str_eq(watch_state_name(WATCH_LOSSY), "lossy");
}
END_TEST

Suite *suite_watchstate(void)
{
	Suite *s = suite_create("watchstate");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, classify);
	tcase_add_test(tc, flap_logged_once_each_way);
	tcase_add_test(tc, one_bad_round_is_no_change);
	tcase_add_test(tc, evidence);
	suite_add_tcase(s, tc);
	return s;
}
