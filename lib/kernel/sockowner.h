/* Who holds a TCP port on this host, as `ss -ltnp` tells it: the
 * listener's inode from /proc/net/tcp{,6}, then the process whose
 * /proc/PID/fd links to that socket, all read through a sysroot. */
#ifndef NP_SOCKOWNER_H
#define NP_SOCKOWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/sysroot.h"

#define SOCKOWNER_COMM_MAX 64

struct sock_owner {
	int pid;                       /* 0: not found (no permission) */
	char comm[SOCKOWNER_COMM_MAX]; /* /proc/PID/comm, "" unknown */
	char addr[48];                 /* the listener's local address */
};

/* Parses one row of /proc/net/tcp (v6 false) or tcp6: its local port,
 * state and inode. Returns 1 for a listener row, 0 for another state or
 * the header, -1 with errno EINVAL for a malformed row. */
int sockowner_parse_line(const char *line, bool v6, uint16_t *port,
                         unsigned long *inode, char *addr, size_t addrlen);

/* Finds the listener on TCP port and its process. Returns 0 with *o
 * filled (pid 0 when no process could be named), 1 when nothing listens
 * on port, or -1 with errno when /proc/net/tcp cannot be read. Bounded:
 * at most 65536 processes and 65536 descriptors each are looked at. */
int sockowner_find(const struct sysroot *sr, uint16_t port,
                   struct sock_owner *o);

#endif
