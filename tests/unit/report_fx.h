/* What the report's suites test_report.c and test_report_walk.c share:
 * the model of a recorded fixture folder. */
#ifndef NP_TEST_REPORT_FX_H
#define NP_TEST_REPORT_FX_H

#include <check.h>
#include <unistd.h>

#include "report_model.h"

#define FIXDIR SRCDIR "/tests/fixtures/report"

/* Loads fixture directory `name` relative to FIXDIR (paths in the output
 * stay relative, so goldens do not depend on the checkout). */
static inline struct report_model *merged(const char *name,
                                          struct report_set *set)
{
	ck_assert_int_eq(chdir(FIXDIR), 0);
	ck_assert_int_eq(report_load_path(set, name), 0);
	return report_build(set);
}

#endif
