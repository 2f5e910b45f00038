/* Unit tests for the command runtime: the one error wording, the one rule
 * for the document's errors, and where the document is written. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doc/cmdrun.h"

/* A run writing to two memory streams. */
struct fixture {
	struct cmd_run r;
	char *out, *err;
	size_t nout, nerr;
	FILE *fo, *fe;
};

static void fx_start(struct fixture *f, const char *name)
{
	memset(f, 0, sizeof(*f));
	f->fo = open_memstream(&f->out, &f->nout);
	f->fe = open_memstream(&f->err, &f->nerr);
	ck_assert_ptr_nonnull(f->fo);
	ck_assert_ptr_nonnull(f->fe);
	ck_assert_int_eq(cmd_init(&f->r, "netprobe", name, f->fo, f->fe), 0);
	doc_set_fixed(&f->r.doc, "2026-11-21T10:00:00Z", "node1");
}

/* Closes the streams: f->out and f->err hold what was written. */
static void fx_close(struct fixture *f)
{
	fclose(f->fo);
	fclose(f->fe);
}

static void fx_free(struct fixture *f)
{
	free(f->out);
	free(f->err);
}

START_TEST(fail_has_one_wording)
{
	struct fixture f;

	fx_start(&f, "layers");
	ck_assert_int_eq(cmd_fail(&f.r, "sysroot", "cannot use sysroot",
				  "/x", "%s", "No such file or directory"),
			 2);
	ck_assert_int_eq(cmd_fail(&f.r, "netlink", "netlink refused", NULL,
				  "%s", "Operation not permitted"),
			 2);
	ck_assert_int_eq(cmd_fail(&f.r, "peer", "no answer from", "gpu2",
				  NULL),
			 2);
	ck_assert_int_eq(cmd_failf(&f.r, "doc", "out of %s", "memory"), 2);
	ck_assert_int_eq(f.r.nfail, 4);
	ck_assert_int_eq(f.r.doc.nerror, 4);
	ck_assert_int_eq(cmd_finish(&f.r, 2), 2);
	fx_close(&f);
	ck_assert_str_eq(f.err,
			 "netprobe layers: cannot use sysroot '/x': No such "
			 "file or directory\n"
			 "netprobe layers: netlink refused: Operation not "
			 "permitted\n"
			 "netprobe layers: no answer from 'gpu2'\n"
			 "netprobe layers: out of memory\n");
	/* text mode: the document goes nowhere */
	ck_assert_str_eq(f.out, "");
	fx_free(&f);
}
END_TEST

START_TEST(json_document_carries_the_same_errors)
{
	struct fixture f;
	json_t *j, *e;

	fx_start(&f, "scan");
	f.r.json = true;
	cmd_fail(&f.r, "sysroot", "cannot read sysroot", "/nonexistent",
		 "%s", "No such file or directory");
	ck_assert_int_eq(cmd_finish(&f.r, 2), 2);
	fx_close(&f);
	j = json_loads(f.out, 0, NULL);
	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(json_string_value(json_object_get(j, "command")),
			 "scan");
	ck_assert_int_eq(json_array_size(json_object_get(j, "errors")), 1);
	e = json_array_get(json_object_get(j, "errors"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(e, "step")),
			 "sysroot");
	ck_assert_str_eq(json_string_value(json_object_get(e, "message")),
			 "cannot read sysroot '/nonexistent': No such file or "
			 "directory");
	ck_assert_str_eq(f.err, "netprobe scan: cannot read sysroot "
				"'/nonexistent': No such file or directory\n");
	json_decref(j);
	fx_free(&f);
}
END_TEST

START_TEST(output_path_gets_the_document)
{
	struct fixture f;
	char path[] = "/tmp/np-cmdrun-XXXXXX";
	int fd = mkstemp(path);
	json_t *j;

	ck_assert_int_ge(fd, 0);
	close(fd);
	fx_start(&f, "ports");
	f.r.json = true;
	f.r.output = path;
	ck_assert_int_eq(cmd_finish(&f.r, 1), 1);
	fx_close(&f);
	/* -o takes the document; standard output stays for text */
	ck_assert_str_eq(f.out, "");
	j = json_load_file(path, 0, NULL);
	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(json_string_value(json_object_get(j, "command")),
			 "ports");
	json_decref(j);
	unlink(path);
	fx_free(&f);
}
END_TEST

START_TEST(output_over_an_input_is_refused)
{
	struct fixture f;
	char path[] = "/tmp/np-cmdrun-XXXXXX";
	int fd = mkstemp(path);
	char buf[16] = {0};
	FILE *fp;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "secret\n", 7), 7);
	close(fd);
	fx_start(&f, "heartbeat");
	f.r.output = path;
	ck_assert_int_eq(cmd_input(&f.r, path), 0);
	ck_assert_int_eq(cmd_input(&f.r, NULL), 0);
	ck_assert_int_eq(cmd_finish(&f.r, 0), 2);
	fx_close(&f);
	ck_assert_ptr_nonnull(strstr(f.err, "netprobe heartbeat: "));
	ck_assert_ptr_nonnull(strstr(f.err, "input"));
	fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	ck_assert_str_eq(buf, "secret\n");
	unlink(path);
	fx_free(&f);
}
END_TEST

START_TEST(common_options_land_in_the_run)
{
	static const struct cli_cmd cmd = {"netprobe x", "[options]", "x",
					   NULL, 0, NULL};
	char path[] = "/tmp/np-cmdrun-XXXXXX";
	int fd = mkstemp(path);
	char a0[] = "x", a1[] = "-qvv", a2[] = "--json", a3[] = "-o",
	     a4[] = "--no-clobber";
	char *argv[] = {a0, a1, a2, a3, path, a4, NULL};
	char *err = NULL;
	size_t nerr = 0;
	FILE *fe = open_memstream(&err, &nerr);
	struct cmd_run r;
	struct cli cl;

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_ptr_nonnull(fe);
	cmd_begin(&r, "netprobe", "x", NULL, fe);
	ck_assert_int_eq(cmd_cli(&r, &cl, &cmd, 6, argv), 0);
	ck_assert_int_eq(cli_next(&cl), CLI_END);
	ck_assert(r.quiet && r.json && r.no_clobber);
	ck_assert_int_eq(r.verbose, 2);
	ck_assert_str_eq(r.output, path);
	ck_assert_ptr_null(r.doc.root); /* no document before cmd_doc */
	/* --no-clobber and an existing FILE: refused before any work */
	ck_assert_int_eq(cmd_parsed(&r), 2);
	unlink(path);
	ck_assert_int_eq(cmd_parsed(&r), 0);
	fclose(fe);
	ck_assert_ptr_nonnull(strstr(err, "netprobe x: refusing to replace '"));
	ck_assert_ptr_nonnull(strstr(err, "': it exists (--no-clobber)\n"));
	free(err);
}
END_TEST

START_TEST(a_failed_write_is_exit_2)
{
	struct cmd_run r;
	FILE *full = fopen("/dev/full", "w");
	char *err = NULL;
	size_t nerr = 0;
	FILE *fe = open_memstream(&err, &nerr);

	if (full == NULL)
		return; /* no /dev/full: nothing to prove here */
	ck_assert_int_eq(cmd_init(&r, "netprobe", "ifaces", full, fe), 0);
	r.json = true;
	ck_assert_int_eq(cmd_finish(&r, 0), 2);
	fclose(fe);
	fclose(full);
	ck_assert_ptr_nonnull(
	    strstr(err, "netprobe ifaces: cannot write 'stdout': "));
	free(err);
}
END_TEST

START_TEST(status_follows_the_document)
{
	struct fixture f;

	fx_start(&f, "layers");
	ck_assert_int_eq(cmd_status(&f.r, true), 0);
	ck_assert_int_eq(cmd_status(&f.r, false), 2);
	ck_assert_int_eq(cmd_finish(&f.r, cmd_status(&f.r, true)), 0);
	/* after finish the document is gone: no run, no verdict */
	ck_assert_int_eq(cmd_status(&f.r, true), 2);
	fx_close(&f);
	fx_free(&f);
}
END_TEST

START_TEST(a_tool_without_commands)
{
	struct fixture f;

	memset(&f, 0, sizeof(f));
	f.fo = open_memstream(&f.out, &f.nout);
	f.fe = open_memstream(&f.err, &f.nerr);
	ck_assert_int_eq(cmd_init(&f.r, "ncclcheck", NULL, f.fo, f.fe), 0);
	cmd_failf(&f.r, "options", "no GPU");
	ck_assert_int_eq(cmd_finish(&f.r, 2), 2);
	fx_close(&f);
	ck_assert_str_eq(f.err, "ncclcheck: no GPU\n");
	fx_free(&f);
}
END_TEST

START_TEST(notes_and_silent_runs)
{
	struct fixture f;
	struct cmd_run q;

	fx_start(&f, "ifaces");
	cmd_note(&f.r, "no route to '%s'", "gpu2");
	/* a note is no error: the document stays as it was */
	ck_assert_int_eq(f.r.doc.nerror, 0);
	ck_assert_int_eq(f.r.nfail, 0);
	ck_assert_int_eq(cmd_finish(&f.r, 1), 1);
	fx_close(&f);
	ck_assert_str_eq(f.err, "netprobe ifaces: no route to 'gpu2'\n");
	fx_free(&f);
	/* a run inside another command: its document only */
	ck_assert_int_eq(cmd_init(&q, "netprobe", "scan", NULL, NULL), 0);
	ck_assert_int_eq(cmd_failf(&q, "netlink", "cannot list interfaces"),
			 2);
	cmd_note(&q, "nothing printed");
	ck_assert_int_eq(q.doc.nerror, 1);
	q.json = true;
	ck_assert_int_eq(cmd_finish(&q, 2), 2);
}
END_TEST

Suite *suite_cmdrun(void)
{
	Suite *s = suite_create("cmdrun");
	TCase *tc = tcase_create("cmdrun");

	tcase_add_test(tc, fail_has_one_wording);
	tcase_add_test(tc, json_document_carries_the_same_errors);
	tcase_add_test(tc, output_path_gets_the_document);
	tcase_add_test(tc, output_over_an_input_is_refused);
	tcase_add_test(tc, common_options_land_in_the_run);
	tcase_add_test(tc, a_failed_write_is_exit_2);
	tcase_add_test(tc, status_follows_the_document);
	tcase_add_test(tc, a_tool_without_commands);
	tcase_add_test(tc, notes_and_silent_runs);
	suite_add_tcase(s, tc);
	return s;
}
