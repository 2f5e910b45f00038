/* The watchdog tests' child: a function run in a forked process whose
 * stderr comes back, waited for with a bound. */
#ifndef NC_TEST_CHILD_H
#define NC_TEST_CHILD_H

#include <stddef.h>

/* Runs fn(arg) in a child with stderr on a pipe, then `after_us` of
 * sleep and _exit(code). Waits at most 5 s; err gets what it wrote, took
 * how long it ran. Returns its exit status, or -1 when it had to be
 * killed. */
int nc_test_child(void (*fn)(void *), void *arg, long after_us, int code,
                  char *err, size_t len, long long *took);

#endif
