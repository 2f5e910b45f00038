/* Unit tests for what one member can make node 0 keep (issue 45,
 * probes/mesh/mesh_guard.h): the change log's caps. */
#include "mesh/mesh_guard.h"

#include <check.h>

/* A change over the frame limit is refused whatever room is left; one
 * at the limit is kept. */
START_TEST(change_too_large)
{
	ck_assert_int_eq(mesh_watch_keep(MESH_WATCH_CHANGE_MAX + 1, 0, 0, 0),
	                 MESH_KEEP_TOO_LARGE);
	ck_assert_int_eq(mesh_watch_keep(59000, 0, 0, 0), MESH_KEEP_TOO_LARGE);
	ck_assert_int_eq(mesh_watch_keep(MESH_WATCH_CHANGE_MAX, 0, 0, 0),
	                 MESH_KEEP);
	ck_assert_int_eq(mesh_watch_keep(300, 0, 0, 0), MESH_KEEP);
}
END_TEST

/* One member fills its share and no more; another still has room. */
START_TEST(member_share)
{
	size_t mine = 0, total = 0, n = 0;

	for (int k = 0; k < 100000; k++) {
		if (mesh_watch_keep(4000, mine, total, n) != MESH_KEEP)
			break;
		mine += 4000;
		total += 4000;
		n++;
	}
	ck_assert_uint_eq(n, MESH_WATCH_MEMBER_BYTES / 4000);
	ck_assert_int_eq(mesh_watch_keep(4000, mine, total, n),
	                 MESH_KEEP_MEMBER_FULL);
	ck_assert_int_eq(mesh_watch_keep(4000, 0, total, n), MESH_KEEP);
}
END_TEST

/* Many members each under their share fill node 0's log: its bytes and
 * its count of changes bound it. */
START_TEST(log_total)
{
	size_t total = 0, n = 0;

	for (int m = 0; m < 100; m++) {
		size_t mine = 0;

		while (mesh_watch_keep(4000, mine, total, n) == MESH_KEEP) {
			mine += 4000;
			total += 4000;
			n++;
		}
		if (mesh_watch_keep(4000, mine, total, n) == MESH_KEEP_LOG_FULL)
			break;
	}
	ck_assert_uint_le(total, MESH_WATCH_TOTAL_BYTES);
	ck_assert_uint_gt(total + 4000, MESH_WATCH_TOTAL_BYTES);
	ck_assert_int_eq(mesh_watch_keep(100, 0, 100, MESH_WATCH_LOG_MAX),
	                 MESH_KEEP_LOG_FULL);
	/* the whole log stays under half of what a report reads */
	ck_assert_int_lt((long)MESH_WATCH_TOTAL_BYTES,
	                 MESH_REPORT_MAX_BYTES / 2);
}
END_TEST

Suite *suite_mesh_guard(void)
{
	Suite *s = suite_create("mesh_guard");
	TCase *tc = tcase_create("mesh_guard");

	tcase_add_test(tc, change_too_large);
	tcase_add_test(tc, member_share);
	tcase_add_test(tc, log_total);
	suite_add_tcase(s, tc);
	return s;
}
