/* ncclcheck: NCCL collectives that measure like nccl-tests and never hang.
 * This file is the GPU side of the harness: launch, pre-flight, NCCL
 * communicators, the sweep with its timing and checks, and the exits. */
#include "bootstrap.h"
#include "coll.h"
#include "doc.h"
#include "iface.h"
#include "kernels.h"
#include "launch.h"
#include "nccl_select.h"
#include "nccllog.h"
#include "output.h"
#include "parse.h"
#include "preflight.h"
#include "watchdog.h"

#include <cuda_runtime.h>
#include <errno.h>
#include <nccl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#ifdef NC_HAVE_MPI
#include <mpi.h>
#define HAVE_MPI true
#else
#define HAVE_MPI false
#endif

#define GRACE_US 3000000LL /* after a deadline: describe, abort, exit */
#define MAX_GPUS 64

struct dev {
	int id, rank;
	cudaStream_t s;
	ncclComm_t comm;   /* non-blocking: init, errors, abort */
	ncclComm_t fast;   /* blocking split of comm for the sweep, or NULL */
	void *send, *recv;
	unsigned long long *wrong;
	cudaEvent_t e0, e1, done;
};

/* The whole state of one process's run. */
struct ctx {
	struct nc_opts o;
	struct nc_launch l;
	struct nc_run run;
	struct sc sc;
	struct dev d[MAX_GPUS];
	int ndev, nranks;
	size_t bufbytes;
	uint32_t step;
	char prefix[160];   /* "ncclcheck: rank 2 on gpu-b" */
	char debug_file[300];
	bool own_debug;
	bool comms_ready;
	bool tty;
	int corrupt_rank;   /* NCCLCHECK_TEST_CORRUPT: -1 off */
	int kill_rank;      /* NCCLCHECK_TEST_KILL rank:bytes */
	unsigned long long kill_bytes;
	int stall_rank;     /* NCCLCHECK_TEST_STALL rank:step */
	unsigned stall_step;
};

static void say(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One error line on stderr with the rank prefix (house style). */
static void say(struct ctx *c, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", c->prefix, buf);
}

/* Reads "A:B" test-hook variables; returns false when unset. */
static bool hook(const char *name, long long *a, unsigned long long *b)
{
	const char *s = getenv(name), *colon;
	char *end;

	if (s == NULL || *s == '\0')
		return false;
	*a = strtoll(s, &end, 10);
	*b = 0;
	colon = strchr(s, ':');
	if (colon != NULL)
		*b = strtoull(colon + 1, &end, 10);
	return true;
}

/* Writes the outputs (rank 0) and returns the exit status. */
static int finish(struct ctx *c, bool ran)
{
	struct nc_run *run = &c->run;
	struct doc d = { 0 };
	int rc;

	if (c->l.rank != 0)
		return ran && run->nfindings == 0 && run->nerrors == 0 ? 0 :
		       run->nerrors > 0 && !ran ? 2 : 1;
	if (ran) {
		nc_gate_eval(&c->o, &run->res, c->nranks,
			     false, &run->gate);
		run->gate_ran = true;
		for (size_t i = 0; i < run->res.n; i++)
			if (run->res.v[i].wrong > 0) {
				nc_run_finding(run, "wrong-results", -1,
					       "%s %s %s %llu B %s: %lld wrong "
					       "elements",
					       nc_coll_get(run->res.v[i].coll)->name,
					       nc_dtype_name(run->res.v[i].dtype),
					       nc_op_name(run->res.v[i].op),
					       run->res.v[i].bytes,
					       run->res.v[i].in_place ?
						       "in-place" : "out-of-place",
					       run->res.v[i].wrong);
				break;
			}
		for (int i = 0; i < run->gate.n; i++)
			if (!run->gate.v[i].passed &&
			    (strncmp(run->gate.v[i].name, "min-busbw", 9) == 0 ||
			     strncmp(run->gate.v[i].name, "max-latency", 11) == 0))
				nc_run_finding(run, "busbw-below-threshold", -1,
					       "%s: %s", run->gate.v[i].name,
					       run->gate.v[i].detail);
	}
	if (!c->o.quiet && (ran || run->nfindings > 0 || run->nerrors > 0))
		nc_summary(stdout, run);
	if (c->o.json_path != NULL) {
		if (nc_build_doc(&d, run) < 0 ||
		    doc_write_file(&d, c->o.json_path) < 0)
			say(c, "cannot write '%s'", c->o.json_path);
		doc_free(&d);
	}
	if (c->o.csv_path != NULL) {
		FILE *fp = fopen(c->o.csv_path, "w");

		if (fp == NULL || nc_write_csv(fp, run) < 0)
			say(c, "cannot write '%s'", c->o.csv_path);
		if (fp != NULL)
			fclose(fp);
	}
	if (c->o.junit_path != NULL) {
		FILE *fp = fopen(c->o.junit_path, "w");

		if (fp == NULL || nc_write_junit(fp, run) < 0)
			say(c, "cannot write '%s'", c->o.junit_path);
		if (fp != NULL)
			fclose(fp);
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		return 2;
	if (!ran)
		rc = run->nfindings > 0 ? 1 : 2;
	else
		rc = run->nfindings > 0 || !run->gate.passed ? 1 : 0;
	return rc;
}

/* The communicator the sweep runs on: the blocking split when there is
 * one (enqueues return at once, as in nccl-tests), else the non-blocking
 * one (every call then waits for NCCL's asynchronous launch). */
static ncclComm_t run_comm(const struct dev *d)
{
	return d->fast != NULL ? d->fast : d->comm;
}

/* Aborts the communicators (bounded by the watchdog). */
static void abort_comms(struct ctx *c)
{
	if (!c->comms_ready)
		return;
	nc_wd_arm(sc_now_us() + 10000000, "ncclCommAbort");
	for (int i = 0; i < c->ndev; i++) {
		if (c->d[i].fast != NULL)
			ncclCommAbort(c->d[i].fast);
		if (c->d[i].comm != NULL)
			ncclCommAbort(c->d[i].comm);
	}
	c->comms_ready = false;
	nc_wd_disarm();
}

/* A step failed (timeout, lost peer, NCCL or CUDA error): names the step
 * and who had arrived, tells the others, aborts NCCL, writes what rank 0
 * knows, and exits 1 (never returns). A timeout or a lost rank is the
 * finding collective-timeout; an error NCCL or CUDA returned is recorded
 * as an error of the run ("nccl-error"). */
static void fail_step(struct ctx *c, const char *what, const char *reason,
		      bool timed_out)
{
	char table[768], msg[1400];
	long long dl = sc_now_us() + GRACE_US;
	bool peer = reason == c->sc.why || c->sc.from_peer;
	const char *label = timed_out || peer ? "collective-timeout" :
						"nccl-error";

	nc_wd_arm(dl + 5000000, "reporting a failed step");
	if (c->sc.from_peer) {
		/* another rank stopped us; its message names step and table */
		snprintf(msg, sizeof(msg), "%s", reason);
	} else {
		sc_describe(&c->sc, c->step, dl, table, sizeof(table));
		snprintf(msg, sizeof(msg), "%s: %s; %s", what, reason, table);
		sc_abort(&c->sc, msg);
	}
	say(c, "%s: %s", label, msg);
	abort_comms(c);
	if (c->l.rank == 0) {
		/* let the others fetch the arrival table before going */
		long long until = sc_now_us() + 1500000;

		while (sc_now_us() < until && c->sc.nprocs > 1) {
			sc_poll(&c->sc);
			usleep(20000);
		}
		if (strcmp(label, "collective-timeout") == 0)
			nc_run_finding(&c->run, label, -1, "%s", msg);
		else
			nc_run_error(&c->run, "nccl", "%s", msg);
		finish(c, false);
	}
	fflush(stdout);
	fflush(stderr);
	_exit(1);
}

/* Waits for every device's `done` event, polling NCCL's async errors and
 * the side channel, until the deadline. Fails the step otherwise. */
static void wait_done(struct ctx *c, const char *what, long long deadline)
{
	for (unsigned long spins = 0;; spins++) {
		int ready = 0;
		char why[512];

		for (int i = 0; i < c->ndev; i++) {
			cudaError_t e = cudaEventQuery(c->d[i].done);
			ncclResult_t ar = ncclSuccess;

			if (e == cudaSuccess)
				ready++;
			else if (e != cudaErrorNotReady) {
				snprintf(why, sizeof(why), "CUDA error on GPU "
					 "%d: %s", c->d[i].id,
					 cudaGetErrorString(e));
				fail_step(c, what, why, false);
			}
			if (c->comms_ready &&
			    ncclCommGetAsyncError(run_comm(&c->d[i]), &ar) ==
				    ncclSuccess &&
			    ar != ncclSuccess && ar != ncclInProgress) {
				snprintf(why, sizeof(why), "NCCL error on rank "
					 "%d: %s (%s)", c->d[i].rank,
					 ncclGetErrorString(ar),
					 ncclGetLastError(run_comm(&c->d[i])));
				fail_step(c, what, why, false);
			}
		}
		if (ready == c->ndev)
			return;
		if ((spins & 63) == 0 && sc_poll(&c->sc) < 0)
			fail_step(c, what, c->sc.why, false);
		if (sc_now_us() > deadline) {
			char t[64];

			snprintf(why, sizeof(why), "did not complete within %s",
				 fmt_duration(c->o.timeout_us, t, sizeof(t)));
			fail_step(c, what, why, true);
		}
		if (spins > 1000)
			usleep(spins > 100000 ? 1000 : 20);
	}
}

/* Waits until no communicator reports ncclInProgress (init, group end on
 * non-blocking communicators). */
static void wait_comms(struct ctx *c, const char *what, long long deadline)
{
	long long t0 = sc_now_us();

	for (unsigned long spins = 0;; spins++) {
		int busy = 0;

		for (int k = 0; k < 2 * c->ndev; k++) {
			ncclComm_t cm = k < c->ndev ? c->d[k].comm :
						      c->d[k - c->ndev].fast;
			ncclResult_t ar = ncclSuccess;

			if (cm == NULL)
				continue;
			ncclCommGetAsyncError(cm, &ar);
			if (ar == ncclInProgress) {
				busy++;
			} else if (ar != ncclSuccess) {
				char why[512];

				snprintf(why, sizeof(why), "NCCL error: %s (%s)",
					 ncclGetErrorString(ar),
					 ncclGetLastError(cm));
				c->comms_ready = true;
				fail_step(c, what, why, false);
			}
		}
		if (busy == 0)
			return;
		if ((spins & 255) == 0 && sc_poll(&c->sc) < 0) {
			c->comms_ready = true;
			fail_step(c, what, c->sc.why, false);
		}
		if (sc_now_us() > deadline) {
			char why[128], t[64];

			snprintf(why, sizeof(why), "did not complete within %s",
				 fmt_duration(c->o.timeout_us, t, sizeof(t)));
			c->comms_ready = true;
			fail_step(c, what, why, true);
		}
		/* spin first: a launch is handed to NCCL's thread and is back
		 * in microseconds; sleep only when it is really slow (init) */
		if (sc_now_us() - t0 > 20000)
			usleep(200);
	}
}

/* The count NCCL is given for a size (elements). */
static size_t param_count(int coll, size_t sc, size_t rc, int n)
{
	switch (coll) {
	case NC_REDUCE_SCATTER:
		return rc;
	case NC_ALLTOALL:
		return sc / n;
	default:
		return sc;
	}
}

struct step {
	int coll, dtype, op, root, vmax;
	bool in_place;
	size_t count, sc, rc, soff, roff; /* elements */
	char what[160];
};

/* Pointers of device i for this step. */
static void bufs(struct ctx *c, const struct step *st, int i, void **send,
		 void **recv)
{
	size_t ts = nc_dtype_size(st->dtype);
	size_t so, ro, s, r;

	nc_coll_get(st->coll)->counts(st->count, c->nranks, c->d[i].rank, &s,
				      &r, &so, &ro);
	*send = st->in_place ? (char *)c->d[i].recv + so * ts : c->d[i].send;
	*recv = st->in_place ? (char *)c->d[i].recv + ro * ts : c->d[i].recv;
}

/* Enqueues one collective on every local device (a group when several). */
static void enqueue(struct ctx *c, const struct step *st, long long dl)
{
	const struct nc_coll_desc *cd = nc_coll_get(st->coll);
	ncclResult_t rc = ncclSuccess, rg = ncclSuccess;

	if (c->ndev > 1)
		rc = ncclGroupStart();
	for (int i = 0; i < c->ndev && rc == ncclSuccess; i++) {
		struct nc_call call = {
			.count = param_count(st->coll, st->sc, st->rc,
					     c->nranks),
			.dtype = st->dtype, .op = st->op, .root = st->root,
			.rank = c->d[i].rank, .nranks = c->nranks,
			.comm = run_comm(&c->d[i]), .stream = c->d[i].s,
		};
		void *s, *r;

		bufs(c, st, i, &s, &r);
		call.send = s;
		call.recv = r;
		rc = cd->launch(&call);
	}
	if (c->ndev > 1)
		rg = ncclGroupEnd();
	if (rc == ncclInProgress || rg == ncclInProgress) {
		wait_comms(c, st->what, dl);
		return;
	}
	if (rc != ncclSuccess || rg != ncclSuccess) {
		char why[512];

		snprintf(why, sizeof(why), "NCCL refused the call: %s (%s)",
			 ncclGetErrorString(rc != ncclSuccess ? rc : rg),
			 ncclGetLastError(run_comm(&c->d[0])));
		fail_step(c, st->what, why, false);
	}
}

/* Records `done` on every stream. */
static void mark_done(struct ctx *c)
{
	for (int i = 0; i < c->ndev; i++)
		cudaEventRecord(c->d[i].done, c->d[i].s);
}

/* Fills the inputs of every device for this step (poisoning outputs). */
static void init_data(struct ctx *c, const struct step *st)
{
	size_t ts = nc_dtype_size(st->dtype);

	for (int i = 0; i < c->ndev; i++) {
		void *s, *r;
		int op = nc_coll_get(st->coll)->reduces ? st->op : NC_SUM;

		cudaSetDevice(c->d[i].id);
		bufs(c, st, i, &s, &r);
		cudaMemsetAsync(c->d[i].recv, 0xa5, st->rc * ts > st->sc * ts ?
					  st->rc * ts : st->sc * ts, c->d[i].s);
		nc_dev_init(s, st->sc, st->dtype, op, c->d[i].rank, st->vmax,
			    0, c->d[i].s);
	}
}

/* Enqueues the check of every device's output; counts land in wrong. */
static void check_data(struct ctx *c, const struct step *st, bool corrupt)
{
	for (int i = 0; i < c->ndev; i++) {
		int r = c->d[i].rank, n = c->nranks;
		struct nc_expect e = {
			.dtype = st->dtype, .nranks = n, .vmax = st->vmax,
			.op = nc_coll_get(st->coll)->reduces ? st->op : NC_SUM,
			.tol = nc_tolerance(st->dtype, st->op, n),
		};
		void *s, *out;
		size_t cnt = st->rc;

		cudaSetDevice(c->d[i].id);
		bufs(c, st, i, &s, &out);
		switch (st->coll) {
		case NC_ALL_REDUCE:
			e.kind = NC_EXPECT_REDUCE;
			break;
		case NC_REDUCE_SCATTER:
			e.kind = NC_EXPECT_REDUCE;
			e.base = (unsigned long long)r * st->rc;
			break;
		case NC_REDUCE:
			if (r != st->root)
				continue;
			e.kind = NC_EXPECT_REDUCE;
			break;
		case NC_ALL_GATHER:
			e.kind = NC_EXPECT_COPY;
			e.chunk = st->sc;
			break;
		case NC_ALLTOALL:
			e.kind = NC_EXPECT_COPY;
			e.chunk = st->sc / n;
			e.idx_base = (unsigned long long)r * (st->sc / n);
			break;
		case NC_BROADCAST:
			e.kind = NC_EXPECT_COPY;
			e.src0 = st->root;
			break;
		default: /* sendrecv */
			e.kind = NC_EXPECT_COPY;
			e.src0 = (r - 1 + n) % n;
			break;
		}
		if (!nc_coll_get(st->coll)->reduces)
			e.tol = 0;
		if (corrupt && r == c->corrupt_rank && cnt > 0)
			nc_dev_corrupt(out, cnt / 2, st->dtype, c->d[i].s);
		nc_dev_check(out, cnt, &e, c->d[i].wrong, c->d[i].s);
	}
}

/* Runs one step (one size, one placement) and returns its result. */
static void run_step(struct ctx *c, struct step *st, struct nc_result *res)
{
	long long dl = sc_now_us() + c->o.timeout_us;
	struct {
		double t_us, est_us;
		long long wrong;
	} mine = { 0, 0, 0 }, *all;
	unsigned long long wrong = 0;
	int iters = c->o.iters;
	float ms;

	c->step++;
	if (c->stall_rank == c->l.rank && c->stall_step == c->step) {
		/* test only: a rank that hangs before it arrives */
		say(c, "test: stalling at step %u (NCCLCHECK_TEST_STALL)",
		    c->step);
		nc_wd_arm(dl + GRACE_US, st->what);
		for (;;)
			pause();
	}
	if (sc_arrive(&c->sc, c->step) < 0)
		fail_step(c, st->what, c->sc.why, false);
	nc_wd_arm(dl + GRACE_US, st->what);
	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		cudaMemsetAsync(c->d[i].wrong, 0, sizeof(unsigned long long),
				c->d[i].s);
	}
	init_data(c, st);
	for (int w = 0; w < c->o.warmup; w++)
		enqueue(c, st, dl);
	mark_done(c);
	wait_done(c, st->what, dl);
	all = calloc((size_t)c->sc.nprocs, sizeof(*all));
	if (all == NULL)
		fail_step(c, st->what, "no memory", false);
	if (c->o.budget_us > 0) {
		double est = 0;

		for (int i = 0; i < c->ndev; i++)
			cudaEventRecord(c->d[i].e0, c->d[i].s);
		enqueue(c, st, dl);
		for (int i = 0; i < c->ndev; i++)
			cudaEventRecord(c->d[i].e1, c->d[i].s);
		mark_done(c);
		wait_done(c, st->what, dl);
		for (int i = 0; i < c->ndev; i++)
			if (cudaEventElapsedTime(&ms, c->d[i].e0,
						 c->d[i].e1) == cudaSuccess &&
			    ms * 1000.0 > est)
				est = ms * 1000.0;
		mine.est_us = est;
		if (sc_allgather(&c->sc, &mine, sizeof(mine), all, dl) < 0)
			fail_step(c, st->what, c->sc.why, c->sc.timed_out);
		for (int p = 0; p < c->sc.nprocs; p++)
			if (all[p].est_us > est)
				est = all[p].est_us;
		iters = nc_budget_iters(c->o.budget_us, est, c->o.iters);
		/* the exchange left the ranks apart: one untimed collective
		 * lines them up again before the timed loop */
		enqueue(c, st, dl);
	}
	if (!c->o.check_every) {
		double t = 0;

		for (int i = 0; i < c->ndev; i++)
			cudaEventRecord(c->d[i].e0, c->d[i].s);
		for (int it = 0; it < iters; it++)
			enqueue(c, st, dl);
		for (int i = 0; i < c->ndev; i++)
			cudaEventRecord(c->d[i].e1, c->d[i].s);
		if (c->kill_rank == c->l.rank &&
		    c->kill_bytes <= (unsigned long long)res->bytes) {
			say(c, "test: killing myself at %llu B "
			    "(NCCLCHECK_TEST_KILL)", res->bytes);
			fflush(stderr);
			kill(getpid(), SIGKILL);
		}
		mark_done(c);
		wait_done(c, st->what, dl);
		for (int i = 0; i < c->ndev; i++)
			if (cudaEventElapsedTime(&ms, c->d[i].e0,
						 c->d[i].e1) == cudaSuccess &&
			    ms > t)
				t = ms;
		mine.t_us = t * 1000.0 / iters;
	} else {
		double sum = 0;

		for (int it = 0; it < iters; it++) {
			double t = 0;

			init_data(c, st);
			for (int i = 0; i < c->ndev; i++)
				cudaEventRecord(c->d[i].e0, c->d[i].s);
			enqueue(c, st, dl);
			for (int i = 0; i < c->ndev; i++)
				cudaEventRecord(c->d[i].e1, c->d[i].s);
			check_data(c, st, false);
			mark_done(c);
			wait_done(c, st->what, dl);
			for (int i = 0; i < c->ndev; i++)
				if (cudaEventElapsedTime(&ms, c->d[i].e0,
							 c->d[i].e1) ==
					    cudaSuccess &&
				    ms > t)
					t = ms;
			sum += t;
		}
		mine.t_us = sum * 1000.0 / iters;
	}
	if (c->o.check) {
		init_data(c, st);
		enqueue(c, st, dl);
		check_data(c, st, c->corrupt_rank >= 0);
		mark_done(c);
		wait_done(c, st->what, dl);
		for (int i = 0; i < c->ndev; i++) {
			unsigned long long w = 0;

			cudaSetDevice(c->d[i].id);
			if (cudaMemcpy(&w, c->d[i].wrong, sizeof(w),
				       cudaMemcpyDeviceToHost) == cudaSuccess)
				wrong += w;
		}
		mine.wrong = (long long)wrong;
	}
	if (sc_allgather(&c->sc, &mine, sizeof(mine), all, dl) < 0)
		fail_step(c, st->what, c->sc.why, c->sc.timed_out);
	nc_wd_disarm();
	res->time_us = 0;
	res->wrong = c->o.check ? 0 : -1;
	for (int p = 0; p < c->sc.nprocs; p++) {
		if (all[p].t_us > res->time_us)
			res->time_us = all[p].t_us;
		if (c->o.check)
			res->wrong += all[p].wrong;
	}
	res->iters = iters;
	nc_bandwidth(res->coll, res->bytes, res->time_us, c->nranks,
		     &res->algbw_gbps, &res->busbw_gbps);
	free(all);
}

/* The sweep over collectives, types, operators and sizes. */
static void sweep(struct ctx *c)
{
	unsigned long long sizes[NC_MAX_SIZES];
	int ns = nc_sweep_sizes(&c->o, sizes, NC_MAX_SIZES);

	for (int ci = 0; ci < c->o.ncolls; ci++) {
		int coll = c->o.colls[ci];
		const struct nc_coll_desc *cd = nc_coll_get(coll);
		int nops = cd->reduces ? c->o.nops : 1;

		for (int ti = 0; ti < c->o.ndtypes; ti++)
			for (int oi = 0; oi < nops; oi++) {
				int dtype = c->o.dtypes[ti];
				int op = cd->reduces ? c->o.ops[oi] : NC_SUM;

				if (op == NC_AVG && !nc_dtype_is_float(dtype))
					continue;
				if (c->l.rank == 0 && !c->o.quiet)
					nc_table_header(stdout, &c->run, coll,
							dtype, op);
				for (int si = 0; si < ns; si++) {
					struct nc_result r[2];
					int have[2] = { 0, 0 };

					for (int ip = 0; ip < 2; ip++) {
						struct step st = {
							.coll = coll,
							.dtype = dtype,
							.op = op,
							.root = c->o.root %
								c->nranks,
							.in_place = ip,
						};

						if ((ip && c->o.no_inplace) ||
						    (!ip && c->o.no_outofplace) ||
						    (ip && !cd->in_place))
							continue;
						st.count = nc_count_for(
							coll, sizes[si], dtype,
							c->nranks);
						cd->counts(st.count, c->nranks,
							   0, &st.sc, &st.rc,
							   &st.soff, &st.roff);
						st.vmax = nc_value_max(
							dtype,
							cd->reduces ? op :
								      NC_SUM,
							c->nranks);
						memset(&r[ip], 0, sizeof(r[ip]));
						r[ip].coll = coll;
						r[ip].dtype = dtype;
						r[ip].op = op;
						r[ip].root = st.root;
						r[ip].in_place = ip;
						r[ip].count = st.count;
						r[ip].bytes = st.count *
							      nc_dtype_size(dtype);
						snprintf(st.what, sizeof(st.what),
							 "%s %s%s%s %llu B %s",
							 cd->name,
							 nc_dtype_name(dtype),
							 cd->reduces ? " " : "",
							 cd->reduces ?
								 nc_op_name(op) :
								 "",
							 r[ip].bytes,
							 ip ? "in-place" :
							      "out-of-place");
						if (r[ip].bytes == 0)
							continue;
						if (c->tty && c->l.rank == 0)
							fprintf(stderr,
								"\r%-70.70s\r",
								st.what);
						run_step(c, &st, &r[ip]);
						if (c->tty && c->l.rank == 0)
							fprintf(stderr,
								"\r%70s\r", "");
						nc_results_add(&c->run.res,
							       &r[ip]);
						have[ip] = 1;
					}
					if (c->l.rank == 0 && !c->o.quiet &&
					    (have[0] || have[1])) {
						nc_table_row(stdout,
							     have[0] ? &r[0] :
								       NULL,
							     have[1] ? &r[1] :
								       NULL);
						fflush(stdout);
					}
				}
			}
	}
}

/* Fills this process's rank infos (one per local GPU). */
static void local_info(struct ctx *c, struct nc_rankinfo *ri)
{
	struct iface_list il = { 0 };
	struct nccl_env env;
	struct nccl_choice ch;
	struct statvfs sv;
	char host[64] = "unknown";
	int rt = 0, drv = 0, nv = 0;
	long long hr;
	unsigned long long ha;
	const char *adv = getenv("NCCLCHECK_TEST_ADVERTISE");

	gethostname(host, sizeof(host) - 1);
	cudaRuntimeGetVersion(&rt);
	cudaDriverGetVersion(&drv);
	ncclGetVersion(&nv);
	nccl_env_from_process(&env);
	memset(&ch, 0, sizeof(ch));
	if (nc_ifaddrs_list(&il) == 0)
		nccl_select(&il, &env, &ch);
	for (int i = 0; i < c->ndev; i++) {
		struct cudaDeviceProp p;

		memset(&ri[i], 0, sizeof(ri[i]));
		ri[i].rank = c->d[i].rank;
		ri[i].proc = c->l.rank;
		snprintf(ri[i].host, sizeof(ri[i].host), "%s", host);
		if (cudaGetDeviceProperties(&p, c->d[i].id) == cudaSuccess)
			snprintf(ri[i].gpu, sizeof(ri[i].gpu), "%.95s", p.name);
		cudaDeviceGetPCIBusId(ri[i].pci, sizeof(ri[i].pci), c->d[i].id);
		ri[i].cuda_runtime = rt;
		ri[i].driver = drv;
		ri[i].nccl_version = nv;
		snprintf(ri[i].rule, sizeof(ri[i].rule), "%s", ch.rule);
		if (ch.n > 0) {
			snprintf(ri[i].iface, sizeof(ri[i].iface), "%s",
				 ch.v[0].ifc->name);
			snprintf(ri[i].address, sizeof(ri[i].address), "%s",
				 ch.v[0].addr->str);
		}
		if (statvfs("/dev/shm", &sv) == 0)
			ri[i].shm_bytes = (unsigned long long)sv.f_blocks *
					  sv.f_frsize;
	}
	/* test only: this rank advertises an address nobody can reach, as
	 * a rank behind NAT does ("RANK:ADDRESS") */
	if (adv != NULL && hook("NCCLCHECK_TEST_ADVERTISE", &hr, &ha) &&
	    hr == c->l.rank && strchr(adv, ':') != NULL)
		for (int i = 0; i < c->ndev; i++)
			snprintf(ri[i].address, sizeof(ri[i].address), "%s",
				 strchr(adv, ':') + 1);
	iface_list_free(&il);
}

/* Sets NCCL's debug output to a file ncclcheck reads afterwards, unless
 * the user chose their own. */
static void debug_env(struct ctx *c)
{
	char host[64] = "unknown";

	if (getenv("NCCL_DEBUG") != NULL || getenv("NCCL_DEBUG_FILE") != NULL)
		return;
	gethostname(host, sizeof(host) - 1);
	setenv("NCCL_DEBUG", "INFO", 1);
	setenv("NCCL_DEBUG_SUBSYS", "INIT,NET,GRAPH", 1);
	setenv("NCCL_DEBUG_FILE", "/tmp/ncclcheck.%h.%p", 1);
	snprintf(c->debug_file, sizeof(c->debug_file), "/tmp/ncclcheck.%s.%d",
		 host, (int)getpid());
	c->own_debug = true;
}

/* Opens the side channel for the launch mode. Exits 1 or 2 on failure. */
static void open_channel(struct ctx *c, const struct nc_rankinfo *mine)
{
	long long dl = sc_now_us() + c->o.timeout_us;
	int lfd = -1, port = 0;

	(void)mine; /* used by the MPI launch only */
	if (c->l.kind == NC_LAUNCH_SINGLE) {
		sc_hub_open(&c->sc, -1, 1, dl);
		return;
	}
	if (c->l.kind == NC_LAUNCH_MPI) {
#ifdef NC_HAVE_MPI
		char where[320] = "";

		if (c->l.rank == 0) {
			lfd = sc_listen("0.0.0.0", 0, &port);
			snprintf(where, sizeof(where), "%s %d",
				 mine->address[0] ? mine->address : mine->host,
				 lfd >= 0 ? port : 0);
		}
		MPI_Bcast(where, sizeof(where), MPI_CHAR, 0, MPI_COMM_WORLD);
		if (sscanf(where, "%255s %d", c->l.master_addr,
			   &c->l.master_port) != 2 ||
		    c->l.master_port == 0) {
			say(c, "bootstrap: rank 0 could not listen");
			exit(2);
		}
#endif
	} else if (c->l.rank == 0) {
		lfd = sc_listen("0.0.0.0", c->l.master_port, &port);
		if (lfd < 0) {
			say(c, "bootstrap: cannot listen on port %d: %s",
			    c->l.master_port, strerror(errno));
			exit(2);
		}
	}
	nc_wd_arm(dl + GRACE_US, "bootstrap");
	if (c->l.rank == 0) {
		if (sc_hub_open(&c->sc, lfd, c->l.nprocs, dl) < 0) {
			say(c, "%s", c->sc.why);
			nc_run_finding(&c->run, "rank-unreachable", -1, "%s",
				       c->sc.why);
			exit(finish(c, false));
		}
	} else if (sc_client_open(&c->sc, c->l.master_addr, c->l.master_port,
				  c->l.rank, c->l.nprocs, dl) < 0) {
		say(c, "%s", c->sc.why);
		exit(1);
	}
	if (lfd >= 0)
		close(lfd);
	nc_wd_disarm();
}

/* Pre-flight: gathers every rank's info, checks interfaces, versions and
 * reachability. Returns false when NCCL must not start. */
static bool preflight(struct ctx *c)
{
	struct nc_rankinfo mine[MAX_GPUS];
	unsigned char *buf, *allbuf;
	size_t per = (size_t)c->ndev * NC_RANKINFO_WIRE;
	long long dl;
	struct nc_pf_finding f[NC_PF_MAX];
	int nf = 0, lfd = -1, port = 0, np = c->l.nprocs;
	struct nc_rankinfo *byproc;
	char (*hosts)[64];
	bool fatal = false;

	local_info(c, mine);
	if (mine[0].address[0] != '\0' && c->o.preflight && np > 1) {
		lfd = sc_listen(mine[0].address, 0, &port);
		if (lfd < 0) /* an advertised address not on this host */
			lfd = sc_listen("0.0.0.0", 0, &port);
	}
	for (int i = 0; i < c->ndev; i++)
		mine[i].port = port;
	open_channel(c, &mine[0]);
	buf = calloc(1, per);
	allbuf = calloc((size_t)np, per);
	c->run.ranks = calloc((size_t)c->nranks, sizeof(*c->run.ranks));
	byproc = calloc((size_t)np, sizeof(*byproc));
	hosts = calloc((size_t)np, sizeof(*hosts));
	if (buf == NULL || allbuf == NULL || c->run.ranks == NULL ||
	    byproc == NULL || hosts == NULL) {
		say(c, "no memory");
		exit(2);
	}
	for (int i = 0; i < c->ndev; i++)
		nc_rankinfo_pack(&mine[i], buf + (size_t)i * NC_RANKINFO_WIRE);
	dl = sc_now_us() + c->o.timeout_us;
	nc_wd_arm(dl + GRACE_US, "pre-flight exchange");
	if (sc_allgather(&c->sc, buf, per, allbuf, dl) < 0) {
		say(c, "pre-flight: %s", c->sc.why);
		exit(1);
	}
	for (int p = 0; p < np; p++)
		for (int i = 0; i < c->ndev; i++) {
			struct nc_rankinfo ri;

			nc_rankinfo_unpack(allbuf + (size_t)p * per +
						   (size_t)i * NC_RANKINFO_WIRE,
					   &ri);
			if (ri.rank >= 0 && ri.rank < c->nranks)
				c->run.ranks[ri.rank] = ri;
			if (i == 0) {
				byproc[p] = ri;
				snprintf(hosts[p], 64, "%s", ri.host);
			}
		}
	sc_set_hosts(&c->sc, (const char(*)[64])hosts);
	c->run.nhosts = 0;
	for (int p = 0; p < np; p++) {
		bool seen = false;

		for (int q = 0; q < p; q++)
			seen |= strcmp(hosts[p], hosts[q]) == 0;
		c->run.nhosts += !seen;
	}
	nf += nc_decide_ifaces(byproc, np, getenv("NCCL_SOCKET_IFNAME"),
			       f + nf, NC_PF_MAX - nf);
	nf += nc_decide_versions(byproc, np, f + nf, NC_PF_MAX - nf);
	if (c->o.preflight && np > 1) {
		int targets[NC_PREFLIGHT_MAX_TARGETS];
		int nt = nc_preflight_targets(c->l.rank, np, targets,
					      NC_PREFLIGHT_MAX_TARGETS);
		struct nc_pair pr[NC_PREFLIGHT_MAX_TARGETS];
		size_t pper = 4 + NC_PREFLIGHT_MAX_TARGETS * NC_PAIR_WIRE;
		unsigned char *pb = calloc(1, pper), *pall;

		pall = calloc((size_t)np, pper);
		nc_preflight_probe(c->l.rank, byproc, targets, nt, lfd,
				   c->o.preflight_timeout_us, pr);
		pb[3] = (unsigned char)nt;
		for (int i = 0; i < nt; i++)
			nc_pair_pack(&pr[i], pb + 4 + (size_t)i * NC_PAIR_WIRE);
		dl = sc_now_us() + c->o.timeout_us;
		if (pall == NULL ||
		    sc_allgather(&c->sc, pb, pper, pall, dl) < 0) {
			say(c, "pre-flight: %s", c->sc.why);
			exit(1);
		}
		c->run.pairs = calloc((size_t)np * NC_PREFLIGHT_MAX_TARGETS,
				      sizeof(*c->run.pairs));
		for (int p = 0; p < np && c->run.pairs != NULL; p++) {
			unsigned char *q = pall + (size_t)p * pper;

			for (int i = 0; i < q[3]; i++)
				nc_pair_unpack(q + 4 + (size_t)i * NC_PAIR_WIRE,
					       &c->run.pairs[c->run.npairs++]);
		}
		c->run.preflight_ran = true;
		nf += nc_decide_pairs(byproc, np, c->run.pairs, c->run.npairs,
				      f + nf, NC_PF_MAX - nf);
		free(pb);
		free(pall);
	}
	if (lfd >= 0)
		close(lfd);
	nc_wd_disarm();
	for (int i = 0; i < nf; i++) {
		const struct finding_def *fd = finding_lookup(f[i].code);
		int sev = f[i].severity >= 0 ? f[i].severity :
			  fd != NULL ? (int)fd->sev : SEV_FAULT;

		nc_run_finding(&c->run, f[i].code, f[i].severity, "%s",
			       f[i].summary);
		if (sev == SEV_FAULT)
			fatal = true;
		if (c->l.rank == 0)
			say(c, "%s: %s", f[i].code, f[i].summary);
	}
	free(buf);
	free(allbuf);
	free(byproc);
	free(hosts);
	return !fatal;
}

/* Splits a blocking copy of every communicator for the sweep, so that an
 * enqueue returns at once as in nccl-tests; completion is still polled
 * through events with a deadline. Falls back to the non-blocking
 * communicator when the split fails. */
static void split_blocking(struct ctx *c, long long dl)
{
	ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
	ncclResult_t rc = ncclSuccess, rg = ncclSuccess;

	cfg.blocking = 1;
	nc_wd_arm(dl + GRACE_US, "communicator split");
	if (c->ndev > 1)
		rc = ncclGroupStart();
	for (int i = 0; i < c->ndev && rc == ncclSuccess; i++) {
		cudaSetDevice(c->d[i].id);
		rc = ncclCommSplit(c->d[i].comm, 0, c->d[i].rank, &c->d[i].fast,
				   &cfg);
	}
	if (c->ndev > 1)
		rg = ncclGroupEnd();
	if (rc != ncclSuccess && rc != ncclInProgress)
		goto fallback;
	if (rg != ncclSuccess && rg != ncclInProgress)
		goto fallback;
	/* with a non-blocking parent the split finishes on NCCL's thread,
	 * which fills in the new communicator only at the end */
	for (unsigned long spins = 0;; spins++) {
		int ready = 0;

		for (int i = 0; i < c->ndev; i++) {
			ncclComm_t f = *(ncclComm_t volatile *)&c->d[i].fast;
			ncclResult_t ar = ncclSuccess;

			ncclCommGetAsyncError(c->d[i].comm, &ar);
			if (ar != ncclSuccess && ar != ncclInProgress) {
				rc = ar;
				goto fallback;
			}
			if (f == NULL)
				continue;
			ncclCommGetAsyncError(f, &ar);
			if (ar == ncclSuccess)
				ready++;
			else if (ar != ncclInProgress) {
				rc = ar;
				goto fallback;
			}
		}
		if (ready == c->ndev)
			return;
		if ((spins & 255) == 0 && sc_poll(&c->sc) < 0)
			fail_step(c, "communicator split", c->sc.why, false);
		if (sc_now_us() > dl)
			fail_step(c, "communicator split", "did not complete in "
				  "time", true);
		usleep(spins > 1000 ? 1000 : 10);
	}
fallback:
	say(c, "warning: blocking split failed (%s); the sweep runs on the "
	    "non-blocking communicator",
	    ncclGetErrorString(rc != ncclSuccess ? rc : rg));
	for (int i = 0; i < c->ndev; i++)
		c->d[i].fast = NULL;
}

/* Creates the communicators (non-blocking) and the buffers. */
static void start_nccl(struct ctx *c)
{
	ncclUniqueId id, *ids;
	ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
	long long dl = sc_now_us() + c->o.timeout_us;
	ncclResult_t rc = ncclSuccess;
	unsigned long long sizes[NC_MAX_SIZES];
	int ns = nc_sweep_sizes(&c->o, sizes, NC_MAX_SIZES);

	memset(&id, 0, sizeof(id));
	c->step++;
	nc_wd_arm(dl + GRACE_US, "communicator init");
	if (sc_arrive(&c->sc, c->step) < 0)
		fail_step(c, "communicator init", c->sc.why, false);
	if (c->l.rank == 0 && (rc = ncclGetUniqueId(&id)) != ncclSuccess) {
		char why[256];

		snprintf(why, sizeof(why), "ncclGetUniqueId: %s (%s)",
			 ncclGetErrorString(rc), ncclGetLastError(NULL));
		fail_step(c, "communicator init", why, false);
	}
	ids = calloc((size_t)c->sc.nprocs, sizeof(*ids));
	if (ids == NULL || sc_allgather(&c->sc, &id, sizeof(id), ids, dl) < 0)
		fail_step(c, "communicator init", c->sc.why, c->sc.timed_out);
	id = ids[0];
	free(ids);
	if (c->stall_rank == c->l.rank && c->stall_step == c->step) {
		say(c, "test: stalling before communicator init "
		    "(NCCLCHECK_TEST_STALL)");
		for (;;)
			pause();
	}
	cfg.blocking = 0;
	if (c->ndev > 1)
		ncclGroupStart();
	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		rc = ncclCommInitRankConfig(&c->d[i].comm, c->nranks, id,
					    c->d[i].rank, &cfg);
		if (rc != ncclSuccess && rc != ncclInProgress)
			break;
	}
	if (c->ndev > 1) {
		ncclResult_t rg = ncclGroupEnd();

		if (rc == ncclSuccess)
			rc = rg;
	}
	if (rc != ncclSuccess && rc != ncclInProgress) {
		char why[256];

		snprintf(why, sizeof(why), "ncclCommInitRankConfig: %s (%s)",
			 ncclGetErrorString(rc), ncclGetLastError(NULL));
		fail_step(c, "communicator init", why, false);
	}
	wait_comms(c, "communicator init", dl);
	c->comms_ready = true;
	if (!c->o.nonblocking)
		split_blocking(c, dl);
	for (int i = 0; i < ns; i++) {
		size_t b = sizes[i] + 256;

		if (b > c->bufbytes)
			c->bufbytes = b;
	}
	for (int i = 0; i < c->ndev; i++) {
		struct dev *d = &c->d[i];

		cudaSetDevice(d->id);
		if (cudaMalloc(&d->send, c->bufbytes) != cudaSuccess ||
		    cudaMalloc(&d->recv, c->bufbytes) != cudaSuccess ||
		    cudaMalloc((void **)&d->wrong, 64) != cudaSuccess) {
			char why[256];

			snprintf(why, sizeof(why), "cannot allocate 2 x %zu "
				 "bytes on GPU %d", c->bufbytes, d->id);
			fail_step(c, "buffer allocation", why, false);
		}
	}
	nc_wd_disarm();
}

/* Reads NCCL's debug file and merges every process's transports. */
static void transports(struct ctx *c)
{
	struct nc_nccllog lg;
	char blob[1024] = "", *all;
	long long dl = sc_now_us() + c->o.timeout_us;
	size_t off = 0;

	memset(&lg, 0, sizeof(lg));
	if (c->own_debug && nc_nccllog_file(&lg, c->debug_file) == 0) {
		for (int i = 0; i < lg.nt && off < sizeof(blob) - 64; i++)
			off += (size_t)snprintf(blob + off, sizeof(blob) - off,
						"%s %s\n", lg.t[i].kind,
						lg.t[i].iface);
		off += (size_t)snprintf(blob + off, sizeof(blob) - off,
					"#alg %d %d %d\n", lg.nvls, lg.collnet,
					lg.tree);
		if (c->o.verbose == 0)
			unlink(c->debug_file);
	}
	all = calloc((size_t)c->sc.nprocs, sizeof(blob));
	nc_wd_arm(dl + GRACE_US, "transport exchange");
	if (all == NULL ||
	    sc_allgather(&c->sc, blob, sizeof(blob), all, dl) < 0) {
		free(all);
		return;
	}
	nc_wd_disarm();
	memset(&c->run.nccl, 0, sizeof(c->run.nccl));
	for (int p = 0; p < c->sc.nprocs; p++) {
		char *save = NULL, *line;
		char *b = all + (size_t)p * sizeof(blob);

		b[sizeof(blob) - 1] = '\0';
		for (line = strtok_r(b, "\n", &save); line != NULL;
		     line = strtok_r(NULL, "\n", &save)) {
			struct nc_nccllog *m = &c->run.nccl;
			char kind[24] = "", iface[32] = "";
			int a, b2, t;
			bool dup = false;

			if (sscanf(line, "#alg %d %d %d", &a, &b2, &t) == 3) {
				m->nvls |= a;
				m->collnet |= b2;
				m->tree |= t;
				continue;
			}
			if (sscanf(line, "%23s %31s", kind, iface) < 1)
				continue;
			for (int k = 0; k < m->nt; k++)
				dup |= strcmp(m->t[k].kind, kind) == 0 &&
				       strcmp(m->t[k].iface, iface) == 0;
			if (!dup && m->nt < NC_MAX_TRANSPORTS) {
				snprintf(m->t[m->nt].kind,
					 sizeof(m->t[m->nt].kind), "%s", kind);
				snprintf(m->t[m->nt].iface,
					 sizeof(m->t[m->nt].iface), "%s", iface);
				m->nt++;
			}
		}
	}
	free(all);
}

/* Releases the communicators after a good run (bounded). */
static void stop_nccl(struct ctx *c)
{
	long long dl = sc_now_us() + c->o.timeout_us;

	nc_wd_arm(dl + GRACE_US, "communicator teardown");
	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		if (c->d[i].fast != NULL)
			ncclCommDestroy(c->d[i].fast);
		c->d[i].fast = NULL;
	}
	for (int i = 0; i < c->ndev; i++)
		ncclCommFinalize(c->d[i].comm);
	wait_comms(c, "communicator teardown", dl);
	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		ncclCommDestroy(c->d[i].comm);
		cudaFree(c->d[i].send);
		cudaFree(c->d[i].recv);
		cudaFree(c->d[i].wrong);
		c->d[i].comm = NULL;
	}
	c->comms_ready = false;
	nc_wd_disarm();
}

/* Picks this process's GPUs and makes their streams and events. */
static int pick_gpus(struct ctx *c)
{
	int count = 0, first;

	if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
		say(c, "no GPU: cudaGetDeviceCount found none (driver "
		    "missing, or CUDA_VISIBLE_DEVICES empty)");
		return -1;
	}
	c->ndev = c->o.gpus_per_proc;
	first = c->l.local_rank * c->ndev;
	if (c->ndev > MAX_GPUS || first + c->ndev > count) {
		say(c, "local rank %d with -g %d needs GPUs %d-%d but %d are "
		    "visible", c->l.local_rank, c->ndev, first,
		    first + c->ndev - 1, count);
		return -1;
	}
	for (int i = 0; i < c->ndev; i++) {
		struct dev *d = &c->d[i];

		d->id = first + i;
		d->rank = c->l.rank * c->ndev + i;
		if (cudaSetDevice(d->id) != cudaSuccess ||
		    cudaStreamCreateWithFlags(&d->s, cudaStreamNonBlocking) !=
			    cudaSuccess ||
		    cudaEventCreate(&d->e0) != cudaSuccess ||
		    cudaEventCreate(&d->e1) != cudaSuccess ||
		    cudaEventCreateWithFlags(&d->done,
					     cudaEventDisableTiming) !=
			    cudaSuccess) {
			say(c, "GPU %d: %s", d->id,
			    cudaGetErrorString(cudaGetLastError()));
			return -1;
		}
	}
	return 0;
}

#ifdef NC_HAVE_MPI
/* MPI start: checks that the MPI we are linked with is the one that
 * launched us, and learns the local rank when the variables lack it. */
static int mpi_start(struct ctx *c, int *argc, char ***argv)
{
	int size = 0, rank = 0;
	MPI_Comm local;

	if (MPI_Init(argc, argv) != MPI_SUCCESS)
		return -1;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (c->l.nprocs > 0 && size != c->l.nprocs) {
		say(c, "the launcher started %d processes (%s) but MPI says %d: "
		    "ncclcheck is linked with a different MPI than the "
		    "launcher's; each process would run alone (bus bandwidth "
		    "0)", c->l.nprocs, c->l.source, size);
		return -1;
	}
	c->l.nprocs = size;
	c->l.rank = rank;
	if (c->l.local_rank < 0) {
		MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
				    MPI_INFO_NULL, &local);
		MPI_Comm_rank(local, &c->l.local_rank);
		MPI_Comm_free(&local);
	}
	return 0;
}
#endif

int main(int argc, char **argv)
{
	static struct ctx c;
	char err[512], host[64] = "unknown";
	long long t0 = sc_now_us();
	long long hr;
	unsigned long long hb;
	int rc, prc;

	c.corrupt_rank = -1;
	c.kill_rank = -1;
	c.stall_rank = -1;
	snprintf(c.prefix, sizeof(c.prefix), "ncclcheck");
	prc = nc_opts_parse(&c.o, argc, argv, err, sizeof(err));
	if (prc == 1) {
		if (strcmp(err, "version") == 0)
			printf("ncclcheck %s\n", NETPROBE_VERSION);
		else
			fputs(nc_usage(), stdout);
		return fflush(stdout) == 0 ? 0 : 2;
	}
	if (prc < 0) {
		fprintf(stderr, "ncclcheck: %s\n%s", err, nc_usage());
		return 2;
	}
	c.run.o = &c.o;
	if (nc_launch_detect(nc_getenv_process, NULL, HAVE_MPI, &c.l, err,
			     sizeof(err)) < 0) {
		fprintf(stderr, "ncclcheck: %s\n", err);
		return 2;
	}
	static const char *const kinds[] = { "single", "mpi", "slurm",
					     "torchrun" };
	c.run.launcher = kinds[c.l.kind];
#ifdef NC_HAVE_MPI
	if (c.l.kind == NC_LAUNCH_MPI && mpi_start(&c, &argc, &argv) < 0)
		return 2;
#endif
	gethostname(host, sizeof(host) - 1);
	snprintf(c.prefix, sizeof(c.prefix), "ncclcheck: rank %d on %s",
		 c.l.rank, host);
	if (hook("NCCLCHECK_TEST_CORRUPT", &hr, &hb))
		c.corrupt_rank = (int)(hr >= 0 ? hr : 0);
	if (hook("NCCLCHECK_TEST_KILL", &hr, &hb)) {
		c.kill_rank = (int)hr;
		c.kill_bytes = hb;
	}
	if (hook("NCCLCHECK_TEST_STALL", &hr, &hb)) {
		c.stall_rank = (int)hr;
		c.stall_step = (unsigned)hb;
	}
	c.tty = isatty(2) && !c.o.quiet;
	c.nranks = c.l.nprocs * c.o.gpus_per_proc;
	c.run.nranks = c.nranks;
	c.run.nprocs = c.l.nprocs;
	c.run.gpus_per_proc = c.o.gpus_per_proc;
	if (c.nranks == 1 && !c.o.allow_one_rank) {
		say(&c, "only one rank (%s, -g 1): bus bandwidth would be 0 "
		    "and no link is tested; start several (mpirun -np N, srun, "
		    "WORLD_SIZE) or use -g N, or pass --allow-one-rank",
		    c.l.source);
		return 2;
	}
	debug_env(&c);
	if (nc_wd_start(c.prefix) < 0) {
		say(&c, "cannot start the watchdog thread");
		return 2;
	}
	if (pick_gpus(&c) < 0)
		return 2;
	if (!preflight(&c)) {
		/* every rank decided the same from the same data, before
		 * NCCL started: MPI can still finish cleanly */
		rc = finish(&c, false);
#ifdef NC_HAVE_MPI
		if (c.l.kind == NC_LAUNCH_MPI)
			MPI_Finalize();
#endif
		return rc == 0 ? 1 : rc;
	}
	start_nccl(&c);
	sweep(&c);
	transports(&c);
	stop_nccl(&c);
	{
		char x = 0, *all = calloc((size_t)c.sc.nprocs, 1);
		long long dl = sc_now_us() + c.o.timeout_us;

		nc_wd_arm(dl + GRACE_US, "final barrier");
		if (all != NULL)
			sc_allgather(&c.sc, &x, 1, all, dl);
		free(all);
		nc_wd_disarm();
	}
	c.run.wall_s = (double)(sc_now_us() - t0) / 1e6;
	rc = finish(&c, true);
	if (c.l.rank == 0 && !c.o.quiet)
		printf("# wall time %.2f s\n", c.run.wall_s);
#ifdef NC_HAVE_MPI
	if (c.l.kind == NC_LAUNCH_MPI)
		MPI_Finalize();
#endif
	sc_close(&c.sc);
	nc_wd_stop();
	fflush(stdout);
	return rc;
}
