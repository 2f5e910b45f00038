/* netprobe report, merge: which node each document and each address
 * belongs to, and what ran on each node. Nodes are the `host` of each
 * document and the hosts of ncclcheck ranks; addresses come from scans,
 * ifaces and rank tables. */
#include <stdlib.h>
#include <string.h>

#include "base/hostport.h"
#include "report_merge.h"

/* Adds name to the sorted, unique node list. */
static void add_node(json_t *nodes, const char *name)
{
	size_t i;
	json_t *v;

	if (name == NULL || *name == '\0')
		return;
	json_array_foreach(nodes, i, v) {
		int c = strcmp(json_string_value(v), name);

		if (c == 0)
			return;
		if (c > 0) {
			json_array_insert_new(nodes, i, json_string(name));
			return;
		}
	}
	json_array_append_new(nodes, json_string(name));
}

/* Records addr -> node; an address two nodes claim (two containers on
 * 172.17.0.2) maps to nothing, as no guess is better than a wrong one. */
static void add_addr(json_t *map, const char *addr, const char *node)
{
	json_t *cur;

	if (addr == NULL || node == NULL || *addr == '\0')
		return;
	if (strncmp(addr, "127.", 4) == 0 || strcmp(addr, "::1") == 0)
		return;
	cur = json_object_get(map, addr);
	if (cur == NULL)
		json_object_set_new(map, addr, json_string(node));
	else if (json_is_string(cur) &&
		 strcmp(json_string_value(cur), node) != 0)
		json_object_set_new(map, addr, json_null());
}

/* Addresses of an interface array ([{addresses: [{address}]}]): each
 * interface's first of each family (its primary) with secondary false;
 * the others with secondary true, and then only where nobody claims the
 * address yet: a node holding another's address beside its own (an
 * address conflict, issue 31) does not make it nobody's. */
static void add_iface_addrs(json_t *map, json_t *ifaces, const char *node,
			    bool secondary)
{
	size_t i, j;
	json_t *ifc, *a;

	json_array_foreach(ifaces, i, ifc) {
		const char *name = rj_str(ifc, "name");
		bool v4 = false, v6 = false;

		if (name != NULL && strcmp(name, "lo") == 0)
			continue;
		json_array_foreach(rj_arr(ifc, "addresses"), j, a) {
			bool six = strcmp(rj_strd(a, "family", ""), "inet6") == 0;
			bool first = six ? !v6 : !v4;
			const char *ad = rj_str(a, "address");

			if (six)
				v6 = true;
			else
				v4 = true;
			if (!secondary && first)
				add_addr(map, ad, node);
			else if (secondary && !first && ad != NULL &&
				 json_object_get(map, ad) == NULL)
				add_addr(map, ad, node);
		}
	}
}

int rn_build(struct rctx *c)
{
	c->nodes = json_array();
	c->addrs = json_object();
	if (c->nodes == NULL || c->addrs == NULL)
		return -1;
	for (size_t k = 0; k < c->set->nin; k++) {
		json_t *d = c->set->in[k].doc;
		const char *host = rj_str(d, "host");
		json_t *rec = json_object_get(d, "recommendation");
		size_t i;
		json_t *v;

		add_node(c->nodes, host);
		add_iface_addrs(c->addrs, rj_arr(d, "interfaces"), host, false);
		add_addr(c->addrs, rj_str(rec, "address"), host);
		/* its hostname's addresses: in the second pass */
		/* netprobe mesh's members: the address node 0 saw and the
		 * one peers probe are that member's, NAT or not (a
		 * container listed by its host's address) */
		json_array_foreach(
		    rj_arr(json_object_get(d, "mesh"), "members"), i, v) {
			const char *nm = rj_str(v, "name");

			if (strcmp(rj_strd(d, "command", ""), "mesh") != 0 ||
			    strcmp(rj_strd(v, "state", ""), "joined") != 0)
				continue;
			add_addr(c->addrs, rj_str(v, "observed_addr"), nm);
			add_addr(c->addrs, rj_str(v, "target"), nm);
		}
		json_array_foreach(rj_arr(d, "ranks"), i, v) {
			add_node(c->nodes, rj_str(v, "host"));
			add_addr(c->addrs, rj_str(v, "address"),
				 rj_str(v, "host"));
		}
	}
	/* the addresses held beside an interface's first: where nobody
	 * else claims them */
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		size_t i;
		json_t *v;

		add_iface_addrs(c->addrs, rj_arr(d, "interfaces"),
				rj_str(d, "host"), true);
		/* what its hostname resolves to: another node's address
		 * where the hostname is shared (issue 31) */
		json_array_foreach(rj_arr(json_object_get(d, "hostname"),
					  "addresses"),
				   i, v)
			if (json_string_value(v) != NULL &&
			    json_object_get(c->addrs, json_string_value(v)) ==
				    NULL)
				add_addr(c->addrs, json_string_value(v),
					 rj_str(d, "host"));
	}
	return 0;
}

const char *rn_resolve(const struct rctx *c, const char *host,
		       const char *addr)
{
	if (host != NULL) {
		/* c->nodes is sorted and unique (add_node): a binary search,
		 * as the deciders ask once per word of a finding */
		size_t lo = 0, hi = json_array_size(c->nodes);

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const char *v = json_string_value(
				json_array_get(c->nodes, mid));
			int cmp = strcmp(v, host);

			if (cmp == 0)
				return v;
			if (cmp < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (json_string_value(json_object_get(c->addrs, host)))
			return json_string_value(
				json_object_get(c->addrs, host));
	}
	if (addr != NULL &&
	    json_string_value(json_object_get(c->addrs, addr)) != NULL)
		return json_string_value(json_object_get(c->addrs, addr));
	return NULL;
}

/* A peer string "host:port", "[v6]:port" or "host" without its port
 * (base/hostport.h's parser); one it cannot split is kept whole. */
static void peer_host(const char *peer, char *out, size_t len)
{
	const char *why;
	unsigned port;

	if (hostport_parse(peer, 0, out, len, &port, &why, NULL) != HOSTPORT_OK)
		snprintf(out, len, "%s", peer != NULL ? peer : "");
}

const char *rn_peer(const struct rctx *c, const json_t *peer, char *buf,
		    size_t len)
{
	const char *n;

	peer_host(rj_str(peer, "peer"), buf, len);
	n = rn_resolve(c, buf[0] ? buf : NULL, rj_str(peer, "peer_addr"));
	if (n != NULL)
		return n;
	if (rj_str(peer, "peer_addr") != NULL && buf[0] == '\0')
		snprintf(buf, len, "%s", rj_str(peer, "peer_addr"));
	return buf[0] ? buf : NULL;
}

const char *rn_target(const struct rctx *c, const json_t *doc, char *buf,
		      size_t len)
{
	json_t *t = json_object_get(doc, "target");
	const char *n = rn_resolve(c, rj_str(t, "host"), rj_str(t, "address"));

	if (n != NULL)
		return n;
	snprintf(buf, len, "%s",
		 rj_strd(t, "host", rj_strd(t, "address", "")));
	return buf[0] ? buf : NULL;
}

/* The node entry of one node: what its documents say. */
static json_t *node_entry(const struct rctx *c, const char *nn)
{
	json_t *cmds = json_array(), *errs = json_array();
	json_t *files = json_array(), *layers = NULL, *rec = NULL;

	for (size_t k = 0; k < c->set->nin; k++) {
		json_t *d = c->set->in[k].doc, *e;
		const char *file = c->set->in[k].path;
		size_t j;

		if (strcmp(rj_str(d, "host"), nn) != 0)
			continue;
		rj_add_unique(cmds,
			   rj_strd(d, "command", rj_strd(d, "tool", "?")));
		json_array_append_new(files, json_string(file));
		json_array_foreach(rj_arr(d, "errors"), j, e)
			json_array_append_new(
				errs, json_pack("{s:s, s:s, s:s}", "file", file,
						"step", rj_strd(e, "step", ""),
						"message",
						rj_strd(e, "message", "")));
		if (json_is_object(json_object_get(d, "layers")))
			layers = json_object_get(d, "layers");
		if (json_is_object(json_object_get(d, "recommendation")))
			rec = json_object_get(d, "recommendation");
	}
	return json_pack("{s:s, s:o, s:o, s:o, s:s?, s:s?, s:s?, s:s?, s:s?}",
			 "name", nn, "commands", cmds, "files", files, "errors",
			 errs, "container", rj_str(layers, "container"),
			 "netmode", rj_str(layers, "netmode"), "wsl",
			 rj_str(layers, "wsl"), "interface",
			 rj_str(rec, "interface"), "address",
			 rj_str(rec, "address"));
}

json_t *rn_table(const struct rctx *c)
{
	json_t *out = json_array(), *name;
	size_t i;

	if (out == NULL)
		return NULL;
	json_array_foreach(c->nodes, i, name)
		if (json_array_append_new(
			    out, node_entry(c, json_string_value(name))) < 0) {
			json_decref(out);
			return NULL;
		}
	return out;
}
