/* The local socket table: TCP listeners read from /proc/net/tcp and
 * /proc/net/tcp6 through a sysroot, to tell a service bound to loopback
 * only (peers cannot reach it) from one bound to every address. */
#ifndef NP_SOCKINFO_H
#define NP_SOCKINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/sysroot.h"

struct sock_listener {
	int family;       /* AF_INET or AF_INET6 */
	uint8_t addr[16]; /* network order; 4 bytes used for AF_INET */
	uint16_t port;
	/* sock_diag only (0 from /proc): the accept queue now and its
	 * cap, listen()'s backlog bounded by net.core.somaxconn */
	uint32_t queued, backlog;
};

struct sock_table {
	struct sock_listener *v;
	size_t n, cap;
};

/* How a port is bound on this host. */
enum sock_binding {
	SOCK_BIND_NONE = 0,      /* nothing listens */
	SOCK_BIND_LOOPBACK_ONLY, /* only 127.0.0.0/8, ::1, ::ffff:127.x */
	SOCK_BIND_REACHABLE,     /* a wildcard or a non-loopback address */
};

/* One row of the table: both ends, the state and the retransmissions. */
struct sock_row {
	int family;        /* AF_INET or AF_INET6 */
	uint8_t laddr[16]; /* network order; 4 bytes used for AF_INET */
	uint16_t lport;
	uint8_t raddr[16];
	uint16_t rport;
	unsigned state;    /* TCP_* of include/net/tcp_states.h */
	unsigned retrans;  /* "retrnsmt": a request's SYN-ACKs resent */
};

/* Parses one line of /proc/net/tcp (family AF_INET) or tcp6 (AF_INET6).
 * Returns 1 and fills *out for a socket row, 0 for the header line, -1
 * with errno EINVAL for a malformed line. */
int sockinfo_parse_row(const char *line, int family, struct sock_row *out);

/* As sockinfo_parse_row, for listeners: returns 1 and fills *out for a
 * socket in LISTEN, 0 for another state or the header line, -1 with
 * errno EINVAL for a malformed line. */
int sockinfo_parse_line(const char *line, int family,
			struct sock_listener *out);

/* Counts the half-open connections (SYN-RECV) on local port lport from
 * peer (an AF_INET or AF_INET6 address, IPv4-mapped matching IPv4) whose
 * SYN-ACK was sent again at least min_retrans times: the peer's SYN
 * reached this host, our answer never got its ACK. Returns the count, or
 * -1 with errno when /proc/net/tcp cannot be read. */
int sockinfo_synrecv(const struct sysroot *sr, int family, const void *peer,
		     uint16_t lport, unsigned min_retrans);

/* Reads the TCP listeners of the sysroot's /proc/net/tcp and tcp6 into t
 * (appending; a missing tcp6 is no error). Returns 0, or -1 with errno
 * when /proc/net/tcp cannot be read or memory ran out. */
int sockinfo_listeners(const struct sysroot *sr, struct sock_table *t);

/* How port is bound, from the table. */
enum sock_binding sockinfo_binding(const struct sock_table *t, uint16_t port);

/* True for 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104. */
bool sockinfo_is_loopback(int family, const uint8_t *addr);

/* Releases the table; safe on a zeroed one. */
void sockinfo_free(struct sock_table *t);

#endif
