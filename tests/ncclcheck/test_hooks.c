/* Unit tests for the test-only NCCLCHECK_TEST_* switches: off when unset
 * or empty, and each value form. */
#include <check.h>
#include <string.h>

#include "launch/hooks.h"
#include "suites.h"

/* A NULL-terminated list of "NAME=value" strings as the environment. */
static const char *tget(const char *name, void *ctx)
{
	const char *const *e = ctx;
	size_t n = strlen(name);

	for (; *e != NULL; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

START_TEST(off)
{
	const char *none[] = { NULL };
	const char *empty[] = { "NCCLCHECK_TEST_KILL=",
				"NCCLCHECK_TEST_ADVERTISE=", NULL };
	struct nc_hooks h;

	nc_hooks_read(tget, none, &h);
	ck_assert_int_eq(h.corrupt_rank, -1);
	ck_assert_int_eq(h.kill_rank, -1);
	ck_assert_int_eq(h.stall_rank, -1);
	ck_assert_int_eq(h.advertise_rank, -1);
	nc_hooks_read(tget, empty, &h);
	ck_assert_int_eq(h.kill_rank, -1);
	ck_assert_int_eq(h.advertise_rank, -1);
}
END_TEST

START_TEST(values)
{
	const char *env[] = { "NCCLCHECK_TEST_CORRUPT=-4",
			      "NCCLCHECK_TEST_KILL=1:4096",
			      "NCCLCHECK_TEST_STALL=3:7",
			      "NCCLCHECK_TEST_ADVERTISE=2:172.17.0.2", NULL };
	const char *nocolon[] = { "NCCLCHECK_TEST_CORRUPT=2",
				  "NCCLCHECK_TEST_KILL=5",
				  "NCCLCHECK_TEST_ADVERTISE=2", NULL };
	struct nc_hooks h;

	nc_hooks_read(tget, env, &h);
	/* a negative rank corrupts on rank 0 */
	ck_assert_int_eq(h.corrupt_rank, 0);
	ck_assert_int_eq(h.kill_rank, 1);
	ck_assert_uint_eq(h.kill_bytes, 4096);
	ck_assert_int_eq(h.stall_rank, 3);
	ck_assert_uint_eq(h.stall_step, 7);
	ck_assert_int_eq(h.advertise_rank, 2);
	ck_assert_str_eq(h.advertise, "172.17.0.2");
	nc_hooks_read(tget, nocolon, &h);
	ck_assert_int_eq(h.corrupt_rank, 2);
	ck_assert_int_eq(h.kill_rank, 5);
	ck_assert_uint_eq(h.kill_bytes, 0);
	/* an advertised address needs its rank and its address */
	ck_assert_int_eq(h.advertise_rank, -1);
}
END_TEST

Suite *suite_nc_hooks(void)
{
	Suite *s = suite_create("nc_hooks");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, off);
	tcase_add_test(tc, values);
	suite_add_tcase(s, tc);
	return s;
}
