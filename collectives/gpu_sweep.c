/* ncclcheck's sweep: for every collective, type, operator and size,
 * warm-up, the timed iterations between CUDA events, the slowest rank's
 * time, then the check of the results on the GPU. */
#include "harness.h"
#include "kernels.h"
#include "watchdog.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Pointers of device i for this step in iteration `iter`. As nccl-tests
 * does, each iteration moves to the next slice of the buffers (wrapping),
 * so small sizes are not timed out of one cache-warm spot. */
static void bufs(struct ctx *c, const struct step *st, int i, int iter,
		 void **send, void **recv)
{
	size_t ts = nc_dtype_size(st->dtype);
	size_t so, ro, s, r, total, steps, shift;
	char *sb, *rb;

	nc_coll_get(st->coll)->counts(st->count, c->nranks, c->d[i].rank, &s,
				      &r, &so, &ro);
	total = (s > r ? s : r) * ts;
	steps = total > 0 ? (c->bufbytes - 256) / total : 1;
	shift = steps > 0 ? total * ((size_t)iter % steps) : 0;
	sb = (char *)c->d[i].send + shift;
	rb = (char *)c->d[i].recv + shift;
	*send = st->in_place ? rb + so * ts : sb;
	*recv = st->in_place ? rb + ro * ts : rb;
}

/* Enqueues one collective (iteration `iter`) on every local device, in one
 * group when there are several. */
static void enqueue(struct ctx *c, const struct step *st, int iter,
		    long long dl)
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

		bufs(c, st, i, iter, &s, &r);
		call.send = s;
		call.recv = r;
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
			 ncclGetLastError(run_comm(&c->d[0])));
		nc_fail_step(c, st->what, why, false);
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
		bufs(c, st, i, 0, &s, &r);
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
		bufs(c, st, i, 0, &s, &out);
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
		if (corrupt && r == c->hooks.corrupt_rank && cnt > 0)
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
	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		cudaMemsetAsync(c->d[i].wrong, 0, sizeof(unsigned long long),
				c->d[i].s);
	}
	init_data(c, st);
	for (int w = 0; w < c->o.warmup; w++)
		enqueue(c, st, w, dl);
	mark_done(c);
	nc_wait_done(c, st->what, dl);
	all = calloc((size_t)c->sc.nprocs, sizeof(*all));
	if (all == NULL)
		nc_fail_step(c, st->what, "no memory", false);
	if (c->o.budget_us > 0) {
		double est = 0;

		for (int i = 0; i < c->ndev; i++)
			cudaEventRecord(c->d[i].e0, c->d[i].s);
		enqueue(c, st, 0, dl);
		for (int i = 0; i < c->ndev; i++)
			cudaEventRecord(c->d[i].e1, c->d[i].s);
		mark_done(c);
		nc_wait_done(c, st->what, dl);
		for (int i = 0; i < c->ndev; i++)
			if (cudaEventElapsedTime(&ms, c->d[i].e0,
						 c->d[i].e1) == cudaSuccess &&
			    ms * 1000.0 > est)
				est = ms * 1000.0;
		mine.est_us = est;
		if (sc_allgather(&c->sc, &mine, sizeof(mine), all, dl) < 0)
			nc_fail_step(c, st->what, c->sc.why, c->sc.timed_out);
		for (int p = 0; p < c->sc.nprocs; p++)
			if (all[p].est_us > est)
				est = all[p].est_us;
		iters = nc_budget_iters(c->o.budget_us, est, c->o.iters);
		/* the exchange left the ranks apart: one untimed collective
		 * lines them up again before the timed loop */
		enqueue(c, st, 0, dl);
	}
	if (!c->o.check_every) {
		double t = 0;

		for (int i = 0; i < c->ndev; i++)
			cudaEventRecord(c->d[i].e0, c->d[i].s);
		for (int it = 0; it < iters; it++)
			enqueue(c, st, it, dl);
		for (int i = 0; i < c->ndev; i++)
			cudaEventRecord(c->d[i].e1, c->d[i].s);
		if (c->hooks.kill_rank == c->l.rank &&
		    c->hooks.kill_bytes <= (unsigned long long)res->bytes) {
			nc_say(c, "test: killing myself at %llu B "
			    "(NCCLCHECK_TEST_KILL)", res->bytes);
			fflush(stderr);
			kill(getpid(), SIGKILL);
		}
		mark_done(c);
		nc_wait_done(c, st->what, dl);
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
			enqueue(c, st, 0, dl);
			for (int i = 0; i < c->ndev; i++)
				cudaEventRecord(c->d[i].e1, c->d[i].s);
			check_data(c, st, false);
			mark_done(c);
			nc_wait_done(c, st->what, dl);
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
		enqueue(c, st, 0, dl);
		check_data(c, st, c->hooks.corrupt_rank >= 0);
		mark_done(c);
		nc_wait_done(c, st->what, dl);
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
		nc_fail_step(c, st->what, c->sc.why, c->sc.timed_out);
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

/* Describes one step: counts, data range and the result's identity. */
static void make_step(struct ctx *c, int coll, int dtype, int op,
		      unsigned long long bytes, bool in_place, struct step *st,
		      struct nc_result *r)
{
	const struct nc_coll_desc *cd = nc_coll_get(coll);

	memset(st, 0, sizeof(*st));
	memset(r, 0, sizeof(*r));
	st->coll = coll;
	st->dtype = dtype;
	st->op = op;
	st->root = c->o.root % c->nranks;
	st->in_place = in_place;
	st->count = nc_count_for(coll, bytes, dtype, c->nranks);
	cd->counts(st->count, c->nranks, 0, &st->sc, &st->rc, &st->soff,
		   &st->roff);
	st->vmax = nc_value_max(dtype, cd->reduces ? op : NC_SUM, c->nranks);
	r->coll = coll;
	r->dtype = dtype;
	r->op = op;
	r->root = st->root;
	r->in_place = in_place;
	r->count = st->count;
	r->bytes = st->count * nc_dtype_size(dtype);
	snprintf(st->what, sizeof(st->what), "%s %s%s%s %llu B %s", cd->name,
		 nc_dtype_name(dtype), cd->reduces ? " " : "",
		 cd->reduces ? nc_op_name(op) : "", r->bytes,
		 in_place ? "in-place" : "out-of-place");
}

/* Warm-up before a series, as nccl-tests does: the largest and the
 * smallest size, untimed, so the first timed size pays no first-use
 * costs (connections, protocol buffers). */
static void warm_series(struct ctx *c, int coll, int dtype, int op,
			unsigned long long lo, unsigned long long hi)
{
	unsigned long long b[2] = { hi, lo };

	for (int k = 0; k < 2; k++) {
		long long dl = sc_now_us() + c->o.timeout_us;
		struct nc_result r;
		struct step st;

		make_step(c, coll, dtype, op, b[k], false, &st, &r);
		if (r.bytes == 0)
			continue;
		snprintf(st.what + strlen(st.what),
			 sizeof(st.what) - strlen(st.what), " warm-up");
		c->step++;
		if (sc_arrive(&c->sc, c->step) < 0)
			nc_fail_step(c, st.what, c->sc.why, false);
		nc_wd_arm(dl + GRACE_US, st.what);
		for (int w = 0; w < c->o.warmup; w++)
			enqueue(c, &st, w, dl);
		mark_done(c);
		nc_wait_done(c, st.what, dl);
		nc_wd_disarm();
	}
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
