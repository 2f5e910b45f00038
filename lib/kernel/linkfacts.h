/* What a host knows of its links, as one look: each interface's state,
 * carrier, speed and carrier changes (netlink, sysfs), and each
 * InfiniBand/RoCE port's state, rate and link-loss and error counters
 * (/sys/class/infiniband), through a sysroot; and the changes between
 * two looks, worded for a timeline. */
#ifndef NP_LINKFACTS_H
#define NP_LINKFACTS_H

#include <net/if.h>
#include <stddef.h>

#include "base/sysroot.h"

#define LF_MAX_LINKS 64
#define LF_MAX_PORTS 32
#define LF_NCTR 4 /* link_downed, symbol_error, port_rcv_errors,
		   * link_error_recovery */

struct lf_link {
	char name[IF_NAMESIZE];
	int carrier;              /* 1, 0, -1 unknown */
	int oper_up;              /* IF_OPER_UP: 1, else 0; -1 unknown */
	long long speed_mbps;     /* -1 unknown */
	long long carrier_changes; /* -1 unknown */
};

struct lf_port {
	char dev[32];
	unsigned port;
	int state;      /* 4 ACTIVE, 1 DOWN, ...; -1 unknown */
	int rate_gbps;  /* 0 unknown */
	long long ctr[LF_NCTR]; /* -1 unknown */
};

struct linkfacts {
	long long at_ms; /* wall clock of the look */
	struct lf_link links[LF_MAX_LINKS];
	size_t nlinks;
	struct lf_port ports[LF_MAX_PORTS];
	size_t nports;
};

struct lf_change {
	long long at_ms;
	char subject[48]; /* "eth0", "mlx5_5 port 1" */
	char text[160];   /* "lost its carrier", "went from 400 to 200 Gb/s" */
};

/* The counters' names, as sysfs spells them. */
extern const char *const lf_counter_names[LF_NCTR];

/* One look at sr (loopback left out). Returns 0, or -1 with errno when
 * no interface could be listed. */
int linkfacts_read(struct linkfacts *lf, const struct sysroot *sr,
		   long long at_ms);

/* The changes from a to b, stamped with b's time. Returns how many were
 * written (at most max). */
size_t linkfacts_diff(const struct linkfacts *a, const struct linkfacts *b,
		      struct lf_change *out, size_t max);

/* What one look alone shows (a link down, nonzero link-loss counters):
 * stamped 0, since one look cannot tell when. Returns how many. */
size_t linkfacts_now(const struct linkfacts *lf, struct lf_change *out,
		     size_t max);

#endif
