/* Resolving names as the frameworks do, bounded in time: the hostname
 * (Gloo binds what it resolves to), MASTER_ADDR, NCCL_COMM_ID, peers. */
#ifndef NP_HOSTNAME_H
#define NP_HOSTNAME_H

#include <sys/socket.h>

#include "decide.h"
#include "sysroot.h"

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

#endif
