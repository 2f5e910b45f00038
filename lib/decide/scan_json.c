/* JSON forms of the scan's hostname lookup, NCCL's own choice and the
 * peers' verdicts. */
#include "decide/scan_json.h"

#include <arpa/inet.h>
#include <string.h>

/* A string, or null for "". */
static json_t *str_or_null(const char *s)
{
	return s != NULL && *s != '\0' ? json_string(s) : json_null();
}

/* 1 true, 0 false, else null. */
static json_t *tri(int v)
{
	return v == 1 ? json_true() : v == 0 ? json_false() : json_null();
}

/* bindable is null when bind() was not tried (a recorded tree). */
json_t *hostname_to_json(const struct hostname_info *h)
{
	const struct hostname_addr *g = hostname_gloo_addr(h);
	json_t *addrs = json_array(), *o;
	int bindable = -1;
	bool loop = false;

	if (addrs == NULL)
		return NULL;
	for (int i = 0; i < h->naddrs; i++) {
		json_array_append_new(addrs, json_string(h->addrs[i].str));
		if (h->addrs[i].bindable == 1)
			bindable = 1;
		else if (h->addrs[i].bindable == 0 && bindable == -1)
			bindable = 0;
	}
	if (g != NULL) {
		if (g->family == AF_INET)
			loop = (ntohl(g->a.v4.s_addr) >> 24) == 127;
		else
			loop = IN6_IS_ADDR_LOOPBACK(&g->a.v6);
	}
	o = json_pack("{s:o, s:o, s:b, s:o, s:o, s:o}", "name",
	              str_or_null(h->name), "addresses", addrs, "loopback",
	              loop, "bindable", tri(bindable), "resolved_by",
	              str_or_null(h->resolved_by), "error",
	              str_or_null(h->error));
	return o;
}

/* NCCL's order is kept; bootstrap is what the bootstrap listens on (the
 * first interface, or NCCL_COMM_ID's subnet's). */
json_t *nccl_default_to_json(const struct nccl_default *nd)
{
	const struct nccl_choice *c = &nd->choice;
	json_t *ifs = json_array();

	if (ifs == NULL)
		return NULL;
	for (int i = 0; i < c->n; i++)
		json_array_append_new(
		    ifs, json_pack("{s:s, s:s}", "name", c->v[i].name,
		                   "address", c->v[i].addr->str));
	return json_pack("{s:s, s:o, s:o, s:b, s:s}", "rule", c->rule,
	                 "interfaces", ifs, "bootstrap",
	                 nd->boot.n > 0 ? json_string(nd->boot.v[0].name)
	                                : json_null(),
	                 "safe", nd->safe, "why", nd->why);
}

/* Unknown values (-1, "") are null, as the peer probes leave them. */
json_t *peer_verdict_to_json(const struct peer_verdict *p)
{
	return json_pack(
	    "{s:s, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:[]}", "peer",
	    p->peer, "peer_addr", str_or_null(p->peer_addr), "responded",
	    p->responded, "local_addr", str_or_null(p->local_addr),
	    "local_ifname", str_or_null(p->local_ifname), "observed_addr",
	    str_or_null(p->observed_addr), "nat", tri(p->nat), "inbound",
	    tri(p->inbound), "rtt_us",
	    p->rtt_us >= 0 ? json_integer(p->rtt_us) : json_null(), "path_mtu",
	    p->path_mtu >= 0 ? json_integer(p->path_mtu) : json_null(),
	    "ports");
}
