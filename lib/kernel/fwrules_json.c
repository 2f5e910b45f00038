/* The scan document's `firewall` object (fwrules.h): the backend, ufw
 * and firewalld, and every blocker with its table, chain and handle. */
#include <stdio.h>

#include <jansson.h>

#include "kernel/fwrules.h"

/* One block as the document writes it. NULL on no memory. */
static json_t *block_json(const struct fwr_block *b)
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
	                 "kind", b->kind == FWR_POLICY ? "policy" : "rule",
	                 "family", b->family, "table", b->table, "chain",
	                 b->chain, "handle",
	                 b->handle >= 0 ? json_integer(b->handle) : json_null(),
	                 "proto", b->proto[0] ? b->proto : NULL, "ports", ports,
	                 "verdict",
	                 b->accept   ? "accept"
	                 : b->reject ? "reject"
	                             : "drop",
	                 "saddr", src, "iifname", b->iif[0] ? b->iif : NULL);
}

/* See fwrules.h. */
json_t *fwrules_to_json(const struct fw_rules *r)
{
	static const char *const backends[] = {NULL, "nftables",
	                                       "iptables-legacy"};
	json_t *blocks = json_array(), *unread = json_array(), *o;

	for (size_t i = 0; blocks != NULL && i < r->n; i++)
		json_array_append_new(blocks, block_json(&r->b[i]));
	for (size_t i = 0; unread != NULL && i < r->nunread; i++)
		json_array_append_new(unread, block_json(&r->unread[i]));
	o = json_pack("{s:s?, s:b, s:b, s:b, s:o, s:o, s:b}", "backend",
	              backends[r->backend], "ufw", r->ufw, "firewalld",
	              r->firewalld, "truncated", r->truncated, "blocks", blocks,
	              "unread", unread, "unread_truncated",
	              r->unread_truncated);
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
