/* netprobe report, decide: MTUs to set, on the node or link that differs.
 * Every node's interface MTU is put side by side: a node whose MTU differs
 * from what most nodes run is raised (or set) to theirs; healthy nodes are
 * never lowered to match it. Only where the path itself carries less than
 * both ends' interfaces (an overlay without room for its header, a hop on
 * the way) is an interface set below its neighbours', and then the entry
 * names the overlay or the hop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_decide.h"

/* One node's MTU: the interface its scan chose (or used toward peers). */
struct nmtu {
	const char *node, *ifname, *kind, *underlay;
	long long mtu, underlay_mtu;
};

#define MAXN 256

/* The interface object of a scan by name, or NULL. */
static const json_t *iface_of(const json_t *scan, const char *name)
{
	size_t i;
	json_t *v;

	json_array_foreach(rj_arr(scan, "interfaces"), i, v)
		if (name != NULL && strcmp(rj_strd(v, "name", ""), name) == 0)
			return v;
	return NULL;
}

/* The MTU a path document or scan peer measured on target's interface,
 * or -1 (a node that ran no scan). */
static long long peer_mtu(const struct rctx *c, const char *node)
{
	char buf[256];
	size_t i;
	json_t *p;

	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *t = rn_target(c, d, buf, sizeof(buf));
		long long v = rj_int(json_object_get(d, "pmtu"),
				     "peer_interface_mtu", -1);

		if (t != NULL && strcmp(t, node) == 0 && v > 0)
			return v;
		json_array_foreach(rj_arr(d, "peers"), i, p) {
			t = rn_peer(c, p, buf, sizeof(buf));
			v = rj_int(json_object_get(json_object_get(p, "path"),
						   "pmtu"),
				   "peer_interface_mtu", -1);
			if (t != NULL && strcmp(t, node) == 0 && v > 0)
				return v;
		}
	}
	return -1;
}

/* Each node's MTU, where a scan or a peer's measurement tells it. */
static size_t node_mtus(const struct rctx *c, struct nmtu *out)
{
	/* a member whose overlay device differs chose another network
	 * (its underlay): its MTU is no peer's to compare (issue 48) */
	static const char *const ovl[] = {"vxlan-vni-mismatch",
					  "vxlan-port-mismatch", NULL};
	size_t i, n = 0;
	json_t *v;

	json_array_foreach(c->nodes, i, v) {
		const char *node = json_string_value(v);
		const struct report_input *in = rd_node_scan(c, node);
		const json_t *scan = in != NULL ? in->doc : NULL, *ifc, *vx;
		const char *name = rj_str(json_object_get(scan,
							  "recommendation"),
					  "interface");
		struct nmtu e = {node, NULL, NULL, NULL, -1, -1};

		if (n == MAXN)
			break;
		if (rd_node_has(c, node, ovl))
			continue;
		if (name == NULL)
			name = rj_str(json_array_get(rj_arr(scan, "peers"), 0),
				      "local_ifname");
		if ((ifc = iface_of(scan, name)) != NULL) {
			e.ifname = name;
			e.mtu = rj_int(ifc, "mtu", -1);
			e.kind = rj_str(ifc, "kind");
			vx = json_object_get(ifc, "vxlan");
			e.underlay = rj_str(vx, "underlay");
			e.underlay_mtu = rj_int(iface_of(scan, e.underlay),
						"mtu", -1);
		}
		if (e.mtu <= 0)
			e.mtu = peer_mtu(c, node);
		if (e.mtu > 0)
			out[n++] = e;
	}
	return n;
}

/* Appends one MTU entry; cites the node's MTU findings. An entry whose
 * mtu is 0 says what to measure, with no command. */
static void add(const struct rctx *c, json_t *out, const char *node,
		const char *ifname, long long mtu, const char *kind,
		const char *peer, const char *why)
{
	char cmd[128];
	json_t *cites = json_array();

	rd_cite_findings(c, cites, node, "mtu", 1);
	if (ifname != NULL && mtu > 0)
		snprintf(cmd, sizeof(cmd), "ip link set dev %s mtu %lld",
			 ifname, mtu);
	json_array_append_new(
		out, json_pack("{s:s, s:s, s:s?, s:o, s:s?, s:s, s:s?, s:o}",
			       "node", node, "kind", kind, "interface", ifname,
			       "mtu",
			       mtu > 0 ? json_integer(mtu) : json_null(),
			       "command",
			       ifname != NULL && mtu > 0 ? cmd : NULL, "why",
			       why, "peer", peer, "cites", cites));
}

/* The MTU most nodes run, or -1 when no value has more nodes than every
 * other. */
static long long majority(const struct nmtu *v, size_t n)
{
	long long best = -1;
	size_t bestn = 0;
	bool tie = false;

	for (size_t i = 0; i < n; i++) {
		size_t k = 0;

		for (size_t j = 0; j < n; j++)
			k += v[j].mtu == v[i].mtu;
		if (k > bestn) {
			best = v[i].mtu;
			bestn = k;
			tie = false;
		} else if (k == bestn && v[i].mtu != best) {
			tie = true;
		}
	}
	return tie ? -1 : best;
}

/* "gpu-a, gpu-c": the nodes whose MTU is mtu, into buf. */
static void names_with(const struct nmtu *v, size_t n, long long mtu,
		       char *buf, size_t len)
{
	size_t l = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && l < len; i++)
		if (v[i].mtu == mtu)
			l += (size_t)snprintf(buf + l, len - l, "%s%s",
					      l ? ", " : "", v[i].node);
}

/* Nodes whose MTU differs from the rest: raise (or set) the odd one to
 * what the others run; with no majority, raise the smaller to the larger
 * and say that the network must carry it. */
static void odd_nodes(const struct rctx *c, const struct nmtu *v, size_t n,
		      json_t *out)
{
	long long maj = majority(v, n), lo = -1, hi = -1;
	char why[768], others[256];

	for (size_t i = 0; i < n; i++) {
		if (lo < 0 || v[i].mtu < lo)
			lo = v[i].mtu;
		if (v[i].mtu > hi)
			hi = v[i].mtu;
	}
	if (lo == hi)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *ifn = v[i].ifname ? v[i].ifname : "its interface";

		if (maj > 0 && v[i].mtu != maj) {
			names_with(v, n, maj, others, sizeof(others));
			snprintf(why, sizeof(why),
				 "%s's %s has MTU %lld while the other nodes "
				 "(%s) run %lld: packets above %lld bytes "
				 "between %s and them vanish; %s %s to %lld, "
				 "the MTU the rest of the network runs",
				 v[i].node, ifn, v[i].mtu, others, maj,
				 v[i].mtu < maj ? v[i].mtu : maj, v[i].node,
				 v[i].mtu < maj ? "raise" : "set", ifn, maj);
			add(c, out, v[i].node, v[i].ifname, maj, "node", NULL,
			    why);
		} else if (maj < 0 && v[i].mtu == lo) {
			/* which is right is the switches' to say: no
			 * command until a measurement says it */
			names_with(v, n, hi, others, sizeof(others));
			snprintf(why, sizeof(why),
				 "cannot tell which MTU is right: %s's %s has "
				 "%lld, %s run %lld, and no majority decides; "
				 "netprobe path between two nodes of MTU %lld "
				 "shows whether the network carries %lld: if "
				 "it does, raise %s to %lld; never lower the "
				 "others to match",
				 v[i].node, ifn, lo, others, hi, hi, hi, ifn,
				 hi);
			add(c, out, v[i].node, v[i].ifname, 0, "undecided",
			    NULL, why);
		}
	}
}

/* The headroom an overlay's encapsulation takes over IPv4, or 0. */
static long long overhead(const char *kind)
{
	static const struct {
		const char *kind;
		long long bytes;
	} t[] = {{"vxlan", 50}, {"geneve", 50}, {"ipip", 20},
		 {"gre", 24},   {"wireguard", 60}};

	for (size_t i = 0; kind != NULL && i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(t[i].kind, kind) == 0)
			return t[i].bytes;
	return 0;
}

/* The entry of v for node, or NULL. */
static const struct nmtu *find(const struct nmtu *v, size_t n,
			       const char *node)
{
	for (size_t i = 0; i < n && node != NULL; i++)
		if (strcmp(v[i].node, node) == 0)
			return &v[i];
	return NULL;
}

/* What out holds for node, from the index paths() keeps beside it (one
 * lookup, not a walk of out for every path: at 1,024 members, with an
 * entry for most nodes, the walks were a seventh of the report's time):
 * ENTRY_ANY when out has an entry for node, ENTRY_OVERLAY when one of
 * them is an overlay's. */
enum { ENTRY_ANY = 1, ENTRY_OVERLAY = 2 };

static int entries(const json_t *seen, const char *node)
{
	return node != NULL
		       ? (int)json_integer_value(json_object_get(seen, node))
		       : 0;
}

/* out's last entry: the one add() appended. */
static const json_t *last(const json_t *out)
{
	return json_array_get(out, json_array_size(out) - 1);
}

/* Records out's entry e in seen; -1 when out of memory. */
static int note_entry(json_t *seen, const json_t *e)
{
	const char *node = rj_str(e, "node");
	int f = ENTRY_ANY;

	if (node == NULL)
		return 0;
	if (strcmp(rj_strd(e, "kind", ""), "overlay") == 0)
		f |= ENTRY_OVERLAY;
	return json_object_set_new(seen, node,
				   json_integer(entries(seen, node) | f));
}

/* The default gateway and its interface of node's scan, or false. */
static bool node_gateway(const struct rctx *c, const char *node,
			 const char **gw, const char **ifc)
{
	const struct report_input *in = rd_node_scan(c, node);
	const json_t *r = json_array_get(
		rj_arr(json_object_get(in ? in->doc : NULL, "routes"),
		       "defaults"),
		0);

	*gw = rj_str(r, "gateway");
	*ifc = rj_str(r, "out_interface");
	return *gw != NULL && *ifc != NULL;
}

/* True when gw is node's own container bridge: its scan's layers say it
 * runs NAT'd behind a bridge (bridge-nat) and gw is its default gateway.
 * That gateway is the NAT layer of the node itself, not a hop that other
 * nodes share (tests/gen, a NAT'd container behind a router: its paths
 * went via its host's docker0, 172.17.0.1, made a second hop). */
static bool own_nat_gateway(const struct rctx *c, const char *node,
			    const char *gw)
{
	const struct report_input *in = rd_node_scan(c, node);
	const json_t *ly = json_object_get(in ? in->doc : NULL, "layers");
	const char *dg, *di;

	if (gw == NULL || node == NULL ||
	    strcmp(rj_strd(ly, "netmode", ""), "bridge-nat") != 0)
		return false;
	return node_gateway(c, node, &dg, &di) && strcmp(dg, gw) == 0;
}

/* A path through a gateway that carries less than both ends: the hop's,
 * decided for every pair that crosses it at once (hops()). */
struct hopm {
	const char *from, *gw, *ifc, *src, *dst;
	char to[256]; /* rn_peer's answer may live in a caller's buffer */
	long long ok, lim;
	bool nat; /* gw is from's own NAT bridge (own_nat_gateway()) */
};

#define MAXH 4096

/* A "path" entry of out: the ends of its measurement, to find the
 * measurement the other way (agree()). */
struct pathm {
	const char *src, *dst;
	size_t idx;
};

struct hops {
	struct hopm v[MAXH];
	size_t g[MAXH]; /* group: the first measurement of its hop */
	size_t n;
	struct pathm p[MAXH];
	size_t np;
	json_t *seen; /* node -> its ENTRY_ flags in out */
};

/* Joins group hi into group lo, lo the smaller: a group's first
 * measurement stays its own (hops() walks each group from it). */
static void hop_join(struct hops *h, size_t a, size_t b)
{
	size_t lo = a < b ? a : b, hi = a < b ? b : a;

	for (size_t k = 0; k < h->n; k++)
		if (h->g[k] == hi)
			h->g[k] = lo;
}

/* True when measurements i and j share a gateway: the same address, but
 * a node's own NAT bridge only with that node's own (172.17.0.1 on many
 * hosts is many bridges, no one hop). */
static bool same_gw(const struct hops *h, size_t i, size_t j)
{
	const struct hopm *a = &h->v[i], *b = &h->v[j];

	if (a->nat != b->nat || strcmp(a->gw, b->gw) != 0)
		return false;
	return !a->nat || strcmp(a->from, b->from) == 0;
}

/* Groups the measurements by hop: one gateway, and the gateway the far
 * side uses back where a pair was measured both ways (two addresses of
 * one router). A NAT'd node's paths out through its own bridge cross
 * the hop the other nodes' paths to the same destination cross: they
 * join that hop's group. */
static void hop_groups(struct hops *h)
{
	for (size_t i = 0; i < h->n; i++) {
		h->g[i] = i;
		for (size_t j = 0; j < i; j++)
			if (same_gw(h, i, j)) {
				h->g[i] = h->g[j];
				break;
			}
	}
	for (int pass = 0; pass < 8; pass++) {
		bool changed = false;

		for (size_t i = 0; i < h->n; i++)
			for (size_t j = 0; j < h->n; j++) {
				if (h->g[i] == h->g[j] ||
				    strcmp(h->v[i].to, h->v[j].from) ||
				    strcmp(h->v[i].from, h->v[j].to))
					continue;
				hop_join(h, h->g[i], h->g[j]);
				changed = true;
			}
		if (!changed)
			break;
	}
	for (size_t i = 0; i < h->n; i++) {
		size_t pick = h->n;

		if (!h->v[i].nat)
			continue;
		/* a path to the same node first, else one from it */
		for (size_t j = 0; j < h->n && pick == h->n; j++)
			if (!h->v[j].nat && strcmp(h->v[j].to, h->v[i].to) == 0)
				pick = j;
		for (size_t j = 0; j < h->n && pick == h->n; j++)
			if (!h->v[j].nat &&
			    strcmp(h->v[j].from, h->v[i].to) == 0)
				pick = j;
		if (pick < h->n && h->g[pick] != h->g[i])
			hop_join(h, h->g[i], h->g[pick]);
	}
}

/* One path measurement from `from` to `to`: when the path carries less
 * than both ends' interfaces (and no odd node explains it), the overlay or
 * the hop on the way is the limit; a hop's are kept in h. */
static void one_path(const struct rctx *c, const struct nmtu *v, size_t n,
		     const char *from, const char *to, const char *to_addr,
		     const json_t *pm, const json_t *route, json_t *out,
		     struct hops *h)
{
	long long ok = rj_int(pm, "largest_ok", -1);
	long long mine = rj_int(pm, "interface_mtu", -1);
	long long peer = rj_int(pm, "peer_interface_mtu", -1);
	long long rmtu = rj_int(pm, "route_mtu", -1);
	long long lim = peer > 0 && peer < mine ? peer : mine, want;
	const struct nmtu *me = find(v, n, from);
	const char *ifc = rj_str(route, "out_interface");
	const char *gw = rj_str(route, "gateway");
	char why[768];
	bool odd;

	/* on a link measured lossy a vanished probe is loss, not a size
	 * that does not cross (issue 31): the link's warning says so */
	if (to != NULL && rd_pair_lossy(c, from, to))
		return;
	/* a route MTU at or below what crosses (ip route ... mtu lock, the
	 * workaround for a hop) keeps larger packets from leaving */
	if (rmtu > 0 && rmtu < lim && rmtu <= ok + 8)
		return;
	/* the largest probe that crossed may exceed the MTU by a header */
	if (ok <= 0 || mine <= 0 || ok + 8 >= lim)
		return;
	/* a sender whose own shaper drops full frames: no MTU to set, its
	 * qdisc is the cause (issue 48; the peer's answers to the probes
	 * are small, so the peer's shaper does not limit this path) */
	if (rd_qdisc_of(c, from) != NULL)
		return;
	/* an odd node's own entry explains its pairs; a hop's limit below
	 * both ends is the hop's all the same (seed 127 of tests/gen: a
	 * node at 1400 behind a hop of 1000 needs both fixes) */
	odd = entries(h->seen, from) || entries(h->seen, to);
	/* a peer's overlay entry does not explain this end's overlay: on an
	 * overlay left at 1500 on every node, each node needs its own fix
	 * (tests/gen, an overlay topology: the last node had none) */
	if (!entries(h->seen, from) &&
	    entries(h->seen, to) != ENTRY_ANY &&
	    me != NULL && overhead(me->kind) > 0) {
		want = me->underlay_mtu > 0
			       ? me->underlay_mtu - overhead(me->kind)
			       : ok;
		snprintf(why, sizeof(why),
			 "the overlay %s (%s) has MTU %lld but the path from "
			 "%s to %s carries %lld bytes: set the overlay to its "
			 "underlay's MTU minus the %lld bytes %s adds, on "
			 "every node of the overlay",
			 me->ifname, me->kind, mine, from, to ? to : "the peer",
			 ok, overhead(me->kind), me->kind);
		add(c, out, from, me->ifname, want, "overlay", to, why);
		note_entry(h->seen, last(out));
		return;
	}
	if (rj_str(route, "destination") != NULL)
		to_addr = rj_str(route, "destination");
	if (gw != NULL && to != NULL && ifc != NULL && to_addr != NULL &&
	    h->n < MAXH && !(odd && me != NULL && overhead(me->kind) > 0)) {
		struct hopm *m = &h->v[h->n++];

		*m = (struct hopm){from, gw, ifc, rj_str(route, "source"),
				   to_addr, "", ok, lim,
				   own_nat_gateway(c, from, gw)};
		snprintf(m->to, sizeof(m->to), "%s", to);
		return;
	}
	if (odd)
		return;
	snprintf(why, sizeof(why),
		 "the path from %s to %s carries at most %lld bytes though "
		 "both ends' interfaces take %lld: the limit is a hop on the "
		 "way (%s%s), not a node; raise that hop, or set %s to %lld "
		 "until it is",
		 from, to ? to : "the peer", ok, lim, gw ? "gateway " : "",
		 gw ? gw : "a switch or link between them",
		 ifc ? ifc : "the interface", ok);
	rd_qdisc_hint(c, from, to, ifc, why, sizeof(why));
	if (h->np < MAXH && rj_str(route, "source") != NULL && to_addr != NULL)
		h->p[h->np++] = (struct pathm){rj_str(route, "source"), to_addr,
					       json_array_size(out)};
	add(c, out, from, ifc, ok, "path", to, why);
	note_entry(h->seen, last(out));
}

/* Both ends of one link measured, each way its own size (a veth's MTU
 * counts on the way in, so 1350 one way and 1354 back): an interface MTU
 * must agree with the other end's, so both take the smaller; each its
 * own would leave an mtu-mismatch between them (tests/lab/t_path.sh's
 * closed loop). */
static void agree(json_t *out, const struct hops *h)
{
	for (size_t i = 0; i < h->np; i++)
		for (size_t j = i + 1; j < h->np; j++) {
			const struct pathm *a = &h->p[i], *b = &h->p[j];
			json_t *ea, *eb, *e;
			long long ma, mb, lo;
			char cmd[128], why[1024];

			if (strcmp(a->src, b->dst) != 0 ||
			    strcmp(a->dst, b->src) != 0)
				continue;
			ea = json_array_get(out, a->idx);
			eb = json_array_get(out, b->idx);
			ma = rj_int(ea, "mtu", -1);
			mb = rj_int(eb, "mtu", -1);
			if (ma <= 0 || mb <= 0 || ma == mb ||
			    rj_str(ma > mb ? ea : eb, "interface") == NULL)
				continue;
			lo = ma < mb ? ma : mb;
			e = ma > mb ? ea : eb;
			snprintf(cmd, sizeof(cmd), "ip link set dev %s mtu %lld",
				 rj_str(e, "interface"), lo);
			snprintf(why, sizeof(why),
				 "%s; the way back carries %lld, and both "
				 "ends of a link take one MTU: %lld",
				 rj_str(e, "why"), lo, lo);
			json_object_set_new(e, "mtu", json_integer(lo));
			json_object_set_new(e, "command", json_string(cmd));
			json_object_set_new(e, "why", json_string(why));
		}
}

/* "a, b, c" of the distinct strings v[i].FIELD of the hop group gw,
 * of the measurements through a node's own NAT bridge or of the others
 * (nat). */
static void group_names(const struct hops *h, size_t g, const char *gw,
			bool nat, bool to, char *buf, size_t len)
{
	size_t l = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < h->n && l < len; i++) {
		const char *s = to ? h->v[i].to : h->v[i].from;
		bool seen = false;

		if (h->g[i] != g || h->v[i].nat != nat ||
		    (gw != NULL && strcmp(h->v[i].gw, gw) != 0))
			continue;
		for (size_t j = 0; j < i; j++)
			seen |= h->g[j] == g && h->v[j].nat == nat &&
				(gw == NULL || strcmp(h->v[j].gw, gw) == 0) &&
				strcmp(to ? h->v[j].to : h->v[j].from, s) == 0;
		if (!seen)
			l += (size_t)snprintf(buf + l, len - l, "%s%s",
					      l ? ", " : "", s);
	}
}

/* The address node's scan probed peer at (a NAT'd container's: its
 * host's, which its NAT fix keeps), or NULL. */
static const char *peer_addr_of(const struct rctx *c, const char *node,
				const char *peer)
{
	const struct report_input *in = rd_node_scan(c, node);
	char buf[256];
	size_t i;
	json_t *p;

	json_array_foreach(rj_arr(in ? in->doc : NULL, "peers"), i, p) {
		const char *t = rn_peer(c, p, buf, sizeof(buf));

		if (t != NULL && strcmp(t, peer) == 0)
			return rj_str(p, "peer_addr");
	}
	return NULL;
}

/* Appends `ip route replace DST via GW dev IFC mtu lock N` to the
 * workaround commands of node in cmds ("on NODE"), once. */
static void route_cmd(json_t *cmds, const char *node, const char *dst,
		      const char *gw, const char *ifc, long long mtu)
{
	char key[300], cmd[300];

	snprintf(key, sizeof(key), "on %s", node);
	snprintf(cmd, sizeof(cmd), "ip route replace %s via %s dev %s mtu "
				   "lock %lld",
		 dst, gw, ifc, mtu);
	if (json_object_get(cmds, key) == NULL)
		json_object_set_new(cmds, key, json_array());
	rj_add_unique(json_object_get(cmds, key), cmd);
}

/* One entry per gateway that limits the paths through it: the hop is
 * named (and the node it is, where it is one), the fix is there, and
 * the workaround on every node on either side is a route MTU for the
 * destinations across it only, never an interface MTU that would break
 * the pairs that work. */
static void hops(const struct rctx *c, struct hops *h, json_t *out)
{
	hop_groups(h);
	for (size_t i = 0; i < h->n; i++) {
		const struct hopm *m = &h->v[i];
		const char *hopnode, *gw2, *if2;
		const char *other = NULL;
		long long ok = m->ok, lim = m->lim;
		char froms[512], tos[512], why[2048], also[128] = "";
		char natf[512], natn[640] = "";
		json_t *cmds, *nodes, *cites;

		if (h->g[i] != i)
			continue;
		/* the hop is named by a gateway other nodes share, where
		 * one is: a NAT'd node's own bridge names no hop, nor the
		 * node whose unused docker0 has its address */
		for (size_t j = i; j < h->n && m->nat; j++)
			if (h->g[j] == i && !h->v[j].nat)
				m = &h->v[j];
		ok = m->ok;
		lim = m->lim;
		hopnode = m->nat ? NULL : rn_resolve(c, m->gw, m->gw);
		group_names(h, i, NULL, true, false, natf, sizeof(natf));
		if (!m->nat && natf[0] != '\0')
			snprintf(natn, sizeof(natn),
				 "; %.300s crosses it too, from inside its "
				 "NAT'd container: its own route MTU can be "
				 "set only once its NAT fix is in, and a new "
				 "run then prints it",
				 natf);
		cmds = json_object();
		nodes = json_array();
		cites = json_array();
		for (size_t j = i; j < h->n; j++) {
			const struct hopm *x = &h->v[j];

			if (h->g[j] != i || (x->nat && !m->nat))
				continue;
			if (x->ok < ok)
				ok = x->ok;
			if (x->lim > lim)
				lim = x->lim;
			if (!x->nat && strcmp(x->gw, m->gw) != 0)
				other = x->gw;
		}
		if (other != NULL)
			snprintf(also, sizeof(also),
				 " (and %.64s, the way back)", other);
		for (size_t j = i; j < h->n; j++) {
			const struct hopm *x = &h->v[j];

			if (h->g[j] != i)
				continue;
			rj_add_unique(nodes, x->from);
			rj_add_unique(nodes, x->to);
			rd_cite_findings(c, cites, x->from, "mtu", 1);
			rd_cite_findings(c, cites, x->to, "mtu", 1);
			/* a NAT'd node's route, and its private source
			 * address, change with its NAT fix; the way back
			 * goes to its host's address, which stays */
			if (x->nat && !m->nat) {
				const char *ha = peer_addr_of(c, x->to, x->from);

				if (ha != NULL &&
				    node_gateway(c, x->to, &gw2, &if2))
					route_cmd(cmds, x->to, ha, gw2, if2, ok);
				continue;
			}
			route_cmd(cmds, x->from, x->dst, x->gw, x->ifc, ok);
			/* the way back, through the far side's gateway */
			if (x->src != NULL && !x->nat &&
			    node_gateway(c, x->to, &gw2, &if2))
				route_cmd(cmds, x->to, x->src, gw2, if2, ok);
		}
		group_names(h, i, m->gw, m->nat, false, froms, sizeof(froms));
		group_names(h, i, m->gw, m->nat, true, tos, sizeof(tos));
		snprintf(why, sizeof(why),
			 "every path from %.300s through gateway %s%s%s%s%s to "
			 "%.300s "
			 "carries at most %lld bytes though the ends' "
			 "interfaces take %lld, and no ICMP "
			 "fragmentation-needed comes back: the limit is that "
			 "hop, not a node. Fix it there: raise the MTU of its "
			 "link toward %.300s to %lld, and let ICMP "
			 "fragmentation-needed through its firewall. Until "
			 "then, on each node, a route MTU for the "
			 "destinations across it only (below); never lower an "
			 "interface's MTU, which breaks the pairs that "
			 "work%s",
			 froms, m->gw, hopnode ? " (" : "",
			 hopnode ? hopnode : "", hopnode ? ")" : "", also, tos,
			 ok, lim, tos, lim, natn);
		json_array_append_new(
			out, json_pack("{s:s, s:s, s:s, s:I, s:o, s:s, s:o, "
				       "s:o, s:s?}",
				       "node", hopnode ? hopnode : m->gw,
				       "kind", "hop", "gateway", m->gw, "mtu",
				       (json_int_t)ok, "commands", cmds,
				       "why", why, "nodes", nodes, "cites",
				       cites, "hop_node", hopnode));
	}
}

/* Every path measurement: path documents and scans' peers. */
static void paths(const struct rctx *c, const struct nmtu *v, size_t n,
		  json_t *out)
{
	struct hops *h = calloc(1, sizeof(*h));

	char buf[256];
	size_t i;
	json_t *p;

	if (h == NULL || (h->seen = json_object()) == NULL) {
		free(h);
		return;
	}
	json_array_foreach(out, i, p)
		note_entry(h->seen, p);

	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *host = rj_str(d, "host");

		if (json_is_object(json_object_get(d, "pmtu")))
			one_path(c, v, n, host,
				 rn_target(c, d, buf, sizeof(buf)),
				 rj_str(json_object_get(d, "target"),
					"address"),
				 json_object_get(d, "pmtu"),
				 json_object_get(d, "route"), out, h);
		json_array_foreach(rj_arr(d, "peers"), i, p) {
			const json_t *pa = json_object_get(p, "path");

			one_path(c, v, n, host, rn_peer(c, p, buf, sizeof(buf)),
				 rj_str(p, "peer_addr"),
				 json_object_get(pa, "pmtu"),
				 json_object_get(pa, "route"), out, h);
		}
	}
	agree(out, h);
	hops(c, h, out);
	json_decref(h->seen);
	free(h);
}

json_t *rd_mtu(const struct rctx *c)
{
	struct nmtu v[MAXN];
	json_t *out = json_array();
	size_t n;

	if (out == NULL)
		return NULL;
	n = node_mtus(c, v);
	odd_nodes(c, v, n, out);
	paths(c, v, n, out);
	return out;
}
