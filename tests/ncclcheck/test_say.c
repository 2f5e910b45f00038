/* Unit tests for ncclcheck's message line: prefix, format, and the cut of
 * an overlong message. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "results/say.h"
#include "suites.h"

START_TEST(line)
{
	char *buf = NULL, big[2000];
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	nc_say_to(fp, "ncclcheck: rank 2 on gpu-b", "cannot write '%s'", "x");
	fclose(fp);
	ck_assert_str_eq(buf, "ncclcheck: rank 2 on gpu-b: cannot write 'x'\n");
	free(buf);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	buf = NULL;
	fp = open_memstream(&buf, &len);
	nc_say_to(fp, "p", "%s", big);
	fclose(fp);
	/* "p: ", the text cut to NC_SAY_MAX, the newline */
	ck_assert_uint_eq(len, 3 + NC_SAY_MAX + 1);
	ck_assert_int_eq(buf[len - 1], '\n');
	free(buf);
}
END_TEST

Suite *suite_nc_say(void)
{
	Suite *s = suite_create("nc_say");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, line);
	suite_add_tcase(s, tc);
	return s;
}
