/* netprobe report: the model every renderer walks. The decided document
 * (what --format json writes) and its layout: findings grouped under
 * headings, settings by scope, the matrix's rows, heartbeat histograms,
 * bandwidth series with their gate thresholds, JUnit suites. Built once by
 * model_build.c and model_view.c; renderers only read it. */
#ifndef NP_REPORT_MODEL_H
#define NP_REPORT_MODEL_H

#include "report.h"

/* The sections of a report, in the order report_walk visits them. */
enum rsec {
	RSEC_REPORT, /* the whole report: the verdict, then the rest */
	RSEC_OUTAGES, /* links down during mesh --watch, first (issue 44) */
	RSEC_CAUSES, /* the root causes */
	RSEC_CAUSE,  /* one cause: the cause callback, its fix's commands,
		      * its symptoms */
	RSEC_SYMPTOMS, /* the findings one cause owns, folded */
	RSEC_FAULTS, /* a group of findings no cause owns */
	RSEC_WARNINGS,
	RSEC_CONFLICTS,
	RSEC_RECOMMENDATION,
	RSEC_NCCL_CONF,
	RSEC_CHANGES,
	RSEC_MTU,
	RSEC_DETAILS,
	RSEC_NODES,
	RSEC_MESH,
	RSEC_HEARTBEATS,
	RSEC_INPUTS,
	RSEC_SKIPPED,
	RSEC_COMMANDS, /* one dialect's commands of a fix: one block */
	RSEC_N /* how many */
};

/* Items of the document, in the order they are shown. */
struct rm_list {
	const json_t **v;
	size_t n;
};

/* A root cause and the findings it owns (its symptoms), in the merge's
 * order. */
struct rm_cause {
	const json_t *cause; /* id, kind, node, severity, summary, fix,
			      * evidence */
	struct rm_list findings;
};

/* Findings shown together under one heading. */
struct rm_group {
	enum rsec sec;
	struct rm_list findings;
};

/* The settings of one scope: every node (node NULL) or one node. */
struct rm_scope {
	const char *node;
	struct rm_list settings;
	size_t nvalues; /* how many of them have a value */
};

/* Settings as decided, and by scope. */
struct rm_settings {
	struct rm_list all;
	struct rm_scope *scopes; /* [0]: every node; then each node in the
				  * order it first appears */
	size_t nscopes;
};

/* Connectivity: rows and columns are nodes, cells by from then to. */
struct rm_matrix {
	const char **nodes;
	size_t n;
	struct rm_list cells;
};

/* One protocol's heartbeat statistics. */
struct rm_stats {
	const char *proto;
	double median_us, p99_us, loss_pct;
};

#define RM_BINS 30
#define RM_TICKS_MAX 12

/* A chart axis: its range and the ticks on it, "nice numbers" (1, 2 or 5
 * times a power of ten; for a log2 axis, exponents every 1, 2, 4, ...). */
struct rm_axis {
	double lo, hi;
	double ticks[RM_TICKS_MAX];
	int nticks;
};

/* One heartbeat run and the histogram of its RTT samples. */
struct rm_heartbeat {
	const char *from, *to;
	struct rm_stats stats[2]; /* TCP, UDP: those measured */
	size_t nstats;
	struct rm_stats main;  /* TCP, else UDP: the one a summary names */
	const char *proto;     /* the samples' protocol: "TCP" */
	size_t nsamples;       /* 0: no histogram */
	struct rm_axis x, y;   /* RTT in us (bins over x's range), count */
	int bins[RM_BINS], peak;
};

/* One point of a bandwidth series; x is log2 of the message size. */
struct rm_point {
	double x, busbw_gbps;
	bool wrong;
};

/* One collective's bus bandwidth by message size, with the chart's range
 * and the gate's minimum for it. */
struct rm_series {
	const json_t *coll; /* name, peak */
	struct rm_point *pts;
	size_t n;
	struct rm_axis x, y;   /* log2 of the size; GB/s from 0 */
	double threshold_gbps; /* -1 when no gate check names it */
	bool gate_above;       /* the threshold lies far above the data: the
				* chart keeps the data's scale and notes it */
};

/* One ncclcheck run. */
struct rm_nccl {
	const json_t *run; /* host, started, ranks, gate */
	struct rm_series *series;
	size_t n;
};

/* A file that could not be used: where ("file" or "file:line:column")
 * and why. */
struct rm_skip {
	const char *where, *why;
};

/* A JUnit test suite: its checks and how many fail under each --fail-on
 * (indexed by enum report_fail_on). */
struct rm_suite {
	const char *name;
	struct rm_list checks;
	int errors, failures[3];
};

struct report_model {
	json_t *doc;              /* the decided report, REPORT_SCHEMA */
	const char *verdict;      /* "fault", "warning" or "pass" */
	const char *verdict_word; /* "FAULT", "WARNING", "PASS", or
				   * "INCOMPLETE" where the gate fails on a
				   * part missing */
	long long nfaults, nwarnings, nnodes, ninputs, nskipped;
	long long nnotrun; /* errors the documents hold: parts that could
			    * not run */
	const char *started; /* the first document's start (RFC 3339 UTC),
			      * NULL when none says */
	long long duration_s; /* to the last document's end */
	bool verbose; /* text: every pair and every citation (-v) */

	/* Root causes, worst first, each with its symptoms. */
	struct rm_cause *causes;
	size_t ncauses;

	/* Links that went down during mesh --watch (link-down-during-watch
	 * findings no cause owns): before the root causes, the first named
	 * on the verdict line. */
	struct rm_list outages;

	/* Findings no cause owns, under their headings: faults, then
	 * warnings (outages not again). */
	struct rm_group groups[2];
	size_t ngroups;
	const json_t *conflicts;

	/* The recommendation (arrays of the document); firewall, changes
	 * and mtu hold only the entries no cause took as its fix. */
	const json_t *notes, *per_node, *blocked, *nccl_conf;
	struct rm_list firewall, changes, mtu;
	const char *common; /* one interface on every node, or NULL */
	struct rm_settings settings;

	/* Details. */
	const json_t *nodes;
	const json_t *mesh; /* netprobe mesh's section, NULL without one */
	struct rm_skip *skips;
	size_t nskips;
	bool has_matrix;
	struct rm_matrix matrix;
	struct rm_heartbeat *hbs;
	size_t nhbs;
	struct rm_nccl *nccl;
	size_t nnccl;

	/* JUnit. */
	struct rm_suite *suites;
	size_t nsuites;
	int ntests, nerrors, nfailures[3];

	/* Every allocation above, freed with the model. */
	struct rj_arena mem;
};

/* Lays the decided document m->doc out into the rest of the model
 * (model_view.c). Returns 0, or -1 on no memory. */
int rm_view(struct report_model *m);

/* The heartbeat and bandwidth charts' data (model_charts.c). Returns 0,
 * or -1 on no memory. */
int rm_charts(struct report_model *m);

/* The matrix cell from -> to, or NULL when not measured. */
const json_t *rm_cell(const struct rm_matrix *mx, const char *from,
		      const char *to);

/* Does a check of this status ("fault", "warning", "pass", "error") fail
 * under fail_on? An error never counts as a failure: JUnit counts it
 * apart. */
bool rm_fails(const char *status, enum report_fail_on fail_on);

#endif
