/* bench/mesh/loopmesh.sh's two helpers, for hosts without ip(8) or
 * /usr/bin/time (the lent GPU host):
 *   loopmesh_util lo-up               brings lo up in this namespace
 *   loopmesh_util rusage FILE CMD...  runs CMD, writes
 *                                     "wall_s,user_s,sys_s,maxrss_kib"
 *                                     to FILE, exits with CMD's status */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/monoclock.h"

/* SIOCSIFFLAGS on lo: what `ip link set lo up` does. */
static int lo_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		perror("loopmesh_util: socket");
		return 2;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		perror("loopmesh_util: SIOCGIFFLAGS lo");
		close(fd);
		return 2;
	}
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0) {
		perror("loopmesh_util: SIOCSIFFLAGS lo");
		close(fd);
		return 2;
	}
	close(fd);
	return 0;
}

/* Seconds of a timeval. */
static double secs(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

/* Runs argv, waits for it (it is bounded by the caller's timeout) and
 * writes its wall time and resource use to file. */
static int rusage_run(const char *file, char **argv)
{
	long long t0, t1;
	struct rusage ru;
	int st = 0;
	pid_t pid;
	FILE *f;

	t0 = mono_now_us();
	pid = fork();
	if (pid < 0) {
		perror("loopmesh_util: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		perror("loopmesh_util: exec");
		_exit(127);
	}
	while (wait4(pid, &st, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("loopmesh_util: wait4");
			return 2;
		}
	t1 = mono_now_us();
	f = fopen(file, "w");
	if (f == NULL) {
		perror(file);
		return 2;
	}
	fprintf(f, "%.3f,%.2f,%.2f,%ld\n",
	        (double)(t1 - t0) / 1e6,
	        secs(ru.ru_utime), secs(ru.ru_stime), ru.ru_maxrss);
	if (fclose(f) != 0) {
		perror(file);
		return 2;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "lo-up") == 0)
		return lo_up();
	if (argc >= 4 && strcmp(argv[1], "rusage") == 0)
		return rusage_run(argv[2], argv + 3);
	fprintf(stderr, "usage: loopmesh_util lo-up | rusage FILE CMD...\n");
	return 2;
}
