/* Unit tests for Prometheus's text exposition format (base/promtext.h):
 * names, label escaping, HELP and TYPE lines, values, and the textfile
 * written whole through a rename. */
#include "base/promtext.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

START_TEST(names)
{
	ck_assert(prom_name_ok("netprobe_peer_rtt_seconds"));
	ck_assert(prom_name_ok("a:b_c9"));
	ck_assert(!prom_name_ok("9lives"));
	ck_assert(!prom_name_ok("net-probe"));
	ck_assert(!prom_name_ok(""));
	ck_assert(prom_label_ok("peer"));
	ck_assert(!prom_label_ok("__name__"));
	ck_assert(!prom_label_ok("a:b"));
}
END_TEST

START_TEST(family_and_samples)
{
	struct prom_buf b;
	const char *lab[] = {"peer", "n\"1\\x\ny", "skip", NULL, "q", "0.5",
	                     NULL};

	prom_init(&b);
	ck_assert_int_eq(prom_family(&b, "netprobe_x_total", "counter",
	                             "a \\ help\nline \"q\""),
	                 0);
	ck_assert_int_eq(prom_sample(&b, "netprobe_x_total", NULL, 3), 0);
	ck_assert_int_eq(prom_sample(&b, "netprobe_x_total", lab, 0.25), 0);
	ck_assert_str_eq(b.p,
	                 "# HELP netprobe_x_total a \\\\ help\\nline \"q\"\n"
	                 "# TYPE netprobe_x_total counter\n"
	                 "netprobe_x_total 3\n"
	                 "netprobe_x_total{peer=\"n\\\"1\\\\x\\ny\","
	                 "q=\"0.5\"} 0.25\n");
	ck_assert(!b.oom && !b.bad);
	prom_free(&b);
}
END_TEST

/* prom_metric is prom_family and one prom_sample. */
START_TEST(one_sample_family)
{
	struct prom_buf b;
	const char *lab[] = {"node", "n1", NULL};

	prom_init(&b);
	ck_assert_int_eq(prom_metric(&b, "netprobe_y", "gauge", "h", lab, 2),
	                 0);
	ck_assert_str_eq(b.p, "# HELP netprobe_y h\n# TYPE netprobe_y gauge\n"
	                      "netprobe_y{node=\"n1\"} 2\n");
	ck_assert_int_eq(prom_metric(&b, "bad name", "gauge", "h", NULL, 1),
	                 -1);
	ck_assert(b.bad);
	prom_free(&b);
}
END_TEST

START_TEST(bad_names)
{
	struct prom_buf b;
	const char *lab[] = {"__x", "v", NULL};

	prom_init(&b);
	ck_assert_int_eq(prom_family(&b, "x-y", "gauge", "h"), -1);
	ck_assert(b.bad);
	prom_free(&b);
	ck_assert_int_eq(prom_family(&b, "x", "meter", "h"), -1);
	ck_assert(b.bad);
	prom_free(&b);
	ck_assert_int_eq(prom_sample(&b, "x", lab, 1), -1);
	ck_assert(b.bad);
	prom_free(&b);
}
END_TEST

START_TEST(values)
{
	char v[40];

	ck_assert_str_eq(prom_value(0, v, sizeof(v)), "0");
	ck_assert_str_eq(prom_value(-12, v, sizeof(v)), "-12");
	ck_assert_str_eq(prom_value(1e15, v, sizeof(v)), "1000000000000000");
	ck_assert_str_eq(prom_value(0.1, v, sizeof(v)), "0.1");
	ck_assert_str_eq(prom_value(0.000123, v, sizeof(v)), "0.000123");
	ck_assert_str_eq(prom_value(NAN, v, sizeof(v)), "NaN");
	ck_assert_str_eq(prom_value(INFINITY, v, sizeof(v)), "+Inf");
	ck_assert_str_eq(prom_value(-INFINITY, v, sizeof(v)), "-Inf");
	ck_assert(strtod(prom_value(1.0 / 3, v, sizeof(v)), NULL) == 1.0 / 3);
	ck_assert_str_eq(prom_value(1e300, v, sizeof(v)), "1e+300");
}
END_TEST

START_TEST(textfile)
{
	char dir[] = "/tmp/np-prom-XXXXXX", path[128], why[256], got[64];
	FILE *f;
	size_t n;
	struct stat st;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(prom_textfile_write(dir, "netprobe.prom", "a 1\n", 4,
	                                     why, sizeof(why)),
	                 0);
	ck_assert_int_eq(prom_textfile_write(dir, "netprobe.prom", "b 2\n", 4,
	                                     why, sizeof(why)),
	                 0);
	snprintf(path, sizeof(path), "%s/netprobe.prom", dir);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(got, 1, sizeof(got) - 1, f);
	got[n] = '\0';
	fclose(f);
	ck_assert_str_eq(got, "b 2\n");
	snprintf(path, sizeof(path), "%s/.netprobe.prom.tmp", dir);
	ck_assert_int_eq(stat(path, &st), -1); /* no temporary left */
	snprintf(path, sizeof(path), "%s/netprobe.prom", dir);
	unlink(path);
	ck_assert_int_eq(prom_textfile_write(dir, "x/y.prom", "", 0, why,
	                                     sizeof(why)),
	                 -1);
	rmdir(dir);
	ck_assert_int_eq(prom_textfile_write(dir, "n.prom", "a 1\n", 4, why,
	                                     sizeof(why)),
	                 -1);
	ck_assert_ptr_nonnull(strstr(why, "cannot write"));
}
END_TEST

Suite *suite_promtext(void)
{
	Suite *s = suite_create("promtext");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, names);
	tcase_add_test(tc, family_and_samples);
	tcase_add_test(tc, one_sample_family);
	tcase_add_test(tc, bad_names);
	tcase_add_test(tc, values);
	tcase_add_test(tc, textfile);
	suite_add_tcase(s, tc);
	return s;
}
