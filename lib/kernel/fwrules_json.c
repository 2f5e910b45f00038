/* The scan document's `firewall` object (fwrules.h): the backend, ufw
 * and firewalld, and every blocker with its table, chain and handle. */
#include <stdio.h>

#include <jansson.h>

#include "kernel/fwrules.h"

/* One place of the ruleset: {kind, family, table, chain, handle,
 * proto, ports, verdict, saddr, iifname}; NULL on no memory. */
static json_t *block_json(const struct fwr_block *b, const char *kind,
                          const char *verdict)
{
	json_t *ports = json_array(), *src = NULL;

	for (size_t k = 0; ports != NULL && k < b->nranges; k++) {
		char p[16];

		if (b->lo[k] == b->hi[k])
			snprintf(p, sizeof(p), "%u", b->lo[k]);
		else
			snprintf(p, sizeof(p), "%u-%u", b->lo[k], b->hi[k]);
		json_array_append_new(ports, json_string(p));
	}
	for (size_t k = 0; k < b->nsaddr; k++) {
		if (src == NULL)
			src = json_array();
		json_array_append_new(src, json_string(b->saddr[k]));
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:s?, s:o, s:s, s:o*, "
	                 "s:s?}",
	                 "kind", kind, "family", b->family, "table", b->table,
	                 "chain", b->chain, "handle",
	                 b->handle >= 0 ? json_integer(b->handle) : json_null(),
	                 "proto", b->proto[0] ? b->proto : NULL, "ports", ports,
	                 "verdict", verdict, "saddr", src, "iifname",
	                 b->iif[0] ? b->iif : NULL);
}

/* The notrack rules and the untracked accepts (issue 48) into o, where
 * the ruleset has a notrack rule: `notrack` and `untracked_accepts`; and
 * `notrack_unread` where an iptables-nft target may exempt too. Returns
 * 0, or -1 on no memory. */
static int notrack_json(const struct fw_rules *r, json_t *o)
{
	json_t *nt, *ua;

	if (r->notrack_xt &&
	    json_object_set_new(o, "notrack_unread", json_true()) < 0)
		return -1;
	if (r->notrack_tool[0] != '\0' &&
	    json_object_set_new(o, "notrack_tool",
	                        json_string(r->notrack_tool)) < 0)
		return -1;
	if (r->nnotrack == 0)
		return 0;
	nt = json_array();
	ua = json_array();
	for (size_t i = 0; nt != NULL && i < r->nnotrack; i++)
		json_array_append_new(
		    nt, block_json(&r->notrack[i], "notrack", "notrack"));
	for (size_t i = 0; ua != NULL && i < r->nuntracked; i++)
		json_array_append_new(
		    ua, block_json(&r->untracked[i], "rule", "accept"));
	return json_object_update_new(o, json_pack("{s:o*, s:o*}", "notrack",
	                                            nt, "untracked_accepts",
	                                            ua));
}


/* See fwrules.h. */
json_t *fwrules_to_json(const struct fw_rules *r)
{
	static const char *const backends[] = {NULL, "nftables",
	                                       "iptables-legacy"};
	json_t *blocks = json_array(), *unread = json_array(), *o;

	for (size_t i = 0; blocks != NULL && i < r->n; i++) {
		const struct fwr_block *b = &r->b[i];

		json_array_append_new(
		    blocks, block_json(b, b->kind == FWR_POLICY ? "policy"
		                                                : "rule",
		                       b->accept   ? "accept"
		                       : b->reject ? "reject"
		                                   : "drop"));
	}
	for (size_t i = 0; unread != NULL && i < r->nunread; i++) {
		const struct fwr_block *b = &r->unread[i];

		json_array_append_new(
		    unread, block_json(b, "rule", b->reject ? "reject" : "drop"));
	}
	o = json_pack("{s:s?, s:b, s:b, s:b, s:o, s:o, s:b}", "backend",
	              backends[r->backend], "ufw", r->ufw, "firewalld",
	              r->firewalld, "truncated", r->truncated, "blocks", blocks,
	              "unread", unread, "unread_truncated",
	              r->unread_truncated);
	if (o != NULL && notrack_json(r, o) < 0) {
		json_decref(o);
		return NULL;
	}
	if (o != NULL && r->svc_read &&
	    json_object_update_new(
	        o, json_pack("{s:s, s:s, s:s, s:s}", "ufw_service",
	                     fwservice_state_name(r->svc.ufw), "ufw_why",
	                     r->svc.ufw_why, "firewalld_service",
	                     fwservice_state_name(r->svc.firewalld),
	                     "firewalld_why", r->svc.firewalld_why)) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}
