/* Unit tests for the one monotonic clock (base/monoclock.h): it never
 * goes back, and the milliseconds left for poll round up, stop at zero
 * and are capped. */
#include "base/monoclock.h"

#include <check.h>
#include <stdbool.h>
#include <time.h>

START_TEST(never_back)
{
	long long prev = mono_now_us();

	ck_assert_int_gt(prev, 0);
	for (int i = 0; i < 10000; i++) {
		long long now = mono_now_us();

		ck_assert_int_ge(now, prev);
		prev = now;
	}
}
END_TEST

START_TEST(counts_microseconds)
{
	struct timespec pause = {.tv_nsec = 20 * 1000000L};
	long long t0 = mono_now_us(), dt;

	ck_assert_int_eq(nanosleep(&pause, NULL), 0);
	dt = mono_now_us() - t0;
	ck_assert_int_ge(dt, 20000);
	ck_assert_int_lt(dt, 5000000); /* microseconds, not nanoseconds */
}
END_TEST

START_TEST(left_ms)
{
	long long now = mono_now_us();

	ck_assert_int_eq(mono_left_ms(now - 1, 1000), 0);
	ck_assert_int_eq(mono_left_ms(0, 1000), 0);
	ck_assert_int_eq(mono_left_ms(mono_now_us() + 10000000, 1000), 1000);
	ck_assert_int_eq(mono_left_ms(mono_now_us() + 10000000, 50), 50);
	ck_assert_int_ge(mono_left_ms(mono_now_us() + 3000500, 60000), 2999);
	ck_assert_int_le(mono_left_ms(mono_now_us() + 3000500, 60000), 3001);
}
END_TEST

/* 1.5 ms left is 2 ms of poll (rounded down it would be 1, and a wait
 * would end before its deadline). A try where the machine paused this
 * thread for over half a millisecond between the two clock reads gives 1;
 * of 100 tries one suffices, and none may give more than 2. */
START_TEST(left_rounds_up)
{
	bool seen = false;

	for (int i = 0; i < 100; i++) {
		int ms = mono_left_ms(mono_now_us() + 1500, 60000);

		ck_assert_int_le(ms, 2);
		seen |= ms == 2;
	}
	ck_assert(seen);
}
END_TEST

Suite *suite_monoclock(void)
{
	Suite *s = suite_create("monoclock");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, never_back);
	tcase_add_test(tc, counts_microseconds);
	tcase_add_test(tc, left_ms);
	tcase_add_test(tc, left_rounds_up);
	suite_add_tcase(s, tc);
	return s;
}
