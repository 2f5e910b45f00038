/* netprobe report, decide: the firewall entries' shape. One entry per
 * node; single ports a range already opens folded into it; ports sorted;
 * the nftables, ufw and firewalld commands written with the scan's own
 * formatter (decide/fwcmd.h), so every part of the project spells a
 * command the same way. */
#include <stdlib.h>
#include <string.h>

#include "decide/fwcmd.h"
#include "report_decide.h"

json_t *rd_fw_node(json_t *fw, const char *node)
{
	size_t i;
	json_t *e;

	json_array_foreach(fw, i, e)
		if (strcmp(rj_str(e, "node"), node) == 0)
			return e;
	e = json_pack("{s:s, s:[], s:[], s:{s:[], s:[], s:[]}}", "node", node,
		      "open", "cites", "commands", "nftables", "ufw",
		      "firewalld");
	json_array_append_new(fw, e);
	return e;
}

/* Port bounds of an entry: a number or "lo-hi". Returns 0, or -1. */
static int port_bounds(const json_t *p, long *lo, long *hi)
{
	char *end;

	if (json_is_integer(p)) {
		*lo = *hi = (long)json_integer_value(p);
		return 0;
	}
	if (!json_is_string(p))
		return -1;
	*lo = strtol(json_string_value(p), &end, 10);
	if (*end == '\0') {
		*hi = *lo;
		return 0;
	}
	if (*end != '-')
		return -1;
	*hi = strtol(end + 1, &end, 10);
	return *end == '\0' && *hi >= *lo ? 0 : -1;
}

/* Orders ports by first port, then protocol. */
static int cmp_port(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	long xl = 0, xh = 0, yl = 0, yh = 0;

	port_bounds(json_object_get(x, "port"), &xl, &xh);
	port_bounds(json_object_get(y, "port"), &yl, &yh);
	if (xl != yl)
		return xl < yl ? -1 : 1;
	if (xh != yh)
		return xh > yh ? -1 : 1;
	return strcmp(rj_str(x, "proto"), rj_str(y, "proto"));
}

/* True when a range entry of open other than the one at skip opens the
 * single port o (same protocol). */
static bool covered(const json_t *open, size_t skip, const json_t *o)
{
	long lo, hi, rl, rh;
	size_t k;
	json_t *r;

	if (port_bounds(json_object_get(o, "port"), &lo, &hi) < 0 || lo != hi)
		return false;
	json_array_foreach(open, k, r)
		if (k != skip &&
		    port_bounds(json_object_get(r, "port"), &rl, &rh) == 0 &&
		    rl != rh &&
		    strcmp(rj_str(r, "proto"), rj_str(o, "proto")) == 0 &&
		    lo >= rl && lo <= rh)
			return true;
	return false;
}

int rd_fw_fold(json_t *fw)
{
	size_t i, j;
	json_t *e;

	json_array_foreach(fw, i, e) {
		json_t *open = json_object_get(e, "open");

		for (j = 0; j < json_array_size(open);) {
			if (covered(open, j, json_array_get(open, j)))
				json_array_remove(open, j);
			else
				j++;
		}
		if (rj_sort(open, cmp_port) < 0)
			return -1;
	}
	return 0;
}

/* The rule for one port entry; false when the port is neither a number
 * nor "lo-hi". */
static bool rule_of(const json_t *o, struct fw_rule *r)
{
	json_t *port = json_object_get(o, "port");

	memset(r, 0, sizeof(*r));
	if (json_is_integer(port))
		r->lo = r->hi = (unsigned)json_integer_value(port);
	else if (!json_is_string(port) ||
		 sscanf(json_string_value(port), "%u-%u", &r->lo, &r->hi) != 2)
		return false;
	snprintf(r->proto, sizeof(r->proto), "%s", rj_strd(o, "proto", "tcp"));
	return true;
}

/* True when a blocker of the node's `firewall` object drops the port
 * entry r (any overlap of its ports, or every port). */
static bool block_hits(const json_t *b, const struct fw_rule *r)
{
	const char *proto = rj_str(b, "proto");
	json_t *ports = json_object_get(b, "ports"), *p;
	size_t i;

	if (proto != NULL && strcmp(proto, r->proto) != 0)
		return false;
	if (json_array_size(ports) == 0)
		return true;
	json_array_foreach(ports, i, p) {
		unsigned lo, hi;
		const char *s = json_string_value(p);

		if (s == NULL)
			continue;
		if (sscanf(s, "%u-%u", &lo, &hi) != 2)
			hi = lo = (unsigned)strtoul(s, NULL, 10);
		if (lo <= r->hi && hi >= r->lo)
			return true;
	}
	return false;
}

/* r's ports as nft and iptables spell them. */
static void port_text(const struct fw_rule *r, char *nft, char *ipt,
		      size_t len)
{
	if (r->lo == r->hi) {
		snprintf(nft, len, "%u", r->lo);
		snprintf(ipt, len, "%u", r->lo);
	} else {
		snprintf(nft, len, "%u-%u", r->lo, r->hi);
		snprintf(ipt, len, "%u:%u", r->lo, r->hi);
	}
}

/* The commands that let r through the ruleset fwj holds: in each chain
 * that drops it, an accept inserted before the first rule that drops it,
 * or at the chain's top where its policy drops. Into key of cmds
 * ("nftables" or "iptables-legacy"). */
static void ruleset_cmds(const json_t *fwj, const struct fw_rule *r,
			 json_t *cmds)
{
	const char *be = rj_strd(fwj, "backend", "");
	bool legacy = strcmp(be, "iptables-legacy") == 0;
	json_t *blocks = json_object_get(fwj, "blocks"), *b, *b2;
	char nft[32], ipt[32], cmd[512];
	size_t i, j;

	port_text(r, nft, ipt, sizeof(nft));
	json_array_foreach(blocks, i, b) {
		const char *fam = rj_str(b, "family"), *tab = rj_str(b, "table");
		const char *chn = rj_str(b, "chain");
		bool policy = strcmp(rj_strd(b, "kind", ""), "policy") == 0;
		bool first = true;

		if (fam == NULL || tab == NULL || chn == NULL ||
		    !block_hits(b, r))
			continue;
		/* one command a chain: its first blocker, rules (in list
		 * order, which is the chain's order) before the policy */
		json_array_foreach(blocks, j, b2) {
			if (j == i)
				break;
			if (strcmp(rj_strd(b2, "family", ""), fam) == 0 &&
			    strcmp(rj_strd(b2, "table", ""), tab) == 0 &&
			    strcmp(rj_strd(b2, "chain", ""), chn) == 0 &&
			    block_hits(b2, r) &&
			    strcmp(rj_strd(b2, "kind", ""), "policy") != 0)
				first = false;
		}
		if (!first)
			continue;
		if (policy) {
			json_t *b3;
			bool rule_too = false;

			json_array_foreach(blocks, j, b3)
				rule_too |=
					strcmp(rj_strd(b3, "kind", ""),
					       "rule") == 0 &&
					strcmp(rj_strd(b3, "family", ""), fam) ==
						0 &&
					strcmp(rj_strd(b3, "table", ""), tab) ==
						0 &&
					strcmp(rj_strd(b3, "chain", ""), chn) ==
						0 &&
					block_hits(b3, r);
			if (rule_too)
				continue; /* the rule's accept comes first */
		}
		if (legacy && policy)
			snprintf(cmd, sizeof(cmd),
				 "iptables-legacy -I %s 1 -p %s --dport %s -j "
				 "ACCEPT",
				 chn, r->proto, ipt);
		else if (legacy)
			snprintf(cmd, sizeof(cmd),
				 "iptables-legacy -I %s %lld -p %s --dport %s "
				 "-j ACCEPT",
				 chn, rj_int(b, "handle", 1), r->proto, ipt);
		else if (policy)
			snprintf(cmd, sizeof(cmd),
				 "nft insert rule %s %s %s %s dport %s accept",
				 fam, tab, chn, r->proto, nft);
		else
			snprintf(cmd, sizeof(cmd),
				 "nft insert rule %s %s %s position %lld %s "
				 "dport %s accept",
				 fam, tab, chn, rj_int(b, "handle", 0),
				 r->proto, nft);
		rj_add_unique(json_object_get(cmds, legacy ? "iptables-legacy"
							   : "nftables"),
			      cmd);
	}
}

/* The scan's `firewall` object of node, or NULL where none was read. */
static const json_t *node_ruleset(const struct rctx *c, const char *node)
{
	const struct report_input *in = rd_node_scan(c, node);
	const json_t *fwj;

	if (in == NULL)
		return NULL;
	fwj = json_object_get(in->doc, "firewall");
	return json_is_object(fwj) && rj_str(fwj, "backend") != NULL ? fwj
								       : NULL;
}

/* Whether the node's firewall takes svc's ("ufw", "firewalld")
 * commands: where the scan read the service's state, only a running
 * one; where it could not, one whose chains are loaded, with a note in
 * e's "notes" that says why it cannot tell; in a document from before
 * the state was read, one whose chains are loaded. */
static bool svc_takes(const json_t *fwj, const char *svc, json_t *e)
{
	char key[32], note[320];
	const char *st;
	bool chains = json_is_true(json_object_get(fwj, svc));

	snprintf(key, sizeof(key), "%s_service", svc);
	st = rj_str(fwj, key);
	if (st == NULL)
		return chains;
	if (strcmp(st, "active") == 0)
		return true;
	if (strcmp(st, "unknown") != 0 || !chains)
		return false;
	snprintf(key, sizeof(key), "%s_why", svc);
	snprintf(note, sizeof(note),
		 "cannot tell whether %s runs, because %s: its commands are "
		 "for where it does",
		 svc, rj_strd(fwj, key, "its state could not be read"));
	if (json_object_get(e, "notes") == NULL)
		json_object_set_new(e, "notes", json_array());
	rj_add_unique(json_object_get(e, "notes"), note);
	return true;
}

void rd_fw_commands(const struct rctx *c, json_t *fw)
{
	static const struct {
		enum fw_dialect dl;
		const char *key;
	} dialects[] = {{FW_NFTABLES, "nftables"},
			{FW_UFW, "ufw"},
			{FW_FIREWALLD, "firewalld"}};
	size_t i, j;
	json_t *e, *o;

	json_array_foreach(fw, i, e) {
		json_t *cmds = json_object_get(e, "commands");
		const json_t *fwj = node_ruleset(c, rj_str(e, "node"));

		if (fwj != NULL) {
			/* the blocks this node's firewall really has */
			json_object_set_new(cmds, "nftables", json_array());
			if (strcmp(rj_str(fwj, "backend"), "iptables-legacy") ==
			    0) {
				json_object_del(cmds, "nftables");
				json_object_set_new(cmds, "iptables-legacy",
						    json_array());
			}
			if (!svc_takes(fwj, "ufw", e))
				json_object_del(cmds, "ufw");
			if (!svc_takes(fwj, "firewalld", e))
				json_object_del(cmds, "firewalld");
		} else {
			/* no ruleset of this node was read: an nftables
			 * command would guess the table and chain that drop
			 * (`inet filter input` fails where the drop lives in
			 * another table, and changes nothing beside one), so
			 * none; ufw and firewalld write their own rules */
			json_object_del(cmds, "nftables");
		}
		json_array_foreach(json_object_get(e, "open"), j, o) {
			struct fw_rule r;
			char cmd[256];

			if (!rule_of(o, &r))
				continue;
			if (fwj != NULL)
				ruleset_cmds(fwj, &r, cmds);
			for (size_t k = 0; k < 3; k++)
				if ((fwj == NULL || k > 0) &&
				    json_object_get(cmds, dialects[k].key) &&
				    fwcmd_format(dialects[k].dl, &r, cmd,
						 sizeof(cmd)) > 0)
					rj_add_unique(
						json_object_get(
							cmds, dialects[k].key),
						cmd);
		}
	}
}
