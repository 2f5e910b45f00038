/* ncclcheck's core types: collectives, data types, reduction operators,
 * options and results. Plain C with no CUDA or NCCL header, so the pure
 * parts (formulas, options, gate, output) build and test without a GPU. */
#ifndef NC_H
#define NC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One per row of coll/colls.def, in its order. */
enum nc_coll {
#define NC_COLL(id, file) NC_##id,
#include "coll/colls.def"
#undef NC_COLL
	NC_NCOLL,
};

/* Values equal NCCL's ncclDataType_t, so they pass through unchanged. */
enum nc_dtype {
	NC_INT8 = 0,
	NC_UINT8 = 1,
	NC_INT32 = 2,
	NC_UINT32 = 3,
	NC_INT64 = 4,
	NC_UINT64 = 5,
	NC_HALF = 6,
	NC_FLOAT = 7,
	NC_DOUBLE = 8,
	NC_BFLOAT16 = 9,
	NC_NDTYPE,
};

/* Values equal NCCL's ncclRedOp_t. */
enum nc_op {
	NC_SUM = 0,
	NC_PROD = 1,
	NC_MAX = 2,
	NC_MIN = 3,
	NC_AVG = 4,
	NC_NOP,
};

/* One enqueue of a collective: buffers, the count NCCL is given, and the
 * communicator and stream as opaque pointers (ncclComm_t, cudaStream_t). */
struct nc_call {
	const void *send;
	void *recv;
	size_t count;
	int dtype, op, root, rank, nranks;
	int nccl_version;      /* the library's (ncclGetVersion) */
	void *comm;
	void *stream;
};

struct nc_shape;       /* coll/expect.h */
struct nc_expectation;

/* What one collective's descriptor knows, all of it in its own file
 * (coll/coll_*.c): its name, whether it reduces or has a root,
 * nccl-tests' byte arithmetic, the expected result and the launch.
 * `size` is the size column of nccl-tests (total bytes of the larger
 * buffer). */
/* nccl-tests' bus factors, busbw = algbw * factor(nranks): the words a
 * collective's row picks from, so the factor and its -C list text are one
 * field. */
enum nc_busf {
	NC_BUSF_1,     /* 1: broadcast, reduce, send/recv */
	NC_BUSF_N1_N,  /* (n-1)/n: gathers, scatters, all-to-alls */
	NC_BUSF_2N1_N, /* 2(n-1)/n: all_reduce */
};

/* How a collective's buffers follow from a step's count of elements,
 * nccl-tests' GetCollByteCount: `block` is one rank's share, count/n
 * rounded down so each block starts 16-byte aligned. */
enum nc_span {
	NC_SPAN_WHOLE,   /* both buffers the whole count; NCCL gets it all */
	NC_SPAN_GATHER,  /* send one block, receive n; in place, the send
			  * data is block r of the receive buffer; NCCL
			  * gets count/n */
	NC_SPAN_SCATTER, /* send n blocks, receive one; in place, the
			  * receive data is block r of the send buffer;
			  * NCCL gets count/n */
	NC_SPAN_BLOCKS,  /* both buffers n blocks; NCCL gets count/n */
	NC_SPAN_OWN,     /* what data cannot say: the row's own counts and
			  * param_count (alltoallv's unequal blocks) */
};

/* What one collective's descriptor knows, all of it in its own file
 * (coll/coll_*.c): its name, whether it reduces or has a root,
 * nccl-tests' byte arithmetic as data (busf, span), the expected result
 * and the launch. `size` is the size column of nccl-tests (total bytes
 * of the larger buffer). */
struct nc_coll_desc {
	const char *name;      /* "all_reduce" */
	/* what it does and its size and count columns, for -C list, which
	 * adds the busbw factor from busf (the man page names no
	 * collective one by one) */
	const char *about;
	bool reduces;          /* takes an operator */
	bool rooted;           /* takes a root */
	bool in_place;         /* has an in-place form (not send/recv ones) */
	enum nc_busf busf;
	enum nc_span span;
	/* NC_SPAN_OWN only: elements in the send and receive buffers for a
	 * size of `count` elements of `eltsize` bytes, and the in-place
	 * offsets (elements) of the send and receive data in the receive
	 * buffer */
	void (*counts)(size_t count, size_t eltsize, int nranks, int rank,
		       size_t *sendcount, size_t *recvcount,
		       size_t *send_inplace_off, size_t *recv_inplace_off);
	/* NC_SPAN_OWN only: the count NCCL is given for a buffer of `count`
	 * elements (that of nc_count_for): nccl-tests' count column */
	size_t (*param_count)(size_t count, int nranks);
	/* what rank's receive buffer must hold once the collective ran on
	 * the inputs of coll/expect.h: pieces added with nc_expect_add;
	 * returns 0, or -1 when x has too few pieces */
	int (*expect)(const struct nc_shape *sh, int rank,
		      struct nc_expectation *x);
	/* enqueues one collective; returns ncclResult_t (NULL without NCCL) */
	int (*launch)(const struct nc_call *c);
};

/* busbw / algbw for a factor and a rank count (0 for no ranks). */
double nc_busf_value(enum nc_busf f, int nranks);
/* The factor as -C list prints it: "2(n-1)/n". */
const char *nc_busf_text(enum nc_busf f);
/* The descriptor's buffers for `count` elements of `eltsize` bytes on
 * `rank`: send and receive counts and the in-place offsets, from its span
 * (or its own function for NC_SPAN_OWN). */
void nc_coll_counts(const struct nc_coll_desc *d, size_t count,
		    size_t eltsize, int nranks, int rank, size_t *sendcount,
		    size_t *recvcount, size_t *send_inplace_off,
		    size_t *recv_inplace_off);

/* The descriptor of a collective (never NULL for a valid enum). */
const struct nc_coll_desc *nc_coll_get(enum nc_coll c);
/* Name lookups: return -1 for an unknown name. */
int nc_coll_parse(const char *s);
/* -C list: each collective on fp, its name, whether it runs in place
 * too, and its about text (which names the options it takes). 0, or -1 when
 * fp could not be written. */
int nc_coll_list(FILE *fp);
int nc_dtype_parse(const char *s);
int nc_op_parse(const char *s);
const char *nc_dtype_name(enum nc_dtype t);
const char *nc_op_name(enum nc_op o);
/* Bytes per element. */
size_t nc_dtype_size(enum nc_dtype t);
bool nc_dtype_is_float(enum nc_dtype t);
/* algbw and busbw in GB/s (1e9 bytes) for `bytes` moved in `time_us`. */
void nc_bandwidth(enum nc_coll c, size_t bytes, double time_us, int nranks,
		  double *algbw, double *busbw);
/* Element count of the larger buffer for a size: rounded down so that
 * every rank's share is whole and 16-byte aligned (size/typesize, then a
 * multiple of nranks for the collectives that split the buffer), as
 * nccl-tests' size column. */
size_t nc_count_for(enum nc_coll c, size_t bytes, enum nc_dtype t,
		    int nranks);
/* The count NCCL is given for a buffer of `count` elements (that of
 * nc_count_for), as the collective's descriptor says: per rank for
 * all_gather, reduce_scatter and alltoall, the whole buffer for most
 * others; nccl-tests' count column. */
size_t nc_param_count(enum nc_coll c, size_t count, int nranks);

/* How many ranks give each element a value other than the operator's
 * identity, so that a floating sum or product over them stays exact:
 * nranks, or fewer (bfloat16 sums: 256, half: 2048; products: 15 for
 * half, 63 otherwise). Element i gets values from the ranks r with
 * (i + r) mod nranks below this count. */
int nc_contributors(enum nc_dtype t, enum nc_op op, int nranks);
/* Largest value the data generator uses, so that the contributors' sum
 * stays exact in the type (at least 1). */
int nc_value_max(enum nc_dtype t, enum nc_op op, int nranks);
/* Tolerance of the check, relative to max(1, |expected|): 0 for exact
 * (everything but avg, whose division rounds). */
double nc_tolerance(enum nc_dtype t, enum nc_op op, int nranks);

#define NC_MAX_SIZES 64
#define NC_MAX_MINBW 16
#define NC_MAX_COLLS NC_NCOLL

struct nc_minbw {
	int coll;             /* -1: every collective */
	double gbps;
	unsigned long long bytes; /* 0: the peak */
};

struct nc_opts {
	unsigned long long min_bytes, max_bytes;
	double factor;            /* 0: use step */
	unsigned long long step;
	int colls[NC_MAX_COLLS];  /* enum nc_coll */
	int ncolls;
	int dtypes[NC_NDTYPE];
	int ndtypes;
	int ops[NC_NOP];
	int nops;
	int root;
	int warmup, iters;
	int average;              /* -a: 0 rank 0, 1 mean, 2 min, 3 max */
	int blocking;             /* -z 1: wait for each collective */
	int graph_launches;       /* -G N: CUDA graphs of the iterations */
	long long budget_us;      /* 0: fixed iteration count */
	long long timeout_us;     /* per step */
	long long preflight_timeout_us;
	int gpus_per_proc;        /* -g */
	bool check;               /* verify results (default on) */
	bool check_every;         /* verify every timed iteration */
	bool no_inplace, no_outofplace;
	bool preflight;           /* default on */
	bool allow_one_rank;
	bool nonblocking;         /* run the sweep on the non-blocking comm */
	int verbose;
	bool quiet;
	const char *json_path, *csv_path, *junit_path;
	struct nc_minbw minbw[NC_MAX_MINBW];
	int nminbw;
	long long max_latency_us; /* 0: no latency gate */
	double min_eff_pct;       /* --min-efficiency; <= 0: the default */
	bool selftest;            /* each GPU measured alone first (on) */
	bool pairs;               /* --pairs: every pair's send/recv */
	unsigned long long latency_bytes; /* 0: the smallest size */
};

/* Parses argv into o (defaults first). Returns 0, 1 when help or version
 * was asked for (*errbuf holds which: "help" or "version"), or -1 with a
 * one-line error in errbuf. Never prints. */
int nc_opts_parse(struct nc_opts *o, int argc, char **argv, char *errbuf,
		  size_t errlen);
/* The long name of option i of the parser's table, NULL past the end. */
const char *nc_opt_name(int i);
/* --help: the synopsis, then every option in a line with its default.
 * Returns 0, or -1 when fp reports an error. */
int nc_help(FILE *fp);
/* A usage error in cli's wording: "ncclcheck: MSG" and the --help line on
 * fp. Returns 2. */
int nc_usage_error(FILE *fp, const char *msg);

/* "8 GB", "512 MB", "1000 B": binary units, exact only. Returns buf. */
char *nc_fmt_bytes(unsigned long long bytes, char *buf, size_t len);

/* Fills sizes[] for the sweep. Returns the number of sizes (at least 1). */
int nc_sweep_sizes(const struct nc_opts *o, unsigned long long *sizes,
		   int max);
/* Iterations for a step from a one-iteration estimate under a time budget:
 * clamp(budget / est, 1, max_iters). */
int nc_budget_iters(long long budget_us, double est_us, int max_iters);

/* One measured size of one collective. */
struct nc_result {
	int coll, dtype, op, root;
	bool in_place;
	unsigned long long bytes;
	unsigned long long count; /* NCCL's count: nc_param_count */
	double time_us;         /* host time per iteration, combined over the
				 * processes as -a says (mean by default) */
	double algbw_gbps, busbw_gbps;
	long long wrong;        /* wrong elements over all ranks; -1: unchecked */
	int iters;
};

struct nc_results {
	struct nc_result *v;
	size_t n, cap;
};

/* Appends a result. Returns 0, or -1 on no memory. */
int nc_results_add(struct nc_results *r, const struct nc_result *x);
void nc_results_free(struct nc_results *r);

/* Peak busbw of one collective over all results: returns false when the
 * collective has no result. */
bool nc_peak(const struct nc_results *r, int coll, double *busbw,
	     unsigned long long *bytes);

#define NC_GATE_MAX 64

struct nc_gate_check {
	char name[64];
	bool passed;
	char detail[192];
};

struct nc_gate {
	bool passed;
	struct nc_gate_check v[NC_GATE_MAX];
	int n;
};

/* Parses a --min-busbw argument: "GBPS", "GBPS@SIZE", "COLL:GBPS" or
 * "COLL:GBPS@SIZE". Returns 0, or -1 with errbuf set. */
int nc_minbw_parse(const char *s, struct nc_minbw *out, char *errbuf,
		   size_t errlen);
/* Decides the gate over the results: busbw minima, latency, wrong
 * elements, timeouts (`timed_out`). Pure. */
void nc_gate_eval(const struct nc_opts *o, const struct nc_results *r,
		  int nranks, bool timed_out, struct nc_gate *g);

#endif
