/* What the report's cause suites (test_report_causes.c,
 * test_report_fwcauses.c) share: models of fixtures and of documents
 * built in memory, and the causes they hold. */
#ifndef NP_TEST_REPORT_CAUSES_FX_H
#define NP_TEST_REPORT_CAUSES_FX_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_model.h"
#include "unitfix.h"

/* A scan of node whose chosen interface eth0 has mtu and addr. */
static inline json_t *scan(const char *node, long long mtu, const char *addr)
{
	return json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:[{s:s, s:I, s:s, "
		"s:[{s:s, s:s, s:i}]}], s:{s:s, s:s}, s:[]}",
		"schema", "netprobe/1", "tool", "netprobe", "command", "scan",
		"host", node, "started", "2026-11-21T10:00:00Z", "findings",
		"errors", "interfaces", "name", "eth0", "mtu", (json_int_t)mtu,
		"kind", "ether", "addresses", "address", addr, "family", "inet",
		"prefixlen", 24, "recommendation", "interface", "eth0",
		"address", addr, "peers");
}

/* n-a's probe of n-b's (10.231.9.2) port 29500/tcp timed out: the port
 * n-a asks to open, and its port-filtered fault, a's only finding. */
static inline void port_filtered(json_t *a)
{
	json_object_set_new(
		a, "ports_to_open",
		json_pack("[{s:i, s:s, s:[s], s:s}]", "port", 29500, "proto",
			  "tcp", "nodes", "10.231.9.2", "why",
			  "inbound from 10.231.9.1 to port 29500/tcp: "
			  "filtered (timeout)"));
	json_object_set_new(
		a, "findings",
		json_pack("[{s:s, s:s, s:s, s:[]}]", "code", "port-filtered",
			  "severity", "fault", "summary",
			  "1 port unanswered (dropped) on 10.231.9.2: 29500/tcp",
			  "evidence"));
}

/* A scan's `firewall`: an nftables ruleset read whole, ufw's chains
 * loaded or not, no firewalld, blocks (taken) its blocks. */
static inline json_t *nft_ruleset(int ufw, json_t *blocks)
{
	return json_pack("{s:s, s:b, s:b, s:b, s:o}", "backend", "nftables",
			 "ufw", ufw, "firewalld", 0, "truncated", 0, "blocks",
			 blocks);
}

/* A ruleset's rule that drops proto ports in family table chain at
 * handle, from saddr alone (NULL: from anywhere). */
static inline json_t *nft_drop(const char *family, const char *table,
			       const char *chain, int handle,
			       const char *proto, const char *ports,
			       const char *saddr)
{
	json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:[s], s:s}",
			      "kind", "rule", "family", family, "table", table,
			      "chain", chain, "handle", handle, "proto", proto,
			      "ports", ports, "verdict", "drop");

	if (r != NULL && saddr != NULL)
		json_object_set_new(r, "saddr", json_pack("[s]", saddr));
	return r;
}

/* A ruleset's block for iptables' `ip filter INPUT` chain whose policy
 * drops. */
static inline json_t *nft_policy_drop(void)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:n, s:n, s:[], s:s}", "kind",
			 "policy", "family", "ip", "table", "filter", "chain",
			 "INPUT", "handle", "proto", "ports", "verdict",
			 "drop");
}

/* The report of a (taken) and b (taken), loaded into set as a.json and
 * b.json; the model, to free with the set. */
static inline struct report_model *pair_model(struct report_set *set,
					      json_t *a, json_t *b)
{
	unitfix_load_doc(set, "a.json", a);
	unitfix_load_doc(set, "b.json", b);
	return report_build(set);
}

/* The cause with id in the model, or NULL. */
static inline const struct rm_cause *cause(const struct report_model *m,
				           const char *id)
{
	for (size_t i = 0; i < m->ncauses; i++)
		if (strcmp(rj_str(m->causes[i].cause, "id"), id) == 0)
			return &m->causes[i];
	return NULL;
}

/* Command i of a fix's nftables commands, or NULL. */
static inline const char *nft_cmd(const json_t *cmds, size_t i)
{
	return json_string_value(json_array_get(rj_arr(cmds, "nftables"), i));
}

/* Asserts that the model holds one cause, id, resting on one finding,
 * whose first nftables command is nft0. */
static inline void assert_only_cause(const struct report_model *m,
				     const char *id, const char *nft0)
{
	const struct rm_cause *k;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 1);
	k = cause(m, id);
	ck_assert_ptr_nonnull(k);
	ck_assert_str_eq(nft_cmd(json_object_get(json_object_get(k->cause,
								  "fix"),
						 "commands"),
				 0),
			 nft0);
	ck_assert_int_eq((long long)json_array_size(rj_arr(k->cause,
							   "findings")),
			 1);
}

#endif
