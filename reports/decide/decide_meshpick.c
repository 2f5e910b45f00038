/* netprobe report, decide: a node whose scan chose no interface only
 * because it guessed that its bridge of veths is a container's or a VM's
 * (DECIDE_WHY_VETH_BRIDGE) while the mesh measured that bridge's address
 * reaching peers (issue 48, blind48d 08: a host whose LAN address sits on
 * its own br0 over a NIC that the namespace lab makes a veth). The guess
 * yields to the measurement: that bridge is the node's choice, with a
 * note that cites the pairs. Rejections that are facts of the kernel
 * (loopback, down, no carrier, no global address) never yield, and where
 * no peer was measured reaching the address nothing changes. */
#include <stdio.h>
#include <string.h>

#include "decide/decide.h"
#include "report_decide.h"

/* The scan's interface entry named name, or NULL. */
static const json_t *scan_iface(const json_t *doc, const char *name)
{
	size_t i;
	json_t *v;

	json_array_foreach(rj_arr(doc, "interfaces"), i, v)
		if (strcmp(rj_strd(v, "name", ""), name) == 0)
			return v;
	return NULL;
}

/* True when addr is one of the global addresses of the interface entry
 * (scope global: loopback and link-local never carry a mesh pair). */
static bool iface_holds(const json_t *ifc, const char *addr)
{
	size_t i;
	json_t *a;

	if (addr == NULL || addr[0] == '\0')
		return false;
	json_array_foreach(rj_arr(ifc, "addresses"), i, a)
		if (strcmp(rj_strd(a, "scope", ""), "global") == 0 &&
		    strcmp(rj_strd(a, "address", ""), addr) == 0)
			return true;
	return false;
}

/* A peer entry that measured a direct answer: it responded, not through
 * NAT (a NAT'd container bridge answers too, from another address). */
static bool answered(const json_t *p)
{
	return json_is_true(json_object_get(p, "responded")) &&
	       !json_is_true(json_object_get(p, "nat"));
}

/* Appends name to list (comma separated), bounded. */
static void list_add(char *list, size_t len, const char *name)
{
	size_t l = strlen(list);

	if (l + 1 < len)
		snprintf(list + l, len - l, "%s%s", l ? ", " : "", name);
}

/* The pairs the mesh measured on the interface entry ifc of node: out,
 * the peers node reached from one of its addresses (its own scan's
 * peers); in, the members whose scans reached node at one of them. Each
 * counted once per peer, named in the lists, cited in cites. */
static void measured(const struct rctx *c, const char *node,
		     const json_t *doc, const json_t *ifc, size_t *out,
		     char *outl, size_t *in, char *inl, size_t len,
		     json_t *cites)
{
	size_t i, j;
	json_t *p, *n;

	*out = *in = 0;
	outl[0] = inl[0] = '\0';
	json_array_foreach(rj_arr(doc, "peers"), i, p) {
		char buf[256];
		const char *to = rn_peer(c, p, buf, sizeof(buf));

		if (to == NULL || !answered(p) ||
		    !iface_holds(ifc, rj_str(p, "local_addr")))
			continue;
		(*out)++;
		list_add(outl, len, to);
	}
	if (*out > 0)
		rd_cite_add(cites, node, "scan.peers");
	json_array_foreach(c->nodes, i, n) {
		const char *o = json_string_value(n);
		const struct report_input *s;

		if (strcmp(o, node) == 0 || (s = rd_node_scan(c, o)) == NULL)
			continue;
		json_array_foreach(rj_arr(s->doc, "peers"), j, p) {
			char buf[256];
			const char *to = rn_peer(c, p, buf, sizeof(buf));

			if (to == NULL || strcmp(to, node) != 0 ||
			    !answered(p) ||
			    !iface_holds(ifc, rj_str(p, "peer_addr")))
				continue;
			(*in)++;
			list_add(inl, len, o);
			rd_cite_add(cites, o, "scan.peers");
			break;
		}
	}
}

/* The first rejected bridge of veths of node's scan sc that the mesh
 * measured reaching a peer, as a per_node entry with its why and cites;
 * NULL when none (the node blocks, as its scan said). */
json_t *rd_mesh_pick(const struct rctx *c, const char *node,
		     const struct report_input *sc)
{
	const json_t *rec = json_object_get(sc->doc, "recommendation");
	size_t i;
	json_t *r;

	json_array_foreach(rj_arr(rec, "rejected"), i, r) {
		const char *name = rj_str(r, "interface");
		const json_t *ifc;
		char outl[256], inl[256], why[768];
		size_t out, in, k;
		const char *addr = NULL;
		json_t *a, *cites;

		if (name == NULL ||
		    strcmp(rj_strd(r, "reason", ""), DECIDE_WHY_VETH_BRIDGE) !=
			    0 ||
		    (ifc = scan_iface(sc->doc, name)) == NULL)
			continue;
		cites = json_array();
		rd_cite_add(cites, node, "scan.recommendation");
		measured(c, node, sc->doc, ifc, &out, outl, &in, inl,
			 sizeof(outl), cites);
		if (out + in == 0) {
			json_decref(cites);
			continue;
		}
		/* the address the peers measured: the one they reached,
		 * else the one node reached them from */
		json_array_foreach(rj_arr(ifc, "addresses"), k, a)
			if (strcmp(rj_strd(a, "scope", ""), "global") == 0) {
				addr = rj_str(a, "address");
				break;
			}
		snprintf(why, sizeof(why),
			 "its scan rejected %s as a bridge of veths only (a "
			 "guess that it is a container's or a VM's), but the "
			 "mesh measured it reaching peers: %zu reached from "
			 "it (%s), %zu reached it (%s)",
			 name, out, out ? outl : "none", in, in ? inl : "none");
		return json_pack("{s:s, s:s, s:s?, s:s, s:s, s:o}", "node",
				 node, "interface", name, "address", addr,
				 "file", sc->path, "why", why, "cites", cites);
	}
	return NULL;
}
