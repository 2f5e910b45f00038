/* ncclcheck's emitters: the nccl-tests-compatible table, CSV, JUnit XML
 * and the JSON document (man/netprobe-json.5, tool "ncclcheck"). They are
 * the only code that writes results; they read struct nc_run. */
#ifndef NC_OUTPUT_H
#define NC_OUTPUT_H

#include <stdio.h>

#include "doc/doc.h"
#include "hw/hw.h"
#include "nc.h"
#include "results/nccllog.h"
#include "preflight/preflight.h"

#define NC_RUN_MAX_FINDINGS 64
#define NC_RUN_MAX_ERRORS 8

/* Everything one run collected, for the emitters. */
struct nc_run {
	const struct nc_opts *o;
	const char *launcher;
	int nranks, nprocs, gpus_per_proc;
	struct nc_rankinfo *ranks;     /* nranks entries, NCCL rank order */
	struct nc_pair *pairs;
	int npairs;
	bool preflight_ran;
	struct nc_nccllog nccl;        /* merged over ranks */
	int nhosts;
	struct nc_results res;
	struct nc_gate gate;
	bool gate_ran;
	struct nc_pf_finding findings[NC_RUN_MAX_FINDINGS];
	int nfindings;
	char errors[NC_RUN_MAX_ERRORS][320];
	char error_what[NC_RUN_MAX_ERRORS][32];
	int nerrors;
	double wall_s;
	const char *started, *host; /* fixed values for golden tests */
	/* the self-test (hw.h): every rank's GPU, rank order; NULL when it
	 * did not run */
	struct nc_gpuinfo *gpus;
	double bound_gbps;             /* 0: not known, see bound_how */
	char bound_how[200];
	/* --pairs: n x n GB/s (i<j used), NULL when not run */
	double *pair_bw;
	unsigned long long pair_bytes;
	double pair_s;                 /* how long the rounds took */
	/* the pairs the screening called slow, measured again alone (n x n,
	 * 0 where not), and how each figure was taken */
	double *pair_alone;
	int pair_iters, pair_trials, pair_nalone, pair_rounds;
};

/* hw_verdict.c: the hardware's part of the verdict */
/* The self-test's findings (gpu-slow, pcie-link-degraded) and the bound,
 * from run->gpus. */
void nc_run_gpu_verdict(struct nc_run *run);
/* pair_advice.c: the pair findings (pair-slow) from run->pair_bw and
 * run->pair_alone, at the grain of what is slow (GPU, link, node). */
void nc_run_pair_verdict(struct nc_run *run);
/* The efficiency checks into run->gate (after nc_gate_eval). */
void nc_run_eff_gate(struct nc_run *run);

/* Whether the hardware bound (its description, bound_how) is the path the
 * transports NCCL reported took. Pure. */
bool nc_bound_fits(const char *how, const struct nc_nccllog *lg);
/* output_hw.c: the hardware's part of the outputs */
/* The host of rank r (self-test, else pre-flight; "?" unknown). */
const char *nc_run_host(const struct nc_run *run, int r);
/* Each rank's host as a number (pair classes); malloc'ed, NULL on no
 * memory. */
int *nc_run_host_ids(const struct nc_run *run);
/* nc_pairs_judge over the run's matrices and hosts: slow (n*n), gpu and
 * node (n) filled; the number of slow pairs that stand. */
int nc_run_pair_judge(const struct nc_run *run, bool *slow, bool *gpu,
		      bool *node);
/* What a scheduler takes to leave out the nodes at fault (node[i]: rank
 * i's host is; nc_pairs_judge), never a node for one GPU or one link.
 * Fills ex (a Slurm host list) and keep (the other hosts, one a line, for
 * a hostfile); returns the number of hosts left out. */
int nc_run_exclusion(const struct nc_run *run, const bool *node, char *ex,
		     size_t exlen, char *keep, size_t keeplen);
/* Summary lines: the bound, each collective's share, the GPUs, pairs. */
void nc_summary_hw(FILE *fp, const struct nc_run *run);
/* JSON keys "hardware" and "pairs". Returns 0, or -1. */
int nc_hw_json(struct doc *d, const struct nc_run *run);

/* pf_verdict.c: the pre-flight's part of the verdict */
/* Adds the pre-flight findings to the run. Returns true when one is a
 * fault (its own severity, else the catalogue's; unknown codes are
 * faults): NCCL must not start then. */
bool nc_run_pf_findings(struct nc_run *run, const struct nc_pf_finding *f,
			int n);

/* Adds a finding (summary formatted) to the run; silently drops past the
 * limit. */
void nc_run_finding(struct nc_run *run, enum finding_code code, int sev,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Adds an error (what could not run) to the run. */
void nc_run_error(struct nc_run *run, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The table header for one collective, as nccl-tests prints it. */
void nc_table_header(FILE *fp, const struct nc_run *run, int coll, int dtype,
		     int op);
/* One table line: the out-of-place and in-place results of one size
 * (either may be NULL when not run). */
void nc_table_row(FILE *fp, const struct nc_result *oop,
		  const struct nc_result *ip);
/* The summary after the table: average and peak busbw per collective,
 * transports, algorithm notes, gate verdict. */
void nc_summary(FILE *fp, const struct nc_run *run);

/* CSV: one line per result with a header. Returns 0, or -1. */
int nc_write_csv(FILE *fp, const struct nc_run *run);
/* JUnit XML: one testcase per gate check and per finding. */
int nc_write_junit(FILE *fp, const struct nc_run *run);
/* Builds the JSON document. Returns 0, or -1 on no memory. */
int nc_build_doc(struct doc *d, const struct nc_run *run);

#endif
