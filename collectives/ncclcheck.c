/* ncclcheck: NCCL collectives that measure like nccl-tests and never hang.
 * This file is main only: the order of a run (parse, launch, pre-flight,
 * NCCL, sweep, transports, teardown, outputs) over the harness files
 * listed in harness.h. */
#include "bootstrap/bootstrap.h"
#include "gpu/harness.h"
#include "launch/hooks.h"
#include "launch/launch.h"
#include "bootstrap/watchdog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef NC_HAVE_MPI
#include <mpi.h>
#define HAVE_MPI true
#else
#define HAVE_MPI false
#endif

/* One byte from every process before the outputs, so no rank exits (and
 * looks lost to the others) while one still needs the side channel. */
static void final_barrier(struct ctx *c)
{
	long long dl = sc_now_us() + c->o.timeout_us;

	nc_wd_arm(dl + GRACE_US, "final barrier");
	sc_barrier(&c->sc, dl);
	nc_wd_disarm();
}

/* Parse, detect the launch, pre-flight, NCCL, sweep, outputs, exit. */
int main(int argc, char **argv)
{
	static struct ctx c;
	char err[512], lerr[512], host[64] = "unknown";
	long long t0 = sc_now_us();
	int rc, prc, lrc, ngpu;

	snprintf(c.prefix, sizeof(c.prefix), "ncclcheck");
	prc = nc_opts_parse(&c.o, argc, argv, err, sizeof(err));
	if (prc == 1) {
		if (strcmp(err, "version") == 0)
			printf("ncclcheck %s\n", NETPROBE_VERSION);
		else if (nc_help(stdout) < 0)
			return 2;
		return fflush(stdout) == 0 ? 0 : 2;
	}
	if (prc < 0) {
		fprintf(stderr, "ncclcheck: %s\nTry 'ncclcheck --help' for more "
			"information.\n", err);
		return 2;
	}
	c.run.o = &c.o;
	if (c.o.json_path != NULL && strcmp(c.o.json_path, "-") == 0)
		c.o.quiet = true; /* the document owns standard output */
	lrc = nc_launch_detect(env_get_process, NULL, HAVE_MPI, &c.l, lerr,
			       sizeof(lerr));
	gethostname(host, sizeof(host) - 1);
	snprintf(c.prefix, sizeof(c.prefix), "ncclcheck: rank %d on %s",
		 c.l.rank, host);
	static const char *const kinds[] = { "single", "mpi", "slurm",
					     "torchrun" };
	/* known before the GPU count, so its refusal names the launch */
	c.run.launcher = lrc < 0 ? NULL : kinds[c.l.kind];
	/* no GPU is the first thing to say: every other refusal is moot */
	if ((ngpu = nc_count_gpus(&c)) < 0)
		return 2;
	if (lrc < 0) {
		nc_say(&c, "%s", lerr);
		return 2;
	}
#ifdef NC_HAVE_MPI
	if (c.l.kind == NC_LAUNCH_MPI && nc_mpi_start(&c, &argc, &argv) < 0)
		return 2;
#endif
	snprintf(c.prefix, sizeof(c.prefix), "ncclcheck: rank %d on %s",
		 c.l.rank, host);
	nc_hooks_read(env_get_process, NULL, &c.hooks);
	c.tty = isatty(2) && !c.o.quiet;
	c.nranks = c.l.nprocs * c.o.gpus_per_proc;
	c.run.nranks = c.nranks;
	c.run.nprocs = c.l.nprocs;
	c.run.gpus_per_proc = c.o.gpus_per_proc;
	if (c.nranks == 1 && !c.o.allow_one_rank) {
		nc_say(&c, "only one rank (%s, -g 1): bus bandwidth would be 0 "
		    "and no link is tested; start several (mpirun -np N, srun, "
		    "WORLD_SIZE) or use -g N, or pass --allow-one-rank",
		    c.l.source);
		return 2;
	}
	nc_debug_env(&c);
	if (nc_wd_start(c.prefix) < 0) {
		nc_say(&c, "cannot start the watchdog thread");
		return 2;
	}
	if (nc_pick_gpus(&c, ngpu) < 0)
		return 2;
	if (!nc_gpu_preflight(&c)) {
		/* every rank decided the same from the same data, before
		 * NCCL started: MPI can still finish cleanly */
		rc = nc_finish(&c, false);
#ifdef NC_HAVE_MPI
		if (c.l.kind == NC_LAUNCH_MPI)
			MPI_Finalize();
#endif
		return rc == 0 ? 1 : rc;
	}
	if (c.o.selftest)
		nc_gpu_selftest(&c);
	nc_start_nccl(&c);
	nc_sweep(&c);
	if (c.o.pairs)
		nc_pairs_run(&c);
	nc_gather_transports(&c);
	nc_stop_nccl(&c);
	final_barrier(&c);
	c.run.wall_s = (double)(sc_now_us() - t0) / 1e6;
	rc = nc_finish(&c, true);
#ifdef NC_HAVE_MPI
	if (c.l.kind == NC_LAUNCH_MPI)
		MPI_Finalize();
#endif
	sc_close(&c.sc);
	nc_wd_stop();
	fflush(stdout);
	return rc;
}
