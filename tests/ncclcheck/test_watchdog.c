/* Unit tests for the last-resort watchdog, in forked children: past its
 * deadline it ends the process with exit 1 and the named error. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootstrap/bootstrap.h"
#include "suites.h"
#include "bootstrap/watchdog.h"

/* Runs a child that arms (and maybe disarms, or nests a longer deadline
 * inside and restores, as the abort of a failed step does) the watchdog,
 * then blocks for 3 s; returns its exit status and its stderr. */
static int child(bool disarm, bool nest, char *err, size_t len,
		 long long *took_us)
{
	int fds[2], status = -1;
	long long t0 = sc_now_us();
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fds[1], 2);
		nc_wd_start("ncclcheck: rank 0 on test");
		nc_wd_arm(sc_now_us() + 200000, "all_reduce float sum 8 B");
		if (disarm)
			nc_wd_disarm();
		if (nest) {
			struct nc_wd_state st;

			nc_wd_save(&st);
			nc_wd_arm(sc_now_us() + 10000000, "ncclCommAbort");
			nc_wd_restore(&st);
		}
		usleep(disarm ? 500000 : 3000000);
		_exit(0);
	}
	close(fds[1]);
	for (int i = 0; i < 50; i++) { /* at most 5 s */
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		usleep(100000);
	}
	*took_us = sc_now_us() - t0;
	n = read(fds[0], err, len - 1);
	err[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	if (!WIFEXITED(status)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -1;
	}
	return WEXITSTATUS(status);
}

START_TEST(fires)
{
	char err[512];
	long long us;

	ck_assert_int_eq(child(false, false, err, sizeof(err), &us), 1);
	ck_assert_ptr_nonnull(strstr(err, "ncclcheck: rank 0 on test: "
				     "collective-timeout: start: all_reduce "
				     "float sum 8 B did not return within"));
	ck_assert_int_lt(us, 2000000);
}
END_TEST

START_TEST(disarmed)
{
	char err[512];
	long long us;

	ck_assert_int_eq(child(true, false, err, sizeof(err), &us), 0);
	ck_assert_str_eq(err, "");
}
END_TEST

/* The abort's own deadline does not disarm the failed step's. */
START_TEST(nested_keeps_outer)
{
	char err[512];
	long long us;

	ck_assert_int_eq(child(false, true, err, sizeof(err), &us), 1);
	ck_assert_ptr_nonnull(strstr(err, "all_reduce float sum 8 B did not "
				     "return within"));
	ck_assert_int_lt(us, 2000000);
}
END_TEST

Suite *suite_nc_watchdog(void)
{
	Suite *s = suite_create("nc_watchdog");
	TCase *tc = tcase_create("fork");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, fires);
	tcase_add_test(tc, disarmed);
	tcase_add_test(tc, nested_keeps_outer);
	suite_add_tcase(s, tc);
	return s;
}
