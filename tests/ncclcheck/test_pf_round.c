/* Unit tests for the pre-flight's exchanges over loopback, one thread per
 * process (every process ends with rank 0's findings; the hub holds the
 * table and the pairs), the findings' wire format, and the driver
 * version read from a recorded /proc file. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "base/sysroot.h"
#include "bootstrap/bootstrap.h"
#include "doc/finding.h"
#include "preflight/pf_round.h"
#include "suites.h"

#define NP 4

struct pproc {
	int rank, hub_port, hub_lfd, probe_lfd, probe_port, dead_port;
	struct sc sc;
	struct nc_pf_out run;
	struct nc_pf_finding f[NC_PF_MAX];
	int nf;
};

/* One process: open the channel, run the round with fake infos. */
static void *pmain(void *arg)
{
	struct pproc *p = arg;
	struct nc_rankinfo ri;
	struct nc_pf_in in;
	long long dl = mono_now_us() + 4000000;

	memset(&ri, 0, sizeof(ri));
	ri.rank = p->rank;
	ri.proc = p->rank;
	snprintf(ri.host, sizeof(ri.host), "h%d", p->rank);
	snprintf(ri.iface, sizeof(ri.iface), "lo");
	snprintf(ri.address, sizeof(ri.address), "127.0.0.1");
	ri.port = p->rank == 3 ? p->dead_port : p->probe_port;
	ri.nccl_version = p->rank == 1 ? 22703 : 22803;
	ri.cuda_runtime = p->rank == 2 ? 12080 : 13000;
	ri.driver = 13000;
	if (p->rank == 0) {
		if (sc_hub_open(&p->sc, p->hub_lfd, NP, "h0", dl) < 0)
			return NULL;
	} else if (sc_client_open(&p->sc, "127.0.0.1", p->hub_port, p->rank,
				  NP, dl) < 0) {
		return NULL;
	}
	memset(&in, 0, sizeof(in));
	in.mine = &ri;
	in.ndev = 1;
	in.nranks = NP;
	in.probe = true;
	in.listen_fd = p->probe_lfd;
	in.probe_timeout_us = 1000000;
	in.deadline_us = dl;
	p->nf = nc_pf_round(&p->sc, &in, &p->run, p->f, NC_PF_MAX);
	if (p->rank == 0)
		usleep(100000);
	sc_close(&p->sc);
	return NULL;
}

START_TEST(hub_round)
{
	static struct pproc p[NP];
	pthread_t th[NP];
	int hub_port = 0, hub = sc_listen("127.0.0.1", 0, &hub_port);
	int dead_port = 0, dead = sc_listen("127.0.0.1", 0, &dead_port);

	close(dead); /* refused from now on */
	for (int i = 0; i < NP; i++) {
		memset(&p[i], 0, sizeof(p[i]));
		p[i].rank = i;
		p[i].hub_port = hub_port;
		p[i].hub_lfd = hub;
		p[i].dead_port = dead_port;
		p[i].probe_lfd = sc_listen("127.0.0.1", 0, &p[i].probe_port);
		pthread_create(&th[i], NULL, pmain, &p[i]);
	}
	for (int i = 0; i < NP; i++)
		pthread_join(th[i], NULL);
	close(hub);
	for (int i = 0; i < NP; i++) {
		bool unreach = false, nccl = false, cuda = false;

		close(p[i].probe_lfd);
		ck_assert_int_eq(p[i].nf, p[0].nf);
		for (int k = 0; k < p[i].nf; k++) {
			const char *s = p[i].f[k].summary;

			if (strstr(s, "rank 3 on h3 advertises 127.0.0.1") &&
			    strstr(s, "connects from ranks 0-2: refused"))
				unreach = true;
			if (strstr(s, "NCCL 2.28.3") && strstr(s, "2.27.3") &&
			    p[i].f[k].severity == -1)
				nccl = true;
			if (strstr(s, "CUDA runtime 13.0") &&
			    p[i].f[k].severity == SEV_WARNING)
				cuda = true;
		}
		ck_assert_msg(unreach && nccl && cuda, "process %d: %d "
			      "findings", i, p[i].nf);
	}
	ck_assert_ptr_nonnull(p[0].run.ranks);
	ck_assert_str_eq(p[0].run.ranks[2].host, "h2");
	ck_assert_int_eq(p[0].run.nhosts, 4);
	ck_assert(p[0].run.ran);
	ck_assert_int_eq(p[0].run.npairs, NP * (NP - 1));
	ck_assert_ptr_null(p[1].run.ranks); /* nobody else holds it all */
	for (int i = 0; i < NP; i++) {
		free(p[i].run.ranks);
		free(p[i].run.pairs);
	}
}
END_TEST

START_TEST(findings_wire)
{
	struct nc_pf_finding a[2] = {
		{ "nccl-version-mismatch", -1, "NCCL 2.28.3 on rank 0" },
		{ "rank-unreachable", 2, "rank 3 on h3" },
	}, b[2];
	unsigned char buf[2 * NC_PF_FINDING_WIRE + 4];

	ck_assert_uint_eq(nc_pf_findings_size(2), sizeof(buf));
	nc_pf_findings_pack(a, 2, buf);
	ck_assert_int_eq(nc_pf_findings_unpack(buf, sizeof(buf), b, 2), 2);
	ck_assert_str_eq(b[1].code, "rank-unreachable");
	ck_assert_int_eq(b[0].severity, -1);
	ck_assert_int_eq(b[1].severity, 2);
	ck_assert_str_eq(b[0].summary, "NCCL 2.28.3 on rank 0");
	/* a count past the bytes is refused */
	ck_assert_int_eq(nc_pf_findings_unpack(buf, 100, b, 2), -1);
	ck_assert_int_eq(nc_pf_findings_unpack(buf, 3, b, 2), -1);
	ck_assert_int_eq(nc_pf_findings_unpack(buf, sizeof(buf), b, 1), 1);
}
END_TEST

/* Writes a recorded /proc/driver/nvidia/version under dir. */
static void record(const char *dir, const char *line)
{
	char p[512];
	FILE *fp;

	snprintf(p, sizeof(p), "%s/proc/driver/nvidia", dir);
	for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')) != NULL;
	     s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
	strcat(p, "/version");
	fp = fopen(p, "w");
	ck_assert_ptr_nonnull(fp);
	fprintf(fp, "%s\n", line);
	fclose(fp);
}

START_TEST(driver_version)
{
	char dir[] = "/tmp/nc-drv-XXXXXX", v[32];
	struct sysroot sr;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(sysroot_init(&sr, dir), 0);
	ck_assert_int_eq(nc_driver_version(&sr, v, sizeof(v)), -1);
	ck_assert_str_eq(v, "");
	record(dir, "NVRM version: NVIDIA UNIX x86_64 Kernel Module  "
	       "580.159.04  Release Build  (dvs-builder@U16-I3-B03-4-3)  "
	       "Tue Oct  7 18:57:38 UTC 2025");
	ck_assert_int_eq(nc_driver_version(&sr, v, sizeof(v)), 0);
	ck_assert_str_eq(v, "580.159.04");
	record(dir, "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
	       "575.57.08  Release Build  (dvs-builder@U16-A24-35-2)");
	ck_assert_int_eq(nc_driver_version(&sr, v, sizeof(v)), 0);
	ck_assert_str_eq(v, "575.57.08");
	record(dir, "NVRM version: something else");
	ck_assert_int_eq(nc_driver_version(&sr, v, sizeof(v)), -1);
}
END_TEST

Suite *suite_nc_pf_round(void)
{
	Suite *s = suite_create("nc_pf_round");
	TCase *tc = tcase_create("loopback");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, hub_round);
	tcase_add_test(tc, findings_wire);
	tcase_add_test(tc, driver_version);
	suite_add_tcase(s, tc);
	return s;
}
