/* The test switches in a release build: hooks.c compiled here without
 * NC_TEST_HOOKS (its symbols renamed), every NCCLCHECK_TEST_* variable
 * set, and every switch must stay off. */
#include <check.h>
#include <string.h>

#undef NC_TEST_HOOKS
#define nc_hooks_read nc_hooks_read_release
#define nc_hooks_built nc_hooks_built_release
#include "../../collectives/launch/hooks.c"
#undef nc_hooks_read
#undef nc_hooks_built
/* the test build's own, hidden by the renaming above */
extern const bool nc_hooks_built;
void nc_hooks_read(env_get_fn get, void *ctx, struct nc_hooks *h);

#include "suites.h"

/* Every variable set. */
static const char *all_set(const char *name, void *ctx)
{
	(void)ctx;
	if (strcmp(name, "NCCLCHECK_TEST_ADVERTISE") == 0)
		return "1:10.255.255.1";
	return strncmp(name, "NCCLCHECK_TEST_", 15) == 0 ? "1:4096" : NULL;
}

START_TEST(release_ignores)
{
	struct nc_hooks h;

	nc_hooks_read_release(all_set, NULL, &h);
	ck_assert(!nc_hooks_built_release);
	ck_assert(nc_hooks_built); /* the test build's own */
	ck_assert_int_eq(h.corrupt_rank, -1);
	ck_assert_int_eq(h.kill_rank, -1);
	ck_assert_int_eq(h.stall_rank, -1);
	ck_assert_int_eq(h.advertise_rank, -1);
	nc_hooks_read(all_set, NULL, &h);
	ck_assert_int_eq(h.kill_rank, 1);
}
END_TEST

Suite *suite_nc_hooks_release(void)
{
	Suite *s = suite_create("nc_hooks_release");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, release_ignores);
	suite_add_tcase(s, tc);
	return s;
}
