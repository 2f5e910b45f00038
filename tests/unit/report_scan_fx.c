/* The scan documents and peer entries the report's cluster suites built
 * each by hand, written once (report_scan_fx.h). */
#include "report_scan_fx.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

/* The format of scanfx_scan's document; m is the interface's "mode":
 * "?" writes null for NULL, "*" leaves the key out. */
#define SCANFX_FMT(m)                                                        \
	"{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:[{s:s, s:I, s:s, s:s" m     \
	", s:s, s:[s,s], s:[{s:s, s:s, s:i, s:s}]}], s:{s:s, s:s}, s:[]}"

/* See report_scan_fx.h: the fields every member's scan carries, so the
 * suites differ only in the interface they describe. */
json_t *scanfx_scan(const struct scanfx_doc *s)
{
	json_t *d = json_pack(
		s->mode_null ? SCANFX_FMT("?") : SCANFX_FMT("*"), "schema",
		"netprobe/1", "tool", "netprobe", "command", "scan", "host",
		s->node, "started", s->started, "findings", "errors",
		"interfaces", "name", s->ifname, "mtu", (json_int_t)s->mtu,
		"kind", s->kind, "mode", s->mode, "mac", s->mac, "flags", "UP",
		"RUNNING", "addresses", "address", s->addr, "family", "inet",
		"prefixlen", 24, "scope", "global", "recommendation",
		"interface", s->rec_if, "address", s->rec_addr, "peers");

	ck_assert_ptr_nonnull(d);
	if (!s->no_neigh)
		ck_assert_int_eq(json_object_set_new(d, "neighbours",
						     json_array()),
				 0);
	return d;
}

/* See report_scan_fx.h: the one way the suites write a member's peer
 * entry, so theirs differ only in the peer, its address and the route. */
void scanfx_peer_to(json_t *d, const char *name, const char *addr,
		    const char *oif, bool ok)
{
	char p[128], sum[256];

	snprintf(p, sizeof(p), "%s:7471", name);
	json_array_append_new(
		rj_arr(d, "peers"),
		json_pack("{s:s, s:s, s:b, s:s, s:{s:s, s:s, s:n, s:i}}",
			  "peer", p, "peer_addr", addr, "responded", ok, "error",
			  ok ? "" : "timed out", "route", "destination", addr,
			  "out_interface", oif, "gateway", "table", 254));
	if (ok)
		return;
	snprintf(sum, sizeof(sum),
		 "peer %s cannot be reached: connections to %s time out", p,
		 addr);
	json_array_append_new(
		rj_arr(d, "findings"),
		json_pack("{s:s, s:s, s:s, s:[]}", "code", "host-unreachable",
			  "severity", "fault", "summary", sum, "evidence"));
}

/* See report_scan_fx.h. */
void scanfx_peer(json_t *d, int x, const char *oif, bool ok)
{
	char name[16], addr[32];

	snprintf(name, sizeof(name), "n%d", x);
	snprintf(addr, sizeof(addr), "10.231.9.%d", x);
	scanfx_peer_to(d, name, addr, oif, ok);
}

/* See report_scan_fx.h: the documents are named as the members'
 * files would be, which the report shows. */
struct report_model *scanfx_build(struct report_set *set, json_t *const *d,
				  int n)
{
	char fn[24];

	for (int i = 1; i <= n; i++) {
		snprintf(fn, sizeof(fn), "n%d.json", i);
		unitfix_load_doc(set, fn, d[i]);
	}
	return report_build(set);
}

/* See report_scan_fx.h. */
size_t scanfx_count(const struct report_model *m, const char *code,
		    const char *node)
{
	size_t i, n = 0;
	json_t *f;

	json_array_foreach(rj_arr(report_doc(m), "findings"), i, f)
		n += strcmp(rj_strd(f, "code", ""), code) == 0 &&
		     (node == NULL ||
		      strcmp(rj_strd(f, "node", ""), node) == 0);
	return n;
}
