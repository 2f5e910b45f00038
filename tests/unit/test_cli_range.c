/* Unit tests for the option table's units and ranges: a numeric option's
 * value comes back parsed in its unit, and a bad one is refused with one
 * wording that names the value, the option, why and the range. */
#include <check.h>
#include <string.h>

#include "base/cli.h"
#include "base/parse.h"

enum { K_PORT = 'p', K_TIMEOUT = 't', K_COUNT = 256, K_LOSS, K_SIZE, K_WAIT };

static const struct cli_opt range_opts[] = {
	{K_PORT, 'p', "port", CLI_REQUIRED, "PORT", "7470", "the port", false,
	 CLI_RANGE(CLI_UNIT_PORT, 1, 65535)},
	{K_TIMEOUT, 't', "timeout", CLI_REQUIRED, "TIME", "2s", "how long",
	 false, CLI_RANGE(CLI_UNIT_DURATION, 1000, 600000000LL)},
	{K_TIMEOUT, 0, "deadline", CLI_REQUIRED, "TIME", NULL, NULL, true},
	{K_COUNT, 0, "count", CLI_REQUIRED, "N", NULL, "how many", false,
	 CLI_RANGE(CLI_UNIT_COUNT, 1, 100)},
	{K_LOSS, 0, "max-loss", CLI_REQUIRED, "PCT", NULL, "loss gate", false,
	 CLI_RANGE(CLI_UNIT_PERCENT, 0, 100)},
	{K_SIZE, 'C', "max-size", CLI_REQUIRED, "SIZE", NULL, "cap", false,
	 CLI_RANGE(CLI_UNIT_BYTES, 4096, 1LL << 40)},
	{K_WAIT, 0, "wait", CLI_REQUIRED, "SECONDS", NULL, "wait", false,
	 CLI_RANGE(CLI_UNIT_SECONDS, 1, 600)},
	{'h', 'h', "help", CLI_FLAG, NULL, NULL, "print this help", false},
};

static const struct cli_cmd range_cmd = {
	"netprobe x", "[options]", "test the ranges", range_opts,
	sizeof(range_opts) / sizeof(range_opts[0]), NULL,
};

/* Parses one option and its argument; the key (or CLI_ERROR), its value
 * in *num, the error in err. */
static int one(const char *opt, const char *arg, long long *num, char *err)
{
	char x[] = "x";
	char *argv[] = {x, (char *)opt, (char *)arg, NULL};
	struct cli c;
	int k;

	ck_assert_int_eq(cli_start(&c, &range_cmd, 3, argv), 0);
	k = cli_next(&c);
	*num = c.num;
	strcpy(err, c.err);
	return k;
}

START_TEST(values_come_back_in_their_unit)
{
	char err[256];
	long long v;

	ck_assert_int_eq(one("--port", "7470", &v, err), K_PORT);
	ck_assert_int_eq(v, 7470);
	ck_assert_int_eq(one("-t", "250ms", &v, err), K_TIMEOUT);
	ck_assert_int_eq(v, 250000);
	ck_assert_int_eq(one("--max-size", "64K", &v, err), K_SIZE);
	ck_assert_int_eq(v, 65536);
	ck_assert_int_eq(one("--max-loss", "0", &v, err), K_LOSS);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(one("--wait", "600", &v, err), K_WAIT);
	ck_assert_int_eq(v, 600);
	/* an alias takes its option's range */
	ck_assert_int_eq(one("--deadline", "5s", &v, err), K_TIMEOUT);
	ck_assert_int_eq(v, 5000000);
}
END_TEST

START_TEST(bad_values_get_one_wording)
{
	char err[256];
	long long v;

	ck_assert_int_eq(one("--port", "0", &v, err), CLI_ERROR);
	ck_assert_str_eq(err, "invalid port '0' for --port: too small "
			      "(1 to 65535)");
	ck_assert_int_eq(one("-p", "99999", &v, err), CLI_ERROR);
	ck_assert_str_eq(err, "invalid port '99999' for --port: too large "
			      "(1 to 65535)");
	ck_assert_int_eq(one("--timeout", "5x", &v, err), CLI_ERROR);
	ck_assert_str_eq(err, "invalid duration '5x' for --timeout: unknown "
			      "unit (use us, ms, s, m or h) (1ms to 10m)");
	ck_assert_int_eq(one("--count", "abc", &v, err), CLI_ERROR);
	ck_assert_str_eq(err, "invalid number 'abc' for --count: not a "
			      "number (1 to 100)");
	ck_assert_int_eq(one("--max-loss", "101", &v, err), CLI_ERROR);
	ck_assert_str_eq(err, "invalid percentage '101' for --max-loss: too "
			      "large (0 to 100%)");
	ck_assert_int_eq(one("-C", "1K", &v, err), CLI_ERROR);
	ck_assert_str_eq(err, "invalid size '1K' for --max-size: too small "
			      "(4K to 1T)");
	ck_assert_int_eq(one("--wait", "0", &v, err), CLI_ERROR);
	ck_assert_str_eq(err, "invalid number '0' for --wait: too small "
			      "(1 to 600 seconds)");
	/* an alias is named by the option it spells */
	ck_assert_int_eq(one("--deadline", "0", &v, err), CLI_ERROR);
	ck_assert_str_eq(err, "invalid duration '0' for --timeout: too small "
			      "(1ms to 10m)");
}
END_TEST

START_TEST(sizes_print_as_parsed)
{
	char b[32];

	ck_assert_str_eq(fmt_size(4096, b, sizeof(b)), "4K");
	ck_assert_str_eq(fmt_size(1ULL << 40, b, sizeof(b)), "1T");
	ck_assert_str_eq(fmt_size(1ULL << 50, b, sizeof(b)), "1024T");
	ck_assert_str_eq(fmt_size(1500, b, sizeof(b)), "1500");
	ck_assert_str_eq(fmt_size(0, b, sizeof(b)), "0");
}
END_TEST

START_TEST(bad_ranges_are_refused)
{
	static const struct cli_opt upside_down[] = {
	    {K_PORT, 'p', "port", CLI_REQUIRED, "PORT", NULL, "the port", false,
	     CLI_RANGE(CLI_UNIT_PORT, 65535, 1)},
	};
	static const struct cli_opt flag_number[] = {
	    {K_COUNT, 0, "count", CLI_FLAG, NULL, NULL, "how many", false,
	     CLI_RANGE(CLI_UNIT_COUNT, 1, 10)},
	};
	struct cli_cmd cmd = {"netprobe x", "", "", upside_down, 1, NULL};
	char x[] = "x";
	char *argv[] = {x, NULL};
	struct cli c;

	ck_assert_int_eq(cli_start(&c, &cmd, 1, argv), -1);
	ck_assert_int_eq(cli_next(&c), CLI_ERROR);
	ck_assert_str_eq(c.err, "internal error: option table: --port");
	cmd.opts = flag_number;
	ck_assert_int_eq(cli_start(&c, &cmd, 1, argv), -1);
	ck_assert_str_eq(c.err, "internal error: option table: --count");
}
END_TEST

Suite *suite_cli_range(void)
{
	Suite *s = suite_create("cli_range");
	TCase *tc = tcase_create("cli_range");

	tcase_add_test(tc, values_come_back_in_their_unit);
	tcase_add_test(tc, bad_values_get_one_wording);
	tcase_add_test(tc, sizes_print_as_parsed);
	tcase_add_test(tc, bad_ranges_are_refused);
	suite_add_tcase(s, tc);
	return s;
}
