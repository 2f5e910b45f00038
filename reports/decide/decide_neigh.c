/* netprobe report, decide: a static neighbour entry that outlived a peer's
 * NIC (issue 48; moby/moby#36069). Node a holds a PERMANENT (or NOARP)
 * neighbour entry for address A with MAC M (its scan's `neighbours`),
 * while the one member that holds A reports another MAC for the
 * interface that holds it: a's frames to that member go to a MAC nobody
 * there owns, so the pair fails and no other. A neigh-stale-static
 * fault on a, with the command that points the entry at the owner's MAC
 * and the peer it cuts off ("cuts", as decide_names.c's findings).
 *
 * Silent where unsure: no member holds A (a router's, a box's: cannot
 * tell), two members hold it (a VIP), the owner's interface has no MAC
 * or is its loopback (an LVS-DR VIP), M is a VRRP virtual MAC or one of
 * the owner's own interfaces' (a second NIC answers as well), the owner
 * sits behind NAT, or the pair did not fail. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "doc/finding.h"
#include "report_decide.h"

/* True when MAC m (text) is a VRRP virtual router's: 00:00:5e:00:01:XX
 * (IPv4) or 00:00:5e:00:02:XX (IPv6), RFC 5798 section 7.3. */
static bool vrrp_mac(const char *m)
{
	return strncasecmp(m, "00:00:5e:00:01:", 15) == 0 ||
	       strncasecmp(m, "00:00:5e:00:02:", 15) == 0;
}

/* The one member but a whose scan holds address addr on an interface
 * other than loopback: its name, and that interface into *ifc. NULL
 * when none does, or when more than one address of that kind is held (a
 * VIP that moves between members). */
static const char *owner_of(const struct rctx *c, const char *a,
			    const char *addr, const json_t **ifc)
{
	size_t n = json_array_size(c->nodes), i, j;
	const char *who = NULL;
	json_t *fi, *ad;

	*ifc = NULL;
	for (size_t k = 0; k < n; k++) {
		const char *b = json_string_value(json_array_get(c->nodes, k));
		const struct report_input *ib = rd_node_scan(c, b);

		if (ib == NULL)
			continue;
		json_array_foreach(rj_arr(ib->doc, "interfaces"), i, fi)
			json_array_foreach(rj_arr(fi, "addresses"), j, ad) {
				if (strcmp(rj_strd(ad, "address", ""), addr))
					continue;
				if (strcmp(b, a) == 0 || who != NULL)
					return NULL; /* a's own, or twice */
				who = b;
				*ifc = fi;
			}
	}
	return who;
}

/* True when doc d has an interface whose MAC is m. */
static bool has_mac(const json_t *d, const char *m)
{
	size_t i;
	json_t *fi;

	json_array_foreach(rj_arr(d, "interfaces"), i, fi)
		if (strcasecmp(rj_strd(fi, "mac", ""), m) == 0)
			return true;
	return false;
}

/* Whether the static entry e of node a is stale against its owner: the
 * owner's name into *owner and the MAC it holds the address with into
 * *mac when it is. */
static bool stale_entry(const struct rctx *c, const char *a, const json_t *e,
			const char **owner, const char **mac)
{
	const char *m = rj_strd(e, "lladdr", "");
	const json_t *ifc;
	const struct report_input *ib;
	const char *b = owner_of(c, a, rj_strd(e, "address", ""), &ifc);

	if (b == NULL || (ib = rd_node_scan(c, b)) == NULL ||
	    strcmp(rj_strd(ifc, "kind", ""), "loopback") == 0 ||
	    rj_str(ifc, "mac") == NULL || m[0] == '\0' || vrrp_mac(m) ||
	    has_mac(ib->doc, m) || rd_node_is_nat(c, b))
		return false;
	*owner = b;
	*mac = rj_str(ifc, "mac");
	return true;
}

/* The neigh-stale-static finding of node a's static entry e, stale
 * against owner b's MAC m, appended to c->findings. */
static void add_stale(struct rctx *c, const char *a, const json_t *e,
		      const char *b, const char *m)
{
	const char *addr = rj_strd(e, "address", "");
	const char *dev = rj_strd(e, "interface", "");
	const char *old = rj_strd(e, "lladdr", "");
	char sum[900], fact[600], cmd[300], fix[1600];
	json_t *ev = json_array(), *f;

	snprintf(fact, sizeof(fact),
		 "%s holds a %s neighbour entry for %s on %s: lladdr %s", a,
		 rj_strd(e, "state", "permanent"), addr, dev, old);
	json_array_append_new(ev, json_pack("{s:s, s:s}", "fact", fact,
					    "source", "neighbours"));
	snprintf(fact, sizeof(fact),
		 "%s holds %s with MAC %s; no interface of %s has %s", b,
		 addr, m, b, old);
	json_array_append_new(ev, json_pack("{s:s, s:s}", "fact", fact,
					    "source", "interfaces"));
	snprintf(fact, sizeof(fact), "connections between %s and %s fail", a,
		 b);
	json_array_append_new(ev, json_pack("{s:s, s:s}", "fact", fact,
					    "source", "peers"));
	/* replace, not delete: the entry was set by hand (ARP-spoofing
	 * hardening keeps one per peer), so it stays static, with the MAC
	 * the owner's own scan reports */
	snprintf(cmd, sizeof(cmd), "ip neigh replace %s lladdr %s dev %s nud "
		 "permanent", addr, m, dev);
	snprintf(sum, sizeof(sum),
		 "%s holds a static neighbour entry for %s (%s) with MAC %s, "
		 "which no interface of %s has (it holds %s with %s): "
		 "nothing %s sends %s arrives",
		 a, addr, b, old, b, addr, m, a, b);
	snprintf(fix, sizeof(fix),
		 "point %s's entry at %s's MAC: %s (or delete it, ip neigh "
		 "del %s dev %s, and let ARP resolve it); then the same where "
		 "it is configured (/etc/ethers with arp -f, a [Neighbor] "
		 "section of systemd-networkd, an ifupdown post-up line), or "
		 "the old MAC comes back at boot",
		 a, b, cmd, addr, dev);
	f = rd_finding(FINDING_NEIGH_STALE_STATIC, a, SEV_FAULT, sum, fix, ev);
	if (f == NULL)
		return;
	json_object_set_new(f, "command", json_string(cmd));
	json_object_set_new(f, "cuts", json_pack("[s]", b));
	json_array_append_new(c->findings, f);
}

/* See report_decide.h. */
int rd_neigh_toward(const struct rctx *c, const char *a, const char *b)
{
	const struct report_input *in = rd_node_scan(c, a);
	const json_t *ns = in != NULL ? json_object_get(in->doc, "neighbours")
				      : NULL;
	const char *owner, *mac;
	size_t i;
	json_t *e;

	if (!json_is_array(ns))
		return -1;
	json_array_foreach(ns, i, e)
		if (stale_entry(c, a, e, &owner, &mac) &&
		    strcmp(owner, b) == 0)
			return 1;
	return 0;
}

/* See report_decide.h. */
void rd_neigh_stale(struct rctx *c)
{
	size_t n = json_array_size(c->nodes), i;
	json_t *e;

	for (size_t k = 0; k < n; k++) {
		const char *a = json_string_value(json_array_get(c->nodes, k));
		const struct report_input *in = rd_node_scan(c, a);
		const struct report_input *ib;
		const char *b, *m;

		if (in == NULL || rd_node_is_nat(c, a))
			continue;
		json_array_foreach(rj_arr(in->doc, "neighbours"), i, e) {
			if (!stale_entry(c, a, e, &b, &m) ||
			    !rd_shell_word(rj_strd(e, "address", ""), ":@") ||
			    !rd_shell_word(rj_strd(e, "interface", ""), ":@") ||
			    !rd_shell_word(m, ":@") ||
			    (ib = rd_node_scan(c, b)) == NULL ||
			    (!rd_failed_toward(c, in->doc, b) &&
			     !rd_failed_toward(c, ib->doc, a)))
				continue;
			add_stale(c, a, e, b, m);
		}
	}
}
