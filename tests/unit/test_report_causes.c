/* netprobe report: root causes across nodes, and the fixes they carry.
 * The `make demo` cluster (tests/fixtures/report/recorded: gpu-b with MTU
 * 1400 and a firewall, gpu-c behind NAT) must come out as exactly three
 * causes, each owning its symptoms on every node with one fix on the node
 * that needs it; MTU fixes go to the odd node out, never to healthy
 * nodes; no ports to open on a NAT'd node; firewall commands one per
 * block, never joined with '|'. The causes of failed pairs (firewall,
 * loss, route, overlay, a member that could not join) are
 * test_report_fwcauses.c's. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_model.h"
#include "report_causes_fx.h"

/* The demo: three causes, worst first, one fix each, on the right node. */
START_TEST(demo_three_causes)
{
	struct report_set set = {0};
	struct report_model *m = unitfix_report_dir(&set, "recorded");
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
	ck_assert_str_eq(unitfix_fix_cmd(mtu->cause, 0),
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
	struct report_model *m = unitfix_report_dir(&set, "recorded");
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

	unitfix_load_doc(&set, "a.json", scan("n-a", 1500, "10.231.9.1"));
	unitfix_load_doc(&set, "b.json", scan("n-b", 1500, "10.231.9.2"));
	unitfix_load_doc(&set, "c.json", scan("n-c", 1400, "10.231.9.3"));
	unitfix_load_doc(&set, "d.json", scan("n-d", 1500, "10.231.9.4"));
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

	m = pair_model(&set, scan("n-a", 1500, "10.231.9.1"),
		       scan("n-b", 9000, "10.231.9.2"));
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

	unitfix_load_doc(&set, "a.json", scan("n-a", 1500, "10.231.9.1"));
	unitfix_load_doc(&set, "b.json", scan("n-b", 1500, "10.231.8.2"));
	unitfix_load_doc(&set, "p.json",
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

	unitfix_load_doc(&set, "a.json",
	     scan_routed("n-a", "10.231.30.1", "10.231.30.254", "n-c:7470",
			 "10.231.31.6", true));
	unitfix_load_doc(&set, "b.json",
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
	unitfix_load_doc(&set, "c.json", c);
	unitfix_load_doc(&set, "pab.json",
	     hop_path("n-a", "n-b", "10.231.31.4", "lan0", "10.231.30.254",
		      "10.231.30.1", 1000));
	unitfix_load_doc(&set, "pba.json",
	     hop_path("n-b", "n-a", "10.231.30.1", "lan0", "10.231.31.254",
		      "10.231.31.4", 1000));
	unitfix_load_doc(&set, "pca.json",
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

	m = pair_model(&set,
		       link_path("p-a", "10.231.90.1", "10.231.90.2", 1350),
		       link_path("p-b", "10.231.90.2", "10.231.90.1", 1354));
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

	unitfix_load_doc(&set, "a.json", scan_vxlan("n-a", 1500, "10.231.9.1"));
	unitfix_load_doc(&set, "b.json", scan_vxlan("n-b", 1500, "10.231.9.2"));
	unitfix_load_doc(&set, "c.json", scan_vxlan("n-c", 1500, "10.231.9.3"));
	unitfix_load_doc(&set, "ab.json", path_vxlan("n-a", "n-b", "10.231.9.2"));
	unitfix_load_doc(&set, "bc.json", path_vxlan("n-b", "n-c", "10.231.9.3"));
	unitfix_load_doc(&set, "ca.json", path_vxlan("n-c", "n-a", "10.231.9.1"));
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
	struct report_model *m = unitfix_report_dir(&set, "recorded");
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
	unitfix_load_doc(&set, "a.json", d);
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
	m = pair_model(&set, scan("n-a", 1500, "10.231.9.1"), b);
	ck_assert_ptr_nonnull(m);
	k = cause(m, "setting:n-b");
	ck_assert_ptr_nonnull(k);
	ck_assert_str_eq(unitfix_fix_cmd(k->cause, 0),
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
	m = pair_model(&set, scan("n-a", 1500, "10.231.9.1"), b);
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
	unitfix_load_doc(&set, "a.json", a);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq((long long)m->ncauses, 1);
	k = cause(m, "setting:n-a");
	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq((long long)k->findings.n, 2);
	ck_assert_str_eq(rj_str(k->cause, "severity"), "fault");
	sh = unitfix_fix_shell(k->cause);
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
	struct report_model *m = unitfix_report_dir(&set, "routed-container");
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
	struct report_model *m = unitfix_report_dir(&set, dir);
	const struct rm_cause *k;
	const json_t *sh;
	size_t i;
	json_t *f;

	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->ncauses, 1);
	k = cause(m, "setting:node04");
	ck_assert_ptr_nonnull(k);
	sh = unitfix_fix_shell(k->cause);
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

/* Issue 48 (blind48 07, a duplicate MAC): a member joined, then its
 * connection to node 0 was lost, and nothing shows why. The
 * mesh-node-died finding sits in node 0's document but is about the
 * member: without the evidence of the clone (cluster 09's documents with
 * the turned-away join taken out), it is the pair's undecided cause,
 * whose text names the commands that decide on the member, never a
 * fault left on node 0 with no cause. Before, node01 carried
 * mesh-node-died with no cause. */
START_TEST(died_member_undecided)
{
	static const char *const files[] = {"mesh.json", "node01.json",
					    "node03.json"};
	struct report_set set = {0};
	struct report_model *m;
	const struct rm_cause *k = NULL;
	size_t i, j;
	json_t *f;

	ck_assert_int_eq(chdir(SRCDIR "/tests/fixtures/report/clone-same-ip"),
			 0);
	for (i = 0; i < 3; i++) {
		json_t *d = json_load_file(files[i], 0, NULL);
		json_t *fs, *keep = json_array();

		ck_assert_ptr_nonnull(d);
		fs = json_object_get(d, "findings");
		json_array_foreach(fs, j, f)
			if (strcmp(rj_strd(f, "code", ""),
				   "mesh-node-duplicate") != 0)
				json_array_append(keep, f);
		json_object_set_new(d, "findings", keep);
		unitfix_load_doc(&set, files[i], d);
	}
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	json_array_foreach(rj_arr(m->doc, "findings"), i, f) {
		if (strcmp(rj_str(f, "code"), "mesh-node-died") != 0)
			continue;
		ck_assert_msg(json_is_string(json_object_get(f, "root_cause")),
			      "mesh-node-died on %s: no cause",
			      rj_str(f, "node"));
		ck_assert_str_eq(rj_str(f, "root_cause"),
				 "undecided:node01<->node02");
		k = cause(m, "undecided:node01<->node02");
	}
	ck_assert_ptr_nonnull(k);
	ck_assert_ptr_nonnull(strstr(rj_str(json_object_get(k->cause, "fix"),
					    "text"),
				     "Decide on node02"));
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

/* Issue 48 (blind48c 05, a sidecar's redirect rules with no proxy behind
 * them on node03): node03's address refused node 0's probe of the mesh's
 * port, and node03 never joined. A refusal cannot tell a mesh never
 * started from a rule there that rejects or redirects the port: the
 * pair's undecided cause, whose text names the commands that decide on
 * node03. Before, node01 (node 0, healthy) carried mesh-node-missing as
 * a fault with no cause. */
START_TEST(refused_member_undecided)
{
	struct report_set set = {0};
	struct report_model *m;
	const struct rm_cause *k;
	size_t i;
	json_t *f;

	ck_assert_int_eq(chdir(SRCDIR "/tests/fixtures/report/refused-member"),
			 0);
	ck_assert_int_eq(report_load_path(&set, "."), 0);
	m = report_build(&set);
	ck_assert_ptr_nonnull(m);
	k = cause(m, "undecided:node01<->node03");
	ck_assert_ptr_nonnull(k);
	ck_assert_ptr_nonnull(strstr(rj_str(json_object_get(k->cause, "fix"),
					    "text"),
				     "Decide on node03"));
	json_array_foreach(rj_arr(m->doc, "findings"), i, f)
		if (strcmp(rj_str(f, "code"), "mesh-node-missing") == 0)
			ck_assert_str_eq(rj_strd(f, "root_cause", "none"),
					 "undecided:node01<->node03");
	report_model_free(m);
	report_set_free(&set);
}
END_TEST

Suite *suite_report_causes(void)
{
	Suite *s = suite_create("report_causes");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, demo_three_causes);
	tcase_add_test(tc, died_member_undecided);
	tcase_add_test(tc, refused_member_undecided);
	tcase_add_test(tc, demo_commands_clean);
	tcase_add_test(tc, mtu_odd_node_raised);
	tcase_add_test(tc, address_conflict_odd_node);
	tcase_add_test(tc, hostname_shared_interim_whole);
	tcase_add_test(tc, setting_cause_commands);
	tcase_add_test(tc, mtu_no_majority_undecided);
	tcase_add_test(tc, mtu_path_names_hop);
	tcase_add_test(tc, mtu_hop_nat_container);
	tcase_add_test(tc, mtu_link_ends_agree);
	tcase_add_test(tc, mtu_overlay_every_node);
	tcase_add_test(tc, causes_lead_every_format);
	tcase_add_test(tc, gate_part_not_run);
	tcase_add_test(tc, nat_guess_contradicted_by_join_address);
	tcase_add_test(tc, clone_holds_peer_address);
	suite_add_tcase(s, tc);
	return s;
}
