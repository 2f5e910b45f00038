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
