/* Unit tests for the launchers' table (kernel/launchenv.h): each source
 * read from a variable table, the precedence a program gives, bad values,
 * and the first host of a Slurm node list. */
#include "kernel/hostlist.h"
#include "kernel/launchenv.h"

#include <check.h>
#include <string.h>

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

/* Every source names a rank and a label; only Slurm's node level has no
 * size variable (its list gives it), and only Slurm names host lists. */
START_TEST(table_complete)
{
	for (int s = 0; s < LAUNCH_NSRC; s++) {
		const struct launch_source *src = &launch_sources[s];

		ck_assert_ptr_nonnull(src->name);
		ck_assert_ptr_nonnull(src->label);
		ck_assert_ptr_nonnull(launch_boot_words[src->boot]);
		ck_assert_ptr_nonnull(src->rank);
		ck_assert_ptr_nonnull(src->local_rank);
		if (s == LAUNCH_SLURM_NODES)
			ck_assert_ptr_null(src->size);
		else
			ck_assert_ptr_nonnull(src->size);
		ck_assert_int_eq(src->hosts[0] != NULL,
		                 s == LAUNCH_SLURM_TASKS ||
		                     s == LAUNCH_SLURM_NODES);
	}
	ck_assert_str_eq(launch_sources[LAUNCH_PMI].local_rank,
	                 "MPI_LOCALRANKID");
	ck_assert_str_eq(launch_sources[LAUNCH_TORCHRUN].node0, "MASTER_ADDR");
}
END_TEST

/* One environment per source, each read through its own row. */
START_TEST(each_source)
{
	static const struct {
		enum launch_src s;
		const char *env[6];
		int size, rank, local;
	} c[] = {
	    {LAUNCH_OMPI,
	     {"OMPI_COMM_WORLD_SIZE=4", "OMPI_COMM_WORLD_RANK=2",
	      "OMPI_COMM_WORLD_LOCAL_RANK=1", NULL},
	     4,
	     2,
	     1},
	    {LAUNCH_PMI,
	     {"PMI_SIZE=8", "PMI_RANK=7", "MPI_LOCALRANKID=3", NULL},
	     8,
	     7,
	     3},
	    {LAUNCH_PMIX, {"PMIX_RANK=5", NULL}, -1, 5, -1},
	    {LAUNCH_TORCHRUN,
	     {"WORLD_SIZE=16", "RANK=9", "LOCAL_RANK=1", "MASTER_ADDR=head",
	      "MASTER_PORT=29500", NULL},
	     16,
	     9,
	     1},
	    {LAUNCH_TORCH_NODES,
	     {"NNODES=2", "NODE_RANK=1", "MASTER_ADDR=head", NULL},
	     2,
	     1,
	     -1},
	    {LAUNCH_SLURM_TASKS,
	     {"SLURM_NTASKS=8", "SLURM_PROCID=6", "SLURM_LOCALID=2",
	      "SLURM_JOB_NODELIST=gpu[1-4]", NULL},
	     8,
	     6,
	     2},
	    {LAUNCH_SLURM_NODES,
	     {"SLURM_NODEID=3", "SLURM_STEP_NODELIST=n[1-4]",
	      "SLURM_JOB_NODELIST=n[1-8]", NULL},
	     -1,
	     3,
	     -1},
	};
	char err[128];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct launch_vals v;

		ck_assert_int_eq(launch_read(tget, (void *)c[i].env, c[i].s,
		                             LAUNCH_SIZE_MAX, &v, err,
		                             sizeof(err)),
		                 1);
		ck_assert_int_eq(v.size, c[i].size);
		ck_assert_int_eq(v.rank, c[i].rank);
		ck_assert_int_eq(v.local_rank, c[i].local);
	}
	{
		struct launch_vals v;
		const char *t[] = {"WORLD_SIZE=2", "RANK=0",
		                   "MASTER_ADDR=10.0.0.1", "MASTER_PORT=29400",
		                   NULL};
		const char *s[] = {"SLURM_NODEID=0", "SLURM_STEP_NODELIST=a1",
		                   "SLURM_JOB_NODELIST=a[1-2]", NULL};

		ck_assert_int_eq(launch_read(tget, t, LAUNCH_TORCHRUN,
		                             LAUNCH_SIZE_MAX, &v, err,
		                             sizeof(err)),
		                 1);
		ck_assert_str_eq(v.node0, "10.0.0.1");
		ck_assert_int_eq(v.port, 29400);
		ck_assert_ptr_null(v.hosts);
		/* the step's list is preferred over the job's */
		ck_assert_int_eq(launch_read(tget, s, LAUNCH_SLURM_NODES,
		                             LAUNCH_SIZE_MAX, &v, err,
		                             sizeof(err)),
		                 1);
		ck_assert_str_eq(v.hosts_var, "SLURM_STEP_NODELIST");
		ck_assert_str_eq(v.hosts, "a1");
	}
}
END_TEST

/* A source whose rank is unset (or empty) did not start us. */
START_TEST(absent)
{
	const char *none[] = {NULL};
	const char *empty[] = {
	    "OMPI_COMM_WORLD_RANK=", "OMPI_COMM_WORLD_SIZE=4", NULL};
	struct launch_vals v;
	char err[128];

	for (int s = 0; s < LAUNCH_NSRC; s++)
		ck_assert_int_eq(launch_read(tget, none, (enum launch_src)s,
		                             LAUNCH_SIZE_MAX, &v, err,
		                             sizeof(err)),
		                 0);
	ck_assert_int_eq(launch_read(tget, empty, LAUNCH_OMPI, LAUNCH_SIZE_MAX,
	                             &v, err, sizeof(err)),
	                 0);
}
END_TEST

/* Bad values name the variable and why, through the checked parser. */
START_TEST(bad_values)
{
	static const struct {
		enum launch_src s;
		const char *env[4];
		const char *err;
	} c[] = {
	    {LAUNCH_SLURM_NODES,
	     {"SLURM_NODEID=x", NULL},
	     "SLURM_NODEID='x': not a number"},
	    {LAUNCH_OMPI,
	     {"OMPI_COMM_WORLD_RANK=-1", NULL},
	     "OMPI_COMM_WORLD_RANK='-1': "},
	    {LAUNCH_TORCHRUN,
	     {"RANK=0", "WORLD_SIZE=0", NULL},
	     "WORLD_SIZE='0': "},
	    {LAUNCH_TORCHRUN,
	     {"RANK=0", "MASTER_PORT=70000", NULL},
	     "MASTER_PORT='70000': "},
	    {LAUNCH_TORCHRUN,
	     {"RANK=4", "WORLD_SIZE=4", NULL},
	     "RANK=4 but WORLD_SIZE=4"},
	    {LAUNCH_PMI,
	     {"PMI_RANK=1", "PMI_SIZE=2", "MPI_LOCALRANKID=1x"},
	     "MPI_LOCALRANKID='1x': "},
	};
	char err[128];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct launch_vals v;

		err[0] = '\0';
		ck_assert_int_eq(launch_read(tget, (void *)c[i].env, c[i].s,
		                             LAUNCH_SIZE_MAX, &v, err,
		                             sizeof(err)),
		                 -1);
		ck_assert_msg(strncmp(err, c[i].err, strlen(c[i].err)) == 0,
		              "case %zu: '%s'", i, err);
	}
}
END_TEST

/* The caller's bound: a mesh of one process per node stops at 65536. */
START_TEST(bound)
{
	const char *big[] = {"RANK=70000", "WORLD_SIZE=70001", NULL};
	struct launch_vals v;
	char err[128];

	ck_assert_int_eq(launch_read(tget, big, LAUNCH_TORCHRUN,
	                             LAUNCH_SIZE_MAX, &v, err, sizeof(err)),
	                 1);
	ck_assert_int_eq(launch_read(tget, big, LAUNCH_TORCHRUN, 65536, &v, err,
	                             sizeof(err)),
	                 -1);
	ck_assert_str_eq(err, "RANK='70000': too large");
}
END_TEST

/* netprobe mesh's order (a process per node): Slurm's node list, then
 * torchrun's node level, then its ranks, then Open MPI, then PMIx. */
START_TEST(precedence)
{
	const char *all[] = {"SLURM_JOB_NODELIST=n[1-2]",
	                     "SLURM_NODEID=1",
	                     "MASTER_ADDR=head",
	                     "RANK=0",
	                     "WORLD_SIZE=2",
	                     "OMPI_COMM_WORLD_RANK=0",
	                     "OMPI_COMM_WORLD_SIZE=2",
	                     NULL};
	const char *torch[] = {"MASTER_ADDR=head",
	                       "RANK=3",
	                       "WORLD_SIZE=8",
	                       "NODE_RANK=1",
	                       "NNODES=2",
	                       "PMIX_RANK=0",
	                       NULL};
	const char *ompi[] = {"OMPI_COMM_WORLD_RANK=1",
	                      "OMPI_COMM_WORLD_SIZE=2", "PMIX_RANK=0", NULL};
	const char *pmix[] = {"PMIX_RANK=1", "WORLD_SIZE=2", NULL};
	struct mesh_env e;
	char err[256];

	ck_assert_int_eq(
	    mesh_env_detect(tget, all, NULL, NULL, &e, err, sizeof(err)), 0);
	ck_assert_int_eq(e.src, LAUNCH_SLURM_NODES);
	ck_assert_str_eq(e.source, "Slurm");
	mesh_env_free(&e);
	ck_assert_int_eq(
	    mesh_env_detect(tget, torch, NULL, NULL, &e, err, sizeof(err)), 0);
	ck_assert_str_eq(e.source, "torchrun-style variables");
	ck_assert_str_eq(e.vars, "MASTER_ADDR, NODE_RANK, NNODES");
	mesh_env_free(&e);
	ck_assert_int_eq(
	    mesh_env_detect(tget, ompi, NULL, "head", &e, err, sizeof(err)), 0);
	ck_assert_int_eq(e.src, LAUNCH_OMPI);
	ck_assert_str_eq(e.source, "Open MPI");
	ck_assert_int_eq(e.rank, 1);
	mesh_env_free(&e);
	ck_assert_int_eq(
	    mesh_env_detect(tget, pmix, NULL, "head", &e, err, sizeof(err)), 0);
	ck_assert_int_eq(e.src, LAUNCH_PMIX);
	ck_assert_str_eq(e.source, "PMIx");
	ck_assert_str_eq(e.vars, "PMIX_RANK, WORLD_SIZE");
	mesh_env_free(&e);
}
END_TEST

/* The first host without expanding the list; malformed lists refused. */
START_TEST(first_host)
{
	char h[64];

	ck_assert_int_eq(launch_first_host("gpu[01-04,07],cpu1", h, sizeof(h)),
	                 0);
	ck_assert_str_eq(h, "gpu01");
	ck_assert_int_eq(launch_first_host("r[1-2]-n[3-4].ib", h, sizeof(h)),
	                 0);
	ck_assert_str_eq(h, "r1-n3.ib");
	ck_assert_int_eq(launch_first_host(NULL, h, sizeof(h)), -1);
	ck_assert_int_eq(launch_first_host("a[x]", h, sizeof(h)), -1);
	ck_assert_int_eq(launch_first_host("a[1-2", h, sizeof(h)), -1);
	ck_assert_int_eq(launch_first_host("toolongname", h, 4), -1);
}
END_TEST

/* A node not in its host list (a NAT'd node 0 listed by its host's
 * address) goes by its launcher's node rank: the node-level variables
 * only, NODE_RANK first; none set is no rank; a bad or too large one is
 * refused by name; a process rank (RANK) is not a node's. */
START_TEST(node_rank)
{
	static const struct {
		const char *env[4];
		int size, want_r, rank;
		const char *var, *err;
	} c[] = {
	    {{"NODE_RANK=0", NULL}, 4, 1, 0, "NODE_RANK", NULL},
	    {{"GROUP_RANK=3", NULL}, 4, 1, 3, "GROUP_RANK", NULL},
	    {{"SLURM_NODEID=2", "SLURM_PROCID=7", NULL}, 4, 1, 2,
	     "SLURM_NODEID", NULL},
	    {{"SLURM_NODEID=2", "NODE_RANK=1", NULL}, 4, 1, 1, "NODE_RANK",
	     NULL},
	    {{"RANK=1", "WORLD_SIZE=4", NULL}, 4, 0, -1, NULL, NULL},
	    {{"NODE_RANK=", NULL}, 4, 0, -1, NULL, NULL},
	    {{NULL}, 4, 0, -1, NULL, NULL},
	    {{"NODE_RANK=4", NULL}, 4, -1, -1, NULL,
	     "NODE_RANK=4, past the 4 members"},
	    {{"NODE_RANK=x", "SLURM_NODEID=0", NULL}, 4, -1, -1, NULL,
	     "NODE_RANK='x'"},
	    {{"GROUP_RANK=-1", NULL}, 4, -1, -1, NULL, "GROUP_RANK='-1'"},
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char err[160] = "";
		const char *var = NULL;
		int rank = -1;
		int r = launch_node_rank(tget, (void *)c[i].env, c[i].size,
		                         &rank, &var, err, sizeof(err));

		ck_assert_msg(r == c[i].want_r, "case %zu: %d", i, r);
		ck_assert_int_eq(rank, c[i].rank);
		if (c[i].var != NULL)
			ck_assert_str_eq(var, c[i].var);
		else
			ck_assert_ptr_null(var);
		if (c[i].err != NULL)
			ck_assert_msg(strstr(err, c[i].err) != NULL,
			              "case %zu: %s", i, err);
	}
}
END_TEST

/* The job's node count, each source in its order: torchrun's NNODES,
 * Slurm's two counts, else the world over this node's share; an unset,
 * empty or bad count is none. */
START_TEST(job_nodes)
{
	static const struct {
		const char *env[4];
		int nodes;
	} c[] = {
	    {{"NNODES=3", "SLURM_JOB_NUM_NODES=5", NULL}, 3},
	    {{"NNODES=x", "SLURM_JOB_NUM_NODES=5", NULL}, 5},
	    {{"SLURM_NNODES=4", NULL}, 4},
	    {{"SLURM_JOB_NUM_NODES=", "SLURM_NNODES=2", NULL}, 2},
	    {{"WORLD_SIZE=16", "LOCAL_WORLD_SIZE=8", NULL}, 2},
	    {{"WORLD_SIZE=8", "LOCAL_WORLD_SIZE=8", NULL}, 1},
	    {{"WORLD_SIZE=8", NULL}, 0},
	    {{"NNODES=0", NULL}, 0},
	    {{NULL}, 0},
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ck_assert_msg(launch_job_nodes(tget, (void *)c[i].env) ==
		                  c[i].nodes,
		              "case %zu", i);
	{
		const char *e[] = {"MASTER_ADDR=", NULL};
		const char *none[] = {NULL};

		/* as set, even empty: the scan's decider judges it */
		ck_assert_str_eq(launch_job_master(tget, e), "");
		ck_assert_ptr_null(launch_job_master(tget, none));
	}
}
END_TEST

/* A process per GPU: each source it knows gives its row (PMI's own
 * variables, srun's job and step ids, torchrun's agent store key). */
START_TEST(proc_sources)
{
	const char *pmi[] = {"PMI_SIZE=2", "PMI_RANK=1", "MPI_LOCALRANKID=1",
	                     NULL};
	const char *torch[] = {"RANK=0",
	                       "WORLD_SIZE=2",
	                       "MASTER_ADDR=h",
	                       "MASTER_PORT=29500",
	                       "TORCHELASTIC_USE_AGENT_STORE=True",
	                       "TORCHELASTIC_RUN_ID=job7",
	                       "TORCHELASTIC_RESTART_COUNT=1",
	                       NULL};
	const char *srun[] = {"SLURM_NTASKS=2",     "SLURM_PROCID=1",
	                      "SLURM_STEP_ID=3",    "SLURM_JOB_ID=10",
	                      "SLURM_JOB_NODELIST=g[4-5]", NULL};
	const char *none[] = {NULL};
	struct launch_proc p;
	char err[256];

	ck_assert_int_eq(
	    launch_detect_proc(tget, pmi, true, &p, err, sizeof(err)), 0);
	ck_assert_int_eq(p.src, LAUNCH_PMI);
	ck_assert_int_eq(p.local_rank, 1);
	ck_assert_int_eq(
	    launch_detect_proc(tget, torch, false, &p, err, sizeof(err)), 0);
	ck_assert_int_eq(p.src, LAUNCH_TORCHRUN);
	ck_assert(p.agent_store);
	ck_assert_str_eq(p.run_id, "job7");
	ck_assert_str_eq(p.restart, "1");
	ck_assert_int_eq(
	    launch_detect_proc(tget, srun, false, &p, err, sizeof(err)), 0);
	ck_assert_int_eq(p.src, LAUNCH_SLURM_TASKS);
	ck_assert_str_eq(p.master_addr, "g4");
	ck_assert_int_eq(p.master_port, 20000 + (10 * 16 + 3) % 20000);
	ck_assert_int_eq(
	    launch_detect_proc(tget, none, true, &p, err, sizeof(err)), 0);
	ck_assert_int_eq(p.src, LAUNCH_NSRC);
	ck_assert_int_eq(p.nprocs, 1);
}
END_TEST

/* A process per node: what each source gives before the membership is
 * built (Slurm's list unexpanded), and none at all. */
START_TEST(node_sources)
{
	const char *slurm[] = {"SLURM_JOB_NODELIST=n[1-3]", "SLURM_NODEID=2",
	                       "SLURM_LOCALID=0", NULL};
	const char *ompi[] = {"OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2",
	                      "OMPI_COMM_WORLD_LOCAL_RANK=1",
	                      "MASTER_PORT=7000", NULL};
	const char *none[] = {"PMI_RANK=1", NULL};
	struct launch_node n;
	char err[256];

	ck_assert_int_eq(
	    launch_detect_node(tget, slurm, 65536, &n, err, sizeof(err)), 1);
	ck_assert_int_eq(n.src, LAUNCH_SLURM_NODES);
	ck_assert_str_eq(n.hosts, "n[1-3]");
	ck_assert_str_eq(n.hosts_var, "SLURM_JOB_NODELIST");
	ck_assert_int_eq(n.rank, 2);
	ck_assert_int_eq(
	    launch_detect_node(tget, ompi, 65536, &n, err, sizeof(err)), 1);
	ck_assert_int_eq(n.src, LAUNCH_OMPI);
	ck_assert_int_eq(n.size, 2);
	ck_assert_int_eq(n.local_rank, 1);
	ck_assert_uint_eq(n.port, 7000);
	/* MASTER_ADDR would make it torchrun-style, asked first */
	ck_assert_ptr_null(n.node0);
	/* PMI is a process-per-GPU launcher only */
	ck_assert_int_eq(
	    launch_detect_node(tget, none, 65536, &n, err, sizeof(err)), 0);
	ck_assert_int_eq(n.src, LAUNCH_NSRC);
}
END_TEST

Suite *suite_launchenv(void)
{
	Suite *s = suite_create("launchenv");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, table_complete);
	tcase_add_test(tc, each_source);
	tcase_add_test(tc, absent);
	tcase_add_test(tc, bad_values);
	tcase_add_test(tc, bound);
	tcase_add_test(tc, precedence);
	tcase_add_test(tc, first_host);
	tcase_add_test(tc, node_rank);
	tcase_add_test(tc, job_nodes);
	tcase_add_test(tc, proc_sources);
	tcase_add_test(tc, node_sources);
	suite_add_tcase(s, tc);
	return s;
}
