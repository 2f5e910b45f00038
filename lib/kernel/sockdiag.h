/* The live system's TCP listeners from the kernel's sock_diag netlink
 * (inet_diag, TCP_LISTEN only): the kernel walks its listening hash
 * alone, where reading /proc/net/tcp walks and prints every socket of the
 * namespace, established ones included. */
#ifndef NP_SOCKDIAG_H
#define NP_SOCKDIAG_H

#include "kernel/sockinfo.h"

/* Calls add for every TCP listener of this network namespace, IPv4 then
 * IPv6 (a kernel without IPv6 is no error); stops when add fails.
 * Returns 0, or -1 with errno (the caller falls back to /proc). Bounded
 * by a 2 s receive timeout and SOCKDIAG_MAX_MSGS messages. */
int sockdiag_listeners(int (*add)(void *arg, const struct sock_listener *l),
                       void *arg);

#define SOCKDIAG_MAX_MSGS 1000000

#endif
