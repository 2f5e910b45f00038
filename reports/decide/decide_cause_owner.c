/* netprobe report, decide: which cause explains a finding
 * (decide_causes.c): by the finding's code, its node and its pair, an
 * address two nodes hold, a name that cuts a node off, a box on the
 * path, a host limit; NULL when none does. */
#include <ctype.h>
#include <string.h>

#include "decide_causes.h"
#include "decide_limits.h"
#include "doc/finding.h"
#include "report_decide.h"

/* The cause of an address conflict that involves a or b (the setting
 * cause whose command drops the address, on the node that holds it
 * beside its own), or NULL: what fails toward either is its symptom. */
static json_t *conflict_of(const struct rctx *c, const json_t *causes,
			   const json_t *ix, const char *a, const char *b)
{
	const json_t *f = rd_conflict_of(c, a);

	if (f == NULL)
		f = rd_conflict_of(c, b);
	return f != NULL ? cause_in(ix, causes, "setting", rj_str(f, "node"))
			 : NULL;
}

/* True when text names addr as a whole ("10.0.0.1" is not in
 * "10.0.0.12"). */
static bool names_addr(const char *text, const char *addr)
{
	size_t n = strlen(addr);

	for (const char *p = text; n > 0 && (p = strstr(p, addr)) != NULL;
	     p++)
		if ((p == text || !isdigit((unsigned char)p[-1])) &&
		    !isdigit((unsigned char)p[n]))
			return true;
	return false;
}

/* True when finding f's summary or evidence names addr. */
static bool mentions(const json_t *f, const char *addr)
{
	size_t i;
	json_t *v;

	if (names_addr(rj_strd(f, "summary", ""), addr))
		return true;
	json_array_foreach(rj_arr(f, "evidence"), i, v)
		if (names_addr(rj_strd(v, "fact", ""), addr))
			return true;
	return false;
}

/* The setting cause of the address held twice that a join turned away
 * as a duplicate came from (its evidence's address), or NULL. */
static json_t *dup_conflict(const struct rctx *c, const json_t *causes,
			    const json_t *ix, const json_t *f)
{
	size_t i, j;
	json_t *g, *v;

	json_array_foreach(rx_code_findings(c, FINDING_ADDRESS_CONFLICT), i, g) {
		if (!finding_is(rj_strd(g, "code", ""),
				FINDING_ADDRESS_CONFLICT) ||
		    rj_str(g, "address") == NULL)
			continue;
		json_array_foreach(rj_arr(f, "evidence"), j, v)
			if (strcmp(rj_strd(v, "address", ""),
				   rj_str(g, "address")) == 0)
				return cause_in(ix, causes, "setting",
						rj_str(g, "node"));
	}
	return NULL;
}

/* The address conflict between a and b (a holds b's address, or b a's),
 * or, b NULL, a's conflict over an address finding g names: a path
 * measured between them, or toward that address, went to either node;
 * NULL when none. */
static json_t *conflict_between(const struct rctx *c, const json_t *causes,
				const json_t *ix, const json_t *g,
				const char *a, const char *b)
{
	size_t i;
	json_t *f;

	json_array_foreach(rx_code_findings(c, FINDING_ADDRESS_CONFLICT), i, f) {
		const char *n = rj_strd(f, "node", "");

		if (!finding_is(rj_strd(f, "code", ""),
		                FINDING_ADDRESS_CONFLICT))
			continue;
		/* a pair of the two, or a path toward the address itself
		 * (which names no one node: both hold it) */
		if ((b != NULL && (strcmp(n, a) == 0 || strcmp(n, b) == 0) &&
		     strstr(rj_strd(f, "summary", ""),
			    strcmp(n, a) == 0 ? b : a) != NULL) ||
		    (b == NULL && strcmp(n, a) == 0 &&
		     mentions(g, rj_strd(f, "address", "-"))))
			return cause_in(ix, causes, "setting", n);
	}
	return NULL;
}

/* The setting cause of a name or address that cuts a node off
 * (decide_names.c) when it explains finding f: a failed pair it names,
 * or the node's interface warnings, which follow from its route. */
static json_t *names_owner(const struct rctx *c, const json_t *causes,
			   const json_t *ix, const json_t *f, const char *code,
			   const char *node)
{
	const json_t *g;

	if (finding_is(code, FINDING_HOSTS_STALE) ||
	    finding_is(code, FINDING_PREFIX_NARROW) ||
	    finding_is(code, FINDING_BRIDGE_ROUTE_SHADOW) ||
	    finding_is(code, FINDING_MACVLAN_PARENT) ||
	    finding_is(code, FINDING_NEIGH_STALE_STATIC) ||
	    finding_is(code, FINDING_VXLAN_VNI_MISMATCH) ||
	    finding_is(code, FINDING_VXLAN_PORT_MISMATCH) ||
	    finding_is(code, FINDING_MACVLAN_VEPA_PEER) ||
	    finding_is(code, FINDING_ECMP_DEAD_NEXTHOP) ||
	    finding_is(code, FINDING_ROUTE_TYPE_DROP))
		return NULL;
	/* a bridge whose only way out is a stuck port has no carrier: the
	 * node's "no usable interface", and that bridge's interface-down
	 * ("BR has an address but is down"), are the port's (issue 48) */
	if (finding_is(code, FINDING_NO_USABLE_INTERFACE) ||
	    finding_is(code, FINDING_INTERFACE_DOWN)) {
		const char *br, *sum = rj_strd(f, "summary", "");
		size_t n;

		g = rd_names_cut(c, node, NULL);
		if (g == NULL || !finding_is(rj_strd(g, "code", ""),
					     FINDING_BRIDGE_PORT_STUCK))
			return NULL;
		if (finding_is(code, FINDING_NO_USABLE_INTERFACE))
			return cause_in(ix, causes, "setting", node);
		br = strstr(rj_strd(g, "summary", ""), " of bridge ");
		if (br == NULL)
			return NULL;
		br += strlen(" of bridge ");
		n = strcspn(br, " ");
		return n > 0 && strncmp(sum, br, n) == 0 && sum[n] == ' '
			       ? cause_in(ix, causes, "setting", node)
			       : NULL;
	}
	if (finding_is(code, FINDING_MPI_BTL_IFACE) ||
	    finding_is(code, FINDING_NCCL_DEFAULT_IFACE_UNSAFE) ||
	    finding_is(code, FINDING_OVERLAPPING_SUBNETS)) {
		/* only a route's own cause: the bridge or the prefix, an
		 * addressed bridge port, or a route that drops a peer (the
		 * scan recommends nothing on its node) */
		g = rd_names_cut(c, node, NULL);
		if (g != NULL &&
		    !finding_is(rj_strd(g, "code", ""),
				FINDING_BRIDGE_ROUTE_SHADOW) &&
		    !finding_is(rj_strd(g, "code", ""),
				FINDING_ROUTE_TYPE_DROP) &&
		    !finding_is(rj_strd(g, "code", ""),
				FINDING_PREFIX_NARROW) &&
		    !finding_is(rj_strd(g, "code", ""),
				FINDING_BRIDGE_PORT_ADDRESSED) &&
		    !finding_is(rj_strd(g, "code", ""), FINDING_NIC_NOARP) &&
		    !finding_is(rj_strd(g, "code", ""),
				FINDING_BRIDGE_PORT_STUCK))
			g = NULL;
	} else if (finding_in_cause(code, CAUSE_FIREWALL) ||
		 finding_in_cause(code, CAUSE_MTU) ||
		 finding_is(code, FINDING_HOST_UNREACHABLE) ||
		 finding_is(code, FINDING_RANK_UNREACHABLE) ||
		 finding_is(code, FINDING_PORT_CLOSED) ||
		 finding_is(code, FINDING_REPLY_BLOCKED))
		g = rd_names_cut(c, node, rd_pair_of(c, f));
	else
		g = NULL;
	return g != NULL ? cause_in(ix, causes, "setting", rj_str(g, "node"))
			 : NULL;
}

/* The cause that explains finding f, or NULL; through ix when there is
 * one (causes_index). */
json_t *cause_owner_ix(const struct rctx *c, const json_t *causes,
		       const json_t *f, const json_t *ix)
{
	const char *code = rj_str(f, "code"), *node = rj_str(f, "node");
	const char *sub = rd_subject(c, f);
	json_t *k;
	size_t i;

	if (finding_in_cause(code, CAUSE_MTU)) {
		const json_t *q = rd_qdisc_of(c, node);

		/* the sender's own shaper drops its large probes, the MTUs
		 * equal (issue 48; the peer's answers are small, so its
		 * shaper explains nothing here); a mismatch stays the
		 * MTU's */
		if (q != NULL && finding_is(code, FINDING_MTU_BLACKHOLE) &&
		    strstr(rj_strd(f, "summary", ""),
			   "the interface MTUs differ") == NULL &&
		    (k = cause_in(ix, causes, "setting", rj_str(q, "node"))) !=
			NULL)
			return k;
		/* toward an address two nodes hold, the path is either's */
		if ((k = conflict_between(c, causes, ix, f, node,
					  rd_pair_of(c, f))) != NULL)
			return k;
		json_array_foreach(ix != NULL ? json_object_get(ix, "h")
					      : causes,
				   i, k) {
			json_t *v;
			size_t j;

			if (strcmp(rj_str(k, "kind"), "hop") != 0)
				continue;
			json_array_foreach(rj_arr(k, "nodes"), j, v)
				if (strcmp(json_string_value(v), node) == 0 ||
				    strcmp(json_string_value(v), sub) == 0)
					return k;
		}
		if (ix != NULL)
			return cause_mtu_in(ix, causes, node, sub);
		json_array_foreach(causes, i, k)
			if (strcmp(rj_str(k, "kind"), "mtu") == 0 &&
			    (strcmp(rj_str(k, "node"), node) == 0 ||
			     strcmp(rj_str(k, "node"), sub) == 0 ||
			     strcmp(rj_strd(k, "peer", ""), node) == 0))
				return k;
		return NULL;
	}
	if (finding_in_cause(code, CAUSE_HOSTNAME))
		return cause_in(ix, causes, "hostname", node);
	/* a job variable of the node's own (MASTER_ADDR, an interface
	 * variable): its node's setting cause, never the peer's limit or
	 * firewall the pair's shape would give it (issue 48) */
	if (rd_fix_is_setting(f) && rj_str(f, "command") != NULL)
		return cause_in(ix, causes, "setting", node);
	if ((k = names_owner(c, causes, ix, f, code, node)) != NULL)
		return k;
	if (finding_is(code, FINDING_MESH_NODE_MISSING))
		return rd_missing_owner(c, causes, f);
	/* a join turned away from an address two machines hold */
	if (finding_is(code, FINDING_MESH_NODE_DUPLICATE) &&
	    (k = dup_conflict(c, causes, ix, f)) != NULL)
		return k;
	/* a member that died whose address another machine holds: the
	 * other took its connection (issue 48) */
	if (finding_is(code, FINDING_MESH_NODE_DIED) &&
	    ((k = conflict_of(c, causes, ix, rd_pair_of(c, f), NULL)) != NULL ||
	     (k = rd_died_owner(c, causes, f)) != NULL))
		return k;
	if ((k = cause_in(ix, causes, "nat", sub)) != NULL &&
	    (rf_is_nat(code) || strcmp(rj_strd(f, "class", ""), "ports") == 0 ||
	     strcmp(rj_strd(f, "class", ""), "heartbeat") == 0))
		return k;
	/* a node whose route toward a peer fails gets no recommended
	 * interface, so its interface warnings follow from the route */
	if ((finding_is(code, FINDING_MPI_BTL_IFACE) ||
	     finding_is(code, FINDING_NCCL_DEFAULT_IFACE_UNSAFE)) &&
	    (k = rd_missing_alone(c, causes, node)) != NULL)
		return k;
	if (finding_is(code, FINDING_MPI_BTL_IFACE) ||
	    finding_is(code, FINDING_NCCL_DEFAULT_IFACE_UNSAFE))
		json_array_foreach(causes, i, k)
			if (strcmp(rj_str(k, "kind"), "route") == 0 &&
			    strcmp(rj_str(k, "node"), node) == 0)
				return k;
	if ((finding_in_cause(code, CAUSE_FIREWALL) ||
	     finding_is(code, FINDING_HOST_UNREACHABLE) ||
	     finding_is(code, FINDING_RANK_UNREACHABLE) ||
	     finding_is(code, FINDING_PORT_CLOSED)) &&
	    (k = conflict_of(c, causes, ix, node, rd_pair_of(c, f))) != NULL)
		return k;
	if ((finding_in_cause(code, CAUSE_FIREWALL) ||
	     finding_is(code, FINDING_HOST_UNREACHABLE) ||
	     finding_is(code, FINDING_RANK_UNREACHABLE)) &&
	    (k = cause_pair_in(ix, causes, node, rd_pair_of(c, f))) != NULL)
		return k;
	/* a box on the path between two subnets (decide_elim.c) */
	if ((finding_in_cause(code, CAUSE_FIREWALL) ||
	     finding_is(code, FINDING_HOST_UNREACHABLE) ||
	     finding_is(code, FINDING_RANK_UNREACHABLE) ||
	     finding_is(code, FINDING_PORT_CLOSED) ||
	     finding_is(code, FINDING_IDLE_CONNECTION_KILLED)) &&
	    (k = rd_path_owner(c, causes, f)) != NULL)
		return k;
	if ((finding_in_cause(code, CAUSE_FIREWALL) ||
	     finding_is(code, FINDING_HOST_UNREACHABLE) ||
	     finding_is(code, FINDING_RANK_UNREACHABLE)) &&
	    (((k = cause_in(ix, causes, "firewall", node)) != NULL &&
	      json_is_true(json_object_get(k, "encap"))) ||
	     ((k = cause_in(ix, causes, "firewall", sub)) != NULL &&
	      json_is_true(json_object_get(k, "encap")))))
		return k;
	/* a host limit either end's scan shows, where no rule of the
	 * ruleset drops (issue 48) */
	if (cause_in(ix, causes, "firewall", sub) == NULL &&
	    (k = rd_limit_owner(c, causes, f)) != NULL)
		return k;
	if (finding_in_cause(code, CAUSE_FIREWALL))
		return cause_in(ix, causes, "firewall", sub);
	if (rj_str(f, "command") != NULL &&
	    (k = cause_in(ix, causes, "setting", node)) != NULL)
		return k;
	/* a reset from a port netprobe mesh's responder held is a
	 * firewall's reject (its ports are that cause's to open); a
	 * reset where nothing listens is no firewall's */
	if (finding_is(code, FINDING_PORT_CLOSED) &&
	    strstr(rj_strd(f, "summary", ""), "so a firewall rejects them"))
		return cause_in(ix, causes, "firewall", sub);
	return NULL;
}

/* The cause that explains finding f, or NULL (no index: rd_blame's, while
 * the causes grow). */
json_t *cause_owner(const struct rctx *c, const json_t *causes,
		    const json_t *f)
{
	return cause_owner_ix(c, causes, f, NULL);
}
