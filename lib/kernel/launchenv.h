/* The launchers a job may be started by (Open MPI, PMI, PMIx, torchrun-style
 * variables, Slurm) as one table: each source's variables for its size,
 * rank, local rank, node list, node count and node 0's address, and the
 * one file that reads them: ncclcheck's detection (one process per GPU,
 * launch_detect_proc), netprobe mesh's (one per node, launch_detect_node)
 * and the job environment's node count (launch_job_nodes) are procedures
 * over the table, side by side. Pure: variables come through a lookup
 * function, so tests feed tables. */
#ifndef NP_LAUNCHENV_H
#define NP_LAUNCHENV_H

#include <stdbool.h>
#include <stddef.h>

/* Looks a variable up: env_get_process (getenv), or a table in tests.
 * Returns its value, or NULL when unset. */
typedef const char *(*env_get_fn)(const char *name, void *ctx);

/* getenv adapter: ignores ctx. */
const char *env_get_process(const char *name, void *ctx);

/* The sources, in no particular order: each program has its own
 * precedence (a process per GPU asks MPI first, a process per node asks
 * Slurm's node list first). */
enum launch_src {
	LAUNCH_OMPI = 0,    /* Open MPI's mpirun */
	LAUNCH_PMI,         /* PMI: MPICH's Hydra, srun --mpi=pmi2 */
	LAUNCH_PMIX,        /* PMIx: prterun, srun --mpi=pmix */
	LAUNCH_TORCHRUN,    /* RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR */
	LAUNCH_TORCH_NODES, /* NODE_RANK, NNODES: torchrun's node level */
	LAUNCH_SLURM_TASKS, /* srun: SLURM_PROCID of SLURM_NTASKS */
	LAUNCH_SLURM_NODES, /* SLURM_NODEID in the step's or job's node list */
	LAUNCH_NSRC
};

/* How the processes of a job of one process per GPU find each other
 * under a launcher (ncclcheck's bootstrap): a column of the table, so a
 * new launcher is a row. */
enum launch_boot {
	LAUNCH_BOOT_SINGLE = 0, /* one process, nobody else */
	LAUNCH_BOOT_MPI,        /* MPI itself tells where rank 0 is */
	LAUNCH_BOOT_OWN,        /* srun without MPI: ncclcheck's bootstrap */
	LAUNCH_BOOT_TORCHRUN,   /* MASTER_ADDR and MASTER_PORT (torch's store) */
};

/* Each bootstrap's word in ncclcheck's output ("single", "mpi", "slurm",
 * "torchrun"), indexed by enum launch_boot. */
extern const char *const launch_boot_words[];

/* One source's variables; NULL where the source names none. */
struct launch_source {
	const char *name;       /* "Open MPI", for messages */
	const char *label;      /* its launcher's name, one for both of a
	                         * launcher's rows ("Slurm"): what a mesh
	                         * says its membership came from */
	enum launch_boot boot;  /* a process per GPU started by it */
	const char *size;       /* how many members */
	const char *rank;       /* this member's rank, from 0 */
	const char *local_rank; /* its rank among this node's processes */
	const char *node0;      /* node 0's address (MASTER_ADDR) */
	const char *port;       /* node 0's port (MASTER_PORT) */
	const char *hosts[2];   /* member lists, the preferred first */
	const char *local_size; /* processes on this node */
	const char *nodes[2];   /* the job's node count, the preferred first */
	const char *job, *step; /* the job's and the step's ids (srun) */
	const char *store;      /* "True": MASTER_PORT is the agent's store */
	const char *run_id, *restart; /* the agent's run id, restart count */
};

extern const struct launch_source launch_sources[LAUNCH_NSRC];

/* What one source says; -1 (or NULL) where its variable is unset. */
struct launch_vals {
	int size, rank, local_rank, port;
	const char *node0;
	const char *hosts,
	    *hosts_var; /* the list and the variable it came from */
};

/* The largest size a launcher is believed (ranks and local ranks below). */
#define LAUNCH_SIZE_MAX (1 << 20)

/* Formats a reason into err; returns -1, for `return launch_fail(...)`. */
int launch_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reads every variable of source s into *v (size in [1, max], rank below
 * max, local rank in [0, LAUNCH_SIZE_MAX], port in [1, 65535]).
 * Returns 1 when the source's rank variable is set, 0 when it is not (the
 * source did not start us), -1 when a variable is set but invalid, with
 * err naming it. A rank at or past a size both given is invalid too. */
int launch_read(env_get_fn get, void *ctx, enum launch_src s, int max,
                struct launch_vals *v, char *err, size_t errlen);

/* This node's index among size nodes, from the first of
 * launch_node_rank_vars set: what a node that cannot find itself in a
 * host list (a NAT'd container listed by its host's address) goes by.
 * Returns 1 (*rank and *var set), 0 when none is set, -1 when the first
 * set is invalid or not below size, with err naming it ("NODE_RANK=4,
 * past the 4 members"). */
int launch_node_rank(env_get_fn get, void *ctx, int size, int *rank,
                     const char **var, char *err, size_t errlen);

/* ---- a process per GPU (ncclcheck) ---- */

/* How one process was started: the row that said so (LAUNCH_NSRC: no
 * launcher, one process), its rank among nprocs (0: MPI tells), where
 * rank 0 listens when no MPI says so. */
struct launch_proc {
	enum launch_src src;
	enum launch_boot boot; /* the row's; LAUNCH_BOOT_SINGLE without one */
	int rank, nprocs;
	int local_rank;        /* -1: ask MPI (shared-memory split) */
	char master_addr[256]; /* torchrun-style and srun */
	int master_port;
	bool agent_store;      /* MASTER_PORT is torchrun's agent store */
	const char *run_id, *restart; /* the agent's, for its store key */
	const char *source;    /* which variables said so */
};

/* MPI's variables (Open MPI, PMI, PMIx), then torchrun-style, then srun
 * without MPI; have_mpi: the program was built with MPI, so an MPI
 * launcher wins. Refuses the runs that would measure nothing (a build
 * without MPI under mpirun of several processes, sbatch without srun).
 * Returns 0, or -1 with a one-line reason in err. */
int launch_detect_proc(env_get_fn get, void *ctx, bool have_mpi,
                       struct launch_proc *o, char *err, size_t errlen);

/* ---- a process per node (netprobe mesh) ---- */

/* What a node's launcher says of the membership; src LAUNCH_SLURM_NODES
 * gives a node list (hosts) whose length is the size, the others a size. */
struct launch_node {
	enum launch_src src;
	int rank, size;      /* size -1: the list's length */
	int local_rank;      /* 0 when unset */
	unsigned port;       /* MASTER_PORT; 0 unset */
	const char *node0;   /* MASTER_ADDR, NULL unset */
	const char *hosts, *hosts_var; /* Slurm's list and its variable */
	char vars[160];      /* the variables that said so, for the user */
};

/* Slurm's node list, then torchrun-style variables (node level, then
 * ranks; only with MASTER_ADDR), then Open MPI, then PMIx; ranks below
 * max. Returns 1 (*o filled), 0 when no launcher started us, -1 with err
 * naming what was missing or invalid. */
int launch_detect_node(env_get_fn get, void *ctx, int max,
                       struct launch_node *o, char *err, size_t errlen);

/* ---- the job as the scan sees it ---- */

/* How many nodes the launcher says the job has: torchrun's NNODES, Slurm's
 * node count, else 2 when the world has more ranks than this node (1 when
 * not); 0 unknown. */
int launch_job_nodes(env_get_fn get, void *ctx);

/* Node 0's address (MASTER_ADDR) as set, even empty; NULL unset. */
const char *launch_job_master(env_get_fn get, void *ctx);

/* First host of a Slurm node list: "gpu[01-04,07],cpu1" gives "gpu01",
 * "node[1-2]-ib" gives "node1-ib", without expanding the rest. Returns 0,
 * or -1 for an empty or malformed list or one too long for out. */
int launch_first_host(const char *list, char *out, size_t len);

#endif
