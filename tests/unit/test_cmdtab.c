/* Unit tests for the self-registering command table (CMD_COMMAND): every
 * command linked in is found, in its order, and a short array is filled
 * with the first ones. */
#include <check.h>
#include <string.h>

#include "doc/cmdrun.h"

START_TEST(every_command_linked_in_is_found_in_order)
{
	const struct cmd_command *v[64];
	size_t n = cmd_commands(v, 64);

	/* the eleven of netprobe, linked into this runner too */
	ck_assert_uint_eq(n, 11);
	ck_assert_str_eq(v[0]->name, "scan");
	ck_assert_str_eq(v[4]->name, "ports");
	ck_assert_str_eq(v[n - 1]->name, "report");
	for (size_t i = 1; i < n; i++) {
		ck_assert_int_lt(v[i - 1]->order, v[i]->order);
		ck_assert_ptr_nonnull(v[i]->main);
		ck_assert_ptr_nonnull(v[i]->summary);
	}
}
END_TEST

START_TEST(a_short_array_holds_the_first)
{
	const struct cmd_command *v[3];

	ck_assert_uint_eq(cmd_commands(v, 3), 11);
	ck_assert_str_eq(v[0]->name, "scan");
	ck_assert_str_eq(v[1]->name, "ifaces");
	ck_assert_str_eq(v[2]->name, "layers");
	ck_assert_uint_eq(cmd_commands(NULL, 0), 11);
}
END_TEST

Suite *suite_cmdtab(void)
{
	Suite *s = suite_create("cmdtab");
	TCase *tc = tcase_create("cmdtab");

	tcase_add_test(tc, every_command_linked_in_is_found_in_order);
	tcase_add_test(tc, a_short_array_holds_the_first);
	suite_add_tcase(s, tc);
	return s;
}
