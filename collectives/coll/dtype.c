/* Data types and reduction operators: their names (nccl-tests' spellings
 * and NCCL's aliases), element sizes, and the data ranges that keep the
 * checks exact. A leaf: it calls nothing else of ncclcheck. No CUDA. */
#include "nc.h"

#include <string.h>

static const char *const dtype_names[NC_NDTYPE] = {
	"int8", "uint8", "int32", "uint32", "int64", "uint64",
	"half", "float", "double", "bfloat16",
};

static const size_t dtype_sizes[NC_NDTYPE] = { 1, 1, 4, 4, 8, 8, 2, 4, 8, 2 };

static const char *const op_names[NC_NOP] = {
	"sum", "prod", "max", "min", "avg",
};

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

/* The largest integer every partial sum must stay under to be exact:
 * the significand of a floating type (half 11 bits, bfloat16 8, float
 * 24, double 53), the range of the small integers. */
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
	case NC_DOUBLE:
		return 9007199254740992.0;
	default:
		return 1e9;
	}
}

/* Integers wrap the same in NCCL and in the check, so every rank may
 * contribute; floating sums and products must stay exact. */
int nc_contributors(enum nc_dtype t, enum nc_op op, int nranks)
{
	double lim;

	if (nranks < 1)
		return 1;
	if (!nc_dtype_is_float(t) || op == NC_MAX || op == NC_MIN)
		return nranks;
	if (op == NC_PROD) /* 2^k: half's range ends at 2^15; the check's
			    * 64-bit product at 2^63 */
		lim = t == NC_HALF ? 15 : 63;
	else
		lim = exact_limit(t);
	return lim < nranks ? (int)lim : nranks;
}

/* Generator range: 15, or less where the contributors' sum would stop
 * being exact (at least 1). */
int nc_value_max(enum nc_dtype t, enum nc_op op, int nranks)
{
	double m;
	int c = nc_contributors(t, op, nranks);

	if (op == NC_PROD)
		return 2; /* values 1 and 2; products wrap like NCCL's */
	if (op == NC_MAX || op == NC_MIN)
		return 15;
	m = exact_limit(t) / c;
	if (m >= 15)
		return 15;
	return m >= 1 ? (int)m : 1;
}

/* 0 (exact) except avg, whose division rounds. */
double nc_tolerance(enum nc_dtype t, enum nc_op op, int nranks)
{
	(void)nranks;
	if (op != NC_AVG)
		return 0;
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
