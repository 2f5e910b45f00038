/* json_indent: compact text indented byte for byte as doc_write dumps the
 * tree (node 0 keeps its members' documents so, issue 36), and text that
 * is not JSON refused so that the tree is dumped instead. */
#include <check.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/json_indent.h"

#define FIXDIR SRCDIR "/tests/fixtures/report"

/* Checks that json_indent of j's compact sorted text (as a member sends
 * it) equals j dumped as doc_write dumps it. */
static void same_as_tree(const json_t *j, const char *what)
{
	char *compact = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	char *tree = json_dumps(j, JSON_SORT_KEYS | JSON_INDENT(2) |
	                               JSON_ENSURE_ASCII);
	char *got;
	size_t n = 0, want;

	ck_assert_ptr_nonnull(compact);
	ck_assert_ptr_nonnull(tree);
	got = json_indent(compact, strlen(compact), &n);
	ck_assert_msg(got != NULL, "%s: refused", what);
	want = strlen(tree);
	ck_assert_msg(n == want + 1 && memcmp(got, tree, want) == 0 &&
	                  got[want] == '\n',
	              "%s: differs from the tree's dump", what);
	free(got);
	free(compact);
	free(tree);
}

/* Every recorded and generated document of the report fixtures. */
START_TEST(fixtures_as_the_tree)
{
	const char *sub[] = {"nat", "mesh", "recorded", "golden"};
	int seen = 0;

	for (size_t s = 0; s < sizeof(sub) / sizeof(sub[0]); s++) {
		char dir[1024];
		DIR *d;
		struct dirent *e;

		snprintf(dir, sizeof(dir), "%s/%s", FIXDIR, sub[s]);
		d = opendir(dir);
		ck_assert_ptr_nonnull(d);
		for (int k = 0; k < 200 && (e = readdir(d)) != NULL; k++) {
			char path[2048];
			json_t *j;

			if (strstr(e->d_name, ".json") == NULL)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			j = json_load_file(path, 0, NULL);
			if (j == NULL)
				continue; /* a fixture that is bad on purpose */
			same_as_tree(j, path);
			json_decref(j);
			seen++;
		}
		closedir(d);
	}
	ck_assert_int_ge(seen, 20);
}
END_TEST

/* What the fixtures may lack: empty containers at every depth, escapes,
 * control characters, non-ASCII in and past the BMP, keys to sort,
 * reals, negative and large integers. */
START_TEST(edges_as_the_tree)
{
	json_t *j = json_pack(
	    "{s:{}, s:[], s:[{}, [], [[]], {s:[]}], s:s, s:s, s:s, s:s, "
	    "s:f, s:f, s:I, s:I, s:b, s:n, s:{s:i, s:i, s:i}}",
	    "empty_o", "empty_a", "nest", "x", "quotes", "a \"b\" \\ / c",
	    "ctl", "tab\there\nnl\x01\x1f", "utf8", "caf\xc3\xa9 \xe2\x82\xac",
	    "astral", "\xf0\x9f\x98\x80 grin", "real", 0.1, "small", -1.5e-300,
	    "neg", (json_int_t)-42, "big", (json_int_t)9007199254740993LL,
	    "t", 1, "null", "zeta", "c", 3, "a", 1, "b", 2);

	ck_assert_ptr_nonnull(j);
	same_as_tree(j, "edges");
	json_decref(j);
	j = json_pack("[i, s, [], {}]", 1, "\xc3\xa9");
	same_as_tree(j, "top-level array");
	json_decref(j);
}
END_TEST

/* Text a parser would refuse comes back NULL: the caller dumps the tree. */
START_TEST(not_json_refused)
{
	const char *bad[] = {"",        "{",          "[1,2",   "{\"a\":\"x}",
	                     "]",       "x",          "{}}",    "[1]]",
	                     "{]",      "\"str\"",    "{\"a\":1} x", "{} x", "[] []",
	                     "{\"a\":\"\xff\"}"};
	size_t n;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(json_indent(bad[i], strlen(bad[i]), &n) == NULL,
		              "accepted: %s", bad[i]);
}
END_TEST

Suite *suite_json_indent(void)
{
	Suite *s = suite_create("json_indent");
	TCase *tc = tcase_create("indent");

	tcase_add_test(tc, fixtures_as_the_tree);
	tcase_add_test(tc, edges_as_the_tree);
	tcase_add_test(tc, not_json_refused);
	suite_add_tcase(s, tc);
	return s;
}
