/* Where this process runs: the MPI start (when mpirun launched us), the
 * GPUs of this process, and the side channel to the other processes that
 * every later step uses to exchange, arrive and report failures. */
#include "gpu/harness.h"
#include "bootstrap/bootstrap_wire.h"
#include "bootstrap/tcpstore.h"
#include "bootstrap/watchdog.h"
#include "base/parse.h"
#include "base/monoclock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef NC_HAVE_MPI
#include <mpi.h>


/* A binary linked with another MPI than the launcher's would see itself
 * alone and report busbw 0: refuse that here. Also learns the local rank
 * when the launcher's variables lack it. */
int nc_mpi_start(struct ctx *c, int *argc, char ***argv)
{
	int size = 0, rank = 0;
	MPI_Comm local;

	if (MPI_Init(argc, argv) != MPI_SUCCESS)
		return -1;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (c->l.nprocs > 0 && size != c->l.nprocs) {
		nc_say(c, "the launcher started %d processes (%s) but MPI says %d: "
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

/* CUDA's own words for why it sees nothing, the variable that most
 * often hides every GPU, and the launch as detected (which launcher, this
 * rank of how many), so a job without GPUs still shows that every process
 * found its place. */
int nc_count_gpus(struct ctx *c)
{
	int count = 0;
	cudaError_t e = cudaGetDeviceCount(&count);
	const char *vis = getenv("CUDA_VISIBLE_DEVICES");
	char launch[160] = "";

	if (e == cudaSuccess && count > 0)
		return count;
	if (c->run.launcher != NULL && c->l.nprocs > 0)
		snprintf(launch, sizeof(launch), "; launched by %s as rank %d "
			 "of %d (%s)", c->run.launcher, c->l.rank,
			 c->l.nprocs, c->l.source);
	else if (c->run.launcher != NULL)
		snprintf(launch, sizeof(launch), "; launched by %s as rank %d "
			 "(the size comes from MPI)", c->run.launcher,
			 c->l.rank);
	nc_say(c, "no GPU: CUDA found no device (cudaGetDeviceCount: %s; "
	    "CUDA_VISIBLE_DEVICES%s%s%s; /dev/nvidia0 %s)%s",
	    e == cudaSuccess ? "0 devices" : cudaGetErrorString(e),
	    vis == NULL ? " unset" : "='", vis == NULL ? "" : vis,
	    vis == NULL ? "" : "'",
	    access("/dev/nvidia0", F_OK) == 0 ? "present" : "missing",
	    launch);
	return -1;
}

/* Local rank k with -g N takes GPUs kN..kN+N-1, as nccl-tests does; too
 * few visible GPUs is said plainly instead of sharing one. */
int nc_pick_gpus(struct ctx *c, int count)
{
	int first;

	c->ndev = c->o.gpus_per_proc;
	first = c->l.local_rank * c->ndev;
	if (c->ndev > MAX_GPUS || first + c->ndev > count) {
		nc_say(c, "local rank %d with -g %d needs GPUs %d-%d but %d are "
		    "visible", c->l.local_rank, c->ndev, first,
		    first + c->ndev - 1, count);
		return -1;
	}
	for (int i = 0; i < c->ndev; i++) {
		struct dev *d = &c->d[i];

		d->id = first + i;
		d->rank = c->l.rank * c->ndev + i;
		/* a non-blocking stream, as nccl-tests creates its own */
		if (cudaSetDevice(d->id) != cudaSuccess ||
		    cudaStreamCreateWithFlags(&d->s, cudaStreamNonBlocking) !=
			    cudaSuccess ||
		    cudaEventCreateWithFlags(&d->done,
					     cudaEventDisableTiming) !=
			    cudaSuccess) {
			nc_say(c, "GPU %d: %s", d->id,
			    cudaGetErrorString(cudaGetLastError()));
			return -1;
		}
	}
	return 0;
}

/* Under torchrun's agent store: rank 0 publishes "ADDRESS PORT" of its
 * ephemeral listener, the others read it. Exits 2 when the store cannot
 * be used. */
static void agent_store(struct ctx *c, const char *where, long long dl)
{
	char key[256], err[320], got[320];

	nc_store_key(c->l.run_id, c->l.restart, key, sizeof(key));
	if (c->l.rank == 0) {
		if (nc_store_set(c->l.master_addr, c->l.master_port, key, where,
				 strlen(where), dl, err, sizeof(err)) == 0)
			return;
	} else if (nc_store_get(c->l.master_addr, c->l.master_port, key, got,
				sizeof(got) - 1, dl, err, sizeof(err)) >= 0 &&
		   sscanf(got, "%255s %d", c->l.master_addr,
			  &c->l.master_port) == 2 &&
		   c->l.master_port > 0) {
		return;
	}
	nc_say(c, "bootstrap: %s (TORCHELASTIC_USE_AGENT_STORE=True: "
	    "MASTER_PORT is torchrun's store)", err);
	exit(2);
}

#ifdef NC_HAVE_MPI
/* Rank 0's broadcast of its address while it waits for the hellos: one
 * process, one broadcast, so a file-scope request (MPI_REQUEST_NULL once
 * done). */
static MPI_Request where_req = MPI_REQUEST_NULL;

/* Lets MPI move the broadcast on (sc_hub_open_idle's hook). */
static void mpi_progress(void *arg)
{
	int done = 0;

	(void)arg;
	if (where_req != MPI_REQUEST_NULL)
		MPI_Test(&where_req, &done, MPI_STATUS_IGNORE);
}
#define HUB_IDLE mpi_progress

/* Rank 0's address to every process through MPI, never blocking on a
 * process that does not take part: rank 0 starts the broadcast and goes
 * on to wait for the hellos, progressing it meanwhile, so the hub's own
 * timeout names the rank that never came; the others wait for it against
 * the deadline and name rank 0 when it does not come. Exits 1 then. */
static void mpi_where(struct ctx *c, char *where, size_t len, long long dl)
{
	char t[64];

	MPI_Ibcast(where, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD, &where_req);
	if (c->l.rank == 0) {
		mpi_progress(NULL);
		return;
	}
	nc_wd_arm(dl + GRACE_US, "rank 0's address through MPI_Ibcast");
	while (where_req != MPI_REQUEST_NULL && mono_now_us() < dl) {
		mpi_progress(NULL);
		if (where_req != MPI_REQUEST_NULL)
			usleep(500);
	}
	if (where_req == MPI_REQUEST_NULL)
		return;
	nc_say(c, "collective-timeout: bootstrap: rank 0's address did not "
	    "come through MPI within %s (MPI_Ibcast): rank 0 (or a rank "
	    "relaying it) did not take part",
	    fmt_duration(c->o.timeout_us, t, sizeof(t)));
	exit(1);
}
#else
#define HUB_IDLE NULL
#endif

/* The watchdog's heartbeat channel (bootstrap/wd_net.h): rank 0 listens
 * on an ephemeral port and tells the others over the side channel; each
 * connects and hands its socket to the watchdog thread. Best effort: a
 * process without it still has every bounded wait, only the watchdog's
 * message names no rank. Exits 1 when the side channel itself fails. */
static void watch_channel(struct ctx *c, long long dl)
{
	unsigned char wp[SC_U32_WIRE] = {0};
	int wl = -1, port = 0, fd;
	long long cdl = mono_now_us() + 2000000;

	if (c->l.nprocs <= 1)
		return;
	if (c->l.rank == 0) {
		wl = sc_listen("0.0.0.0", 0, &port);
		sc_u32_pack(wl >= 0 ? (uint32_t)port : 0, wp);
	}
	if (sc_bcast(&c->sc, wp, sizeof(wp), dl) < 0) {
		nc_say(c, "bootstrap: %s", c->sc.why);
		exit(1);
	}
	if (c->l.rank == 0) {
		if (wl >= 0 && nc_wd_net_hub(wl, c->l.nprocs) < 0)
			close(wl);
		return;
	}
	port = (int)sc_u32_unpack(wp);
	if (port == 0)
		return;
	fd = sc_connect(c->l.master_addr, port, cdl < dl ? cdl : dl);
	if (fd >= 0 && nc_wd_net_client(fd) < 0)
		close(fd);
}

/* Under MPI rank 0 listens on an ephemeral port and MPI tells the others
 * where; under torchrun's agent store the store tells them; under srun
 * and torchrun-style variables the address is known. A rank nobody
 * reaches is the finding rank-unreachable on rank 0. */
void nc_open_channel(struct ctx *c, const struct nc_rankinfo *mine)
{
	long long dl = mono_now_us() + c->o.timeout_us;
	int lfd = -1, port = 0;
	static char where[320]; /* MPI may still read it: rank 0 */

	memset(where, 0, sizeof(where));

	if (c->l.boot == LAUNCH_BOOT_SINGLE) {
		sc_hub_open(&c->sc, -1, 1, mine->host, dl);
		return;
	}
	if (c->l.boot == LAUNCH_BOOT_MPI || c->l.agent_store) {
		if (c->l.rank == 0) {
			lfd = sc_listen("0.0.0.0", 0, &port);
			snprintf(where, sizeof(where), "%s %d",
				 mine->address[0] ? mine->address : mine->host,
				 lfd >= 0 ? port : 0);
		}
	} else if (c->l.rank == 0) {
		lfd = sc_listen("0.0.0.0", c->l.master_port, &port);
		if (lfd < 0) {
			nc_say(c, "bootstrap: cannot listen on port %d: %s",
			    c->l.master_port, strerror(errno));
			exit(2);
		}
	}
	if (c->l.boot == LAUNCH_BOOT_MPI) {
#ifdef NC_HAVE_MPI
		mpi_where(c, where, sizeof(where), dl);
		if (sscanf(where, "%255s %d", c->l.master_addr,
			   &c->l.master_port) != 2 ||
		    c->l.master_port == 0) {
			nc_say(c, "bootstrap: rank 0 could not listen");
			exit(2);
		}
#endif
	} else if (c->l.agent_store) {
		if (c->l.rank == 0 && lfd < 0) {
			nc_say(c, "bootstrap: cannot listen: %s",
			    strerror(errno));
			exit(2);
		}
		agent_store(c, where, dl);
	}
	nc_wd_arm(dl + GRACE_US, "the side channel");
	if (c->l.rank == 0) {
		if (sc_hub_open_idle(&c->sc, lfd, c->l.nprocs, mine->host, dl,
				     HUB_IDLE, NULL) < 0) {
			nc_say(c, "%s", c->sc.why);
			nc_run_finding(&c->run, FINDING_RANK_UNREACHABLE, -1, "%s",
				       c->sc.why);
			exit(nc_finish(c, false));
		}
	} else if (sc_client_open(&c->sc, c->l.master_addr, c->l.master_port,
				  c->l.rank, c->l.nprocs, dl) < 0) {
		nc_say(c, "%s", c->sc.why);
		exit(1);
	}
	if (lfd >= 0)
		close(lfd);
#ifdef NC_HAVE_MPI
	/* everyone connected, so everyone has the address: the broadcast
	 * ends at once (bounded all the same) */
	while (where_req != MPI_REQUEST_NULL && mono_now_us() < dl)
		mpi_progress(NULL);
#endif
	watch_channel(c, dl);
	nc_wd_disarm();
}
