/* Unit tests for the last-resort watchdog, in forked children: past its
 * deadline it ends the process with exit 1 and the named error. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "base/monoclock.h"
#include "bootstrap/bootstrap.h"
#include "suites.h"
#include "bootstrap/watchdog.h"
#include "child.h"

/* What the child does to the watchdog. */
struct arm {
	bool disarm, nest;
};

/* nc_test_child's function: the watchdog armed, and disarmed or nested
 * as *arg says. */
static void arm(void *arg)
{
	bool disarm = ((struct arm *)arg)->disarm;
	bool nest = ((struct arm *)arg)->nest;

	nc_wd_start("ncclcheck: rank 0 on test");
	nc_wd_arm(mono_now_us() + 200000, "all_reduce float sum 8 B");
	if (disarm)
		nc_wd_disarm();
	if (nest) {
		struct nc_wd_state st;

		nc_wd_save(&st);
		nc_wd_arm(mono_now_us() + 10000000, "ncclCommAbort");
		nc_wd_restore(&st);
	}
}

/* Runs a child that arms (and maybe disarms, or nests a longer deadline
 * inside and restores, as the abort of a failed step does) the watchdog,
 * then blocks for 3 s; returns its exit status and its stderr. */
static int child(bool disarm, bool nest, char *err, size_t len,
		 long long *took_us)
{
	struct arm a = {disarm, nest};

	return nc_test_child(arm, &a, disarm ? 500000 : 3000000, 0, err, len,
			     took_us);
}

START_TEST(fires)
{
	char err[512];
	long long us;

	ck_assert_int_eq(child(false, false, err, sizeof(err), &us), 1);
	ck_assert_ptr_nonnull(strstr(err, "ncclcheck: rank 0 on test: "
				     "collective-timeout: start: all_reduce "
				     "float sum 8 B did not return within"));
	ck_assert_int_lt(us, 2000000);
}
END_TEST

START_TEST(disarmed)
{
	char err[512];
	long long us;

	ck_assert_int_eq(child(true, false, err, sizeof(err), &us), 0);
	ck_assert_str_eq(err, "");
}
END_TEST

/* The abort's own deadline does not disarm the failed step's. */
START_TEST(nested_keeps_outer)
{
	char err[512];
	long long us;

	ck_assert_int_eq(child(false, true, err, sizeof(err), &us), 1);
	ck_assert_ptr_nonnull(strstr(err, "all_reduce float sum 8 B did not "
				     "return within"));
	ck_assert_int_lt(us, 2000000);
}
END_TEST

Suite *suite_nc_watchdog(void)
{
	Suite *s = suite_create("nc_watchdog");
	TCase *tc = tcase_create("fork");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, fires);
	tcase_add_test(tc, disarmed);
	tcase_add_test(tc, nested_keeps_outer);
	suite_add_tcase(s, tc);
	return s;
}
