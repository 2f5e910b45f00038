/* Forced into every unit-test file: declares each suite function that the
 * generated suites.h names, so suite files need no header of their own. */
#ifndef NP_SUITES_DECL_H
#define NP_SUITES_DECL_H
#include <check.h>
#define SUITE(name) Suite *name(void);
#include "suites.h"
#undef SUITE
#endif
