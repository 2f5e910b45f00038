/* netprobe serve's log: rate-limited lines on stderr. */
#include "serve/serve_log.h"

#include <stdarg.h>
#include <stdio.h>

#include "base/monoclock.h"
#include "serve/serve_int.h"

/* Rate-limited log line on stderr, so a flood of bad datagrams cannot
 * flood the log. */
void sv_log(struct server *s, const char *fmt, ...)
{
	long long now = mono_now_us();
	va_list ap;

	if (now - s->log_t_us >= 1000000) {
		if (s->log_suppressed)
			fprintf(stderr,
			        "netprobe serve: %ld log lines "
			        "suppressed\n",
			        s->log_suppressed);
		s->log_t_us = now;
		s->log_budget = 50;
		s->log_suppressed = 0;
	}
	if (s->log_budget <= 0) {
		s->log_suppressed++;
		return;
	}
	s->log_budget--;
	fputs("netprobe serve: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
