/* Unit tests for launch detection and its refusals. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "launch/launch.h"
#include "suites.h"

/* A NULL-terminated list of "NAME=value" strings as the environment. */
static const char *tget(const char *name, void *ctx)
{
	const char *const *e = ctx;
	size_t n = strlen(name);

	for (; *e != NULL; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

START_TEST(mpi)
{
	const char *env[] = { "OMPI_COMM_WORLD_SIZE=4", "OMPI_COMM_WORLD_RANK=2",
			      "OMPI_COMM_WORLD_LOCAL_RANK=2", NULL };
	struct nc_launch l;
	char err[512];

	ck_assert_int_eq(nc_launch_detect(tget, env, true, &l, err,
					  sizeof(err)), 0);
	ck_assert_int_eq(l.boot, LAUNCH_BOOT_MPI);
	ck_assert_int_eq(l.rank, 2);
	ck_assert_int_eq(l.nprocs, 4);
	ck_assert_int_eq(l.local_rank, 2);
	/* the busbw = 0 trap: a binary without MPI under mpirun */
	ck_assert_int_eq(nc_launch_detect(tget, env, false, &l, err,
					  sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "built without MPI but started by "
				     "an MPI launcher (OMPI_COMM_WORLD_SIZE=4)"));
}
END_TEST

START_TEST(torchrun)
{
	const char *env[] = { "RANK=1", "WORLD_SIZE=8", "LOCAL_RANK=1",
			      "MASTER_ADDR=10.0.0.1", "MASTER_PORT=29500",
			      NULL };
	const char *agent[] = { "RANK=0", "WORLD_SIZE=2", "LOCAL_RANK=0",
				"MASTER_ADDR=127.0.0.1", "MASTER_PORT=29500",
				"TORCHELASTIC_USE_AGENT_STORE=True", NULL };
	const char *nomaster[] = { "RANK=1", "WORLD_SIZE=8", NULL };
	const char *half[] = { "RANK=1", NULL };
	const char *bad[] = { "RANK=8", "WORLD_SIZE=8", NULL };
	struct nc_launch l;
	char err[512];

	ck_assert_int_eq(nc_launch_detect(tget, env, false, &l, err,
					  sizeof(err)), 0);
	ck_assert_int_eq(l.boot, LAUNCH_BOOT_TORCHRUN);
	ck_assert_int_eq(l.rank, 1);
	ck_assert_int_eq(l.nprocs, 8);
	ck_assert_str_eq(l.master_addr, "10.0.0.1");
	ck_assert_int_eq(l.master_port, 29500);
	ck_assert(!l.agent_store);
	ck_assert_int_eq(nc_launch_detect(tget, agent, false, &l, err,
					  sizeof(err)), 0);
	ck_assert(l.agent_store); /* MASTER_PORT is torchrun's store */
	ck_assert_int_eq(nc_launch_detect(tget, nomaster, false, &l, err,
					  sizeof(err)), -1);
	ck_assert_str_eq(err, "RANK and WORLD_SIZE are set but MASTER_ADDR is "
			 "not");
	ck_assert_int_eq(nc_launch_detect(tget, half, false, &l, err,
					  sizeof(err)), -1);
	ck_assert_str_eq(err, "RANK is set but WORLD_SIZE is not: set RANK, "
			 "WORLD_SIZE, MASTER_ADDR and MASTER_PORT together");
	ck_assert_int_eq(nc_launch_detect(tget, bad, false, &l, err,
					  sizeof(err)), -1);
	ck_assert_str_eq(err, "RANK=8 is not below WORLD_SIZE=8");
}
END_TEST

START_TEST(slurm)
{
	const char *env[] = { "SLURM_NTASKS=8", "SLURM_PROCID=5",
			      "SLURM_LOCALID=1", "SLURM_STEP_ID=0",
			      "SLURM_JOB_ID=1234",
			      "SLURM_STEP_NODELIST=gpu[07-10],cpu1", NULL };
	const char *batch[] = { "SLURM_NTASKS=8", "SLURM_PROCID=0", NULL };
	struct nc_launch l;
	char err[512], h[64];

	ck_assert_int_eq(nc_launch_detect(tget, env, false, &l, err,
					  sizeof(err)), 0);
	ck_assert_int_eq(l.boot, LAUNCH_BOOT_OWN);
	ck_assert_int_eq(l.rank, 5);
	ck_assert_int_eq(l.local_rank, 1);
	ck_assert_str_eq(l.master_addr, "gpu07");
	ck_assert_int_eq(l.master_port, 20000 + (1234 * 16) % 20000);
	/* inside sbatch but not srun: one process where 8 were meant */
	ck_assert_int_eq(nc_launch_detect(tget, batch, false, &l, err,
					  sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "not an srun step"));
	ck_assert_int_eq(launch_first_host("node1", h, sizeof(h)), 0);
	ck_assert_str_eq(h, "node1");
	ck_assert_int_eq(launch_first_host("a[3,5]", h, sizeof(h)), 0);
	ck_assert_str_eq(h, "a3");
	ck_assert_int_eq(launch_first_host("", h, sizeof(h)), -1);
	ck_assert_int_eq(launch_first_host("a[x]", h, sizeof(h)), -1);
	/* suffixes and several bracket groups keep the text around */
	ck_assert_int_eq(launch_first_host("node[1-2]-ib", h, sizeof(h)), 0);
	ck_assert_str_eq(h, "node1-ib");
	ck_assert_int_eq(launch_first_host("node[07,09]-ib,x", h,
					     sizeof(h)), 0);
	ck_assert_str_eq(h, "node07-ib");
	ck_assert_int_eq(launch_first_host("r[1-2]-n[3-4].ib", h,
					     sizeof(h)), 0);
	ck_assert_str_eq(h, "r1-n3.ib");
	ck_assert_int_eq(launch_first_host("a[1-2", h, sizeof(h)), -1);
	ck_assert_int_eq(launch_first_host("a]1", h, sizeof(h)), -1);
}
END_TEST

START_TEST(single)
{
	const char *env[] = { NULL };
	const char *one[] = { "OMPI_COMM_WORLD_SIZE=1",
			      "OMPI_COMM_WORLD_RANK=0", NULL };
	struct nc_launch l;
	char err[512];

	ck_assert_int_eq(nc_launch_detect(tget, env, false, &l, err,
					  sizeof(err)), 0);
	ck_assert_int_eq(l.boot, LAUNCH_BOOT_SINGLE);
	ck_assert_int_eq(l.nprocs, 1);
	/* mpirun -np 1 of a binary without MPI is just one process */
	ck_assert_int_eq(nc_launch_detect(tget, one, false, &l, err,
					  sizeof(err)), 0);
	ck_assert_int_eq(l.boot, LAUNCH_BOOT_SINGLE);
}
END_TEST

/* A process per GPU asks MPI first, then torchrun-style, then srun; the
 * names come from kernel/launchenv.h's table. */
START_TEST(precedence)
{
	const char *all[] = { "PMI_SIZE=4", "PMI_RANK=3", "RANK=1",
			      "WORLD_SIZE=2", "MASTER_ADDR=h",
			      "MASTER_PORT=1", "SLURM_NTASKS=8",
			      "SLURM_PROCID=5", "SLURM_STEP_ID=0", NULL };
	const char *torch[] = { "RANK=1", "WORLD_SIZE=2", "MASTER_ADDR=h",
				"MASTER_PORT=1", "SLURM_NTASKS=8",
				"SLURM_PROCID=5", "SLURM_STEP_ID=0", NULL };
	const char *bad[] = { "PMI_SIZE=4", "PMI_RANK=x", NULL };
	const char *pmix[] = { "PMIX_RANK=2", NULL };
	struct nc_launch l;
	char err[512];

	ck_assert_int_eq(nc_launch_detect(tget, all, true, &l, err,
					  sizeof(err)), 0);
	ck_assert_int_eq(l.boot, LAUNCH_BOOT_MPI);
	ck_assert_str_eq(l.source, "PMI_SIZE");
	ck_assert_int_eq(l.rank, 3);
	ck_assert_int_eq(nc_launch_detect(tget, torch, false, &l, err,
					  sizeof(err)), 0);
	ck_assert_int_eq(l.boot, LAUNCH_BOOT_TORCHRUN);
	ck_assert_int_eq(l.rank, 1);
	ck_assert_int_eq(nc_launch_detect(tget, bad, true, &l, err,
					  sizeof(err)), -1);
	ck_assert_str_eq(err, "invalid PMI_SIZE or PMI_RANK");
	/* PMIx alone: MPI tells the size */
	ck_assert_int_eq(nc_launch_detect(tget, pmix, true, &l, err,
					  sizeof(err)), 0);
	ck_assert_int_eq(l.boot, LAUNCH_BOOT_MPI);
	ck_assert_int_eq(l.nprocs, 0);
}
END_TEST

Suite *suite_nc_launch(void)
{
	Suite *s = suite_create("nc_launch");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, mpi);
	tcase_add_test(tc, torchrun);
	tcase_add_test(tc, slurm);
	tcase_add_test(tc, single);
	tcase_add_test(tc, precedence);
	suite_add_tcase(s, tc);
	return s;
}
