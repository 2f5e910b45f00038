/* netprobe report: names as the tools that read them parse them.
 * RAY_ADDRESS names an IPv6 head in brackets, as Ray parses it (issue
 * 48); JUnit suites and classnames keep dots for the package alone, as
 * CI systems split them (issue 44). */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_decide.h"
#include "report_model.h"

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

/* A scan document of host with no finding. */
static json_t *scan(const char *host)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:[], s:[]}",
			 "schema", "netprobe/1", "tool", "netprobe", "command",
			 "scan", "host", host, "started",
			 "2026-12-06T10:00:00Z", "findings", "errors",
			 "interfaces", "peers");
}

START_TEST(junit_suite_of_a_dotted_host)
{
	struct report_set set = {0};
	struct report_model *m;
	char *txt, *xml = NULL;
	size_t len = 0;
	FILE *fp;
	json_t *d = scan("gpu-a.example.com");

	txt = json_dumps(d, 0);
	ck_assert_ptr_nonnull(txt);
	ck_assert_int_eq(report_load_buffer(&set, "a.json", txt, strlen(txt)),
			 0);
	free(txt);
	json_decref(d);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	fp = open_memstream(&xml, &len);
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(report_render_junit(m, fp, REPORT_FAIL_FAULT), 0);
	fclose(fp);
	ck_assert_msg(strstr(xml, "<testsuite name=\"netprobe.gpu-a_example_com\"")
			      != NULL, "%s", xml);
	ck_assert_msg(strstr(xml, "classname=\"netprobe.gpu-a_example_com\"")
			      != NULL, "%s", xml);
	ck_assert_msg(strstr(xml, "gpu-a.example.com\"") == NULL, "%s", xml);
	free(xml);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

Suite *suite_report_names(void)
{
	Suite *s = suite_create("report_names");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, ray_address_v4_and_v6);
	tcase_add_test(tc, junit_suite_of_a_dotted_host);
	suite_add_tcase(s, tc);
	return s;
}
