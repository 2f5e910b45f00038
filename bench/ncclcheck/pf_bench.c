/* The pre-flight with N simulated ranks on this machine: N threads, each a
 * process of ncclcheck's side channel with its own probe listener on
 * loopback, run the channel's open and the pre-flight exchanges
 * (nc_pf_round: infos to rank 0, targets back, the TCP probes, pairs to
 * rank 0, the findings to all). Prints the time of each phase, the
 * slowest rank's. With "old", the exchanges are instead the former
 * scheme's two allgathers (every process's infos and pair block sent to
 * every process: O(N^2) bytes), for comparison. Usage:
 * ncclcheck-pfbench N [old] (N 2..4096). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "bootstrap/bootstrap.h"
#include "preflight/pf_exchange.h"
#include "preflight/pf_round.h"

static int finished; /* ranks past their exchanges (atomic) */

struct sim {
	int rank, n, hub_port, hub_lfd, probe_lfd, probe_port, old;
	pthread_barrier_t *go;
	long long t_open, t_round;
	int nf;
	struct nc_run run;
};

/* The former scheme: gather to rank 0, then everything to everyone. */
static int old_allgather(struct sc *sc, size_t len, long long dl)
{
	size_t all = (size_t)sc->nprocs * len;
	unsigned char *mine = calloc(1, len), *buf = calloc(1, all);
	int rc = -1;

	if (mine != NULL && buf != NULL &&
	    sc_gather(sc, mine, len, sc->rank == 0 ? buf : NULL, dl) == 0 &&
	    sc_bcast(sc, buf, all, dl) == 0)
		rc = 0;
	free(mine);
	free(buf);
	return rc;
}

/* One simulated process. */
static void *sim_main(void *arg)
{
	struct sim *s = arg;
	struct nc_rankinfo ri;
	struct nc_pf_finding f[NC_PF_MAX];
	struct nc_pf_in in;
	struct sc sc;
	long long dl;

	memset(&ri, 0, sizeof(ri));
	ri.rank = ri.proc = s->rank;
	snprintf(ri.host, sizeof(ri.host), "sim%d", s->rank / 8);
	snprintf(ri.iface, sizeof(ri.iface), "lo");
	snprintf(ri.address, sizeof(ri.address), "127.0.0.1");
	ri.port = s->probe_port;
	ri.nccl_version = 22803;
	ri.cuda_runtime = ri.driver = 13000;
	pthread_barrier_wait(s->go);
	dl = mono_now_us() + 60000000;
	if (s->rank == 0 ? sc_hub_open(&sc, s->hub_lfd, s->n, "sim0", dl) :
			   sc_client_open(&sc, "127.0.0.1", s->hub_port,
					  s->rank, s->n, dl)) {
		fprintf(stderr, "rank %d: %s\n", s->rank, sc.why);
		s->nf = -1;
		return NULL;
	}
	s->t_open = mono_now_us();
	memset(&in, 0, sizeof(in));
	in.mine = &ri;
	in.ndev = 1;
	in.nranks = s->n;
	in.probe = true;
	in.listen_fd = s->probe_lfd;
	in.probe_timeout_us = 5000000;
	in.deadline_us = dl;
	if (s->old)
		s->nf = old_allgather(&sc, NC_RANKINFO_WIRE, dl) == 0 &&
				old_allgather(&sc, NC_PAIR_BLOCK, dl) == 0 ?
			0 : -1;
	else
		s->nf = nc_pf_round(&sc, &in, &s->run, f, NC_PF_MAX);
	s->t_round = mono_now_us();
	if (s->nf < 0)
		fprintf(stderr, "rank %d: %s\n", s->rank, sc.why);
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
	/* rank 0 closes only once every other has read what it sent */
	for (int i = 0; s->rank == 0 && i < 3000 &&
			__atomic_load_n(&finished, __ATOMIC_ACQUIRE) < s->n;
	     i++)
		usleep(10000);
	sc_close(&sc);
	return NULL;
}

/* Starts N threads at one barrier, reports the slowest of each phase. */
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0, port = 0, lfd, bad = 0;
	struct rlimit rl;
	pthread_barrier_t go;
	pthread_t *th;
	struct sim *s;
	long long t0, open = 0, round = 0;

	if (n < 2 || n > 4096) {
		fprintf(stderr, "usage: ncclcheck-pfbench N [old] (N 2..4096)\n");
		return 2;
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max; /* ~4 sockets per simulated rank */
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	th = calloc((size_t)n, sizeof(*th));
	s = calloc((size_t)n, sizeof(*s));
	lfd = sc_listen("127.0.0.1", 0, &port);
	if (th == NULL || s == NULL || lfd < 0) {
		fprintf(stderr, "pfbench: no memory or no listener\n");
		return 2;
	}
	pthread_barrier_init(&go, NULL, (unsigned)n + 1);
	for (int i = 0; i < n; i++) {
		s[i].rank = i;
		s[i].n = n;
		s[i].hub_port = port;
		s[i].hub_lfd = lfd;
		s[i].go = &go;
		s[i].old = argc > 2 && strcmp(argv[2], "old") == 0;
		s[i].probe_lfd = sc_listen("127.0.0.1", 0, &s[i].probe_port);
		if (s[i].probe_lfd < 0 ||
		    pthread_create(&th[i], NULL, sim_main, &s[i]) != 0) {
			fprintf(stderr, "pfbench: cannot start rank %d\n", i);
			return 2;
		}
	}
	t0 = mono_now_us();
	pthread_barrier_wait(&go);
	for (int i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		close(s[i].probe_lfd);
		if (s[i].nf != 0)
			bad++;
		if (s[i].t_open - t0 > open)
			open = s[i].t_open - t0;
		if (s[i].t_round - t0 > round)
			round = s[i].t_round - t0;
	}
	printf("pre-flight%s, %d simulated ranks (threads) on loopback: channel "
	       "open %.3f s, open + exchanges%s %.3f s; rank 0 holds %d pairs; "
	       "%d ranks with findings or errors\n", s[0].old ? " (former "
	       "allgathers)" : "", n, (double)open / 1e6,
	       s[0].old ? " without probes" : " + probes", (double)round / 1e6,
	       s[0].run.npairs, bad);
	free(s[0].run.ranks);
	free(s[0].run.pairs);
	close(lfd);
	free(th);
	free(s);
	return bad ? 1 : 0;
}
