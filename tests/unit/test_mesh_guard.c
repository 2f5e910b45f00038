/* Unit tests for what one member can make node 0 keep (issue 45,
 * probes/mesh/mesh_guard.h): the change log's caps, and which join that
 * has not proved the token the rendezvous drops, and when. */
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

/* Nothing to drop: none waits on the token, or those that do are young
 * and few. */
START_TEST(unauth_none)
{
	struct rdv_unauth c[3] = {{false, 0}, {true, 1000}, {false, 0}};

	ck_assert_int_eq(rdv_unauth_victim(NULL, 0, 0, false), -1);
	ck_assert_int_eq(
	    rdv_unauth_victim(c, 3, 1000 + RDV_UNAUTH_US - 1, false), -1);
	c[1].unauth = false;
	ck_assert_int_eq(rdv_unauth_victim(c, 3, 1LL << 50, true), -1);
}
END_TEST

/* Past the deadline, the oldest goes first; an authenticated one, older
 * still, stays. */
START_TEST(unauth_deadline)
{
	struct rdv_unauth c[4] = {
	    {false, 0}, {true, 3000}, {true, 2000}, {true, 9000}};

	ck_assert_int_eq(rdv_unauth_victim(c, 4, 2000 + RDV_UNAUTH_US, false),
	                 2);
	c[2].unauth = false;
	ck_assert_int_eq(rdv_unauth_victim(c, 4, 2000 + RDV_UNAUTH_US, false),
	                 -1);
	ck_assert_int_eq(rdv_unauth_victim(c, 4, 3000 + RDV_UNAUTH_US, false),
	                 1);
}
END_TEST

/* More than RDV_UNAUTH_MAX young ones: the oldest is dropped until the
 * count is back; short of descriptors, every one past a second may go,
 * but not one that may be proving the token now. */
START_TEST(unauth_count_and_fds)
{
	struct rdv_unauth c[RDV_UNAUTH_MAX + 10];
	size_t n = sizeof(c) / sizeof(c[0]), dropped = 0;

	for (size_t i = 0; i < n; i++)
		c[i] = (struct rdv_unauth){true, (long long)(n - i)};
	for (size_t k = 0; k < n; k++) {
		ssize_t v = rdv_unauth_victim(c, n, 100, false);

		if (v < 0)
			break;
		/* the oldest: the highest index has the earliest time */
		ck_assert_int_eq(v, (ssize_t)(n - 1 - dropped));
		c[v].unauth = false;
		dropped++;
	}
	ck_assert_uint_eq(dropped, 10);
	ck_assert_int_eq(rdv_unauth_victim(c, n, 100, true), -1);
	ck_assert_int_eq(
	    rdv_unauth_victim(c, n, 11 + RDV_UNAUTH_SHORT_US, true),
	    (ssize_t)(n - 11));
	ck_assert_int_eq(
	    rdv_unauth_victim(c, n, 11 + RDV_UNAUTH_SHORT_US, false), -1);
}
END_TEST

/* Short of descriptors: none free, or fewer than the spare left. */
START_TEST(fds_short)
{
	ck_assert(rdv_fds_short(-1, 1024));
	ck_assert(rdv_fds_short(1024 - RDV_FD_SPARE, 1024));
	ck_assert(!rdv_fds_short(1024 - RDV_FD_SPARE - 1, 1024));
	ck_assert(!rdv_fds_short(10, 1024));
	ck_assert(!rdv_fds_short(100000, 0));
}
END_TEST

Suite *suite_mesh_guard(void)
{
	Suite *s = suite_create("mesh_guard");
	TCase *tc = tcase_create("mesh_guard");

	tcase_add_test(tc, change_too_large);
	tcase_add_test(tc, member_share);
	tcase_add_test(tc, log_total);
	tcase_add_test(tc, unauth_none);
	tcase_add_test(tc, unauth_deadline);
	tcase_add_test(tc, unauth_count_and_fds);
	tcase_add_test(tc, fds_short);
	suite_add_tcase(s, tc);
	return s;
}
