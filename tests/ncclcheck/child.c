/* See child.h: the fork, pipe and bounded wait the watchdog tests share. */
#include "child.h"

#include <check.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "bootstrap/bootstrap_io.h"

int nc_test_child(void (*fn)(void *), void *arg, long after_us, int code,
                  char *err, size_t len, long long *took)
{
	int fds[2], status = -1;
	long long t0 = mono_now_us();
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fds[1], 2);
		fn(arg);
		usleep((useconds_t)after_us);
		_exit(code);
	}
	close(fds[1]);
	for (int i = 0; i < 50; i++) { /* at most 5 s */
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		usleep(100000);
	}
	*took = mono_now_us() - t0;
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
