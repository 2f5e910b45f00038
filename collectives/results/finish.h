/* The end of a run: the verdict over the results (gate, wrong elements,
 * busbw below a threshold), the outputs rank 0 writes, and the exit status
 * (0 no fault, 1 fault or gate missed, 2 could not run). No CUDA. */
#ifndef NC_FINISH_H
#define NC_FINISH_H

#include <stdbool.h>

#include "results/output.h"

/* Decides the gate over run->res (options run->o, run->nranks ranks) and
 * adds the findings it implies: wrong-results for the first result with
 * wrong elements, busbw-below-threshold for each failed busbw or latency
 * check. */
void nc_run_verdict(struct nc_run *run);

/* The findings that are faults (their severity, else the catalogue's):
 * each fails the run; warnings and notes do not. */
int nc_run_faults(const struct nc_run *run);

/* The exit status of a process: rank 0 judges the whole run (`ran`: the
 * sweep finished), the others only what they saw themselves. */
int nc_run_status(const struct nc_run *run, bool ran, bool rank0);

/* Ends the run: rank 0 decides the verdict (when it ran), prints the
 * summary, writes the JSON, CSV and JUnit files the options ask for (a
 * file that cannot be written is said on stderr after `prefix`), and
 * checks standard output. Returns the exit status. */
int nc_run_finish(struct nc_run *run, int rank, bool ran, const char *prefix);

#endif
