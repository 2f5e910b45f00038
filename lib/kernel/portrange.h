/* The kernel's ephemeral port range (net.ipv4.ip_local_port_range), which
 * Linux uses for IPv4 and IPv6 alike: the ports NCCL, Gloo and torch
 * listen on when no port is given. */
#ifndef NP_PORTRANGE_H
#define NP_PORTRANGE_H

#include "base/sysroot.h"

#define PORT_RANGE_PATH "/proc/sys/net/ipv4/ip_local_port_range"

/* Parses "lo hi" as the file holds it (blanks between, a newline after).
 * Returns 0, or -1 with errno EINVAL (not two numbers, lo 0, lo above hi,
 * hi above 65535, anything after them). */
int port_range_parse(const char *line, unsigned *lo, unsigned *hi);

/* Reads and parses PORT_RANGE_PATH through the sysroot. Returns 0, or -1
 * with errno (from the read, or EINVAL). */
int port_range_read(const struct sysroot *sr, unsigned *lo, unsigned *hi);

#endif
