/* Waits on sockets by a deadline (monoclock.h's clock): readiness, and a
 * non-blocking TCP connect from start to its SO_ERROR. poll(2) interrupted
 * by a signal is restarted; only the deadline ends a wait. */
#ifndef NP_SOCK_H
#define NP_SOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

/* What sock_connect returns besides 0 (connected) and -1 (failed, errno
 * says why: connect's own error, the socket's SO_ERROR, or poll's). */
enum sock_rc {
	SOCK_EXPIRED = -2, /* the deadline came first; errno ETIMEDOUT */
};

/* Waits until fd has one of events or deadline_us passes. Returns the
 * revents (> 0, POLLERR and POLLHUP included), 0 when the deadline passed
 * first (errno ETIMEDOUT), -1 with errno when poll failed. */
int sock_wait(int fd, short events, long long deadline_us);

/* The socket's pending error (SO_ERROR, which reading clears), or
 * getsockopt's own errno when it cannot be read; 0 when there is none. */
int sock_error(int fd);

/* True when the connect of the non-blocking socket fd has finished,
 * either way (writable, or in error), asked without waiting: at a deadline,
 * a handshake the caller has not yet seen may have completed in time. */
bool sock_connect_done(int fd);

/* Starts the connect of the non-blocking socket fd to sa, for a caller
 * that waits on many at once. Returns 1 while it is in flight (it ends
 * when fd is writable; sock_error then says how), 0 when it connected at
 * once, -1 with errno when it failed at once. */
int sock_connect_start(int fd, const struct sockaddr *sa, socklen_t len);

/* Connects the non-blocking socket fd (set up and bound by the caller) to
 * sa before deadline_us. Returns 0 when connected, SOCK_EXPIRED when the
 * deadline came first (errno ETIMEDOUT), -1 with errno otherwise. The
 * caller closes fd either way. */
int sock_connect(int fd, const struct sockaddr *sa, socklen_t len,
                 long long deadline_us);

/* addr:port into ss: a numeric address of either family, an IPv6 one
 * with its zone ("fe80::1%eth0") too (the probes that take a peer's
 * resolved address). Returns its length, or 0 when addr does not
 * parse. */
socklen_t sock_numeric_addr(const char *addr, uint16_t port,
                            struct sockaddr_storage *ss);

#endif
