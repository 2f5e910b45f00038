/* netprobe report, decide: one overlay's VXLAN devices that differ
 * between members (issue 48; blind48d 01, k3s-io/k3s#9295: one node's
 * flannel ran with VNI 4096 where the others ran VNI 1). The members'
 * up vxlan devices that hold addresses on one subnet are one overlay; a
 * kernel drops every VXLAN packet whose VNI (or UDP port) no device of
 * its own takes, so a member whose device differs reaches none of them
 * over it, while underlay, routes and firewalls are clean. Where a
 * majority of three or more agree, the odd member gets a fault
 * (vxlan-vni-mismatch, or vxlan-port-mismatch when only the port
 * differs) with the commands that make its device again with the
 * majority's value and "cuts" (rd_names_cut) the members it fails
 * with; with two members, or no majority, a warning on each that names
 * both values and the command that decides. Silent where the pairs
 * work (an overlay the mesh does not use), and where a field was not
 * recorded (an older scan). */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

#define VX_MAX 1024

/* One member's device on an overlay. */
struct vx_dev {
	const char *node;
	const json_t *ifc, *vx;
	const char *addr;
	long plen;
	char net[64]; /* its subnet, "10.231.101.0/24" */
	long long id, port;
};

/* The subnet of address a/plen as text into out; false on bad input. */
static bool net_text(const char *a, long plen, char *out, size_t len)
{
	unsigned char raw[16];
	char s[INET6_ADDRSTRLEN];
	int fam = strchr(a, ':') != NULL ? AF_INET6 : AF_INET;
	long bits = fam == AF_INET ? 32 : 128;

	if (plen < 1 || plen > bits || inet_pton(fam, a, raw) != 1)
		return false;
	for (long i = 0; i < bits / 8; i++) {
		long keep = plen - i * 8;

		if (keep <= 0)
			raw[i] = 0;
		else if (keep < 8)
			raw[i] &= (unsigned char)(0xff << (8 - keep));
	}
	if (inet_ntop(fam, raw, s, sizeof(s)) == NULL)
		return false;
	snprintf(out, len, "%s/%ld", s, plen);
	return true;
}

/* The address device x is grouped by: its first global IPv4 address,
 * else its first global one. One per device, so that a dual-stack
 * overlay is one group (its IPv4 subnet), not two: an IPv6 group of
 * the few members that also carry IPv6 would print a second fix that
 * floods toward those members only (generator seed 11, ovlvni@13). */
static const json_t *group_addr(const json_t *x)
{
	const json_t *first = NULL, *ad;
	size_t j;

	json_array_foreach(rj_arr(x, "addresses"), j, ad) {
		if (strcmp(rj_strd(ad, "scope", ""), "global") != 0)
			continue;
		if (strchr(rj_strd(ad, "address", ":"), ':') == NULL)
			return ad;
		if (first == NULL)
			first = ad;
	}
	return first;
}

/* Every member's up vxlan device with a global address, one per node
 * and device, into v; their count. */
static size_t collect(const struct rctx *c, struct vx_dev *v)
{
	size_t n = 0, nn = json_array_size(c->nodes), i;
	json_t *x;

	for (size_t k = 0; k < nn; k++) {
		const char *a = json_string_value(json_array_get(c->nodes, k));
		const struct report_input *in = rd_node_scan(c, a);

		if (in == NULL || rd_node_is_nat(c, a))
			continue;
		json_array_foreach(rj_arr(in->doc, "interfaces"), i, x) {
			const json_t *vx = json_object_get(x, "vxlan");
			const json_t *ad = group_addr(x);
			struct vx_dev *d = &v[n];

			if (strcmp(rj_strd(x, "kind", ""), "vxlan") != 0 ||
			    !json_is_object(vx) || !rd_has_flag(x, "UP") ||
			    ad == NULL || n >= VX_MAX)
				continue;
			d->node = a;
			d->ifc = x;
			d->vx = vx;
			d->addr = rj_strd(ad, "address", "");
			d->plen = (long)rj_int(ad, "prefixlen", 0);
			d->id = rj_int(vx, "id", -1);
			d->port = rj_int(vx, "port", -1);
			if (net_text(d->addr, d->plen, d->net, sizeof(d->net)))
				n++;
		}
	}
	return n;
}

/* See report_decide.h. */
bool rd_vxlan_pair_failed(const struct rctx *c, const char *a, const char *b)
{
	const struct report_input *ia = rd_node_scan(c, a);
	const struct report_input *ib = rd_node_scan(c, b);
	size_t i;
	json_t *m;

	if ((ia != NULL && rd_failed_toward(c, ia->doc, b)) ||
	    (ib != NULL && rd_failed_toward(c, ib->doc, a)))
		return true;
	json_array_foreach(rj_arr(json_object_get(rd_mesh_doc(c), "mesh"),
				  "members"),
			   i, m) {
		const char *who = rj_strd(m, "name", "");

		if (strcmp(rj_strd(m, "state", ""), "missing") == 0 &&
		    (strcmp(who, a) == 0 || strcmp(who, b) == 0))
			return true;
	}
	return false;
}

/* Device d's field (0: VNI, 1: UDP port). */
static long long field(const struct vx_dev *d, int f)
{
	return f == 0 ? d->id : d->port;
}

/* The value of field f that more than half of the group's n devices g
 * hold, into *val; false with none (or a field not recorded). */
static bool majority(const struct vx_dev *const *g, size_t n, int f,
		     long long *val)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		if (field(g[i], f) < 0)
			return false;
		for (size_t j = 0; j < n; j++)
			k += field(g[j], f) == field(g[i], f);
		if (2 * k > n) {
			*val = field(g[i], f);
			return true;
		}
	}
	return false;
}

/* The name the device takes again: flannel names its device after the
 * VNI (flannel.1), so a flannel.N made with another VNI is renamed. */
static void new_name(const char *old, long long id, char *out, size_t len)
{
	if (strncmp(old, "flannel.", 8) == 0)
		snprintf(out, len, "flannel.%lld", id);
	else
		snprintf(out, len, "%s", old);
}

/* The one shell line that makes d's device again with VNI id and port:
 * deleted (the kernel changes neither in place: "Cannot change VNI"),
 * added with its own local address, underlay and learning, its MAC
 * (the peers' entries name it), a flood entry toward every other
 * member's VTEP where it has no multicast group, its permanent
 * neighbours again (they go with the device), its address, up. */
static bool fix_line(const struct rctx *c, const struct vx_dev *d,
		     const struct vx_dev *const *g, size_t n, long long id,
		     long long port, char *cmd, size_t len)
{
	const char *ifn = rj_strd(d->ifc, "name", "");
	const char *loc = rj_str(d->vx, "local"), *grp = rj_str(d->vx, "group");
	const char *und = rj_str(d->vx, "underlay");
	const char *mac = rj_str(d->ifc, "mac");
	const struct report_input *in = rd_node_scan(c, d->node);
	char nm[64];
	size_t l, i;
	json_t *e;

	if (!rd_shell_word(ifn, ":") || port <= 0)
		return false;
	new_name(ifn, id, nm, sizeof(nm));
	l = (size_t)snprintf(cmd, len,
			     "ip link del %s; ip link add %s type vxlan id %lld "
			     "dstport %lld",
			     ifn, nm, id, port);
	if (rd_shell_word(loc, ":") && l < len)
		l += (size_t)snprintf(cmd + l, len - l, " local %s", loc);
	if (rd_shell_word(grp, ":") && l < len)
		l += (size_t)snprintf(cmd + l, len - l, " group %s", grp);
	if (rd_shell_word(und, ":") && l < len)
		l += (size_t)snprintf(cmd + l, len - l, " dev %s", und);
	if (json_is_false(json_object_get(d->vx, "learning")) && l < len)
		l += (size_t)snprintf(cmd + l, len - l, " nolearning");
	if (rd_shell_word(mac, ":") && l < len)
		l += (size_t)snprintf(cmd + l, len - l,
				      "; ip link set %s address %s", nm, mac);
	for (i = 0; !rd_shell_word(grp, ":") && i < n && l < len; i++) {
		const char *pl = rj_str(g[i]->vx, "local");

		if (g[i] != d && rd_shell_word(pl, ":"))
			l += (size_t)snprintf(cmd + l, len - l,
					      "; bridge fdb append "
					      "00:00:00:00:00:00 dev %s dst %s",
					      nm, pl);
	}
	for (i = 0; in != NULL && i < json_array_size(rj_arr(
					  in->doc, "neighbours"));
	     i++) {
		e = json_array_get(rj_arr(in->doc, "neighbours"), i);
		if (l >= len)
			break;
		if (strcmp(rj_strd(e, "interface", ""), ifn) == 0 &&
		    strcmp(rj_strd(e, "state", ""), "permanent") == 0 &&
		    rd_shell_word(rj_str(e, "address"), ":") &&
		    rd_shell_word(rj_str(e, "lladdr"), ":"))
			l += (size_t)snprintf(
				cmd + l, len - l,
				"; ip neigh replace %s lladdr %s dev %s nud "
				"permanent",
				rj_str(e, "address"), rj_str(e, "lladdr"), nm);
	}
	/* every global address it held, the overlay's first */
	if (l < len)
		l += (size_t)snprintf(cmd + l, len - l,
				      "; ip addr add %s/%ld dev %s", d->addr,
				      d->plen, nm);
	json_array_foreach(rj_arr(d->ifc, "addresses"), i, e) {
		const char *a = rj_strd(e, "address", "");

		if (l < len && strcmp(a, d->addr) != 0 && rd_shell_word(a, ":") &&
		    strcmp(rj_strd(e, "scope", ""), "global") == 0)
			l += (size_t)snprintf(cmd + l, len - l,
					      "; ip addr add %s/%lld dev %s", a,
					      rj_int(e, "prefixlen", 0), nm);
	}
	if (l < len)
		l += (size_t)snprintf(cmd + l, len - l, "; ip link set %s up",
				      nm);
	return l < len;
}

/* The odd device d of group g (n devices) whose field f differs from
 * the majority's val, and whose pairs with the majority failed: its
 * fault, with the fix and the members it cuts off. */
static void odd_one(struct rctx *c, const struct vx_dev *d,
		    const struct vx_dev *const *g, size_t n, int f,
		    long long val, long long id, long long port)
{
	const char *what = f == 0 ? "VNI" : "UDP port";
	const char *ifn = rj_strd(d->ifc, "name", "");
	char sum[900], fact[600], cmd[4096], fix[1200], nm[64], who[300] = "";
	json_t *ev = json_array(), *cuts = json_array(), *fi;
	size_t wl = 0, agree = 0;

	if (ev == NULL || cuts == NULL || !fix_line(c, d, g, n, id, port, cmd,
						     sizeof(cmd)))
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (field(g[i], f) != val)
			continue;
		agree++;
		if (wl < sizeof(who))
			wl += (size_t)snprintf(who + wl, sizeof(who) - wl,
					       "%s%s", wl ? ", " : "",
					       g[i]->node);
		if (rd_vxlan_pair_failed(c, d->node, g[i]->node))
			rj_add_unique(cuts, g[i]->node);
	}
	if (json_array_size(cuts) == 0)
		goto out;
	snprintf(fact, sizeof(fact),
		 "%s's %s holds %s/%ld with VXLAN %s %lld (ip -d link show %s)",
		 d->node, ifn, d->addr, d->plen, what, field(d, f), ifn);
	json_array_append_new(ev, json_pack("{s:s, s:s, s:s}", "node",
					    d->node, "fact", fact, "source",
					    "interfaces"));
	snprintf(fact, sizeof(fact),
		 "%zu of the %zu members on %s run its overlay with VXLAN %s "
		 "%lld: %s",
		 agree, n, d->net, what, val, who);
	json_array_append_new(ev, json_pack("{s:s, s:s, s:s}", "node",
					    d->node, "fact", fact, "source",
					    "interfaces"));
	snprintf(fact, sizeof(fact), "connections between %s and %zu of them "
		 "fail", d->node, json_array_size(cuts));
	json_array_append_new(ev, json_pack("{s:s, s:s, s:s}", "node",
					    d->node, "fact", fact, "source",
					    "peers"));
	snprintf(sum, sizeof(sum),
		 "%s's overlay device %s runs VXLAN %s %lld where %zu of the "
		 "%zu members on %s run %lld: every kernel drops the VXLAN "
		 "packets of a %s it has no device for, so %s reaches none of "
		 "them over the overlay and none reaches it",
		 d->node, ifn, what, field(d, f), agree, n, d->net, val, what,
		 d->node);
	new_name(ifn, id, nm, sizeof(nm));
	snprintf(fix, sizeof(fix),
		 "make %s's overlay device %s again as %s with the cluster's "
		 "VXLAN %s %lld (the kernel changes neither VNI nor port in "
		 "place): deleted, added with VNI %lld and UDP port %lld, its "
		 "MAC, its peers' entries and its addresses, up%s",
		 d->node, ifn, nm, what, val, id, port,
		 strncmp(ifn, "flannel.", 8) == 0
			 ? "; flannel makes this device itself: set the one "
			   "\"VNI\" (and \"Port\") every node uses in the "
			   "Backend of flannel's net-conf.json (k3s: "
			   "--flannel-conf; rke2: the flannel chart's vni), "
			   "then restart flannel on this node, or the old "
			   "device comes back"
			 : "; then the same where the device is configured "
			   "(systemd-networkd's [VXLAN] VNI= and "
			   "DestinationPort=, the CNI's settings), or the "
			   "old one comes back at boot");
	fi = rd_finding(f == 0 ? FINDING_VXLAN_VNI_MISMATCH
			       : FINDING_VXLAN_PORT_MISMATCH,
			d->node, SEV_FAULT, sum, fix, ev);
	ev = NULL;
	if (fi == NULL)
		goto out;
	json_object_set_new(fi, "command", json_string(cmd));
	json_object_set_new(fi, "cuts", cuts);
	cuts = NULL;
	json_array_append_new(c->findings, fi);
out:
	json_decref(ev);
	json_decref(cuts);
}

/* A group of two, or with no majority, whose devices differ in field f
 * and whose pairs across the difference failed: a warning on each, both
 * values and the command that decides (which one the cluster means is
 * not in any scan). */
static void cannot_tell(struct rctx *c, const struct vx_dev *const *g,
			size_t n, int f)
{
	const char *what = f == 0 ? "VNI" : "UDP port";
	char vals[600] = "", sum[1000], fix[900];
	size_t l = 0;
	bool failed = false;

	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++)
			failed |= field(g[i], f) != field(g[j], f) &&
				  rd_vxlan_pair_failed(c, g[i]->node, g[j]->node);
		if (l < sizeof(vals))
			l += (size_t)snprintf(vals + l, sizeof(vals) - l,
					      "%s%s's %s: %lld",
					      i ? ", " : "", g[i]->node,
					      rj_strd(g[i]->ifc, "name", ""),
					      field(g[i], f));
	}
	if (!failed)
		return;
	for (size_t i = 0; i < n; i++) {
		json_t *ev = json_array(), *fi;

		snprintf(sum, sizeof(sum),
			 "the members on %s run their VXLAN overlay with "
			 "different %ss (%s): they reach each other over it "
			 "only where the %s is the same, and no majority "
			 "says which one the cluster means: cannot tell which "
			 "node is wrong",
			 g[i]->net, what, vals, what);
		snprintf(fix, sizeof(fix),
			 "decide which VXLAN %s the overlay uses (ip -d link "
			 "show %s on each member, and the CNI's setting, "
			 "flannel's net-conf.json), then make the others' "
			 "device again with it (ip link del, ip link add ... "
			 "type vxlan id N dstport P)",
			 what, rj_strd(g[i]->ifc, "name", "IF"));
		if (ev != NULL)
			json_array_append_new(
				ev, json_pack("{s:s, s:s, s:s}", "node",
					      g[i]->node, "fact", vals,
					      "source", "interfaces"));
		fi = rd_finding(f == 0 ? FINDING_VXLAN_VNI_MISMATCH
				       : FINDING_VXLAN_PORT_MISMATCH,
				g[i]->node, SEV_WARNING, sum, fix, ev);
		if (fi != NULL)
			json_array_append_new(c->findings, fi);
	}
}

/* One overlay, its n devices g: the VNI first, then the port where the
 * VNIs agree. */
static void overlay(struct rctx *c, const struct vx_dev *const *g, size_t n)
{
	long long id, port;

	for (int f = 0; f < 2; f++) {
		bool differ = false;

		for (size_t i = 1; i < n; i++)
			differ |= field(g[i], f) != field(g[0], f);
		if (!differ)
			continue;
		if (n >= 3 && majority(g, n, f, f == 0 ? &id : &port) &&
		    (f == 0 ? majority(g, n, 1, &port) : majority(g, n, 0, &id))) {
			for (size_t i = 0; i < n; i++)
				if (field(g[i], f) != (f == 0 ? id : port))
					odd_one(c, g[i], g, n, f,
						f == 0 ? id : port, id, port);
		} else {
			bool known = true;

			for (size_t i = 0; i < n; i++)
				known &= field(g[i], f) >= 0;
			if (known)
				cannot_tell(c, g, n, f);
		}
		return;
	}
}

/* See report_decide.h. */
void rd_vxlan_mismatch(struct rctx *c)
{
	struct vx_dev *v = calloc(VX_MAX, sizeof(*v));
	const struct vx_dev **g = calloc(VX_MAX, sizeof(*g));
	size_t n;

	if (v == NULL || g == NULL)
		goto out;
	n = collect(c, v);
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		bool seen = false;

		for (size_t j = 0; j < i; j++)
			seen |= strcmp(v[j].net, v[i].net) == 0;
		if (seen)
			continue;
		for (size_t j = i; j < n; j++)
			if (strcmp(v[j].net, v[i].net) == 0)
				g[k++] = &v[j];
		if (k >= 2)
			overlay(c, g, k);
	}
out:
	free(v);
	free(g);
}

/* See report_decide.h. */
void rd_vxlan_hint(const json_t *d, const char *x, const char *who,
		   const char *addr, char *buf, size_t len)
{
	size_t i, j;
	json_t *ifc, *ad;

	if (len == 0)
		return;
	buf[0] = '\0';
	json_array_foreach(rj_arr(d, "interfaces"), i, ifc) {
		const json_t *vx = json_object_get(ifc, "vxlan");

		if (strcmp(rj_strd(ifc, "kind", ""), "vxlan") != 0 ||
		    !json_is_object(vx) || !rd_has_flag(ifc, "UP"))
			continue;
		json_array_foreach(rj_arr(ifc, "addresses"), j, ad) {
			const char *n = rj_strd(ifc, "name", "?");
			long long pn = rj_int(vx, "port", 0);
			char port[48] = "", dst[48] = "";

			if (strcmp(rj_strd(ad, "scope", ""), "global") != 0 ||
			    !rd_in_net(addr, rj_strd(ad, "address", ""),
				       rj_int(ad, "prefixlen", 0)))
				continue;
			/* its own proxy device swallows the ARP for addr:
			 * node x's own evidence, which the peer's MAC
			 * completes (blind48f 05) */
			if (rd_vxlan_proxy_lacks(d, ifc, addr)) {
				snprintf(buf, len,
					 ". %s reaches %s by its VXLAN overlay "
					 "%s, which answers ARP itself (proxy, "
					 "learning and l3miss off) and holds no "
					 "neighbour entry for %s: %s's ARP for "
					 "it never leaves %s, so %s sends "
					 "nothing to %s over it (ip neigh show "
					 "dev %s on %s). Decide on %s: ip -d "
					 "link show (the link/ether of the "
					 "device that holds %s), then on %s: ip "
					 "neigh replace %s lladdr THAT_MAC dev "
					 "%s nud permanent, and the overlay "
					 "daemon that should install it "
					 "(flannel: restart it).",
					 x, addr, n, addr, x, x, x, who, n, x,
					 who, addr, x, addr, n);
				return;
			}
			if (pn > 0) {
				snprintf(port, sizeof(port), ", UDP port %lld",
					 pn);
				snprintf(dst, sizeof(dst), " and dstport %lld",
					 pn);
			}
			snprintf(buf, len,
				 ". %s reaches %s by its VXLAN overlay %s (VNI "
				 "%lld%s): a member whose overlay device has "
				 "another VNI or port than its peers' reaches "
				 "none of them over it, and %s's own settings "
				 "never reached node 0. Decide on %s: ip -d "
				 "link show (its device on that subnet must "
				 "say vxlan id %lld%s), or merge the document "
				 "it left (netprobe mesh --out) into netprobe "
				 "report, which compares the members' devices.",
				 x, addr, n, rj_int(vx, "id", 0), port, who, who,
				 rj_int(vx, "id", 0), dst);
			return;
		}
	}
}
