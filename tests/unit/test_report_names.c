/* netprobe report: RAY_ADDRESS names the Ray head as Ray parses it, an
 * IPv6 head in brackets (issue 48). */
#include <check.h>
#include <jansson.h>

#include "report_decide.h"

/* The value of the one setting rd_ray writes for a head at addr. */
static char *ray_value(const char *addr, char *buf, size_t len)
{
	struct rd_head h = {.node = "hz1", .addr = addr, .how = "test"};
	json_t *settings = json_array();
	const char *v;

	ck_assert_ptr_nonnull(settings);
	rd_ray(&h, settings);
	ck_assert_int_eq(json_array_size(settings), 1);
	v = json_string_value(
		json_object_get(json_array_get(settings, 0), "value"));
	ck_assert_ptr_nonnull(v);
	snprintf(buf, len, "%s", v);
	json_decref(settings);
	return buf;
}

START_TEST(ray_address_v4_and_v6)
{
	char b[128];

	ck_assert_str_eq(ray_value("10.231.0.1", b, sizeof(b)),
			 "10.231.0.1:6379");
	ck_assert_str_eq(ray_value("fd84::1", b, sizeof(b)), "[fd84::1]:6379");
}
END_TEST

Suite *suite_report_ray(void)
{
	Suite *s = suite_create("report_ray");
	TCase *tc = tcase_create("ray");

	tcase_add_test(tc, ray_address_v4_and_v6);
	suite_add_tcase(s, tc);
	return s;
}
