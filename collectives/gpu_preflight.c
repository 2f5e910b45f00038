/* Pre-flight on the GPU side: what this rank reports (host, GPU, CUDA and
 * NCCL versions, the interface NCCL will pick, /dev/shm), the exchange of
 * those reports and of the reachability tests, and the verdict before
 * NCCL starts. The deciders themselves are pure (preflight.h). */
#include "harness.h"
#include "kernel/iface.h"
#include "decide/nccl_select.h"
#include "pf_exchange.h"
#include "preflight.h"
#include "watchdog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

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

	gethostname(host, sizeof(host) - 1);
	cudaRuntimeGetVersion(&rt);
	cudaDriverGetVersion(&drv);
	ncclGetVersion(&nv);
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
		ri[i].nccl_version = nv;
		snprintf(ri[i].rule, sizeof(ri[i].rule), "%s", ch.rule);
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

/* Every process tests a few others over TCP and shares the results, so
 * rank 0 can name who cannot reach whom. Fills the run's pairs. */
static int exchange_pairs(struct ctx *c, const struct nc_rankinfo *byproc,
			  int lfd, struct nc_pf_finding *f, int max)
{
	int np = c->l.nprocs;
	int targets[NC_PREFLIGHT_MAX_TARGETS];
	int nt = nc_preflight_targets(c->l.rank, np, targets,
				      NC_PREFLIGHT_MAX_TARGETS);
	struct nc_pair pr[NC_PREFLIGHT_MAX_TARGETS];
	unsigned char *pb = calloc(1, NC_PAIR_BLOCK), *pall;
	long long dl;
	int nf;

	pall = calloc((size_t)np, NC_PAIR_BLOCK);
	nc_preflight_probe(c->l.rank, byproc, targets, nt, lfd,
			   c->o.preflight_timeout_us, pr);
	if (pb != NULL)
		nc_pair_block_pack(pr, nt, pb);
	dl = sc_now_us() + c->o.timeout_us;
	if (pb == NULL || pall == NULL ||
	    sc_allgather(&c->sc, pb, NC_PAIR_BLOCK, pall, dl) < 0) {
		nc_say(c, "pre-flight: %s", c->sc.why);
		exit(1);
	}
	c->run.pairs = calloc((size_t)np * NC_PREFLIGHT_MAX_TARGETS,
			      sizeof(*c->run.pairs));
	for (int p = 0; p < np && c->run.pairs != NULL; p++)
		c->run.npairs += nc_pair_block_unpack(
			pall + (size_t)p * NC_PAIR_BLOCK,
			&c->run.pairs[c->run.npairs]);
	c->run.preflight_ran = true;
	nf = nc_decide_pairs(byproc, np, c->run.pairs, c->run.npairs, f, max);
	free(pb);
	free(pall);
	return nf;
}

/* Runs before NCCL so that a wrong interface, mismatched versions or an
 * unreachable rank is named in seconds instead of hanging NCCL's init.
 * Every process decides the same from the same gathered data. */
bool nc_gpu_preflight(struct ctx *c)
{
	struct nc_rankinfo mine[MAX_GPUS];
	unsigned char *buf, *allbuf;
	size_t per = (size_t)c->ndev * NC_RANKINFO_WIRE;
	long long dl;
	struct nc_pf_finding f[NC_PF_MAX];
	int nf = 0, lfd = -1, port = 0, np = c->l.nprocs;
	struct nc_rankinfo *byproc;
	char (*hosts)[64];
	bool fatal;

	local_info(c, mine);
	if (mine[0].address[0] != '\0' && c->o.preflight && np > 1) {
		lfd = sc_listen(mine[0].address, 0, &port);
		if (lfd < 0) /* an advertised address not on this host */
			lfd = sc_listen("0.0.0.0", 0, &port);
	}
	for (int i = 0; i < c->ndev; i++)
		mine[i].port = port;
	nc_open_channel(c, &mine[0]);
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
	c->run.nhosts = nc_pf_sort_infos(allbuf, np, c->ndev, c->run.ranks,
					 c->nranks, byproc, hosts);
	sc_set_hosts(&c->sc, (const char(*)[64])hosts);
	nf += nc_decide_ifaces(byproc, np, getenv("NCCL_SOCKET_IFNAME"),
			       f + nf, NC_PF_MAX - nf);
	nf += nc_decide_versions(byproc, np, f + nf, NC_PF_MAX - nf);
	if (c->o.preflight && np > 1)
		nf += exchange_pairs(c, byproc, lfd, f + nf, NC_PF_MAX - nf);
	if (lfd >= 0)
		close(lfd);
	nc_wd_disarm();
	fatal = nc_run_pf_findings(&c->run, f, nf);
	if (c->l.rank == 0)
		for (int i = 0; i < nf; i++)
			nc_say(c, "%s: %s", f[i].code, f[i].summary);
	free(buf);
	free(allbuf);
	free(byproc);
	free(hosts);
	return !fatal;
}
