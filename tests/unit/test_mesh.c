/* Unit tests for the mesh's pure parts: Slurm host lists as scontrol
 * expands them, the membership from each launcher's variables, the
 * probing plan, and the rendezvous payloads of protocol version 2. */
#include "decide/peerdecide.h"
#include "kernel/hostlist.h"
#include "mesh/mesh_int.h"
#include "probe/meshplan.h"
#include "wire/proto_mesh.h"
#include "wire/proto_msg.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Expands list and joins the names with spaces into out. Returns 0 or
 * -1 (err in out). */
static int expand(const char *list, char *out, size_t len)
{
	char **v, err[160];
	size_t n, o = 0;

	if (hostlist_expand(list, &v, &n, err, sizeof(err)) < 0) {
		snprintf(out, len, "%s", err);
		return -1;
	}
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		o += (size_t)snprintf(out + o, len - o, "%s%s", i ? " " : "",
		                      v[i]);
	hostlist_free(v, n);
	return 0;
}

/* The forms scontrol show hostnames expands. */
START_TEST(hostlist_forms)
{
	char out[1024];

	ck_assert_int_eq(expand("gpu[01-04,07],cpu1", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "gpu01 gpu02 gpu03 gpu04 gpu07 cpu1");
	ck_assert_int_eq(expand("node[1-2]-ib", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "node1-ib node2-ib");
	ck_assert_int_eq(expand("n[8-10]", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "n8 n9 n10");
	ck_assert_int_eq(expand("n[008-010]", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "n008 n009 n010");
	ck_assert_int_eq(expand("r[1-2]-n[1-2]", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "r1-n1 r1-n2 r2-n1 r2-n2");
	ck_assert_int_eq(expand("a,,b,", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "a b");
	ck_assert_int_eq(expand("10.231.0.1,10.231.0.2", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "10.231.0.1 10.231.0.2");
	ck_assert_int_eq(expand("x[5]", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "x5");
}
END_TEST

/* Malformed lists are named, never half expanded. */
START_TEST(hostlist_errors)
{
	char out[1024];

	ck_assert_int_eq(expand("gpu[1-2", out, sizeof(out)), -1);
	ck_assert_str_eq(out, "unbalanced '[' in 'gpu[1-2'");
	ck_assert_int_eq(expand("gpu]1", out, sizeof(out)), -1);
	ck_assert_int_eq(expand("gpu[4-2]", out, sizeof(out)), -1);
	ck_assert(strstr(out, "runs backwards") != NULL);
	ck_assert_int_eq(expand("gpu[a-b]", out, sizeof(out)), -1);
	ck_assert_int_eq(expand("gpu[1-]", out, sizeof(out)), -1);
	ck_assert_int_eq(expand("gpu[0-99999]", out, sizeof(out)), -1);
	ck_assert(strstr(out, "more than") != NULL);
	ck_assert_int_eq(expand("a[1-300]b[1-300]", out, sizeof(out)), -1);
	ck_assert_int_eq(expand("bad\x01name", out, sizeof(out)), -1);
}
END_TEST

/* A variable table for mesh_env_detect: name=value pairs. */
static const char *table_get(const char *name, void *ctx)
{
	const char *const *t = ctx;
	size_t n = strlen(name);

	for (; *t != NULL; t++)
		if (strncmp(*t, name, n) == 0 && (*t)[n] == '=')
			return *t + n + 1;
	return NULL;
}

/* --hosts wins over everything; comments, blanks and ranges work. */
START_TEST(env_hosts)
{
	const char *env[] = {"SLURM_JOB_NODELIST=x[1-2]", "SLURM_NODEID=1",
	                     NULL};
	struct mesh_env e;
	char err[256];

	ck_assert_int_eq(mesh_env_detect(table_get, env,
	                                 "# cluster\nnode[1-3]\n\n  10.0.0.9 "
	                                 "# the odd one\n",
	                                 NULL, &e, err, sizeof(err)),
	                 0);
	ck_assert_str_eq(e.source, "--hosts");
	ck_assert_int_eq(e.rank, -1);
	ck_assert_int_eq(e.size, 4);
	ck_assert_str_eq(e.hosts[3], "10.0.0.9");
	ck_assert_str_eq(e.node0, "node1");
	mesh_env_free(&e);
	ck_assert_int_eq(mesh_env_detect(table_get, env, " # none\n", NULL,
	                                 &e, err, sizeof(err)),
	                 -1);
	ck_assert_str_eq(err, "--hosts names no host");
}
END_TEST

/* Slurm: the step's list first, SLURM_NODEID as the rank. */
START_TEST(env_slurm)
{
	const char *env[] = {"SLURM_JOB_NODELIST=gpu[01-08]",
	                     "SLURM_STEP_NODELIST=gpu[01-04]-ib",
	                     "SLURM_NODEID=2", "SLURM_LOCALID=0", NULL};
	const char *bad[] = {"SLURM_JOB_NODELIST=gpu[01-02]", "SLURM_NODEID=5",
	                     NULL};
	const char *norank[] = {"SLURM_JOB_NODELIST=gpu[01-02]", NULL};
	struct mesh_env e;
	char err[256];

	ck_assert_int_eq(
	    mesh_env_detect(table_get, env, NULL, NULL, &e, err, sizeof(err)),
	    0);
	ck_assert_int_eq(e.src, LAUNCH_SLURM_NODES);
	ck_assert_str_eq(e.source, "Slurm");
	ck_assert_int_eq(e.rank, 2);
	ck_assert_int_eq(e.size, 4);
	ck_assert_str_eq(e.hosts[2], "gpu03-ib");
	ck_assert_str_eq(e.node0, "gpu01-ib");
	ck_assert_str_eq(e.vars, "SLURM_STEP_NODELIST, SLURM_NODEID");
	mesh_env_free(&e);
	ck_assert_int_eq(
	    mesh_env_detect(table_get, bad, NULL, NULL, &e, err, sizeof(err)),
	    -1);
	ck_assert_str_eq(err,
	                 "SLURM_NODEID=5 but SLURM_JOB_NODELIST names 2 nodes");
	ck_assert_int_eq(mesh_env_detect(table_get, norank, NULL, NULL, &e,
	                                 err, sizeof(err)),
	                 -1);
	ck_assert(strstr(err, "SLURM_NODEID is not") != NULL);
}
END_TEST

/* torchrun-style: NODE_RANK and NNODES before RANK and WORLD_SIZE. */
START_TEST(env_torchrun)
{
	const char *env[] = {"MASTER_ADDR=10.0.0.1", "MASTER_PORT=29400",
	                     "RANK=7",  "WORLD_SIZE=16",
	                     "NODE_RANK=1", "NNODES=2", NULL};
	const char *plain[] = {"MASTER_ADDR=head", "RANK=3", "WORLD_SIZE=4",
	                       NULL};
	const char *bad[] = {"MASTER_ADDR=head", "RANK=4", "WORLD_SIZE=4",
	                     NULL};
	const char *port[] = {"MASTER_ADDR=head", "RANK=0", "WORLD_SIZE=4",
	                      "MASTER_PORT=x", NULL};
	struct mesh_env e;
	char err[256];

	ck_assert_int_eq(
	    mesh_env_detect(table_get, env, NULL, NULL, &e, err, sizeof(err)),
	    0);
	ck_assert_str_eq(e.source, "torchrun-style variables");
	ck_assert_int_eq(e.rank, 1);
	ck_assert_int_eq(e.size, 2);
	ck_assert_uint_eq(e.port, 29400);
	ck_assert_str_eq(e.node0, "10.0.0.1");
	ck_assert_ptr_null(e.hosts);
	mesh_env_free(&e);
	ck_assert_int_eq(mesh_env_detect(table_get, plain, NULL, NULL, &e, err,
	                                 sizeof(err)),
	                 0);
	ck_assert_int_eq(e.rank, 3);
	ck_assert_int_eq(e.size, 4);
	ck_assert_str_eq(e.vars, "MASTER_ADDR, RANK, WORLD_SIZE");
	mesh_env_free(&e);
	ck_assert_int_eq(
	    mesh_env_detect(table_get, bad, NULL, NULL, &e, err, sizeof(err)),
	    -1);
	ck_assert_str_eq(err, "RANK=4 but WORLD_SIZE=4");
	ck_assert_int_eq(mesh_env_detect(table_get, port, NULL, NULL, &e, err,
	                                 sizeof(err)),
	                 -1);
	ck_assert_str_eq(err, "MASTER_PORT='x': not a number");
}
END_TEST

/* Open MPI and PMIx: node 0's address must come from somewhere. */
START_TEST(env_mpi)
{
	const char *ompi[] = {"OMPI_COMM_WORLD_RANK=2",
	                      "OMPI_COMM_WORLD_SIZE=4",
	                      "OMPI_COMM_WORLD_LOCAL_RANK=0", NULL};
	const char *pmix[] = {"PMIX_RANK=1", NULL};
	struct mesh_env e;
	char err[256];

	ck_assert_int_eq(mesh_env_detect(table_get, ompi, NULL, NULL, &e, err,
	                                 sizeof(err)),
	                 -1);
	ck_assert(strstr(err, "--rendezvous") != NULL);
	ck_assert_int_eq(mesh_env_detect(table_get, ompi, NULL, "head:7000",
	                                 &e, err, sizeof(err)),
	                 0);
	ck_assert_int_eq(e.src, LAUNCH_OMPI);
	ck_assert_str_eq(e.source, "Open MPI");
	ck_assert_int_eq(e.rank, 2);
	ck_assert_int_eq(e.size, 4);
	ck_assert_str_eq(e.node0, "head:7000");
	mesh_env_free(&e);
	ck_assert_int_eq(mesh_env_detect(table_get, pmix, NULL, "head", &e,
	                                 err, sizeof(err)),
	                 -1);
	ck_assert(strstr(err, "PMIX_RANK") != NULL);
	ck_assert_int_eq(mesh_env_detect(table_get, (void *)&pmix[1], NULL,
	                                 NULL, &e, err, sizeof(err)),
	                 -1);
	ck_assert(strstr(err, "no membership") != NULL);
}
END_TEST

/* All pairs below the limit; above, log2 offsets, every member tested
 * by as many as it tests. */
START_TEST(plan_targets)
{
	size_t t[64], tested[1000] = {0}, n;

	n = meshplan_targets(2, 4, 32, t, 64);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(t[0], 3);
	ck_assert_uint_eq(t[1], 0);
	ck_assert_uint_eq(t[2], 1);
	ck_assert_uint_eq(meshplan_targets(0, 1, 32, t, 64), 0);
	for (size_t me = 0; me < 1000; me++) {
		n = meshplan_targets(me, 1000, 32, t, 64);
		ck_assert_uint_eq(n, 10);
		for (size_t i = 0; i < n; i++) {
			ck_assert_uint_ne(t[i], me);
			tested[t[i]]++;
		}
	}
	for (size_t j = 0; j < 1000; j++)
		ck_assert_uint_eq(tested[j], meshplan_testers(j, 1000, 32));
	ck_assert_uint_eq(meshplan_testers(0, 16, 32), 15);
	ck_assert_int_eq(meshplan_bound_us(16, 32, 16, 8), 8);
	ck_assert_int_eq(meshplan_bound_us(64, 32, 4, 8), 16);
	ck_assert_int_eq(meshplan_bound_us(1000, 32, 16, 8), 8);
}
END_TEST

static uint8_t buf[PROTO_HDR_LEN + PROTO_MAX_PAYLOAD];

/* JOIN survives a round trip and its checks hold. */
START_TEST(join_round_trip)
{
	struct proto_join a = {.rank = 3,
	                       .size = 16,
	                       .list_hash = 0xabcdef01,
	                       .port = 7470,
	                       .flags = PROTO_JOIN_TOKEN,
	                       .naddrs = 2,
	                       .ndups = 1};
	struct proto_join b;
	const char *why = NULL;
	int n;

	strcpy(a.name, "node04");
	strcpy(a.hostname, "node04.example");
	a.addrs[0].family = 4;
	memcpy(a.addrs[0].addr, "\x0a\xe7\x00\x04", 4);
	a.addrs[1].family = 6;
	a.addrs[1].addr[15] = 1;
	a.dups[0] = 9;
	n = proto_join_encode(&a, buf, sizeof(buf));
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(proto_join_decode(buf, (size_t)n, &b, &why), 0);
	ck_assert_uint_eq(b.rank, 3);
	ck_assert_uint_eq(b.size, 16);
	ck_assert_uint_eq(b.list_hash, 0xabcdef01);
	ck_assert_uint_eq(b.port, 7470);
	ck_assert_str_eq(b.name, "node04");
	ck_assert_str_eq(b.hostname, "node04.example");
	ck_assert_uint_eq(b.naddrs, 2);
	ck_assert_int_eq(memcmp(b.addrs[0].addr, a.addrs[0].addr, 4), 0);
	ck_assert_uint_eq(b.addrs[1].family, 6);
	ck_assert_uint_eq(b.dups[0], 9);
	ck_assert_int_eq(proto_join_decode(buf, (size_t)n - 1, &b, &why), -1);
	buf[n] = 0;
	ck_assert_int_eq(proto_join_decode(buf, (size_t)n + 1, &b, &why), -1);
	ck_assert_str_eq(why, "trailing bytes");
	a.dups[0] = 3;
	n = proto_join_encode(&a, buf, sizeof(buf));
	ck_assert_int_eq(proto_join_decode(buf, (size_t)n, &b, &why), -1);
	a.size = 0;
	ck_assert_int_eq(proto_join_encode(&a, buf, sizeof(buf)), -1);
}
END_TEST

/* MESH_START, MEMBERS, RESULT and VERDICT round trips and rejections. */
START_TEST(start_members_result_verdict)
{
	struct proto_mesh_start s = {16, 3, 32, 8000, 20000, 16, 0, "torch"},
	                        s2;
	struct proto_member m[3] = {
	    {0, PROTO_MS_JOINED, 7470, "node01", "10.231.1.1"},
	    {1, PROTO_MS_MISSING, 0, "node02", ""},
	    {2, PROTO_MS_JOINED, 7470, "node03", "node03"}},
	                    out[3];
	struct proto_result r;
	struct proto_verdict v = {1, "3 faults"}, v2;
	const char *why = NULL;
	uint32_t first;
	size_t nm;
	int n;

	n = proto_mesh_start_encode(&s, buf, sizeof(buf));
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(proto_mesh_start_decode(buf, (size_t)n, &s2, &why),
	                 0);
	ck_assert_uint_eq(s2.index, 3);
	ck_assert_uint_eq(s2.result_ms, 20000);
	ck_assert_str_eq(s2.ports, "torch");
	s.index = 16;
	ck_assert_int_eq(proto_mesh_start_encode(&s, buf, sizeof(buf)), -1);

	n = proto_members_encode(40, m, 3, buf, sizeof(buf));
	ck_assert_int_eq(n, 6 + (int)(proto_member_size(&m[0]) +
	                             proto_member_size(&m[1]) +
	                             proto_member_size(&m[2])));
	ck_assert_int_eq(proto_members_decode(buf, (size_t)n, &first, out, 3,
	                                      &nm, &why),
	                 0);
	ck_assert_uint_eq(first, 40);
	ck_assert_uint_eq(nm, 3);
	ck_assert_str_eq(out[2].target, "node03");
	ck_assert_uint_eq(out[1].state, PROTO_MS_MISSING);
	ck_assert_int_eq(proto_members_decode(buf, (size_t)n, &first, out, 2,
	                                      &nm, &why),
	                 -1);
	ck_assert_str_eq(why, "too many members");
	m[1].state = PROTO_MS_JOINED; /* joined without a port */
	n = proto_members_encode(0, m, 3, buf, sizeof(buf));
	ck_assert_int_eq(proto_members_decode(buf, (size_t)n, &first, out, 3,
	                                      &nm, &why),
	                 -1);

	n = proto_result_encode(100, 90, "0123456789", 10, buf, sizeof(buf));
	ck_assert_int_eq(n, 18);
	ck_assert_int_eq(proto_result_decode(buf, (size_t)n, &r, &why), 0);
	ck_assert_uint_eq(r.offset, 90);
	ck_assert_uint_eq(r.len, 10);
	ck_assert_int_eq(memcmp(r.data, "0123456789", 10), 0);
	ck_assert_int_eq(proto_result_encode(100, 95, "0123456789", 10, buf,
	                                     sizeof(buf)),
	                 -1);
	buf[7] = 95; /* offset 95: past the end */
	ck_assert_int_eq(proto_result_decode(buf, 18, &r, &why), -1);
	ck_assert_str_eq(why, "slice past the document's end");

	n = proto_verdict_encode(&v, buf, sizeof(buf));
	ck_assert_int_eq(proto_verdict_decode(buf, (size_t)n, &v2, &why), 0);
	ck_assert_uint_eq(v2.status, 1);
	ck_assert_str_eq(v2.msg, "3 faults");
	buf[0] = 3;
	ck_assert_int_eq(proto_verdict_decode(buf, (size_t)n, &v2, &why), -1);
}
END_TEST

/* Whole frames of the new types pass proto_frame_check; the list hash
 * tells lists apart. */
START_TEST(frames_and_hash)
{
	struct proto_verdict v = {0, "ok"};
	char n1[] = "n1", n2[] = "n2", n3[] = "n3", n12[] = "n1n2";
	char *a[] = {n1, n2}, *b[] = {n1, n3}, *c[] = {n12};
	uint8_t pl[300];
	const char *why = NULL;
	int n = proto_verdict_encode(&v, pl, sizeof(pl)), f;

	f = proto_frame_build(buf, sizeof(buf), PROTO_VERDICT, pl, (size_t)n);
	ck_assert_int_eq(proto_frame_check(buf, (size_t)f, &why),
	                 PROTO_VERDICT);
	ck_assert_str_eq(proto_type_name(PROTO_VERDICT), "verdict");
	ck_assert_str_eq(proto_err_name(PROTO_E_REJECTED), "rejected");
	ck_assert_uint_ne(proto_mesh_list_hash(a, 2),
	                  proto_mesh_list_hash(b, 2));
	ck_assert_uint_ne(proto_mesh_list_hash(a, 2),
	                  proto_mesh_list_hash(c, 1));
	ck_assert_uint_eq(proto_mesh_list_hash(a, 2),
	                  proto_mesh_list_hash(a, 2));
}
END_TEST

/* The code of the one finding d holds, or "". */
static const char *only_code(const struct doc *d)
{
	json_t *f = json_array_get(d->findings, 0);

	return json_array_size(d->findings) == 1
		       ? json_string_value(json_object_get(f, "code"))
		       : "";
}

/* A member that joined but did not answer: the finding follows how the
 * connect failed; an answer adds nothing. */
START_TEST(member_silent)
{
	static const struct {
		int e;
		const char *code;
	} t[] = {{ETIMEDOUT, "port-filtered"},
		 {ECONNREFUSED, "port-closed"},
		 {EHOSTUNREACH, "host-unreachable"},
		 {ENETUNREACH, "host-unreachable"},
		 {EPROTO, "rank-unreachable"}};
	struct peercheck pc = {0};
	struct doc d;

	strcpy(pc.v.peer_addr, "10.231.41.2");
	strcpy(pc.v.local_addr, "10.231.40.1");
	pc.obj = json_pack("{s:s}", "error",
			   "cannot connect to 10.231.41.2:7470: timed out");
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
		pc.rc = 1;
		pc.v.connect_errno = t[i].e;
		ck_assert_int_eq(peercheck_decide_member(&pc, "node15", 7470,
							 &d),
				 0);
		ck_assert_str_eq(only_code(&d), t[i].code);
		ck_assert_int_eq(d.nfault, 1);
		doc_free(&d);
	}
	/* its responder answered and turned us away (table full): an
	 * error naming it, no fault and no firewall fix */
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	pc.rc = 1;
	pc.v.connect_errno = EPROTO;
	pc.v.turned_away = true;
	ck_assert_int_eq(peercheck_decide_member(&pc, "node15", 7470, &d), 0);
	ck_assert_uint_eq(json_array_size(d.findings), 0);
	ck_assert_int_eq(d.nerror, 1);
	ck_assert_ptr_nonnull(strstr(
	    json_string_value(json_object_get(json_array_get(d.errors, 0),
					      "message")),
	    "its responder turned us away, not the network"));
	doc_free(&d);
	pc.v.turned_away = false;
	ck_assert_int_eq(doc_init(&d, "netprobe", "scan"), 0);
	pc.rc = 0;
	ck_assert_int_eq(peercheck_decide_member(&pc, "node15", 7470, &d), 0);
	ck_assert_uint_eq(json_array_size(d.findings), 0);
	doc_free(&d);
	json_decref(pc.obj);
}
END_TEST

/* A probe thread's findings and errors join the node's document in
 * order, with their counts. */
START_TEST(doc_merge_moves)
{
	struct doc a, b;

	ck_assert_int_eq(doc_init(&a, "netprobe", "scan"), 0);
	ck_assert_int_eq(doc_init(&b, "netprobe", NULL), 0);
	doc_add_error(&a, "peer", "first");
	doc_add_finding(&b, FINDING_PORT_FILTERED, -1, NULL, NULL, "x");
	doc_add_error(&b, "peer", "second");
	ck_assert_int_eq(doc_merge(&a, &b), 0);
	ck_assert_int_eq(a.nfault, 1);
	ck_assert_int_eq(a.nerror, 2);
	ck_assert_uint_eq(json_array_size(a.errors), 2);
	ck_assert_str_eq(json_string_value(json_object_get(
			     json_array_get(a.errors, 1), "message")),
			 "second");
	ck_assert_uint_eq(json_array_size(b.findings), 0);
	ck_assert_int_eq(b.nfault, 0);
	doc_free(&a);
	doc_free(&b);
}
END_TEST

/* A member whose connects toward node 0 fail with EADDRNOTAVAIL (or
 * EADDRINUSE) has no source port left (issue 48, kind portshort): its
 * stderr names this node's range (read live) and the fix to run here,
 * and blames neither node 0's firewall nor the path; any other errno
 * gets no such hint (the route's is given then). */
START_TEST(limit_hint_no_source_port)
{
	char b[512];

	ck_assert(mesh_limit_hint(EADDRNOTAVAIL, b, sizeof(b)));
	ck_assert_ptr_nonnull(strstr(b, "no source port left"));
	ck_assert_ptr_nonnull(strstr(b, "neither node 0's firewall nor the "
	                                "path"));
	ck_assert_ptr_nonnull(strstr(b, "net.ipv4.ip_local_port_range"));
	ck_assert_ptr_nonnull(
	    strstr(b, "fix on this node: sysctl -w "
	              "net.ipv4.ip_local_port_range=\"32768 60999\""));
	ck_assert(mesh_limit_hint(EADDRINUSE, b, sizeof(b)));
	ck_assert(!mesh_limit_hint(ETIMEDOUT, b, sizeof(b)));
	ck_assert(!mesh_limit_hint(ECONNREFUSED, b, sizeof(b)));
	ck_assert(!mesh_limit_hint(EADDRNOTAVAIL, b, 0));
}
END_TEST

Suite *suite_mesh(void)
{
	Suite *s = suite_create("mesh");
	TCase *tc = tcase_create("mesh");

	tcase_add_test(tc, hostlist_forms);
	tcase_add_test(tc, hostlist_errors);
	tcase_add_test(tc, env_hosts);
	tcase_add_test(tc, env_slurm);
	tcase_add_test(tc, env_torchrun);
	tcase_add_test(tc, env_mpi);
	tcase_add_test(tc, plan_targets);
	tcase_add_test(tc, join_round_trip);
	tcase_add_test(tc, start_members_result_verdict);
	tcase_add_test(tc, frames_and_hash);
	tcase_add_test(tc, member_silent);
	tcase_add_test(tc, doc_merge_moves);
	tcase_add_test(tc, limit_hint_no_source_port);
	suite_add_tcase(s, tc);
	return s;
}
