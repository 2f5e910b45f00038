/* netprobe report, decide: which node is which beyond its name (issue
 * 31). Two nodes that hold one IPv4 address (a clone's static address, an
 * address added by hand): peers reach whichever wins the ARP race, so the
 * verdict on that address means nothing; the node that holds it beside
 * its own primary address is told to drop it, never a hosts file mapped
 * to the other. Two members of a mesh with one hostname (cloned images):
 * launchers, host files and logs key nodes by it, a warning on each. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

/* One finding appended to the merged findings. cmd: its one-line fix
 * (a setting cause runs it), or NULL. */
static void add(struct rctx *c, const char *node, enum finding_code id,
                enum severity sev, const char *sum, const char *fact,
                const char *fix, const char *cmd)
{
	json_t *f = rd_finding(
	    id, node, sev, sum, fix,
	    json_pack("[{s:s, s:s}]", "fact", fact, "source", "interfaces"));

	if (f == NULL)
		return;
	if (cmd != NULL)
		json_object_set_new(f, "command", json_string(cmd));
	json_array_append_new(c->findings, f);
}

/* Where scan doc d holds IPv4 address a (global scope): its interface
 * into ifc, its prefix length into *plen, and whether it is the
 * interface's first IPv4 address (its primary). False when d does not. */
static bool holds(const json_t *d, const char *a, char *ifc, size_t len,
		  long *plen, bool *primary)
{
	size_t i, j;
	json_t *f, *ad;

	json_array_foreach(rj_arr(d, "interfaces"), i, f) {
		bool first = true;

		json_array_foreach(rj_arr(f, "addresses"), j, ad) {
			if (strcmp(rj_strd(ad, "family", ""), "inet") != 0)
				continue;
			if (strcmp(rj_strd(ad, "address", ""), a) == 0 &&
			    strcmp(rj_strd(ad, "scope", "global"), "global") ==
				    0) {
				snprintf(ifc, len, "%s", rj_strd(f, "name", ""));
				*plen = (long)rj_int(ad, "prefixlen", 32);
				*primary = first;
				return true;
			}
			first = false;
		}
	}
	return false;
}

/* One address held by nodes a (doc da) and b (doc db). */
static void conflict(struct rctx *c, const char *a, const json_t *da,
		     const char *b, const json_t *db, const char *addr)
{
	char ia[64], ib[64], sum[512], fact[512], fix[512], cmd[200];
	long la, lb;
	bool pa, pb;

	if (!holds(da, addr, ia, sizeof(ia), &la, &pa) ||
	    !holds(db, addr, ib, sizeof(ib), &lb, &pb))
		return;
	snprintf(fact, sizeof(fact),
		 "%s holds %s on %s (%s), %s holds it on %s (%s)", a, addr, ia,
		 pa ? "its first address there" : "beside its first", b, ib,
		 pb ? "its first address there" : "beside its first");
	if (pa != pb) {
		/* the one that holds it beside its own is the odd one */
		const char *odd = pa ? b : a, *own = pa ? a : b;

		snprintf(sum, sizeof(sum),
			 "%s holds %s, the address of %s, beside its own: "
			 "peers reach whichever node answers ARP first",
			 odd, addr, own);
		snprintf(cmd, sizeof(cmd), "ip addr del %s/%ld dev %s", addr,
			 pa ? lb : la, pa ? ib : ia);
		snprintf(fix, sizeof(fix),
			 "remove %s from %s (it is %s's): %s; never map a name "
			 "to the address instead, which keeps the conflict",
			 addr, odd, own, cmd);
		add(c, odd, FINDING_ADDRESS_CONFLICT, SEV_FAULT, sum, fact, fix,
		    cmd);
		json_object_set_new(json_array_get(c->findings,
						   json_array_size(c->findings) - 1),
				    "address", json_string(addr));
		return;
	}
	snprintf(sum, sizeof(sum),
		 "%s and %s both hold %s: peers reach whichever answers ARP "
		 "first, so what was measured toward it may be either node",
		 a, b, addr);
	snprintf(fix, sizeof(fix),
		 "give one of %s and %s another address (a cloned image's "
		 "static address, or a DHCP reservation given twice); cannot "
		 "tell which one should keep %s: both hold it first on their "
		 "interface",
		 a, b, addr);
	add(c, a, FINDING_ADDRESS_CONFLICT, SEV_FAULT, sum, fact, fix, NULL);
	add(c, b, FINDING_ADDRESS_CONFLICT, SEV_FAULT, sum, fact, fix, NULL);
	for (size_t k = 1; k <= 2; k++)
		json_object_set_new(json_array_get(c->findings,
						   json_array_size(c->findings) - k),
				    "address", json_string(addr));
}

/* True when some document reaches a node at addr (a peer's address):
 * an address of the cluster's network, not a bridge every Docker host
 * has (172.17.0.1). */
static bool used(const struct rctx *c, const char *addr)
{
	size_t i;
	json_t *p;

	for (size_t k = 0; k < c->set->nin; k++)
		json_array_foreach(rj_arr(c->set->in[k].doc, "peers"), i, p)
			if (strcmp(rj_strd(p, "peer_addr", ""), addr) == 0)
				return true;
	return false;
}

/* Address conflicts between every two nodes' scans. */
static void addr_conflicts(struct rctx *c)
{
	size_t n = json_array_size(c->nodes);

	for (size_t i = 0; i < n; i++) {
		const char *a = json_string_value(json_array_get(c->nodes, i));
		const struct report_input *ia = rd_node_scan(c, a);
		size_t k, l;
		json_t *f, *ad;

		if (ia == NULL)
			continue;
		json_array_foreach(rj_arr(ia->doc, "interfaces"), k, f)
			json_array_foreach(rj_arr(f, "addresses"), l, ad) {
				const char *addr = rj_strd(ad, "address", "");

				if (strcmp(rj_strd(ad, "family", ""), "inet") ||
				    strcmp(rj_strd(ad, "scope", "global"),
					   "global") ||
				    strncmp(addr, "127.", 4) == 0 ||
				    !used(c, addr))
					continue;
				for (size_t j = i + 1; j < n; j++) {
					const char *b = json_string_value(
						json_array_get(c->nodes, j));
					const struct report_input *ib =
						rd_node_scan(c, b);
					char x[64];
					long pl;
					bool pr;

					if (ib != NULL && ib != ia &&
					    holds(ib->doc, addr, x, sizeof(x),
						  &pl, &pr))
						conflict(c, a, ia->doc, b,
							 ib->doc, addr);
				}
			}
	}
}

/* Mesh members that share one hostname: a warning on each. */
static void shared_hostnames(struct rctx *c)
{
	char sum[512], fact[512];

	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *ms = rj_arr(json_object_get(c->set->in[k].doc,
							  "mesh"),
					  "members");
		size_t i, j;
		json_t *a, *b;

		json_array_foreach(ms, i, a) {
			const char *ha = rj_str(a, "hostname");

			if (ha == NULL)
				continue;
			json_array_foreach(ms, j, b) {
				const char *hb = rj_str(b, "hostname");

				if (j == i || hb == NULL || strcmp(ha, hb) != 0 ||
				    strcmp(rj_strd(a, "name", ""),
					   rj_strd(b, "name", "")) == 0)
					continue;
				snprintf(sum, sizeof(sum),
					 "this node's hostname '%s' is also "
					 "member %s's: launchers, host files "
					 "and logs that key nodes by hostname "
					 "mistake one for the other",
					 ha, rj_strd(b, "name", "?"));
				snprintf(fact, sizeof(fact),
					 "members %s and %s both say hostname "
					 "'%s'",
					 rj_strd(a, "name", "?"),
					 rj_strd(b, "name", "?"), ha);
				add(c, rj_strd(a, "name", "?"),
				    FINDING_HOSTNAME_SHARED, SEV_WARNING, sum,
				    fact,
				    "give each node a hostname of its own "
				    "(hostnamectl set-hostname NAME; a cloned "
				    "image keeps its template's), then its "
				    "entry in the host files",
				    NULL);
				break;
			}
		}
	}
}

/* The prefix length of the LAN that holds addr, as some node's scan sees
 * it (an address of its own in that network, global scope), or 0. */
static long lan_prefix(const struct rctx *c, const char *addr)
{
	for (size_t k = 0; k < c->set->nin; k++) {
		size_t i, j;
		json_t *f, *ad;

		json_array_foreach(rj_arr(c->set->in[k].doc, "interfaces"), i, f)
			json_array_foreach(rj_arr(f, "addresses"), j, ad) {
				long pl = (long)rj_int(ad, "prefixlen", 0);
				const char *a = rj_strd(ad, "address", "");

				if (strcmp(rj_strd(ad, "scope", "global"),
					   "global") == 0 &&
				    strcmp(a, addr) != 0 && pl > 0 &&
				    pl < (strchr(a, ':') ? 128 : 32) &&
				    rd_in_net(addr, a, pl))
					return pl;
			}
	}
	return 0;
}

/* The member of the mesh document's list that name (a join's hostname)
 * is: its report name or list entry, else the hostname it joined under
 * (a clone that joined in another's rank says its own hostname there,
 * so a name or entry comes first). NULL when none. */
static const json_t *member_named(const json_t *md, const char *name)
{
	const json_t *ms = rj_arr(json_object_get(md, "mesh"), "members");
	size_t i;
	json_t *m;

	json_array_foreach(ms, i, m)
		if (strcmp(rj_strd(m, "name", ""), name) == 0 ||
		    strcmp(rj_strd(m, "entry", ""), name) == 0)
			return m;
	json_array_foreach(ms, i, m)
		if (strcmp(rj_strd(m, "hostname", ""), name) == 0)
			return m;
	return NULL;
}

/* The address held twice that mesh-node-duplicate finding f shows (issue
 * 48): a join turned away for claiming a rank that a member holds, from
 * that member's own address but under another hostname, is a second
 * machine on the address (a clone), not a second netprobe. The clone is
 * the member of the list its hostname names, when that is another member
 * than the holder; it gets the fault, with the command that gives it the
 * address the list names it at where that differs. The holder is the
 * victim: no finding. */
static void join_conflict(struct rctx *c, const json_t *md, const json_t *f)
{
	const json_t *ev = rj_arr(f, "evidence"), *j = NULL, *h = NULL, *cl;
	const char *addr, *host, *hhost, *hname, *clone, *own;
	char sum[512], fact[640], fix[1600], cmd[700];
	size_t i;
	json_t *v;
	long pl;

	json_array_foreach(ev, i, v) {
		if (rj_str(v, "address") == NULL)
			continue;
		if (rj_str(v, "name") != NULL)
			h = v;
		else
			j = v;
	}
	if (j == NULL || h == NULL ||
	    (addr = rj_str(j, "address")) == NULL ||
	    (host = rj_str(j, "hostname")) == NULL ||
	    (hhost = rj_str(h, "hostname")) == NULL ||
	    strcmp(addr, rj_strd(h, "address", "")) != 0 ||
	    strcmp(host, hhost) == 0)
		return;
	hname = rj_str(h, "name");
	/* the clone is the one whose hostname names another member of the
	 * list: the join turned away, or the holder when the clone joined
	 * first and the rank's own node was turned away */
	if (((cl = member_named(md, host)) == NULL ||
	     strcmp(rj_strd(cl, "name", ""), hname) == 0) &&
	    ((cl = member_named(md, hhost)) == NULL ||
	     strcmp(rj_strd(cl, "name", ""), hname) == 0))
		return;
	clone = rj_strd(cl, "name", "");
	if (clone[0] == '\0')
		return;
	/* once per clone and address (a join retried) */
	json_array_foreach(c->findings, i, v)
		if (finding_is(rj_strd(v, "code", ""),
			       FINDING_ADDRESS_CONFLICT) &&
		    strcmp(rj_strd(v, "node", ""), clone) == 0 &&
		    strcmp(rj_strd(v, "address", ""), addr) == 0)
			return;
	snprintf(sum, sizeof(sum),
		 "%s holds %s, the address of %s, as its own: two machines "
		 "answer for %s (a cloned image's static address), so "
		 "connections to %s reach either one, and node 0 took only "
		 "one of the two into the mesh",
		 clone, addr, hname, addr, hname);
	snprintf(fact, sizeof(fact),
		 "a join from %s under hostname '%s' claimed %s's rank, which "
		 "a node of hostname '%s' holds from that same address: one "
		 "address, two machines",
		 addr, host, hname, hhost);
	own = rj_strd(cl, "probed_addr", "");
	pl = lan_prefix(c, addr);
	cmd[0] = '\0';
	if (own[0] != '\0' && strcmp(own, addr) != 0 && pl > 0 &&
	    (strchr(own, ':') != NULL) == (strchr(addr, ':') != NULL) &&
	    rd_in_net(own, addr, pl))
		/* the default route goes with the old address: kept */
		snprintf(cmd, sizeof(cmd),
			 "dev=$(ip -o addr show to %s | awk '{print $2; "
			 "exit}') && gw=$(ip %s route show default dev "
			 "\"$dev\" | awk '{for (i = 1; i < NF; i++) if ($i "
			 "== \"via\") {print $(i + 1); exit}}') && ip addr "
			 "del %s/%ld dev \"$dev\" && ip addr add %s/%ld dev "
			 "\"$dev\" && { [ -z \"$gw\" ] || ip %s route "
			 "replace default via \"$gw\" dev \"$dev\"; }",
			 addr, strchr(addr, ':') ? "-6" : "-4", addr, pl, own,
			 pl, strchr(addr, ':') ? "-6" : "-4");
	if (cmd[0] != '\0')
		snprintf(fix, sizeof(fix),
			 "give %s its own address, %s (where the host list "
			 "names it; nothing answered node 0 there), in place "
			 "of %s's %s: %s; then make it last in %s's network "
			 "configuration (the command keeps its default "
			 "route, which goes with the old address). Peers and "
			 "the gateway keep %s's MAC for %s up to a minute: "
			 "wait, or run ip neigh flush to %s on them. Never map "
			 "a name to the address instead, which keeps the "
			 "conflict",
			 clone, own, hname, addr, cmd, clone, clone, addr,
			 addr);
	else
		snprintf(fix, sizeof(fix),
			 "give %s an address of its own that no other machine "
			 "holds, in place of %s's %s (ip addr del %s/PREFIX dev "
			 "IFACE && ip addr add FREE/PREFIX dev IFACE on %s), "
			 "then in its network configuration; never map a name "
			 "to the address instead",
			 clone, hname, addr, addr, clone);
	add(c, clone, FINDING_ADDRESS_CONFLICT, SEV_FAULT, sum, fact, fix,
	    cmd[0] != '\0' ? cmd : NULL);
	json_object_set_new(json_array_get(c->findings,
					   json_array_size(c->findings) - 1),
			    "address", json_string(addr));
}

/* Addresses held twice that the mesh's joins show: for each join node 0
 * turned away as a duplicate, join_conflict. */
static void join_conflicts(struct rctx *c)
{
	const json_t *md = rd_mesh_doc(c), *f;
	size_t i, n = json_array_size(c->findings);

	if (md == NULL)
		return;
	/* only the findings there before: join_conflict appends */
	for (i = 0; i < n; i++) {
		f = json_array_get(c->findings, i);
		if (finding_is(rj_strd(f, "code", ""),
			       FINDING_MESH_NODE_DUPLICATE))
			join_conflict(c, md, f);
	}
}

void rd_identity(struct rctx *c)
{
	addr_conflicts(c);
	join_conflicts(c);
	shared_hostnames(c);
}
