/* Unit tests for ncclcheck's command line. */
#include <check.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "nc.h"
#include "suites.h"

/* Parses a NULL-terminated argument list. */
static int parse(struct nc_opts *o, char *err, size_t len, ...)
{
	static char prog[] = "ncclcheck";
	char *argv[32] = { prog };
	int argc = 1;
	va_list ap;
	char *a;

	va_start(ap, len);
	while ((a = va_arg(ap, char *)) != NULL && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	return nc_opts_parse(o, argc, argv, err, len);
}

/* nccl-tests' -a, -z, -G; -t only as 1. */
START_TEST(timing_options)
{
	struct nc_opts o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), NULL), 0);
	ck_assert_int_eq(o.average, 1);
	ck_assert_int_eq(o.blocking, 0);
	ck_assert_int_eq(o.graph_launches, 0);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-a", "3", "-z", "1",
			       "-t", "1", NULL), 0);
	ck_assert_int_eq(o.average, 3);
	ck_assert_int_eq(o.blocking, 1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-G", "10", NULL), 0);
	ck_assert_int_eq(o.graph_launches, 10);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-a", "4", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-t", "4", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "use -g N, or one process per GPU"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-G", "2", "-z", "1",
			       NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "-G (CUDA graphs) with -z 1"));
}
END_TEST

/* --help has a line for every option of the parser, each with its
 * default, and none past column 80. */
START_TEST(help_names_every_option)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_int_eq(nc_help(fp), 0);
	fclose(fp);
	for (int i = 0; nc_opt_name(i) != NULL; i++) {
		char want[64];

		snprintf(want, sizeof(want), "--%s", nc_opt_name(i));
		ck_assert_msg(strstr(buf, want) != NULL, "no %s in --help",
			      want);
	}
	ck_assert_ptr_nonnull(strstr(buf, "--iters=N"));
	ck_assert_ptr_nonnull(
	    strstr(buf, "timed iterations per size (default: 20)"));
	ck_assert_ptr_nonnull(strstr(buf, "(default: 128M)"));
	ck_assert_ptr_nonnull(strstr(buf, "(default: 30s)"));
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		ck_assert_msg(strlen(line) <= 80, "too long: %s", line);
	free(buf);
}
END_TEST

START_TEST(defaults)
{
	struct nc_opts o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), NULL), 0);
	ck_assert_uint_eq(o.min_bytes, 8);
	ck_assert_uint_eq(o.max_bytes, 128ULL << 20);
	ck_assert_int_eq(o.ncolls, 1);
	ck_assert_int_eq(o.colls[0], NC_ALL_REDUCE);
	ck_assert_int_eq(o.iters, 20);
	ck_assert_int_eq(o.warmup, 5);
	ck_assert(o.check && o.preflight && !o.check_every);
	ck_assert_int_eq(o.timeout_us, 30000000);
}
END_TEST

START_TEST(sweep_options)
{
	struct nc_opts o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "1K", "-e", "8G",
			       "-f", "2", "-n", "5", "-w", "0", "-g", "4",
			       "-C", "all_reduce,allgather,all_reduce", "-d",
			       "float,bf16", "-o", "all", "-T", "10s",
			       "--budget", "50ms", "--check-every", "--json",
			       "x.json", NULL), 0);
	ck_assert_uint_eq(o.min_bytes, 1024);
	ck_assert_uint_eq(o.max_bytes, 8ULL << 30);
	ck_assert_double_eq(o.factor, 2);
	ck_assert_int_eq(o.ncolls, 2);
	ck_assert_int_eq(o.colls[1], NC_ALL_GATHER);
	ck_assert_int_eq(o.ndtypes, 2);
	ck_assert_int_eq(o.nops, NC_NOP);
	ck_assert_int_eq(o.gpus_per_proc, 4);
	ck_assert_int_eq(o.timeout_us, 10000000);
	ck_assert_int_eq(o.budget_us, 50000);
	ck_assert_str_eq(o.json_path, "x.json");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-i", "1M", NULL), 0);
	ck_assert_uint_eq(o.step, 1 << 20);
	ck_assert_double_eq(o.factor, 0);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-C", "all", NULL), 0);
	ck_assert_int_eq(o.ncolls, NC_NCOLL);
	/* avg on integers alone is refused; with a float type it is kept */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-o", "avg", "-d",
			       "int32", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "avg needs a floating type"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-o", "all", "-d", "all",
			       NULL), 0);
}
END_TEST

START_TEST(bad_input)
{
	struct nc_opts o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "1x", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "invalid size '1x'"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "2M", "-e", "1M",
			       NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-f", "1", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-n", "0", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-n", "abc", NULL), -1);
	ck_assert_str_eq(err, "invalid number 'abc' for --iters: not a number "
			 "(1 to 100000)");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-C", "gather", NULL),
			 -1);
	ck_assert_str_eq(err, "invalid collective 'gather'");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-d", "fp8", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-T", "5x", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--no-inplace",
			       "--no-outofplace", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-c", "0",
			       "--check-every", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--bogus", NULL), -1);
	ck_assert_str_eq(err, "unknown option '--bogus'");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", NULL), -1);
	ck_assert_str_eq(err, "option '-b' needs an argument (SIZE)");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--jsno", NULL), -1);
	ck_assert_str_eq(err, "unknown option '--jsno' (did you mean "
			      "'--json'?)");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "extra", NULL), -1);
	ck_assert_str_eq(err, "unexpected operand 'extra'");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-h", NULL), 1);
	ck_assert_str_eq(err, "help");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-V", NULL), 1);
	ck_assert_str_eq(err, "version");
}
END_TEST

/* --json: a flag (standard output), or the file after it, as before. */
START_TEST(json_flag_or_file)
{
	struct nc_opts o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "--json", NULL), 0);
	ck_assert_str_eq(o.json_path, "-");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--json", "-n", "3",
			       NULL), 0);
	ck_assert_str_eq(o.json_path, "-");
	ck_assert_int_eq(o.iters, 3);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--json", "run.json",
			       "-b", "1K", NULL), 0);
	ck_assert_str_eq(o.json_path, "run.json");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--json=r.json", NULL),
			 0);
	ck_assert_str_eq(o.json_path, "r.json");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--json", "-", NULL), 0);
	ck_assert_str_eq(o.json_path, "-");
}
END_TEST

START_TEST(gate_options)
{
	struct nc_minbw m;
	struct nc_opts o;
	char err[256];

	ck_assert_int_eq(nc_minbw_parse("300", &m, err, sizeof(err)), 0);
	ck_assert_int_eq(m.coll, -1);
	ck_assert_double_eq(m.gbps, 300);
	ck_assert_uint_eq(m.bytes, 0);
	ck_assert_int_eq(nc_minbw_parse("all_gather:12.5@1G", &m, err,
					sizeof(err)), 0);
	ck_assert_int_eq(m.coll, NC_ALL_GATHER);
	ck_assert_double_eq(m.gbps, 12.5);
	ck_assert_uint_eq(m.bytes, 1ULL << 30);
	ck_assert_int_eq(nc_minbw_parse("gather:1", &m, err, sizeof(err)), -1);
	ck_assert_int_eq(nc_minbw_parse("fast", &m, err, sizeof(err)), -1);
	ck_assert_int_eq(nc_minbw_parse("-3", &m, err, sizeof(err)), -1);
	ck_assert_int_eq(nc_minbw_parse("1@1x", &m, err, sizeof(err)), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--min-busbw", "100",
			       "--min-busbw", "all_reduce:200@8M",
			       "--max-latency", "50us@8", NULL), 0);
	ck_assert_int_eq(o.nminbw, 2);
	ck_assert_int_eq(o.max_latency_us, 50);
	ck_assert_uint_eq(o.latency_bytes, 8);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--max-latency", "x",
			       NULL), -1);
}
END_TEST

Suite *suite_nc_options(void)
{
	Suite *s = suite_create("nc_options");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, defaults);
	tcase_add_test(tc, timing_options);
	tcase_add_test(tc, help_names_every_option);
	tcase_add_test(tc, sweep_options);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, json_flag_or_file);
	tcase_add_test(tc, gate_options);
	suite_add_tcase(s, tc);
	return s;
}
