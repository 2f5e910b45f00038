/* netprobe report's bounds (issue 45): a directory of more documents than
 * the old cap of 4,096 is read whole, a broken file among them named; past
 * the bounds the load refuses by name. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "report_emit.h"

#define SMALL_DOC                                                              \
	"{\"schema\":\"netprobe/1\",\"tool\":\"netprobe\",\"command\":"        \
	"\"ifaces\",\"host\":\"n%05d\",\"interfaces\":[]}\n"

/* A fresh directory under /tmp, its path in buf. */
static void make_dir(char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/np-rbounds-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(buf));
}

/* Writes n files dir/n00000.json on (small documents, or empty when
 * empty is set), the one numbered broken (-1: none) a broken document. */
static void make_docs(const char *dir, int n, int broken, bool empty)
{
	char path[512], text[256];

	for (int i = 0; i < n; i++) {
		int fd, k = 0;

		snprintf(path, sizeof(path), "%s/n%05d.json", dir, i);
		if (i == broken)
			k = snprintf(text, sizeof(text), "{\"schema\":");
		else if (!empty)
			k = snprintf(text, sizeof(text), SMALL_DOC, i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write(fd, text, (size_t)k), k);
		ck_assert_int_eq(close(fd), 0);
	}
}

/* Removes what make_docs wrote (n files) and the directory. */
static void remove_docs(const char *dir, int n)
{
	char path[512];

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/n%05d.json", dir, i);
		unlink(path);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}

/* True when path ends with tail. */
static bool ends_with(const char *path, const char *tail)
{
	size_t a = strlen(path), b = strlen(tail);

	return a >= b && strcmp(path + a - b, tail) == 0;
}

/* The old loader read the first 4,096 files of a directory and dropped
 * the rest without a word, a broken one among them included. */
START_TEST(dir_past_4096_read_whole)
{
	struct report_set set = {0};
	char dir[64];

	make_dir(dir, sizeof(dir));
	make_docs(dir, 4098, 4097, false);
	ck_assert_int_eq(report_load_path(&set, dir), 0);
	ck_assert_uint_eq(set.nin, 4097);
	ck_assert_uint_eq(set.nskip, 1);
	ck_assert(ends_with(set.skip[0].path, "/n04097.json"));
	ck_assert_ptr_nonnull(strstr(set.skip[0].why, "malformed JSON"));
	ck_assert_int_gt(set.skip[0].line, 0);
	report_set_free(&set);
	remove_docs(dir, 4098);
}
END_TEST

/* Past the bound on files a directory is refused before any is read,
 * naming the first file that would not be; a file operand past it too. */
START_TEST(files_past_the_bound_refused_by_name)
{
	struct report_set set = {.max_files = 10};
	char dir[64], path[512];

	make_dir(dir, sizeof(dir));
	make_docs(dir, 12, -1, false);
	errno = 0;
	ck_assert_int_eq(report_load_path(&set, dir), -1);
	ck_assert_int_eq(errno, E2BIG);
	ck_assert_uint_eq(set.nin + set.nskip, 0);
	ck_assert_ptr_nonnull(set.over);
	ck_assert(ends_with(set.over, "/n00010.json"));
	ck_assert_ptr_nonnull(strstr(set.overwhy, "more than 10 documents"));
	report_set_free(&set);

	set = (struct report_set){.max_files = 10};
	for (int i = 0; i < 10; i++) {
		snprintf(path, sizeof(path), "%s/n%05d.json", dir, i);
		ck_assert_int_eq(report_load_path(&set, path), 0);
	}
	snprintf(path, sizeof(path), "%s/n%05d.json", dir, 10);
	ck_assert_int_eq(report_load_path(&set, path), -1);
	ck_assert_int_eq(errno, E2BIG);
	ck_assert_str_eq(set.over, path);
	ck_assert_uint_eq(set.nin, 10);
	/* once full, every later call is refused alike */
	ck_assert_int_eq(report_load_path(&set, dir), -1);
	ck_assert_str_eq(set.over, path);
	report_set_free(&set);
	remove_docs(dir, 12);
}
END_TEST

/* Past the bound on bytes in all, the file that would pass it is named;
 * those before it are kept. */
START_TEST(bytes_past_the_bound_refused_by_name)
{
	struct report_set set = {.max_bytes = 300};
	char dir[64];
	size_t one = (size_t)snprintf(NULL, 0, SMALL_DOC, 0);

	make_dir(dir, sizeof(dir));
	make_docs(dir, 8, -1, false);
	ck_assert_int_eq(report_load_path(&set, dir), -1);
	ck_assert_int_eq(errno, E2BIG);
	ck_assert_uint_eq(set.nin, 300 / one);
	ck_assert_ptr_nonnull(set.over);
	ck_assert_ptr_nonnull(strstr(set.overwhy, "more than 300 bytes"));
	{
		char tail[32];

		snprintf(tail, sizeof(tail), "/n%05zu.json", 300 / one);
		ck_assert(ends_with(set.over, tail));
	}
	report_set_free(&set);
	remove_docs(dir, 8);
}
END_TEST

/* Runs cmd_report on args with standard error into err (len bytes, NUL
 * terminated). Returns the exit status. */
static int run_report_err(const char *const *args, char *err, size_t len)
{
	char *argv[16], path[] = "/tmp/np-rbounds-err-XXXXXX";
	int argc = 0, fd = mkstemp(path), saved, rc;
	ssize_t got;

	ck_assert_int_ge(fd, 0);
	for (; args[argc] != NULL && argc < 15; argc++)
		argv[argc] = (char *)args[argc];
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	ck_assert_int_ge(saved, 0);
	ck_assert_int_ge(dup2(fd, STDERR_FILENO), 0);
	rc = cmd_report(argc, argv);
	fflush(stderr);
	ck_assert_int_ge(dup2(saved, STDERR_FILENO), 0);
	close(saved);
	got = pread(fd, err, len - 1, 0);
	ck_assert_int_ge(got, 0);
	err[got] = '\0';
	close(fd);
	unlink(path);
	return rc;
}

/* The command at the real bound: REPORT_MAX_FILES + 1 files, exit 2, the
 * first file not read named on standard error, nothing read (the files
 * are empty: one read would be named as empty). */
START_TEST(command_refuses_past_max_files)
{
	char dir[64], err[4096], out[128], want[128];
	int n = REPORT_MAX_FILES + 1;

	make_dir(dir, sizeof(dir));
	make_docs(dir, n, -1, true);
	snprintf(out, sizeof(out), "%s.out", dir);
	ck_assert_int_eq(
	    run_report_err((const char *[]){"report", "-o", out, dir, NULL},
	                   err, sizeof(err)),
	    2);
	snprintf(want, sizeof(want), "'%s/n%05d.json'", dir, REPORT_MAX_FILES);
	ck_assert_msg(strstr(err, want) != NULL, "%s not named: %s", want, err);
	ck_assert_ptr_nonnull(strstr(err, "more than 65536 documents"));
	ck_assert_ptr_null(strstr(err, "empty file"));
	ck_assert_int_ne(access(out, F_OK), 0);
	remove_docs(dir, n);
}
END_TEST

Suite *suite_report_bounds(void)
{
	Suite *s = suite_create("report_bounds");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, dir_past_4096_read_whole);
	tcase_add_test(tc, files_past_the_bound_refused_by_name);
	tcase_add_test(tc, bytes_past_the_bound_refused_by_name);
	tcase_add_test(tc, command_refuses_past_max_files);
	suite_add_tcase(s, tc);
	return s;
}
