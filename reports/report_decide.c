/* netprobe report: the cluster-wide recommendation. Pure functions over
 * the loaded documents: one interface per node and the NCCL, Gloo, torch
 * and Ray settings that select it; the ports to open, container and WSL
 * changes and MTUs; nodes that block a choice and evidence that conflicts.
 * Every item cites the node and the finding code or measurement behind it. */
#include <stdlib.h>
#include <string.h>

#include "decide/nccl_select.h"
#include "decide/fwcmd.h"
#include "report_int.h"

#define RAY_HEAD_PORT 6379

/* The scan a node's recommendation comes from: the latest by `started`,
 * later inputs winning ties. */
static const struct report_input *node_scan(const struct rctx *c,
					    const char *node)
{
	const struct report_input *best = NULL;

	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;

		if (strcmp(rj_str(d, "host"), node) != 0 ||
		    strcmp(rj_strd(d, "command", ""), "scan") != 0 ||
		    !json_is_object(json_object_get(d, "recommendation")))
			continue;
		if (best == NULL || strcmp(rj_strd(d, "started", ""),
					   rj_strd(best->doc, "started", "")) >=
					    0)
			best = &c->set->in[k];
	}
	return best;
}

/* True when node has a finding with one of the codes. */
static bool node_has(const struct rctx *c, const char *node,
		     const char *const *codes)
{
	size_t i;
	json_t *f;

	json_array_foreach(c->findings, i, f) {
		if (strcmp(rj_str(f, "node"), node) != 0)
			continue;
		for (const char *const *p = codes; *p != NULL; p++)
			if (strcmp(rj_str(f, "code"), *p) == 0)
				return true;
	}
	return false;
}

/* Cites every finding of node whose class is cls (NULL: any) at or above
 * severity min. */
static void cite_findings(const struct rctx *c, json_t *cites,
			  const char *node, const char *cls, int min)
{
	size_t i;
	json_t *f;

	json_array_foreach(c->findings, i, f)
		if (strcmp(rj_str(f, "node"), node) == 0 &&
		    rj_sev(rj_str(f, "severity")) >= min &&
		    (cls == NULL || strcmp(rj_str(f, "class"), cls) == 0))
			rc_cite_add(cites, node, rj_str(f, "code"));
}

/* Appends one setting. */
static void add_setting(json_t *settings, const char *name, const char *val,
			const char *node, const char *why, json_t *cites)
{
	json_array_append_new(
		settings,
		json_pack("{s:s, s:s?, s:s, s:s?, s:s, s:o, s:b}", "name", name,
			  "value", val, "scope", node ? "node" : "cluster",
			  "node", node, "why", why, "cites", cites, "disputed",
			  0));
}

/* Per node: the interface its scan chose, or why it is blocked; conflicts
 * between several scans of one node. */
static void decide_interfaces(const struct rctx *c, json_t *per_node,
			      json_t *blocked, json_t *conflicts)
{
	size_t i;
	json_t *n;

	json_array_foreach(c->nodes, i, n) {
		const char *node = json_string_value(n);
		const struct report_input *sc = node_scan(c, node);
		json_t *rec, *cites, *claims;
		const char *ifc;

		if (sc == NULL)
			continue;
		rec = json_object_get(sc->doc, "recommendation");
		ifc = rj_str(rec, "interface");
		cites = json_array();
		rc_cite_add(cites, node, "scan.recommendation");
		if (ifc == NULL) {
			char why[1024] = "";
			size_t j;
			json_t *v;

			json_array_foreach(rj_arr(rec, "reasons"), j, v) {
				size_t l = strlen(why);

				snprintf(why + l, sizeof(why) - l, "%s%s",
					 l ? "; " : "", json_string_value(v));
			}
			json_array_foreach(rj_arr(rec, "rejected"), j, v) {
				size_t l = strlen(why);

				snprintf(why + l, sizeof(why) - l,
					 "%s%s rejected: %s", l ? "; " : "",
					 rj_strd(v, "interface", "?"),
					 rj_strd(v, "reason", "?"));
			}
			if (why[0] == '\0')
				snprintf(why, sizeof(why),
					 "its scan recommends no interface");
			cite_findings(c, cites, node, NULL, 2);
			json_array_append_new(
				blocked, json_pack("{s:s, s:s, s:o}", "node",
						   node, "why", why, "cites",
						   cites));
			continue;
		}
		json_array_append_new(
			per_node,
			json_pack("{s:s, s:s, s:s?, s:s, s:o}", "node", node,
				  "interface", ifc, "address",
				  rj_str(rec, "address"), "file", sc->path,
				  "cites", cites));
		/* another scan of the same node that chose differently */
		claims = json_array();
		for (size_t k = 0; k < c->set->nin; k++) {
			const json_t *d = c->set->in[k].doc;
			const char *o = rj_str(
				json_object_get(d, "recommendation"),
				"interface");
			char what[300];

			if (&c->set->in[k] == sc ||
			    strcmp(rj_str(d, "host"), node) != 0 ||
			    strcmp(rj_strd(d, "command", ""), "scan") != 0 ||
			    (o != NULL && strcmp(o, ifc) == 0))
				continue;
			snprintf(what, sizeof(what), "an earlier scan chose %s",
				 o != NULL ? o : "no interface");
			json_array_append_new(
				claims, json_pack("{s:s, s:s, s:s}", "node",
						  node, "claim", what, "source",
						  c->set->in[k].path));
		}
		if (json_array_size(claims) > 0) {
			char subj[300], what[300];

			snprintf(subj, sizeof(subj),
				 "%s: scans disagree on the interface", node);
			snprintf(what, sizeof(what),
				 "the latest scan chose %s", ifc);
			json_array_insert_new(
				claims, 0,
				json_pack("{s:s, s:s, s:s}", "node", node,
					  "claim", what, "source", sc->path));
			json_array_append_new(
				conflicts,
				json_pack("{s:s, s:s, s:o}", "subject", subj,
					  "node", node, "claims", claims));
		} else {
			json_decref(claims);
		}
	}
}

/* True when the document loaded from file has a finding with one of the
 * codes. */
static bool node_has_in_file(const struct rctx *c, const char *node,
			     const char *file, const char *const *codes)
{
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		size_t i;
		json_t *f;

		if (strcmp(c->set->in[k].path, file) != 0 ||
		    strcmp(rj_str(d, "host"), node) != 0)
			continue;
		json_array_foreach(rj_arr(d, "findings"), i, f)
			for (const char *const *p = codes; *p != NULL; p++)
				if (strcmp(rj_strd(f, "code", ""), *p) == 0)
					return true;
	}
	return false;
}

/* Evidence that the address a node's scan recommends is behind NAT or
 * unreachable, while that scan itself saw no NAT: a conflict to show. */
static void decide_nat_conflicts(const struct rctx *c, const json_t *per_node,
				 json_t *conflicts)
{
	static const char *const natcodes[] = {
		"nat-detected", "container-bridge-nat", "wsl2-nat",
		"wsl-container-double-nat", "inbound-blocked", NULL};
	size_t i;
	json_t *p;

	json_array_foreach(per_node, i, p) {
		const char *node = rj_str(p, "node");
		const char *ifc = rj_str(p, "interface");
		const char *addr = rj_str(p, "address");
		const char *scanfile = rj_str(p, "file");
		json_t *claims = json_array();

		for (size_t k = 0; k < c->set->nin; k++) {
			const json_t *d = c->set->in[k].doc;
			const char *host = rj_str(d, "host");
			const char *file = c->set->in[k].path;
			size_t j;
			json_t *e;
			char what[512];

			json_array_foreach(rj_arr(d, "peers"), j, e) {
				const char *pa = rj_str(e, "peer_addr");

				what[0] = '\0';
				if (strcmp(host, node) == 0 &&
				    strcmp(rj_strd(e, "local_ifname", ""),
					   ifc) == 0 &&
				    json_is_true(json_object_get(e, "nat")))
					snprintf(what, sizeof(what),
						 "its peer test toward %s "
						 "was seen from %s: %s is "
						 "NAT'd",
						 rj_strd(e, "peer", "?"),
						 rj_strd(e, "observed_addr",
							 "another address"),
						 ifc);
				else if (strcmp(host, node) != 0 &&
					 addr != NULL && pa != NULL &&
					 strcmp(pa, addr) == 0 &&
					 json_is_false(json_object_get(
						 e, "responded")) &&
					 rc_probe_failed(d))
					snprintf(what, sizeof(what),
						 "%s's peer test to %s got no "
						 "answer",
						 host, addr);
				if (what[0] != '\0')
					json_array_append_new(
						claims,
						json_pack("{s:s, s:s, s:s}",
							  "node", host, "claim",
							  what, "source",
							  file));
			}
			if (strcmp(host, node) != 0 || strcmp(file, scanfile) == 0)
				continue;
			json_array_foreach(rj_arr(d, "findings"), j, e) {
				const char *code = rj_strd(e, "code", "");

				for (const char *const *q = natcodes; *q; q++) {
					if (strcmp(code, *q) != 0)
						continue;
					snprintf(what, sizeof(what), "%s: %s",
						 code,
						 rj_strd(e, "summary", ""));
					json_array_append_new(
						claims,
						json_pack("{s:s, s:s, s:s}",
							  "node", host, "claim",
							  what, "source",
							  file));
				}
			}
		}
		if (json_array_size(claims) > 0 && !node_has_in_file(c, node,
								      scanfile,
								      natcodes)) {
			char subj[300], what[300];

			snprintf(subj, sizeof(subj),
				 "%s: is %s (%s) reachable without NAT?", node,
				 ifc, addr != NULL ? addr : "no address");
			snprintf(what, sizeof(what),
				 "its scan recommends %s and saw no NAT", ifc);
			json_array_insert_new(
				claims, 0,
				json_pack("{s:s, s:s, s:s}", "node", node,
					  "claim", what, "source", scanfile));
			json_array_append_new(
				conflicts,
				json_pack("{s:s, s:s, s:o}", "subject", subj,
					  "node", node, "claims", claims));
		} else {
			json_decref(claims);
		}
	}
}

/* Does `list` (an NCCL_SOCKET_IFNAME value) select an interface on this
 * node other than the chosen one? Writes the first such name into out. */
static bool overmatches(const struct report_input *sc, const char *list,
			const char *chosen, char *out, size_t len)
{
	size_t i;
	json_t *ifc;

	json_array_foreach(rj_arr(sc->doc, "interfaces"), i, ifc) {
		const char *name = rj_str(ifc, "name");

		if (name == NULL || strcmp(name, chosen) == 0 ||
		    strcmp(name, "lo") == 0 ||
		    strcmp(rj_strd(ifc, "oper_state", "up"), "down") == 0)
			continue;
		if (nccl_ifname_match(list, name)) {
			snprintf(out, len, "%s", name);
			return true;
		}
	}
	return false;
}

/* NCCL_SOCKET_IFNAME for the cluster (exact name, or an exact list when
 * names differ and the list selects nothing else anywhere), per-node
 * values and /etc/nccl.conf lines; GLOO_SOCKET_IFNAME per node; the
 * scans' other variables. */
static void decide_env(const struct rctx *c, const json_t *per_node,
		       const json_t *blocked, json_t *settings,
		       json_t *nccl_conf)
{
	char list[1024] = "=", why[1024], other[64];
	json_t *names = json_array(), *cites = json_array(), *p, *v;
	size_t i, j;
	bool per_node_only = false;

	json_array_foreach(per_node, i, p) {
		const char *ifc = rj_str(p, "interface");
		bool have = false;

		json_array_foreach(names, j, v)
			have |= strcmp(json_string_value(v), ifc) == 0;
		if (!have)
			json_array_append_new(names, json_string(ifc));
		rc_cite_add(cites, rj_str(p, "node"), "scan.recommendation");
	}
	json_array_foreach(names, i, v) {
		size_t l = strlen(list);

		snprintf(list + l, sizeof(list) - l, "%s%s", i ? "," : "",
			 json_string_value(v));
	}
	if (json_array_size(blocked) > 0) {
		size_t l;

		snprintf(why, sizeof(why), "no value works for every node: ");
		json_array_foreach(blocked, i, p) {
			l = strlen(why);
			snprintf(why + l, sizeof(why) - l,
				 "%s%s has no usable interface", i ? ", " : "",
				 rj_str(p, "node"));
			rc_cite_add(cites, rj_str(p, "node"),
				    "scan.recommendation");
		}
		l = strlen(why);
		snprintf(why + l, sizeof(why) - l,
			 " (see blocked); set it per node until then");
		add_setting(settings, "NCCL_SOCKET_IFNAME", NULL, NULL, why,
			    cites);
		per_node_only = true;
	} else if (json_array_size(names) == 0) {
		json_decref(cites);
	} else {
		const char *bad = NULL;

		json_array_foreach(per_node, i, p) {
			const struct report_input *sc =
				node_scan(c, rj_str(p, "node"));

			if (sc != NULL &&
			    overmatches(sc, list, rj_str(p, "interface"),
					other, sizeof(other))) {
				bad = rj_str(p, "node");
				break;
			}
		}
		if (bad != NULL) {
			snprintf(why, sizeof(why),
				 "names differ and the list %s would also "
				 "select %s on %s: set it per node",
				 list, other, bad);
			add_setting(settings, "NCCL_SOCKET_IFNAME", NULL, NULL,
				    why, cites);
			per_node_only = true;
		} else {
			snprintf(why, sizeof(why),
				 json_array_size(names) == 1
					 ? "every node uses %s; the exact "
					   "'=' form matches nothing else"
					 : "nodes use different names; the "
					   "exact list %s selects the right "
					   "one on every node",
				 json_array_size(names) == 1 ? list + 1 : list);
			add_setting(settings, "NCCL_SOCKET_IFNAME", list, NULL,
				    why, cites);
		}
	}
	json_decref(names);
	json_array_foreach(per_node, i, p) {
		const char *node = rj_str(p, "node");
		const char *ifc = rj_str(p, "interface");
		char val[300], line[320];

		snprintf(val, sizeof(val), "=%s", ifc);
		snprintf(line, sizeof(line), "NCCL_SOCKET_IFNAME=%s", val);
		json_array_append_new(nccl_conf,
				      json_pack("{s:s, s:s}", "node", node,
						"line", line));
		if (per_node_only) {
			snprintf(why, sizeof(why),
				 "%s's scan chose %s; put it in %s's "
				 "/etc/nccl.conf",
				 node, ifc, node);
			add_setting(settings, "NCCL_SOCKET_IFNAME", val, node,
				    why, json_pack("[o]",
						   rc_cite(node,
							   "scan.recommendation")));
		}
		snprintf(why, sizeof(why),
			 "Gloo takes one exact name; without it Gloo binds "
			 "what the hostname resolves to");
		{
			json_t *gc = json_pack(
				"[o]", rc_cite(node, "scan.recommendation"));
			static const char *const hn[] = {
				"hostname-loopback", "hostname-unbindable",
				"gloo-ifname-syntax", NULL};

			for (const char *const *q = hn; *q; q++)
				if (node_has(c, node, (const char *const[]){
							      *q, NULL}))
					rc_cite_add(gc, node, *q);
			add_setting(settings, "GLOO_SOCKET_IFNAME", ifc, node,
				    why, gc);
		}
	}
}

/* MASTER_ADDR and Ray's head: rank 0's host when a ncclcheck run names
 * it, else the first node (by name) with a usable address. */
static void decide_master(const struct rctx *c, const json_t *per_node,
			  json_t *settings)
{
	const char *node = NULL, *addr = NULL, *how = NULL;
	char why[512], ray[300];
	size_t i, k;
	json_t *p, *r;

	for (k = 0; k < c->set->nin && node == NULL; k++)
		json_array_foreach(rj_arr(c->set->in[k].doc, "ranks"), i, r)
			if (rj_int(r, "rank", -1) == 0 &&
			    rj_str(r, "host") != NULL) {
				node = rj_str(r, "host");
				how = "rank 0 of the ncclcheck run";
			}
	json_array_foreach(per_node, i, p) {
		if (node == NULL && rj_str(p, "address") != NULL) {
			node = rj_str(p, "node");
			how = "the first node by name with a usable address";
		}
		if (node != NULL && strcmp(rj_str(p, "node"), node) == 0)
			addr = rj_str(p, "address");
	}
	if (node == NULL || addr == NULL)
		return;
	snprintf(why, sizeof(why), "%s is %s; %s is the address its scan "
		 "chose", node, how, addr);
	add_setting(settings, "MASTER_ADDR", addr, NULL, why,
		    json_pack("[o]", rc_cite(node, "scan.recommendation")));
	snprintf(ray, sizeof(ray), "%s:%d", addr, RAY_HEAD_PORT);
	snprintf(why, sizeof(why),
		 "the Ray head on %s; start it with ray start --head "
		 "--node-ip-address=%s, workers with --address=%s and "
		 "their own --node-ip-address",
		 node, addr, ray);
	add_setting(settings, "RAY_ADDRESS", ray, NULL, why,
		    json_pack("[o]", rc_cite(node, "scan.recommendation")));
}

/* Variables a scan recommends beyond the ones decided above: cluster-wide
 * when every scanned node agrees, else per node. */
static void decide_other_env(const struct rctx *c, const json_t *per_node,
			     json_t *settings)
{
	static const char *const decided[] = {
		"NCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME", "MASTER_ADDR",
		"RAY_ADDRESS", NULL};
	json_t *seen = json_object(), *p;
	size_t i;

	json_array_foreach(per_node, i, p) {
		const struct report_input *sc = node_scan(c, rj_str(p, "node"));
		json_t *env = json_object_get(
			json_object_get(sc->doc, "recommendation"), "env");
		const char *name;
		json_t *val;

		json_object_foreach(env, name, val) {
			bool skip = !json_is_string(val);

			for (const char *const *q = decided; *q; q++)
				skip |= strcmp(*q, name) == 0;
			if (!skip)
				json_object_set_new(seen, name, json_true());
		}
	}
	{
		const char *name;
		json_t *dummy;

		json_object_foreach(seen, name, dummy) {
			const char *first = NULL;
			bool same = true;
			size_t n = 0, j;
			json_t *q;

			json_array_foreach(per_node, i, p) {
				const struct report_input *sc =
					node_scan(c, rj_str(p, "node"));
				const char *v = rj_str(
					json_object_get(
						json_object_get(
							sc->doc,
							"recommendation"),
						"env"),
					name);

				if (v == NULL) {
					same = false;
					continue;
				}
				n++;
				if (first == NULL)
					first = v;
				else if (strcmp(first, v) != 0)
					same = false;
			}
			json_array_foreach(per_node, i, p) {
				const char *node = rj_str(p, "node");
				const struct report_input *sc =
					node_scan(c, node);
				const char *v = rj_str(
					json_object_get(
						json_object_get(
							sc->doc,
							"recommendation"),
						"env"),
					name);
				json_t *cites;

				if (v == NULL)
					continue;
				if (same && i > 0)
					continue; /* one cluster setting */
				cites = json_array();
				json_array_foreach(per_node, j, q) {
					const char *qn = rj_str(q, "node");

					if (!same && strcmp(qn, node) != 0)
						continue;
					rc_cite_add(cites, qn,
						    "scan.recommendation");
					cite_findings(c, cites, qn, "nccl-env",
						      1);
					cite_findings(c, cites, qn,
						      "interfaces", 1);
				}
				add_setting(settings, name, v,
					    same ? NULL : node,
					    same ? "the scan of every node with "
						   "a usable interface "
						   "recommends it"
						 : "this node's scan "
						   "recommends it",
					    cites);
			}
		}
	}
	json_decref(seen);
}

/* The firewall entry of node in fw, created when missing. */
static json_t *fw_node(json_t *fw, const char *node)
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

/* Adds a port (number) or range ("lo-hi") to open on node, once. */
static void fw_add(json_t *fw, const char *node, json_t *port,
		   const char *proto, const char *why, const char *cnode,
		   const char *ccode)
{
	json_t *e = fw_node(fw, node), *o;
	size_t i;

	rc_cite_add(json_object_get(e, "cites"), cnode, ccode);
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

/* Appends cmd to list unless it is there. */
static void add_unique(json_t *list, const char *cmd)
{
	size_t i;
	json_t *v;

	json_array_foreach(list, i, v)
		if (strcmp(json_string_value(v), cmd) == 0)
			return;
	json_array_append_new(list, json_string(cmd));
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

/* Drops single ports a range of the same protocol already opens, keeping
 * their reasons on the range, and sorts what is left. */
static void fw_fold(json_t *fw)
{
	size_t i, j, k;
	json_t *e, *o, *r;

	json_array_foreach(fw, i, e) {
		json_t *open = json_object_get(e, "open");
		size_t n = json_array_size(open);
		json_t **v;

		for (j = 0; j < json_array_size(open);) {
			long lo, hi, rl, rh;
			bool covered = false;

			o = json_array_get(open, j);
			if (port_bounds(json_object_get(o, "port"), &lo, &hi) <
				    0 ||
			    lo != hi) {
				j++;
				continue;
			}
			json_array_foreach(open, k, r) {
				if (k == j ||
				    port_bounds(json_object_get(r, "port"), &rl,
						&rh) < 0 ||
				    rl == rh ||
				    strcmp(rj_str(r, "proto"),
					   rj_str(o, "proto")) != 0 ||
				    lo < rl || lo > rh)
					continue;
				covered = true;
				break;
			}
			if (covered)
				json_array_remove(open, j);
			else
				j++;
		}
		n = json_array_size(open);
		v = calloc(n ? n : 1, sizeof(*v));
		if (v == NULL)
			continue;
		for (j = 0; j < n; j++)
			v[j] = json_incref(json_array_get(open, j));
		qsort(v, n, sizeof(*v), cmp_port);
		json_array_clear(open);
		for (j = 0; j < n; j++)
			json_array_append_new(open, v[j]);
		free(v);
	}
}

/* Writes the three firewall dialects for every port of every node, after
 * any commands the scans already gave, with the scan's own formatter so
 * every part of the project spells a command the same way. */
static void fw_commands(json_t *fw)
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

		json_array_foreach(json_object_get(e, "open"), j, o) {
			json_t *port = json_object_get(o, "port");
			struct fw_rule r;
			char cmd[256];

			memset(&r, 0, sizeof(r));
			if (json_is_integer(port)) {
				r.lo = r.hi = (unsigned)json_integer_value(port);
			} else if (!json_is_string(port) ||
				   sscanf(json_string_value(port), "%u-%u",
					  &r.lo, &r.hi) != 2) {
				continue;
			}
			snprintf(r.proto, sizeof(r.proto), "%s",
				 rj_strd(o, "proto", "tcp"));
			for (size_t k = 0; k < 3; k++)
				if (fwcmd_format(dialects[k].dl, &r, cmd,
						 sizeof(cmd)) > 0)
					add_unique(json_object_get(
							   cmds, dialects[k].key),
						   cmd);
		}
	}
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

/* Findings that mean a node sits behind NAT. */
static const char *const natcodes[] = {
	"nat-detected", "container-bridge-nat", "wsl2-nat",
	"wsl-container-double-nat", NULL};

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
		const char *st = rj_strd(o, "state", "");

		if (strcmp(rj_strd(o, "preset", ""), "ephemeral") != 0 || p < 0)
			continue;
		if (lo < 0 || p < lo)
			lo = p;
		if (p > hi)
			hi = p;
		blocked |= strcmp(st, "filtered") == 0 ||
			   strcmp(st, "prohibited") == 0;
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

/* Ports to open: the scans' ports_to_open and commands, and every port a
 * ports document found filtered or prohibited (on the target, or on the
 * prober for connect-back results). */
static json_t *decide_firewall(const struct rctx *c)
{
	json_t *fw = json_array();

	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *host = rj_str(d, "host");
		const char *cmd = rj_strd(d, "command", "");
		char tbuf[256], why[512];
		const char *target;
		size_t i, j;
		json_t *o, *v;

		json_array_foreach(rj_arr(d, "ports_to_open"), i, o) {
			json_t *nodes = rj_arr(o, "nodes");
			json_t *pv = port_value(o);

			if (pv == NULL)
				continue;
			if (json_array_size(nodes) == 0) {
				fw_add(fw, host, pv, rj_strd(o, "proto", "tcp"),
				       rj_strd(o, "why", ""), host,
				       "scan.ports_to_open");
				continue;
			}
			json_array_foreach(nodes, j, v)
				if (json_is_string(v))
					fw_add(fw, json_string_value(v),
					       json_incref(pv),
					       rj_strd(o, "proto", "tcp"),
					       rj_strd(o, "why", ""), host,
					       "scan.ports_to_open");
			json_decref(pv);
		}
		if (json_is_object(json_object_get(d, "commands"))) {
			static const char *const dia[] = {"nftables", "ufw",
							  "firewalld", NULL};
			json_t *e = NULL;

			for (const char *const *q = dia; *q; q++)
				json_array_foreach(
					rj_arr(json_object_get(d, "commands"),
					       *q),
					i, v) {
					if (!json_is_string(v))
						continue;
					if (e == NULL)
						e = fw_node(fw, host);
					add_unique(json_object_get(
							   json_object_get(
								   e, "commands"),
							   *q),
						   json_string_value(v));
				}
		}
		if (strcmp(cmd, "ports") != 0)
			continue;
		target = rn_target(c, d, tbuf, sizeof(tbuf));
		if (target != NULL && node_has(c, target, natcodes)) {
			/* opening ports behind NAT does not help: the
			 * change on that node is the fix */
			continue;
		}
		ephemeral_range(d, fw, host, target);
		json_array_foreach(rj_arr(d, "ports"), i, o) {
			const char *st = rj_strd(o, "state", "unknown");
			json_t *pv;

			if (target == NULL || (strcmp(st, "filtered") != 0 &&
					       strcmp(st, "prohibited") != 0))
				continue;
			if ((pv = port_value(o)) == NULL)
				continue;
			snprintf(why, sizeof(why),
				 "%s could not reach it on %s: %s (%s)", host,
				 target, st, rj_strd(o, "reason", "?"));
			fw_add(fw, target, pv, rj_strd(o, "proto", "tcp"), why,
			       host,
			       strcmp(st, "filtered") == 0 ? "port-filtered"
							   : "port-prohibited");
		}
		json_array_foreach(rj_arr(d, "inbound"), i, o) {
			const char *st = rj_strd(o, "state", "unknown");
			json_t *pv;

			if (strcmp(st, "filtered") != 0 &&
			    strcmp(st, "prohibited") != 0)
				continue;
			if ((pv = port_value(o)) == NULL)
				continue;
			snprintf(why, sizeof(why),
				 "%s could not connect back to it: %s (%s)",
				 target != NULL ? target : "the peer", st,
				 rj_strd(o, "reason", "?"));
			fw_add(fw, host, pv, rj_strd(o, "proto", "tcp"), why,
			       host, "inbound-blocked");
		}
	}
	fw_fold(fw);
	fw_commands(fw);
	return fw;
}

/* Container, WSL and host changes that are the fix: the findings whose fix
 * is a change to how the node runs, one per node and fix. */
static json_t *decide_changes(const struct rctx *c)
{
	static const char *const codes[] = {
		"container-bridge-nat", "wsl2-nat", "wsl-container-double-nat",
		"nat-detected", "hostname-loopback", "listener-loopback-only",
		"shm-small", "heartbeat-dropped", NULL};
	json_t *out = json_array(), *f, *e;
	size_t i, j;

	json_array_foreach(c->findings, i, f) {
		const char *code = rj_str(f, "code");
		bool want = false, dup = false;

		for (const char *const *q = codes; *q; q++)
			want |= strcmp(*q, code) == 0;
		if (!want)
			continue;
		json_array_foreach(out, j, e)
			if (strcmp(rj_str(e, "node"), rj_str(f, "node")) == 0 &&
			    strcmp(rj_str(e, "change"), rj_str(f, "fix")) == 0) {
				rc_cite_add(json_object_get(e, "cites"),
					    rj_str(f, "node"), code);
				dup = true;
			}
		if (!dup)
			json_array_append_new(
				out, json_pack("{s:s, s:s, s:[o]}", "node",
					       rj_str(f, "node"), "change",
					       rj_str(f, "fix"), "cites",
					       rc_cite(rj_str(f, "node"),
						       code)));
	}
	return out;
}

/* MTUs to set: from path measurements (largest packet that crossed below
 * the interface MTU, or MTUs that differ between the ends), from scans'
 * peer path MTUs, and the MTU findings no measurement explains. */
static json_t *decide_mtu(const struct rctx *c)
{
	static const char *const codes[] = {"mtu-blackhole", "mtu-mismatch",
					    NULL};
	json_t *out = json_array(), *f, *e;
	size_t i, j;

	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *host = rj_str(d, "host");
		json_t *pm = json_object_get(d, "pmtu");
		const char *ifc = rj_str(json_object_get(d, "route"),
					 "out_interface");
		long long ok = rj_int(pm, "largest_ok", -1);
		long long mine = rj_int(pm, "interface_mtu", -1);
		long long peer = rj_int(pm, "peer_interface_mtu", -1);
		char tbuf[256], why[512], cmd[128];
		const char *target = rn_target(c, d, tbuf, sizeof(tbuf));
		long long want = -1;
		json_t *cites;

		if (!json_is_object(pm) || ifc == NULL)
			continue;
		if (peer > 0 && mine > 0 && peer < mine) {
			/* the peer's MTU is the real limit; the largest probe
			 * that crossed can exceed it by a few bytes */
			want = peer;
			snprintf(why, sizeof(why),
				 "%s has MTU %lld but %s's interface has %lld",
				 ifc, mine, target ? target : "the peer", peer);
			if (ok > 0 && ok < mine) {
				size_t l = strlen(why);

				snprintf(why + l, sizeof(why) - l,
					 "; packets above %lld bytes vanish",
					 ok);
			}
			{
				size_t l = strlen(why);

				snprintf(why + l, sizeof(why) - l,
					 "; or raise %s's interface to MTU "
					 "%lld if the rest of the network "
					 "runs that",
					 target ? target : "the peer", mine);
			}
		} else if (ok > 0 && mine > 0 && ok < mine) {
			want = ok;
			snprintf(why, sizeof(why),
				 "packets above %lld bytes toward %s vanish; "
				 "%s has MTU %lld",
				 ok, target ? target : "the peer", ifc, mine);
		}
		if (want < 0)
			continue;
		cites = json_pack("[o]", rc_cite(host, "path.pmtu"));
		cite_findings(c, cites, host, "mtu", 1);
		snprintf(cmd, sizeof(cmd), "ip link set dev %s mtu %lld", ifc,
			 want);
		json_array_append_new(
			out, json_pack("{s:s, s:s, s:I, s:s, s:s, s:o}", "node",
				       host, "interface", ifc, "mtu",
				       (json_int_t)want, "why", why, "command",
				       cmd, "cites", cites));
	}
	json_array_foreach(c->findings, i, f) {
		const char *node = rj_str(f, "node");
		bool have = false, want = false;

		for (const char *const *q = codes; *q; q++)
			want |= strcmp(*q, rj_str(f, "code")) == 0;
		if (!want)
			continue;
		json_array_foreach(out, j, e)
			if (strcmp(rj_str(e, "node"), node) == 0) {
				rc_cite_add(json_object_get(e, "cites"), node,
					    rj_str(f, "code"));
				have = true;
			}
		if (!have)
			json_array_append_new(
				out,
				json_pack("{s:s, s:n, s:n, s:s, s:s, s:[o]}",
					  "node", node, "interface", "mtu",
					  "why", rj_str(f, "summary"),
					  "command", rj_str(f, "fix"), "cites",
					  rc_cite(node, rj_str(f, "code"))));
	}
	return out;
}

/* What the recommendation could not cover, and which run would fill the
 * gap: no scan at all, nodes without a scan, no peer measurements. */
static json_t *decide_notes(const struct rctx *c)
{
	json_t *notes = json_array(), *n;
	char buf[512];
	size_t i, have = 0;
	bool peers = false;

	json_array_foreach(c->nodes, i, n)
		have += node_scan(c, json_string_value(n)) != NULL;
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *cmd = rj_strd(d, "command", "");

		peers |= json_array_size(rj_arr(d, "peers")) > 0 ||
			 strcmp(cmd, "ports") == 0 ||
			 strcmp(cmd, "heartbeat") == 0 ||
			 json_is_object(json_object_get(d, "preflight"));
	}
	if (have == 0) {
		json_array_append_new(
			notes, json_string("no scan document: run 'netprobe "
					   "scan --json' on every node for the "
					   "interface and the settings"));
	} else {
		json_array_foreach(c->nodes, i, n) {
			if (node_scan(c, json_string_value(n)) != NULL)
				continue;
			snprintf(buf, sizeof(buf),
				 "no scan from %s: its interface is not part "
				 "of the cluster choice",
				 json_string_value(n));
			json_array_append_new(notes, json_string(buf));
		}
	}
	if (!peers)
		json_array_append_new(
			notes,
			json_string("no measurement between nodes: run 'netprobe "
				    "scan --peer', 'ports', 'heartbeat' or "
				    "ncclcheck for the connectivity matrix"));
	return notes;
}

/* Marks settings that rest on a node with conflicting evidence. */
static void mark_disputed(json_t *settings, const json_t *conflicts)
{
	size_t i, j, k;
	json_t *s, *cf, *ct;

	json_array_foreach(settings, i, s)
		json_array_foreach(conflicts, j, cf)
			json_array_foreach(rj_arr(s, "cites"), k, ct)
				if (rj_str(ct, "node") != NULL &&
				    strcmp(rj_str(ct, "node"),
					   rj_str(cf, "node")) == 0)
					json_object_set_new(s, "disputed",
							    json_true());
}

json_t *rd_recommend(struct rctx *c)
{
	json_t *per_node = json_array(), *blocked = json_array();
	json_t *conflicts = json_array(), *settings = json_array();
	json_t *nccl_conf = json_array(), *names = json_array(), *p;
	const char *common = NULL;
	size_t i;

	decide_interfaces(c, per_node, blocked, conflicts);
	decide_nat_conflicts(c, per_node, conflicts);
	decide_env(c, per_node, blocked, settings, nccl_conf);
	decide_master(c, per_node, settings);
	decide_other_env(c, per_node, settings);
	mark_disputed(settings, conflicts);
	json_array_foreach(per_node, i, p) {
		if (i == 0)
			common = rj_str(p, "interface");
		else if (common != NULL &&
			 strcmp(common, rj_str(p, "interface")) != 0)
			common = NULL;
		json_object_del(p, "file");
	}
	if (json_array_size(blocked) > 0)
		common = NULL;
	json_decref(names);
	return json_pack("{s:o, s:{s:s?, s:o}, s:o, s:o, s:o, s:o, s:o, s:o, "
			 "s:o}",
			 "notes", decide_notes(c), "interface", "common",
			 common, "per_node", per_node,
			 "settings", settings, "nccl_conf", nccl_conf,
			 "blocked", blocked, "conflicts", conflicts,
			 "firewall", decide_firewall(c), "changes",
			 decide_changes(c), "mtu", decide_mtu(c));
}
