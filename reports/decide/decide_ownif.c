/* netprobe report, decide: the scan's faults of a node's own interface
 * that cut it off from its LAN (issue 48): nic-noarp (the NOARP flag,
 * blind48d 05) and bridge-port-stuck (the port of the bridge that holds
 * the address stuck short of forwarding with STP off, blind48d 04). Each
 * gets "cuts" (as decide_names.c's findings): the members the node's
 * routes reach by that interface that did not answer, and the members
 * that never joined whose address lies on its prefix (such a node 0
 * hears no join), so the node's setting cause owns those pairs. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

/* d's interface named name, or NULL. */
static const json_t *iface_of(const json_t *d, const char *name)
{
	size_t i;
	json_t *x;

	json_array_foreach(rj_arr(d, "interfaces"), i, x)
		if (strcmp(rj_strd(x, "name", ""), name) == 0)
			return x;
	return NULL;
}

/* True when x is a bridge with STP off one of whose up ports in d is
 * listening, learning or blocking (bridge-port-stuck's bridge). */
static bool stuck_bridge(const json_t *d, const json_t *x)
{
	size_t i;
	json_t *p;

	if (strcmp(rj_strd(x, "kind", ""), "bridge") != 0 ||
	    rj_int(x, "stp_state", -1) != 0)
		return false;
	json_array_foreach(rj_arr(d, "interfaces"), i, p) {
		const char *st = rj_strd(p, "bridge_port_state", "");

		if (strcmp(rj_strd(p, "master", ""), rj_strd(x, "name", "")) ==
			    0 &&
		    rd_has_flag(p, "UP") &&
		    (strcmp(st, "listening") == 0 ||
		     strcmp(st, "learning") == 0 || strcmp(st, "blocking") == 0))
			return true;
	}
	return false;
}

/* True when d's interface name is the one code's fault is about: up
 * with NOARP (nic-noarp), or a bridge with a stuck port. */
static bool cut_iface(const json_t *d, const char *name,
		      enum finding_code code)
{
	const json_t *x = iface_of(d, name);

	if (x == NULL || !rd_has_flag(x, "UP"))
		return false;
	return code == FINDING_NIC_NOARP ? rd_has_flag(x, "NOARP")
					 : stuck_bridge(d, x);
}

/* True when address pa lies in a global prefix of such an interface. */
static bool cut_prefix(const json_t *d, const char *pa,
		       enum finding_code code)
{
	size_t i, j;
	json_t *x, *ad;

	json_array_foreach(rj_arr(d, "interfaces"), i, x) {
		if (!cut_iface(d, rj_strd(x, "name", ""), code))
			continue;
		json_array_foreach(rj_arr(x, "addresses"), j, ad)
			if (strcmp(rj_strd(ad, "scope", ""), "global") == 0 &&
			    rd_in_net(pa, rj_strd(ad, "address", ""),
				   rj_int(ad, "prefixlen", 0)))
				return true;
	}
	return false;
}

/* The cuts of code's findings on node a, from a's document d. */
static void cuts_of(struct rctx *c, const char *a, const json_t *d,
		    enum finding_code code)
{
	size_t i, j;
	json_t *f, *p;

	json_array_foreach(rx_code_findings(c, code), i, f) {
		json_t *cuts;

		if (!finding_is(rj_strd(f, "code", ""), code) ||
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
			    rd_node_scan(c, b) != NULL &&
			    cut_iface(d, rj_strd(r, "out_interface", ""), code))
				rj_add_unique(cuts, b);
		}
		json_array_foreach(rj_arr(json_object_get(rd_mesh_doc(c),
							  "mesh"),
					  "members"),
				   j, p)
			if (strcmp(rj_strd(p, "state", ""), "missing") == 0 &&
			    strcmp(rj_strd(p, "name", ""), a) != 0 &&
			    cut_prefix(d, rj_strd(p, "probed_addr", ""), code))
				rj_add_unique(cuts, rj_strd(p, "name", ""));
		json_object_set_new(f, "cuts", cuts);
	}
}

/* See report_decide.h. */
void rd_ownif(struct rctx *c, const char *a, const json_t *d)
{
	cuts_of(c, a, d, FINDING_NIC_NOARP);
	cuts_of(c, a, d, FINDING_BRIDGE_PORT_STUCK);
}
