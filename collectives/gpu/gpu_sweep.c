/* ncclcheck's sweep: for every collective, type, operator and size, the
 * warm-up, the timed iterations and the check of the results on the GPU.
 * Timed as nccl-tests times: a collective that lines the ranks up, then a
 * host timer around the enqueues and the wait for the last one, divided
 * by the iterations; the processes' times are combined as -a says (the
 * mean by default). */
#include "gpu/harness.h"
#include "coll/coll.h"
#include "coll/kernels.h"
#include "bootstrap/watchdog.h"
#include "base/monoclock.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef NC_HAVE_MPI
#include <mpi.h>

#endif

/* What every process contributes to a step's result. */
struct mine {
	double t_us, est_us;
	long long wrong;
};

/* Fails the step on a CUDA error of the data kernels or copies: a check
 * that cannot run must not read as "0 wrong". */
static void cuda_ok(struct ctx *c, const struct step *st, int e,
		    const char *doing)
{
	char why[256];

	if (e == 0)
		return;
	snprintf(why, sizeof(why), "%s: %s", doing,
		 cudaGetErrorString((cudaError_t)e));
	nc_fail_step(c, st->what, why, false);
}

/* The base pointers of device i for this step (iteration 0), computed
 * once so the timed loop only adds the iteration's shift. As nccl-tests
 * does, each iteration moves to the next slice of the buffers (wrapping),
 * so small sizes are not timed out of one cache-warm spot. */
static void plan(struct ctx *c, struct step *st)
{
	size_t ts = nc_dtype_size(st->dtype), s, r, so, ro, total;

	for (int i = 0; i < c->ndev; i++) {
		nc_coll_counts(nc_coll_get(st->coll), st->count, ts,
			       c->nranks, c->d[i].rank, &s, &r, &so, &ro);
		total = (s > r ? s : r) * ts;
		st->shift = total;
		st->slices = total > 0 ? (c->bufbytes - 256) / total : 1;
		if (st->slices == 0)
			st->slices = 1;
		st->send[i] = st->in_place ? (char *)c->d[i].recv + so * ts :
					     (char *)c->d[i].send;
		st->recv[i] = (char *)c->d[i].recv +
			      (st->in_place ? ro * ts : 0);
	}
}

/* Enqueues one collective (iteration `iter`) on every local device, in one
 * group when there are several. */
static void enqueue(struct ctx *c, const struct step *st, int iter,
		    long long dl)
{
	const struct nc_coll_desc *cd = nc_coll_get(st->coll);
	size_t shift = st->shift * ((size_t)iter % st->slices);
	ncclResult_t rc = ncclSuccess, rg = ncclSuccess;

	if (c->ndev > 1)
		rc = ncclGroupStart();
	for (int i = 0; i < c->ndev && rc == ncclSuccess; i++) {
		struct nc_call call = {
			.send = st->send[i] + shift,
			.recv = st->recv[i] + shift,
			.count = st->pc,
			.dtype = st->dtype, .op = st->op, .root = st->root,
			.rank = c->d[i].rank, .nranks = c->nranks,
			.nccl_version = c->nccl_version,
			.comm = c->d[i].comm, .stream = c->d[i].s,
		};

		rc = cd->launch(&call);
	}
	if (c->ndev > 1)
		rg = ncclGroupEnd();
	if (rc == ncclInProgress || rg == ncclInProgress) {
		nc_wait_comms(c, st->what, dl);
		return;
	}
	if (rc != ncclSuccess || rg != ncclSuccess) {
		char why[512];

		snprintf(why, sizeof(why), "NCCL refused the call: %s (%s)",
			 ncclGetErrorString(rc != ncclSuccess ? rc : rg),
			 ncclGetLastError(c->d[0].comm));
		nc_fail_step(c, st->what, why, false);
	}
}

/* Records `done` on every stream and waits for it. */
static void sync_all(struct ctx *c, const struct step *st, long long dl)
{
	for (int i = 0; i < c->ndev; i++)
		cuda_ok(c, st, cudaEventRecord(c->d[i].done, c->d[i].s),
			"cudaEventRecord");
	nc_wait_done(c, st->what, dl);
}

/* nccl-tests' Barrier after its sync collective: under mpirun the hosts
 * start their timers together through MPI_Barrier, not only when each
 * sees the sync collective end. A rank whose wait yielded its core away
 * sees that end late, and its peers' first timed collective waits for
 * it: tens of microseconds in a 20-iteration loop of 10 us collectives,
 * every loop. Other launches have no barrier this fast (the side channel
 * is TCP) and keep the sync collective alone, as nccl-tests' -g does.
 * Bounded by the watchdog armed for the step. */
static void host_barrier(struct ctx *c)
{
#ifdef NC_HAVE_MPI
	if (c->l.boot == LAUNCH_BOOT_MPI && c->l.nprocs > 1)
		MPI_Barrier(MPI_COMM_WORLD);
#else
	(void)c;
#endif
}

/* Fills the inputs of every device for this step (poisoning outputs). */
static void init_data(struct ctx *c, const struct step *st)
{
	size_t ts = nc_dtype_size(st->dtype);
	size_t big = (st->rc > st->sc ? st->rc : st->sc) * ts;
	int op = nc_coll_get(st->coll)->reduces ? st->op : NC_SUM;

	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		cuda_ok(c, st, cudaMemsetAsync(c->d[i].recv, 0xa5, big,
					       c->d[i].s), "cudaMemsetAsync");
		cuda_ok(c, st, nc_dev_init(st->send[i], st->sc, st->dtype, op,
					   c->d[i].rank, c->nranks,
					   st->contrib, st->vmax, 0,
					   c->d[i].s), "data kernel");
	}
}

/* Enqueues the check of every device's output; counts land in wrong.
 * What each rank's output must hold is its collective's (its
 * descriptor's expect): a collective without one fails the step. */
static void check_data(struct ctx *c, const struct step *st, bool corrupt)
{
	size_t ts = nc_dtype_size(st->dtype);
	struct nc_expect *pc = calloc((size_t)c->nranks, sizeof(*pc));
	struct nc_shape sh;

	if (pc == NULL)
		nc_fail_step(c, st->what, "no memory", false);
	nc_shape_of(&sh, st->coll, st->count, st->dtype, st->op, c->nranks,
		    st->root);
	for (int i = 0; i < c->ndev; i++) {
		struct nc_expectation x = { .piece = pc, .max = c->nranks };
		int r = c->d[i].rank;

		if (nc_expectation_of(&sh, r, &x) < 0) {
			free(pc);
			nc_fail_step(c, st->what, "no expected result for "
				     "this collective", false);
		}
		cudaSetDevice(c->d[i].id);
		if (x.npieces == 0)
			continue;
		if (corrupt && r == c->hooks.corrupt_rank && st->rc > 0)
			cuda_ok(c, st, nc_dev_corrupt(st->recv[i], st->rc / 2,
						      st->dtype, c->d[i].s),
				"corrupt kernel");
		for (int k = 0; k < x.npieces; k++)
			cuda_ok(c, st, nc_dev_check(st->recv[i] +
						    pc[k].off * ts,
						    pc[k].len, &pc[k],
						    c->d[i].wrong, c->d[i].s),
				"check kernel");
	}
	free(pc);
}

/* Combines the processes' parts at the hub (time per -a, wrong elements
 * summed, the largest estimate) and gives everyone the same answer. */
static void combine(struct ctx *c, const struct step *st, struct mine *m,
		    long long dl)
{
	struct mine *all = NULL, out = *m;
	int np = c->sc.nprocs;

	if (c->l.rank == 0 && (all = calloc((size_t)np, sizeof(*all))) == NULL)
		nc_fail_step(c, st->what, "no memory", false);
	if (sc_gather(&c->sc, m, sizeof(*m), all, dl) < 0)
		nc_fail_step(c, st->what, c->sc.why, c->sc.timed_out);
	if (c->l.rank == 0) {
		out.t_us = c->o.average == 1 ? 0 : all[0].t_us;
		out.wrong = 0;
		for (int p = 0; p < np; p++) {
			double t = all[p].t_us;

			if (c->o.average == 1)
				out.t_us += t / np;
			else if (c->o.average == 2 && t < out.t_us)
				out.t_us = t;
			else if (c->o.average == 3 && t > out.t_us)
				out.t_us = t;
			if (all[p].est_us > out.est_us)
				out.est_us = all[p].est_us;
			out.wrong += all[p].wrong;
		}
	}
	free(all);
	if (sc_bcast(&c->sc, &out, sizeof(out), dl) < 0)
		nc_fail_step(c, st->what, c->sc.why, c->sc.timed_out);
	*m = out;
}

/* --budget: one collective timed alone sets the iterations of all. */
static int budget_iters(struct ctx *c, const struct step *st, long long dl)
{
	struct mine m = { 0, 0, 0 };
	long long t0 = mono_now_us();

	enqueue(c, st, 0, dl);
	sync_all(c, st, dl);
	m.est_us = (double)(mono_now_us() - t0);
	combine(c, st, &m, dl);
	/* the exchange left the ranks apart: line them up again */
	enqueue(c, st, 0, dl);
	sync_all(c, st, dl);
	return nc_budget_iters(c->o.budget_us, m.est_us, c->o.iters);
}

/* -G N: the iterations captured once into a CUDA graph per device, the
 * graphs launched N times, as nccl-tests' -G. Returns the host time of
 * all launches. */
static double graph_run(struct ctx *c, const struct step *st, int iters,
			long long dl)
{
	cudaGraph_t g[MAX_GPUS];
	cudaGraphExec_t x[MAX_GPUS];
	long long t0;

	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		cuda_ok(c, st, cudaStreamBeginCapture(
				       c->d[i].s,
				       cudaStreamCaptureModeThreadLocal),
			"cudaStreamBeginCapture");
	}
	for (int it = 0; it < iters; it++)
		enqueue(c, st, it, dl);
	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		cuda_ok(c, st, cudaStreamEndCapture(c->d[i].s, &g[i]),
			"cudaStreamEndCapture");
		cuda_ok(c, st, cudaGraphInstantiate(&x[i], g[i], 0),
			"cudaGraphInstantiate");
	}
	/* the capture took a while on some ranks: line them up again */
	enqueue(c, st, 0, dl);
	sync_all(c, st, dl);
	host_barrier(c);
	t0 = mono_now_us();
	for (int l = 0; l < c->o.graph_launches; l++)
		for (int i = 0; i < c->ndev; i++)
			cuda_ok(c, st, cudaGraphLaunch(x[i], c->d[i].s),
				"cudaGraphLaunch");
	sync_all(c, st, dl);
	t0 = mono_now_us() - t0;
	for (int i = 0; i < c->ndev; i++) {
		cudaGraphExecDestroy(x[i]);
		cudaGraphDestroy(g[i]);
	}
	return (double)t0 / c->o.graph_launches;
}

/* The timed iterations: host time from the first enqueue to the end of
 * the last collective, as nccl-tests' BenchTime. Returns microseconds
 * per iteration. */
static double timed(struct ctx *c, const struct step *st, int iters,
		    long long dl, unsigned long long bytes)
{
	long long t0;
	double sum = 0;

	if (c->o.graph_launches > 0)
		return graph_run(c, st, iters, dl) / iters;
	if (c->o.check_every) {
		for (int it = 0; it < iters; it++) {
			init_data(c, st);
			sync_all(c, st, dl);
			/* the check reads the first slice: no shift */
			t0 = mono_now_us();
			enqueue(c, st, 0, dl);
			sync_all(c, st, dl);
			sum += (double)(mono_now_us() - t0);
			check_data(c, st, false);
		}
		return sum / iters;
	}
	t0 = mono_now_us();
	for (int it = 0; it < iters; it++) {
		enqueue(c, st, it, dl);
		if (c->o.blocking)
			sync_all(c, st, dl);
	}
	if (c->hooks.kill_rank == c->l.rank && c->hooks.kill_bytes <= bytes) {
		nc_say(c, "test: killing myself at %llu B "
		    "(NCCLCHECK_TEST_KILL)", bytes);
		fflush(stderr);
		kill(getpid(), SIGKILL);
	}
	sync_all(c, st, dl);
	return (double)(mono_now_us() - t0) / iters;
}

/* Runs one step (one size, one placement) and fills its result. */
static void run_step(struct ctx *c, struct step *st, struct nc_result *res)
{
	long long dl = mono_now_us() + c->o.timeout_us;
	struct mine m = { 0, 0, 0 };
	int iters = c->o.iters;

	c->step++;
	nc_wd_step(c->step);
	if (c->hooks.stall_rank == c->l.rank &&
	    c->hooks.stall_step == c->step) {
		/* test only: a rank that hangs before it arrives */
		nc_say(c, "test: stalling at step %u (NCCLCHECK_TEST_STALL)",
		    c->step);
		nc_wd_arm(dl + GRACE_US, st->what);
		for (;;)
			pause();
	}
	if (sc_arrive(&c->sc, c->step) < 0)
		nc_fail_step(c, st->what, c->sc.why, false);
	nc_wd_arm(dl + GRACE_US, st->what);
	plan(c, st);
	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		cuda_ok(c, st, cudaMemsetAsync(c->d[i].wrong, 0,
					       sizeof(unsigned long long),
					       c->d[i].s), "cudaMemsetAsync");
	}
	/* defined values in every timed input, as nccl-tests has */
	init_data(c, st);
	for (int w = 0; w < c->o.warmup; w++)
		enqueue(c, st, w, dl);
	/* nccl-tests' sync: one collective all ranks finish together, so
	 * the timer starts on every rank within microseconds */
	enqueue(c, st, 0, dl);
	sync_all(c, st, dl);
	if (c->o.budget_us > 0)
		iters = budget_iters(c, st, dl);
	host_barrier(c);
	m.t_us = timed(c, st, iters, dl, res->bytes);
	if (c->o.check) {
		unsigned long long w = 0;

		init_data(c, st);
		enqueue(c, st, 0, dl);
		check_data(c, st, c->hooks.corrupt_rank >= 0);
		sync_all(c, st, dl);
		for (int i = 0; i < c->ndev; i++) {
			cudaSetDevice(c->d[i].id);
			cuda_ok(c, st, cudaMemcpy(&w, c->d[i].wrong, sizeof(w),
						  cudaMemcpyDeviceToHost),
				"reading the wrong-element count");
			m.wrong += (long long)w;
		}
	}
	combine(c, st, &m, dl);
	nc_wd_disarm();
	res->time_us = m.t_us;
	res->wrong = c->o.check ? m.wrong : -1;
	res->iters = iters;
	nc_bandwidth(res->coll, res->bytes, res->time_us, c->nranks,
		     &res->algbw_gbps, &res->busbw_gbps);
}

/* Describes one step: counts, data range and the result's identity. */
static void make_step(struct ctx *c, int coll, int dtype, int op,
		      unsigned long long bytes, bool in_place, struct step *st,
		      struct nc_result *r)
{
	const struct nc_coll_desc *cd = nc_coll_get(coll);
	int vop = cd->reduces ? op : NC_SUM;
	char sz[32];

	memset(st, 0, sizeof(*st));
	memset(r, 0, sizeof(*r));
	st->coll = coll;
	st->dtype = dtype;
	st->op = op;
	st->root = c->o.root % c->nranks;
	st->in_place = in_place;
	st->count = nc_count_for(coll, bytes, dtype, c->nranks);
	st->pc = nc_param_count(coll, st->count, c->nranks);
	nc_coll_counts(cd, st->count, nc_dtype_size(dtype), c->nranks, 0,
		       &st->sc, &st->rc, &st->soff, &st->roff);
	st->vmax = nc_value_max(dtype, vop, c->nranks);
	st->contrib = cd->reduces ? nc_contributors(dtype, op, c->nranks) :
				    c->nranks;
	r->coll = coll;
	r->dtype = dtype;
	r->op = op;
	r->root = st->root;
	r->in_place = in_place;
	r->count = st->pc;
	r->bytes = st->count * nc_dtype_size(dtype);
	snprintf(st->what, sizeof(st->what), "%s %s%s%s %s %s", cd->name,
		 nc_dtype_name(dtype), cd->reduces ? " " : "",
		 cd->reduces ? nc_op_name(op) : "",
		 nc_fmt_bytes(r->bytes, sz, sizeof(sz)),
		 in_place ? "in-place" : "out-of-place");
}

/* Warm-up before a series, as nccl-tests does: every size of the series
 * doubling from the smallest to the largest, untimed, so no timed size
 * pays first-use costs (connections, protocol buffers). */
static void warm_series(struct ctx *c, int coll, int dtype, int op,
			unsigned long long lo, unsigned long long hi)
{
	long long dl = mono_now_us() + c->o.timeout_us;
	char what[160];
	int n = 0;

	snprintf(what, sizeof(what), "%s warm-up", nc_coll_get(coll)->name);
	c->step++;
	nc_wd_step(c->step);
	if (sc_arrive(&c->sc, c->step) < 0)
		nc_fail_step(c, what, c->sc.why, false);
	nc_wd_arm(dl + GRACE_US, what);
	for (unsigned long long b = lo; b <= hi && b > 0; b *= 2) {
		struct nc_result r;
		struct step st;

		make_step(c, coll, dtype, op, b, false, &st, &r);
		if (r.bytes == 0)
			continue;
		plan(c, &st);
		snprintf(st.what, sizeof(st.what), "%s", what);
		for (int w = 0; w < (c->o.warmup > 0 ? c->o.warmup : 1); w++)
			enqueue(c, &st, w, dl);
		/* a bounded queue: wait now and then */
		if (++n % 8 == 0 || b * 2 > hi)
			sync_all(c, &st, dl);
	}
	nc_wd_disarm();
}

/* One series: a collective, a type and an operator over every size, both
 * placements, one table line per size. */
static void run_series(struct ctx *c, int coll, int dtype, int op,
		       const unsigned long long *sizes, int ns)
{
	const struct nc_coll_desc *cd = nc_coll_get(coll);

	if (c->l.rank == 0 && !c->o.quiet)
		nc_table_header(stdout, &c->run, coll, dtype, op);
	warm_series(c, coll, dtype, op, sizes[0], sizes[ns - 1]);
	for (int si = 0; si < ns; si++) {
		struct nc_result r[2];
		bool have[2] = { false, false };

		for (int ip = 0; ip < 2; ip++) {
			struct step st;

			if ((ip && c->o.no_inplace) ||
			    (!ip && c->o.no_outofplace) ||
			    (ip && !cd->in_place))
				continue;
			make_step(c, coll, dtype, op, sizes[si], ip, &st,
				  &r[ip]);
			if (r[ip].bytes == 0)
				continue;
			if (c->tty && c->l.rank == 0)
				fprintf(stderr, "\r%-70.70s\r", st.what);
			run_step(c, &st, &r[ip]);
			if (c->tty && c->l.rank == 0)
				fprintf(stderr, "\r%70s\r", "");
			if (nc_results_add(&c->run.res, &r[ip]) < 0)
				nc_fail_step(c, st.what, "no memory", false);
			have[ip] = true;
		}
		if (c->l.rank == 0 && !c->o.quiet && (have[0] || have[1])) {
			nc_table_row(stdout, have[0] ? &r[0] : NULL,
				     have[1] ? &r[1] : NULL);
			fflush(stdout);
		}
	}
}

/* The sweep over collectives, types and operators. */
void nc_sweep(struct ctx *c)
{
	unsigned long long sizes[NC_MAX_SIZES];
	int ns = nc_sweep_sizes(&c->o, sizes, NC_MAX_SIZES);

	for (int ci = 0; ci < c->o.ncolls; ci++) {
		const struct nc_coll_desc *cd = nc_coll_get(c->o.colls[ci]);
		int nops = cd->reduces ? c->o.nops : 1;

		for (int ti = 0; ti < c->o.ndtypes; ti++)
			for (int oi = 0; oi < nops; oi++) {
				int dtype = c->o.dtypes[ti];
				int op = cd->reduces ? c->o.ops[oi] : NC_SUM;

				if (op == NC_AVG && !nc_dtype_is_float(dtype))
					continue;
				run_series(c, c->o.colls[ci], dtype, op, sizes,
					   ns);
			}
	}
}
