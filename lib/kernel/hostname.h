/* Resolving names as the frameworks do, bounded in time: the hostname
 * (Gloo binds what it resolves to), MASTER_ADDR, NCCL_COMM_ID, peers. */
#ifndef NP_HOSTNAME_H
#define NP_HOSTNAME_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "base/sysroot.h"

#define HOSTNAME_MAX_ADDRS 8

struct hostname_addr {
	int family;
	union {
		struct in_addr v4;
		struct in6_addr v6;
	} a;
	char str[INET6_ADDRSTRLEN];
	int bindable; /* 1 bind() worked, 0 failed, -1 not tried */
	int bind_errno;
};

struct hostname_info {
	char name[256];       /* "" when unknown */
	char source[64];      /* "gethostname" or "/etc/hostname" */
	char resolved_by[64]; /* "getaddrinfo", "/etc/hosts" or "" */
	struct hostname_addr addrs[HOSTNAME_MAX_ADDRS];
	int naddrs;
	bool resolved;   /* the lookup ran and answered */
	bool live;       /* getaddrinfo was asked (live system) */
	char error[400]; /* why it did not resolve, or "" */
};

/* Fills h: the name (gethostname on the live system, /etc/hostname of a
 * recorded sysroot), its addresses from the sysroot's /etc/hosts and, on
 * the live system, from getaddrinfo (Gloo's order), each tried with
 * bind(). Returns 0 (h->resolved says whether the lookup answered,
 * h->error why not), or -1 with errno when no name could be read. */
int hostname_collect(const struct sysroot *sr, struct hostname_info *h,
                     int timeout_ms);

/* Looks addresses of name up in a hosts file held in buf (the format of
 * hosts(5)), in file order. Returns the number stored in out (at most
 * max). */
int hostname_hosts_lookup(const char *buf, const char *name,
                          struct hostname_addr *out, int max);

/* getaddrinfo of a name or numeric address, bounded by timeout_ms (an
 * unanswered DNS query must not stall the scan). family AF_UNSPEC for
 * both. Returns the number of addresses stored in out, or -1 with a
 * message in err. */
int resolve_bounded(const char *name, int family, struct sockaddr_storage *out,
                    int max, int timeout_ms, char *err, size_t errlen);

/* The binary address inside what resolve_bounded stored: the in_addr of
 * an AF_INET entry, else the in6_addr. Never fails. */
const void *sockaddr_addr(const struct sockaddr_storage *ss);

#endif
