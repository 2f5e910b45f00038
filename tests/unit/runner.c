/* The one Check runner: every suite named in the generated suites.h. */
#include <check.h>
#include <stdlib.h>

int main(void)
{
	SRunner *sr = srunner_create(NULL);
	int failed;

#define SUITE(name) srunner_add_suite(sr, name());
#include "suites.h"
#undef SUITE
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
