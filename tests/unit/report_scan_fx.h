/* What the report suites that build a small cluster of scan documents in
 * memory share (test_report_vxlan.c, test_report_vxproxy.c,
 * test_report_neigh.c, test_report_vepa.c; test_report_addrs.c its peer
 * entries): a scan with one interface, the peer entries of a mesh member,
 * loading the members' documents, and counting the findings of a code. */
#ifndef NP_TEST_REPORT_SCAN_FX_H
#define NP_TEST_REPORT_SCAN_FX_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "report_model.h"
#include "unitfix.h"

/* A scan document of one node with one interface, up and running, that
 * holds addr/24; no peer yet. */
struct scanfx_doc {
	const char *node;    /* "host" */
	const char *started; /* its start time, RFC 3339 */
	const char *ifname;  /* the interface */
	long long mtu;
	const char *kind;    /* "veth", "macvlan", ... */
	const char *mode;    /* its "mode", NULL: no such key ... */
	bool mode_null;      /* ... or, when set, "mode": null (a scan's) */
	const char *mac;
	const char *addr;    /* IPv4, its /24 scope global */
	const char *rec_if;  /* the recommendation's interface */
	const char *rec_addr; /* and address */
	bool no_neigh;       /* leave out the (empty) neighbours array */
};

/* The document s describes, with empty findings, errors and peers (and
 * neighbours unless s->no_neigh); the test fails where it cannot be
 * made. */
json_t *scanfx_scan(const struct scanfx_doc *s);

/* Adds to d's peers the entry toward name:7471 at addr, routed out of
 * oif; ok: it answered. A failed one comes with its host-unreachable
 * finding, as a mesh member writes it. */
void scanfx_peer_to(json_t *d, const char *name, const char *addr,
		    const char *oif, bool ok);

/* scanfx_peer_to toward n<x> at 10.231.9.X. */
void scanfx_peer(json_t *d, int x, const char *oif, bool ok);

/* Loads d[1] .. d[n] (taken) into set as n1.json .. nN.json and returns
 * the report built from them. */
struct report_model *scanfx_build(struct report_set *set, json_t *const *d,
				  int n);

/* The findings of code in the model (on node, NULL: any). */
size_t scanfx_count(const struct report_model *m, const char *code,
		    const char *node);

#endif
