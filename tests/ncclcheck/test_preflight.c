/* Unit tests for pre-flight: the wire format, the pair scheme, the probe
 * over loopback and the deciders' messages. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bootstrap/bootstrap.h"
#include "doc/finding.h"
#include "preflight/preflight.h"
#include "suites.h"

/* Four ranks on two hosts; rank 3 is the one behind NAT. */
static void ranks(struct nc_rankinfo *r)
{
	memset(r, 0, 4 * sizeof(*r));
	for (int i = 0; i < 4; i++) {
		r[i].rank = i;
		r[i].proc = i;
		snprintf(r[i].host, sizeof(r[i].host), "%s",
			 i < 2 ? "gpu-a" : "gpu-b");
		r[i].nccl_version = 22803;
		r[i].cuda_runtime = 13000;
		r[i].driver = 13000;
		snprintf(r[i].iface, sizeof(r[i].iface), "eth0");
		snprintf(r[i].address, sizeof(r[i].address), "10.0.0.%d",
			 i + 1);
		r[i].port = 41230 + i;
	}
	snprintf(r[3].address, sizeof(r[3].address), "172.17.0.2");
	r[3].port = 41234;
}

START_TEST(wire)
{
	struct nc_rankinfo a, b;
	unsigned char buf[NC_RANKINFO_WIRE];
	struct nc_pair p = { .from = 3, .to = 1, .ok = false }, q;
	unsigned char pb[NC_PAIR_WIRE];

	memset(&a, 0, sizeof(a));
	a.rank = 7;
	a.proc = 3;
	snprintf(a.host, sizeof(a.host), "gpu-b");
	snprintf(a.gpu, sizeof(a.gpu), "NVIDIA H200");
	snprintf(a.pci, sizeof(a.pci), "00000000:19:00.0");
	a.cuda_runtime = 13000;
	a.driver = 13000;
	a.nccl_version = 22803;
	snprintf(a.iface, sizeof(a.iface), "eth0");
	snprintf(a.address, sizeof(a.address), "fe80::1");
	a.port = 65535;
	a.shm_bytes = 68719476736ULL;
	snprintf(a.rule, sizeof(a.rule), "^docker,lo,virbr");
	nc_ib_env_format("=mlx5_0,mlx5_1", "3", NULL, NULL, a.ib_env,
			 sizeof(a.ib_env));
	nc_rankinfo_pack(&a, buf);
	nc_rankinfo_unpack(buf, &b);
	ck_assert_int_eq(memcmp(&a, &b, sizeof(a)), 0);
	snprintf(p.error, sizeof(p.error), "timed out");
	nc_pair_pack(&p, pb);
	nc_pair_unpack(pb, &q);
	ck_assert_int_eq(q.from, 3);
	ck_assert_int_eq(q.to, 1);
	ck_assert(!q.ok);
	ck_assert_str_eq(q.error, "timed out");
}
END_TEST

START_TEST(targets)
{
	int t[NC_PREFLIGHT_MAX_TARGETS], n, seen[1000] = { 0 };

	n = nc_preflight_targets(2, 4, t, NC_PREFLIGHT_MAX_TARGETS);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(t[0], 0);
	ck_assert_int_eq(t[2], 3);
	n = nc_preflight_targets(0, 32, t, NC_PREFLIGHT_MAX_TARGETS);
	ck_assert_int_eq(n, 31);
	/* bounded scheme: log2(n) targets, every rank tested by someone */
	for (int me = 0; me < 1000; me++) {
		n = nc_preflight_targets(me, 1000, t, NC_PREFLIGHT_MAX_TARGETS);
		ck_assert_int_eq(n, 10);
		for (int i = 0; i < n; i++) {
			ck_assert_int_ne(t[i], me);
			seen[t[i]]++;
		}
	}
	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(seen[i], 10);
}
END_TEST

START_TEST(probe_loopback)
{
	struct nc_rankinfo r[3];
	struct nc_pair out[2];
	int port = 0, lfd = sc_listen("127.0.0.1", 0, &port), closed = 0;
	int tg[2] = { 1, 2 };
	int cfd = sc_listen("127.0.0.1", 0, &closed);

	close(cfd); /* a port nobody listens on: refused */
	memset(r, 0, sizeof(r));
	snprintf(r[1].address, sizeof(r[1].address), "127.0.0.1");
	r[1].port = port;
	snprintf(r[2].address, sizeof(r[2].address), "127.0.0.1");
	r[2].port = closed;
	ck_assert_int_eq(nc_preflight_probe(0, r, tg, 2, lfd, 2000000, out), 2);
	ck_assert(out[0].ok);
	ck_assert(!out[1].ok);
	ck_assert_str_eq(out[1].error, "refused");
	close(lfd);
}
END_TEST

START_TEST(decide_unreachable)
{
	struct nc_rankinfo r[4];
	struct nc_pair p[12];
	struct nc_pf_finding f[8];
	int n = 0;

	ranks(r);
	for (int a = 0; a < 4; a++)
		for (int b = 0; b < 4; b++) {
			if (a == b)
				continue;
			p[n] = (struct nc_pair){ .from = a, .to = b,
						 .ok = b != 3 };
			snprintf(p[n].error, sizeof(p[n].error), "%s",
				 b == 3 ? "timed out" : "");
			n++;
		}
	ck_assert_int_eq(nc_decide_pairs(r, 4, p, n, f, 8), 1);
	ck_assert_str_eq(f[0].code, "rank-unreachable");
	ck_assert_str_eq(f[0].summary, "rank 3 on gpu-b advertises "
			 "172.17.0.2:41234 (eth0); connects from ranks "
			 "0-2: timed out");
	p[0].ok = false; /* 0 -> 1 also fails: a second finding */
	snprintf(p[0].error, sizeof(p[0].error), "refused");
	ck_assert_int_eq(nc_decide_pairs(r, 4, p, n, f, 8), 2);
	ck_assert_str_eq(f[0].summary, "rank 1 on gpu-a advertises "
			 "10.0.0.2:41231 (eth0); connects from rank 0: refused "
			 "(others reach it)");
	r[1].address[0] = '\0'; /* no interface: not this decider's */
	ck_assert_int_eq(nc_decide_pairs(r, 4, p, n, f, 8), 1);
}
END_TEST

START_TEST(decide_versions_ifaces)
{
	struct nc_rankinfo r[4];
	struct nc_pf_finding f[8];

	ranks(r);
	ck_assert_int_eq(nc_decide_versions(r, 4, f, 8), 0);
	r[3].nccl_version = 22705;
	r[2].driver = 12080;
	ck_assert_int_eq(nc_decide_versions(r, 4, f, 8), 2);
	ck_assert_str_eq(f[0].code, "nccl-version-mismatch");
	ck_assert_str_eq(f[0].summary, "NCCL 2.28.3 on ranks 0-2 (gpu-a...), "
			 "2.27.5 on rank 3 (gpu-b)");
	ck_assert_int_eq(f[1].severity, 1); /* driver: a warning */
	ck_assert_int_eq(nc_decide_ifaces(r, 4, NULL, f, 8), 0);
	r[1].iface[0] = '\0';
	ck_assert_int_eq(nc_decide_ifaces(r, 4, "nosuch0", f, 8), 1);
	ck_assert_str_eq(f[0].code, "nccl-ifname-nomatch");
	ck_assert_ptr_nonnull(strstr(f[0].summary,
				     "NCCL_SOCKET_IFNAME=nosuch0 matches no"));
	ck_assert_int_eq(nc_decide_ifaces(r, 4, NULL, f, 8), 1);
	ck_assert_str_eq(f[0].code, "no-usable-interface");
}
END_TEST

/* The ranks' IB settings: the same everywhere is silent; NCCL_IB_DISABLE
 * on one node only is a fault, another NCCL_IB_HCA is info. */
START_TEST(decide_ib_env)
{
	struct nc_rankinfo r[4];
	struct nc_pf_finding f[8];

	ranks(r);
	for (int i = 0; i < 4; i++)
		nc_ib_env_format("=mlx5_0,mlx5_1", "3", NULL, NULL,
				 r[i].ib_env, sizeof(r[i].ib_env));
	ck_assert_str_eq(r[0].ib_env,
			 "HCA==mlx5_0,mlx5_1;GID=3;DISABLE=-;NET=-");
	ck_assert_int_eq(nc_decide_ib_env(r, 4, f, 8), 0);
	nc_ib_env_format("=mlx5_0", "3", "1", NULL, r[2].ib_env,
			 sizeof(r[2].ib_env));
	ck_assert_int_eq(nc_decide_ib_env(r, 4, f, 8), 2);
	ck_assert_str_eq(f[0].code, "rdma-env-mismatch");
	ck_assert_int_eq(f[0].severity, SEV_FAULT);
	ck_assert_msg(strstr(f[0].summary, "NCCL_IB_DISABLE differs between "
				 "ranks: '-' on gpu-a (rank 0), '1' on gpu-b "
				 "(rank 2)") != NULL, "%s", f[0].summary);
	ck_assert_int_eq(f[1].severity, SEV_INFO);
	ck_assert(strstr(f[1].summary, "NCCL_IB_HCA") != NULL);
	/* a process that sent no settings (an older ncclcheck) is skipped */
	r[2].ib_env[0] = '\0';
	ck_assert_int_eq(nc_decide_ib_env(r, 4, f, 8), 0);
}
END_TEST

Suite *suite_nc_preflight(void)
{
	Suite *s = suite_create("nc_preflight");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, wire);
	tcase_add_test(tc, targets);
	tcase_add_test(tc, probe_loopback);
	tcase_add_test(tc, decide_unreachable);
	tcase_add_test(tc, decide_versions_ifaces);
	tcase_add_test(tc, decide_ib_env);
	suite_add_tcase(s, tc);
	return s;
}
