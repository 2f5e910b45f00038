/* netprobe report, decide: ports to open, per node. The scans' own
 * ports_to_open and commands, every port a ports document found filtered
 * or prohibited (on the target, or on the prober for connect-back
 * results), and whole ephemeral ranges whose samples were filtered. Never
 * on a node behind NAT: opening ports there cannot help. */
#include <string.h>

#include "report_decide.h"

/* Adds a port (number) or range ("lo-hi") to open on node, once; takes
 * port. */
static void fw_add(json_t *fw, const char *node, json_t *port,
		   const char *proto, const char *why, const char *cnode,
		   const char *ccode)
{
	json_t *e = rd_fw_node(fw, node), *o;
	size_t i;

	rd_cite_add(json_object_get(e, "cites"), cnode, ccode);
	json_array_foreach(json_object_get(e, "open"), i, o)
		if (json_equal(json_object_get(o, "port"), port) &&
		    strcmp(rj_str(o, "proto"), proto) == 0) {
			json_decref(port);
			return;
		}
	json_array_append_new(json_object_get(e, "open"),
			      json_pack("{s:o, s:s, s:s}", "port", port,
					"proto", proto, "why", why));
}

/* A port entry's port value: a number, or a "lo-hi" range string. */
static json_t *port_value(const json_t *o)
{
	json_t *p = json_object_get(o, "port");

	if (json_is_integer(p) || json_is_string(p))
		return json_incref(p);
	p = json_object_get(o, "range");
	if (json_is_string(p))
		return json_incref(p);
	return NULL;
}

/* True for a port state a firewall causes. */
static bool blocked_state(const char *st)
{
	return strcmp(st, "filtered") == 0 || strcmp(st, "prohibited") == 0;
}

/* A ports document probes the ephemeral preset with samples at both ends
 * of the target's ip_local_port_range: when one is filtered, the whole
 * range from the lowest to the highest sample is what to open. */
static void ephemeral_range(const json_t *d, json_t *fw, const char *host,
			    const char *target)
{
	long lo = -1, hi = -1;
	bool blocked = false;
	char range[64], why[512];
	size_t i;
	json_t *o;

	json_array_foreach(rj_arr(d, "ports"), i, o) {
		long p = (long)rj_int(o, "port", -1);

		if (strcmp(rj_strd(o, "preset", ""), "ephemeral") != 0 || p < 0)
			continue;
		if (lo < 0 || p < lo)
			lo = p;
		if (p > hi)
			hi = p;
		blocked |= blocked_state(rj_strd(o, "state", ""));
	}
	if (!blocked || target == NULL || hi <= lo)
		return;
	snprintf(range, sizeof(range), "%ld-%ld", lo, hi);
	snprintf(why, sizeof(why),
		 "%s's ephemeral range (ip_local_port_range, sampled at both "
		 "ends by %s) is filtered: NCCL, Gloo and torch listen there",
		 target, host);
	fw_add(fw, target, json_string(range), "tcp", why, host,
	       "port-filtered");
}

/* A scan's ports_to_open (on the nodes it names, else its own) and the
 * firewall commands it already wrote. */
static void from_scan(const json_t *d, json_t *fw)
{
	static const char *const dia[] = {"nftables", "ufw", "firewalld", NULL};
	const char *host = rj_str(d, "host");
	json_t *o, *v, *e = NULL;
	size_t i, j;

	json_array_foreach(rj_arr(d, "ports_to_open"), i, o) {
		json_t *nodes = rj_arr(o, "nodes"), *pv = port_value(o);
		const char *proto = rj_strd(o, "proto", "tcp");
		const char *why = rj_strd(o, "why", "");

		if (pv == NULL)
			continue;
		if (json_array_size(nodes) == 0) {
			fw_add(fw, host, pv, proto, why, host,
			       "scan.ports_to_open");
			continue;
		}
		json_array_foreach(nodes, j, v)
			if (json_is_string(v))
				fw_add(fw, json_string_value(v),
				       json_incref(pv), proto, why, host,
				       "scan.ports_to_open");
		json_decref(pv);
	}
	if (!json_is_object(json_object_get(d, "commands")))
		return;
	for (const char *const *q = dia; *q; q++)
		json_array_foreach(rj_arr(json_object_get(d, "commands"), *q),
				   i, v) {
			if (!json_is_string(v))
				continue;
			if (e == NULL)
				e = rd_fw_node(fw, host);
			rj_add_unique(
				json_object_get(json_object_get(e, "commands"),
						*q),
				json_string_value(v));
		}
}

/* A ports document: filtered ports on its target, connect-back failures
 * on the prober. */
static void from_ports(const struct rctx *c, const json_t *d, json_t *fw)
{
	const char *host = rj_str(d, "host");
	char tbuf[256], why[512];
	const char *target = rn_target(c, d, tbuf, sizeof(tbuf));
	size_t i;
	json_t *o, *pv;

	if (target != NULL && rd_node_is_nat(c, target))
		return; /* the change on that node is the fix */
	ephemeral_range(d, fw, host, target);
	json_array_foreach(rj_arr(d, "ports"), i, o) {
		const char *st = rj_strd(o, "state", "unknown");

		if (target == NULL || !blocked_state(st) ||
		    (pv = port_value(o)) == NULL)
			continue;
		snprintf(why, sizeof(why),
			 "%s could not reach it on %s: %s (%s)", host, target,
			 st, rj_strd(o, "reason", "?"));
		fw_add(fw, target, pv, rj_strd(o, "proto", "tcp"), why, host,
		       strcmp(st, "filtered") == 0 ? "port-filtered"
						   : "port-prohibited");
	}
	json_array_foreach(rj_arr(d, "inbound"), i, o) {
		const char *st = rj_strd(o, "state", "unknown");

		if (!blocked_state(st) || (pv = port_value(o)) == NULL)
			continue;
		snprintf(why, sizeof(why),
			 "%s could not connect back to it: %s (%s)",
			 target != NULL ? target : "the peer", st,
			 rj_strd(o, "reason", "?"));
		fw_add(fw, host, pv, rj_strd(o, "proto", "tcp"), why, host,
		       "inbound-blocked");
	}
}

json_t *rd_firewall(const struct rctx *c)
{
	json_t *fw = json_array();

	if (fw == NULL)
		return NULL;
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;

		from_scan(d, fw);
		if (strcmp(rj_strd(d, "command", ""), "ports") == 0)
			from_ports(c, d, fw);
	}
	if (rd_fw_fold(fw) < 0) {
		json_decref(fw);
		return NULL;
	}
	rd_fw_commands(fw);
	return fw;
}
