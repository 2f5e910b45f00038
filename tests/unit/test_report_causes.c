/* netprobe report: root causes across nodes, and the fixes they carry.
 * The `make demo` cluster (tests/fixtures/report/recorded: gpu-b with MTU
 * 1400 and a firewall, gpu-c behind NAT) must come out as exactly three
 * causes, each owning its symptoms on every node with one fix on the node
 * that needs it; MTU fixes go to the odd node out, never to healthy
 * nodes; no ports to open on a NAT'd node; firewall commands one per
 * block, never joined with '|'. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_model.h"

#define FIXDIR SRCDIR "/tests/fixtures/report"

/* The model of fixture directory name (relative to FIXDIR). */
static struct report_model *fixture(const char *name, struct report_set *set)
{
	ck_assert_int_eq(chdir(FIXDIR), 0);
	ck_assert_int_eq(report_load_path(set, name), 0);
	return report_build(set);
}

/* Loads doc (taken) into set as file name. */
static void load(struct report_set *set, const char *name, json_t *doc)
{
	char *txt = json_dumps(doc, 0);

	ck_assert_ptr_nonnull(txt);
	ck_assert_int_eq(report_load_buffer(set, name, txt, strlen(txt)), 0);
	free(txt);
	json_decref(doc);
}

/* A scan of node whose chosen interface eth0 has mtu and addr. */
static json_t *scan(const char *node, long long mtu, const char *addr)
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
static const struct rm_cause *cause(const struct report_model *m,
				    const char *id)
{
	for (size_t i = 0; i < m->ncauses; i++)
		if (strcmp(rj_str(m->causes[i].cause, "id"), id) == 0)
			return &m->causes[i];
	return NULL;
}

/* Command i of a fix's nftables commands, or NULL. */
static const char *nft_cmd(const json_t *cmds, size_t i)
{
	return json_string_value(json_array_get(rj_arr(cmds, "nftables"), i));
}

/* Asserts that the model holds one cause, id, resting on one finding,
 * whose first nftables command is nft0. */
static void assert_only_cause(const struct report_model *m, const char *id,
			      const char *nft0)
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

/* The demo: three causes, worst first, one fix each, on the right node. */
START_TEST(demo_three_causes)
{
	struct report_set set = {0};
	struct report_model *m = fixture("recorded", &set);
	const json_t *rec = json_object_get(report_doc(m), "recommendation");
	const struct rm_cause *fw, *mtu, *nat;
	size_t i;
	json_t *e;

	ck_assert_int_eq((long long)m->ncauses, 3);
	fw = cause(m, "firewall:gpu-b");
	mtu = cause(m, "mtu:gpu-b");
	nat = cause(m, "nat:gpu-c");
	ck_assert_ptr_nonnull(fw);
	ck_assert_ptr_nonnull(mtu);
	ck_assert_ptr_nonnull(nat);
	/* symptoms seen on other nodes belong to the node that needs the fix */
	ck_assert_int_ge((long long)fw->findings.n, 1);
	ck_assert_int_ge((long long)mtu->findings.n, 2);
	ck_assert_int_ge((long long)nat->findings.n, 2);
	ck_assert_str_eq(rj_str(json_object_get(fw->cause, "fix"), "node"),
			 "gpu-b");
	ck_assert_str_eq(
		json_string_value(json_array_get(
			rj_arr(json_object_get(json_object_get(mtu->cause,
							       "fix"),
					       "commands"),
			       "shell"),
			0)),
		"ip link set dev eth0 mtu 1500");
	/* one firewall entry, for gpu-b by name; none on the NAT'd gpu-c */
	ck_assert_int_eq((long long)json_array_size(rj_arr(rec, "firewall")),
			 1);
	ck_assert_str_eq(rj_str(json_array_get(rj_arr(rec, "firewall"), 0),
				"node"),
			 "gpu-b");
	/* the MTU fix raises gpu-b; gpu-a and gpu-c are not touched */
	ck_assert_int_eq((long long)json_array_size(rj_arr(rec, "mtu")), 1);
	e = json_array_get(rj_arr(rec, "mtu"), 0);
	ck_assert_str_eq(rj_str(e, "node"), "gpu-b");
	ck_assert_int_eq(rj_int(e, "mtu", 0), 1500);
	ck_assert_str_eq(rj_str(e, "command"), "ip link set dev eth0 mtu 1500");
	/* gpu-a's and gpu-b's scans could not reach gpu-c's responder at
	 * 172.17.0.2: the NAT explains it, so the report is not
	 * incomplete and the NAT cause carries both as evidence */
	ck_assert_int_eq(m->nnotrun, 0);
	ck_assert_int_eq(report_gate(m, REPORT_FAIL_NEVER), 0);
	{
		size_t owned = 0;

		json_array_foreach(rj_arr(nat->cause, "evidence"), i, e)
			owned += strstr(rj_strd(e, "fact", ""),
					"172.17.0.2:7470") != NULL;
		ck_assert_int_eq((long long)owned, 2);
	}
	/* every fault but the closed ports (nothing listens) has its cause */
	json_array_foreach(rj_arr(report_doc(m), "findings"), i, e)
		if (rj_sev(rj_str(e, "severity")) == 2)
			ck_assert_msg(rj_str(e, "root_cause") != NULL ||
					      strcmp(rj_str(e, "code"),
						     "port-closed") == 0,
				      "%s on %s has no root cause",
				      rj_str(e, "code"), rj_str(e, "node"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* No command of the report is '|'-joined, and no fix lowers an MTU to
 * 1400. */
START_TEST(demo_commands_clean)
{
	struct report_set set = {0};
	struct report_model *m = fixture("recorded", &set);
	char *all = json_dumps(report_doc(m), JSON_COMPACT);
	size_t i, j;
	json_t *k, *arr;
	const char *key;

	/* no fix the report gives lowers a healthy node to gpu-b's 1400 */
	json_array_foreach(rj_arr(report_doc(m), "findings"), i, k)
		ck_assert_msg(strstr(rj_strd(k, "fix", ""), "mtu 1400") == NULL,
			      "%s on %s: %s", rj_str(k, "code"),
			      rj_str(k, "node"), rj_str(k, "fix"));
	ck_assert_ptr_null(strstr(all, "\"command\":\"ip link set dev eth0 "
				       "mtu 1400"));
	json_array_foreach(rj_arr(report_doc(m), "causes"), i, k)
		json_object_foreach(
			json_object_get(json_object_get(k, "fix"), "commands"),
			key, arr) {
			json_t *c;

			json_array_foreach(arr, j, c)
				ck_assert_msg(strstr(json_string_value(c),
						     " | ") == NULL,
					      "%s: '%s' is a pipeline", key,
					      json_string_value(c));
		}
	free(all);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Three nodes at 1500 and one at 1400: the one is raised, the three are
 * left alone. */
START_TEST(mtu_odd_node_raised)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *mtu;

	load(&set, "a.json", scan("n-a", 1500, "10.231.9.1"));
	load(&set, "b.json", scan("n-b", 1500, "10.231.9.2"));
	load(&set, "c.json", scan("n-c", 1400, "10.231.9.3"));
	load(&set, "d.json", scan("n-d", 1500, "10.231.9.4"));
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	mtu = rj_arr(json_object_get(report_doc(m), "recommendation"), "mtu");
	ck_assert_int_eq((long long)json_array_size(mtu), 1);
	ck_assert_str_eq(rj_str(json_array_get(mtu, 0), "node"), "n-c");
	ck_assert_int_eq(rj_int(json_array_get(mtu, 0), "mtu", 0), 1500);
	ck_assert_ptr_nonnull(cause(m, "mtu:n-c"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* 1500 against 9000 with no majority: the report cannot tell which is
 * right and gives no command, only the measurement that would decide. */
START_TEST(mtu_no_majority_undecided)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *mtu, *e;

	load(&set, "a.json", scan("n-a", 1500, "10.231.9.1"));
	load(&set, "b.json", scan("n-b", 9000, "10.231.9.2"));
	m = report_build(&set);
	mtu = rj_arr(json_object_get(report_doc(m), "recommendation"), "mtu");
	ck_assert_int_eq((long long)json_array_size(mtu), 1);
	e = json_array_get(mtu, 0);
	ck_assert_str_eq(rj_str(e, "kind"), "undecided");
	ck_assert_ptr_null(rj_str(e, "command"));
	ck_assert_ptr_nonnull(strstr(rj_str(e, "why"), "cannot tell"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Both ends take 1500 but the path carries 1400: the hop is the limit,
 * and the entry names its gateway. */
START_TEST(mtu_path_names_hop)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *mtu, *e;

	load(&set, "a.json", scan("n-a", 1500, "10.231.9.1"));
	load(&set, "b.json", scan("n-b", 1500, "10.231.8.2"));
	load(&set, "p.json",
	     json_pack("{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:{s:s, s:s, "
		       "s:i}, s:{s:i, s:i, s:i}, s:{s:s, s:s}}",
		       "schema", "netprobe/1", "tool", "netprobe", "command",
		       "path", "host", "n-a", "started",
		       "2026-11-21T10:00:00Z", "findings", "errors", "target",
		       "host", "n-b", "address", "10.231.8.2", "port", 7470,
		       "pmtu", "largest_ok", 1400, "interface_mtu", 1500,
		       "peer_interface_mtu", 1500, "route", "out_interface",
		       "eth0", "gateway", "10.231.9.254"));
	m = report_build(&set);
	mtu = rj_arr(json_object_get(report_doc(m), "recommendation"), "mtu");
	ck_assert_int_eq((long long)json_array_size(mtu), 1);
	e = json_array_get(mtu, 0);
	/* issue 23: the hop, not the node: named by its gateway, and the
	 * workaround a route MTU toward that destination, never an
	 * interface MTU */
	ck_assert_str_eq(rj_str(e, "kind"), "hop");
	ck_assert_ptr_nonnull(strstr(rj_str(e, "why"), "gateway 10.231.9.254"));
	ck_assert_ptr_null(rj_str(e, "command"));
	ck_assert_str_eq(json_string_value(json_array_get(
				 rj_arr(json_object_get(e, "commands"),
					"on n-a"),
				 0)),
			 "ip route replace 10.231.8.2 via 10.231.9.254 dev eth0 "
			 "mtu lock 1400");
	ck_assert_ptr_nonnull(cause(m, "hop:10.231.9.254"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A scan of a routed node at addr (lan0, default gateway gw) that
 * probed peer at paddr, and may hold an unused docker0 at 172.17.0.1. */
static json_t *scan_routed(const char *node, const char *addr, const char *gw,
			   const char *peer, const char *paddr, bool docker0)
{
	json_t *d = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:[{s:s, s:i, s:s, "
		"s:[{s:s, s:s, s:i}]}], s:{s:s, s:s}, s:{s:[{s:s, s:s, s:s}]}, "
		"s:[{s:s, s:s}]}",
		"schema", "netprobe/1", "tool", "netprobe", "command", "scan",
		"host", node, "started", "2026-11-21T10:00:00Z", "findings",
		"errors", "interfaces", "name", "lan0", "mtu", 1500, "kind",
		"ether", "addresses", "address", addr, "family", "inet",
		"prefixlen", 24, "recommendation", "interface", "lan0",
		"address", addr, "routes", "defaults", "destination",
		"default", "gateway", gw, "out_interface", "lan0", "peers",
		"peer", peer, "peer_addr", paddr);

	if (docker0)
		json_array_append_new(
			json_object_get(d, "interfaces"),
			json_pack("{s:s, s:i, s:s, s:[{s:s, s:s, s:i}]}", "name",
				  "docker0", "mtu", 1500, "kind", "bridge",
				  "addresses", "address", "172.17.0.1",
				  "family", "inet", "prefixlen", 16));
	return d;
}

/* A path document of host toward node `to` at addr: ok bytes crossed
 * between two 1500-byte ends, out of ifc via gw from src. */
static json_t *hop_path(const char *host, const char *to, const char *addr,
			const char *ifc, const char *gw, const char *src,
			long long ok)
{
	return json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:{s:s, s:s, s:i}, "
		"s:{s:I, s:i, s:i}, s:{s:s, s:s, s:s, s:s}}",
		"schema", "netprobe/1", "tool", "netprobe", "command", "path",
		"host", host, "started", "2026-11-21T10:00:00Z", "findings",
		"errors", "target", "host", to, "address", addr, "port", 7470,
		"pmtu", "largest_ok", (json_int_t)ok, "interface_mtu", 1500,
		"peer_interface_mtu", 1500, "route", "out_interface", ifc,
		"gateway", gw, "source", src, "destination", addr);
}

/* tests/gen seeds 2032 and 2020: a router's leg at 1000 between two
 * subnets, and a node (n-c) in a Docker-style NAT'd container whose
 * default gateway is its host's docker0, 172.17.0.1, while another node
 * (n-a) has an unused docker0 at that address. One hop, the router: the
 * container's bridge is its own NAT layer, no second hop, and no hop is
 * named after n-a; the container's own route MTU waits for its NAT fix,
 * the far side's toward its host's address does not. */
START_TEST(mtu_hop_nat_container)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *mtu, *e, *cmds;
	json_t *c;

	load(&set, "a.json",
	     scan_routed("n-a", "10.231.30.1", "10.231.30.254", "n-c:7470",
			 "10.231.31.6", true));
	load(&set, "b.json",
	     scan_routed("n-b", "10.231.31.4", "10.231.31.254", "n-a:7470",
			 "10.231.30.1", false));
	/* the container, as its scan sees itself (seed 2032's node06) */
	c = scan("n-c", 1500, "172.17.0.2");
	json_object_set_new(
		c, "layers",
		json_pack("{s:s, s:s, s:s}", "container", "docker", "netmode",
			  "bridge-nat", "reach", "nat"));
	json_object_set_new(
		c, "routes",
		json_pack("{s:[{s:s, s:s, s:s}]}", "defaults", "destination",
			  "default", "gateway", "172.17.0.1", "out_interface",
			  "eth0"));
	load(&set, "c.json", c);
	load(&set, "pab.json",
	     hop_path("n-a", "n-b", "10.231.31.4", "lan0", "10.231.30.254",
		      "10.231.30.1", 1000));
	load(&set, "pba.json",
	     hop_path("n-b", "n-a", "10.231.30.1", "lan0", "10.231.31.254",
		      "10.231.31.4", 1000));
	load(&set, "pca.json",
	     hop_path("n-c", "n-a", "10.231.30.1", "eth0", "172.17.0.1",
		      "172.17.0.2", 1004));
	m = report_build(&set);
	mtu = rj_arr(json_object_get(report_doc(m), "recommendation"), "mtu");
	ck_assert_int_eq((long long)json_array_size(mtu), 1);
	e = json_array_get(mtu, 0);
	ck_assert_str_eq(rj_str(e, "kind"), "hop");
	ck_assert_str_eq(rj_str(e, "gateway"), "10.231.30.254");
	ck_assert_int_eq(rj_int(e, "mtu", 0), 1000);
	ck_assert_ptr_nonnull(strstr(rj_str(e, "why"), "n-c crosses it too"));
	ck_assert_ptr_null(strstr(rj_str(e, "why"), "172.17.0.1"));
	cmds = json_object_get(e, "commands");
	/* nothing inside the container, whose network its fix changes */
	ck_assert_ptr_null(json_object_get(cmds, "on n-c"));
	ck_assert_str_eq(json_string_value(json_array_get(
				 rj_arr(cmds, "on n-a"), 1)),
			 "ip route replace 10.231.31.6 via 10.231.30.254 dev "
			 "lan0 mtu lock 1000");
	ck_assert_ptr_nonnull(cause(m, "hop:10.231.30.254"));
	ck_assert_ptr_null(cause(m, "hop:172.17.0.1"));
	ck_assert_ptr_null(cause(m, "hop:n-a"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A path document of host toward addr, measured from src: ok bytes
 * crossed, both ends' interfaces vx0 at 1450, no gateway (one link). */
static json_t *link_path(const char *host, const char *src, const char *addr,
			 long long ok)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:{s:s, s:s, "
			 "s:i}, s:{s:I, s:i, s:i}, s:{s:s, s:s}}",
			 "schema", "netprobe/1", "tool", "netprobe", "command",
			 "path", "host", host, "started",
			 "2026-11-21T10:00:00Z", "findings", "errors", "target",
			 "host", addr, "address", addr, "port", 7470, "pmtu",
			 "largest_ok", (json_int_t)ok, "interface_mtu", 1450,
			 "peer_interface_mtu", 1450, "route", "out_interface",
			 "vx0", "source", src);
}

/* Both ends of one link measured, 1350 one way and 1354 back (a veth's
 * MTU counts on the way in): both are told 1350, one MTU for the link;
 * each its own size left an mtu-mismatch between them once applied
 * (tests/lab/t_path.sh's closed loop). */
START_TEST(mtu_link_ends_agree)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *mtu, *e;
	size_t i;

	load(&set, "a.json",
	     link_path("p-a", "10.231.90.1", "10.231.90.2", 1350));
	load(&set, "b.json",
	     link_path("p-b", "10.231.90.2", "10.231.90.1", 1354));
	m = report_build(&set);
	mtu = rj_arr(json_object_get(report_doc(m), "recommendation"), "mtu");
	ck_assert_int_eq((long long)json_array_size(mtu), 2);
	json_array_foreach(mtu, i, e) {
		ck_assert_int_eq(rj_int(e, "mtu", 0), 1350);
		ck_assert_str_eq(rj_str(e, "command"),
				 "ip link set dev vx0 mtu 1350");
	}
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A scan whose chosen interface is vxlan0 at mtu, with no underlay. */
static json_t *scan_vxlan(const char *node, long long mtu, const char *addr)
{
	json_t *j = scan(node, mtu, addr);
	json_t *ifc = json_array_get(json_object_get(j, "interfaces"), 0);

	json_object_set_new(ifc, "name", json_string("vxlan0"));
	json_object_set_new(ifc, "kind", json_string("vxlan"));
	json_object_set_new(json_object_get(j, "recommendation"), "interface",
			    json_string("vxlan0"));
	return j;
}

/* A path document from node to peer at addr over vxlan0: 1450 bytes
 * cross where both ends' interfaces take 1500. */
static json_t *path_vxlan(const char *node, const char *peer,
			  const char *addr)
{
	return json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:[], s:[], s:{s:s, s:s, s:i}, "
		"s:{s:i, s:i, s:i}, s:{s:s}}",
		"schema", "netprobe/1", "tool", "netprobe", "command", "path",
		"host", node, "started", "2026-11-21T10:00:00Z", "findings",
		"errors", "target", "host", peer, "address", addr, "port", 7470,
		"pmtu", "largest_ok", 1450, "interface_mtu", 1500,
		"peer_interface_mtu", 1500, "route", "out_interface", "vxlan0");
}

/* An overlay left at 1500 on every node (tests/gen): each node gets its
 * own overlay fix, the last one of the ring too, though its peers
 * already have theirs. */
START_TEST(mtu_overlay_every_node)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *mtu, *e;
	size_t i;

	load(&set, "a.json", scan_vxlan("n-a", 1500, "10.231.9.1"));
	load(&set, "b.json", scan_vxlan("n-b", 1500, "10.231.9.2"));
	load(&set, "c.json", scan_vxlan("n-c", 1500, "10.231.9.3"));
	load(&set, "ab.json", path_vxlan("n-a", "n-b", "10.231.9.2"));
	load(&set, "bc.json", path_vxlan("n-b", "n-c", "10.231.9.3"));
	load(&set, "ca.json", path_vxlan("n-c", "n-a", "10.231.9.1"));
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	mtu = rj_arr(json_object_get(report_doc(m), "recommendation"), "mtu");
	ck_assert_int_eq((long long)json_array_size(mtu), 3);
	json_array_foreach(mtu, i, e) {
		ck_assert_str_eq(rj_str(e, "kind"), "overlay");
		ck_assert_str_eq(rj_str(e, "command"),
				 "ip link set dev vxlan0 mtu 1450");
	}
	ck_assert_ptr_nonnull(cause(m, "mtu:n-c"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* The report leads with the causes in every format, before any other
 * finding. */
START_TEST(causes_lead_every_format)
{
	struct report_set set = {0};
	struct report_model *m = fixture("recorded", &set);
	static const struct {
		const char *first, *then;
	} want[] = {{"ROOT CAUSES", "OTHER FAULTS"},
		    {"## Root causes", "## Other faults"},
		    {"<h2>Root causes</h2>", "<h2>Other faults</h2>"}};

	for (int f = 0; f < 3; f++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);
		const char *a, *b;

		ck_assert_ptr_nonnull(fp);
		if (f == 0)
			report_render_text(m, fp, false);
		else if (f == 1)
			report_render_md(m, fp);
		else
			report_render_html(m, fp);
		fclose(fp);
		a = strstr(buf, want[f].first);
		b = strstr(buf, want[f].then);
		ck_assert_msg(a != NULL && b != NULL && a < b,
			      "format %d: causes do not lead", f);
		if (f == 2)
			ck_assert_ptr_nonnull(strstr(buf, "<details>"));
		free(buf);
	}
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A document holding an error (a part that could not run) fails the
 * gate even with nothing found, and the summary line says why. */
START_TEST(gate_part_not_run)
{
	struct report_set set = {0};
	struct report_model *m;
	json_t *d = scan("n-a", 1500, "10.231.9.1");
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	json_array_append_new(json_object_get(d, "errors"),
			      json_pack("{s:s, s:s}", "step", "path",
					"message", "no responder on n-b:7470"));
	load(&set, "a.json", d);
	m = report_build(&set);
	ck_assert_int_eq(m->nnotrun, 1);
	ck_assert_int_eq(report_gate(m, REPORT_FAIL_FAULT), 1);
	ck_assert_int_eq(report_gate(m, REPORT_FAIL_WARNING), 1);
	ck_assert_int_eq(report_gate(m, REPORT_FAIL_NEVER), 0);
	/* never PASS beside exit 1 (issue 31) */
	ck_assert_str_eq(m->verdict_word, "INCOMPLETE");
	fp = open_memstream(&buf, &len);
	report_render_text(m, fp, false);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "1 part could not run"));
	free(buf);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Issue 23: the firewall fix is written against the ruleset the node's
 * scan read: before the rule that drops, in its own table and chain, and
 * nothing against an empty Debian `inet filter`; no ufw or firewalld
 * block where neither is loaded; a policy-drop chain gets its accept at
 * the top. */
START_TEST(fw_fix_against_ruleset)
{
	struct report_set set = {0};
	struct report_model *m;
	json_t *a = scan("n-a", 1500, "10.231.9.1");
	json_t *b = scan("n-b", 1500, "10.231.9.2");
	const struct rm_cause *k;
	const json_t *cmds;

	json_object_set_new(
		a, "ports_to_open",
		json_pack("[{s:i, s:s, s:[s], s:s}]", "port", 29500, "proto",
			  "tcp", "nodes", "10.231.9.2", "why",
			  "inbound from 10.231.9.1 to port 29500/tcp: "
			  "filtered (timeout)"));
	json_object_set_new(
		a, "findings",
		json_pack("[{s:s, s:s, s:s, s:[]}]", "code", "port-filtered",
			  "severity", "fault", "summary",
			  "1 port unanswered (dropped) on 10.231.9.2: 29500/tcp",
			  "evidence"));
	json_object_set_new(
		b, "firewall",
		json_pack("{s:s, s:b, s:b, s:b, s:[{s:s, s:s, s:s, s:s, s:i, "
			  "s:s, s:[s], s:s}, {s:s, s:s, s:s, s:s, s:n, s:n, "
			  "s:[], s:s}]}",
			  "backend", "nftables", "ufw", 0, "firewalld", 0,
			  "truncated", 0, "blocks", "kind", "rule", "family",
			  "inet", "table", "site", "chain", "in", "handle", 7,
			  "proto", "tcp", "ports", "29000-29999", "verdict",
			  "drop", "kind", "policy", "family", "ip", "table",
			  "filter", "chain", "INPUT", "handle", "proto", "ports",
			  "verdict", "drop"));
	load(&set, "a.json", a);
	load(&set, "b.json", b);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	k = cause(m, "firewall:n-b");
	ck_assert_ptr_nonnull(k);
	cmds = json_object_get(json_object_get(k->cause, "fix"), "commands");
	ck_assert_int_eq((long long)json_array_size(rj_arr(cmds, "nftables")),
			 2);
	ck_assert_str_eq(nft_cmd(cmds, 0),
			 "nft insert rule inet site in position 7 tcp dport "
			 "29500 accept");
	ck_assert_str_eq(nft_cmd(cmds, 1),
			 "nft insert rule ip filter INPUT tcp dport 29500 "
			 "accept");
	ck_assert_ptr_null(json_object_get(cmds, "ufw"));
	ck_assert_ptr_null(json_object_get(cmds, "firewalld"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* n-a's probe of n-b's 29500 timed out: the filtered port on n-a's side,
 * a port-filtered fault on n-a; with_ruleset: n-b's ruleset read, blocks
 * as given (NULL: none). */
static void filtered_pair(struct report_set *set, json_t *blocks,
			  json_t *extra_finding)
{
	json_t *a = scan("n-a", 1500, "10.231.9.1");
	json_t *b = scan("n-b", 1500, "10.231.9.2");
	json_t *fs = json_pack("[{s:s, s:s, s:s, s:[]}]", "code",
			       "port-filtered", "severity", "fault", "summary",
			       "1 port unanswered (dropped) on 10.231.9.2: "
			       "29500/tcp",
			       "evidence");

	if (extra_finding != NULL)
		json_array_append_new(fs, extra_finding);
	/* a probe that could not run toward n-b, n-b's address quoted */
	json_array_append_new(
		json_object_get(a, "errors"),
		json_pack("{s:s, s:s}", "step", "pmtu", "message",
			  "no answer from '10.231.9.2' port 7470: path MTU "
			  "needs `netprobe serve` running on the peer"));
	json_object_set_new(
		a, "ports_to_open",
		json_pack("[{s:i, s:s, s:[s], s:s}]", "port", 29500, "proto",
			  "tcp", "nodes", "10.231.9.2", "why",
			  "inbound from 10.231.9.1 to port 29500/tcp: "
			  "filtered (timeout)"));
	json_object_set_new(a, "findings", fs);
	json_object_set_new(b, "firewall",
			    json_pack("{s:s, s:b, s:b, s:b, s:o}", "backend",
				      "nftables", "ufw", 0, "firewalld", 0,
				      "truncated", 0, "blocks",
				      blocks != NULL ? blocks : json_array()));
	load(set, "a.json", a);
	load(set, "b.json", b);
}

/* Issue 31, no blame without evidence: n-b's ruleset was read and
 * nothing in it drops 29500/tcp. No firewall cause on n-b (nor a port to
 * open there); the failed pair is one "undecided" cause that names both
 * ends and the commands that decide, with no command to run, and it is a
 * fault (exit 1). */
START_TEST(fw_fix_ruleset_drops_nothing)
{
	struct report_set set = {0};
	struct report_model *m;
	const struct rm_cause *k;
	const json_t *fix;

	filtered_pair(&set, NULL, NULL);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_null(cause(m, "firewall:n-b"));
	ck_assert_uint_eq(json_array_size(rj_arr(
				  json_object_get(report_doc(m),
						  "recommendation"),
				  "firewall")),
			  0);
	k = cause(m, "undecided:n-a<->n-b");
	ck_assert_ptr_nonnull(k);
	ck_assert_str_eq(rj_str(k->cause, "severity"), "fault");
	fix = json_object_get(k->cause, "fix");
	ck_assert_uint_eq(json_object_size(json_object_get(fix, "commands")),
			  0);
	ck_assert_ptr_nonnull(strstr(rj_str(fix, "text"), "cannot tell why "
				     "connections between n-a and n-b fail"));
	ck_assert_ptr_nonnull(strstr(rj_str(fix, "text"),
				     "nft -a list ruleset"));
	ck_assert_int_eq(report_gate(m, REPORT_FAIL_FAULT), 1);
	ck_assert_str_eq(m->verdict_word, "FAULT");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Issue 31, e2e two-nics: a rank-unreachable whose fix is the node's own
 * setting (GLOO_SOCKET_IFNAME selects an interface the peer does not
 * answer from) is that setting's, which the printed settings fix: no
 * undecided cause for the pair, the fault still counted. */
START_TEST(setting_fix_is_no_undecided_pair)
{
	struct report_set set = {0};
	struct report_model *m;
	json_t *a = scan("n-a", 1500, "10.231.9.1");
	json_t *b = scan("n-b", 1500, "10.231.9.2");

	json_object_set_new(
		a, "findings",
		json_pack("[{s:s, s:s, s:s, s:s, s:[{s:s, s:s}]}]", "code",
			  "rank-unreachable", "severity", "fault", "summary",
			  "Gloo advertises 10.231.80.1 (mgmt0), which "
			  "10.231.9.2 cannot reach",
			  "fix", "GLOO_SOCKET_IFNAME=train0", "evidence", "fact",
			  "GLOO_SOCKET_IFNAME=mgmt0", "source", "environment"));
	load(&set, "a.json", a);
	load(&set, "b.json", b);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_null(cause(m, "undecided:n-a<->n-b"));
	ck_assert_int_eq(report_gate(m, REPORT_FAIL_FAULT), 1);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Issue 31: the same timeout on a link measured lossy is loss: no cause,
 * the timeout an info, the link's warning the verdict (exit 0). */
START_TEST(loss_is_no_firewall)
{
	struct report_set set = {0};
	struct report_model *m;
	size_t i;
	json_t *f;

	filtered_pair(&set, NULL,
		      json_pack("{s:s, s:s, s:s, s:[]}", "code", "link-lossy",
				"severity", "warning", "summary",
				"the link between this node (10.231.9.1) and "
				"n-b (10.231.9.2) loses packets: 9.0 % of "
				"UDP echoes unanswered",
				"evidence"));
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 0);
	json_array_foreach(rj_arr(report_doc(m), "findings"), i, f)
		if (strcmp(rj_str(f, "code"), "port-filtered") == 0) {
			ck_assert_str_eq(rj_str(f, "severity"), "info");
			ck_assert_ptr_nonnull(strstr(rj_str(f, "summary"),
						     "loss, not a firewall"));
		}
	ck_assert_str_eq(m->verdict, "warning");
	/* the probe that failed across the lossy link is the loss's */
	ck_assert_int_eq(m->nnotrun, 0);
	ck_assert_int_eq(report_gate(m, REPORT_FAIL_FAULT), 0);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Issue 31, generated seed 120: n-a runs behind NAT, and its outbound
 * samples of n-b's ephemeral range timed out across a link measured
 * lossy. The finding is about n-b (its subject), which no cause holds: it
 * is the loss's, an info, as on a link between two plain nodes; before,
 * the NAT'd end kept it a fault no cause explained. */
START_TEST(loss_from_a_natd_node_is_no_fault)
{
	struct report_set set = {0};
	struct report_model *m;
	json_t *a = scan("n-a", 1500, "10.231.9.1");
	json_t *b = scan("n-b", 1500, "10.231.9.2");
	size_t i;
	json_t *f;
	bool seen = false;

	json_object_set_new(
		a, "findings",
		json_pack("[{s:s, s:s, s:s, s:s, s:[]},"
			  " {s:s, s:s, s:s, s:s, s:s, s:[]},"
			  " {s:s, s:s, s:s, s:[]}]",
			  "code", "nat-detected", "severity", "fault",
			  "summary", "this node reaches n-b as 10.231.9.100, "
			  "not as 172.17.0.2: it is behind NAT",
			  "fix", "run it with host networking",
			  "evidence",
			  "code", "ephemeral-range-blocked", "severity", "fault",
			  "class", "ports", "summary",
			  "fixed ports pass but samples of the ephemeral range "
			  "32768-60999 on n-b (10.231.9.2) fail (40001/tcp "
			  "filtered): NCCL, Gloo and torch listen there",
			  "fix", "open the ephemeral range on n-b",
			  "evidence",
			  "code", "link-lossy", "severity", "warning",
			  "summary", "the link between this node (10.231.9.1) "
			  "and n-b (10.231.9.2) loses packets: 11.0 % of UDP "
			  "echoes unanswered",
			  "evidence"));
	load(&set, "a.json", a);
	load(&set, "b.json", b);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	json_array_foreach(rj_arr(report_doc(m), "findings"), i, f)
		if (strcmp(rj_str(f, "code"), "ephemeral-range-blocked") == 0) {
			seen = true;
			ck_assert_str_eq(rj_str(f, "severity"), "info");
			ck_assert_ptr_nonnull(strstr(rj_str(f, "summary"),
						     "loss, not a firewall"));
		}
	ck_assert(seen);
	ck_assert_ptr_null(cause(m, "undecided:n-a<->n-b"));
	ck_assert_ptr_null(cause(m, "firewall:n-b"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Issue 31: a drop limited to n-a's source address is n-b's firewall, and
 * its fix opens the port before that rule. */
START_TEST(fw_source_qualified)
{
	struct report_set set = {0};
	struct report_model *m;
	const struct rm_cause *k;
	const json_t *cmds;

	filtered_pair(&set,
		      json_pack("[{s:s, s:s, s:s, s:s, s:i, s:s, s:[s], s:s, "
				"s:[s]}]",
				"kind", "rule", "family", "inet", "table", "src",
				"chain", "input", "handle", 4, "proto", "tcp",
				"ports", "29500", "verdict", "drop", "saddr",
				"10.231.9.0/30"),
		      NULL);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	k = cause(m, "firewall:n-b");
	ck_assert_ptr_nonnull(k);
	cmds = json_object_get(json_object_get(k->cause, "fix"), "commands");
	ck_assert_str_eq(nft_cmd(cmds, 0),
			 "nft insert rule inet src input position 4 tcp dport "
			 "29500 accept");
	ck_assert_ptr_null(cause(m, "undecided:n-a<->n-b"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Issue 31: n-a's own route lookup toward n-b found none (a policy rule):
 * the cause is n-a's routing, with commands for n-a; n-b is not named. */
START_TEST(route_no_route)
{
	struct report_set set = {0};
	struct report_model *m;
	json_t *a = scan("n-a", 1500, "10.231.9.1");
	const struct rm_cause *k;
	const json_t *sh;

	json_object_set_new(
		a, "findings",
		json_pack("[{s:s, s:s, s:s, s:[{s:s, s:s}]}]", "code",
			  "host-unreachable", "severity", "fault", "summary",
			  "peer n-b:7470 cannot be reached: there is no route "
			  "toward 10.231.9.2",
			  "evidence", "fact", "ip route get 10.231.9.2: no route",
			  "source", "route"));
	load(&set, "a.json", a);
	load(&set, "b.json", scan("n-b", 1500, "10.231.9.2"));
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 1);
	k = cause(m, "route:n-a->n-b");
	ck_assert_ptr_nonnull(k);
	ck_assert_str_eq(rj_str(k->cause, "node"), "n-a");
	ck_assert_str_eq(rj_str(k->cause, "kind"), "route");
	sh = rj_arr(json_object_get(json_object_get(k->cause, "fix"),
				    "commands"),
		    "shell");
	ck_assert_str_eq(json_string_value(json_array_get(sh, 0)),
			 "ip route replace 10.231.9.2/32 dev eth0 table main");
	ck_assert_str_eq(json_string_value(json_array_get(sh, 1)),
			 "ip rule add to 10.231.9.2/32 lookup main priority 1");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Issue 31: n-b holds n-a's address beside its own: an address-conflict
 * on n-b, whose command drops it (a setting cause on n-b), and no fix
 * that maps a name to an address. */
START_TEST(address_conflict_odd_node)
{
	struct report_set set = {0};
	struct report_model *m;
	json_t *b = scan("n-b", 1500, "10.231.9.2");
	const struct rm_cause *k;

	json_array_append_new(
		rj_arr(json_array_get(rj_arr(b, "interfaces"), 0),
		       "addresses"),
		json_pack("{s:s, s:s, s:i}", "address", "10.231.9.1", "family",
			  "inet", "prefixlen", 24));
	/* the address is the cluster's: a peer is reached at it */
	json_array_append_new(rj_arr(b, "peers"),
			      json_pack("{s:s, s:s}", "peer", "n-a:7470",
					"peer_addr", "10.231.9.1"));
	/* a path n-b measured toward the address it holds itself */
	json_array_append_new(
		rj_arr(b, "findings"),
		json_pack("{s:s, s:s, s:s, s:[]}", "code", "mtu-mismatch",
			  "severity", "warning", "summary",
			  "the path toward 10.231.9.1 ends on an interface of "
			  "MTU 65536, this end's is 1500",
			  "evidence"));
	load(&set, "a.json", scan("n-a", 1500, "10.231.9.1"));
	load(&set, "b.json", b);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	k = cause(m, "setting:n-b");
	ck_assert_ptr_nonnull(k);
	ck_assert_str_eq(json_string_value(json_array_get(
				 rj_arr(json_object_get(json_object_get(
						    k->cause, "fix"),
					    "commands"),
					"shell"),
				 0)),
			 "ip addr del 10.231.9.1/24 dev eth0");
	ck_assert_ptr_null(cause(m, "setting:n-a"));
	ck_assert_int_eq((long long)json_array_size(rj_arr(k->cause,
							   "findings")),
			 2); /* the conflict and the path toward it */
	ck_assert_ptr_null(cause(m, "hostname:n-a"));
	ck_assert_ptr_null(cause(m, "hostname:n-b"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Issue 44: a node whose hostname is another member's gets a name of its
 * own, and until then the settings its scan recommends, whole: never the
 * finding's fix cut at its first comma ("until then in /etc/hosts"), nor
 * the hosts mapping that keeps the clash. */
START_TEST(hostname_shared_interim_whole)
{
	struct report_set set = {0};
	struct report_model *m;
	json_t *b = scan("n-b", 1500, "10.231.9.2");
	const struct rm_cause *k;
	const char *fx;

	json_object_set_new(json_object_get(b, "recommendation"), "env",
			    json_pack("{s:s}", "GLOO_SOCKET_IFNAME", "eth0"));
	json_array_append_new(
		rj_arr(b, "findings"),
		json_pack("{s:s, s:s, s:s, s:s, s:[]}", "code",
			  "hostname-loopback", "severity", "fault", "summary",
			  "hostname n-b resolves to 127.0.1.1", "fix",
			  "in /etc/hosts, map n-b to 10.231.9.2 instead of "
			  "127.0.1.1; or set GLOO_SOCKET_IFNAME=eth0 and "
			  "MASTER_ADDR to rank 0's address",
			  "evidence"));
	json_array_append_new(
		rj_arr(b, "findings"),
		json_pack("{s:s, s:s, s:s, s:[]}", "code", "hostname-shared",
			  "severity", "warning", "summary",
			  "hostname n-b is also another member's", "evidence"));
	load(&set, "a.json", scan("n-a", 1500, "10.231.9.1"));
	load(&set, "b.json", b);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	k = cause(m, "hostname:n-b");
	ck_assert_ptr_nonnull(k);
	fx = rj_str(json_object_get(k->cause, "fix"), "text");
	ck_assert_ptr_nonnull(fx);
	ck_assert_msg(strstr(fx, "hostname of its own") != NULL, "%s", fx);
	ck_assert_msg(strstr(fx, "until then set GLOO_SOCKET_IFNAME=eth0 and "
				 "MASTER_ADDR to rank 0's address") != NULL,
		      "%s", fx);
	ck_assert_msg(strstr(fx, "until then in /etc/hosts") == NULL, "%s",
		      fx);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Issue 31: n-a drops VXLAN from n-b's underlay address: every failure
 * between the two is n-a's firewall (an encap cause), opened with an
 * accept for 4789/udp before that rule; n-b is not named. */
START_TEST(encap_port_dropped)
{
	struct report_set set = {0};
	struct report_model *m;
	json_t *a = scan("n-a", 1450, "10.231.30.1");
	json_t *b = scan("n-b", 1450, "10.231.30.2");

	json_array_append_new(
		rj_arr(a, "interfaces"),
		json_pack("{s:s, s:s, s:i, s:[{s:s, s:s, s:i}]}", "name",
			  "vxlan0", "kind", "vxlan", "mtu", 1450, "addresses",
			  "address", "10.231.30.1", "family", "inet",
			  "prefixlen", 24));
	json_object_set_new(json_array_get(rj_arr(a, "interfaces"), 0),
			    "addresses",
			    json_pack("[{s:s, s:s, s:i}]", "address",
				      "10.231.40.1", "family", "inet",
				      "prefixlen", 24));
	json_object_set_new(json_array_get(rj_arr(b, "interfaces"), 0),
			    "addresses",
			    json_pack("[{s:s, s:s, s:i}]", "address",
				      "10.231.40.2", "family", "inet",
				      "prefixlen", 24));
	json_object_set_new(a, "mesh", json_object());
	json_object_set_new(
		a, "firewall",
		json_pack("{s:s, s:b, s:b, s:b, s:[{s:s, s:s, s:s, s:s, s:i, "
			  "s:s, s:[s], s:s, s:[s]}]}",
			  "backend", "nftables", "ufw", 0, "firewalld", 0,
			  "truncated", 0, "blocks", "kind", "rule", "family",
			  "inet", "table", "t", "chain", "input", "handle", 3,
			  "proto", "udp", "ports", "4789", "verdict", "drop",
			  "saddr", "10.231.40.2"));
	json_object_set_new(
		b, "findings",
		json_pack("[{s:s, s:s, s:s, s:[]}]", "code", "port-filtered",
			  "severity", "fault", "summary",
			  "connections from this node to n-a (10.231.30.1:7470) "
			  "time out",
			  "evidence"));
	load(&set, "a.json", a);
	load(&set, "b.json", b);
	m = report_build(&set);
	assert_only_cause(m, "firewall:n-a",
			  "nft insert rule inet t input position 3 udp dport "
			  "4789 accept");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Issue 31: node 0 n-a and member n-b, which ran (its responder answered
 * node 0) and never joined; blocks: n-a's ruleset (NULL: none read). */
static void missing_member(struct report_set *set, json_t *blocks)
{
	json_t *a = scan("n-a", 1500, "10.231.9.1");
	json_t *mesh = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:[{s:s, s:s, s:s, s:[]}], s:[], "
		"s:{s:i, s:i, s:i, s:s, s:[{s:i, s:s, s:s, s:s}, {s:i, s:s, "
		"s:s, s:s, s:s, s:s}]}}",
		"schema", "netprobe/1", "tool", "netprobe", "command", "mesh",
		"host", "n-a", "started", "2026-11-21T10:00:00Z", "findings",
		"code", "mesh-node-missing", "severity", "fault", "summary",
		"n-b did not join node 0 (n-a:7470) within the join timeout of "
		"30 s, although its responder answers node 0 at "
		"10.231.9.2:7470: it runs and cannot reach node 0",
		"evidence", "errors", "mesh", "size", 2, "joined", 1, "port",
		7470, "source", "--hosts", "members", "rank", 0, "name", "n-a",
		"state", "joined", "result", "received", "rank", 1, "name",
		"n-b", "state", "missing", "result", "silent", "why",
		"did not join node 0 (n-a:7470) within the join timeout of 30 "
		"s, although its responder answers node 0 at 10.231.9.2:7470: "
		"it runs and cannot reach node 0",
		"probed_addr", "10.231.9.2");

	json_object_set_new(a, "mesh", json_object());
	if (blocks != NULL)
		json_object_set_new(
			a, "firewall",
			json_pack("{s:s, s:b, s:b, s:b, s:o}", "backend",
				  "nftables", "ufw", 0, "firewalld", 0,
				  "truncated", 0, "blocks", blocks));
	load(set, "a.json", a);
	load(set, "mesh.json", mesh);
}

/* Issue 31: node 0's own rule drops member n-b's source to the mesh's
 * port: n-b's "did not join" is n-a's firewall, opened before that rule;
 * n-b is not named. */
START_TEST(missing_member_node0_rule)
{
	struct report_set set = {0};
	struct report_model *m;

	missing_member(&set,
		       json_pack("[{s:s, s:s, s:s, s:s, s:i, s:s, s:[s], s:s, "
				 "s:[s]}]",
				 "kind", "rule", "family", "inet", "table",
				 "rdv", "chain", "input", "handle", 5, "proto",
				 "tcp", "ports", "7470", "verdict", "drop",
				 "saddr", "10.231.9.2"));
	m = report_build(&set);
	assert_only_cause(m, "firewall:n-a",
			  "nft insert rule inet rdv input position 5 tcp dport "
			  "7470 accept");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Issue 31: n-a's ruleset drops nothing of n-b's (a rule for another
 * source): no blame on either; the pair is undecided, and its fix names
 * the commands on n-b that decide. */
START_TEST(missing_member_undecided)
{
	struct report_set set = {0};
	struct report_model *m;
	const struct rm_cause *k;

	missing_member(&set,
		       json_pack("[{s:s, s:s, s:s, s:s, s:i, s:s, s:[s], s:s, "
				 "s:[s]}]",
				 "kind", "rule", "family", "inet", "table",
				 "rdv", "chain", "input", "handle", 5, "proto",
				 "tcp", "ports", "7470", "verdict", "drop",
				 "saddr", "10.231.9.3"));
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_null(cause(m, "firewall:n-a"));
	k = cause(m, "undecided:n-a<->n-b");
	ck_assert_ptr_nonnull(k);
	ck_assert_ptr_nonnull(strstr(rj_str(json_object_get(k->cause, "fix"),
					    "text"),
				     "Decide on n-b: ip route get 10.231.9.1"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* The member that could not join left its own document (mesh --out,
 * issue 48), merged here: its words, its route toward node 0, join the
 * pair's cause as evidence and in the summary. Without it the cause is
 * as before (missing_member_undecided). */
START_TEST(missing_member_own_document)
{
	struct report_set set = {0};
	struct report_model *m;
	const struct rm_cause *k;
	json_t *b = scan("n-b", 1500, "10.231.9.3");
	char *ev;
	const char *said = "node 0 (n-a:7470) did not take the join within "
			   "30 s (19 tries): cannot connect to 10.231.9.1:7470: "
			   "timed out; this node's route toward node 0 "
			   "(10.231.9.1): via 10.231.9.253 dev eth0";

	json_object_set_new(b, "errors",
			    json_pack("[{s:s, s:s}]", "step", "mesh", "message",
				      said));
	load(&set, "n-b.json", b);
	missing_member(&set,
		       json_pack("[{s:s, s:s, s:s, s:s, s:i, s:s, s:[s], s:s, "
				 "s:[s]}]",
				 "kind", "rule", "family", "inet", "table",
				 "rdv", "chain", "input", "handle", 5, "proto",
				 "tcp", "ports", "7470", "verdict", "drop",
				 "saddr", "10.231.9.3"));
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	k = cause(m, "undecided:n-a<->n-b");
	ck_assert_ptr_nonnull(k);
	ck_assert_ptr_nonnull(strstr(rj_str(k->cause, "summary"),
				     "n-b's own document says: node 0"));
	ev = json_dumps(json_object_get(k->cause, "evidence"), 0);
	ck_assert_ptr_nonnull(ev);
	ck_assert_ptr_nonnull(strstr(ev, "via 10.231.9.253 dev eth0"));
	free(ev);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* No scan read n-b's ruleset (none of n-b, or one without root): an
 * nftables command would guess `inet filter input`, which fails where the
 * drop lives in another table (t_ports' closed loop), so there is none;
 * the fix says why and how to get one, ufw and firewalld stay. */
START_TEST(fw_fix_ruleset_unknown)
{
	struct report_set set = {0};
	struct report_model *m;
	json_t *a = scan("n-a", 1500, "10.231.9.1");
	const struct rm_cause *k;
	const json_t *cmds, *fix;

	json_object_set_new(
		a, "ports_to_open",
		json_pack("[{s:i, s:s, s:[s], s:s}]", "port", 29500, "proto",
			  "tcp", "nodes", "10.231.9.2", "why",
			  "inbound from 10.231.9.1 to port 29500/tcp: "
			  "filtered (timeout)"));
	json_object_set_new(
		a, "findings",
		json_pack("[{s:s, s:s, s:s, s:[]}]", "code", "port-filtered",
			  "severity", "fault", "summary",
			  "1 port unanswered (dropped) on 10.231.9.2: 29500/tcp",
			  "evidence"));
	load(&set, "a.json", a);
	load(&set, "b.json", scan("n-b", 1500, "10.231.9.2"));
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	k = cause(m, "firewall:n-b");
	ck_assert_ptr_nonnull(k);
	fix = json_object_get(k->cause, "fix");
	cmds = json_object_get(fix, "commands");
	ck_assert_ptr_null(json_object_get(cmds, "nftables"));
	ck_assert_ptr_null(json_object_get(cmds, "iptables-legacy"));
	ck_assert_str_eq(json_string_value(json_array_get(rj_arr(cmds, "ufw"),
							  0)),
			 "ufw allow 29500/tcp");
	ck_assert_ptr_nonnull(rj_arr(cmds, "firewalld"));
	ck_assert_ptr_nonnull(strstr(rj_str(fix, "text"),
				     "cannot tell which table and chain"));
	ck_assert_ptr_nonnull(
		strstr(rj_str(fix, "text"), "run netprobe scan on n-b as root"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Node settings whose fix is one command (a finding's `command`) and
 * that no other cause explains: one "setting" cause on that node holding
 * both findings, its commands one shell block (t_rpfilter's and
 * t_deadnic's closed loops run them). */
START_TEST(setting_cause_commands)
{
	struct report_set set = {0};
	struct report_model *m;
	json_t *a = scan("n-a", 1500, "10.231.9.1");
	const struct rm_cause *k;
	const json_t *sh;

	json_object_set_new(
		a, "findings",
		json_pack("[{s:s, s:s, s:s, s:[], s:s, s:s}, {s:s, s:s, s:s, "
			  "s:[], s:s, s:s}]",
			  "code", "rp-filter-strict", "severity", "warning",
			  "summary", "eth0 and eth1 filter strictly",
			  "evidence", "fix",
			  "sysctl -w net.ipv4.conf.all.rp_filter=2 (loose)",
			  "command", "sysctl -w net.ipv4.conf.all.rp_filter=2",
			  "code", "host-unreachable", "severity", "fault",
			  "summary", "peer 10.231.9.6 cannot be reached: train0 "
			  "is down",
			  "evidence", "fix", "ip link set train0 up", "command",
			  "ip link set train0 up"));
	load(&set, "a.json", a);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq((long long)m->ncauses, 1);
	k = cause(m, "setting:n-a");
	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq((long long)k->findings.n, 2);
	ck_assert_str_eq(rj_str(k->cause, "severity"), "fault");
	sh = rj_arr(json_object_get(json_object_get(k->cause, "fix"),
				    "commands"),
		    "shell");
	ck_assert_int_eq((long long)json_array_size(sh), 2);
	/* in the findings' order: the fault first */
	ck_assert_str_eq(json_string_value(json_array_get(sh, 0)),
			 "ip link set train0 up");
	ck_assert_str_eq(json_string_value(json_array_get(sh, 1)),
			 "sysctl -w net.ipv4.conf.all.rp_filter=2");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* The firewall cause of node n-b whose ruleset has ufw's chains
 * loaded (a policy drop in ufw-user-input's table) and whose scan read
 * ufw's service state as st (NULL: a document from before it was read),
 * with why; the model, to free. */
static struct report_model *ufw_model(const char *st, const char *why,
				      struct report_set *set)
{
	json_t *a = scan("n-a", 1500, "10.231.9.1");
	json_t *b = scan("n-b", 1500, "10.231.9.2");
	json_t *fw;

	json_object_set_new(
		a, "ports_to_open",
		json_pack("[{s:i, s:s, s:[s], s:s}]", "port", 29500, "proto",
			  "tcp", "nodes", "10.231.9.2", "why",
			  "inbound from 10.231.9.1 to port 29500/tcp: "
			  "filtered (timeout)"));
	json_object_set_new(
		a, "findings",
		json_pack("[{s:s, s:s, s:s, s:[]}]", "code", "port-filtered",
			  "severity", "fault", "summary",
			  "1 port unanswered (dropped) on 10.231.9.2: 29500/tcp",
			  "evidence"));
	fw = json_pack("{s:s, s:b, s:b, s:b, s:[{s:s, s:s, s:s, s:s, s:n, "
		       "s:n, s:[], s:s}]}",
		       "backend", "nftables", "ufw", 1, "firewalld", 0,
		       "truncated", 0, "blocks", "kind", "policy", "family",
		       "ip", "table", "filter", "chain", "INPUT", "handle",
		       "proto", "ports", "verdict", "drop");
	if (st != NULL)
		json_object_update_new(
			fw, json_pack("{s:s, s:s, s:s, s:s}", "ufw_service", st,
				      "ufw_why", why, "firewalld_service",
				      "inactive", "firewalld_why",
				      "no firewalld among the 80 processes "
				      "under /proc"));
	json_object_set_new(b, "firewall", fw);
	load(set, "a.json", a);
	load(set, "b.json", b);
	return report_build(set);
}

/* The fix's command blocks and text of m's firewall:n-b. */
static const json_t *fw_fix(const struct report_model *m)
{
	const struct rm_cause *k = cause(m, "firewall:n-b");

	ck_assert_ptr_nonnull(k);
	return json_object_get(k->cause, "fix");
}

/* Issue 23: ufw's commands only where ufw runs (its ufw.conf read in the
 * scan), whatever chains it left loaded; where its state could not be
 * read, its commands beside nftables' and the fix says why it cannot
 * tell; firewalld's never where it does not run. */
START_TEST(fw_fix_service_state)
{
	struct report_set set = {0};
	struct report_model *m;
	const json_t *fix, *cmds;

	m = ufw_model("active", "ENABLED=yes in /etc/ufw/ufw.conf", &set);
	ck_assert_ptr_nonnull(m);
	cmds = json_object_get(fw_fix(m), "commands");
	ck_assert_str_eq(json_string_value(
				 json_array_get(rj_arr(cmds, "ufw"), 0)),
			 "ufw allow 29500/tcp");
	ck_assert_int_eq((long long)json_array_size(rj_arr(cmds, "nftables")),
			 1);
	ck_assert_ptr_null(json_object_get(cmds, "firewalld"));
	report_model_free(m);
	report_set_free(&set);

	memset(&set, 0, sizeof(set));
	m = ufw_model("inactive", "ENABLED=no in /etc/ufw/ufw.conf", &set);
	ck_assert_ptr_nonnull(m);
	fix = fw_fix(m);
	cmds = json_object_get(fix, "commands");
	ck_assert_ptr_null(json_object_get(cmds, "ufw"));
	ck_assert_str_eq(nft_cmd(cmds, 0),
			 "nft insert rule ip filter INPUT tcp dport 29500 "
			 "accept");
	ck_assert(strstr(rj_str(fix, "text"), "cannot tell") == NULL);
	report_model_free(m);
	report_set_free(&set);

	memset(&set, 0, sizeof(set));
	m = ufw_model("unknown",
		      "/etc/ufw/ufw.conf cannot be read: Permission denied",
		      &set);
	ck_assert_ptr_nonnull(m);
	fix = fw_fix(m);
	cmds = json_object_get(fix, "commands");
	ck_assert_int_eq((long long)json_array_size(rj_arr(cmds, "ufw")), 1);
	ck_assert_int_eq((long long)json_array_size(rj_arr(cmds, "nftables")),
			 1);
	ck_assert(strstr(rj_str(fix, "text"),
			 "cannot tell whether ufw runs, because "
			 "/etc/ufw/ufw.conf cannot be read: Permission "
			 "denied") != NULL);
	report_model_free(m);
	report_set_free(&set);

	/* a document from before: ufw's chains loaded is ufw */
	memset(&set, 0, sizeof(set));
	m = ufw_model(NULL, NULL, &set);
	ck_assert_ptr_nonnull(m);
	cmds = json_object_get(fw_fix(m), "commands");
	ck_assert_int_eq((long long)json_array_size(rj_arr(cmds, "ufw")), 1);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A routed container (the blind set of issue 48, cluster 05): node03 runs
 * in a container whose eth0 is a veth to its host's bridge, so its scan
 * guesses a NAT'd bridge (container-bridge-nat), but node 0, on another
 * subnet, saw node03 join from node03's own address 10.231.47.2: nothing
 * translated it. The guess is contradicted: no NAT cause on node03, the
 * finding info with the evidence, and the failed pairs left honestly
 * undecided (its host's forward chain dropped them, which no member's
 * evidence shows). Before, the report decided nat:node03. */
START_TEST(nat_guess_contradicted_by_join_address)
{
	struct report_set set = {0};
	struct report_model *m = fixture("routed-container", &set);
	size_t i;
	json_t *f;
	bool seen = false;

	ck_assert_ptr_nonnull(m);
	for (size_t k = 0; k < m->ncauses; k++)
		ck_assert_msg(strncmp(rj_str(m->causes[k].cause, "id"),
				      "nat:", 4) != 0,
			      "a NAT cause: %s",
			      rj_str(m->causes[k].cause, "id"));
	json_array_foreach(rj_arr(m->doc, "findings"), i, f)
		if (strcmp(rj_str(f, "code"), "container-bridge-nat") == 0) {
			seen = true;
			ck_assert_str_eq(rj_str(f, "severity"), "info");
			ck_assert(json_is_true(json_object_get(f,
							       "contradicted")));
		}
	ck_assert(seen);
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* A clone holding another node's address (the blind set of issue 48,
 * cluster 09, its real documents): node04 came up with node02's address
 * 10.231.48.2, joined under hostname node04 from it and was turned away
 * as a second claim on node02's rank; node02 then lost its connection to
 * node 0 (the clone answered for its address) and node01's and node03's
 * connects to node02's port were reset. Those are the address held twice,
 * a setting cause on node04 whose one command gives it the address the
 * host list names it at (its default route kept); node01, node02 and node03 carry no cause, and
 * every fault is that cause's. Before, node01 carried mesh-node-died and
 * port-closed, node03 port-closed, with no cause, and no cause named
 * node04. */
static void clone_case(const char *dir)
{
	struct report_set set = {0};
	struct report_model *m = fixture(dir, &set);
	const struct rm_cause *k;
	const json_t *sh;
	size_t i;
	json_t *f;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 1);
	k = cause(m, "setting:node04");
	ck_assert_ptr_nonnull(k);
	sh = rj_arr(json_object_get(json_object_get(k->cause, "fix"),
				    "commands"),
		    "shell");
	ck_assert_str_eq(
		json_string_value(json_array_get(sh, 0)),
		"dev=$(ip -o addr show to 10.231.48.2 | awk '{print $2; "
		"exit}') && gw=$(ip -4 route show default dev \"$dev\" | awk "
		"'{for (i = 1; i < NF; i++) if ($i == \"via\") {print $(i + "
		"1); exit}}') && ip addr del 10.231.48.2/24 dev \"$dev\" && ip "
		"addr add 10.231.48.4/24 dev \"$dev\" && { [ -z \"$gw\" ] || "
		"ip -4 route replace default via \"$gw\" dev \"$dev\"; }");
	json_array_foreach(rj_arr(m->doc, "findings"), i, f)
		if (strcmp(rj_str(f, "severity"), "fault") == 0)
			ck_assert_msg(json_is_string(json_object_get(
					      f, "root_cause")) &&
					      strcmp(rj_str(f, "root_cause"),
						     "setting:node04") == 0,
				      "%s on %s: %s", rj_str(f, "code"),
				      rj_str(f, "node"),
				      rj_strd(f, "root_cause", "no cause"));
	report_model_free(m);
	report_set_free(&set);
}

START_TEST(clone_holds_peer_address)
{
	clone_case("clone-same-ip");
	/* the clone joined first, in node02's rank, and node02 was
	 * turned away: the same cause (the holder's hostname names
	 * node04) */
	clone_case("clone-same-ip-first");
}
END_TEST

Suite *suite_report_causes(void)
{
	Suite *s = suite_create("report_causes");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, demo_three_causes);
	tcase_add_test(tc, demo_commands_clean);
	tcase_add_test(tc, mtu_odd_node_raised);
	tcase_add_test(tc, fw_fix_against_ruleset);
	tcase_add_test(tc, fw_fix_ruleset_unknown);
	tcase_add_test(tc, fw_fix_ruleset_drops_nothing);
	tcase_add_test(tc, loss_is_no_firewall);
	tcase_add_test(tc, loss_from_a_natd_node_is_no_fault);
	tcase_add_test(tc, fw_source_qualified);
	tcase_add_test(tc, route_no_route);
	tcase_add_test(tc, address_conflict_odd_node);
	tcase_add_test(tc, hostname_shared_interim_whole);
	tcase_add_test(tc, encap_port_dropped);
	tcase_add_test(tc, setting_cause_commands);
	tcase_add_test(tc, mtu_no_majority_undecided);
	tcase_add_test(tc, setting_fix_is_no_undecided_pair);
	tcase_add_test(tc, mtu_path_names_hop);
	tcase_add_test(tc, mtu_hop_nat_container);
	tcase_add_test(tc, mtu_link_ends_agree);
	tcase_add_test(tc, fw_fix_service_state);
	tcase_add_test(tc, mtu_overlay_every_node);
	tcase_add_test(tc, causes_lead_every_format);
	tcase_add_test(tc, gate_part_not_run);
	tcase_add_test(tc, missing_member_node0_rule);
	tcase_add_test(tc, missing_member_undecided);
	tcase_add_test(tc, missing_member_own_document);
	tcase_add_test(tc, nat_guess_contradicted_by_join_address);
	tcase_add_test(tc, clone_holds_peer_address);
	suite_add_tcase(s, tc);
	return s;
}
