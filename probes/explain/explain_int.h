/* netprobe explain's parts: reading logs (explain_read.c), measuring this
 * node (explain_measure.c), asking NCCL's RAS service (explain_job.c) and
 * the output (explain_out.c); explain.c runs them. */
#ifndef NP_EXPLAIN_INT_H
#define NP_EXPLAIN_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "decide/explain.h"
#include "decide/explain_near.h"
#include "decide/explain_origin.h"
#include "decide/jobverdict.h"
#include "decide/ras_parse.h"
#include "decide/ras_straggle.h"
#include "doc/cmdrun.h"
#include "doc/doc.h"
#include "doc/logmatch.h"
#include "layers/layers.h"

#define EXPLAIN_LINE_MAX 4096 /* longer lines are cut and counted */
#define EXPLAIN_MAX_FILES 64

struct explain_opts {
	bool no_probe, job, list; /* --json, -o, -q: the run's */
	bool here; /* --here: the log is this host's, whatever it names */
	const char *sysroot;
	const char *ras; /* HOST:PORT, NULL: NCCL_RAS_ADDR or localhost */
	const char *fr_dir; /* --fr-dumps: torch Flight Recorder dumps */
	int ras_timeout_s;
	int watch_s; /* --watch: ask twice, this many seconds apart; 0 once */
	const char *files[EXPLAIN_MAX_FILES];
	int nfiles;
};

struct explain_fr;

struct explain_run {
	struct explain_opts o;
	struct logmatcher lm;
	unsigned char light[EXPLAIN_SIG_SLOTS]; /* fact rows kept in full */
	struct explain_log lg;
	struct explain_origin origin; /* the hosts the log names */
	struct explain_near near;     /* the lines before the one read */
	enum origin_verdict where;    /* set when where_checked */
	bool where_checked;	      /* a live measurement was asked */
	char where_why[256];
	char this_host[256];
	struct explain_result res;
	struct explain_measured ms;
	char *pool[256]; /* strings ms points at */
	int npool;
	char notes[32][256]; /* what was measured, one line each */
	int nnotes;
	bool ras_tried, ras_answered;
	char ras_addr[128];
	char ras_why[256];
	struct ras_state ras;
	struct ras_state ras_before; /* --watch: the first look */
	bool ras_json;		     /* the answer was JSON (2.28.7+) */
	char ras_monitor[160];	     /* how the window was watched */
	struct ras_straggler stragglers[RAS_MAX_STRAGGLERS];
	size_t nstragglers;
	struct job_verdict jv; /* every source's suspects and timeline */
	int nlink_changes;     /* host changes seen on a suspect's host */
	long long job_t0_ms;   /* when --job began (ras_now_ms), 0 not */
	struct explain_fr *fr; /* the dumps' verdict (explain_fr.h) */
	char job_nodes[4][128]; /* other nodes RAS names, probed as peers */
	int njob_nodes;
	struct {
		char node[128];
		bool answered;
		char what[160]; /* the figures, or why it did not answer */
	} probed[4]; /* explain_measure.c: the job nodes' probes */
	int nprobed;
	bool have_container; /* the scan's layering ran */
	bool rdma_absent;    /* measured: no RDMA hardware on this node */
	enum layer_container container;
	struct cmd_run run; /* its document and errors (the runtime) */
	/* the files' names as shown and written: made UTF-8 (a name is
	 * bytes, the document is not) */
	const char *shown[EXPLAIN_MAX_FILES];
};

/* explain_read.c: reads one file ("-" stdin) line by line into r->lg.
 * Returns 0, or -1 with errno when it cannot be read. */
int explain_read(struct explain_run *r, int file, const char *path);

/* explain_measure.c: the local scan (with the log's settings where the
 * environment has none) and the checks the log's causes need; probes the
 * peers the log names unless --no-probe. Fills r->ms and r->notes. */
void explain_measure(struct explain_run *r);

/* explain_record.c: a kept copy, a line for the notes, a code measured here (ev:
 * its evidence, may be NULL), a code the measurement could see. */
const char *explain_keep(struct explain_run *r, const char *s);
void explain_note(struct explain_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void explain_found(struct explain_run *r, const char *code, const char *ev);
/* explain_found with the measurement's exact fix (NULL: the catalogue's) */
void explain_found_fix(struct explain_run *r, const char *code,
		       const char *ev, const char *fix);
void explain_checked(struct explain_run *r, const char *code);
/* explain_record.c: s (cap bytes of room, at most EXPLAIN_LINE_MAX) made
 * UTF-8 in place: what is not becomes U+FFFD, cut between characters. */
void explain_utf8(char *s, size_t cap);

/* explain_rdma.c: the RDMA devices judged by the scan's collector and
 * decider (rdma-* codes), with NCCL_IB_* from the environment or, where
 * it has none, from the log; on sr. */
struct sysroot;
void explain_rdma(struct explain_run *r, const struct sysroot *sr);

/* explain_job.c: asks the RAS service (JSON where it speaks it, else
 * text; twice over --watch's window, with its MONITOR stream), reads the
 * suspects' host when it is this one, and joins every source into r->jv.
 * Returns 0 when RAS answered, -1 when none did (r->ras_why says why). */
int explain_job(struct explain_run *r);

/* explain_job.c: after explain_measure, the probes of the suspects'
 * hosts join the verdict, which is then decided. */
void explain_job_finish(struct explain_run *r);

/* explain_job.c: the longest --job may take, in seconds, whatever the
 * job's size and whatever does not answer. */
#define EXPLAIN_JOB_BUDGET_S 40 /* and the local scan after it */

/* explain_job.c: true when addr is one of this host's own addresses (no
 * probe toward itself). */
bool explain_is_local_addr(const char *addr);

/* explain_out.c: builds the document and writes text or JSON. Returns 0,
 * or -1 when writing failed. */
int explain_emit(struct explain_run *r);

#endif
