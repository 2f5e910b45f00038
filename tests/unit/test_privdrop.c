/* Unit tests for choosing whom a root capture drops to. */
#include <check.h>

#include "base/privdrop.h"

START_TEST(sudo_user_wins)
{
	struct privdrop_target t;

	ck_assert_int_eq(privdrop_choose("1000", "1001", 65534, 65534, &t), 0);
	ck_assert_uint_eq(t.uid, 1000);
	ck_assert_uint_eq(t.gid, 1001);
	ck_assert_str_eq(t.who, "SUDO_UID");
}
END_TEST

START_TEST(falls_back_to_nobody)
{
	struct privdrop_target t;

	privdrop_choose(NULL, NULL, 65534, 65533, &t);
	ck_assert_uint_eq(t.uid, 65534);
	ck_assert_uint_eq(t.gid, 65533);
	ck_assert_str_eq(t.who, "nobody");
	/* sudo from root leaves SUDO_UID=0: never "drop" to root */
	privdrop_choose("0", "0", 65534, 65534, &t);
	ck_assert_uint_eq(t.uid, 65534);
	privdrop_choose("12x", "5", 65534, 65534, &t);
	ck_assert_str_eq(t.who, "nobody");
	privdrop_choose("1000", NULL, 65534, 65534, &t);
	ck_assert_str_eq(t.who, "nobody");
}
END_TEST

Suite *suite_privdrop(void)
{
	Suite *s = suite_create("privdrop");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, sudo_user_wins);
	tcase_add_test(tc, falls_back_to_nobody);
	suite_add_tcase(s, tc);
	return s;
}
