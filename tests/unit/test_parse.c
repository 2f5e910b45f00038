/* Unit tests for the checked number, duration and size parsers. */
#include <check.h>

#include "base/parse.h"

START_TEST(num_ok_and_range)
{
	const char *err;
	long long v;

	ck_assert_int_eq(parse_num("42", 0, 100, &v, &err), 0);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(parse_num("101", 0, 100, &v, &err), -1);
	ck_assert_str_eq(err, "too large");
	ck_assert_int_eq(parse_num("-1", 0, 100, &v, &err), -1);
	ck_assert_str_eq(err, "too small");
	ck_assert_int_eq(parse_num("4x", 0, 100, &v, &err), -1);
	ck_assert_str_eq(err, "not a number");
	ck_assert_int_eq(parse_num("", 0, 100, &v, &err), -1);
	ck_assert_int_eq(parse_num(" 4", 0, 100, &v, &err), -1);
	ck_assert_int_eq(parse_num("99999999999999999999", 0, 100, &v, &err),
			 -1);
}
END_TEST

START_TEST(duration_units)
{
	const char *err;
	long long us;
	char buf[32];

	ck_assert_int_eq(parse_duration_us("250ms", 0, 1LL << 40, &us, &err),
			 0);
	ck_assert_int_eq(us, 250000);
	ck_assert_int_eq(parse_duration_us("5", 0, 1LL << 40, &us, &err), 0);
	ck_assert_int_eq(us, 5000000);
	ck_assert_int_eq(parse_duration_us("2m", 0, 1LL << 40, &us, &err), 0);
	ck_assert_int_eq(us, 120000000);
	ck_assert_int_eq(parse_duration_us("1.5s", 0, 1LL << 40, &us, &err),
			 0);
	ck_assert_int_eq(us, 1500000);
	ck_assert_int_eq(parse_duration_us("5x", 0, 1LL << 40, &us, &err), -1);
	ck_assert_int_eq(parse_duration_us("-1s", 0, 1LL << 40, &us, &err),
			 -1);
	ck_assert_int_eq(parse_duration_us("0x10", 0, 1LL << 40, &us, &err),
			 -1);
	ck_assert_int_eq(parse_duration_us("1h", 0, 1000, &us, &err), -1);
	ck_assert_str_eq(err, "too large");
	ck_assert_str_eq(fmt_duration(250000, buf, sizeof(buf)), "250ms");
	ck_assert_str_eq(fmt_duration(120000000, buf, sizeof(buf)), "2m");
}
END_TEST

START_TEST(size_suffixes)
{
	unsigned long long v;
	const char *err;

	ck_assert_int_eq(parse_size("8", 0, ~0ULL, &v, &err), 0);
	ck_assert_uint_eq(v, 8);
	ck_assert_int_eq(parse_size("1K", 0, ~0ULL, &v, &err), 0);
	ck_assert_uint_eq(v, 1024);
	ck_assert_int_eq(parse_size("8G", 0, ~0ULL, &v, &err), 0);
	ck_assert_uint_eq(v, 8ULL << 30);
	ck_assert_int_eq(parse_size("64MB", 0, ~0ULL, &v, &err), 0);
	ck_assert_uint_eq(v, 64ULL << 20);
	ck_assert_int_eq(parse_size("3Q", 0, ~0ULL, &v, &err), -1);
	ck_assert_int_eq(parse_size("0.3", 0, ~0ULL, &v, &err), -1);
}
END_TEST

Suite *suite_parse(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, num_ok_and_range);
	tcase_add_test(tc, duration_units);
	tcase_add_test(tc, size_suffixes);
	suite_add_tcase(s, tc);
	return s;
}
