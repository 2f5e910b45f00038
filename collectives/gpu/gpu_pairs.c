/* --pairs: the send/recv bandwidth of every pair of ranks, in n-1 rounds
 * of disjoint pairs (hw.h's round-robin schedule; odd n gives one rank a
 * bye each round), so that every pair is timed alone on its own links
 * and the whole takes n-1 rounds, not n(n-1)/2. Each round starts with a
 * small all_reduce that every rank joins, so the pairs start together;
 * the bandwidth is the bytes one way over the host time of the timed
 * exchanges (both ways at once, as a ring step does). */
#include "gpu/harness.h"
#include "hw/hw.h"
#include "bootstrap/watchdog.h"

#include <stdlib.h>
#include <string.h>

#define PAIR_BYTES (64ULL << 20)
#define PAIR_ITERS 5

/* Fails the round on an NCCL error; waits out a non-blocking group. */
static void nccl_ok(struct ctx *c, ncclResult_t rc, const char *what,
		    long long dl)
{
	char why[512];

	if (rc == ncclSuccess)
		return;
	if (rc == ncclInProgress) {
		nc_wait_comms(c, what, dl);
		return;
	}
	snprintf(why, sizeof(why), "NCCL refused the call: %s (%s)",
		 ncclGetErrorString(rc), ncclGetLastError(c->d[0].comm));
	nc_fail_step(c, what, why, false);
}

/* One exchange with each local device's partner, all in one group. */
static void exchange(struct ctx *c, const int *partner, size_t bytes,
		     const char *what, long long dl)
{
	ncclResult_t rc = ncclGroupStart();

	for (int i = 0; i < c->ndev && rc == ncclSuccess; i++) {
		int p = partner[c->d[i].rank];

		if (p < 0)
			continue;
		rc = ncclSend(c->d[i].send, bytes, ncclInt8, p, c->d[i].comm,
			      c->d[i].s);
		if (rc == ncclSuccess)
			rc = ncclRecv(c->d[i].recv, bytes, ncclInt8, p,
				      c->d[i].comm, c->d[i].s);
	}
	nccl_ok(c, rc, what, dl);
	nccl_ok(c, ncclGroupEnd(), what, dl);
}

/* Every rank joins: the round's start line. */
static void line_up(struct ctx *c, const char *what, long long dl)
{
	ncclResult_t rc = c->ndev > 1 ? ncclGroupStart() : ncclSuccess;

	for (int i = 0; i < c->ndev && rc == ncclSuccess; i++)
		rc = ncclAllReduce(c->d[i].recv, c->d[i].recv, 1, ncclFloat,
				   ncclSum, c->d[i].comm, c->d[i].s);
	nccl_ok(c, rc, what, dl);
	if (c->ndev > 1)
		nccl_ok(c, ncclGroupEnd(), what, dl);
	for (int i = 0; i < c->ndev; i++)
		cudaEventRecord(c->d[i].done, c->d[i].s);
	nc_wait_done(c, what, dl);
}

/* The rounds, then rank 0 builds the matrix (the slower of the two
 * directions' views of each pair) and decides. */
void nc_pairs_run(struct ctx *c)
{
	int n = c->nranks, rounds = nc_pair_rounds(n);
	size_t bytes = c->bufbytes > 256 ? c->bufbytes - 256 : 0;
	size_t len = sizeof(double) * (size_t)n * (size_t)c->ndev;
	int *partner = malloc(sizeof(int) * (size_t)n);
	double *mine = calloc(1, len), *all = NULL;
	long long t_start = sc_now_us();

	if (bytes > PAIR_BYTES)
		bytes = PAIR_BYTES;
	if (partner == NULL || mine == NULL)
		nc_fail_step(c, "pairs", "no memory", false);
	for (int r = 0; r < rounds; r++) {
		long long dl = sc_now_us() + c->o.timeout_us, t0;
		char what[64];
		double t;

		snprintf(what, sizeof(what), "pairs round %d of %d", r + 1,
			 rounds);
		c->step++;
		if (sc_arrive(&c->sc, c->step) < 0)
			nc_fail_step(c, what, c->sc.why, false);
		nc_wd_arm(dl + GRACE_US, what);
		nc_pair_round(n, r, partner);
		exchange(c, partner, bytes, what, dl); /* warm-up */
		line_up(c, what, dl);
		t0 = sc_now_us();
		for (int k = 0; k < PAIR_ITERS; k++)
			exchange(c, partner, bytes, what, dl);
		for (int i = 0; i < c->ndev; i++)
			cudaEventRecord(c->d[i].done, c->d[i].s);
		nc_wait_done(c, what, dl);
		t = (double)(sc_now_us() - t0);
		for (int i = 0; i < c->ndev; i++) {
			int p = partner[c->d[i].rank];

			if (p >= 0 && t > 0)
				mine[(size_t)i * (size_t)n + (size_t)p] =
					(double)bytes * PAIR_ITERS / (t * 1e3);
		}
		nc_wd_disarm();
	}
	{
		long long dl = sc_now_us() + c->o.timeout_us;

		if (c->l.rank == 0 &&
		    (all = calloc((size_t)c->sc.nprocs, len)) == NULL)
			nc_fail_step(c, "pairs", "no memory", false);
		if (sc_gather(&c->sc, mine, len, all, dl) < 0)
			nc_fail_step(c, "pairs", c->sc.why, c->sc.timed_out);
	}
	free(partner);
	free(mine);
	if (c->l.rank != 0)
		return;
	/* all[rank * n + peer]: rank's view; keep the slower view */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			double a = all[(size_t)i * (size_t)n + (size_t)j];
			double b = all[(size_t)j * (size_t)n + (size_t)i];

			all[(size_t)i * (size_t)n + (size_t)j] =
				a > 0 && b > 0 ? (a < b ? a : b) : a + b;
		}
	c->run.pair_bw = all;
	c->run.pair_bytes = bytes;
	c->run.pair_s = (double)(sc_now_us() - t_start) / 1e6;
	nc_run_pair_verdict(&c->run);
}
