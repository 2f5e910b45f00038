/* Unit tests for the end of a run: the verdict's findings, the exit status
 * of rank 0 and of the others, rank 0's files, and the message for a file
 * that cannot be written. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/finish.h"
#include "suites.h"

/* Two ranks, one all_reduce size measured in both placements. */
static void sample(struct nc_run *run, struct nc_opts *o, long long wrong)
{
	struct nc_result r = { .coll = NC_ALL_REDUCE, .dtype = NC_FLOAT,
			       .op = NC_SUM, .bytes = 1024, .count = 256,
			       .time_us = 10, .algbw_gbps = 0.1,
			       .busbw_gbps = 0.1, .wrong = 0, .iters = 20 };

	memset(run, 0, sizeof(*run));
	memset(o, 0, sizeof(*o));
	o->ncolls = 1;
	o->colls[0] = NC_ALL_REDUCE;
	o->check = true;
	o->quiet = true;
	run->o = o;
	run->launcher = "mpi";
	run->nranks = 2;
	run->nprocs = 2;
	run->gpus_per_proc = 1;
	run->started = "2026-11-21T10:00:00Z";
	run->host = "gpu-a";
	nc_results_add(&run->res, &r);
	r.in_place = true;
	r.wrong = wrong;
	nc_results_add(&run->res, &r);
}

START_TEST(verdict_findings)
{
	struct nc_run run;
	struct nc_opts o;

	sample(&run, &o, 3);
	o.minbw[0] = (struct nc_minbw){ .coll = -1, .gbps = 100 };
	o.nminbw = 1;
	nc_run_verdict(&run);
	ck_assert(run.gate_ran);
	ck_assert(!run.gate.passed);
	ck_assert_int_eq(run.nfindings, 2);
	ck_assert_str_eq(run.findings[0].code, "wrong-results");
	ck_assert_str_eq(run.findings[0].summary, "all_reduce float sum 1024 B "
			 "in-place: 3 wrong elements");
	ck_assert_str_eq(run.findings[1].code, "busbw-below-threshold");
	ck_assert_str_eq(run.findings[1].summary, "min-busbw all_reduce: peak "
			 "busbw 0.10 GB/s at 1024 B, minimum 100.00 GB/s");
	nc_results_free(&run.res);
	/* a clean run adds nothing and passes */
	sample(&run, &o, 0);
	o.nminbw = 0;
	nc_run_verdict(&run);
	ck_assert(run.gate.passed);
	ck_assert_int_eq(run.nfindings, 0);
	nc_results_free(&run.res);
}
END_TEST

START_TEST(status)
{
	struct nc_run run;
	struct nc_opts o;

	sample(&run, &o, 0);
	run.gate.passed = true;
	ck_assert_int_eq(nc_run_status(&run, true, true), 0);
	ck_assert_int_eq(nc_run_status(&run, true, false), 0);
	/* stopped before the sweep with nothing to say: could not run */
	ck_assert_int_eq(nc_run_status(&run, false, true), 2);
	ck_assert_int_eq(nc_run_status(&run, false, false), 1);
	run.gate.passed = false;
	ck_assert_int_eq(nc_run_status(&run, true, true), 1);
	/* only rank 0 sees the gate */
	ck_assert_int_eq(nc_run_status(&run, true, false), 0);
	nc_run_error(&run, "nccl", "init failed");
	ck_assert_int_eq(nc_run_status(&run, false, false), 2);
	ck_assert_int_eq(nc_run_status(&run, true, false), 1);
	nc_run_finding(&run, FINDING_RANK_UNREACHABLE, -1, "rank 1");
	ck_assert_int_eq(nc_run_status(&run, false, true), 1);
	nc_results_free(&run.res);
}
END_TEST

/* Reads a whole small file into a static buffer ("" when absent). */
static const char *slurp(const char *path)
{
	static char buf[4096];
	FILE *fp = fopen(path, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (fp != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, fp);
		fclose(fp);
	}
	buf[n] = '\0';
	return buf;
}

START_TEST(files_of_rank0)
{
	struct nc_run run;
	struct nc_opts o;
	char dir[] = "/tmp/nc-finish-XXXXXX", csv[64], junit[64], json[64];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(csv, sizeof(csv), "%s/r.csv", dir);
	snprintf(junit, sizeof(junit), "%s/r.xml", dir);
	snprintf(json, sizeof(json), "%s/r.json", dir);
	sample(&run, &o, 0);
	o.csv_path = csv;
	o.junit_path = junit;
	o.json_path = json;
	/* the other ranks write nothing */
	ck_assert_int_eq(nc_run_finish(&run, 1, true, "p"), 0);
	ck_assert_int_ne(access(csv, F_OK), 0);
	ck_assert(!run.gate_ran);
	ck_assert_int_eq(nc_run_finish(&run, 0, true, "p"), 0);
	ck_assert(run.gate_ran && run.gate.passed);
	ck_assert_ptr_nonnull(strstr(slurp(csv), "all_reduce,float,sum"));
	ck_assert_ptr_nonnull(strstr(slurp(junit), "<testsuite"));
	ck_assert_ptr_nonnull(strstr(slurp(json), "\"tool\": \"ncclcheck\""));
	unlink(csv);
	unlink(junit);
	unlink(json);
	rmdir(dir);
	nc_results_free(&run.res);
}
END_TEST

START_TEST(cannot_write)
{
	struct nc_run run;
	struct nc_opts o;
	FILE *tmp = tmpfile();
	int saved = dup(2);
	char got[512] = "";
	size_t n;

	ck_assert_ptr_nonnull(tmp);
	sample(&run, &o, 5);
	o.csv_path = "/nonexistent-nc-dir/r.csv";
	fflush(stderr);
	dup2(fileno(tmp), 2);
	/* the file is said to be missing; the verdict stands */
	ck_assert_int_eq(nc_run_finish(&run, 0, true, "ncclcheck: rank 0 on h"),
			 1);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(got, 1, sizeof(got) - 1, tmp);
	got[n] = '\0';
	fclose(tmp);
	/* the output file's writer (base/outfile) says why */
	ck_assert_str_eq(got, "ncclcheck: rank 0 on h: cannot write "
			 "'/nonexistent-nc-dir/r.csv': No such file or "
			 "directory\n");
	ck_assert_str_eq(run.findings[0].code, "wrong-results");
	nc_results_free(&run.res);
}
END_TEST

Suite *suite_nc_finish(void)
{
	Suite *s = suite_create("nc_finish");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, verdict_findings);
	tcase_add_test(tc, status);
	tcase_add_test(tc, files_of_rank0);
	tcase_add_test(tc, cannot_write);
	suite_add_tcase(s, tc);
	return s;
}
