/* Pre-flight on the GPU side: what this rank reports (host, GPU, CUDA and
 * NCCL versions, the interface NCCL will pick, /dev/shm), the exchange of
 * those reports and of the reachability tests, and the verdict before
 * NCCL starts. The deciders themselves are pure (preflight.h). */
#include "gpu/harness.h"
#include "kernel/iface.h"
#include "decide/nccl_select.h"
#include "base/sysroot.h"
#include "preflight/pf_exchange.h"
#include "preflight/pf_round.h"
#include "preflight/preflight.h"
#include "bootstrap/watchdog.h"
#include "bootstrap/wd_decide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/monoclock.h"

/* Fills this process's rank infos (one per local GPU). The interface is
 * the one NCCL's bootstrap would listen on here (with NCCL_COMM_ID set,
 * the subnet match alone: nccl_select_bootstrap), so pre-flight tests
 * what NCCL will use, not what the host likes best. */
static void local_info(struct ctx *c, struct nc_rankinfo *ri)
{
	struct iface_list il = { 0 };
	struct nccl_env env;
	struct nccl_conf conf;
	struct sysroot sr;
	struct nccl_choice ch;
	struct statvfs sv;
	char host[64] = "unknown";
	int rt = 0, drv = 0, nv = 0;
	char dv[32];
	struct sysroot live;

	gethostname(host, sizeof(host) - 1);
	cudaRuntimeGetVersion(&rt);
	cudaDriverGetVersion(&drv);
	ncclGetVersion(&nv);
	sysroot_init(&live, NULL);
	nc_driver_version(&live, dv, sizeof(dv));
	nccl_env_from_process(&env);
	/* NCCL reads NCCL_CONF_FILE or ~/.nccl.conf, then /etc/nccl.conf,
	 * under the environment (src/misc/param.cc) */
	if (sysroot_init(&sr, NULL) == 0)
		nccl_env_apply_conf(&env, &sr, &conf);
	memset(&ch, 0, sizeof(ch));
	if (nc_ifaddrs_list(&il) == 0)
		nccl_select_bootstrap(&il, &env, &ch);
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
		snprintf(ri[i].driver_version, sizeof(ri[i].driver_version),
			 "%s", dv);
		ri[i].nccl_version = nv;
		snprintf(ri[i].rule, sizeof(ri[i].rule), "%s", ch.rule);
		nc_ib_env_format(getenv("NCCL_IB_HCA"),
				 getenv("NCCL_IB_GID_INDEX"),
				 getenv("NCCL_IB_DISABLE"), getenv("NCCL_NET"),
				 ri[i].ib_env, sizeof(ri[i].ib_env));
		if (ch.n > 0) {
			snprintf(ri[i].iface, sizeof(ri[i].iface), "%s",
				 ch.v[0].name);
			snprintf(ri[i].address, sizeof(ri[i].address), "%s",
				 ch.v[0].addr->str);
		}
		if (statvfs("/dev/shm", &sv) == 0)
			ri[i].shm_bytes = (unsigned long long)sv.f_blocks *
					  sv.f_frsize;
	}
	/* test only: this rank advertises an address nobody can reach, as
	 * a rank behind NAT does (NCCLCHECK_TEST_ADVERTISE=RANK:ADDRESS) */
	if (c->hooks.advertise_rank == c->l.rank)
		for (int i = 0; i < c->ndev; i++)
			snprintf(ri[i].address, sizeof(ri[i].address), "%s",
				 c->hooks.advertise);
	iface_list_free(&il);
}

/* Runs before NCCL so that a wrong interface, mismatched versions or an
 * unreachable rank is named in seconds instead of hanging NCCL's init.
 * Rank 0 decides from what it gathered and tells every process. */
bool nc_gpu_preflight(struct ctx *c)
{
	struct nc_rankinfo mine[MAX_GPUS];
	struct nc_pf_finding f[NC_PF_MAX];
	int nf, lfd = -1, port = 0, np;
	struct nc_pf_in in;
	struct nc_pf_out pf; /* the round's part of c->run, in and out */
	bool fatal;

	local_info(c, mine);
	snprintf(c->nccl_iface, sizeof(c->nccl_iface), "%s", mine[0].iface);
	if (mine[0].address[0] != '\0' && c->o.preflight && c->l.nprocs > 1) {
		lfd = sc_listen(mine[0].address, 0, &port);
		if (lfd < 0) /* an advertised address not on this host */
			lfd = sc_listen("0.0.0.0", 0, &port);
	}
	for (int i = 0; i < c->ndev; i++)
		mine[i].port = port;
	nc_wd_phase(NC_WD_BOOTSTRAP, "");
	nc_open_channel(c, &mine[0]);
	nc_wd_phase(NC_WD_PREFLIGHT, "");
	np = c->l.nprocs;
	memset(&in, 0, sizeof(in));
	in.mine = mine;
	in.ndev = c->ndev;
	in.nranks = c->nranks;
	in.probe = c->o.preflight && np > 1;
	in.listen_fd = lfd;
	in.probe_timeout_us = c->o.preflight_timeout_us;
	in.socket_ifname = getenv("NCCL_SOCKET_IFNAME");
	in.deadline_us = mono_now_us() + c->o.timeout_us;
	nc_wd_arm(in.deadline_us + GRACE_US, "pre-flight exchange");
	pf.ranks = c->run.ranks;
	pf.nhosts = c->run.nhosts;
	pf.pairs = c->run.pairs;
	pf.npairs = c->run.npairs;
	pf.ran = c->run.preflight_ran;
	nf = nc_pf_round(&c->sc, &in, &pf, f, NC_PF_MAX);
	c->run.ranks = pf.ranks;
	c->run.nhosts = pf.nhosts;
	c->run.pairs = pf.pairs;
	c->run.npairs = pf.npairs;
	c->run.preflight_ran = pf.ran;
	if (nf < 0) {
		nc_say(c, "pre-flight: %s", c->sc.why);
		exit(1);
	}
	if (lfd >= 0)
		close(lfd);
	nc_wd_disarm();
	fatal = nc_run_pf_findings(&c->run, f, nf);
	if (c->l.rank == 0)
		for (int i = 0; i < nf; i++)
			nc_say(c, "%s: %s", f[i].code, f[i].summary);
	return !fatal;
}
