/* netprobe report, decide: the node-to-node connectivity matrix, from
 * scans with peers, ports, heartbeat and ncclcheck pre-flight documents
 * (each cell the worst state seen, with every observation kept), and the
 * heartbeat series. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_decide.h"

/* How bad a cell state is; the worst seen wins. "ports-filtered": the
 * responder answers, some ports (an ephemeral range) do not. */
static int state_rank(const char *s)
{
	static const char *const order[] = {
		"unknown", "reachable", "ports-filtered", "mtu-blackhole",
		"one-way", "nat",	"filtered",	 "unreachable"};

	for (int i = 0; i < 8; i++)
		if (strcmp(order[i], s) == 0)
			return i;
	return 0;
}

/* The cells being built, and an index of them by "from\x1fto" so that
 * finding one stays cheap at a thousand nodes. */
struct cells {
	json_t *arr;
	json_t *index;
};

static void observe(struct cells *cs, const char *from, const char *to,
		    const char *state, long long rtt_us, const char *detail);

/* The cell from -> to, created when missing. */
static json_t *cell(struct cells *cs, const char *from, const char *to)
{
	char key[600];
	json_t *c;

	snprintf(key, sizeof(key), "%s\x1f%s", from, to);
	c = json_object_get(cs->index, key);
	if (c != NULL)
		return c;
	c = json_pack("{s:s, s:s, s:s, s:n, s:n, s:n, s:[]}", "from", from,
		      "to", to, "state", "unknown", "rtt_us", "loss_pct",
		      "path_mtu", "details");
	json_object_set(cs->index, key, c);
	json_array_append_new(cs->arr, c);
	return c;
}

/* Records one observation: the worse state wins, every detail is kept. */
static void observe(struct cells *cells, const char *from, const char *to,
		    const char *state, long long rtt_us, const char *detail)
{
	json_t *c;

	if (from == NULL || to == NULL || strcmp(from, to) == 0)
		return;
	c = cell(cells, from, to);
	if (state_rank(state) > state_rank(rj_str(c, "state")))
		json_object_set_new(c, "state", json_string(state));
	if (rtt_us >= 0 && !json_is_integer(json_object_get(c, "rtt_us")))
		json_object_set_new(c, "rtt_us", json_integer(rtt_us));
	json_array_append_new(json_object_get(c, "details"),
			      json_string(detail));
}

/* Orders cells by source then destination node. */
static int cmp_cell(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int d = strcmp(rj_str(x, "from"), rj_str(y, "from"));

	return d != 0 ? d : strcmp(rj_str(x, "to"), rj_str(y, "to"));
}

/* The smallest path MTU measured from -> to stays in the cell. */
static void observe_mtu(struct cells *cells, const char *from, const char *to,
			long long mtu)
{
	json_t *c;
	long long have;

	if (from == NULL || to == NULL || strcmp(from, to) == 0 || mtu <= 0)
		return;
	c = cell(cells, from, to);
	have = rj_int(c, "path_mtu", -1);
	if (have < 0 || mtu < have)
		json_object_set_new(c, "path_mtu", json_integer(mtu));
}

/* A path that carries less than its ends, silently (no ICMP
 * fragmentation-needed, no route MTU that caps it): large packets of
 * that pair vanish, so its cell is not green. */
static void blackhole(struct cells *cs, const char *from, const char *to,
		      const json_t *peer)
{
	const json_t *pm = json_object_get(json_object_get(peer, "path"),
					   "pmtu");
	long long ok = rj_int(pm, "largest_ok", -1);
	long long lost = rj_int(pm, "smallest_lost", -1);
	long long ifm = rj_int(pm, "interface_mtu", -1);
	long long rm = rj_int(pm, "route_mtu", -1);
	char det[160];

	if (ok <= 0 || lost <= 0 || ifm <= 0 || ok + 8 >= ifm ||
	    json_is_true(json_object_get(pm, "frag_needed")) ||
	    (rm > 0 && rm <= ok + 8))
		return;
	snprintf(det, sizeof(det),
		 "path: packets above %lld bytes vanish, no ICMP "
		 "fragmentation-needed",
		 ok);
	observe(cs, from, to, "mtu-blackhole", -1, det);
}

/* A scan peer's port results in one direction that failed: how many, and
 * whether the first one (the responder's own port, which the probe lists
 * first) failed too. */
static size_t failed_ports(const json_t *p, const char *dir, bool *first,
			   char *list, size_t len)
{
	size_t i, n = 0, seen = 0, o = 0;
	json_t *q;

	*first = false;
	list[0] = '\0';
	json_array_foreach(rj_arr(p, "ports"), i, q) {
		const char *st = rj_strd(q, "state", "unknown");

		if (strcmp(rj_strd(q, "direction", ""), dir) != 0)
			continue;
		bool bad = strcmp(st, "filtered") == 0 ||
			   strcmp(st, "prohibited") == 0 ||
			   strcmp(st, "unreachable") == 0 ||
			   (strcmp(st, "closed") == 0 &&
			    strcmp(dir, "inbound") == 0);

		if (bad) {
			if (seen == 0)
				*first = true;
			if (o + 16 < len)
				o += (size_t)snprintf(
					list + o, len - o, "%s%lld",
					n ? "," : "", rj_int(q, "port", 0));
			n++;
		}
		seen++;
	}
	return n;
}

/* Scan peers: responded, NAT, connect-back, the outbound connects to the
 * peer's ephemeral samples, RTT and path MTU per peer. */
static void from_scan(const struct rctx *c, const json_t *d,
		      struct cells *cells)
{
	const char *host = rj_str(d, "host");
	size_t i;
	json_t *p;

	json_array_foreach(rj_arr(d, "peers"), i, p) {
		char buf[256], det[512], ports[160];
		const char *to = rn_peer(c, p, buf, sizeof(buf));
		long long rtt = rj_int(p, "rtt_us", -1);
		bool first;

		if (json_is_false(json_object_get(p, "responded"))) {
			/* a mesh member's responder was known to run: a
			 * probe that ran (it says why it failed) and got
			 * no answer means the path; one that never ran
			 * (the route-only entry) means nothing */
			bool failed =
				rf_probe_failed(d) ||
				(json_is_object(json_object_get(d, "mesh")) &&
				 json_is_string(json_object_get(p, "error")));

			snprintf(det, sizeof(det),
				 failed ? "scan: no answer from the responder "
					  "at %s"
					: "scan: no responder answered at %s "
					  "(or the scan did not probe it)",
				 rj_strd(p, "peer_addr",
					 rj_strd(p, "peer", "?")));
			observe(cells, host, to,
				failed ? "unreachable" : "unknown", -1, det);
			continue;
		}
		if (json_is_true(json_object_get(p, "nat"))) {
			snprintf(det, sizeof(det),
				 "scan: %s sent from %s, the peer saw %s", host,
				 rj_strd(p, "local_addr", "?"),
				 rj_strd(p, "observed_addr", "?"));
			observe(cells, host, to, "nat", rtt, det);
		} else {
			snprintf(det, sizeof(det),
				 "scan: responder answered "
				 "via %s",
				 rj_strd(p, "local_ifname", "?"));
			observe(cells, host, to, "reachable", rtt, det);
		}
		observe_mtu(cells, host, to, rj_int(p, "path_mtu", -1));
		blackhole(cells, host, to, p);
		if (failed_ports(p, "outbound", &first, ports, sizeof(ports))) {
			snprintf(det, sizeof(det),
				 "scan: %s's ports %s do not take connections "
				 "from %s",
				 to, ports, host);
			observe(cells, host, to, "ports-filtered", -1, det);
		}
		if (json_is_false(json_object_get(p, "inbound"))) {
			/* the responder's own port failing too means nothing
			 * gets through; some ports only, those are filtered */
			bool all = failed_ports(p, "inbound", &first, ports,
						sizeof(ports)) == 0 ||
				   first;

			snprintf(det, sizeof(det),
				 all ? "scan: %s could not connect back to %s"
				     : "scan: %s could connect back to %s's "
				       "responder, not to its ports %s",
				 to, host, ports);
			observe(cells, to, host,
				all ? "filtered" : "ports-filtered", -1, det);
			if (all)
				observe(cells, host, to, "one-way", -1, det);
		}
	}
}

/* Ports documents: the target's ports, and connect-back results. */
static void from_ports(const struct rctx *c, const json_t *d,
		       struct cells *cells)
{
	const char *host = rj_str(d, "host");
	char buf[256], det[512];
	const char *to = rn_target(c, d, buf, sizeof(buf));
	size_t i;
	json_t *p;

	json_array_foreach(rj_arr(d, "ports"), i, p) {
		const char *st = rj_strd(p, "state", "unknown");
		const char *cs = "unknown";

		if (strcmp(st, "open") == 0 || strcmp(st, "reachable") == 0 ||
		    strcmp(st, "closed") == 0)
			cs = "reachable";
		else if (strcmp(st, "filtered") == 0 ||
			 strcmp(st, "prohibited") == 0)
			cs = "filtered";
		else if (strcmp(st, "unreachable") == 0)
			cs = "unreachable";
		snprintf(det, sizeof(det), "ports: %lld/%s %s (%s)",
			 rj_int(p, "port", 0), rj_strd(p, "proto", "tcp"), st,
			 rj_strd(p, "reason", "?"));
		observe(cells, host, to, cs, rj_int(p, "rtt_us", -1), det);
	}
	json_array_foreach(rj_arr(d, "inbound"), i, p) {
		const char *st = rj_strd(p, "state", "unknown");
		const char *cs = strcmp(st, "open") == 0 ||
					 strcmp(st, "reachable") == 0
				     ? "reachable"
				 : strcmp(st, "filtered") == 0 ||
						 strcmp(st, "prohibited") == 0
					 ? "filtered"
					 : "unknown";

		snprintf(det, sizeof(det),
			 "ports: connect-back %lld/%s %s (%s)",
			 rj_int(p, "port", 0), rj_strd(p, "proto", "tcp"), st,
			 rj_strd(p, "reason", "?"));
		observe(cells, to, host, cs, rj_int(p, "rtt_us", -1), det);
	}
}

/* Heartbeat documents: latency and loss per direction. */
static void from_heartbeat(const struct rctx *c, const json_t *d,
			   struct cells *cells, json_t *hbs)
{
	const char *host = rj_str(d, "host");
	char buf[256], det[512];
	const char *to = rn_target(c, d, buf, sizeof(buf));
	json_t *tcp = json_object_get(d, "tcp");
	json_t *udp = json_object_get(d, "udp");
	json_t *main = json_is_object(tcp) ? tcp : udp, *ce;
	long long med = rj_int(json_object_get(main, "rtt_us"), "median", -1);

	if (to == NULL || !json_is_object(main))
		return;
	snprintf(det, sizeof(det),
		 "heartbeat: %lld sent, %lld received, median %lld us",
		 rj_int(main, "sent", 0), rj_int(main, "received", 0), med);
	observe(cells, host, to,
		rj_int(main, "received", 0) > 0 ? "reachable" : "unreachable",
		-1, det);
	ce = cell(cells, host, to);
	if (med >= 0)
		json_object_set_new(ce, "rtt_us", json_integer(med));
	if (json_is_number(json_object_get(main, "loss_pct")))
		json_object_set(ce, "loss_pct",
				json_object_get(main, "loss_pct"));
	json_array_append_new(
		hbs, json_pack("{s:s, s:s, s:O, s:O, s:O, s:O}", "from", host,
			       "to", to, "tcp", tcp ? tcp : json_null(), "udp",
			       udp ? udp : json_null(), "samples_us",
			       rj_arr(d, "samples_us") ? rj_arr(d, "samples_us")
						       : json_null(),
			       "interval_us",
			       json_object_get(d, "interval_us")
				       ? json_object_get(d, "interval_us")
				       : json_null()));
}

/* ncclcheck pre-flight: rank-to-rank TCP checks, mapped to hosts. */
static void from_preflight(const json_t *d, struct cells *cells)
{
	json_t *ranks = rj_arr(d, "ranks"), *p, *r;
	size_t i, j;

	json_array_foreach(rj_arr(json_object_get(d, "preflight"), "pairs"), i,
			   p) {
		const char *from = NULL, *to = NULL;
		char det[512];
		int ok = json_is_true(json_object_get(p, "ok"));

		json_array_foreach(ranks, j, r) {
			if (rj_int(r, "rank", -1) == rj_int(p, "from", -2))
				from = rj_str(r, "host");
			if (rj_int(r, "rank", -1) == rj_int(p, "to", -2))
				to = rj_str(r, "host");
		}
		snprintf(det, sizeof(det),
			 "ncclcheck pre-flight rank %lld -> "
			 "%lld: %s",
			 rj_int(p, "from", -1), rj_int(p, "to", -1),
			 ok ? "ok" : rj_strd(p, "error", "failed"));
		observe(cells, from, to, ok ? "reachable" : "unreachable", -1,
			det);
	}
}

/* The matrix's nodes: every node, then any other end a cell names. */
static json_t *matrix_nodes(const struct rctx *c, const json_t *cells)
{
	/* have: the names in nodes, a hash (cells times nodes was the
	 * square of the nodes at 1,024 mesh members) */
	json_t *nodes = json_deep_copy(c->nodes), *have = json_object(), *v,
	       *x;
	size_t i, j;

	json_array_foreach(nodes, j, x)
		if (have != NULL && json_object_set_nocheck(
					    have, json_string_value(x),
					    json_true()) < 0) {
			json_decref(have);
			have = NULL;
		}
	json_array_foreach(cells, i, v) {
		const char *ends[2] = {rj_str(v, "from"), rj_str(v, "to")};

		for (int e = 0; e < 2; e++) {
			bool known = false;

			if (have != NULL)
				known = json_object_get(have, ends[e]) != NULL;
			else
				json_array_foreach(nodes, j, x)
					known |= strcmp(json_string_value(x),
							ends[e]) == 0;
			if (known)
				continue;
			json_array_append_new(nodes, json_string(ends[e]));
			if (have != NULL &&
			    json_object_set_nocheck(have, ends[e],
						    json_true()) < 0) {
				json_decref(have);
				have = NULL;
			}
		}
	}
	json_decref(have);
	return nodes;
}

int rd_matrix(const struct rctx *c, json_t **matrix, json_t **heartbeats)
{
	struct cells cs = {json_array(), json_object()};
	json_t *hbs = json_array();

	*matrix = *heartbeats = NULL;
	if (cs.arr == NULL || cs.index == NULL || hbs == NULL)
		goto fail;
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *cmd = rj_strd(d, "command", "");

		if (rj_arr(d, "peers") != NULL)
			from_scan(c, d, &cs);
		if (strcmp(cmd, "ports") == 0)
			from_ports(c, d, &cs);
		if (strcmp(cmd, "heartbeat") == 0)
			from_heartbeat(c, d, &cs, hbs);
		if (json_is_object(json_object_get(d, "preflight")))
			from_preflight(d, &cs);
	}
	json_decref(cs.index);
	cs.index = NULL;
	if (json_array_size(cs.arr) == 0) {
		json_decref(cs.arr);
		*matrix = json_null();
	} else {
		if (rj_sort(cs.arr, cmp_cell) < 0)
			goto fail;
		*matrix = json_pack("{s:o, s:o}", "nodes",
				    matrix_nodes(c, cs.arr), "cells", cs.arr);
		if (*matrix == NULL)
			goto fail_hbs;
	}
	*heartbeats = hbs;
	return 0;
fail:
	json_decref(cs.arr);
	json_decref(cs.index);
fail_hbs:
	json_decref(hbs);
	return -1;
}
