/* netprobe report, decide: the causes one node's own findings and the
 * recommendation make (decide_causes.c): a node behind NAT, a hostname
 * peers cannot use, a firewall that drops what peers need, an MTU that
 * differs from the rest. Each takes the recommendation's entry that
 * fixes it. */
#include <stdio.h>
#include <string.h>

#include "decide_causes.h"
#include "doc/finding.h"
#include "report_decide.h"

/* Marks a recommendation entry as the fix of cause k. */
static void take(json_t *entry, const json_t *k)
{
	json_object_set_new(entry, "root_cause", json_string(rj_str(k, "id")));
}

/* A node behind NAT: the most specific NAT finding says why and how to
 * leave it; the changes that say the same are its fix. */
void causes_nat(const struct rctx *c, json_t *rec, json_t *causes)
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
			k = cause_new(causes, "nat", node, rj_str(f, "summary"),
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
void causes_hostname(const struct rctx *c, json_t *causes)
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
		cause_new(causes, "hostname", node, rj_str(f, "summary"), fix,
			  NULL);
	}
}

/* A node whose firewall drops what peers need: its ports to open, one
 * block of commands per firewall. */
void causes_firewall(json_t *rec, json_t *causes)
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
		k = cause_new(causes, "firewall", node, "", fix,
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
void causes_mtu(json_t *rec, json_t *causes)
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
			k = cause_new(causes, "hop", rj_str(e, "node"), fix,
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
		k = cause_new(causes, "mtu", rj_str(e, "node"),
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
