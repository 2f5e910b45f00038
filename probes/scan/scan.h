/* What other subcommands take from the scan: its recommendation, made
 * quietly from the same collection `netprobe scan` runs. */
#ifndef NP_SCAN_H
#define NP_SCAN_H

#include <stddef.h>

#include "base/sysroot.h"

/* Runs the scan's local collection (interfaces, routes, layering,
 * hostname, environment; no peers) and recommend() without writing
 * anything. ifname gets the recommended interface, "" when the scan
 * recommends none. Returns 0, or -1 when the scan could not run (errno
 * kept where there is one). */
int scan_recommend_quiet(const struct sysroot *sr, char *ifname, size_t len);

#endif
