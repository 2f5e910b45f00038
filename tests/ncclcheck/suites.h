/* The suites of ncclcheck's unit-test runner: declared from the list that
 * the build makes of every `Suite *suite_nc_NAME(void)` in tests/ncclcheck
 * (nc_suites.h, mk/ncclcheck.mk), so no suite is registered by hand. */
#ifndef NC_TEST_SUITES_H
#define NC_TEST_SUITES_H
#include <check.h>
#define SUITE(name) Suite *name(void);
#include "nc_suites.h"
#undef SUITE
#endif
