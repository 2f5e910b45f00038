/* netprobe report, decide: root causes across nodes. One cause (a node's
 * MTU, a NAT layer, a firewall on one node, a hostname mapping) owns every
 * finding it explains, on whichever node the finding was seen, and carries
 * one fix on the node that needs it. The report leads with the causes; the
 * findings stay under them as symptoms. Decided after the recommendation,
 * whose firewall, change and MTU entries the causes take as their fixes. */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "decide_limits.h"
#include "doc/finding.h"
#include "report_decide.h"

/* Causes first by severity, then by node, then in this order. */
static const char *const kinds[] = {"nat",   "hostname", "firewall",
				    "route", "mtu",      "hop",
				    "setting", "path", "undecided", NULL};

/* The cause of kind on node in causes, or NULL. */
static json_t *cause_of(const json_t *causes, const char *kind,
			const char *node)
{
	size_t i;
	json_t *k;

	json_array_foreach(causes, i, k)
		if (strcmp(rj_str(k, "kind"), kind) == 0 &&
		    strcmp(rj_str(k, "node"), node) == 0)
			return k;
	return NULL;
}

/* The pair label of a and b in name order, as decide_blame.c writes an
 * undecided cause's node: "a<->b". */
static void label_of(const char *a, const char *b, char *buf, size_t len)
{
	if (strcmp(a, b) > 0)
		snprintf(buf, len, "%s<->%s", b, a);
	else
		snprintf(buf, len, "%s<->%s", a, b);
}

/* key = "k" KIND "\n" NODE, the index's key of a cause of kind on node.
 * False when it does not fit in len. */
static bool kind_key(char *key, size_t len, const char *kind, const char *node)
{
	size_t lk = strlen(kind), ln = strlen(node);

	if (lk + ln + 3 > len)
		return false;
	key[0] = 'k';
	memcpy(key + 1, kind, lk);
	key[1 + lk] = '\n';
	memcpy(key + 2 + lk, node, ln + 1);
	return true;
}

/* Appends cause k to ix's array under key, made when missing; -1 when
 * out of memory. */
static int add_to(json_t *ix, const char *key, json_t *k)
{
	json_t *arr = json_object_get(ix, key);

	if (arr == NULL &&
	    (json_object_set_new_nocheck(ix, key, arr = json_array()) < 0 ||
	     arr == NULL))
		return -1;
	return json_array_append(arr, k);
}

/* ix[TAG NAME] = pos, the position in causes of the first MTU cause
 * whose node (tag "n") or peer (tag "q") is name; -1 when out of
 * memory. */
static int first_at(json_t *ix, const char *tag, const char *name, size_t pos)
{
	char key[600];

	if (snprintf(key, sizeof(key), "%s%s", tag, name) >= (int)sizeof(key))
		return -1;
	if (json_object_get(ix, key) != NULL)
		return 0;
	return json_object_set_new_nocheck(ix, key, json_integer((json_int_t)pos));
}

/* The position first_at filed under TAG NAME, or SIZE_MAX. */
static size_t pos_at(const json_t *ix, const char *tag, const char *name)
{
	char key[600];
	const json_t *p;

	if (name == NULL ||
	    snprintf(key, sizeof(key), "%s%s", tag, name) >= (int)sizeof(key))
		return SIZE_MAX;
	p = json_object_get(ix, key);
	return p != NULL ? (size_t)json_integer_value(p) : SIZE_MAX;
}

/* The first MTU cause on node or sub, or whose peer is node: what
 * owner_ix's scan finds, from the positions the index keeps. */
static json_t *mtu_in(const json_t *ix, const json_t *causes,
		      const char *node, const char *sub)
{
	size_t a = pos_at(ix, "n", node), b = pos_at(ix, "n", sub);
	size_t p = pos_at(ix, "q", node), m = a < b ? a : b;

	m = p < m ? p : m;
	return m != SIZE_MAX ? json_array_get(causes, m) : NULL;
}

/* An index of causes for a decider that asks many times while no cause
 * is added, removed or moved, and none changes its kind, node or peer
 * (assign, rd_own_errors): "k" KIND "\n" NODE -> the first such cause (as
 * cause_of finds it); "p" LABEL -> the route and undecided causes of that
 * pair, in order (what rd_pair_cause looks among); "h" -> the hop causes;
 * "n" NODE and "q" PEER -> the position of the first MTU cause on that
 * node or toward that peer. 1,024 mesh members
 * have thousands of causes and findings: a scan per finding was their
 * product. NULL on no memory (the callers then scan). */
static json_t *causes_index(const json_t *causes)
{
	json_t *ix = json_object(), *k;
	char key[700];
	size_t i;

	json_array_foreach(causes, i, k) {
		const char *kind = rj_str(k, "kind"), *node = rj_str(k, "node");

		if (ix == NULL)
			break;
		if (kind == NULL || node == NULL ||
		    !kind_key(key, sizeof(key), kind, node)) {
			json_decref(ix); /* a key it cannot hold: scan */
			return NULL;
		}
		if (json_object_get(ix, key) == NULL &&
		    json_object_set_nocheck(ix, key, k) < 0)
			goto fail;
		if (strcmp(kind, "hop") == 0 &&
		    add_to(ix, "h", k) < 0)
			goto fail;
		if (strcmp(kind, "mtu") == 0 &&
		    (first_at(ix, "n", node, i) < 0 ||
		     first_at(ix, "q", rj_strd(k, "peer", ""), i) < 0))
			goto fail;
		if (strcmp(kind, "route") == 0)
			label_of(node, rj_strd(k, "peer", ""), key + 1,
				 sizeof(key) - 1);
		else if (strcmp(kind, "undecided") == 0)
			snprintf(key + 1, sizeof(key) - 1, "%s", node);
		else
			continue;
		key[0] = 'p';
		if (add_to(ix, key, k) < 0)
			goto fail;
	}
	return ix;
fail:
	json_decref(ix);
	return NULL;
}

/* cause_of, through ix when there is one. */
static json_t *cause_in(const json_t *ix, const json_t *causes,
			const char *kind, const char *node)
{
	char key[700];

	if (ix == NULL || !kind_key(key, sizeof(key), kind, node))
		return cause_of(causes, kind, node);
	return json_object_get(ix, key);
}

/* rd_pair_cause, among the causes ix files under the pair when there is
 * an ix: the same first one. */
static json_t *pair_cause_in(const json_t *ix, const json_t *causes,
			     const char *a, const char *b)
{
	char key[700];

	if (ix == NULL || a == NULL || b == NULL)
		return rd_pair_cause(causes, a, b);
	/* rd_pair_cause's own label holds 299 characters: a longer one
	 * is its way */
	if (strlen(a) + strlen(b) + 4 >= 300)
		return rd_pair_cause(causes, a, b);
	key[0] = 'p';
	label_of(a, b, key + 1, sizeof(key) - 1);
	return rd_pair_cause(json_object_get(ix, key), a, b);
}

/* A new cause; its fix's commands by dialect ("shell", or one key per
 * firewall), taken. */
static json_t *new_cause(json_t *causes, const char *kind, const char *node,
			 const char *summary, const char *fix, json_t *cmds)
{
	char id[300];
	json_t *k;

	snprintf(id, sizeof(id), "%s:%s", kind, node);
	k = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:o}, s:[], "
		      "s:[]}",
		      "id", id, "kind", kind, "node", node, "severity",
		      "warning", "summary", summary, "fix", "node", node,
		      "text", fix, "commands",
		      cmds != NULL ? cmds : json_object(), "evidence",
		      "findings");
	json_array_append_new(causes, k);
	return k;
}

/* Marks a recommendation entry as the fix of cause k. */
static void take(json_t *entry, const json_t *k)
{
	json_object_set_new(entry, "root_cause", json_string(rj_str(k, "id")));
}

/* A node behind NAT: the most specific NAT finding says why and how to
 * leave it; the changes that say the same are its fix. */
static void nat_causes(const struct rctx *c, json_t *rec, json_t *causes)
{
	size_t i, j;
	json_t *f, *k, *e;

	json_array_foreach(c->findings, i, f) {
		const char *node = rj_str(f, "node");

		if (!rf_is_nat(rj_str(f, "code")) ||
		    rj_sev(rj_str(f, "severity")) == 0)
			continue;
		k = cause_of(causes, "nat", node);
		if (k == NULL)
			k = new_cause(causes, "nat", node, rj_str(f, "summary"),
				      rj_str(f, "fix"), NULL);
		else if (!finding_is(rj_str(f, "code"), FINDING_NAT_DETECTED) &&
		         finding_is(rj_strd(k, "from", ""),
		                    FINDING_NAT_DETECTED)) {
			/* the layering says how to leave the NAT; a peer's
			 * reflection only that it is there */
			json_object_set_new(k, "summary",
					    json_string(rj_str(f, "summary")));
			json_object_set_new(json_object_get(k, "fix"), "text",
					    json_string(rj_str(f, "fix")));
		}
		json_object_set_new(k, "from", json_string(rj_str(f, "code")));
		json_array_foreach(rj_arr(rec, "changes"), j, e)
			if (strcmp(rj_str(e, "node"), node) == 0 &&
			    rf_is_nat(rj_str(json_array_get(rj_arr(e, "cites"),
							     0),
					     "code")))
				take(e, k);
	}
}

/* What a node whose hostname is another member's sets until it has a name
 * of its own: Gloo's interface as its scan recommends it and MASTER_ADDR.
 * Made from the scan, not cut out of the finding's fix sentence, whose
 * first clause may be the very hosts mapping that keeps the clash or only
 * "in /etc/hosts" (issue 44). */
static void hostname_interim(const struct rctx *c, const char *node,
			     char *buf, size_t len)
{
	const struct report_input *sc = rd_node_scan(c, node);
	const char *g = NULL;

	if (sc != NULL)
		g = rj_str(json_object_get(json_object_get(sc->doc,
							   "recommendation"),
					   "env"),
			   "GLOO_SOCKET_IFNAME");
	if (g != NULL)
		snprintf(buf, len,
			 "set GLOO_SOCKET_IFNAME=%s and MASTER_ADDR to rank "
			 "0's address",
			 g);
	else
		snprintf(buf, len,
			 "set GLOO_SOCKET_IFNAME to the interface of %s's LAN "
			 "address and MASTER_ADDR to rank 0's address",
			 node);
}

/* A hostname that maps to an address peers cannot use. Where the
 * hostname is another member's too (hostname-shared), mapping it to
 * this node's address in /etc/hosts would make the clash permanent: the
 * fix gives the node a name of its own instead (issue 31). */
static void hostname_causes(const struct rctx *c, json_t *causes)
{
	const char *const shared[] = {finding_name(FINDING_HOSTNAME_SHARED),
	                              NULL};
	char fix[1024], interim[256];
	size_t i;
	json_t *f;

	json_array_foreach(c->findings, i, f) {
		const char *node = rj_str(f, "node"), *fx = rj_strd(f, "fix", "");

		if (!finding_in_cause(rj_str(f, "code"), CAUSE_HOSTNAME) ||
		    rj_sev(rj_str(f, "severity")) == 0 ||
		    cause_of(causes, "hostname", node) != NULL)
			continue;
		if (rd_node_has(c, node, shared)) {
			hostname_interim(c, node, interim, sizeof(interim));
			snprintf(fix, sizeof(fix),
				 "give %s a hostname of its own (hostnamectl "
				 "set-hostname NAME, then its host files "
				 "entry): its hostname is another member's, "
				 "and mapping that name to %s's address in "
				 "/etc/hosts keeps the clash; until then %s",
				 node, node, interim);
		} else
			snprintf(fix, sizeof(fix), "%s", fx);
		new_cause(causes, "hostname", node, rj_str(f, "summary"), fix,
			  NULL);
	}
}

/* A node whose firewall drops what peers need: its ports to open, one
 * block of commands per firewall. */
static void firewall_causes(json_t *rec, json_t *causes)
{
	size_t i, j;
	json_t *e, *o, *k;

	json_array_foreach(rj_arr(rec, "firewall"), i, e) {
		const char *node = rj_str(e, "node");
		char sum[400], fix[1024];
		size_t l = 0;

		json_array_foreach(rj_arr(e, "open"), j, o) {
			json_t *p = json_object_get(o, "port");

			if (json_is_integer(p))
				l += (size_t)snprintf(
					sum + l, sizeof(sum) - l, "%s%lld/%s",
					j ? ", " : "",
					(long long)json_integer_value(p),
					rj_strd(o, "proto", "tcp"));
			else
				l += (size_t)snprintf(
					sum + l, sizeof(sum) - l, "%s%s/%s",
					j ? ", " : "", json_string_value(p),
					rj_strd(o, "proto", "tcp"));
			if (l >= sizeof(sum))
				break;
		}
		json_t *cmd = json_object_get(e, "commands");
		json_t *nft = json_object_get(cmd, "nftables");
		json_t *ipt = json_object_get(cmd, "iptables-legacy");

		if (json_array_size(nft) + json_array_size(ipt) > 0) {
			l = (size_t)snprintf(fix, sizeof(fix),
					     "open %s in %s's firewall: run the "
					     "block for the firewall %s uses",
					     sum, node, node);
		} else if (nft != NULL || ipt != NULL) {
			/* the ruleset was read and nothing in it drops
			 * them: no blame without evidence (issue 31). The
			 * entry goes; what failed is decided per pair
			 * (rd_blame: a route, loss, or cannot tell) */
			json_array_remove(rj_arr(rec, "firewall"), i);
			i--;
			continue;
		} else
			l = (size_t)snprintf(fix, sizeof(fix),
					     "open %s in %s's firewall: with ufw "
					     "or firewalld, the block below; with "
					     "nftables, cannot tell which table "
					     "and chain drop them, because no "
					     "scan here read %s's ruleset: run "
					     "netprobe scan on %s as root and "
					     "report again",
					     sum, node, node, node);
		/* a service whose state could not be read (fwrules) */
		json_array_foreach(rj_arr(e, "notes"), j, o)
			if (l < sizeof(fix) && json_is_string(o))
				l += (size_t)snprintf(fix + l, sizeof(fix) - l,
						      "; %s",
						      json_string_value(o));
		k = new_cause(causes, "firewall", node, "", fix,
			      json_incref(json_object_get(e, "commands")));
		/* the overlay's port: every connection of the pairs it
		 * carries, both ways, is this cause's symptom */
		if (json_is_true(json_object_get(e, "encap")))
			json_object_set_new(k, "encap", json_true());
		snprintf(fix, sizeof(fix),
			 "%s's firewall drops connections peers need: %s", node,
			 sum);
		json_object_set_new(k, "summary", json_string(fix));
		json_array_foreach(rj_arr(e, "open"), j, o)
			json_array_append_new(
				json_object_get(k, "evidence"),
				json_pack("{s:s, s:s, s:s}", "node", node,
					  "fact", rj_strd(o, "why", ""),
					  "source", "ports to open"));
		take(e, k);
	}
}

/* An interface whose MTU differs from the rest, or a path that carries
 * less than its ends: the MTU entry is the fix. */
static void mtu_causes(json_t *rec, json_t *causes)
{
	size_t i;
	json_t *e, *k, *cmds;

	json_array_foreach(rj_arr(rec, "mtu"), i, e) {
		const char *cmd = rj_str(e, "command");
		const char *ifc = rj_str(e, "interface");
		char fix[256];

		if (strcmp(rj_strd(e, "kind", ""), "hop") == 0) {
			/* the hop: its fix is there, the nodes' route MTUs
			 * are the workaround, one block per node */
			snprintf(fix, sizeof(fix),
				 "the hop at gateway %s carries at most %lld "
				 "bytes and sends no ICMP "
				 "fragmentation-needed",
				 rj_str(e, "gateway"), rj_int(e, "mtu", 0));
			k = new_cause(causes, "hop", rj_str(e, "node"), fix,
				      rj_str(e, "why"),
				      json_incref(json_object_get(e,
								  "commands")));
			json_object_set(k, "nodes", json_object_get(e, "nodes"));
			snprintf(fix, sizeof(fix),
				 "the paths through gateway %s carry at most "
				 "%lld bytes",
				 rj_str(e, "gateway"), rj_int(e, "mtu", 0));
			json_array_append_new(
				json_object_get(k, "evidence"),
				json_pack("{s:s, s:s, s:s}", "node",
					  rj_str(e, "node"), "fact", fix,
					  "source", "path MTU probes"));
			take(e, k);
			continue;
		}
		if (cause_of(causes, "mtu", rj_str(e, "node")) != NULL)
			continue;
		snprintf(fix, sizeof(fix), "set %s's %s to MTU %lld",
			 rj_str(e, "node"), ifc != NULL ? ifc : "interface",
			 rj_int(e, "mtu", 0));
		cmds = cmd != NULL ? json_pack("{s:[s]}", "shell", cmd) : NULL;
		k = new_cause(causes, "mtu", rj_str(e, "node"),
			      rj_str(e, "why"),
			      cmd != NULL ? fix : rj_str(e, "why"), cmds);
		if (rj_str(e, "peer") != NULL)
			json_object_set_new(k, "peer",
					    json_string(rj_str(e, "peer")));
		/* what the MTU rests on where no path was measured: the
		 * scans' interface MTUs */
		snprintf(fix, sizeof(fix), "%s's %s against the others'",
			 rj_str(e, "node"), ifc != NULL ? ifc : "interface");
		json_array_append_new(
			json_object_get(k, "evidence"),
			json_pack("{s:s, s:s, s:s}", "node", rj_str(e, "node"),
				  "fact", fix, "source", "interface MTUs"));
		take(e, k);
	}
}

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
	    finding_is(code, FINDING_MACVLAN_PARENT))
		return NULL;
	if (finding_is(code, FINDING_MPI_BTL_IFACE) ||
	    finding_is(code, FINDING_NCCL_DEFAULT_IFACE_UNSAFE) ||
	    finding_is(code, FINDING_OVERLAPPING_SUBNETS)) {
		/* only a route's own cause: the bridge or the prefix */
		g = rd_names_cut(c, node, NULL);
		if (g != NULL &&
		    !finding_is(rj_strd(g, "code", ""),
				FINDING_BRIDGE_ROUTE_SHADOW) &&
		    !finding_is(rj_strd(g, "code", ""), FINDING_PREFIX_NARROW))
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
static json_t *owner_ix(const struct rctx *c, const json_t *causes,
			const json_t *f, const json_t *ix)
{
	const char *code = rj_str(f, "code"), *node = rj_str(f, "node");
	const char *sub = rd_subject(c, f);
	json_t *k;
	size_t i;

	if (finding_in_cause(code, CAUSE_MTU)) {
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
			return mtu_in(ix, causes, node, sub);
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
	    (k = conflict_of(c, causes, ix, rd_pair_of(c, f), NULL)) != NULL)
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
	    (k = pair_cause_in(ix, causes, node, rd_pair_of(c, f))) != NULL)
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
static json_t *owner(const struct rctx *c, const json_t *causes,
		     const json_t *f)
{
	return owner_ix(c, causes, f, NULL);
}

/* A node setting whose fix is one command (a finding's `command`: a
 * strict rp_filter, a NIC set down) that no other cause explains: a
 * cause on that node, its commands one shell block, so the fix the
 * reader sees is the one the closed loop runs. */
static void setting_causes(const struct rctx *c, json_t *causes)
{
	size_t i, n;
	json_t *f, *k, *sh;
	char fix[1024];

	json_array_foreach(c->findings, i, f) {
		const char *cmd = rj_str(f, "command");
		const char *node = rj_str(f, "node");

		if (cmd == NULL || rj_sev(rj_str(f, "severity")) == 0)
			continue;
		k = owner(c, causes, f);
		if (k != NULL && strcmp(rj_str(k, "kind"), "setting") != 0)
			continue;
		if (k == NULL) {
			char on[300];

			/* a command for another node ("command_on": a
			 * macvlan's parent host, decide_names.c) */
			snprintf(on, sizeof(on), "on %s",
				 rj_strd(f, "command_on", ""));
			new_cause(causes, "setting", node, rj_str(f, "summary"),
				  rj_str(f, "fix"),
				  json_pack("{s:[s]}",
					    rj_str(f, "command_on") != NULL
						    ? on
						    : "shell",
					    cmd));
			continue;
		}
		sh = json_object_get(json_object_get(json_object_get(k, "fix"),
						     "commands"),
				     "shell");
		n = json_array_size(sh);
		rj_add_unique(sh, cmd);
		if (json_array_size(sh) > n) {
			snprintf(fix, sizeof(fix), "%s; %s",
				 rj_str(json_object_get(k, "fix"), "text"),
				 rj_str(f, "fix"));
			json_object_set_new(json_object_get(k, "fix"), "text",
					    json_string(fix));
		}
	}
}

/* Orders causes: worst first, then by node, then by kind. */
static int cmp_cause(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int d = rj_sev(rj_str(y, "severity")) - rj_sev(rj_str(x, "severity"));
	int kx = 0, ky = 0;

	if (d == 0)
		d = strcmp(rj_str(x, "node"), rj_str(y, "node"));
	for (int i = 0; kinds[i] != NULL; i++) {
		if (strcmp(kinds[i], rj_str(x, "kind")) == 0)
			kx = i;
		if (strcmp(kinds[i], rj_str(y, "kind")) == 0)
			ky = i;
	}
	return d != 0 ? d : kx - ky;
}

/* Gives each finding its cause: the cause lists it among its findings
 * (the symptoms, from every node) and takes its worst severity; the
 * finding's fix becomes the cause's (its own stays as fix_on_its_own). */
static void assign(const struct rctx *c, json_t *causes)
{
	char fix[1024];
	size_t i;
	json_t *f, *k;
	/* no cause comes or goes in here: each changes its findings and
	 * severity only */
	json_t *ix = causes_index(causes);

	json_array_foreach(c->findings, i, f) {
		if (rj_sev(rj_str(f, "severity")) == 0 ||
		    (k = owner_ix(c, causes, f, ix)) == NULL)
			continue;
		json_object_set_new(f, "root_cause",
				    json_string(rj_str(k, "id")));
		/* the finding's own fix was decided on one node (an MTU
		 * black hole's says to lower this end); the cause's is the
		 * one that is right across nodes */
		snprintf(fix, sizeof(fix), "%s (root cause %s)",
			 rj_str(json_object_get(k, "fix"), "text"),
			 rj_str(k, "id"));
		if (rj_str(f, "fix") != NULL)
			json_object_set_new(f, "fix_on_its_own",
					    json_string(rj_str(f, "fix")));
		json_object_set_new(f, "fix", json_string(fix));
		json_array_append_new(
			json_object_get(k, "findings"),
			json_pack("{s:s, s:s, s:s, s:s}", "node",
				  rj_str(f, "node"), "code", rj_str(f, "code"),
				  "severity", rj_str(f, "severity"), "summary",
				  rj_str(f, "summary")));
		if (rj_sev(rj_str(f, "severity")) >
		    rj_sev(rj_str(k, "severity")))
			json_object_set_new(k, "severity",
					    json_string("fault"));
	}
	json_decref(ix);
}

/* A cause that neither a finding nor a fact of its own shows is not a
 * root cause of anything the report counts: it goes, and its fix stays
 * in the recommendation, untaken. One model: every cause the summary
 * counts rests on something the report shows. */
static void drop_empty(json_t *rec, json_t *causes)
{
	static const char *const keys[] = {"firewall", "mtu", "changes"};

	for (size_t i = 0; i < json_array_size(causes);) {
		json_t *k = json_array_get(causes, i), *e;
		const char *id = rj_str(k, "id");
		size_t j;

		if (json_array_size(rj_arr(k, "findings")) > 0 ||
		    json_array_size(rj_arr(k, "evidence")) > 0) {
			i++;
			continue;
		}
		for (size_t a = 0; a < 3; a++)
			json_array_foreach(rj_arr(rec, keys[a]), j, e)
				if (strcmp(rj_strd(e, "root_cause", ""), id) ==
				    0)
					json_object_del(e, "root_cause");
		json_array_remove(causes, i);
	}
}

json_t *rd_causes(const struct rctx *c, json_t *rec)
{
	json_t *causes = json_array(), *k;
	size_t i;

	if (causes == NULL)
		return NULL;
	nat_causes(c, rec, causes);
	hostname_causes(c, causes);
	rd_encap(c, rec);
	rd_missing(c, rec);
	firewall_causes(rec, causes);
	mtu_causes(rec, causes);
	rd_limit_causes(c, causes); /* before the pairs are blamed */
	rd_blame(c, causes, owner);
	rd_missing_blame(c, causes);
	rd_elim(c, causes);
	setting_causes(c, causes);
	assign(c, causes);
	drop_empty(rec, causes);
	json_array_foreach(causes, i, k)
		json_object_del(k, "from");
	if (rj_sort(causes, cmp_cause) < 0) {
		json_decref(causes);
		return NULL;
	}
	return causes;
}

/* The firewall cause that drops the overlay on a or b, or NULL. */
static json_t *encap_of(const json_t *ix, const json_t *causes, const char *a,
			const char *b)
{
	json_t *k;

	if ((k = cause_in(ix, causes, "firewall", a)) != NULL &&
	    json_is_true(json_object_get(k, "encap")))
		return k;
	if ((k = cause_in(ix, causes, "firewall", b)) != NULL &&
	    json_is_true(json_object_get(k, "encap")))
		return k;
	return NULL;
}

void rd_own_errors(const struct rctx *c, json_t *nodes, json_t *causes)
{
	char fact[640];
	size_t i, j;
	json_t *n, *e, *k;
	/* the causes are decided: each gains evidence here, no more */
	json_t *ix = causes_index(causes);

	json_array_foreach(nodes, i, n) {
		const char *self = rj_str(n, "name"), *msg;

		json_array_foreach(rj_arr(n, "errors"), j, e) {
			const char *to = rd_text_node(c, rj_strd(e, "message", ""),
						   self);

			/* a probe toward a node behind NAT, or across a
			 * pair a route or undecided cause owns */
			if (to != NULL && cause_in(ix, causes, "nat", to) == NULL &&
			    pair_cause_in(ix, causes, self, to) == NULL &&
			    rd_pair_lossy(c, self, to)) {
				/* a probe that failed across a link measured
				 * lossy: the loss (its warning), not a part
				 * that could not run (issue 31) */
				json_object_set_new(e, "explained_by",
				                    json_string(finding_name(
				                        FINDING_LINK_LOSSY)));
				continue;
			}
			if (to == NULL ||
			    ((k = cause_in(ix, causes, "nat", to)) == NULL &&
			     (k = pair_cause_in(ix, causes, self, to)) == NULL &&
			     (k = encap_of(ix, causes, self, to)) == NULL))
				continue;
			json_object_set_new(e, "root_cause",
					    json_string(rj_str(k, "id")));
			/* the message's own hint ("is netprobe serve
			 * running?") is the wrong lead here: cut at ';' */
			msg = rj_strd(e, "message", "");
			snprintf(fact, sizeof(fact), "%s could not run a probe "
				 "toward %s: %.*s", self, to,
				 (int)strcspn(msg, ";"), msg);
			json_array_append_new(
				json_object_get(k, "evidence"),
				json_pack("{s:s, s:s, s:s}", "node", self,
					  "fact", fact, "source",
					  rj_strd(e, "step", "")));
		}
	}
	json_decref(ix);
}
