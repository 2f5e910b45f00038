/* Unit tests for --pairs' decision rules (issue 33): a pair is held
 * against its own class and against pairs that share no rank with it;
 * what the screening calls slow stands only when measured again alone;
 * the grain of the blame (GPU, link, node; never a node where every rank
 * is on it); the advice's words; the gate and the exit status agree; the
 * schedule keeps a host's pairs alone on it. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hw.h"
#include "results/finish.h"
#include "suites.h"

#define NMAX 8

/* n ranks, every pair at v GB/s. */
static void fill(double *bw, int n, double v)
{
	for (int i = 0; i < n * n; i++)
		bw[i] = v;
}

/* Rank r's pairs at v. */
static void set_rank(double *bw, int n, int r, double v)
{
	for (int j = 0; j < n; j++)
		if (j != r)
			bw[(r < j ? r : j) * n + (r < j ? j : r)] = v;
}

START_TEST(same_class_disjoint_reference)
{
	/* 4 GPUs: GPU 2 at 55 %: its 3 pairs are half of the 6; held
	 * against the pair that shares no rank with them, they stand out,
	 * and the others (held against a pair of GPU 2) do not */
	double bw[16];
	bool slow[16];
	int common;

	fill(bw, 4, 270);
	set_rank(bw, 4, 2, 150);
	ck_assert_int_eq(nc_pairs_decide(bw, NULL, 4, NC_SLOW_TOL, slow,
					 &common), 3);
	ck_assert(slow[0 * 4 + 2] && slow[1 * 4 + 2] && slow[2 * 4 + 3]);
	ck_assert_int_eq(common, 2);
	ck_assert_double_eq_tol(nc_pairs_reference(bw, NULL, 4, 0, 2), 270,
				1e-9);
	ck_assert_double_eq_tol(nc_pairs_reference(bw, NULL, 4, 0, 1), 150,
				1e-9);
	/* idle spread of a few per cent: nothing */
	fill(bw, 4, 270);
	bw[0 * 4 + 1] = 255;
	bw[2 * 4 + 3] = 262;
	ck_assert_int_eq(nc_pairs_decide(bw, NULL, 4, NC_SLOW_TOL, slow,
					 &common), 0);
	/* two GPUs alone: one pair, compared with nothing */
	bw[0 * 2 + 1] = 1;
	ck_assert_int_eq(nc_pairs_decide(bw, NULL, 2, NC_SLOW_TOL, slow,
					 &common), 0);
}
END_TEST

START_TEST(same_class_never_nvlink_against_nic)
{
	/* 2 hosts of 2: NVLink pairs at 270, socket pairs at 2: nothing;
	 * one socket pair at 0.5 against the other three: slow */
	int host[4] = { 0, 0, 2, 2 };
	double bw[16];
	bool slow[16];
	int common;

	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			bw[i * 4 + j] = host[i] == host[j] ? 270 : 2.1;
	ck_assert_int_eq(nc_pairs_decide(bw, host, 4, NC_SLOW_TOL, slow,
					 &common), 0);
	bw[0 * 4 + 3] = 0.5;
	ck_assert_int_eq(nc_pairs_decide(bw, host, 4, NC_SLOW_TOL, slow,
					 &common), 1);
	ck_assert(slow[0 * 4 + 3]);
}
END_TEST

START_TEST(confirmation_alone)
{
	/* the 1 MB run: one pair at 3.1 among 50 in the rounds */
	double bw[16], alone[16];
	bool slow[16], gpu[4], node[4];

	fill(bw, 4, 50);
	bw[1 * 4 + 3] = 3.1;
	memset(alone, 0, sizeof(alone));
	/* not measured again: it cannot stand */
	ck_assert_int_eq(nc_pairs_judge(bw, alone, NULL, 4, NC_SLOW_TOL,
					slow, gpu, node), 0);
	/* alone it reads 49: noise */
	alone[1 * 4 + 3] = 49;
	ck_assert_int_eq(nc_pairs_judge(bw, alone, NULL, 4, NC_SLOW_TOL,
					slow, gpu, node), 0);
	ck_assert(!slow[1 * 4 + 3]);
	/* alone it reads 20 again: it stands, a link (no GPU blamed) */
	alone[1 * 4 + 3] = 20;
	ck_assert_int_eq(nc_pairs_judge(bw, alone, NULL, 4, NC_SLOW_TOL,
					slow, gpu, node), 1);
	ck_assert(slow[1 * 4 + 3]);
	for (int i = 0; i < 4; i++)
		ck_assert(!gpu[i] && !node[i]);
}
END_TEST

START_TEST(granularity_gpu_not_node)
{
	/* one host, GPU 2 shared with another process: the GPU, never the
	 * node (every rank is on it) */
	int host[4] = { 0, 0, 0, 0 };
	double bw[16], alone[16];
	bool slow[16], gpu[4], node[4];

	fill(bw, 4, 240);
	set_rank(bw, 4, 2, 74);
	memcpy(alone, bw, sizeof(bw));
	for (int i = 0; i < 16; i++)
		if (bw[i] > 100)
			alone[i] = 0;
	ck_assert_int_eq(nc_pairs_judge(bw, alone, host, 4, NC_SLOW_TOL,
					slow, gpu, node), 3);
	for (int i = 0; i < 4; i++) {
		ck_assert(gpu[i] == (i == 2));
		ck_assert(!node[i]);
	}
	/* 8 GPUs, two slow: both named, still no node */
	{
		int h8[8] = { 0 };
		double b8[64], a8[64];
		bool s8[64], g8[8], n8[8];

		fill(b8, 8, 240);
		set_rank(b8, 8, 1, 90);
		set_rank(b8, 8, 6, 90);
		b8[1 * 8 + 6] = 60;
		memcpy(a8, b8, sizeof(b8));
		ck_assert_int_eq(nc_pairs_judge(b8, a8, h8, 8, NC_SLOW_TOL,
						s8, g8, n8), 13);
		for (int i = 0; i < 8; i++) {
			ck_assert(g8[i] == (i == 1 || i == 6));
			ck_assert(!n8[i]);
		}
	}
}
END_TEST

START_TEST(granularity_node)
{
	/* 5 hosts of 2 GPUs: host 4's NIC at a third against every peer,
	 * its own NVLink pair fine: the node (both its ranks), no GPU */
	int host[10] = { 0, 0, 2, 2, 4, 4, 6, 6, 8, 8 }, n = 10;
	double bw[100], alone[100];
	bool slow[100], gpu[10], node[10];

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			bw[i * n + j] = host[i] == host[j] ? 270 :
					host[i] == 4 || host[j] == 4 ? 15 : 45;
	memcpy(alone, bw, sizeof(bw));
	ck_assert_int_eq(nc_pairs_judge(bw, alone, host, n, NC_SLOW_TOL,
					slow, gpu, node), 16);
	for (int i = 0; i < n; i++) {
		ck_assert(node[i] == (i == 4 || i == 5));
		ck_assert(!gpu[i]);
	}
	/* only rank 5's pairs across: its GPU (its rail NIC), not the node */
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			bw[i * n + j] = host[i] == host[j] ? 270 :
					i == 5 || j == 5 ? 15 : 45;
	memcpy(alone, bw, sizeof(bw));
	nc_pairs_judge(bw, alone, host, n, NC_SLOW_TOL, slow, gpu, node);
	for (int i = 0; i < n; i++) {
		ck_assert(!node[i]);
		ck_assert(gpu[i] == (i == 5));
	}
}
END_TEST

/* A run of 4 ranks on host vm with the self-test's names. */
static void run4(struct nc_run *run, struct nc_opts *o,
		 struct nc_gpuinfo *g, double *bw, double *alone)
{
	memset(run, 0, sizeof(*run));
	memset(o, 0, sizeof(*o));
	o->quiet = true;
	run->o = o;
	run->nranks = 4;
	run->nprocs = 4;
	run->gpus_per_proc = 1;
	memset(g, 0, sizeof(*g) * 4);
	for (int i = 0; i < 4; i++) {
		g[i].rank = i;
		snprintf(g[i].host, sizeof(g[i].host), "vm");
		g[i].dev = 0;
		g[i].has_index = true;
		g[i].smi_index = i;
		g[i].minor = i;
		g[i].pci_bus = 0;
		g[i].pci_dev = 6 + i;
		snprintf(g[i].uuid, sizeof(g[i].uuid),
			 "GPU-71b57d49-87ec-471e-ef83-3744c179%04d", i);
	}
	run->gpus = g;
	run->pair_bw = bw;
	run->pair_alone = alone;
	run->pair_bytes = 64 << 20;
}

START_TEST(advice_words)
{
	struct nc_run run;
	struct nc_opts o;
	struct nc_gpuinfo g[4];
	double bw[16], alone[16];

	fill(bw, 4, 240);
	set_rank(bw, 4, 2, 74);
	memset(alone, 0, sizeof(alone));
	for (int i = 0; i < 16; i++)
		if (bw[i] < 100)
			alone[i] = 73.8;
	run4(&run, &o, g, bw, alone);
	nc_run_pair_verdict(&run);
	ck_assert_int_eq(run.nfindings, 1);
	ck_assert_str_eq(run.findings[0].code, "pair-slow");
	ck_assert_msg(strstr(run.findings[0].summary, "rank 2 on vm, GPU 2 "
			     "(PCI 0000:00:08.0, GPU-71b57d49-87ec-471e-ef83-"
			     "3744c1790002)") != NULL,
		      "%s", run.findings[0].summary);
	ck_assert(strstr(run.findings[0].summary,
			 "CUDA_DEVICE_ORDER=PCI_BUS_ID "
			 "CUDA_VISIBLE_DEVICES=0,1,3 there") != NULL);
	ck_assert(strstr(run.findings[0].summary, "/dev/nvidia2") != NULL);
	ck_assert(strstr(run.findings[0].summary, "--exclude") == NULL);
	/* with the NVLink bound known, the share of it is evidence too */
	run4(&run, &o, g, bw, alone);
	run.bound_gbps = 450;
	snprintf(run.bound_how, sizeof(run.bound_how), "NVLink 4: 18 links");
	nc_run_pair_verdict(&run);
	ck_assert_msg(strstr(run.findings[0].summary, "against 240.0 for its "
			     "class, 16 % of the 450 GB/s bound)") != NULL,
		      "%s", run.findings[0].summary);
	ck_assert_uint_lt(strlen(run.findings[0].summary), 500);
	/* the healthy host: two pairs at 154 among 237 in the rounds,
	 * 265 alone: nothing */
	fill(bw, 4, 237);
	bw[0 * 4 + 2] = bw[1 * 4 + 3] = 154;
	memset(alone, 0, sizeof(alone));
	alone[0 * 4 + 2] = alone[1 * 4 + 3] = 265;
	run4(&run, &o, g, bw, alone);
	nc_run_pair_verdict(&run);
	ck_assert_int_eq(run.nfindings, 0);
	/* a link within the host: both ends named, the node stays */
	fill(bw, 4, 270);
	bw[1 * 4 + 3] = 90;
	memset(alone, 0, sizeof(alone));
	alone[1 * 4 + 3] = 92;
	run4(&run, &o, g, bw, alone);
	nc_run_pair_verdict(&run);
	ck_assert_int_eq(run.nfindings, 1);
	ck_assert(strstr(run.findings[0].summary, "link: rank 1 on vm, GPU 1")
		  != NULL);
	ck_assert(strstr(run.findings[0].summary, "rank 3 on vm, GPU 3") !=
		  NULL);
	ck_assert(strstr(run.findings[0].summary, "--exclude") == NULL);
}
END_TEST

START_TEST(exit_status_agrees_with_gate)
{
	struct nc_run run;
	struct nc_opts o;
	struct nc_gpuinfo g[4];
	double bw[16], alone[16];

	/* a slow GPU: the gate fails with it, exit 1 */
	fill(bw, 4, 240);
	set_rank(bw, 4, 2, 74);
	memcpy(alone, bw, sizeof(bw));
	run4(&run, &o, g, bw, alone);
	nc_run_pair_verdict(&run);
	nc_run_verdict(&run);
	ck_assert(!run.gate.passed);
	ck_assert_str_eq(run.gate.v[run.gate.n - 1].name, "no-faults");
	ck_assert_str_eq(run.gate.v[run.gate.n - 1].detail,
			 "1 fault found: pair-slow");
	ck_assert_int_eq(nc_run_status(&run, true, true), 1);
	/* a warning alone (a PCIe link below its maximum): printed, passes */
	fill(bw, 4, 240);
	run4(&run, &o, g, bw, NULL);
	nc_run_finding(&run, FINDING_PCIE_LINK_DEGRADED, -1, "rank 1: Gen4");
	nc_run_verdict(&run);
	ck_assert(run.gate.passed);
	ck_assert_int_eq(nc_run_status(&run, true, true), 0);
	ck_assert_int_eq(nc_run_faults(&run), 0);
	/* a fault that came with its own severity counts as one */
	nc_run_finding(&run, FINDING_PCIE_LINK_DEGRADED, SEV_FAULT, "x");
	ck_assert_int_eq(nc_run_faults(&run), 1);
	ck_assert_int_eq(nc_run_status(&run, true, true), 1);
}
END_TEST

/* Every pair exactly once; a round never holds two pairs of one host. */
static void check_sched(int n, const int *host)
{
	int *p = NULL, rounds = nc_pairs_schedule(n, host, &p);
	int seen[NMAX * NMAX] = { 0 };

	ck_assert_int_ge(rounds, 1);
	for (int r = 0; r < rounds; r++) {
		int within[NMAX] = { 0 };

		for (int i = 0; i < n; i++) {
			int j = p[r * n + i];

			if (j < 0)
				continue;
			ck_assert_int_eq(p[r * n + j], i);
			if (i < j) {
				seen[i * n + j]++;
				if (host[i] == host[j])
					within[host[i]]++;
			}
		}
		for (int h = 0; h < n; h++)
			ck_assert_int_le(within[h], 1);
	}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			ck_assert_int_eq(seen[i * n + j], 1);
	free(p);
}

START_TEST(schedule_alone_on_host)
{
	int one[4] = { 0, 0, 0, 0 }, two[4] = { 0, 0, 2, 2 };
	int mix[8] = { 0, 0, 0, 3, 3, 5, 5, 5 }, *p = NULL;

	check_sched(4, one);
	check_sched(4, two);
	check_sched(8, mix);
	/* one host of 4: its 6 pairs one at a time */
	ck_assert_int_eq(nc_pairs_schedule(4, one, &p), 6);
	free(p);
	/* two hosts of 2: both NVLink pairs in one round, then 2 rounds of
	 * the 4 pairs across */
	ck_assert_int_eq(nc_pairs_schedule(4, two, &p), 3);
	free(p);
}
END_TEST

Suite *suite_nc_pairs(void)
{
	Suite *s = suite_create("nc_pairs");
	TCase *t = tcase_create("pairs");

	tcase_add_test(t, same_class_disjoint_reference);
	tcase_add_test(t, same_class_never_nvlink_against_nic);
	tcase_add_test(t, confirmation_alone);
	tcase_add_test(t, granularity_gpu_not_node);
	tcase_add_test(t, granularity_node);
	tcase_add_test(t, advice_words);
	tcase_add_test(t, exit_status_agrees_with_gate);
	tcase_add_test(t, schedule_alone_on_host);
	suite_add_tcase(s, t);
	return s;
}
