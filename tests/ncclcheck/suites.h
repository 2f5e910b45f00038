/* The suites of ncclcheck's unit-test runner. */
#ifndef NC_TEST_SUITES_H
#define NC_TEST_SUITES_H
#include <check.h>
Suite *suite_nc_formulas(void);
Suite *suite_nc_options(void);
Suite *suite_nc_gate(void);
Suite *suite_nc_bootstrap(void);
Suite *suite_nc_preflight(void);
Suite *suite_nc_launch(void);
Suite *suite_nc_nccllog(void);
Suite *suite_nc_output(void);
Suite *suite_nc_watchdog(void);
Suite *suite_nc_say(void);
Suite *suite_nc_finish(void);
Suite *suite_nc_hooks(void);
Suite *suite_nc_pf_exchange(void);
Suite *suite_nc_hooks_release(void);
Suite *suite_nc_tcpstore(void);
Suite *suite_nc_pf_round(void);
Suite *suite_nc_hw(void);
Suite *suite_nc_pairs(void);
#endif
