/* The queueing disciplines of this netns's interfaces (issue 48): each
 * interface's root qdisc, and whether it has an ingress or clsact one,
 * over rtnetlink (RTM_GETQDISC, RTM_GETTCLASS). A token bucket (tbf)
 * whose bucket holds less than one full frame drops every such frame,
 * and an htb whose unclassified traffic goes to a direct queue of
 * length 0 drops all of it, while the link, addresses and MTUs are
 * right: what the scan must read before anything blames an MTU. Lists
 * start zeroed. */
#ifndef NP_QDISC_H
#define NP_QDISC_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/nl.h"

struct qdisc_info {
	int ifindex;
	char ifname[IF_NAMESIZE]; /* named by the collector, "" unknown */
	char kind[16];            /* TCA_KIND: "tbf", "htb", "fq_codel" */
	unsigned handle, parent;  /* tcmsg's */
	bool root;                /* parent TC_H_ROOT */
	bool ingress;             /* ingress or clsact (parent ffff:fff1) */
	bool drops_read;
	unsigned long long drops; /* TCA_STATS2/TCA_STATS_QUEUE (or
				   * TCA_STATS) drops */
	/* tbf: rates in bytes a second, times in ns, and the largest
	 * packet it passes (the kernel's q->max_size) */
	bool tbf;
	unsigned long long rate, prate;
	unsigned long long buffer_ns, mtu_ns;
	unsigned limit;            /* bytes queued at most */
	unsigned long long max_size;
	/* htb: its direct queue (unclassified packets) and default class */
	bool htb;
	bool direct_qlen_read;     /* TCA_HTB_DIRECT_QLEN was there */
	unsigned direct_qlen;
	unsigned defcls;           /* minor of the default class */
	int default_leaf;          /* 1 the default class exists as a leaf,
				    * 0 it does not, -1 unread */
	unsigned nclasses;         /* htb classes the class dump gave */
};

#define QDISC_MAX 128

struct qdisc_list {
	struct qdisc_info v[QDISC_MAX];
	size_t n;
	bool truncated; /* more than QDISC_MAX root and ingress qdiscs */
};

/* One RTM_NEWQDISC message into out (zeroed first; unit tests build it
 * in memory). Returns 0, or -1 with errno EINVAL on a malformed message
 * (tbf's and htb's options included). */
int nl_parse_qdisc(const struct nlmsghdr *nlh, struct qdisc_info *out);

/* One RTM_NEWTCLASS message of an htb on q's interface: counts it in
 * q->nclasses and, where it is q's default class (handle
 * q->handle's major : q->defcls), sets q->default_leaf by its level.
 * Returns 0, or -1 with errno EINVAL on a malformed message. */
int nl_parse_tclass(const struct nlmsghdr *nlh, struct qdisc_info *q);

/* The kernel's q->max_size of a tbf (sch_tbf.c): what the rate sends in
 * the bucket's time (psched_ns_t2l: rate * ns / 1e9, less the rate's
 * overhead, by 48/53 on ATM), and with a peak rate no more than it
 * sends in the mtu's time. */
unsigned long long qdisc_tbf_max(unsigned long long rate,
				 unsigned long long ns, unsigned overhead,
				 bool atm);

/* Every root, ingress and clsact qdisc of this netns (one RTM_GETQDISC
 * dump), an htb's classes read (RTM_GETTCLASS), interfaces named. Returns
 * 0, or -1 with errno. */
int qdisc_collect(struct qdisc_list *out);

/* The root qdisc of interface name, or NULL. */
const struct qdisc_info *qdisc_root_of(const struct qdisc_list *l,
				       const char *name);

/* The JSON form, man/netprobe-json.5 section qdiscs (a new reference,
 * NULL on no memory). */
json_t *qdisc_list_to_json(const struct qdisc_list *l);

#endif
