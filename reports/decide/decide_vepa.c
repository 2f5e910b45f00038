/* netprobe report, decide: two macvlan siblings in VEPA or private mode
 * (issue 48; jpetazzo/pipework#239). In VEPA mode a macvlan sends every
 * frame, one for a sibling of the same parent included, out of the
 * parent, and only a switch port that hairpins (reflective relay) sends
 * it back; in private mode the kernel drops a sibling's frames even then.
 * So two containers whose addresses sit on such macvlans, on one subnet,
 * fail with each other both ways while each reaches the other members:
 * a macvlan-vepa-peer fault on each, with the command that puts its
 * macvlan in bridge mode (the kernel then switches the pair's frames
 * itself), and the peer it cuts off ("cuts", as decide_names.c's).
 *
 * Silent where unsure: an end that is no VEPA or private macvlan (bridge
 * mode switches siblings inside the host), the two on different subnets,
 * a pair that works (VEPA siblings on different hosts, or a switch that
 * hairpins), a pair failed one way only (a firewall's shape, not a lost
 * ARP), an end that reaches no member at all, or one behind NAT. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

/* True when interface fi is a macvlan (or macvtap) whose mode keeps its
 * siblings' frames off the host: vepa, private. */
static bool vepa_like(const json_t *fi)
{
	const char *k = rj_strd(fi, "kind", ""), *m = rj_strd(fi, "mode", "");

	return (strcmp(k, "macvlan") == 0 || strcmp(k, "macvtap") == 0) &&
	       (strcmp(m, "vepa") == 0 || strcmp(m, "private") == 0);
}

/* One end of a sibling pair: its VEPA-like interface and the global
 * address it holds there. */
struct vend {
	const json_t *ifc;
	const char *addr;
	long plen;
};

/* The VEPA-like macvlan of scan doc d holding a global address: into
 * *e, with its first such address; false when none. */
static bool vepa_end(const json_t *d, struct vend *e)
{
	size_t i, j;
	json_t *fi, *ad;

	json_array_foreach(rj_arr(d, "interfaces"), i, fi) {
		if (!vepa_like(fi))
			continue;
		json_array_foreach(rj_arr(fi, "addresses"), j, ad) {
			if (strcmp(rj_strd(ad, "scope", "global"), "global"))
				continue;
			e->ifc = fi;
			e->addr = rj_strd(ad, "address", "");
			e->plen = (long)rj_int(ad, "prefixlen", 0);
			return true;
		}
	}
	return false;
}

/* How doc d's peers entries toward node to went: 1 when one failed, 0
 * when all answered, -1 when there is none. */
static int went_toward(const struct rctx *c, const json_t *d, const char *to)
{
	size_t i;
	json_t *p;
	int r = -1;

	json_array_foreach(rj_arr(d, "peers"), i, p) {
		const char *pa = rj_strd(p, "peer_addr", "");
		const char *who = rn_resolve(c, pa, pa);

		if (who == NULL || strcmp(who, to) != 0)
			continue;
		if (!json_is_true(json_object_get(p, "responded")))
			return 1;
		r = 0;
	}
	return r;
}

/* True when doc d's peers entries show some member but not answering:
 * the end's own uplink works. */
static bool reaches_other(const struct rctx *c, const json_t *d,
			  const char *not)
{
	size_t i;
	json_t *p;

	json_array_foreach(rj_arr(d, "peers"), i, p) {
		const char *pa = rj_strd(p, "peer_addr", "");
		const char *who = rn_resolve(c, pa, pa);

		if (who != NULL && strcmp(who, not) != 0 &&
		    json_is_true(json_object_get(p, "responded")))
			return true;
	}
	return false;
}

/* See report_decide.h. */
int rd_vepa_toward(const struct rctx *c, const char *a, const char *b)
{
	const struct report_input *ia = rd_node_scan(c, a);
	const struct report_input *ib = rd_node_scan(c, b);
	struct vend ea, eb;

	if (ia == NULL || ib == NULL)
		return -1;
	return vepa_end(ia->doc, &ea) && vepa_end(ib->doc, &eb) &&
	       rd_in_net(eb.addr, ea.addr, ea.plen);
}

/* The macvlan-vepa-peer finding of node a (end ea), whose pair with b
 * (end eb) failed, appended to c->findings. */
static void add_vepa(struct rctx *c, const char *a, const struct vend *ea,
		     const char *b, const struct vend *eb)
{
	const char *ifa = rj_strd(ea->ifc, "name", "");
	const char *mode = rj_strd(ea->ifc, "mode", "");
	const char *parent = rj_strd(ea->ifc, "parent", "");
	char sum[900], fact[600], cmd[300], fix[1600];
	json_t *ev = json_array(), *f;

	snprintf(fact, sizeof(fact), "%s holds %s/%ld on %s, a macvlan in %s "
		 "mode%s%s", a, ea->addr, ea->plen, ifa, mode,
		 parent[0] ? " on " : "", parent);
	json_array_append_new(ev, json_pack("{s:s, s:s}", "fact", fact,
					    "source", "interfaces"));
	snprintf(fact, sizeof(fact), "%s holds %s/%ld on %s, a macvlan in %s "
		 "mode", b, eb->addr, eb->plen, rj_strd(eb->ifc, "name", ""),
		 rj_strd(eb->ifc, "mode", ""));
	json_array_append_new(ev, json_pack("{s:s, s:s}", "fact", fact,
					    "source", "interfaces"));
	snprintf(fact, sizeof(fact), "connections between %s and %s fail "
		 "both ways; each reaches other members", a, b);
	json_array_append_new(ev, json_pack("{s:s, s:s}", "fact", fact,
					    "source", "peers"));
	snprintf(cmd, sizeof(cmd), "ip link set %s type macvlan mode bridge",
		 ifa);
	snprintf(sum, sizeof(sum),
		 "%s's %s and %s's %s are macvlans in %s and %s mode on one "
		 "subnet, and their pair fails both ways while each reaches "
		 "the others: siblings of one parent, whose frames to each "
		 "other leave by the parent and come back only where the "
		 "switch port hairpins (never in private mode)",
		 a, ifa, b, rj_strd(eb->ifc, "name", ""), mode,
		 rj_strd(eb->ifc, "mode", ""));
	/* bridge mode, not hairpin: it works whatever the switch, and in
	 * private mode a hairpin does not help; both ends need it, as a
	 * bridge-mode macvlan passes frames only to bridge-mode siblings */
	snprintf(fix, sizeof(fix),
		 "on %s (and on %s): %s, so the host switches the siblings' "
		 "frames itself (both ends need bridge mode); then the same "
		 "where the macvlan is made (docker network create -d macvlan "
		 "-o macvlan_mode=bridge, a CNI config's \"mode\": "
		 "\"bridge\"). Where VEPA was chosen on purpose, for the "
		 "switch to see every frame: keep it and turn on reflective "
		 "relay (hairpin) on the switch port of the parent instead "
		 "(a Linux bridge: bridge link set dev PORT hairpin on)",
		 a, b, cmd);
	f = rd_finding(FINDING_MACVLAN_VEPA_PEER, a, SEV_FAULT, sum, fix, ev);
	if (f == NULL)
		return;
	json_object_set_new(f, "command", json_string(cmd));
	json_object_set_new(f, "cuts", json_pack("[s]", b));
	json_array_append_new(c->findings, f);
}

/* Whether the pair a, b fits the class: both ends VEPA-like on one
 * subnet, failed both ways where both probed (one way where only one
 * did), each reaching some other member; its ends into *ea, *eb. */
static bool vepa_pair(const struct rctx *c, const char *a, const char *b,
		      struct vend *ea, struct vend *eb)
{
	const struct report_input *ia = rd_node_scan(c, a);
	const struct report_input *ib = rd_node_scan(c, b);
	int ab, ba;

	if (ia == NULL || ib == NULL || rd_node_is_nat(c, a) ||
	    rd_node_is_nat(c, b) || !vepa_end(ia->doc, ea) ||
	    !vepa_end(ib->doc, eb) || !rd_in_net(eb->addr, ea->addr, ea->plen))
		return false;
	ab = went_toward(c, ia->doc, b);
	ba = went_toward(c, ib->doc, a);
	if (ab == 0 || ba == 0 || (ab < 0 && ba < 0))
		return false;
	return reaches_other(c, ia->doc, b) && reaches_other(c, ib->doc, a);
}

/* See report_decide.h. */
void rd_macvlan_vepa(struct rctx *c)
{
	size_t n = json_array_size(c->nodes);

	for (size_t k = 0; k < n; k++)
		for (size_t l = k + 1; l < n; l++) {
			const char *a =
				json_string_value(json_array_get(c->nodes, k));
			const char *b =
				json_string_value(json_array_get(c->nodes, l));
			struct vend ea, eb;

			if (!vepa_pair(c, a, b, &ea, &eb) ||
			    !rd_shell_word(rj_strd(ea.ifc, "name", ""), "@") ||
			    !rd_shell_word(rj_strd(eb.ifc, "name", ""), "@"))
				continue;
			add_vepa(c, a, &ea, b, &eb);
			add_vepa(c, b, &eb, a, &ea);
		}
}
