/* The NCCL lifecycle of one process: the communicators and the buffers
 * (their teardown after the verdict is gpu_teardown.c's). The sweep runs
 * on a blocking communicator, as nccl-tests' does (an enqueue returns at
 * once); its
 * init runs on a helper thread so the main thread keeps every wait
 * bounded and the side channel serviced. --nonblocking inits and sweeps
 * a non-blocking one instead. The abort of a failed run is part of the
 * exit path (gpu_exit.c). */
#include "gpu/harness.h"
#include "bootstrap/watchdog.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/monoclock.h"

/* The config nccl-tests 2.19 gives NCCL, so the two measure the same
 * library state. */
static void test_config(struct ctx *c, ncclConfig_t *cfg, int blocking)
{
	ncclConfig_t z = NCCL_CONFIG_INITIALIZER;

	*cfg = z;
	cfg->blocking = blocking;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
	if (c->nccl_version >= NCCL_VERSION(2, 28, 0))
		cfg->nvlinkCentricSched = 1;
#else
	(void)c;
#endif
}

/* What the init thread hands back: the communicators are published with
 * a release store of `done` and read after an acquire load of it. */
struct init_job {
	struct ctx *c;
	ncclUniqueId id;
	ncclComm_t comms[MAX_GPUS];
	ncclResult_t rc;
	char err[256];
	int done;
};

/* Creates every local communicator, blocking, in one group. */
static void *init_thread(void *arg)
{
	struct init_job *j = arg;
	struct ctx *c = j->c;
	ncclConfig_t cfg;
	ncclResult_t rc = ncclSuccess, rg;

	test_config(c, &cfg, 1);
	if (c->ndev > 1)
		rc = ncclGroupStart();
	for (int i = 0; i < c->ndev && rc == ncclSuccess; i++) {
		cudaSetDevice(c->d[i].id);
		rc = ncclCommInitRankConfig(&j->comms[i], c->nranks, j->id,
					    c->d[i].rank, &cfg);
	}
	if (c->ndev > 1) {
		rg = ncclGroupEnd();
		if (rc == ncclSuccess)
			rc = rg;
	}
	j->rc = rc;
	if (rc != ncclSuccess)
		snprintf(j->err, sizeof(j->err), "ncclCommInitRankConfig: %s "
			 "(%s)", ncclGetErrorString(rc), ncclGetLastError(NULL));
	__atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The default: a blocking init on a helper thread, polled here against
 * the deadline with the side channel serviced (so a rank that never
 * comes is named while this one stays responsive). On a failure the
 * process exits through nc_fail_step; a hung init thread dies with it. */
static void init_blocking(struct ctx *c, const ncclUniqueId *id,
			  long long dl)
{
	static struct init_job j; /* outlives a failed step's exit */
	pthread_t th;

	memset(&j, 0, sizeof(j));
	j.c = c;
	j.id = *id;
	if (pthread_create(&th, NULL, init_thread, &j) != 0)
		nc_fail_step(c, "communicator init", "cannot start a thread",
			     false);
	while (!__atomic_load_n(&j.done, __ATOMIC_ACQUIRE)) {
		if (sc_poll(&c->sc) < 0)
			nc_fail_step(c, "communicator init", c->sc.why, false);
		if (mono_now_us() > dl)
			nc_fail_step(c, "communicator init",
				     "did not complete in time", true);
		usleep(1000);
	}
	pthread_join(th, NULL);
	if (j.rc != ncclSuccess)
		nc_fail_step(c, "communicator init", j.err, false);
	for (int i = 0; i < c->ndev; i++)
		c->d[i].comm = j.comms[i];
}

/* --nonblocking: init returns at once and is polled. */
static void init_nonblocking(struct ctx *c, const ncclUniqueId *id,
			     long long dl)
{
	ncclConfig_t cfg;
	ncclResult_t rc = ncclSuccess;

	test_config(c, &cfg, 0);
	if (c->ndev > 1)
		ncclGroupStart();
	for (int i = 0; i < c->ndev; i++) {
		cudaSetDevice(c->d[i].id);
		rc = ncclCommInitRankConfig(&c->d[i].comm, c->nranks, *id,
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
		nc_fail_step(c, "communicator init", why, false);
	}
	c->comms_ready = true; /* abortable from here on */
	nc_wait_comms(c, "communicator init", dl);
}

/* ncclMemAlloc as nccl-tests 2.19 (cuMem memory NCCL can map), else
 * cudaMalloc. Returns 0, or -1. */
static int buf_alloc(struct ctx *c, void **p, size_t n)
{
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
	if (c->nccl_version >= NCCL_VERSION(2, 19, 0))
		return ncclMemAlloc(p, n) == ncclSuccess ? 0 : -1;
#else
	(void)c;
#endif
	return cudaMalloc(p, n) == cudaSuccess ? 0 : -1;
}

/* Every rank arrives first, so a rank that never comes is named, not
 * waited on; rank 0's unique id goes to all; then the communicators and
 * the buffers, sized for the largest step. */
void nc_start_nccl(struct ctx *c)
{
	ncclUniqueId id;
	long long dl = mono_now_us() + c->o.timeout_us;
	ncclResult_t rc = ncclSuccess;
	unsigned long long sizes[NC_MAX_SIZES];
	int ns = nc_sweep_sizes(&c->o, sizes, NC_MAX_SIZES);

	memset(&id, 0, sizeof(id));
	ncclGetVersion(&c->nccl_version);
	c->step++;
	nc_wd_arm(dl + GRACE_US, "communicator init");
	if (sc_arrive(&c->sc, c->step) < 0)
		nc_fail_step(c, "communicator init", c->sc.why, false);
	if (c->l.rank == 0 && (rc = ncclGetUniqueId(&id)) != ncclSuccess) {
		char why[256];

		snprintf(why, sizeof(why), "ncclGetUniqueId: %s (%s)",
			 ncclGetErrorString(rc), ncclGetLastError(NULL));
		nc_fail_step(c, "communicator init", why, false);
	}
	if (sc_bcast(&c->sc, &id, sizeof(id), dl) < 0)
		nc_fail_step(c, "communicator init", c->sc.why, c->sc.timed_out);
	if (c->hooks.stall_rank == c->l.rank &&
	    c->hooks.stall_step == c->step) {
		nc_say(c, "test: stalling before communicator init "
		    "(NCCLCHECK_TEST_STALL)");
		for (;;)
			pause();
	}
	if (c->o.nonblocking)
		init_nonblocking(c, &id, dl);
	else
		init_blocking(c, &id, dl);
	c->comms_ready = true;
	for (int i = 0; i < ns; i++) {
		size_t b = sizes[i] + 256;

		if (b > c->bufbytes)
			c->bufbytes = b;
	}
	for (int i = 0; i < c->ndev; i++) {
		struct dev *d = &c->d[i];

		cudaSetDevice(d->id);
		if (buf_alloc(c, &d->send, c->bufbytes) < 0 ||
		    buf_alloc(c, &d->recv, c->bufbytes) < 0 ||
		    cudaMalloc((void **)&d->wrong, 64) != cudaSuccess) {
			char why[256];

			snprintf(why, sizeof(why), "cannot allocate 2 x %zu "
				 "bytes on GPU %d", c->bufbytes, d->id);
			nc_fail_step(c, "buffer allocation", why, false);
		}
		sc_poll(&c->sc); /* large allocations take a while */
	}
	nc_wd_disarm();
}
