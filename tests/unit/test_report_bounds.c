/* netprobe report's bounds (issue 45): a directory of more documents than
 * the old cap of 4,096 is read whole, a broken file among them named; past
 * the bounds the load refuses by name; a document nested deeper than
 * REPORT_MAX_DEPTH is named and left out, and the JSON report of one
 * nested to the bound stays within four times the document's size. */
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
#include "doc/json_indent.h"
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

#define SCAN_FMT                                                               \
	"{\"schema\":\"netprobe/1\",\"tool\":\"netprobe\",\"command\":"        \
	"\"scan\",\"host\":\"%s\",\"started\":\"2026-11-28T10:00:00Z\","       \
	"\"errors\":[],\"interfaces\":[],\"findings\":[{\"code\":"             \
	"\"link-lossy\",\"severity\":\"warning\",\"summary\":\"deep\","        \
	"\"evidence\":[%s]}]}"

/* A scan document of host whose one finding's evidence is the JSON text
 * ev, malloc'd. */
static char *scan_with_evidence(const char *host, const char *ev)
{
	size_t len = strlen(SCAN_FMT) + strlen(host) + strlen(ev) + 1;
	char *doc = malloc(len);

	ck_assert_ptr_nonnull(doc);
	snprintf(doc, len, SCAN_FMT, host, ev);
	return doc;
}

/* Comma-separated arrays nested depth levels deep ("[[]]" is two), as
 * many as fit in about size bytes, malloc'd. */
static char *nests(int depth, size_t size)
{
	size_t one = 2 * (size_t)depth + 1, n = size / one, k = 0;
	char *s = malloc(n * one + 1);

	ck_assert_ptr_nonnull(s);
	ck_assert_uint_gt(n, 0);
	for (size_t i = 0; i < n; i++) {
		memset(s + k, '[', (size_t)depth);
		memset(s + k + (size_t)depth, ']', (size_t)depth);
		k += 2 * (size_t)depth;
		s[k++] = ',';
	}
	s[k - 1] = '\0';
	return s;
}

/* The JSON report of the set, its length in *len. */
static char *render_json(const struct report_set *set, size_t *len)
{
	struct report_model *m = report_build(set);
	char *buf = NULL;
	FILE *fp;

	ck_assert_ptr_nonnull(m);
	fp = open_memstream(&buf, len);
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(report_render_json(m, fp), 0);
	ck_assert_int_eq(fclose(fp), 0);
	report_model_free(m);
	return buf;
}

/* 206 kB nested 2,000 deep (jansson parses 2,048) was indented at every
 * level: the old report was 2,000 times its size. It is named with where
 * it went too deep and left out; the other document is still reported. */
START_TEST(deep_document_named_and_left_out)
{
	struct report_set set = {0};
	char *ev = nests(2000, 206000), *deep = scan_with_evidence("deep", ev);
	char *ok = scan_with_evidence("ok", "{\"fact\":\"shallow\"}");
	char *out;
	size_t n = 0;

	ck_assert_int_eq(
	    report_load_buffer(&set, "deep.json", deep, strlen(deep)), 0);
	ck_assert_int_eq(report_load_buffer(&set, "ok.json", ok, strlen(ok)),
	                 0);
	ck_assert_uint_eq(set.nskip, 1);
	ck_assert_uint_eq(set.nin, 1);
	ck_assert_str_eq(set.skip[0].path, "deep.json");
	ck_assert_ptr_nonnull(strstr(set.skip[0].why, "nested deeper than"));
	ck_assert_int_eq(set.skip[0].line, 1);
	/* the bracket that went one level past the bound */
	ck_assert_int_eq(set.skip[0].position,
	                 (long)(strstr(deep, "\"evidence\":[") - deep) +
	                     (long)strlen("\"evidence\":[") + REPORT_MAX_DEPTH -
	                     4 + 1);
	ck_assert_int_eq(set.skip[0].column, (int)set.skip[0].position);
	out = render_json(&set, &n);
	ck_assert_uint_lt(n, 4 * strlen(deep));
	free(out);
	report_set_free(&set);
	free(ev);
	free(deep);
	free(ok);
}
END_TEST

/* A 206 kB document nested to the bound is read; its JSON report is at
 * most four times its size (it was 70 times: 15 MB). */
START_TEST(nested_to_the_bound_json_within_4x)
{
	struct report_set set = {0};
	/* the document's own levels: object, findings, finding, evidence */
	char *ev = nests(REPORT_MAX_DEPTH - 4, 206000);
	char *doc = scan_with_evidence("deep", ev), *out;
	json_t *back, *want;
	size_t n = 0;

	ck_assert_int_eq(
	    report_load_buffer(&set, "deep.json", doc, strlen(doc)), 0);
	ck_assert_uint_eq(set.nin, 1);
	out = render_json(&set, &n);
	ck_assert_msg(n <= 4 * strlen(doc), "%zu bytes of JSON for %zu", n,
	              strlen(doc));
	/* still the report's document, whole */
	back = json_loadb(out, n, 0, NULL);
	ck_assert_ptr_nonnull(back);
	want = json_object_get(
	    json_array_get(json_object_get(back, "findings"), 0), "evidence");
	ck_assert_uint_eq(json_array_size(want),
	                  206000 / (2 * (REPORT_MAX_DEPTH - 4) + 1));
	json_decref(back);
	free(out);
	report_set_free(&set);
	free(ev);
	free(doc);
}
END_TEST

/* One more level than the bound is refused, the bound itself read. */
START_TEST(depth_bound_exact)
{
	struct report_set set = {0};
	char *at = nests(REPORT_MAX_DEPTH - 4, 1000);
	char *past = nests(REPORT_MAX_DEPTH - 3, 1000);
	char *a = scan_with_evidence("a", at),
	     *b = scan_with_evidence("b", past);

	ck_assert_int_eq(report_load_buffer(&set, "a.json", a, strlen(a)), 0);
	ck_assert_int_eq(report_load_buffer(&set, "b.json", b, strlen(b)), 0);
	ck_assert_uint_eq(set.nin, 1);
	ck_assert_uint_eq(set.nskip, 1);
	ck_assert_str_eq(set.skip[0].path, "b.json");
	report_set_free(&set);
	free(at);
	free(past);
	free(a);
	free(b);
}
END_TEST

/* json_indent_to: byte-identical to jansson's pretty dump up to the
 * depth, compact past it, the same value either way. */
START_TEST(indent_to_depth)
{
	const char *in = "{\"a\":[1,{\"b\":[[2,3],{\"c\":\"\xc3\xa9\"}]}],"
	                 "\"d\":{}}";
	const char *want2 = "{\n  \"a\": [\n    1,\n    {\"b\":[[2,3],"
	                    "{\"c\":\"\\u00E9\"}]}\n  ],\n  \"d\": {}\n}\n";
	json_t *j = json_loads(in, 0, NULL), *k;
	char *tree =
	    json_dumps(j, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_ENSURE_ASCII);
	size_t n = 0;
	char *got = json_indent_to(in, strlen(in), 2, &n);

	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, want2);
	k = json_loads(got, 0, NULL);
	ck_assert(json_equal(j, k));
	json_decref(k);
	free(got);
	/* deep enough: the tree's dump, byte for byte */
	got = json_indent_to(in, strlen(in), 5, &n);
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_eq(n, strlen(tree) + 1);
	ck_assert_int_eq(memcmp(got, tree, strlen(tree)), 0);
	free(got);
	/* depth 0: one line */
	got = json_indent_to(in, strlen(in), 0, &n);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, "{\"a\":[1,{\"b\":[[2,3],{\"c\":\"\\u00E9\"}]}],"
	                      "\"d\":{}}\n");
	free(got);
	free(tree);
	json_decref(j);
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
	tcase_add_test(tc, deep_document_named_and_left_out);
	tcase_add_test(tc, nested_to_the_bound_json_within_4x);
	tcase_add_test(tc, depth_bound_exact);
	tcase_add_test(tc, indent_to_depth);
	suite_add_tcase(s, tc);
	return s;
}
