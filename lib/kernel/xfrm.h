/* The kernel's IPsec (xfrm) policies and states over NETLINK_XFRM
 * (issue 48, blind48c 03): policies left after the IPsec service stopped
 * match traffic with no SA behind them, and the kernel drops it. */
#ifndef NP_XFRM_H
#define NP_XFRM_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/netlink.h>

#define XF_MAX 32  /* policies, and states, kept */
#define XF_TMPL 4  /* templates of one policy kept */

/* An address with its prefix length. */
struct xf_addr {
	int family; /* AF_INET, AF_INET6 */
	unsigned char a[16];
	unsigned plen;
};

/* One template: the SA a matching packet needs. */
struct xf_tmpl {
	unsigned char daddr[16], saddr[16];
	int family;
	unsigned proto; /* IPPROTO_ESP, IPPROTO_AH, IPPROTO_COMP */
	unsigned mode;  /* 0 transport, 1 tunnel */
	unsigned reqid;
	bool optional; /* level use: no SA, no drop */
};

struct xf_policy {
	unsigned dir;    /* XFRM_POLICY_IN, OUT, FWD */
	unsigned action; /* XFRM_POLICY_ALLOW, BLOCK */
	struct xf_addr src, dst;
	/* the selector names more than addresses (a transport, ports, an
	 * interface): not judged */
	bool narrow;
	unsigned index, priority;
	struct xf_tmpl t[XF_TMPL];
	size_t nt;
	bool tmpl_truncated;
};

struct xf_state {
	int family;
	unsigned char daddr[16], saddr[16];
	unsigned proto, mode, reqid, spi;
};

struct xfrm_db {
	bool read; /* both dumps answered */
	struct xf_policy p[XF_MAX];
	size_t np;
	struct xf_state s[XF_MAX];
	size_t ns;
	bool truncated; /* more than XF_MAX of either */
};

/* Adds the policy or state one XFRM_MSG_NEWPOLICY or XFRM_MSG_NEWSA
 * message carries (as a dump answers them) to db; other types and
 * per-socket policies are skipped. Returns 0, or -1 with errno EINVAL
 * on a message too short for its type. */
int xfrm_parse_msg(const struct nlmsghdr *nlh, struct xfrm_db *db);

/* Dumps the policies and states of this network namespace into db
 * (emptied first; db->read set when both dumps answered). Returns 0, or
 * -1 with errno when the bus refused (EPERM unprivileged). */
int xfrm_collect(struct xfrm_db *db);

/* The address a (family's size) as text. */
const char *xfrm_addr_text(int family, const unsigned char *a, char *buf,
                           size_t len);

#endif
