/* Unit tests for the option tables: GNU argument order, "--", errors with
 * "did you mean", optional arguments, aliases, --help and NO_COLOR. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"

enum { K_JSON = 'j', K_TIMEOUT = 't', K_TOKEN = 256, K_INTERVAL, K_OUT };

static const struct cli_opt test_opts[] = {
	{K_JSON, 'j', "json", CLI_FLAG, NULL, NULL, "print JSON", false},
	{K_TIMEOUT, 't', "timeout", CLI_REQUIRED, "TIME", "1s",
	 "per-port timeout", false},
	{K_TOKEN, 'k', "token-file", CLI_REQUIRED, "FILE", NULL,
	 "read the shared secret from FILE", false},
	{K_INTERVAL, 0, "interval", CLI_REQUIRED, "TIME", "100ms",
	 "between echoes", false},
	{K_INTERVAL, 'i', NULL, CLI_REQUIRED, "TIME", NULL, NULL, true},
	{K_OUT, 0, "out", CLI_OPTIONAL, "FILE", NULL,
	 "write the document, to FILE if given", false},
	{'h', 'h', "help", CLI_FLAG, NULL, NULL, "print this help", false},
};

static const struct cli_cmd test_cmd = {
	"netprobe x", "[options] HOST [PORT]", "test the option tables",
	test_opts, sizeof(test_opts) / sizeof(test_opts[0]), "more text\n",
};

/* Parses argv (NULL-terminated); the keys in keys[], the operands joined
 * by spaces in ops, the last error in err. Returns the number of keys, or
 * -1 on CLI_ERROR. */
static int parse(const char **args, int *keys, const char **vals, char *ops,
		 char *err)
{
	static char *argv[32];
	struct cli c;
	char **o;
	int argc = 0, n = 0, k, nops;

	while (args[argc]) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	ck_assert_int_eq(cli_start(&c, &test_cmd, argc, argv), 0);
	while ((k = cli_next(&c)) != CLI_END) {
		if (k == CLI_ERROR) {
			strcpy(err, c.err);
			return -1;
		}
		vals[n] = c.arg;
		keys[n++] = k;
	}
	ops[0] = '\0';
	nops = cli_operands(&c, &o);
	for (int i = 0; i < nops; i++) {
		if (i)
			strcat(ops, " ");
		strcat(ops, o[i]);
	}
	return n;
}

START_TEST(options_after_operands)
{
	const char *a[] = {"x", "10.0.0.1", "22", "--json", "-t", "5s", NULL};
	int keys[8];
	const char *vals[8];
	char ops[128], err[256];

	ck_assert_int_eq(parse(a, keys, vals, ops, err), 2);
	ck_assert_int_eq(keys[0], K_JSON);
	ck_assert_int_eq(keys[1], K_TIMEOUT);
	ck_assert_str_eq(vals[1], "5s");
	ck_assert_str_eq(ops, "10.0.0.1 22");
}
END_TEST

START_TEST(double_dash_ends_options)
{
	const char *a[] = {"x", "--json", "h", "--", "--timeout", "-j", NULL};
	int keys[8];
	const char *vals[8];
	char ops[128], err[256];

	ck_assert_int_eq(parse(a, keys, vals, ops, err), 1);
	ck_assert_str_eq(ops, "h --timeout -j");
}
END_TEST

START_TEST(forms_of_arguments)
{
	const char *a[] = {"x", "--timeout=2s", "-t3s", "--tim", "4s",
			   "-jk", "tok", NULL};
	int keys[8];
	const char *vals[8];
	char ops[128], err[256];

	ck_assert_int_eq(parse(a, keys, vals, ops, err), 5);
	ck_assert_str_eq(vals[0], "2s");
	ck_assert_str_eq(vals[1], "3s");
	ck_assert_str_eq(vals[2], "4s");
	ck_assert_int_eq(keys[3], K_JSON);
	ck_assert_int_eq(keys[4], K_TOKEN);
	ck_assert_str_eq(vals[4], "tok");
}
END_TEST

START_TEST(errors_say_what_was_meant)
{
	int keys[8];
	const char *vals[8];
	char ops[128], err[256];
	const char *a1[] = {"x", "h", "--jsn", NULL};
	const char *a2[] = {"x", "--json=yes", NULL};
	const char *a3[] = {"x", "h", "--timeout", NULL};
	const char *a4[] = {"x", "-t", NULL};
	const char *a5[] = {"x", "-x", NULL};
	const char *a6[] = {"x", "-json", NULL};
	const char *a7[] = {"x", "--t", "1", NULL};
	const char *a8[] = {"x", "--zzzzzz", NULL};
	const char *a9[] = {"x", "--timeuot=3", NULL};

	ck_assert_int_eq(parse(a1, keys, vals, ops, err), -1);
	ck_assert_str_eq(err, "unknown option '--jsn' (did you mean '--json'?)");
	ck_assert_int_eq(parse(a2, keys, vals, ops, err), -1);
	ck_assert_str_eq(err, "option '--json' takes no argument");
	ck_assert_int_eq(parse(a3, keys, vals, ops, err), -1);
	ck_assert_str_eq(err, "option '--timeout' needs an argument (TIME)");
	ck_assert_int_eq(parse(a4, keys, vals, ops, err), -1);
	ck_assert_str_eq(err, "option '-t' needs an argument (TIME)");
	ck_assert_int_eq(parse(a5, keys, vals, ops, err), -1);
	ck_assert_str_eq(err, "unknown option '-x'");
	ck_assert_int_eq(parse(a6, keys, vals, ops, err), -1);
	ck_assert_str_eq(err, "unknown option '-s' (did you mean '--json'?)");
	ck_assert_int_eq(parse(a7, keys, vals, ops, err), -1);
	ck_assert_str_eq(err, "option '--t' is ambiguous (could be "
			      "'--timeout', '--token-file')");
	ck_assert_int_eq(parse(a8, keys, vals, ops, err), -1);
	ck_assert_str_eq(err, "unknown option '--zzzzzz'");
	ck_assert_int_eq(parse(a9, keys, vals, ops, err), -1);
	ck_assert_str_eq(err,
			 "unknown option '--timeuot' (did you mean '--timeout'?)");
}
END_TEST

START_TEST(optional_argument_takes_next_word)
{
	int keys[8];
	const char *vals[8];
	char ops[128], err[256];
	const char *a1[] = {"x", "in1", "--out", "o.json", "in2", NULL};
	const char *a2[] = {"x", "in1", "--out", NULL};
	const char *a3[] = {"x", "--out", "-", "in1", NULL};
	const char *a4[] = {"x", "--out", "--json", "in1", NULL};
	const char *a5[] = {"x", "--out=o.json", "in1", NULL};
	const char *a6[] = {"x", "--out", "--", "in1", NULL};

	ck_assert_int_eq(parse(a1, keys, vals, ops, err), 1);
	ck_assert_str_eq(vals[0], "o.json");
	ck_assert_str_eq(ops, "in1 in2");
	ck_assert_int_eq(parse(a2, keys, vals, ops, err), 1);
	ck_assert_ptr_null(vals[0]);
	ck_assert_str_eq(ops, "in1");
	ck_assert_int_eq(parse(a3, keys, vals, ops, err), 1);
	ck_assert_str_eq(vals[0], "-");
	ck_assert_int_eq(parse(a4, keys, vals, ops, err), 2);
	ck_assert_ptr_null(vals[0]);
	ck_assert_int_eq(parse(a5, keys, vals, ops, err), 1);
	ck_assert_str_eq(vals[0], "o.json");
	ck_assert_int_eq(parse(a6, keys, vals, ops, err), 1);
	ck_assert_ptr_null(vals[0]);
	ck_assert_str_eq(ops, "in1");
}
END_TEST

START_TEST(alias_returns_the_same_key)
{
	const char *a[] = {"x", "-i", "5ms", "--interval", "6ms", NULL};
	int keys[8];
	const char *vals[8];
	char ops[128], err[256];

	ck_assert_int_eq(parse(a, keys, vals, ops, err), 2);
	ck_assert_int_eq(keys[0], K_INTERVAL);
	ck_assert_int_eq(keys[1], K_INTERVAL);
	ck_assert_str_eq(vals[0], "5ms");
}
END_TEST

START_TEST(bad_tables_are_refused)
{
	static const struct cli_opt twice[] = {
		{1, 'a', "all", CLI_FLAG, NULL, NULL, "x", false},
		{2, 'a', "any", CLI_FLAG, NULL, NULL, "y", false},
	};
	static const struct cli_opt twice_long[] = {
		{1, 'a', "all", CLI_FLAG, NULL, NULL, "x", false},
		{2, 'b', "all", CLI_FLAG, NULL, NULL, "y", false},
	};
	static const struct cli_opt opt_letter[] = {
		{1, 'a', "all", CLI_OPTIONAL, "F", NULL, "x", false},
	};
	struct cli_cmd cmd = {"t", "", NULL, twice, 2, NULL};
	char t[] = "t";
	char *argv[] = {t, NULL};
	struct cli c;

	ck_assert_int_eq(cli_start(&c, &cmd, 1, argv), -1);
	cmd.opts = twice_long;
	ck_assert_int_eq(cli_start(&c, &cmd, 1, argv), -1);
	cmd.opts = opt_letter;
	cmd.nopts = 1;
	ck_assert_int_eq(cli_start(&c, &cmd, 1, argv), -1);
}
END_TEST

START_TEST(help_lists_every_option_with_its_default)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(cli_help(&test_cmd, fp), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "usage: netprobe x [options] HOST "
					  "[PORT]\ntest the option tables\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\n  -j, --json                print "
					  "JSON\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\n  -t, --timeout=TIME        "
					  "per-port timeout (default: 1s)\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\n      --interval=TIME       "));
	ck_assert_ptr_nonnull(strstr(buf, "\n  -i TIME                   "
					  "old spelling of --interval\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\n      --out [FILE]          "));
	ck_assert_ptr_nonnull(strstr(buf, "\nmore text\n"));
	free(buf);
}
END_TEST

START_TEST(usage_error_format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_int_eq(cli_usage_error(&test_cmd, fp, "expected %s", "HOST"),
			 2);
	fclose(fp);
	ck_assert_str_eq(buf, "netprobe x: expected HOST\nTry 'netprobe x "
			      "--help' for more information.\n");
	free(buf);
}
END_TEST

START_TEST(distance_and_closest)
{
	static const char *const cmds[] = {"scan", "ifaces", "layers",
					   "serve", "ports", "heartbeat"};

	ck_assert_uint_eq(cli_distance("json", "jsno"), 1);
	ck_assert_uint_eq(cli_distance("kitten", "sitting"), 3);
	ck_assert_uint_eq(cli_distance("", "abc"), 3);
	ck_assert_str_eq(cli_closest("scna", cmds, 6), "scan");
	ck_assert_str_eq(cli_closest("heartbat", cmds, 6), "heartbeat");
	ck_assert_str_eq(cli_closest("port", cmds, 6), "ports");
	ck_assert_str_eq(cli_closest("he", cmds, 6), "heartbeat");
	ck_assert_ptr_null(cli_closest("foo", cmds, 6));
	ck_assert_ptr_null(cli_closest("s", cmds, 6));
}
END_TEST

START_TEST(no_color_set_and_not_empty)
{
	ck_assert(cli_color(true, NULL));
	ck_assert(cli_color(true, ""));
	ck_assert(!cli_color(true, "1"));
	ck_assert(!cli_color(false, NULL));
}
END_TEST

Suite *suite_cli(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("cli");

	tcase_add_test(tc, options_after_operands);
	tcase_add_test(tc, double_dash_ends_options);
	tcase_add_test(tc, forms_of_arguments);
	tcase_add_test(tc, errors_say_what_was_meant);
	tcase_add_test(tc, optional_argument_takes_next_word);
	tcase_add_test(tc, alias_returns_the_same_key);
	tcase_add_test(tc, bad_tables_are_refused);
	tcase_add_test(tc, help_lists_every_option_with_its_default);
	tcase_add_test(tc, usage_error_format);
	tcase_add_test(tc, distance_and_closest);
	tcase_add_test(tc, no_color_set_and_not_empty);
	suite_add_tcase(s, tc);
	return s;
}
