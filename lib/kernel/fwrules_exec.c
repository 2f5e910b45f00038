/* Runs nft, iptables-legacy-save and (for the exemptions from tracking)
 * iptables-nft-save for fwrules_collect (fwrules.h):
 * found by absolute path, output read through a pipe up to a size, the
 * child killed at the deadline. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"
#include "kernel/fwrules.h"

#define FWR_OUT_MAX (8 << 20)

/* The first of the directories holding name, into path. */
static bool find_tool(const char *name, char *path, size_t len)
{
	static const char *const dirs[] = {"/usr/sbin", "/sbin", "/usr/bin",
	                                   "/bin"};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, len, "%s/%s", dirs[i], name);
		if (access(path, X_OK) == 0)
			return true;
	}
	return false;
}

/* Runs argv (argv[0] a bare name) and returns its standard output
 * (malloc'd, NUL-terminated) when it exits 0 within timeout_ms; NULL
 * otherwise (errno ENOMEM only when memory ran out). */
static char *run_tool(const char *const *argv, int timeout_ms)
{
	char path[64], *buf = NULL;
	size_t n = 0, cap = 0;
	long long end = mono_now_us() + timeout_ms * 1000LL;
	int fds[2], st = 0;
	bool ok = true;
	pid_t pid;

	if (!find_tool(argv[0], path, sizeof(path)) ||
	    pipe2(fds, O_CLOEXEC) < 0)
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(fds[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		execv(path, (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	while (ok) {
		ssize_t got;

		if (mono_now_us() >= end ||
		    sock_wait(fds[0], POLLIN, end) <= 0) {
			ok = false;
			break;
		}
		if (n + 65536 + 1 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 131072;
			if (cap > FWR_OUT_MAX ||
			    (nb = realloc(buf, cap)) == NULL) {
				ok = false;
				break;
			}
			buf = nb;
		}
		got = read(fds[0], buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	close(fds[0]);
	if (!ok)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!ok || buf == NULL || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* See fwrules.h. */
char *fwrules_nft_json(int timeout_ms)
{
	static const char *const nft[] = {"nft", "-j", "list", "ruleset", NULL};

	return fwrules_run(nft, timeout_ms);
}

/* See fwrules.h. */
int fwrules_collect(struct fw_rules *r, const char *nft_json, int timeout_ms)
{
	static const char *const ipt[] = {"iptables-legacy-save", "-t",
	                                  "filter", NULL};
	struct fw_rules legacy;
	char *out;

	memset(r, 0, sizeof(*r));
	out = nft_json != NULL ? NULL : fwrules_nft_json(timeout_ms);
	if ((nft_json != NULL || out != NULL) &&
	    fwrules_parse_nft(nft_json != NULL ? nft_json : out, r) < 0)
		memset(r, 0, sizeof(*r));
	free(out);
	/* iptables-legacy's tables are invisible to nft: where they hold
	 * blockers, those are the ones that drop */
	out = run_tool(ipt, timeout_ms);
	if (out != NULL && fwrules_parse_iptables(out, &legacy) == 0 &&
	    legacy.n > 0) {
		bool ufw = r->ufw;

		*r = legacy;
		r->ufw |= ufw;
	}
	free(out);
	/* iptables' exemptions from tracking (issue 48): iptables-nft's
	 * are opaque in nft's JSON, iptables-legacy's invisible to it */
	if (r->backend == FWR_IPTABLES_LEGACY || r->notrack_xt) {
		const char *tool = r->backend == FWR_IPTABLES_LEGACY
		                       ? "iptables-legacy"
		                       : "iptables-nft";
		char save[32];
		const char *const argv[] = {save, NULL};

		snprintf(save, sizeof(save), "%s-save", tool);
		out = run_tool(argv, timeout_ms);
		if (out != NULL)
			fwrules_parse_ipt_notrack(out, tool, r);
		free(out);
	}
	return 0;
}

/* See fwrules.h. */
char *fwrules_run(const char *const *argv, int timeout_ms)
{
	return run_tool(argv, timeout_ms);
}
