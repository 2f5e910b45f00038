/* What the report's suites test_report.c and test_report_walk.c share:
 * the model of a recorded fixture folder (unitfix_report_dir). */
#ifndef NP_TEST_REPORT_FX_H
#define NP_TEST_REPORT_FX_H

#include <check.h>
#include <unistd.h>

#include "report_model.h"
#include "unitfix.h"

#define FIXDIR SRCDIR "/tests/fixtures/report"

#endif
