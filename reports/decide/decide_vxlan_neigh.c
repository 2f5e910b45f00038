/* netprobe report, decide: a proxy VXLAN device without the neighbour
 * entry of one peer (issue 48; blind48f 02, flannel-io/flannel#203,
 * fixed by #207). With proxy on, the kernel answers ARP on the device
 * from the device's neighbour table and swallows every request it has
 * no entry for: it never leaves the node. An overlay daemon installs a
 * permanent entry per peer (or, with l3miss, on demand). A member whose
 * proxy device (learning off, l3miss off) holds no static entry for a
 * peer's overlay address, and whose own probes toward that address
 * failed, cannot send to that peer at all (its replies included): a
 * vxlan-proxy-neigh-missing fault on it, with the entry to install at
 * the MAC of the peer's device from the peer's own scan, and the peer
 * it cuts off ("cuts", as decide_names.c's findings). Where the peer's
 * MAC is in no scan, a warning naming the commands that decide. Never
 * on the peer; silent where a setting or the table was not recorded. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "doc/finding.h"
#include "report_decide.h"

/* True when x is an up vxlan device that answers ARP itself and has no
 * other way to resolve a peer: proxy true, learning false, l3miss false,
 * each as recorded (null: an older scan, nothing said). */
static bool proxy_only(const json_t *x)
{
	const json_t *vx = json_object_get(x, "vxlan");

	return strcmp(rj_strd(x, "kind", ""), "vxlan") == 0 &&
	       json_is_object(vx) && rd_has_flag(x, "UP") &&
	       json_is_true(json_object_get(vx, "proxy")) &&
	       json_is_false(json_object_get(vx, "learning")) &&
	       json_is_false(json_object_get(vx, "l3miss"));
}

/* The global IPv4 subnet of x that holds addr: its address and prefix
 * length into *own and *plen; false when none does. */
static bool holds_net(const json_t *x, const char *addr, const char **own,
		      long *plen)
{
	size_t i;
	json_t *ad;

	json_array_foreach(rj_arr(x, "addresses"), i, ad) {
		const char *a = rj_strd(ad, "address", "");
		long l = (long)rj_int(ad, "prefixlen", 0);

		if (strcmp(rj_strd(ad, "scope", ""), "global") == 0 &&
		    strcmp(rj_strd(ad, "family", "inet"), "inet") == 0 &&
		    strcmp(a, addr) != 0 && rd_in_net(addr, a, l)) {
			*own = a;
			*plen = l;
			return true;
		}
	}
	return false;
}

/* True when doc d's `neighbours` hold a usable static entry for addr on
 * device ifn (permanent or noarp, with a link-layer address). */
static bool has_entry(const json_t *d, const char *ifn, const char *addr)
{
	size_t i;
	json_t *e;

	json_array_foreach(rj_arr(d, "neighbours"), i, e) {
		const char *st = rj_strd(e, "state", "");

		if (strcmp(rj_strd(e, "interface", ""), ifn) == 0 &&
		    strcmp(rj_strd(e, "address", ""), addr) == 0 &&
		    rj_strd(e, "lladdr", "")[0] != '\0' &&
		    (strcmp(st, "permanent") == 0 || strcmp(st, "noarp") == 0))
			return true;
	}
	return false;
}

/* See report_decide.h. */
bool rd_vxlan_proxy_lacks(const json_t *d, const json_t *x, const char *addr)
{
	return proxy_only(x) && json_is_array(json_object_get(d, "neighbours")) &&
	       !has_entry(d, rj_strd(x, "name", ""), addr);
}

/* The MAC of the up vxlan device of doc d that holds addr, NULL when
 * none does or it has no MAC. */
static const char *peer_mac(const json_t *d, const char *addr)
{
	size_t i, j;
	json_t *x, *ad;

	json_array_foreach(rj_arr(d, "interfaces"), i, x) {
		if (strcmp(rj_strd(x, "kind", ""), "vxlan") != 0 ||
		    !rd_has_flag(x, "UP"))
			continue;
		json_array_foreach(rj_arr(x, "addresses"), j, ad)
			if (strcmp(rj_strd(ad, "address", ""), addr) == 0)
				return rj_str(x, "mac");
	}
	return NULL;
}

/* The finding of member a, whose proxy device ifn (holding own/plen)
 * lacks the entry for member b's overlay address addr; mac: the MAC of
 * b's device (NULL: not known, a warning that names the commands that
 * decide). */
static void add_missing(struct rctx *c, const char *a, const char *ifn,
			const char *own, long plen, const char *b,
			const char *addr, const char *mac)
{
	char sum[1000], fact[600], cmd[300], fix[1400];
	json_t *ev = json_array(), *f;

	if (ev == NULL)
		return;
	snprintf(fact, sizeof(fact),
		 "%s's %s holds %s/%ld with VXLAN proxy on, learning off and "
		 "l3miss off (ip -d link show %s)",
		 a, ifn, own, plen, ifn);
	json_array_append_new(ev, json_pack("{s:s, s:s, s:s}", "node", a,
					    "fact", fact, "source",
					    "interfaces"));
	snprintf(fact, sizeof(fact),
		 "%s's neighbour table holds no static entry for %s (%s) on "
		 "%s (ip neigh show dev %s)",
		 a, addr, b, ifn, ifn);
	json_array_append_new(ev, json_pack("{s:s, s:s, s:s}", "node", a,
					    "fact", fact, "source",
					    "neighbours"));
	snprintf(fact, sizeof(fact), "%s's connections to %s (%s) fail", a,
		 addr, b);
	json_array_append_new(ev, json_pack("{s:s, s:s, s:s}", "node", a,
					    "fact", fact, "source", "peers"));
	snprintf(sum, sizeof(sum),
		 "%s's overlay device %s answers ARP itself (proxy) from its "
		 "neighbour table, with learning and l3miss off, and holds no "
		 "entry for %s's address %s: the kernel swallows %s's ARP for "
		 "%s, so %s sends nothing to %s over the overlay (its replies "
		 "included) and the pair fails both ways",
		 a, ifn, b, addr, a, addr, a, b);
	if (mac != NULL) {
		snprintf(cmd, sizeof(cmd),
			 "ip neigh replace %s lladdr %s dev %s nud permanent",
			 addr, mac, ifn);
		snprintf(fix, sizeof(fix),
			 "on %s, install the entry with the MAC of %s's overlay "
			 "device (from %s's own scan): %s; and the overlay "
			 "daemon that should install it (flannel: restart it "
			 "on %s), or the entry is missing again when it "
			 "re-creates the device",
			 a, b, b, cmd, a);
	} else {
		snprintf(sum + strlen(sum), sizeof(sum) - strlen(sum),
			 "; %s's device MAC is in no scan here: cannot tell "
			 "which lladdr the entry needs",
			 b);
		snprintf(fix, sizeof(fix),
			 "cannot tell the MAC of %s's overlay device: run ip "
			 "neigh show dev %s on %s (no line, or one INCOMPLETE "
			 "or FAILED, for %s) and ip -d link show on %s (the "
			 "link/ether of the device that holds %s), then on %s: "
			 "ip neigh replace %s lladdr THAT_MAC dev %s nud "
			 "permanent; and the overlay daemon that should "
			 "install it (flannel: restart it)",
			 b, ifn, a, addr, b, addr, a, addr, ifn);
	}
	f = rd_finding(FINDING_VXLAN_PROXY_NEIGH_MISSING, a,
		       mac != NULL ? SEV_FAULT : SEV_WARNING, sum, fix, ev);
	if (f == NULL)
		return;
	if (mac != NULL) {
		json_object_set_new(f, "command", json_string(cmd));
		json_object_set_new(f, "cuts", json_pack("[s]", b));
	}
	json_array_append_new(c->findings, f);
}

/* Member a's probe of address pa (member b's) from device x, which
 * failed: its finding where x holds pa's subnet and no static entry for
 * it, once per address (fired: those done). */
static void probe_failed(struct rctx *c, const char *a, const json_t *doc,
			 const json_t *x, const char *b, const char *pa,
			 json_t *fired)
{
	const char *ifn = rj_strd(x, "name", "");
	const struct report_input *ib;
	const char *own, *mac = NULL;
	long plen;
	size_t k;
	json_t *v;

	if (b == NULL || strcmp(b, a) == 0 || !rd_shell_word(pa, ":") ||
	    !holds_net(x, pa, &own, &plen) || has_entry(doc, ifn, pa) ||
	    rd_node_is_nat(c, b))
		return;
	json_array_foreach(fired, k, v)
		if (strcmp(json_string_value(v), pa) == 0)
			return;
	json_array_append_new(fired, json_string(pa));
	if ((ib = rd_node_scan(c, b)) != NULL)
		mac = peer_mac(ib->doc, pa);
	if (mac != NULL && !rd_shell_word(mac, ":"))
		mac = NULL;
	add_missing(c, a, ifn, own, plen, b, pa, mac);
}

/* Member a's device x: each failed probe of a's toward an address on
 * x's subnet that a member other than a holds (its peers; where a is
 * node 0, the members that never joined and did not answer its probe),
 * without a static entry for it on x. */
static void device(struct rctx *c, const char *a, const json_t *doc,
		   const json_t *x)
{
	const json_t *md = rd_mesh_doc(c);
	const char *h = rj_strd(md, "host", "");
	const char *n0 = h[0] != '\0' ? rn_resolve(c, h, h) : NULL;
	json_t *fired = json_array(), *p;
	size_t i;

	if (fired == NULL || !rd_shell_word(rj_strd(x, "name", ""), ":"))
		goto out;
	json_array_foreach(rj_arr(doc, "peers"), i, p) {
		const char *pa = rj_strd(p, "peer_addr", "");

		if (!json_is_true(json_object_get(p, "responded")))
			probe_failed(c, a, doc, x, rn_resolve(c, pa, pa), pa,
				     fired);
	}
	if (n0 == NULL || strcmp(n0, a) != 0)
		goto out;
	json_array_foreach(rj_arr(json_object_get(md, "mesh"), "members"), i,
			   p)
		if (strcmp(rj_strd(p, "state", ""), "missing") == 0 &&
		    strstr(rj_strd(p, "why", ""), "does not answer node 0") !=
			    NULL)
			probe_failed(c, a, doc, x, rj_str(p, "name"),
				     rj_strd(p, "probed_addr", ""), fired);
out:
	json_decref(fired);
}

/* See report_decide.h. */
void rd_vxlan_proxy_neigh(struct rctx *c)
{
	size_t n = json_array_size(c->nodes), i;
	json_t *x;

	for (size_t k = 0; k < n; k++) {
		const char *a = json_string_value(json_array_get(c->nodes, k));
		const struct report_input *in = rd_node_scan(c, a);

		/* a table not read (null) says nothing of an entry */
		if (in == NULL || rd_node_is_nat(c, a) ||
		    !json_is_array(json_object_get(in->doc, "neighbours")))
			continue;
		json_array_foreach(rj_arr(in->doc, "interfaces"), i, x)
			if (proxy_only(x))
				device(c, a, in->doc, x);
	}
}
