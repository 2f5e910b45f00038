/* ncclcheck's CPU-side unit tests: one Check runner over the suites below,
 * linked with collectives/ objects built without CUDA or NCCL. */
#include <check.h>
#include <stdlib.h>

#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(suite_nc_formulas());
	int failed;

	srunner_add_suite(sr, suite_nc_options());
	srunner_add_suite(sr, suite_nc_gate());
	srunner_add_suite(sr, suite_nc_bootstrap());
	srunner_add_suite(sr, suite_nc_preflight());
	srunner_add_suite(sr, suite_nc_launch());
	srunner_add_suite(sr, suite_nc_nccllog());
	srunner_add_suite(sr, suite_nc_output());
	srunner_add_suite(sr, suite_nc_watchdog());
	srunner_add_suite(sr, suite_nc_say());
	srunner_add_suite(sr, suite_nc_finish());
	srunner_add_suite(sr, suite_nc_hooks());
	srunner_add_suite(sr, suite_nc_pf_exchange());
	srunner_add_suite(sr, suite_nc_hooks_release());
	srunner_add_suite(sr, suite_nc_tcpstore());
	srunner_add_suite(sr, suite_nc_pf_round());
	srunner_add_suite(sr, suite_nc_hw());
	srunner_add_suite(sr, suite_nc_pairs());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
