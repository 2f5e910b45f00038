/* netprobe report, decide: the RDMA fabric across nodes. Each node's
 * latest scan says which ports NCCL takes (nccl_ib) and what they are
 * (rdma); link layers or GID types that differ between nodes keep NCCL
 * from connecting them (net_ib.cc: "NET/IB : Remote %s device is
 * incompatible with the local ..."), speeds and MTUs that differ slow
 * every ring to the slowest (NCCL takes the smaller active_mtu). One
 * rdma-fabric-mismatch finding per node that differs from the most
 * common value. */
#include <stdio.h>
#include <string.h>

#include "doc/finding.h"
#include "report_decide.h"

#define FAB_MAX_NODES 256

enum { FAB_LINK, FAB_GID, FAB_RATE, FAB_MTU, FAB_N };

static const char *const fab_name[FAB_N] = {"link layer", "RoCE GID type",
                                            "port rate (Gb/s)",
                                            "active MTU"};

/* The port object of rdma.devices for device dev, port num; NULL. */
static const json_t *find_port(const json_t *rdma, const char *dev,
                               long long num)
{
	size_t i, j;
	json_t *d, *p;

	json_array_foreach(rj_arr(rdma, "devices"), i, d) {
		if (strcmp(rj_strd(d, "name", ""), dev) != 0)
			continue;
		json_array_foreach(rj_arr(d, "ports"), j, p)
			if (rj_int(p, "port", -1) == num)
				return p;
	}
	return NULL;
}

/* Adds text to a comma list unless it is there. */
static void add_value(char *buf, size_t len, const char *v)
{
	size_t off = strlen(buf);

	if (v[0] == '\0' || strstr(buf, v) != NULL)
		return; /* values here are short and never substrings */
	if (off < len)
		snprintf(buf + off, len - off, "%s%s", off ? "," : "", v);
}

/* One node's values: every port NCCL takes, joined. */
static void node_values(const json_t *scan, char val[FAB_N][96])
{
	const json_t *ib = json_object_get(scan, "nccl_ib");
	const json_t *rdma = json_object_get(scan, "rdma");
	size_t i;
	json_t *k;

	for (int a = 0; a < FAB_N; a++)
		val[a][0] = '\0';
	json_array_foreach(rj_arr(ib, "ports"), i, k) {
		const json_t *p = find_port(rdma, rj_strd(k, "device", ""),
		                            rj_int(k, "port", -1));
		long long gi = rj_int(k, "gid_index", -1);
		char num[24];
		json_t *g;
		size_t j;

		if (p == NULL)
			continue;
		add_value(val[FAB_LINK], 96, rj_strd(p, "link_layer", ""));
		snprintf(num, sizeof(num), "%lld", rj_int(p, "rate_gbps", 0));
		if (rj_int(p, "rate_gbps", 0) > 0)
			add_value(val[FAB_RATE], 96, num);
		if (rj_int(p, "active_mtu", 0) > 0) {
			snprintf(num, sizeof(num), "%lld",
			         rj_int(p, "active_mtu", 0));
			add_value(val[FAB_MTU], 96, num);
		}
		if (strcmp(rj_strd(p, "link_layer", ""), "Ethernet") != 0)
			continue;
		json_array_foreach(rj_arr(p, "gids"), j, g)
			if (rj_int(g, "index", -2) == gi)
				add_value(val[FAB_GID], 96,
				          rj_strd(g, "type", ""));
	}
}

/* Appends one merged finding for node. */
static void add_finding(struct rctx *c, const char *node, int a,
                        const char *mine, const char *common,
                        const char *evidence)
{
	bool fault = a == FAB_LINK || a == FAB_GID;
	char summary[512], fix[256];

	snprintf(summary, sizeof(summary),
	         "the %s of the ports NCCL uses here (%.95s) differs from the "
	         "other nodes' (%.95s)%s",
	         fab_name[a], mine, common,
	         fault ? ": NCCL cannot connect them and prints 'NET/IB : "
	                 "Remote ... device is incompatible with the local "
	                 "...'"
	               : ": every ring runs at the slower value");
	snprintf(fix, sizeof(fix), "%s",
	         a == FAB_LINK  ? "select ports of one link layer on every "
	                          "node with NCCL_IB_HCA (netprobe scan "
	                          "--export on each)"
	         : a == FAB_GID ? "set one NCCL_IB_GID_INDEX that is RoCE v2 "
	                          "on every node, or unset it everywhere"
	         : a == FAB_MTU ? "set the same MTU on every RoCE netdev (ip "
	                          "link set dev NETDEV mtu 9000) and switch "
	                          "port"
	                        : "check the slower node's cables and port "
	                          "speed (ibstat, ethtool)");
	json_array_append_new(
	    c->findings,
	    rd_finding(FINDING_RDMA_FABRIC_MISMATCH, node,
	               fault ? SEV_FAULT : SEV_WARNING, summary, fix,
	               json_pack("[{s:s, s:s}]", "fact", evidence, "source",
	                         "scan nccl_ib, rdma")));
}

void rd_rdma_fabric(struct rctx *c)
{
	static char val[FAB_MAX_NODES][FAB_N][96];
	const char *names[FAB_MAX_NODES];
	size_t i, n = 0;
	json_t *node;

	json_array_foreach(c->nodes, i, node) {
		const struct report_input *in;

		if (n >= FAB_MAX_NODES)
			break;
		in = rd_node_scan(c, json_string_value(node));
		if (in == NULL || !json_is_object(json_object_get(in->doc,
		                                                  "nccl_ib")))
			continue;
		names[n] = json_string_value(node);
		node_values(in->doc, val[n]);
		n++;
	}
	for (int a = 0; a < FAB_N && n > 1; a++) {
		size_t best = 0, best_count = 0;
		char evidence[1024] = "";

		for (size_t x = 0; x < n; x++) {
			size_t count = 0;

			for (size_t y = 0; y < n; y++)
				count += val[x][a][0] &&
				         strcmp(val[x][a], val[y][a]) == 0;
			if (count > best_count) {
				best = x;
				best_count = count;
			}
			if (val[x][a][0]) {
				size_t off = strlen(evidence);

				snprintf(evidence + off, sizeof(evidence) - off,
				         "%s%.64s: %.95s", off ? "; " : "", names[x],
				         val[x][a]);
			}
		}
		for (size_t x = 0; x < n && best_count > 0; x++)
			if (val[x][a][0] && strcmp(val[x][a], val[best][a]) != 0)
				add_finding(c, names[x], a, val[x][a],
				            val[best][a], evidence);
	}
}
