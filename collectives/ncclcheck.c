/* ncclcheck: NCCL collectives that measure like nccl-tests and never hang.
 * This file is the GPU side of the harness: launch, pre-flight, NCCL
 * communicators, the sweep with its timing and checks, and the exits. */
#include "bootstrap.h"
#include "coll.h"
#include "harness.h"
#include "doc/doc.h"
#include "kernel/iface.h"
#include "kernels.h"
#include "launch.h"
#include "decide/nccl_select.h"
#include "nccllog.h"
#include "output.h"
#include "base/parse.h"
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


void nc_say(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One error line on stderr with the rank prefix (house style). */
void nc_say(struct ctx *c, const char *fmt, ...)
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
int nc_finish(struct ctx *c, bool ran)
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
			nc_say(c, "cannot write '%s'", c->o.json_path);
		doc_free(&d);
	}
	if (c->o.csv_path != NULL) {
		FILE *fp = fopen(c->o.csv_path, "w");

		if (fp == NULL || nc_write_csv(fp, run) < 0)
			nc_say(c, "cannot write '%s'", c->o.csv_path);
		if (fp != NULL)
			fclose(fp);
	}
	if (c->o.junit_path != NULL) {
		FILE *fp = fopen(c->o.junit_path, "w");

		if (fp == NULL || nc_write_junit(fp, run) < 0)
			nc_say(c, "cannot write '%s'", c->o.junit_path);
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
			nc_say(c, "bootstrap: rank 0 could not listen");
			exit(2);
		}
#endif
	} else if (c->l.rank == 0) {
		lfd = sc_listen("0.0.0.0", c->l.master_port, &port);
		if (lfd < 0) {
			nc_say(c, "bootstrap: cannot listen on port %d: %s",
			    c->l.master_port, strerror(errno));
			exit(2);
		}
	}
	nc_wd_arm(dl + GRACE_US, "bootstrap");
	if (c->l.rank == 0) {
		if (sc_hub_open(&c->sc, lfd, c->l.nprocs, dl) < 0) {
			nc_say(c, "%s", c->sc.why);
			nc_run_finding(&c->run, "rank-unreachable", -1, "%s",
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
		nc_say(c, "no memory");
		exit(2);
	}
	for (int i = 0; i < c->ndev; i++)
		nc_rankinfo_pack(&mine[i], buf + (size_t)i * NC_RANKINFO_WIRE);
	dl = sc_now_us() + c->o.timeout_us;
	nc_wd_arm(dl + GRACE_US, "pre-flight exchange");
	if (sc_allgather(&c->sc, buf, per, allbuf, dl) < 0) {
		nc_say(c, "pre-flight: %s", c->sc.why);
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
			nc_say(c, "pre-flight: %s", c->sc.why);
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
			nc_say(c, "%s: %s", f[i].code, f[i].summary);
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
			nc_fail_step(c, "communicator split", c->sc.why, false);
		if (sc_now_us() > dl)
			nc_fail_step(c, "communicator split",
				     "did not complete in time", true);
		usleep(spins > 1000 ? 1000 : 10);
	}
fallback:
	nc_say(c, "warning: blocking split failed (%s); the sweep runs on the "
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
		nc_fail_step(c, "communicator init", c->sc.why, false);
	if (c->l.rank == 0 && (rc = ncclGetUniqueId(&id)) != ncclSuccess) {
		char why[256];

		snprintf(why, sizeof(why), "ncclGetUniqueId: %s (%s)",
			 ncclGetErrorString(rc), ncclGetLastError(NULL));
		nc_fail_step(c, "communicator init", why, false);
	}
	ids = calloc((size_t)c->sc.nprocs, sizeof(*ids));
	if (ids == NULL || sc_allgather(&c->sc, &id, sizeof(id), ids, dl) < 0)
		nc_fail_step(c, "communicator init", c->sc.why, c->sc.timed_out);
	id = ids[0];
	free(ids);
	if (c->stall_rank == c->l.rank && c->stall_step == c->step) {
		nc_say(c, "test: stalling before communicator init "
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
		nc_fail_step(c, "communicator init", why, false);
	}
	nc_wait_comms(c, "communicator init", dl);
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
			nc_fail_step(c, "buffer allocation", why, false);
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
	nc_wait_comms(c, "communicator teardown", dl);
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
		nc_say(c, "no GPU: cudaGetDeviceCount found none (driver "
		    "missing, or CUDA_VISIBLE_DEVICES empty)");
		return -1;
	}
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
		if (cudaSetDevice(d->id) != cudaSuccess ||
		    cudaStreamCreateWithFlags(&d->s, cudaStreamNonBlocking) !=
			    cudaSuccess ||
		    cudaEventCreate(&d->e0) != cudaSuccess ||
		    cudaEventCreate(&d->e1) != cudaSuccess ||
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

/* Parse, detect the launch, pre-flight, NCCL, sweep, outputs, exit. */
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
	if (c.o.json_path != NULL && strcmp(c.o.json_path, "-") == 0)
		c.o.quiet = true; /* the document owns standard output */
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
		nc_say(&c, "only one rank (%s, -g 1): bus bandwidth would be 0 "
		    "and no link is tested; start several (mpirun -np N, srun, "
		    "WORLD_SIZE) or use -g N, or pass --allow-one-rank",
		    c.l.source);
		return 2;
	}
	debug_env(&c);
	if (nc_wd_start(c.prefix) < 0) {
		nc_say(&c, "cannot start the watchdog thread");
		return 2;
	}
	if (pick_gpus(&c) < 0)
		return 2;
	if (!preflight(&c)) {
		/* every rank decided the same from the same data, before
		 * NCCL started: MPI can still finish cleanly */
		rc = nc_finish(&c, false);
#ifdef NC_HAVE_MPI
		if (c.l.kind == NC_LAUNCH_MPI)
			MPI_Finalize();
#endif
		return rc == 0 ? 1 : rc;
	}
	start_nccl(&c);
	nc_sweep(&c);
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
	rc = nc_finish(&c, true);
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
