/* ncclcheck: NCCL collectives that measure like nccl-tests and never hang.
 * This file is main only: the order of a run (parse, launch, pre-flight,
 * NCCL, sweep, transports, outputs, teardown) over the harness files
 * listed in harness.h, each phase announced to the watchdog. */
#include "bootstrap/bootstrap.h"
#include "gpu/harness.h"
#include "launch/hooks.h"
#include "launch/launch.h"
#include "bootstrap/watchdog.h"
#include "bootstrap/wd_decide.h"
#include "doc/cmdrun.h"
#include "base/monoclock.h"

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
 * looks lost to the others) while one still needs the side channel.
 * Returns 0, or -1 (c->sc.why names who did not come). */
static int final_barrier(struct ctx *c)
{
	long long dl = mono_now_us() + c->o.timeout_us;
	int rc;

	nc_wd_arm(dl + GRACE_US, "final barrier");
	rc = sc_barrier(&c->sc, dl);
	nc_wd_disarm();
	return rc;
}

/* What the launcher said, for a watchdog that fires before any rank can
 * be named: "OMPI_COMM_WORLD_RANK/SIZE: 2 processes; this is rank 0, local
 * rank 0, pid 4242, on gpu-a". */
static void launcher_words(const struct ctx *c, const char *host, char *buf,
			   size_t len)
{
	snprintf(buf, len, "%s (%s): %d processes; this is rank %d, local "
		 "rank %d, pid %d, on %s", c->run.launcher, c->l.source,
		 c->l.nprocs, c->l.rank, c->l.local_rank, (int)getpid(), host);
}

/* After the sweep: transports and the final barrier. Every result was
 * already combined at rank 0, so a rank that stops here does not change
 * the verdict: it is named in a warning, and the teardown aborts.
 * Returns false then. */
static bool end_exchange(struct ctx *c)
{
	nc_wd_phase(NC_WD_RESULTS, "");
	if (nc_gather_transports(c) == 0 && final_barrier(c) == 0)
		return true;
	nc_say(c, "warning: result exchange: %s; every result had already "
	    "reached rank 0", c->sc.why);
	return false;
}

/* Parse: the options; --help, --version and -C list answered here. Returns 0 to
 * run, 1 when answered, or 2 (said in cli's wording). */
static int nc_parse(struct cmd_run *run, struct ctx *c, int argc,
		    char **argv)
{
	char err[512];
	int prc;

	prc = nc_opts_parse(&c->o, argc, argv, err, sizeof(err));
	if (prc == 1) {
		if (strcmp(err, "version") == 0)
			fprintf(run->out, "ncclcheck %s\n", NETPROBE_VERSION);
		else if (strcmp(err, "list") == 0) {
			if (nc_coll_list(run->out) < 0)
				return 2;
		} else if (nc_help(run->out) < 0)
			return 2;
		return cmd_finish(run, 0) == 0 ? 1 : 2;
	}
	if (prc < 0)
		return nc_usage_error(run->err, err);
	return 0;
}

/* The launch: the watchdog bounds every phase from here, the launcher
 * found, the GPUs counted and picked, MPI and the side channel's
 * identity. Returns the GPU count, or -1 (said). */
static int nc_launch(struct cmd_run *run, struct ctx *c, char *host,
		     size_t hostlen, int *argc, char ***argv)
{
	char lerr[512], lw[256];
	int lrc, ngpu;

	/* from here to the last instruction the watchdog bounds every
	 * phase by -T plus its grace (man page: the margin) */
	if (nc_wd_start(c->prefix) < 0) {
		cmd_failf(run, "watchdog", "cannot start the watchdog thread");
		return -1;
	}
	nc_wd_limit(c->o.timeout_us, GRACE_US);
	nc_wd_phase(NC_WD_START, "");
	c->run.o = &c->o;
	if (c->o.json_path != NULL && strcmp(c->o.json_path, "-") == 0)
		c->o.quiet = true; /* the document owns standard output */
	lrc = nc_launch_detect(env_get_process, NULL, HAVE_MPI, &c->l, lerr,
			       sizeof(lerr));
	gethostname(host, hostlen - 1);
	snprintf(c->prefix, sizeof(c->prefix), "ncclcheck: rank %d on %s",
		 c->l.rank, host);
	nc_wd_prefix(c->prefix);
	/* known before the GPU count, so its refusal names the launch */
	c->run.launcher = lrc < 0 ? NULL : launch_boot_words[c->l.boot];
	/* no GPU is the first thing to say: every other refusal is moot */
	if ((ngpu = nc_count_gpus(c)) < 0)
		return -1;
	if (lrc < 0) {
		nc_say(c, "%s", lerr);
		return -1;
	}
	launcher_words(c, host, lw, sizeof(lw));
	nc_wd_self(c->l.rank, c->l.nprocs, -1, host, lw);
#ifdef NC_HAVE_MPI
	nc_wd_phase(NC_WD_WIREUP, "MPI_Init");
	if (c->l.boot == LAUNCH_BOOT_MPI && nc_mpi_start(c, argc, argv) < 0)
		return -1;
#else
	(void)argc;
	(void)argv;
#endif
	return ngpu;
}

/* Parse -> launch -> pre-flight -> NCCL, sweep (collect) -> verdict and
 * outputs (decide, finish: nc_finish, then the teardown exits). */
int main(int argc, char **argv)
{
	static struct ctx c;
	struct cmd_run run = {.tool = "ncclcheck", .name = NULL,
			      .out = stdout, .err = stderr};
	char host[64] = "unknown";
	long long t0 = mono_now_us();
	int rc, ngpu;
	bool whole;

	snprintf(c.prefix, sizeof(c.prefix), "ncclcheck");
	if ((rc = nc_parse(&run, &c, argc, argv)) != 0)
		return rc == 1 ? 0 : 2;
	if ((ngpu = nc_launch(&run, &c, host, sizeof(host), &argc, &argv)) < 0)
		return 2;
	nc_wd_phase(NC_WD_BOOTSTRAP, "");
	snprintf(c.prefix, sizeof(c.prefix), "ncclcheck: rank %d on %s",
		 c.l.rank, host);
	nc_wd_prefix(c.prefix);
	nc_wd_self(c.l.rank, c.l.nprocs, -1, host, NULL);
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
	if (nc_pick_gpus(&c, ngpu) < 0)
		return 2;
	nc_wd_self(c.l.rank, c.l.nprocs, c.d[0].id, host, NULL);
	if (!nc_gpu_preflight(&c)) {
		/* every rank decided the same from the same data, before
		 * NCCL started: MPI can still finish cleanly */
		nc_wd_phase(NC_WD_VERDICT, "");
		rc = nc_finish(&c, false);
		nc_teardown(&c, rc == 0 ? 1 : rc, false);
	}
	if (c.o.selftest) {
		nc_wd_phase(NC_WD_SELFTEST, "");
		nc_gpu_selftest(&c);
	}
	nc_wd_phase(NC_WD_INIT, "");
	nc_start_nccl(&c);
	nc_wd_phase(NC_WD_SWEEP, "");
	nc_sweep(&c);
	if (c.o.pairs) {
		nc_wd_phase(NC_WD_PAIRS, "");
		nc_pairs_run(&c);
	}
	whole = end_exchange(&c);
	nc_wd_phase(NC_WD_VERDICT, "");
	c.run.wall_s = (double)(mono_now_us() - t0) / 1e6;
	rc = nc_finish(&c, true);
	/* a rank other than 0 that did not see the end cannot vouch for it */
	if (!whole && c.l.rank != 0 && rc == 0)
		rc = 1;
	nc_teardown(&c, rc, !whole);
}
