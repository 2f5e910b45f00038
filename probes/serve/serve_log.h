/* netprobe serve's log: lines on stderr, at most 50 a second, so that a
 * flood of bad input cannot flood the log. */
#ifndef NP_SERVE_LOG_H
#define NP_SERVE_LOG_H

struct server;

/* One line, "netprobe serve: " in front, counted against the budget. */
__attribute__((format(printf, 2, 3))) void sv_log(struct server *s,
                                                  const char *fmt, ...);

#endif
