/* The pure arithmetic of ncclcheck: names of collectives, types and
 * operators, nccl-tests' bandwidth formulas, the data ranges that keep the
 * checks exact, the sweep, and the result list. No CUDA, no NCCL. */
#include "coll.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct nc_coll_desc *const colls[NC_NCOLL] = {
	[NC_ALL_REDUCE] = &nc_coll_allreduce,
	[NC_ALL_GATHER] = &nc_coll_allgather,
	[NC_REDUCE_SCATTER] = &nc_coll_reducescatter,
	[NC_BROADCAST] = &nc_coll_broadcast,
	[NC_REDUCE] = &nc_coll_reduce,
	[NC_ALLTOALL] = &nc_coll_alltoall,
	[NC_SENDRECV] = &nc_coll_sendrecv,
};

static const char *const dtype_names[NC_NDTYPE] = {
	"int8", "uint8", "int32", "uint32", "int64", "uint64",
	"half", "float", "double", "bfloat16",
};

static const size_t dtype_sizes[NC_NDTYPE] = { 1, 1, 4, 4, 8, 8, 2, 4, 8, 2 };

static const char *const op_names[NC_NOP] = {
	"sum", "prod", "max", "min", "avg",
};

/* The descriptor table, indexed by enum nc_coll. */
const struct nc_coll_desc *nc_coll_get(enum nc_coll c)
{
	return colls[c];
}

/* Accepts nccl-tests' spellings too: "allreduce", "all_reduce". */
int nc_coll_parse(const char *s)
{
	char buf[32];
	size_t j = 0;

	for (size_t i = 0; s[i] != '\0' && j < sizeof(buf) - 1; i++)
		if (s[i] != '_' && s[i] != '-')
			buf[j++] = s[i];
	buf[j] = '\0';
	for (int c = 0; c < NC_NCOLL; c++) {
		char n[32];
		size_t k = 0;

		for (const char *p = colls[c]->name; *p != '\0'; p++)
			if (*p != '_')
				n[k++] = *p;
		n[k] = '\0';
		if (strcmp(buf, n) == 0)
			return c;
	}
	return -1;
}

/* Also NCCL's aliases: char, int, float16, float32, float64, bf16. */
int nc_dtype_parse(const char *s)
{
	static const struct {
		const char *alias;
		int t;
	} aliases[] = {
		{ "char", NC_INT8 },     { "int", NC_INT32 },
		{ "float16", NC_HALF },  { "fp16", NC_HALF },
		{ "float32", NC_FLOAT }, { "fp32", NC_FLOAT },
		{ "float64", NC_DOUBLE }, { "bf16", NC_BFLOAT16 },
	};

	for (int t = 0; t < NC_NDTYPE; t++)
		if (strcmp(s, dtype_names[t]) == 0)
			return t;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcmp(s, aliases[i].alias) == 0)
			return aliases[i].t;
	return -1;
}

/* Exact operator names only. */
int nc_op_parse(const char *s)
{
	for (int o = 0; o < NC_NOP; o++)
		if (strcmp(s, op_names[o]) == 0)
			return o;
	return -1;
}

/* NCCL-tests spelling of a type ("float", "bfloat16"). */
const char *nc_dtype_name(enum nc_dtype t)
{
	return t < NC_NDTYPE ? dtype_names[t] : "?";
}

/* NCCL-tests spelling of an operator ("sum"). */
const char *nc_op_name(enum nc_op o)
{
	return o < NC_NOP ? op_names[o] : "?";
}

/* Element size in bytes (1 for an unknown type). */
size_t nc_dtype_size(enum nc_dtype t)
{
	return t < NC_NDTYPE ? dtype_sizes[t] : 1;
}

/* True for half, float, double and bfloat16. */
bool nc_dtype_is_float(enum nc_dtype t)
{
	return t == NC_HALF || t == NC_FLOAT || t == NC_DOUBLE ||
	       t == NC_BFLOAT16;
}

/* GB/s of 1e9 bytes; 0 for a zero or negative time. */
void nc_bandwidth(enum nc_coll c, size_t bytes, double time_us, int nranks,
		  double *algbw, double *busbw)
{
	if (time_us <= 0) {
		*algbw = 0;
		*busbw = 0;
		return;
	}
	*algbw = (double)bytes / 1.0e3 / time_us; /* bytes/us/1e3 = GB/s */
	*busbw = *algbw * colls[c]->bus_factor(nranks);
}

/* The larger of the send and receive counts, nccl-tests' count. */
size_t nc_count_for(enum nc_coll c, size_t bytes, enum nc_dtype t,
		    int nranks)
{
	size_t count = bytes / nc_dtype_size(t);
	size_t s, r, so, ro;

	if (nranks < 1)
		return 0;
	colls[c]->counts(count, nranks, 0, &s, &r, &so, &ro);
	return s > r ? s : r;
}

/* The largest integer every partial sum must stay under to be exact. */
static double exact_limit(enum nc_dtype t)
{
	switch (t) {
	case NC_INT8:
		return 127;
	case NC_UINT8:
		return 255;
	case NC_HALF:
		return 2048;
	case NC_BFLOAT16:
		return 256;
	case NC_FLOAT:
		return 16777216.0;
	default:
		return 1e9;
	}
}

/* Generator range: 15, or less where n ranks would overflow. */
int nc_value_max(enum nc_dtype t, enum nc_op op, int nranks)
{
	double m;

	if (op == NC_PROD)
		return 2; /* values 1 and 2; products wrap like NCCL's */
	if (op == NC_MAX || op == NC_MIN)
		return 15;
	if (nranks < 1)
		nranks = 1;
	m = exact_limit(t) / nranks;
	if (m >= 15)
		return 15;
	return m >= 1 ? (int)m : 1;
}

/* 0 (exact) except avg and sums that cannot stay exact. */
double nc_tolerance(enum nc_dtype t, enum nc_op op, int nranks)
{
	bool exact = exact_limit(t) / (nranks > 0 ? nranks : 1) >= 1;

	if (op == NC_AVG || !exact) {
		switch (t) {
		case NC_HALF:
			return 1e-2;
		case NC_BFLOAT16:
			return 3e-2;
		case NC_FLOAT:
			return 1e-5;
		case NC_DOUBLE:
			return 1e-12;
		default:
			return 0;
		}
	}
	return 0;
}

/* Geometric with -f, arithmetic with -i; at most max sizes. */
int nc_sweep_sizes(const struct nc_opts *o, unsigned long long *sizes,
		   int max)
{
	unsigned long long s = o->min_bytes;
	int n = 0;

	while (n < max && s <= o->max_bytes) {
		unsigned long long next;

		sizes[n++] = s;
		if (o->factor > 1)
			next = (unsigned long long)((double)s * o->factor);
		else
			next = s + (o->step > 0 ? o->step : 1);
		if (next <= s)
			next = s + 1;
		s = next;
	}
	if (n == 0)
		sizes[n++] = o->min_bytes;
	return n;
}

/* Iterations that fit the budget, at least 1. */
int nc_budget_iters(long long budget_us, double est_us, int max_iters)
{
	double n;

	if (max_iters < 1)
		max_iters = 1;
	if (est_us <= 0)
		return max_iters;
	n = (double)budget_us / est_us;
	if (n < 1)
		return 1;
	return n > max_iters ? max_iters : (int)n;
}

/* Grows the array by doubling. */
int nc_results_add(struct nc_results *r, const struct nc_result *x)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		struct nc_result *v = realloc(r->v, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = *x;
	return 0;
}

/* Frees and zeroes the list. */
void nc_results_free(struct nc_results *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* Scans every result of the collective, both placements. */
bool nc_peak(const struct nc_results *r, int coll, double *busbw,
	     unsigned long long *bytes)
{
	bool any = false;

	*busbw = 0;
	*bytes = 0;
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].coll != coll)
			continue;
		if (!any || r->v[i].busbw_gbps > *busbw) {
			*busbw = r->v[i].busbw_gbps;
			*bytes = r->v[i].bytes;
		}
		any = true;
	}
	return any;
}
