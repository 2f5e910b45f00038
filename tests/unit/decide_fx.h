/* What the scan deciders' suites (test_decide.c, test_decide_net.c,
 * test_recommend.c, test_advertise.c, test_decide_setsel.c) share:
 * interfaces, documents and hostname addresses built in memory. */
#ifndef NP_TEST_DECIDE_FX_H
#define NP_TEST_DECIDE_FX_H

#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/decide.h"
#include "kernel/hostname.h"
#include "unitfix.h"

/* The suites' short name for unitfix_iface (unitfix.h). */
static inline struct iface *add(struct iface_list *l, const char *name,
                                enum iface_kind kind, unsigned flags,
                                const char *addr, unsigned plen)
{
	return unitfix_iface(l, name, kind, flags, addr, plen);
}

/* lo and eth0 10.231.0.1/24. */
static inline void one_lan(struct iface_list *l)
{
	unitfix_lo(l);
	add(l, "eth0", IFK_PHYSICAL, UPRUN, "10.231.0.1", 24);
}

/* lo, eth0 10.231.0.1/24 and eth1 10.231.1.1/24. */
static inline void two_lans(struct iface_list *l)
{
	one_lan(l);
	add(l, "eth1", IFK_PHYSICAL, UPRUN, "10.231.1.1", 24);
}

/* A fresh document for one decider run. */
static inline void doc_start(struct doc *d)
{
	ck_assert_int_eq(doc_init(d, "netprobe", "scan"), 0);
}

/* One hostname address, bind result given. */
static inline void host_addr(struct hostname_info *h, const char *a,
                             int bindable)
{
	struct hostname_addr *x = &h->addrs[h->naddrs++];
	int fam = strchr(a, ':') ? AF_INET6 : AF_INET;

	x->family = fam;
	ck_assert_int_eq(inet_pton(fam, a, &x->a), 1);
	snprintf(x->str, sizeof(x->str), "%s", a);
	x->bindable = bindable;
	x->bind_errno = bindable == 0 ? 99 : 0;
	h->resolved = true;
}

#endif
