/* netprobe report, decide: ports to open, per node. The scans' own
 * ports_to_open, every port a ports document found filtered or prohibited
 * (on the target, or on the prober for connect-back results), and whole
 * ephemeral ranges whose samples were filtered. An address that belongs to
 * a node is that node (one entry, never one per name). Never on a node
 * behind NAT: opening ports there cannot help, leaving the NAT does. The
 * commands are written here, per firewall, never copied from a scan. */
#include <stdlib.h>
#include <string.h>

#include "report_decide.h"

/* True when node's own ruleset drops port (a number, or "lo-hi": its
 * first port) of proto from the source the why names ("from ADDR ");
 * issue 48. */
static bool why_dropped(const struct rctx *c, const char *node,
			const json_t *port, const char *proto, const char *why)
{
	const struct report_input *in = rd_node_scan(c, node);
	const char *p = strstr(why, "from ");
	char src[64] = "";
	long lo = json_is_integer(port) ? (long)json_integer_value(port)
		  : json_is_string(port) ? strtol(json_string_value(port),
						  NULL, 10)
					 : 0;
	size_t n;

	if (in == NULL || p == NULL || lo <= 0)
		return false;
	p += 5;
	n = strspn(p, "0123456789abcdefABCDEF.:");
	if (n == 0 || n >= sizeof(src))
		return false;
	snprintf(src, sizeof(src), "%.*s", (int)n, p);
	return rd_rules_drop(in->doc, lo, proto, src);
}

/* Adds a port (number) or range ("lo-hi") to open on node (a name or an
 * address, resolved to its node), once; takes port. Of the sources that
 * failed on it, the one its own ruleset drops is the why kept (issue 48:
 * a rule limited to one peer's source, beside failures from elsewhere
 * that are no rule of the node's). Nothing on a node behind NAT. */
static void fw_add(const struct rctx *c, json_t *fw, const char *node,
		   json_t *port, const char *proto, const char *why,
		   const char *cnode, const char *ccode)
{
	const char *rn = rn_resolve(c, node, node);
	json_t *e, *o;
	size_t i;

	if (rn != NULL)
		node = rn;
	if (rd_node_is_nat(c, node)) {
		json_decref(port);
		return;
	}
	e = rd_fw_node(fw, node);
	rd_cite_add(json_object_get(e, "cites"), cnode, ccode);
	json_array_foreach(json_object_get(e, "open"), i, o)
		if (json_equal(json_object_get(o, "port"), port) &&
		    strcmp(rj_str(o, "proto"), proto) == 0) {
			if (!why_dropped(c, node, port, proto,
					 rj_strd(o, "why", "")) &&
			    why_dropped(c, node, port, proto, why))
				json_object_set_new(o, "why", json_string(why));
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
static void ephemeral_range(const struct rctx *c, const json_t *d,
			    json_t *fw, const char *host, const char *target)
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
	fw_add(c, fw, target, json_string(range), "tcp", why, host,
	       finding_name(FINDING_PORT_FILTERED));
}

/* Who answers port on node, by its mesh document (mesh.ports): 1 its
 * responder held it, 2 another process held it, 0 nobody (a free port
 * the responder could not hold), -1 not known (no mesh document). */
static int port_holder(const struct rctx *c, const char *node, long port)
{
	const char *rn = rn_resolve(c, node, node);
	const struct report_input *in = rd_node_scan(c, rn ? rn : node);
	const json_t *ports, *o;
	size_t i;

	ports = in != NULL ? json_object_get(json_object_get(in->doc, "mesh"),
					     "ports")
			   : NULL;
	if (!json_is_object(ports) ||
	    json_is_true(json_object_get(ports, "truncated")))
		return -1;
	json_array_foreach(json_object_get(ports, "held"), i, o)
		if (json_integer_value(o) == port)
			return 1;
	json_array_foreach(json_object_get(ports, "taken"), i, o)
		if (rj_int(o, "port", -1) == port)
			return 2;
	return 0;
}

/* True when a reset (why: "closed") from port on node is no firewall's:
 * another process holds it (that node's own finding names it), or it is
 * free and nothing held it. A drop stays the firewall's. */
static bool port_not_ours(const struct rctx *c, const char *node,
			  const json_t *port, const char *why)
{
	int h;

	if (!json_is_integer(port) || why == NULL ||
	    strstr(why, ": closed (") == NULL)
		return false;
	h = port_holder(c, node, (long)json_integer_value(port));
	return h == 0 || h == 2;
}

void rd_unheld_resets(const struct rctx *c)
{
	static const char mark[] = "so a firewall rejects them) on ";
	size_t i;
	json_t *f;

	json_array_foreach(c->findings, i, f) {
		const char *sum = rj_strd(f, "summary", ""), *at, *p;
		char addr[64], buf[1024];
		bool all_free = true, any = false;
		size_t n;

		if (!finding_is(rj_strd(f, "code", ""), FINDING_PORT_CLOSED) ||
		    (at = strstr(sum, mark)) == NULL)
			continue;
		at += sizeof(mark) - 1;
		n = strcspn(at, ": ");
		if (n == 0 || n >= sizeof(addr))
			continue;
		snprintf(addr, sizeof(addr), "%.*s", (int)n, at);
		/* "29400/tcp, 29500-29501/tcp": every port free and unheld */
		for (p = at + n; (p = strpbrk(p, "0123456789")) != NULL;) {
			char *end;
			long lo = strtol(p, &end, 10), hi = lo;

			if (*end == '-')
				hi = strtol(end + 1, &end, 10);
			for (long q = lo; q <= hi && q - lo < 64; q++) {
				any = true;
				all_free &= port_holder(c, addr, q) == 0;
			}
			p = end;
		}
		if (!any || !all_free)
			continue;
		snprintf(buf, sizeof(buf),
			 "%s; but nothing held the port there (free, and "
			 "the responder could not take it): no fault",
			 sum);
		json_object_set_new(f, "summary", json_string(buf));
		json_object_set_new(f, "severity", json_string("info"));
	}
}

/* A scan's ports_to_open, on the nodes it names, else its own. Its
 * commands are not copied: they name nodes by address and join the
 * firewalls' alternatives, and rd_fw_commands writes the same ones per
 * node. */
static void from_scan(const struct rctx *c, const json_t *d, json_t *fw)
{
	const char *host = rj_str(d, "host");
	json_t *o, *v;
	size_t i, j;

	json_array_foreach(rj_arr(d, "ports_to_open"), i, o) {
		json_t *nodes = rj_arr(o, "nodes"), *pv = port_value(o);
		const char *proto = rj_strd(o, "proto", "tcp");
		const char *why = rj_strd(o, "why", "");

		if (pv == NULL)
			continue;
		if (json_array_size(nodes) == 0) {
			fw_add(c, fw, host, pv, proto, why, host,
			       "scan.ports_to_open");
			continue;
		}
		json_array_foreach(nodes, j, v)
			if (json_is_string(v) &&
			    !port_not_ours(c, json_string_value(v), pv, why))
				fw_add(c, fw, json_string_value(v),
				       json_incref(pv), proto, why, host,
				       "scan.ports_to_open");
		json_decref(pv);
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
	ephemeral_range(c, d, fw, host, target);
	json_array_foreach(rj_arr(d, "ports"), i, o) {
		const char *st = rj_strd(o, "state", "unknown");

		if (target == NULL || !blocked_state(st) ||
		    (pv = port_value(o)) == NULL)
			continue;
		snprintf(why, sizeof(why),
			 "%s could not reach it on %s: %s (%s)", host, target,
			 st, rj_strd(o, "reason", "?"));
		fw_add(c, fw, target, pv, rj_strd(o, "proto", "tcp"), why, host,
		       strcmp(st, "filtered") == 0
		           ? finding_name(FINDING_PORT_FILTERED)
		           : finding_name(FINDING_PORT_PROHIBITED));
	}
	json_array_foreach(rj_arr(d, "inbound"), i, o) {
		const char *st = rj_strd(o, "state", "unknown");

		/* came in and answered here (reply-blocked; the reason
		 * netprobe-json(5) documents, PORT_REASON_SYNACK_LOST of
		 * the probes): nothing to open on the prober */
		if (!blocked_state(st) ||
		    strcmp(rj_strd(o, "reason", ""), "syn-ack unanswered") == 0 ||
		    (pv = port_value(o)) == NULL)
			continue;
		snprintf(why, sizeof(why),
			 "%s could not connect back to it: %s (%s)",
			 target != NULL ? target : "the peer", st,
			 rj_strd(o, "reason", "?"));
		fw_add(c, fw, host, pv, rj_strd(o, "proto", "tcp"), why, host,
		       finding_name(FINDING_INBOUND_BLOCKED));
	}
}

/* True when e's ports to open hold port/proto, alone or in a range. */
static bool covered(const json_t *e, long port, const char *proto)
{
	size_t i;
	json_t *o;

	json_array_foreach(json_object_get(e, "open"), i, o) {
		const json_t *p = json_object_get(o, "port");
		long lo = 0, hi = 0;

		if (strcmp(rj_strd(o, "proto", "tcp"), proto) != 0)
			continue;
		if (json_is_integer(p))
			lo = hi = (long)json_integer_value(p);
		else if (json_is_string(p) &&
			 sscanf(json_string_value(p), "%ld-%ld", &lo, &hi) != 2)
			continue;
		if (port >= lo && port <= hi)
			return true;
	}
	return false;
}

/* A source address that an entry's why names ("from ADDR "), into src;
 * "" when none does. */
static void why_source(const json_t *e, char *src, size_t len)
{
	size_t i;
	json_t *o;

	src[0] = '\0';
	json_array_foreach(json_object_get(e, "open"), i, o) {
		const char *p = strstr(rj_strd(o, "why", ""), "from ");
		size_t n;

		if (p == NULL)
			continue;
		p += 5;
		n = strspn(p, "0123456789abcdefABCDEF.:");
		if (n > 0 && n < len) {
			snprintf(src, len, "%.*s", (int)n, p);
			return;
		}
	}
}

#define JOB_PORTS_MAX 64

/* The job's ports: every single port a member tested on its peers
 * (outbound), the mesh's own (TCP and UDP) and those it held for the
 * job; *n of them, at most JOB_PORTS_MAX, tcp and udp apart (udp[i]). */
static size_t job_ports(const struct rctx *c, long *port, bool *udp)
{
	size_t n = 0, i, j;
	json_t *pe, *o, *v;

	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;

		json_array_foreach(rj_arr(d, "peers"), i, pe)
			json_array_foreach(rj_arr(pe, "ports"), j, o) {
				const json_t *p = json_object_get(o, "port");
				bool u = strcmp(rj_strd(o, "proto", "tcp"),
						"udp") == 0;
				size_t m;

				if (!json_is_integer(p) ||
				    strcmp(rj_strd(o, "direction", ""),
					   "outbound") != 0)
					continue;
				for (m = 0; m < n; m++)
					if (port[m] == json_integer_value(p) &&
					    udp[m] == u)
						break;
				if (m == n && n < JOB_PORTS_MAX) {
					port[n] = (long)json_integer_value(p);
					udp[n++] = u;
				}
			}
		/* the mesh's own port, both ways it is used: TCP, and UDP
		 * for its path MTU and loss probes (a fix that leaves UDP
		 * shut leaves the next run incomplete) */
		v = json_object_get(json_object_get(d, "mesh"), "port");
		for (int u = 0; u < 2 && json_is_integer(v); u++) {
			size_t m;

			for (m = 0; m < n; m++)
				if (port[m] == json_integer_value(v) &&
				    udp[m] == (u == 1))
					break;
			if (m == n && n < JOB_PORTS_MAX) {
				port[n] = (long)json_integer_value(v);
				udp[n++] = u == 1;
			}
		}
		json_array_foreach(rj_arr(json_object_get(
			json_object_get(d, "mesh"), "ports"), "held"), i, v) {
			size_t m;

			if (!json_is_integer(v))
				continue;
			for (m = 0; m < n; m++)
				if (port[m] == json_integer_value(v) && !udp[m])
					break;
			if (m == n && n < JOB_PORTS_MAX) {
				port[n] = (long)json_integer_value(v);
				udp[n++] = false;
			}
		}
	}
	return n;
}

/* On a node whose firewall already has ports to open, the job's ports
 * that its own ruleset drops (from a source its failures name): when its
 * firewall stopped the mesh's own port first, its peers could test
 * nothing else on it, and a fix that opened only what was seen left the
 * job's ports shut (issue 48's blind set: a reject-all ruleset, a
 * drop policy that lets only ssh and MASTER_PORT in). Nothing on a node
 * with no entry: a port no peer saw fail is no alarm. */
static void job_ports_dropped(const struct rctx *c, json_t *fw)
{
	long port[JOB_PORTS_MAX];
	bool udp[JOB_PORTS_MAX];
	size_t n = job_ports(c, port, udp), i;
	json_t *e;

	json_array_foreach(fw, i, e) {
		const char *node = rj_str(e, "node");
		const struct report_input *in = rd_node_scan(c, node);
		char src[64], why[384];

		if (in == NULL || json_array_size(json_object_get(e, "open"))
					  == 0)
			continue;
		why_source(e, src, sizeof(src));
		for (size_t k = 0; k < n; k++) {
			const char *proto = udp[k] ? "udp" : "tcp";

			if (covered(e, port[k], proto) ||
			    !rd_rules_drop(in->doc, port[k], proto, src))
				continue;
			snprintf(why, sizeof(why), "a port of the job that "
				 "the peers could not test here; %s's own "
				 "ruleset drops it%s%s", node,
				 src[0] ? " from " : "", src);
			fw_add(c, fw, node, json_integer(port[k]), proto, why,
			       node, "scan.firewall");
		}
	}
}

json_t *rd_firewall(const struct rctx *c)
{
	json_t *fw = json_array();

	if (fw == NULL)
		return NULL;
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;

		from_scan(c, d, fw);
		if (strcmp(rj_strd(d, "command", ""), "ports") == 0)
			from_ports(c, d, fw);
	}
	job_ports_dropped(c, fw);
	if (rd_fw_fold(fw) < 0) {
		json_decref(fw);
		return NULL;
	}
	rd_fw_commands(c, fw);
	return fw;
}
