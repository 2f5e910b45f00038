/* ncclcheck's CPU-side unit tests: one Check runner over every suite that
 * tests/ncclcheck defines (nc_suites.h, made by the build), linked with
 * collectives/ objects built without CUDA or NCCL. */
#include <check.h>
#include <stdlib.h>

#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(NULL);
	int failed;

#define SUITE(name) srunner_add_suite(sr, name());
#include "nc_suites.h"
#undef SUITE
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
