/* Firewall commands written against the ruleset a scan read (the
 * `firewall` object of kernel/fwrules.h): the table and chain that drop a
 * port, an accept inserted before the rule that drops it. Where the
 * ruleset was not read, or nothing in it drops the port, no nftables
 * command is guessed (`inet filter input` fails where the drop lives in
 * another table, and changes nothing beside one): a sentence says why and
 * how to find out. Pure over JSON, shared by the scan, `netprobe ports`
 * and the report. */
#include "decide/fwcmd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A member string of o, or dflt. */
static const char *str_of(const json_t *o, const char *key, const char *dflt)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : dflt;
}

/* Appends s to the array a unless it holds it. Returns 0, or -1. */
static int add_unique(json_t *a, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(a, i, v)
		if (strcmp(json_string_value(v), s) == 0)
			return 0;
	return json_array_append_new(a, json_string(s));
}

/* True when address a lies in src ("10.0.0.5", "10.0.0.0/24"; IPv6
 * compared as written). */
static bool addr_in(const char *a, const char *src)
{
	struct in_addr x, net;
	char buf[64], *slash;
	long len = 32;

	snprintf(buf, sizeof(buf), "%s", src);
	if ((slash = strchr(buf, '/')) != NULL) {
		*slash = '\0';
		len = strtol(slash + 1, NULL, 10);
	}
	if (inet_pton(AF_INET, a, &x) != 1 ||
	    inet_pton(AF_INET, buf, &net) != 1 || len < 0 || len > 32)
		return strcmp(a, buf) == 0;
	if (len == 0)
		return true;
	uint32_t m = htonl(0xffffffffu << (32 - len));

	return (x.s_addr & m) == (net.s_addr & m);
}

/* True when blocker b, where it is limited to sources, is so for r's:
 * a drop of some peers only is the drop that those peers meet, and no
 * other's (r without a source: none). */
static bool source_hits(const json_t *b, const struct fw_rule *r)
{
	json_t *src = json_object_get(b, "saddr"), *v;
	size_t i;

	if (json_array_size(src) == 0)
		return true;
	if (r->src[0] == '\0')
		return false;
	json_array_foreach(src, i, v)
		if (json_is_string(v) && addr_in(r->src, json_string_value(v)))
			return true;
	return false;
}

/* True when rule b of the ruleset matches r (any overlap of its ports,
 * or every port; from r's source where b is limited to some), whatever
 * its verdict. */
static bool block_matches(const json_t *b, const struct fw_rule *r)
{
	const char *proto = str_of(b, "proto", NULL);
	json_t *ports = json_object_get(b, "ports"), *p;
	size_t i;

	if (proto != NULL && strcmp(proto, r->proto) != 0)
		return false;
	if (!source_hits(b, r))
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

/* True when blocker b drops r: a drop or reject that matches it. */
static bool block_hits(const json_t *b, const struct fw_rule *r)
{
	return strcmp(str_of(b, "verdict", ""), "accept") != 0 &&
	       block_matches(b, r);
}

/* True when an accept lets r through ahead of blocker at (issue 31): for
 * a rule, an accept of its chain listed before it; for a policy, an
 * accept anywhere in its table (its chains are reached from the one
 * whose policy drops). The port is open there, whatever drops after. */
static bool accepted_before(const json_t *blocks, size_t at,
                            const struct fw_rule *r)
{
	const json_t *b = json_array_get(blocks, at), *c;
	bool policy = strcmp(str_of(b, "kind", ""), "policy") == 0;
	size_t j;

	json_array_foreach(blocks, j, c) {
		if (strcmp(str_of(c, "verdict", ""), "accept") != 0 ||
		    strcmp(str_of(b, "family", ""), str_of(c, "family", "")) ||
		    strcmp(str_of(b, "table", ""), str_of(c, "table", "")) ||
		    !block_matches(c, r))
			continue;
		if (policy || (j < at && strcmp(str_of(b, "chain", ""),
		                                str_of(c, "chain", "")) == 0))
			return true;
	}
	return false;
}

/* True when blocks b and c lie in the same family, table and chain. */
static bool same_chain(const json_t *b, const json_t *c)
{
	return strcmp(str_of(b, "family", ""), str_of(c, "family", "")) == 0 &&
	       strcmp(str_of(b, "table", ""), str_of(c, "table", "")) == 0 &&
	       strcmp(str_of(b, "chain", ""), str_of(c, "chain", "")) == 0;
}

/* True when block b is the first of its chain that drops r: the first
 * dropping rule, or the policy where no rule of the chain drops r. */
static bool first_in_chain(const json_t *blocks, size_t at,
                           const struct fw_rule *r)
{
	const json_t *b = json_array_get(blocks, at), *c;
	bool policy = strcmp(str_of(b, "kind", ""), "policy") == 0;
	size_t j;

	json_array_foreach(blocks, j, c) {
		bool crule = strcmp(str_of(c, "kind", ""), "policy") != 0;

		if (j == at || !crule || !same_chain(b, c) || !block_hits(c, r))
			continue;
		/* rules are listed in the chain's order */
		if (policy || j < at)
			return false;
	}
	return true;
}

/* r's ports as nft and iptables spell them. */
static void port_text(const struct fw_rule *r, char *nft, char *ipt, size_t len)
{
	if (r->lo == r->hi) {
		snprintf(nft, len, "%u", r->lo);
		snprintf(ipt, len, "%u", r->lo);
	} else {
		snprintf(nft, len, "%u-%u", r->lo, r->hi);
		snprintf(ipt, len, "%u:%u", r->lo, r->hi);
	}
}

/* See fwcmd.h. */
bool fwcmd_ruleset_read(const json_t *fwj)
{
	return json_is_object(fwj) &&
	       json_string_value(json_object_get(fwj, "backend")) != NULL;
}

/* See fwcmd.h. */
int fwcmd_ruleset_cmds(const json_t *fwj, const struct fw_rule *r,
                       json_t *cmds)
{
	bool legacy =
	    strcmp(str_of(fwj, "backend", ""), "iptables-legacy") == 0;
	const char *key = legacy ? "iptables-legacy" : "nftables";
	json_t *blocks = json_object_get(fwj, "blocks"), *b, *out;
	char nft[32], ipt[32], cmd[512];
	int n = 0;
	size_t i;

	if (!fwcmd_ruleset_read(fwj)) {
		errno = EINVAL;
		return -1;
	}
	out = json_object_get(cmds, key);
	if (out == NULL) {
		out = json_array();
		if (out == NULL || json_object_set_new(cmds, key, out) < 0)
			return -1;
	}
	port_text(r, nft, ipt, sizeof(nft));
	json_array_foreach(blocks, i, b) {
		const char *fam = str_of(b, "family", NULL);
		const char *tab = str_of(b, "table", NULL);
		const char *chn = str_of(b, "chain", NULL);
		bool policy = strcmp(str_of(b, "kind", ""), "policy") == 0;
		json_int_t h = json_integer_value(json_object_get(b, "handle"));

		if (fam == NULL || tab == NULL || chn == NULL ||
		    !block_hits(b, r) || !first_in_chain(blocks, i, r) ||
		    accepted_before(blocks, i, r))
			continue;
		if (legacy && policy)
			snprintf(cmd, sizeof(cmd),
			         "iptables-legacy -I %s 1 -p %s --dport %s -j "
			         "ACCEPT",
			         chn, r->proto, ipt);
		else if (legacy)
			snprintf(cmd, sizeof(cmd),
			         "iptables-legacy -I %s %lld -p %s --dport %s "
			         "-j ACCEPT",
			         chn, h > 0 ? (long long)h : 1LL, r->proto,
			         ipt);
		else if (policy || h <= 0)
			snprintf(cmd, sizeof(cmd),
			         "nft insert rule %s %s %s %s dport %s accept",
			         fam, tab, chn, r->proto, nft);
		else
			snprintf(cmd, sizeof(cmd),
			         "nft insert rule %s %s %s position %lld %s "
			         "dport %s accept",
			         fam, tab, chn, (long long)h, r->proto, nft);
		if (add_unique(out, cmd) < 0)
			return -1;
		n++;
	}
	return n;
}

/* See fwcmd.h. */
void fwcmd_why_unknown(const json_t *fwj, const char *node, char *buf,
                       size_t len)
{
	if (node != NULL && node[0] != '\0')
		snprintf(buf, len, "%s's ruleset is read only on %s", node,
		         node);
	else if (fwj == NULL)
		snprintf(buf, len, "this node's ruleset was not read");
	else
		snprintf(buf, len,
		         "the ruleset could not be read (nft -j list ruleset "
		         "needs root, and nft)");
}

/* The sentence said instead of an nftables command for r: "cannot tell
 * which table drops 29500/tcp, because ..." (r on node, "" or NULL this
 * node, whose ruleset fwj is; NULL not read) and how to find out (`nft -a
 * list ruleset`). */
static void fwcmd_cannot_tell(const json_t *fwj, const struct fw_rule *r,
                              const char *node, char *buf, size_t len)
{
	char ports[16], why[160], where[FW_NODE_MAX + 8] = "";

	if (r->lo == r->hi)
		snprintf(ports, sizeof(ports), "%u", r->lo);
	else
		snprintf(ports, sizeof(ports), "%u-%u", r->lo, r->hi);
	if (node != NULL && node[0] != '\0')
		snprintf(where, sizeof(where), " on %s", node);
	if ((node == NULL || node[0] == '\0') && fwcmd_ruleset_read(fwj))
		snprintf(why, sizeof(why),
		         "no rule or drop policy of this node's ruleset drops "
		         "%s/%s (a firewall on the way may)",
		         ports, r->proto);
	else
		fwcmd_why_unknown(fwj, node, why, sizeof(why));
	snprintf(buf, len,
	         "cannot tell which table drops %s/%s, because %s: run `nft "
	         "-a list ruleset`%s as root and insert `%s dport %s accept` "
	         "before the rule that drops it (nft insert rule FAMILY "
	         "TABLE CHAIN position HANDLE ...)",
	         ports, r->proto, why, where, r->proto, ports);
}

/* Appends the line (prefixed "# on NODE: " for another node) to key of
 * cmds, creating the array. Returns 0, or -1 on no memory. */
static int add_line(json_t *cmds, const char *key, const char *node,
                    const char *cmd)
{
	json_t *a = json_object_get(cmds, key);
	char line[FW_NODE_MAX + 640];

	if (a == NULL) {
		a = json_array();
		if (a == NULL || json_object_set_new(cmds, key, a) < 0)
			return -1;
	}
	if (node[0] != '\0')
		snprintf(line, sizeof(line), "# on %s: %s", node, cmd);
	else
		snprintf(line, sizeof(line), "%s", cmd);
	return add_unique(a, line);
}

/* See fwcmd.h. */
bool fwcmd_service_takes(const json_t *fwj, const char *svc,
                         const char **why_unsure)
{
	char key[32];
	const char *st;
	bool chains = json_is_true(json_object_get(fwj, svc));

	if (why_unsure != NULL)
		*why_unsure = NULL;
	snprintf(key, sizeof(key), "%s_service", svc);
	st = json_string_value(json_object_get(fwj, key));
	if (st == NULL)
		return chains;
	if (strcmp(st, "active") == 0)
		return true;
	if (strcmp(st, "unknown") != 0 || !chains)
		return false;
	snprintf(key, sizeof(key), "%s_why", svc);
	if (why_unsure != NULL) {
		*why_unsure = json_string_value(json_object_get(fwj, key));
		if (*why_unsure == NULL)
			*why_unsure = "its state could not be read";
	}
	return true;
}

/* See fwcmd.h. */
int fwcmd_rule_commands(const struct fw_rule *r, const json_t *fwj,
                        json_t *cmds)
{
	static const struct {
		enum fw_dialect dl;
		const char *key, *service;
	} daemons[] = {{FW_UFW, "ufw", "ufw"},
	               {FW_FIREWALLD, "firewalld", "firewalld"}};
	/* another node's ruleset is not the one this process read */
	const json_t *rs = r->node[0] == '\0' ? fwj : NULL;
	bool read = fwcmd_ruleset_read(rs);
	char cmd[768];
	int n = 0;

	if (read)
		n = fwcmd_ruleset_cmds(rs, r, cmds);
	if (n < 0)
		return -1;
	if (n == 0) {
		char note[640];

		fwcmd_cannot_tell(rs, r, r->node, note, sizeof(note));
		snprintf(cmd, sizeof(cmd), "# %s", note);
		if (add_line(cmds, "nftables", "", cmd) < 0)
			return -1;
	}
	for (size_t k = 0; k < 2; k++) {
		/* where the ruleset was read, only a service that runs */
		if (read && !fwcmd_service_takes(rs, daemons[k].service, NULL))
			continue;
		if (fwcmd_format(daemons[k].dl, r, cmd, sizeof(cmd)) > 0 &&
		    add_line(cmds, daemons[k].key, r->node, cmd) < 0)
			return -1;
	}
	return 0;
}

/* See fwcmd.h. */
json_t *fwcmd_commands_json(const struct fw_plan *p, const json_t *fwj)
{
	json_t *o = json_pack("{s:[], s:[], s:[]}", "nftables", "ufw",
	                      "firewalld");

	for (size_t i = 0; o != NULL && i < p->n; i++)
		if (fwcmd_rule_commands(&p->v[i], fwj, o) < 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}
