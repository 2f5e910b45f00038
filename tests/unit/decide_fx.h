/* What the scan deciders' suites (test_decide.c, test_decide_net.c)
 * share: interfaces, documents and hostname addresses built in memory. */
#ifndef NP_TEST_DECIDE_FX_H
#define NP_TEST_DECIDE_FX_H

#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "decide/decide.h"
#include "kernel/hostname.h"

#define UPRUN (IFF_UP | IFF_RUNNING)

/* Adds an interface of a kind with flags and an optional address. */
static inline struct iface *add(struct iface_list *l, const char *name,
                                enum iface_kind kind, unsigned flags,
                                const char *addr, unsigned plen)
{
	struct iface *ifc = iface_list_add(l);
	unsigned char buf[16];

	ck_assert_ptr_nonnull(ifc);
	snprintf(ifc->name, sizeof(ifc->name), "%s", name);
	ifc->index = (int)l->n;
	ifc->kind = kind;
	ifc->flags = flags;
	ifc->carrier = (flags & IFF_RUNNING) ? 1 : 0;
	if (addr != NULL) {
		int fam = strchr(addr, ':') ? AF_INET6 : AF_INET;
		unsigned scope = 0;

		ck_assert_int_eq(inet_pton(fam, addr, buf), 1);
		if (fam == AF_INET6 && strncmp(addr, "fe80", 4) == 0)
			scope = 253;
		if (kind == IFK_LOOPBACK)
			scope = 254;
		ck_assert_int_eq(iface_add_addr(ifc, fam, buf, plen, scope), 0);
	}
	return ifc;
}

/* lo, eth0 10.231.0.1/24 and eth1 10.231.1.1/24. */
static inline void two_lans(struct iface_list *l)
{
	add(l, "lo", IFK_LOOPBACK, UPRUN | IFF_LOOPBACK, "127.0.0.1", 8);
	add(l, "eth0", IFK_PHYSICAL, UPRUN, "10.231.0.1", 24);
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
