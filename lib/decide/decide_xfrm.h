/* IPsec (xfrm) policies with no state behind them (issue 48, blind48c
 * 03: policies left after the IPsec service stopped): the kernel drops
 * every packet a policy with a required template matches while no SA
 * serves it. xfrm-policy-no-state, from kernel/xfrm.h's dumps and this
 * node's addresses. */
#ifndef NP_DECIDE_XFRM_H
#define NP_DECIDE_XFRM_H

#include "doc/doc.h"
#include "kernel/iface.h"
#include "kernel/xfrm.h"

/* Adds an xfrm-policy-no-state fault for each policy of db (dir out, or
 * in; action allow; a selector of addresses only) that covers one of
 * this node's global addresses on its side and overlaps that address's
 * own subnet (where the peers are) on the other, one of whose required
 * templates (not level use) no state serves, with the ip xfrm policy
 * delete command. Silent for db NULL, unread or truncated, for block
 * policies, forward policies, policies toward other subnets, and where
 * a state with the template's protocol, mode, reqid and address
 * exists. Returns 0, or -1 on no memory. */
int decide_xfrm(const struct xfrm_db *db, const struct iface_list *ifs,
                struct doc *d);

#endif
