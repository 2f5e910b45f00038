/* netprobe report, decide: names and addresses that cut one node off from
 * some of its peers, each from that node's own state (issue 48): a hosts
 * entry that maps a peer's name to an address no member holds
 * (hosts-stale), an address whose prefix is narrower than its LAN's
 * (prefix-narrow), a bridge (a Docker network's) whose connected route
 * takes a peer's address (bridge-route-shadow), a macvlan that fails with
 * its own parent host alone (macvlan-parent). Each finding is on the
 * node whose state is wrong, carries the one command that fixes it there
 * and names the peers it cuts off ("cuts"): the pairs it explains are no
 * one else's fault and no undecided pair. A hosts entry is judged for
 * IPv4 and IPv6 alike; the prefix, bridge and macvlan cases for IPv4. */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

/* The IPv4 netmask of prefix length len (1..32), network order. */
static uint32_t mask_of(long len)
{
	return htonl(len >= 32 ? 0xffffffffu : ~(0xffffffffu >> len));
}

/* True when a lies in net/len (IPv4 text); false on bad input. */
static bool in_net(const char *a, const char *net, long len)
{
	struct in_addr x, y;

	if (inet_pton(AF_INET, a, &x) != 1 ||
	    inet_pton(AF_INET, net, &y) != 1 || len < 1 || len > 32)
		return false;
	return (x.s_addr & mask_of(len)) == (y.s_addr & mask_of(len));
}

/* True when a is the broadcast address of net/len (len under 31). */
static bool is_bcast(const char *a, const char *net, long len)
{
	struct in_addr x, y;

	if (len >= 31 || inet_pton(AF_INET, a, &x) != 1 ||
	    inet_pton(AF_INET, net, &y) != 1)
		return false;
	return x.s_addr == (y.s_addr | ~mask_of(len));
}

/* The broadcast address of a/len into buf (len under 31); false on bad
 * input. */
static bool bcast_of(const char *a, long len, char *buf, size_t blen)
{
	struct in_addr x;

	if (len < 1 || len >= 31 || inet_pton(AF_INET, a, &x) != 1)
		return false;
	x.s_addr |= ~mask_of(len);
	return inet_ntop(AF_INET, &x, buf, (socklen_t)blen) != NULL;
}

/* True for a global IPv4 address ad of interface ifc (not loopback). */
static bool global_inet(const json_t *ifc, const json_t *ad)
{
	return strcmp(rj_strd(ad, "family", ""), "inet") == 0 &&
	       strcmp(rj_strd(ad, "scope", "global"), "global") == 0 &&
	       strcmp(rj_strd(ifc, "kind", ""), "loopback") != 0;
}

/* True for a global address of any family ad of interface ifc (not
 * loopback). */
static bool global_any(const json_t *ifc, const json_t *ad)
{
	return strcmp(rj_strd(ad, "scope", "global"), "global") == 0 &&
	       strcmp(rj_strd(ifc, "kind", ""), "loopback") != 0;
}

/* EACH_INET for every global address, IPv4 and IPv6. */
#define EACH_ADDR(d, ifc, ad, i, j)                                            \
	json_array_foreach(rj_arr((d), "interfaces"), (i), (ifc))              \
		json_array_foreach(rj_arr((ifc), "addresses"), (j), (ad))      \
			if (global_any((ifc), (ad)))

/* Loops over each global IPv4 address of scan doc d: the interface
 * object ifc and the address ad (i, j their positions). */
#define EACH_INET(d, ifc, ad, i, j)                                            \
	json_array_foreach(rj_arr((d), "interfaces"), (i), (ifc))              \
		json_array_foreach(rj_arr((ifc), "addresses"), (j), (ad))      \
			if (global_inet((ifc), (ad)))

/* True when some node's scan holds address a (IPv4 or IPv6, as the
 * scan writes it). */
static bool held_by_member(const struct rctx *c, const char *a)
{
	size_t n = json_array_size(c->nodes), i, j;
	json_t *ifc, *ad;

	for (size_t k = 0; k < n; k++) {
		const struct report_input *in = rd_node_scan(
			c, json_string_value(json_array_get(c->nodes, k)));

		if (in == NULL)
			continue;
		EACH_ADDR(in->doc, ifc, ad, i, j)
		if (strcmp(rj_strd(ad, "address", ""), a) == 0)
			return true;
	}
	return false;
}

/* The host part of a peers entry's "peer" ("node03:7471", "[fd::1]:7")
 * into buf; false when it does not fit. */
static bool peer_host(const json_t *p, char *buf, size_t len)
{
	const char *s = rj_strd(p, "peer", ""), *e = strrchr(s, ':');
	size_t n = e != NULL ? (size_t)(e - s) : strlen(s);

	if (n > 0 && s[0] == '[' && s[n - 1] == ']') {
		s++;
		n -= 2;
	}
	if (n == 0 || n >= len)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

/* True when name is one of the report's nodes. */
static bool is_node(const struct rctx *c, const char *name)
{
	size_t i;
	json_t *v;

	json_array_foreach(c->nodes, i, v)
		if (strcmp(json_string_value(v), name) == 0)
			return true;
	return false;
}

/* The address other members reach node b at (their peers entries toward
 * b whose address b holds): into buf; false when none does. */
static bool members_view(const struct rctx *c, const char *self,
			 const char *b, char *buf, size_t len)
{
	const struct report_input *ib = rd_node_scan(c, b);
	size_t i, j, l;
	json_t *p, *ifc, *ad;
	char host[256];

	for (size_t k = 0; ib != NULL && k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;

		if (strcmp(rj_strd(d, "host", ""), self) == 0)
			continue;
		json_array_foreach(rj_arr(d, "peers"), i, p) {
			const char *pa = rj_strd(p, "peer_addr", "");

			if (!json_is_true(json_object_get(p, "responded")) ||
			    !peer_host(p, host, sizeof(host)) ||
			    strcmp(host, b) != 0)
				continue;
			EACH_ADDR(ib->doc, ifc, ad, j, l)
			if (strcmp(rj_strd(ad, "address", ""), pa) == 0) {
				snprintf(buf, len, "%s", pa);
				return true;
			}
		}
	}
	return false;
}

/* A regex of s for grep -E: its ERE special characters escaped (a name
 * or an address; ':' stays bare: GNU grep warns of a backslash before
 * it); false when it does not fit. */
static bool re_quote(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; *s != '\0'; s++) {
		if (o + 3 >= len)
			return false;
		if (strchr(".[]()*+?{}|^$\\", *s) != NULL)
			buf[o++] = '\\';
		buf[o++] = *s;
	}
	buf[o] = '\0';
	return true;
}

/* One finding on node with its command and the peers it cuts off;
 * returns it (c->findings holds it), or NULL on no memory. */
static json_t *add(struct rctx *c, const char *node, enum finding_code id,
		   const char *sum, json_t *ev, const char *fix,
		   const char *cmd, json_t *cuts)
{
	json_t *f = rd_finding(id, node, SEV_FAULT, sum, fix, ev);

	if (f == NULL) {
		json_decref(cuts);
		return NULL;
	}
	if (cmd != NULL)
		json_object_set_new(f, "command", json_string(cmd));
	json_object_set_new(f, "cuts", cuts);
	if (json_array_append_new(c->findings, f) < 0)
		return NULL;
	return f;
}

/* Appends {fact, source} to evidence array ev. */
static void fact_add(json_t *ev, const char *fact, const char *source)
{
	json_array_append_new(ev, json_pack("{s:s, s:s}", "fact", fact,
					    "source", source));
}

/* hosts-stale: node a's peers entry names peer b but resolved it to an
 * address no member holds, while the others reach b at its own. */
static void hosts_stale(struct rctx *c, const char *a, const json_t *d)
{
	char host[256], want[64], nre[600], are[200], cmd[1400], fix[3600],
	    sum[900], fact[900];
	size_t i;
	json_t *p;

	json_array_foreach(rj_arr(d, "peers"), i, p) {
		const char *pa = rj_strd(p, "peer_addr", "");
		struct in_addr x;
		unsigned char x6[16];
		json_t *ev;

		if (json_is_true(json_object_get(p, "responded")) ||
		    (inet_pton(AF_INET, pa, &x) != 1 &&
		     inet_pton(AF_INET6, pa, x6) != 1) ||
		    !peer_host(p, host, sizeof(host)) || !is_node(c, host) ||
		    strcmp(host, a) == 0 || held_by_member(c, pa) ||
		    !members_view(c, a, host, want, sizeof(want)) ||
		    !rd_shell_word(host, ":") || !re_quote(host, nre, sizeof(nre)) ||
		    !re_quote(pa, are, sizeof(are)))
			continue;
		snprintf(cmd, sizeof(cmd),
			 "{ grep -v -E '^%s[[:space:]](.*[[:space:]])?%s"
			 "([[:space:]]|$)' /etc/hosts; echo '%s %s'; } "
			 ">/tmp/hosts.netprobe && cat /tmp/hosts.netprobe "
			 ">/etc/hosts",
			 are, nre, want, host);
		snprintf(sum, sizeof(sum),
			 "%s resolves peer %s to %s, an address no member "
			 "holds (%s is at %s): a stale entry in %s's "
			 "/etc/hosts or resolver",
			 a, host, pa, host, want, a);
		ev = json_array();
		snprintf(fact, sizeof(fact),
			 "%s looked up %s and connected to %s: %s", a, host, pa,
			 rj_strd(p, "error", "no answer"));
		json_array_append_new(ev, json_pack("{s:s, s:s}", "fact", fact,
						    "source", "peers"));
		snprintf(fact, sizeof(fact),
			 "no member's scan holds %s; %s holds %s, where the "
			 "other members reach it",
			 pa, host, want);
		json_array_append_new(ev, json_pack("{s:s, s:s}", "fact", fact,
						    "source", "interfaces"));
		snprintf(fix, sizeof(fix),
			 "map %s to %s in %s's /etc/hosts (the line that maps "
			 "it to %s goes, with any other name on it; the file "
			 "is written in place, as a container's bind mount "
			 "needs): %s; where the name comes from DNS instead, "
			 "fix its record: getent hosts %s on %s tells",
			 host, want, a, pa, cmd, host, a);
		add(c, a, FINDING_HOSTS_STALE, sum, ev, fix, cmd,
		    json_pack("[s]", host));
	}
}

/* True when node b's pair with a failed, as either saw it: a peers
 * entry between them that did not answer. */
static bool pair_down(const struct rctx *c, const char *a, const char *b)
{
	char host[256];
	size_t i;
	json_t *p;

	for (int k = 0; k < 2; k++) {
		const struct report_input *in = rd_node_scan(c, k ? b : a);

		if (in == NULL)
			continue;
		json_array_foreach(rj_arr(in->doc, "peers"), i, p)
			if (peer_host(p, host, sizeof(host)) &&
			    strcmp(host, k ? a : b) == 0 &&
			    !json_is_true(json_object_get(p, "responded")))
				return true;
	}
	return false;
}

/* prefix-narrow: node a holds addr/plen on ifc while the peers of its
 * LAN hold theirs with a wider prefix that takes addr in, none with
 * a's; the peers outside a's prefix (or on its broadcast address) that
 * it fails with are cut off from it alone. */
static void narrow_one(struct rctx *c, const char *a, const char *ifc,
		       const char *addr, long plen)
{
	size_t n = json_array_size(c->nodes), i, j;
	json_t *cuts = json_array(), *ev = json_array(), *fi, *ad;
	long wide = 0;
	int same = 0;
	char fact[600], sum[900], cmd[400], fix[1200], list[400] = "",
	    bc[INET_ADDRSTRLEN];

	for (size_t k = 0; k < n; k++) {
		const char *b = json_string_value(json_array_get(c->nodes, k));
		const struct report_input *ib = rd_node_scan(c, b);

		if (ib == NULL || strcmp(b, a) == 0)
			continue;
		EACH_INET(ib->doc, fi, ad, i, j) {
			const char *ba = rj_strd(ad, "address", "");
			long q = (long)rj_int(ad, "prefixlen", 32);

			if (q == plen && in_net(addr, ba, q))
				same++;
			if (q >= plen || !in_net(addr, ba, q) ||
			    (wide != 0 && q != wide))
				continue;
			wide = q;
			if ((in_net(ba, addr, plen) &&
			     !is_bcast(ba, addr, plen)) ||
			    !pair_down(c, a, b))
				continue;
			rj_add_unique(cuts, b);
			snprintf(fact, sizeof(fact),
				 "%s holds %s/%ld on %s, which takes %s in; "
				 "%s's /%ld leaves %s %s",
				 b, ba, q, rj_strd(fi, "name", "?"), addr, a,
				 plen, ba,
				 in_net(ba, addr, plen) ? "on its broadcast "
							  "address"
							: "outside");
			json_array_append_new(
				ev, json_pack("{s:s, s:s}", "fact", fact,
					      "source", "interfaces"));
		}
	}
	if (same > 0 || wide == 0 || json_array_size(cuts) == 0) {
		json_decref(cuts);
		json_decref(ev);
		return;
	}
	json_array_foreach(cuts, i, fi)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", i ? ", " : "", json_string_value(fi));
	snprintf(fact, sizeof(fact), "%s holds %s/%ld on %s", a, addr, plen,
		 ifc);
	json_array_insert_new(ev, 0,
			      json_pack("{s:s, s:s}", "fact", fact, "source",
					"interfaces"));
	if (!bcast_of(addr, plen, bc, sizeof(bc))) {
		json_decref(cuts);
		json_decref(ev);
		return;
	}
	/* the old broadcast address keeps a neighbour entry of its own
	 * (ff:ff:ff:ff:ff:ff, NOARP) that outlives the prefix: a peer at
	 * that address would stay cut off */
	snprintf(cmd, sizeof(cmd),
		 "ip addr add %s/%ld dev %s && ip addr del %s/%ld dev %s && "
		 "ip neigh flush dev %s to %s nud noarp",
		 addr, wide, ifc, addr, plen, ifc, ifc, bc);
	snprintf(sum, sizeof(sum),
		 "%s's %s/%ld on %s is narrower than its LAN's /%ld (its "
		 "peers' prefix): %s, outside it, are cut off from %s alone",
		 a, addr, plen, ifc, wide, list, a);
	snprintf(fix, sizeof(fix),
		 "give %s the LAN's prefix on %s: %s (added before the old "
		 "one goes, so the routes through it stay; the old "
		 "broadcast address's neighbour entry goes too); then the "
		 "same in "
		 "its network configuration (netplan, NetworkManager, DHCP), "
		 "which would bring /%ld back",
		 addr, ifc, cmd, plen);
	add(c, a, FINDING_PREFIX_NARROW, sum, ev, fix, cmd, cuts);
}

/* prefix-narrow over node a's global IPv4 addresses. */
static void prefix_narrow(struct rctx *c, const char *a, const json_t *d)
{
	size_t i, j;
	json_t *ifc, *ad;

	EACH_INET(d, ifc, ad, i, j)
	if (strcmp(rj_strd(ifc, "kind", ""), "bridge") != 0)
		narrow_one(c, a, rj_strd(ifc, "name", "?"),
			   rj_strd(ad, "address", ""),
			   (long)rj_int(ad, "prefixlen", 32));
}

/* bridge-route-shadow: node a's route toward a peer that did not answer
 * leaves by a bridge of a's whose own subnet takes the peer's address in
 * (a Docker network's pool over the peers' subnet), while the peer holds
 * that address on an interface of its own: one finding per bridge. */
static void bridge_shadow(struct rctx *c, const char *a, const json_t *d)
{
	size_t i, j, k;
	json_t *p, *bi, *ad, *ifc;

	json_array_foreach(rj_arr(d, "interfaces"), k, bi) {
		const char *br = rj_strd(bi, "name", "");
		json_t *cuts = json_array(), *ev = json_array();
		char net[64] = "", fact[600], sum[900], cmd[300], fix[1200],
		     list[400] = "";
		long plen = 0;

		if (strcmp(rj_strd(bi, "kind", ""), "bridge") != 0)
			goto next;
		json_array_foreach(rj_arr(d, "peers"), i, p) {
			const json_t *r = json_object_get(p, "route");
			const char *pa = rj_strd(p, "peer_addr", "");
			const char *b = rn_resolve(c, pa, pa);

			if (json_is_true(json_object_get(p, "responded")) ||
			    strcmp(rj_strd(r, "out_interface", ""), br) != 0 ||
			    rj_str(r, "gateway") != NULL || b == NULL ||
			    strcmp(b, a) == 0 || !held_by_member(c, pa))
				continue;
			json_array_foreach(rj_arr(bi, "addresses"), j, ad)
				if (strcmp(rj_strd(ad, "family", ""), "inet") ==
					    0 &&
				    in_net(pa, rj_strd(ad, "address", ""),
					   rj_int(ad, "prefixlen", 32))) {
					snprintf(net, sizeof(net), "%s",
						 rj_strd(ad, "address", ""));
					plen = (long)rj_int(ad, "prefixlen",
							    32);
				}
			if (net[0] == '\0')
				continue;
			rj_add_unique(cuts, b);
			snprintf(fact, sizeof(fact),
				 "ip route get %s on %s: dev %s; %s holds %s "
				 "on an interface of its own",
				 pa, a, br, b, pa);
			json_array_append_new(
				ev, json_pack("{s:s, s:s}", "fact", fact,
					      "source", "peers"));
		}
		if (json_array_size(cuts) == 0 || !rd_shell_word(br, ":"))
			goto next;
		json_array_foreach(cuts, i, ifc)
			snprintf(list + strlen(list),
				 sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", json_string_value(ifc));
		snprintf(fact, sizeof(fact),
			 "%s is a bridge holding %s/%ld: its connected route "
			 "takes the peers' addresses in",
			 br, net, plen);
		json_array_insert_new(ev, 0,
				      json_pack("{s:s, s:s}", "fact", fact,
						"source", "interfaces"));
		snprintf(cmd, sizeof(cmd), "ip link set %s down", br);
		snprintf(sum, sizeof(sum),
			 "%s's bridge %s holds %s/%ld, whose route shadows "
			 "peers %s: what %s sends them goes into the bridge",
			 a, br, net, plen, list, a);
		snprintf(fix, sizeof(fix),
			 "at once: %s (its connected route goes with it; "
			 "Docker sets it up again only when a container "
			 "joins); for good, remove the Docker network "
			 "that owns %s (docker network ls, docker network rm; "
			 "docker0's is bip in /etc/docker/daemon.json) and "
			 "give Docker address pools clear of the LAN "
			 "(default-address-pools in /etc/docker/daemon.json)",
			 cmd, br);
		add(c, a, FINDING_BRIDGE_ROUTE_SHADOW, sum, ev, fix, cmd,
		    cuts);
		continue;
next:
		json_decref(cuts);
		json_decref(ev);
	}
}

/* The node other than a whose pair with a failed, alone among the nodes
 * with a scan, while some other pair of a's works; NULL when none or
 * several. */
static const char *lone_failure(const struct rctx *c, const char *a)
{
	size_t n = json_array_size(c->nodes);
	const char *one = NULL;
	bool works = false;

	for (size_t k = 0; k < n; k++) {
		const char *b = json_string_value(json_array_get(c->nodes, k));

		if (strcmp(b, a) == 0 || rd_node_scan(c, b) == NULL)
			continue;
		if (!pair_down(c, a, b))
			works = true;
		else if (one != NULL)
			return NULL;
		else
			one = b;
	}
	return works ? one : NULL;
}

/* macvlan-parent: node a's address is on a macvlan (or ipvlan), and the
 * one member it fails with, every other answering, holds an address on
 * that very subnet: a macvlan and its parent host cannot talk (the
 * kernel never passes a child's frames to its parent), so that member is
 * its host. The fix is on the host: a macvlan of its own on the parent
 * interface, the route toward a through it. */
static void macvlan_parent(struct rctx *c, const char *a, const json_t *d)
{
	size_t i, j, x, y;
	json_t *fi, *ad, *gi, *bd;

	EACH_INET(d, fi, ad, i, j) {
		const char *kind = rj_strd(fi, "kind", "");
		const char *ca = rj_strd(ad, "address", "");
		long plen = (long)rj_int(ad, "prefixlen", 32);
		const char *h;
		const struct report_input *ih;
		char sum[900], fact[600], cmd[600], fix[1400];
		json_t *ev, *f;

		if ((strcmp(kind, "macvlan") != 0 &&
		     strcmp(kind, "ipvlan") != 0) ||
		    (h = lone_failure(c, a)) == NULL ||
		    (ih = rd_node_scan(c, h)) == NULL)
			continue;
		EACH_INET(ih->doc, gi, bd, x, y) {
			const char *ha = rj_strd(bd, "address", "");
			const char *hif = rj_strd(gi, "name", "");

			if (!in_net(ha, ca, plen) || !rd_shell_word(hif, ":") ||
			    strcmp(rj_strd(gi, "kind", ""), "macvlan") == 0)
				continue;
			snprintf(cmd, sizeof(cmd),
				 "ip link add mvshim0 link %s type macvlan "
				 "mode bridge && ip addr add %s/32 dev mvshim0 "
				 "&& ip link set mvshim0 up && ip route add "
				 "%s/32 dev mvshim0",
				 hif, ha, ca);
			snprintf(sum, sizeof(sum),
				 "%s's %s is a %s, and %s, on its own subnet, "
				 "is the one member it fails with: a %s and "
				 "its parent host cannot talk, so %s is its "
				 "host",
				 a, rj_strd(fi, "name", "?"), kind, h, kind, h);
			ev = json_array();
			snprintf(fact, sizeof(fact),
				 "%s holds %s/%ld on %s, a %s", a, ca, plen,
				 rj_strd(fi, "name", "?"), kind);
			fact_add(ev, fact, "interfaces");
			snprintf(fact, sizeof(fact),
				 "connections between %s and %s fail; every "
				 "other member answers %s; %s holds %s on %s",
				 a, h, a, h, ha, hif);
			fact_add(ev, fact, "peers");
			snprintf(fix, sizeof(fix),
				 "on %s, the host: give it a %s of its own on "
				 "%s and route %s through it: %s (and the same "
				 "in its network configuration); or run the "
				 "container with the host's network",
				 h, kind, hif, ca, cmd);
			f = add(c, a, FINDING_MACVLAN_PARENT, sum, ev, fix,
				cmd, json_pack("[s]", h));
			if (f != NULL) /* the command is the host's */
				json_object_set_new(f, "command_on",
						    json_string(h));
			return;
		}
	}
}

/* True when scan doc d holds a global address of family fam in net/plen:
 * the address into addr. */
static bool holds_in(const json_t *d, const char *fam, const char *net,
		     long plen, char *addr, size_t al)
{
	size_t i, j;
	json_t *fi, *ad;

	json_array_foreach(rj_arr(d, "interfaces"), i, fi)
		json_array_foreach(rj_arr(fi, "addresses"), j, ad) {
			const char *ba = rj_strd(ad, "address", "");

			if (strcmp(rj_strd(ad, "family", ""), fam) != 0 ||
			    strcmp(rj_strd(ad, "scope", "global"), "global") ||
			    !rd_in_net(ba, net, plen))
				continue;
			snprintf(addr, al, "%s", ba);
			return true;
		}
	return false;
}

/* True when some node but a holds a global IPv4 or IPv6 address in a
 * subnet of a's interface name (a's scan d): its name into who, the
 * address into addr. */
static bool subnet_held(const struct rctx *c, const char *a, const json_t *d,
			const char *name, char *who, size_t wl, char *addr,
			size_t al)
{
	size_t n = json_array_size(c->nodes), i, j;
	json_t *fi, *ad;

	json_array_foreach(rj_arr(d, "interfaces"), i, fi) {
		if (strcmp(rj_strd(fi, "name", ""), name) != 0)
			continue;
		json_array_foreach(rj_arr(fi, "addresses"), j, ad) {
			if (strcmp(rj_strd(ad, "scope", "global"), "global"))
				continue;
			for (size_t k = 0; k < n; k++) {
				const char *b = json_string_value(
					json_array_get(c->nodes, k));
				const struct report_input *ib =
					rd_node_scan(c, b);

				if (ib == NULL || strcmp(b, a) == 0 ||
				    !holds_in(ib->doc,
					      rj_strd(ad, "family", ""),
					      rj_strd(ad, "address", ""),
					      (long)rj_int(ad, "prefixlen",
							   128),
					      addr, al))
					continue;
				snprintf(who, wl, "%s", b);
				return true;
			}
		}
	}
	return false;
}

/* A node's NCCL_SOCKET_IFNAME or GLOO_SOCKET_IFNAME fault (its scan's
 * rank-unreachable with "selects": no peer it knows is reached by those
 * interfaces) is eliminated where another node holds an address in one
 * of their subnets: its peers may reach it there (a second rail). */
static void setting_elim(struct rctx *c)
{
	char who[256], addr[64], sum[1200];
	size_t i, j;
	json_t *f, *v;

	json_array_foreach(c->findings, i, f) {
		const char *a = rj_strd(f, "node", "");
		const struct report_input *in;

		if (!finding_is(rj_strd(f, "code", ""),
				FINDING_RANK_UNREACHABLE) ||
		    rj_arr(f, "selects") == NULL ||
		    (in = rd_node_scan(c, a)) == NULL)
			continue;
		json_array_foreach(rj_arr(f, "selects"), j, v) {
			if (!json_is_string(v) ||
			    !subnet_held(c, a, in->doc, json_string_value(v),
					 who, sizeof(who), addr, sizeof(addr)))
				continue;
			snprintf(sum, sizeof(sum),
				 "%s; but %s holds %s in %s's subnet, so its "
				 "peers may reach it there: not a fault",
				 rj_strd(f, "summary", ""), who, addr,
				 json_string_value(v));
			json_object_set_new(f, "summary", json_string(sum));
			json_object_set_new(f, "severity", json_string("info"));
			json_object_del(f, "command");
			break;
		}
	}
}

/* True when d's interface name is a port of a bridge of d. */
static bool bridge_port_of(const json_t *d, const char *name)
{
	size_t i, j;
	json_t *x, *y;

	json_array_foreach(rj_arr(d, "interfaces"), i, x) {
		if (strcmp(rj_strd(x, "name", ""), name) != 0 ||
		    rj_str(x, "master") == NULL)
			continue;
		json_array_foreach(rj_arr(d, "interfaces"), j, y)
			if (strcmp(rj_strd(y, "name", ""),
				   rj_str(x, "master")) == 0 &&
			    strcmp(rj_strd(y, "kind", ""), "bridge") == 0)
				return true;
	}
	return false;
}

/* The scan's bridge-port-addressed on node a (issue 48) cuts off the
 * members a's routes reach by a bridge's port and that did not answer
 * ("cuts", as this file's own findings): those pairs are its. */
static void bridge_port(struct rctx *c, const char *a, const json_t *d)
{
	size_t i, j;
	json_t *f, *p;

	json_array_foreach(rx_code_findings(c, FINDING_BRIDGE_PORT_ADDRESSED),
			   i, f) {
		json_t *cuts;

		if (!finding_is(rj_strd(f, "code", ""),
				FINDING_BRIDGE_PORT_ADDRESSED) ||
		    strcmp(rj_strd(f, "node", ""), a) != 0 ||
		    json_object_get(f, "cuts") != NULL)
			continue;
		cuts = json_array();
		json_array_foreach(rj_arr(d, "peers"), j, p) {
			const json_t *r = json_object_get(p, "route");
			const char *pa = rj_strd(p, "peer_addr", "");
			const char *b = rn_resolve(c, pa, pa);

			if (!json_is_true(json_object_get(p, "responded")) &&
			    b != NULL && strcmp(b, a) != 0 &&
			    held_by_member(c, pa) &&
			    bridge_port_of(d, rj_strd(r, "out_interface", "")))
				rj_add_unique(cuts, b);
		}
		json_object_set_new(f, "cuts", cuts);
	}
}

void rd_names(struct rctx *c)
{
	size_t n = json_array_size(c->nodes);

	for (size_t k = 0; k < n; k++) {
		const char *a = json_string_value(json_array_get(c->nodes, k));
		const struct report_input *in = rd_node_scan(c, a);

		if (in == NULL || rd_node_is_nat(c, a))
			continue;
		hosts_stale(c, a, in->doc);
		prefix_narrow(c, a, in->doc);
		bridge_shadow(c, a, in->doc);
		macvlan_parent(c, a, in->doc);
		bridge_port(c, a, in->doc);
		rd_ownif(c, a, in->doc);
	}
	setting_elim(c);
}

/* True when finding f is one of this file's and cuts off node b. */
static bool cuts(const json_t *f, const char *b)
{
	size_t i;
	json_t *v;

	json_array_foreach(rj_arr(f, "cuts"), i, v)
		if (strcmp(json_string_value(v), b) == 0)
			return true;
	return false;
}

const json_t *rd_names_cut(const struct rctx *c, const char *a,
			   const char *b)
{
	static const enum finding_code codes[] = {
		FINDING_HOSTS_STALE, FINDING_PREFIX_NARROW,
		FINDING_BRIDGE_ROUTE_SHADOW, FINDING_MACVLAN_PARENT,
		FINDING_NEIGH_STALE_STATIC, FINDING_BRIDGE_PORT_ADDRESSED,
		FINDING_VXLAN_VNI_MISMATCH, FINDING_VXLAN_PORT_MISMATCH,
		FINDING_VXLAN_PROXY_NEIGH_MISSING,
		FINDING_NIC_NOARP, FINDING_BRIDGE_PORT_STUCK,
		FINDING_MACVLAN_VEPA_PEER, FINDING_NOTRACK_UNTRACKED_DROP,
		FINDING_ECMP_DEAD_NEXTHOP, FINDING_ROUTE_TYPE_DROP};
	size_t i;
	json_t *f;

	if (a == NULL)
		return NULL;
	for (size_t k = 0; k < sizeof(codes) / sizeof(codes[0]); k++)
		json_array_foreach(rx_code_findings(c, codes[k]), i, f) {
			const char *n = rj_strd(f, "node", "");

			if (!finding_is(rj_strd(f, "code", ""), codes[k]))
				continue;
			if (b == NULL ? strcmp(n, a) == 0
				      : (strcmp(n, a) == 0 && cuts(f, b)) ||
					    (strcmp(n, b) == 0 && cuts(f, a)))
				return f;
		}
	return NULL;
}
