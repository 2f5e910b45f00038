/* Unit tests for the emitters: the JSON document's contract keys, CSV,
 * JUnit escaping and the table line. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/output.h"
#include "suites.h"

/* A run of two ranks with one result and one finding. */
static void sample(struct nc_run *run, struct nc_opts *o,
		   struct nc_rankinfo *ri, struct nc_pair *pr)
{
	struct nc_result r = { .coll = NC_ALL_REDUCE, .dtype = NC_FLOAT,
			       .op = NC_SUM, .bytes = 1024, .count = 256,
			       .time_us = 10.5, .algbw_gbps = 0.1,
			       .busbw_gbps = 0.1, .wrong = 0, .iters = 20 };

	memset(run, 0, sizeof(*run));
	memset(o, 0, sizeof(*o));
	o->ncolls = 1;
	o->colls[0] = NC_ALL_REDUCE;
	o->check = true;
	run->o = o;
	run->launcher = "mpi";
	run->nranks = 2;
	run->nprocs = 2;
	run->gpus_per_proc = 1;
	run->nhosts = 1;
	memset(ri, 0, 2 * sizeof(*ri));
	for (int i = 0; i < 2; i++) {
		ri[i].rank = i;
		snprintf(ri[i].host, sizeof(ri[i].host), "gpu-a");
		snprintf(ri[i].gpu, sizeof(ri[i].gpu), "NVIDIA H200");
		ri[i].nccl_version = 22803;
		ri[i].cuda_runtime = 13000;
		ri[i].driver = 13000;
	}
	run->ranks = ri;
	pr[0] = (struct nc_pair){ .from = 0, .to = 1, .ok = true };
	run->pairs = pr;
	run->npairs = 1;
	run->preflight_ran = true;
	nc_results_add(&run->res, &r);
	nc_gate_eval(o, &run->res, 2, false, &run->gate);
	run->gate_ran = true;
	snprintf(run->nccl.t[0].kind, sizeof(run->nccl.t[0].kind), "NET/Socket");
	snprintf(run->nccl.t[0].iface, sizeof(run->nccl.t[0].iface), "lo");
	run->nccl.nt = 1;
	nc_run_finding(run, FINDING_WRONG_RESULTS, -1, "a <test> & \"quote\"");
	run->started = "2026-11-21T10:00:00Z";
	run->host = "gpu-a";
}

START_TEST(json_contract)
{
	struct nc_run run;
	struct nc_opts o;
	struct nc_rankinfo ri[2];
	struct nc_pair pr[1];
	struct doc d = { 0 };
	json_t *x;

	sample(&run, &o, ri, pr);
	ck_assert_int_eq(nc_build_doc(&d, &run), 0);
	ck_assert_str_eq(json_string_value(json_object_get(d.root, "tool")),
			 "ncclcheck");
	ck_assert_ptr_null(json_object_get(d.root, "command"));
	x = json_array_get(json_object_get(d.root, "ranks"), 1);
	ck_assert_str_eq(json_string_value(json_object_get(x, "nccl_version")),
			 "2.28.3");
	ck_assert_str_eq(json_string_value(json_object_get(x, "cuda_runtime")),
			 "13.0");
	ck_assert_ptr_nonnull(json_object_get(x, "pci_bus_id"));
	ck_assert_ptr_nonnull(json_object_get(x, "shm_bytes"));
	x = json_object_get(json_object_get(d.root, "preflight"), "pairs");
	ck_assert_int_eq(json_array_size(x), 1);
	x = json_array_get(json_object_get(d.root, "transports"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(x, "iface")), "lo");
	x = json_array_get(json_object_get(d.root, "results"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(x, "collective")),
			 "all_reduce");
	ck_assert_int_eq(json_integer_value(json_object_get(x, "bytes")), 1024);
	ck_assert(json_is_false(json_object_get(x, "in_place")));
	ck_assert_ptr_nonnull(json_object_get(x, "busbw_gbps"));
	x = json_object_get(json_object_get(d.root, "peak"), "all_reduce");
	ck_assert_int_eq(json_integer_value(json_object_get(x, "bytes")), 1024);
	x = json_object_get(d.root, "gate");
	ck_assert(json_is_true(json_object_get(x, "passed")));
	ck_assert_int_ge(json_array_size(json_object_get(x, "checks")), 2);
	ck_assert(doc_has_finding(&d, "wrong-results"));
	ck_assert_int_eq(doc_exit_status(&d, true), 1);
	doc_free(&d);
	nc_results_free(&run.res);
}
END_TEST

/* Reads what an emitter wrote into a memory stream. */
static char *capture(int (*fn)(FILE *, const struct nc_run *),
		     const struct nc_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_int_eq(fn(fp, run), 0);
	fclose(fp);
	return buf;
}

START_TEST(csv_junit_table)
{
	struct nc_run run;
	struct nc_opts o;
	struct nc_rankinfo ri[2];
	struct nc_pair pr[1];
	char *s, *buf = NULL;
	size_t len = 0;
	FILE *fp;

	sample(&run, &o, ri, pr);
	s = capture(nc_write_csv, &run);
	ck_assert_str_eq(s, "collective,dtype,op,root,in_place,bytes,count,"
			 "time_us,algbw_gbps,busbw_gbps,wrong,iters\n"
			 "all_reduce,float,sum,-1,0,1024,256,10.500,0.100,"
			 "0.100,0,20\n");
	free(s);
	s = capture(nc_write_junit, &run);
	ck_assert_ptr_nonnull(strstr(s, "a &lt;test&gt; &amp; &quot;quote"
				     "&quot;"));
	ck_assert_ptr_nonnull(strstr(s, "failures=\"1\""));
	free(s);
	fp = open_memstream(&buf, &len);
	nc_table_row(fp, &run.res.v[0], NULL);
	fclose(fp);
	ck_assert_str_eq(buf, "          1024           256     float     sum"
			 "      -1     10.50     0.10     0.10       0       N/A"
			 "      N/A      N/A     N/A\n");
	free(buf);
	nc_results_free(&run.res);
}
END_TEST

Suite *suite_nc_output(void)
{
	Suite *s = suite_create("nc_output");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, json_contract);
	tcase_add_test(tc, csv_junit_table);
	suite_add_tcase(s, tc);
	return s;
}
