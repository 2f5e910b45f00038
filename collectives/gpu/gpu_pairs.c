/* --pairs: the send/recv bandwidth of every pair of ranks, measured as
 * nccl-tests' sendrecv_perf measures a pair (both ways at once, warm-up
 * first, 20 or more exchanges back to back, the time of the two ranks
 * averaged), then every pair that reads slow measured again alone.
 *
 * Each pair runs on a communicator of its own two ranks, as
 * sendrecv_perf's does (struct pcomm says why). The rounds
 * (nc_pairs_schedule): every pair within a host alone on its host, then
 * the pairs across hosts in the circle schedule's rounds. Each timed
 * trial is an all_reduce of the pair, then the exchanges on the same
 * stream, between two CUDA events: the GPUs start together when the
 * all_reduce ends, and no host wake-up, launch gap or process that the
 * scheduler set aside between the start line and the first exchange is
 * in the figure (that host skew over five exchanges is what made 1 MB
 * pairs read 3 GB/s among 50). Three trials, each rank keeps its median.
 *
 * Then rank 0 decides which pairs look slow against their class and
 * sends them out; each is measured again with nothing else exchanging,
 * and nc_pairs_judge keeps only what reproduces. */
#include "gpu/harness.h"
#include "hw/hw.h"
#include "bootstrap/watchdog.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"

#define PAIR_BYTES (64ULL << 20)
#define PAIR_WARMUP 5
#define PAIR_TRIALS 3
#define PAIR_MIN_ITERS 20   /* nccl-tests' default -n */
#define PAIR_MAX_ITERS 200
#define PAIR_ITER_BYTES (16ULL << 20) /* below, more exchanges a trial */

/* The suspects rank 0 sends out for the pairs alone. */
struct suspects {
	int n;
	int a[NC_PAIR_CONFIRM_MAX], b[NC_PAIR_CONFIRM_MAX];
};

/* Exchanges per trial: nccl-tests' 20 at 16 MB and above; below, enough
 * that a trial lasts about as long as 20 of 16 MB (a fixed start cost is
 * then a small part of it), at most 200. */
static int pair_iters(size_t bytes)
{
	unsigned long long k = bytes > 0 ? PAIR_MIN_ITERS * PAIR_ITER_BYTES /
						   bytes :
					   PAIR_MAX_ITERS;

	if (k < PAIR_MIN_ITERS)
		return PAIR_MIN_ITERS;
	return k > PAIR_MAX_ITERS ? PAIR_MAX_ITERS : (int)k;
}

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

/* Fails the round on a CUDA error. */
static void cuda_ok(struct ctx *c, cudaError_t e, const char *what)
{
	char why[256];

	if (e == cudaSuccess)
		return;
	snprintf(why, sizeof(why), "CUDA: %s", cudaGetErrorString(e));
	nc_fail_step(c, what, why, false);
}

/* A round's pairs, each on a communicator of its two ranks (split from
 * the run's): in the run's communicator of n ranks NCCL gives a peer the
 * channels of its place in its p2p schedule, so on 4 x H200 0-2 and 1-3
 * read 158 GB/s and the others 240, each pair alone, where sendrecv_perf
 * (two ranks) gives 265-270 for every pair. peer: the partner's rank in
 * the pair's communicator, -1 for a device that sits out. */
struct pcomm {
	ncclComm_t comm[MAX_GPUS];
	int peer[MAX_GPUS];
};

/* Splits the run's communicator into the round's pairs (a collective
 * call: every rank joins, those that sit out with no colour). */
static void split_pairs(struct ctx *c, const int *partner, struct pcomm *pc,
			const char *what, long long dl)
{
	ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
	ncclResult_t rc;

	cfg.blocking = 1;
	rc = ncclGroupStart();
	for (int i = 0; i < c->ndev; i++) {
		int r = c->d[i].rank, p = partner[r];

		pc->comm[i] = NULL;
		pc->peer[i] = p < 0 ? -1 : r < p ? 1 : 0;
		if (rc == ncclSuccess) {
			cudaSetDevice(c->d[i].id);
			rc = ncclCommSplit(c->d[i].comm,
					   p < 0 ? NCCL_SPLIT_NOCOLOR :
						   (r < p ? r : p),
					   r, &pc->comm[i], &cfg);
		}
	}
	nccl_ok(c, rc, what, dl);
	nccl_ok(c, ncclGroupEnd(), what, dl);
	for (int i = 0; i < c->ndev; i++)
		if (pc->peer[i] >= 0 && pc->comm[i] == NULL)
			nc_fail_step(c, what, "NCCL gave no communicator for "
				     "the pair", false);
}

/* Releases the pairs' communicators (their work is drained). */
static void free_pairs(struct ctx *c, struct pcomm *pc)
{
	for (int i = 0; i < c->ndev; i++)
		if (pc->comm[i] != NULL) {
			cudaSetDevice(c->d[i].id);
			ncclCommFinalize(pc->comm[i]);
			ncclCommDestroy(pc->comm[i]);
			pc->comm[i] = NULL;
		}
}

/* One exchange with each local device's partner, all in one group. */
static void exchange(struct ctx *c, const struct pcomm *pc, size_t bytes,
		     const char *what, long long dl)
{
	ncclResult_t rc = ncclGroupStart();

	for (int i = 0; i < c->ndev && rc == ncclSuccess; i++) {
		if (pc->peer[i] < 0)
			continue;
		rc = ncclSend(c->d[i].send, bytes, ncclInt8, pc->peer[i],
			      pc->comm[i], c->d[i].s);
		if (rc == ncclSuccess)
			rc = ncclRecv(c->d[i].recv, bytes, ncclInt8,
				      pc->peer[i], pc->comm[i], c->d[i].s);
	}
	nccl_ok(c, rc, what, dl);
	nccl_ok(c, ncclGroupEnd(), what, dl);
}

/* Both ranks of each pair join: the start line, enqueued, not waited
 * for. */
static void start_line(struct ctx *c, const struct pcomm *pc,
		       const char *what, long long dl)
{
	ncclResult_t rc = ncclGroupStart();

	for (int i = 0; i < c->ndev && rc == ncclSuccess; i++)
		if (pc->peer[i] >= 0)
			rc = ncclAllReduce(c->d[i].recv, c->d[i].recv, 1,
					   ncclFloat, ncclSum, pc->comm[i],
					   c->d[i].s);
	nccl_ok(c, rc, what, dl);
	nccl_ok(c, ncclGroupEnd(), what, dl);
}

/* Waits for every device's stream. */
static void drain(struct ctx *c, const char *what, long long dl)
{
	for (int i = 0; i < c->ndev; i++)
		cuda_ok(c, cudaEventRecord(c->d[i].done, c->d[i].s), what);
	nc_wait_done(c, what, dl);
}

/* The median of three. */
static double med3(double a, double b, double x)
{
	if ((a <= b && b <= x) || (x <= b && b <= a))
		return b;
	if ((b <= a && a <= x) || (x <= a && a <= b))
		return a;
	return x;
}

/* One round with the given partners: warm-up, then PAIR_TRIALS timed
 * trials; each local device with a partner gets its median seconds per
 * exchange into out[i * n + partner]. ev: two events per device. */
static void round_of(struct ctx *c, const int *partner, size_t bytes,
		     int iters, cudaEvent_t *ev, double *out,
		     const char *what)
{
	long long dl = mono_now_us() + c->o.timeout_us;
	double s[MAX_GPUS][PAIR_TRIALS];
	int n = c->nranks;
	struct pcomm pc;

	c->step++;
	if (sc_arrive(&c->sc, c->step) < 0)
		nc_fail_step(c, what, c->sc.why, false);
	nc_wd_arm(dl + GRACE_US, what);
	split_pairs(c, partner, &pc, what, dl);
	for (int k = 0; k < PAIR_WARMUP; k++)
		exchange(c, &pc, bytes, what, dl);
	drain(c, what, dl);
	for (int t = 0; t < PAIR_TRIALS; t++) {
		start_line(c, &pc, what, dl);
		for (int i = 0; i < c->ndev; i++)
			cuda_ok(c, cudaEventRecord(ev[2 * i], c->d[i].s), what);
		for (int k = 0; k < iters; k++)
			exchange(c, &pc, bytes, what, dl);
		for (int i = 0; i < c->ndev; i++)
			cuda_ok(c, cudaEventRecord(ev[2 * i + 1], c->d[i].s),
				what);
		drain(c, what, dl);
		for (int i = 0; i < c->ndev; i++) {
			float ms = 0;

			cuda_ok(c, cudaEventElapsedTime(&ms, ev[2 * i],
							ev[2 * i + 1]),
				what);
			s[i][t] = (double)ms / 1e3 / iters;
		}
	}
	for (int i = 0; i < c->ndev; i++) {
		int p = partner[c->d[i].rank];

		if (p >= 0)
			out[(size_t)i * (size_t)n + (size_t)p] =
				med3(s[i][0], s[i][1], s[i][2]);
	}
	free_pairs(c, &pc);
	nc_wd_disarm();
}

/* Gathers every process's seconds to rank 0 as an n x n matrix of GB/s
 * (i<j used): bytes over the mean of the two ranks' seconds, as
 * nccl-tests averages its ranks' times. NULL on the other ranks. */
static double *gather_bw(struct ctx *c, const double *mine, size_t bytes)
{
	int n = c->nranks;
	size_t len = sizeof(double) * (size_t)n * (size_t)c->ndev;
	long long dl = mono_now_us() + c->o.timeout_us;
	double *all = NULL;

	if (c->l.rank == 0 &&
	    (all = calloc((size_t)c->sc.nprocs, len)) == NULL)
		nc_fail_step(c, "pairs", "no memory", false);
	if (sc_gather(&c->sc, mine, len, all, dl) < 0)
		nc_fail_step(c, "pairs", c->sc.why, c->sc.timed_out);
	if (all == NULL)
		return NULL;
	/* all[rank * n + peer]: rank's seconds */
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double a = all[(size_t)i * (size_t)n + (size_t)j];
			double b = all[(size_t)j * (size_t)n + (size_t)i];
			double t = a > 0 && b > 0 ? (a + b) / 2 : a + b;

			if (i < j)
				all[(size_t)i * (size_t)n + (size_t)j] =
					t > 0 ? (double)bytes / t / 1e9 : 0;
		}
	for (int i = 0; i < n; i++)
		for (int j = 0; j <= i; j++)
			all[(size_t)i * (size_t)n + (size_t)j] = 0;
	return all;
}

/* Rank 0: the pairs the screening calls slow, in rank order, at most
 * NC_PAIR_CONFIRM_MAX (more than that is no longer a few bad parts: the
 * rest stay unconfirmed and cannot stand). */
static void pick_suspects(struct ctx *c, const double *bw, struct suspects *x)
{
	int n = c->nranks, common;
	bool *slow = calloc((size_t)n * (size_t)n, sizeof(bool));
	int *hid = nc_run_host_ids(&c->run);

	x->n = 0;
	if (slow != NULL)
		nc_pairs_decide(bw, hid, n, NC_SLOW_TOL, slow, &common);
	for (int i = 0; slow != NULL && i < n; i++)
		for (int j = i + 1; j < n && x->n < NC_PAIR_CONFIRM_MAX; j++)
			if (slow[i * n + j]) {
				x->a[x->n] = i;
				x->b[x->n] = j;
				x->n++;
			}
	free(slow);
	free(hid);
}

/* Every rank's host as an id (the first rank on it), on every process:
 * the schedule keeps pairs within one host alone on it. */
static int *host_ids(struct ctx *c)
{
	int np = c->sc.nprocs, n = c->nranks;
	char (*names)[64] = calloc((size_t)np, sizeof(*names)), me[64];
	int *id = malloc(sizeof(int) * (size_t)n);
	long long dl = mono_now_us() + c->o.timeout_us;

	memset(me, 0, sizeof(me));
	if (names == NULL || id == NULL)
		nc_fail_step(c, "pairs", "no memory", false);
	gethostname(me, sizeof(me) - 1);
	if (sc_gather(&c->sc, me, sizeof(me), names, dl) < 0 ||
	    sc_bcast(&c->sc, names, sizeof(*names) * (size_t)np, dl) < 0)
		nc_fail_step(c, "pairs", c->sc.why, c->sc.timed_out);
	for (int r = 0; r < n; r++) {
		id[r] = r;
		for (int q = 0; q < r; q++)
			if (strcmp(names[q / c->ndev], names[r / c->ndev]) == 0) {
				id[r] = id[q];
				break;
			}
	}
	free(names);
	return id;
}

/* The screening, the pairs alone, then rank 0 keeps both matrices and
 * decides. */
void nc_pairs_run(struct ctx *c)
{
	int n = c->nranks, rounds, iters, *hid = host_ids(c), *sched = NULL;
	size_t bytes = c->bufbytes > 256 ? c->bufbytes - 256 : 0;
	size_t cells = (size_t)n * (size_t)c->ndev;
	int *partner = malloc(sizeof(int) * (size_t)n);
	double *mine = calloc(cells, sizeof(double));
	double *mine2 = calloc(cells, sizeof(double)), *bw, *alone;
	cudaEvent_t ev[2 * MAX_GPUS];
	struct suspects x;
	long long t_start = mono_now_us();
	char what[64];

	if (bytes > PAIR_BYTES)
		bytes = PAIR_BYTES;
	iters = pair_iters(bytes);
	if (partner == NULL || mine == NULL || mine2 == NULL)
		nc_fail_step(c, "pairs", "no memory", false);
	for (int i = 0; i < c->ndev; i++) {
		cuda_ok(c, cudaSetDevice(c->d[i].id), "pairs");
		cuda_ok(c, cudaEventCreate(&ev[2 * i]), "pairs");
		cuda_ok(c, cudaEventCreate(&ev[2 * i + 1]), "pairs");
	}
	if ((rounds = nc_pairs_schedule(n, hid, &sched)) < 0)
		nc_fail_step(c, "pairs", "no memory", false);
	for (int r = 0; r < rounds; r++) {
		snprintf(what, sizeof(what), "pairs round %d of %d", r + 1,
			 rounds);
		round_of(c, sched + (size_t)r * (size_t)n, bytes, iters, ev,
			 mine, what);
	}
	free(sched);
	free(hid);
	bw = gather_bw(c, mine, bytes);
	memset(&x, 0, sizeof(x));
	if (bw != NULL)
		pick_suspects(c, bw, &x);
	{
		long long dl = mono_now_us() + c->o.timeout_us;

		if (sc_bcast(&c->sc, &x, sizeof(x), dl) < 0)
			nc_fail_step(c, "pairs", c->sc.why, c->sc.timed_out);
	}
	if (x.n < 0 || x.n > NC_PAIR_CONFIRM_MAX)
		nc_fail_step(c, "pairs", "a bad list of pairs to measure "
			     "again", false);
	for (int k = 0; k < x.n; k++) {
		snprintf(what, sizeof(what), "pairs alone %d of %d", k + 1,
			 x.n);
		for (int i = 0; i < n; i++)
			partner[i] = -1;
		if (x.a[k] < 0 || x.a[k] >= n || x.b[k] < 0 || x.b[k] >= n)
			nc_fail_step(c, what, "a pair out of range", false);
		partner[x.a[k]] = x.b[k];
		partner[x.b[k]] = x.a[k];
		round_of(c, partner, bytes, iters, ev, mine2, what);
	}
	alone = gather_bw(c, mine2, bytes);
	for (int i = 0; i < c->ndev; i++) {
		cudaEventDestroy(ev[2 * i]);
		cudaEventDestroy(ev[2 * i + 1]);
	}
	free(partner);
	free(mine);
	free(mine2);
	if (c->l.rank != 0)
		return;
	c->run.pair_bw = bw;
	c->run.pair_alone = alone;
	c->run.pair_bytes = bytes;
	c->run.pair_iters = iters;
	c->run.pair_trials = PAIR_TRIALS;
	c->run.pair_nalone = x.n;
	c->run.pair_rounds = rounds;
	c->run.pair_s = (double)(mono_now_us() - t_start) / 1e6;
	nc_run_pair_verdict(&c->run);
}
