/* Unit tests for options that say where their value goes (CLI_TO) and for
 * the common options a runtime adds to every command (cli_start_common). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"

enum { K_PEER = 256, K_HELP = 'h' };

/* Every kind of destination, one command table around them. */
struct dest_vals {
	bool flag;
	int count, n;
	unsigned port;
	long long us;
	const char *file;
};

/* Parses args (NULL-terminated) with the table bound to v and the common
 * flag --json (-j) bound to *json. Returns the first key cli_next returned
 * (or CLI_END), the error in err. */
static int dest_parse(const char **args, struct dest_vals *v, bool *json,
		      char *err, size_t errlen, struct cli *c)
{
	const struct cli_opt optv[] = {
	    {0, 'f', "flag", CLI_FLAG, NULL, NULL, "a flag", false,
	     CLI_TO(BOOL, &v->flag)},
	    {0, 'v', "verbose", CLI_FLAG, NULL, NULL, "more", false,
	     CLI_TO(COUNT, &v->count)},
	    {0, 'n', "number", CLI_REQUIRED, "N", NULL, "a count", false,
	     CLI_RANGE(CLI_UNIT_COUNT, 1, 9), CLI_TO(INT, &v->n)},
	    {0, 'p', "port", CLI_REQUIRED, "PORT", NULL, "a port", false,
	     CLI_RANGE(CLI_UNIT_PORT, 1, 65535), CLI_TO(UINT, &v->port)},
	    {0, 't', "timeout", CLI_REQUIRED, "TIME", NULL, "a time", false,
	     CLI_RANGE(CLI_UNIT_DURATION, 1000, 10000000), CLI_TO(LLONG, &v->us)},
	    {0, 'w', "write", CLI_REQUIRED, "FILE", NULL, "a file", false,
	     CLI_TO(STR, &v->file)},
	    {K_PEER, 0, "peer", CLI_REQUIRED, "HOST", NULL, "a peer", false},
	    {K_HELP, 'h', "help", CLI_FLAG, NULL, NULL, "help", false},
	};
	const struct cli_opt common[] = {
	    {0, 'j', "json", CLI_FLAG, NULL, NULL, "JSON", false,
	     CLI_TO(BOOL, json)},
	    /* the command spells --write itself: its own entry stays */
	    {0, 0, "write", CLI_FLAG, NULL, NULL, "common write", false,
	     CLI_TO(BOOL, json)},
	};
	const struct cli_cmd cmd = {"netprobe x", "", "", optv,
				    sizeof(optv) / sizeof(optv[0]), NULL};
	static char *argv[32];
	int argc = 0, k;

	while (args[argc]) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	ck_assert_int_eq(cli_start_common(c, &cmd, common, 2, argc, argv), 0);
	ck_assert_uint_eq(c->cmd->nopts, sizeof(optv) / sizeof(optv[0]) + 1);
	ck_assert_uint_eq(c->cmd->ncommon, 1);
	k = cli_next(c);
	snprintf(err, errlen, "%s", c->err);
	return k;
}

START_TEST(destinations_take_values_and_never_reach_the_switch)
{
	const char *args[] = {"x",    "-f",    "-vv",	  "--number=3",
			      "-p",   "7470",  "-t",	  "250ms",
			      "-w",   "out",   "-j",	  "--peer",
			      "gpu1", NULL};
	struct dest_vals v = {0};
	bool json = false;
	struct cli c;
	char err[256];

	ck_assert_int_eq(dest_parse(args, &v, &json, err, sizeof(err), &c),
			 K_PEER);
	ck_assert_str_eq(c.arg, "gpu1");
	ck_assert_int_eq(cli_next(&c), CLI_END);
	ck_assert(v.flag);
	ck_assert_int_eq(v.count, 2);
	ck_assert_int_eq(v.n, 3);
	ck_assert_uint_eq(v.port, 7470);
	ck_assert_int_eq(v.us, 250000);
	ck_assert_str_eq(v.file, "out");
	ck_assert(json);
}
END_TEST

START_TEST(a_bad_value_is_refused_before_it_is_stored)
{
	const char *args[] = {"x", "--number", "12", NULL};
	struct dest_vals v = {.n = 5};
	bool json = false;
	struct cli c;
	char err[256];

	ck_assert_int_eq(dest_parse(args, &v, &json, err, sizeof(err), &c),
			 CLI_ERROR);
	ck_assert_str_eq(err,
			 "invalid number '12' for --number: too large (1 to 9)");
	ck_assert_int_eq(v.n, 5);
}
END_TEST

START_TEST(common_options_are_listed_apart_by_help)
{
	const char *args[] = {"x", NULL};
	struct dest_vals v = {0};
	bool json = false;
	struct cli c;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *fp;

	ck_assert_int_eq(dest_parse(args, &v, &json, err, sizeof(err), &c),
			 CLI_END);
	fp = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(cli_help(c.cmd, fp), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "\ncommon options:\n  -j, --json"));
	ck_assert_ptr_null(strstr(buf, "common write"));
	free(buf);
}
END_TEST

START_TEST(a_destination_that_does_not_fit_is_a_bad_table)
{
	bool b = false;
	const char *s = NULL;
	const struct cli_opt flag_to_str[] = {
	    {0, 'f', "flag", CLI_FLAG, NULL, NULL, "a flag", false,
	     CLI_TO(STR, &s)},
	};
	const struct cli_opt number_to_bool[] = {
	    {0, 'n', "number", CLI_REQUIRED, "N", NULL, "n", false,
	     CLI_RANGE(CLI_UNIT_COUNT, 1, 9), CLI_TO(BOOL, &b)},
	};
	const struct cli_opt no_key_no_dest[] = {
	    {0, 'z', "zero", CLI_FLAG, NULL, NULL, "z", false},
	};
	struct cli_cmd cmd = {"netprobe x", "", "", flag_to_str, 1, NULL};
	char x[] = "x";
	char *argv[] = {x, NULL};
	struct cli c;

	ck_assert_int_eq(cli_start(&c, &cmd, 1, argv), -1);
	ck_assert_str_eq(c.err, "internal error: option table: --flag");
	cmd.opts = number_to_bool;
	ck_assert_int_eq(cli_start(&c, &cmd, 1, argv), -1);
	cmd.opts = no_key_no_dest;
	ck_assert_int_eq(cli_start(&c, &cmd, 1, argv), -1);
	ck_assert_int_eq(cli_next(&c), CLI_ERROR);
}
END_TEST

START_TEST(a_command_spelling_takes_only_that_spelling)
{
	/* report's --json takes a FILE: the common -j stays, bound */
	bool json = false;
	const char *file = NULL;
	const struct cli_opt own[] = {
	    {300, 0, "json", CLI_OPTIONAL, "FILE", NULL, "to FILE", false},
	    {0, 'o', "output", CLI_REQUIRED, "FILE", NULL, "own -o", false,
	     CLI_TO(STR, &file)},
	};
	const struct cli_opt common[] = {
	    {0, 'j', "json", CLI_FLAG, NULL, NULL, "JSON", false,
	     CLI_TO(BOOL, &json)},
	    {0, 'o', "output", CLI_REQUIRED, "FILE", NULL, "common -o", false,
	     CLI_TO(STR, &file)},
	};
	const struct cli_cmd cmd = {"netprobe x", "", "", own, 2, NULL};
	char a0[] = "x", a1[] = "-j", a2[] = "-o", a3[] = "f";
	char *argv[] = {a0, a1, a2, a3, NULL};
	struct cli c;

	ck_assert_int_eq(cli_start_common(&c, &cmd, common, 2, 4, argv), 0);
	ck_assert_uint_eq(c.cmd->nopts, 3);
	ck_assert_uint_eq(c.cmd->ncommon, 1);
	ck_assert_int_eq(c.cmd->opts[2].letter, 'j');
	ck_assert_ptr_null(c.cmd->opts[2].name);
	ck_assert_int_eq(cli_next(&c), CLI_END);
	ck_assert(json);
	ck_assert_str_eq(file, "f");
}
END_TEST

Suite *suite_cli_dest(void)
{
	Suite *s = suite_create("cli_dest");
	TCase *tc = tcase_create("cli_dest");

	tcase_add_test(tc, destinations_take_values_and_never_reach_the_switch);
	tcase_add_test(tc, a_bad_value_is_refused_before_it_is_stored);
	tcase_add_test(tc, common_options_are_listed_apart_by_help);
	tcase_add_test(tc, a_destination_that_does_not_fit_is_a_bad_table);
	tcase_add_test(tc, a_command_spelling_takes_only_that_spelling);
	suite_add_tcase(s, tc);
	return s;
}
