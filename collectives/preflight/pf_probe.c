/* The pre-flight's reachability test (preflight.h): which processes each
 * one tests, and the parallel TCP connects to them. No CUDA, no NCCL. */
#include "preflight/preflight.h"
#include "bootstrap/bootstrap.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sock.h"

/* All pairs for small N, doubling offsets beyond. */
int nc_preflight_targets(int me, int n, int *out, int max)
{
	int k = 0;

	if (n <= NC_PREFLIGHT_ALL_PAIRS) {
		for (int i = 0; i < n && k < max; i++)
			if (i != me)
				out[k++] = i;
		return k;
	}
	for (int d = 1; d < n && k < max; d *= 2) {
		int t = (me + d) % n;
		bool dup = false;

		for (int i = 0; i < k; i++)
			dup |= out[i] == t;
		if (!dup && t != me)
			out[k++] = t;
	}
	return k;
}

/* What a connect got, as a noun phrase that reads after one rank or
 * several ("connects from ranks 0-2: timed out"). */
static const char *err_word(int e)
{
	switch (e) {
	case ETIMEDOUT:
		return "timed out";
	case ECONNREFUSED:
		return "refused";
	case EHOSTUNREACH:
		return "host unreachable";
	case ENETUNREACH:
		return "network unreachable";
	case EACCES:
	case EPERM:
		return "prohibited";
	default:
		return "failed";
	}
}

/* Non-blocking connects polled together; one deadline for all. */
int nc_preflight_probe(int me, const struct nc_rankinfo *byproc,
		       const int *targets, int nt, int listen_fd,
		       long long timeout_us, struct nc_pair *out)
{
	struct pollfd pf[NC_PREFLIGHT_MAX_TARGETS + 1];
	int fds[NC_PREFLIGHT_MAX_TARGETS];
	long long deadline = mono_now_us() + timeout_us;
	int pending = 0;

	if (nt > NC_PREFLIGHT_MAX_TARGETS)
		nt = NC_PREFLIGHT_MAX_TARGETS;
	for (int i = 0; i < nt; i++) {
		const struct nc_rankinfo *t = &byproc[targets[i]];
		struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
					  .ai_flags = AI_NUMERICHOST |
						      AI_NUMERICSERV };
		struct addrinfo *res = NULL;
		char ps[16];

		out[i].from = me;
		out[i].to = targets[i];
		out[i].ok = false;
		snprintf(out[i].error, sizeof(out[i].error), "fail");
		fds[i] = -1;
		snprintf(ps, sizeof(ps), "%d", t->port);
		if (t->address[0] == '\0' ||
		    getaddrinfo(t->address, ps, &hints, &res) != 0) {
			snprintf(out[i].error, sizeof(out[i].error),
				 "no address");
			continue;
		}
		fds[i] = socket(res->ai_family,
				SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fds[i] >= 0 &&
		    sock_connect_start(fds[i], res->ai_addr,
				       res->ai_addrlen) < 0) {
			snprintf(out[i].error, sizeof(out[i].error), "%s",
				 err_word(errno));
			close(fds[i]);
			fds[i] = -1;
		} else if (fds[i] >= 0) {
			pending++;
		}
		freeaddrinfo(res);
	}
	while (mono_now_us() < deadline) {
		int n = 0, map[NC_PREFLIGHT_MAX_TARGETS + 1];

		for (int i = 0; i < nt; i++)
			if (fds[i] >= 0) {
				pf[n].fd = fds[i];
				pf[n].events = POLLOUT;
				map[n++] = i;
			}
		if (listen_fd >= 0) {
			pf[n].fd = listen_fd;
			pf[n].events = POLLIN;
			map[n++] = -1;
		}
		if (pending == 0)
			break;
		if (poll(pf, (nfds_t)n, mono_left_ms(deadline, 100)) <= 0)
			continue;
		for (int k = 0; k < n; k++) {
			int i = map[k], err;

			if (pf[k].revents == 0)
				continue;
			if (i < 0) {
				int c = accept4(listen_fd, NULL, NULL,
						SOCK_CLOEXEC);

				if (c >= 0)
					close(c);
				continue;
			}
			err = sock_error(fds[i]);
			out[i].ok = err == 0;
			snprintf(out[i].error, sizeof(out[i].error), "%s",
				 err == 0 ? "" : err_word(err));
			close(fds[i]);
			fds[i] = -1;
			pending--;
		}
	}
	for (int i = 0; i < nt; i++)
		if (fds[i] >= 0) {
			snprintf(out[i].error, sizeof(out[i].error), "%s",
				 err_word(ETIMEDOUT));
			close(fds[i]);
		}
	return nt;
}

