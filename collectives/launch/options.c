/* ncclcheck's command line: its option table (lib/base/cli) into struct
 * nc_opts, with the checks on combinations. Never prints but --help. */
#include "nc.h"
#include "base/cli.h"
#include "base/parse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_JSON = 256,
	OPT_CSV,
	OPT_JUNIT,
	OPT_MINBW,
	OPT_MAXLAT,
	OPT_BUDGET,
	OPT_CHECK_EVERY,
	OPT_NO_INPLACE,
	OPT_NO_OUTOFPLACE,
	OPT_NO_PREFLIGHT,
	OPT_PREFLIGHT_TIMEOUT,
	OPT_ALLOW_ONE,
	OPT_NONBLOCKING,
	OPT_MIN_EFF,
	OPT_NO_SELFTEST,
	OPT_PAIRS,
};

/* nc_opts_parse's table: nccl-tests' letters and long names (-b, -e, -f,
 * -i, -o the operator, -r, -w, -n, -g, -c, -d, -a, -z, -G, -t, -T), so
 * that its command lines mean here what they mean there. */
static const struct cli_opt nc_optv[] = {
	{'b', 'b', "minbytes", CLI_REQUIRED, "SIZE", "8",
	 "smallest; K, M, G, T are powers of 1024", false,
	 CLI_RANGE(CLI_UNIT_BYTES, 1, 64LL << 30)},
	{'e', 'e', "maxbytes", CLI_REQUIRED, "SIZE", "128M", "largest size",
	 false, CLI_RANGE(CLI_UNIT_BYTES, 1, 64LL << 30)},
	{'f', 'f', "stepfactor", CLI_REQUIRED, "FACTOR", "4",
	 "multiply the size by FACTOR", false},
	{'i', 'i', "stepbytes", CLI_REQUIRED, "SIZE", NULL,
	 "add SIZE instead", false, CLI_RANGE(CLI_UNIT_BYTES, 1, 64LL << 30)},
	{'C', 'C', "coll", CLI_REQUIRED, "LIST", "all_reduce",
	 "collectives, all, or list", false},
	{'d', 'd', "datatype", CLI_REQUIRED, "LIST", "float",
	 "data types, or all (comma lists)", false},
	{'o', 'o', "op", CLI_REQUIRED, "LIST", "sum",
	 "reduction operators, or all", false},
	{'r', 'r', "root", CLI_REQUIRED, "N", "0",
	 "root of broadcast and reduce", false,
	 CLI_RANGE(CLI_UNIT_COUNT, 0, 65535)},
	{'w', 'w', "warmup_iters", CLI_REQUIRED, "N", "5",
	 "warm-up iterations per size", false,
	 CLI_RANGE(CLI_UNIT_COUNT, 0, 100000)},
	{'n', 'n', "iters", CLI_REQUIRED, "N", "20",
	 "timed iterations per size", false,
	 CLI_RANGE(CLI_UNIT_COUNT, 1, 100000)},
	{'g', 'g', "ngpus", CLI_REQUIRED, "N", "1", "GPUs per process", false,
	 CLI_RANGE(CLI_UNIT_COUNT, 1, 64)},
	{'c', 'c', "check", CLI_REQUIRED, "0|1", "1", "check the results",
	 false, CLI_RANGE(CLI_UNIT_COUNT, 0, 1)},
	{'a', 'a', "average", CLI_REQUIRED, "0-3", "1",
	 "0 rank 0's time, 1 mean, 2 min, 3 max", false,
	 CLI_RANGE(CLI_UNIT_COUNT, 0, 3)},
	{'z', 'z', "blocking", CLI_REQUIRED, "0|1", "0",
	 "wait for each call before the next", false,
	 CLI_RANGE(CLI_UNIT_COUNT, 0, 1)},
	{'G', 'G', "cudagraph", CLI_REQUIRED, "N", NULL,
	 "launch the iterations as a CUDA graph N times", false,
	 CLI_RANGE(CLI_UNIT_COUNT, 0, 1000)},
	{'t', 't', "nthreads", CLI_REQUIRED, "1", "1",
	 "only 1: use -g N, or a process per GPU", false},
	{'T', 'T', "timeout", CLI_REQUIRED, "TIME", "30s",
	 "deadline of every step", false,
	 CLI_RANGE(CLI_UNIT_DURATION, 1000, 86400000000LL)},
	{OPT_BUDGET, 0, "budget", CLI_REQUIRED, "TIME", NULL,
	 "time per size; iterations chosen, at most -n", false,
	 CLI_RANGE(CLI_UNIT_DURATION, 1000, 86400000000LL)},
	{OPT_CHECK_EVERY, 0, "check-every", CLI_FLAG, NULL, NULL,
	 "check every timed iteration", false},
	{OPT_NO_INPLACE, 0, "no-inplace", CLI_FLAG, NULL, NULL,
	 "skip the in-place runs", false},
	{OPT_NO_OUTOFPLACE, 0, "no-outofplace", CLI_FLAG, NULL, NULL,
	 "skip the out-of-place runs", false},
	{OPT_NO_PREFLIGHT, 0, "no-preflight", CLI_FLAG, NULL, NULL,
	 "skip the reachability test between ranks", false},
	{OPT_PREFLIGHT_TIMEOUT, 0, "preflight-timeout", CLI_REQUIRED, "TIME",
	 "5s", "connect timeout of that test", false,
	 CLI_RANGE(CLI_UNIT_DURATION, 1000, 86400000000LL)},
	{OPT_ALLOW_ONE, 0, "allow-one-rank", CLI_FLAG, NULL, NULL,
	 "run with a single rank", false},
	{OPT_NONBLOCKING, 0, "nonblocking", CLI_FLAG, NULL, NULL,
	 "sweep on the non-blocking communicator", false},
	{OPT_JSON, 0, "json", CLI_OPTIONAL, "FILE", NULL,
	 "the JSON document, to FILE if given", false},
	{OPT_CSV, 0, "csv", CLI_REQUIRED, "FILE", NULL,
	 "one CSV line per result to FILE", false},
	{OPT_JUNIT, 0, "junit", CLI_REQUIRED, "FILE", NULL,
	 "JUnit XML of the gates to FILE", false},
	{OPT_MINBW, 0, "min-busbw", CLI_REQUIRED, "[COLL:]GBPS[@SIZE]", NULL,
	 "gate on bus bandwidth (repeatable)", false},
	{OPT_MAXLAT, 0, "max-latency", CLI_REQUIRED, "TIME[@SIZE]", NULL,
	 "gate on the smallest size's time", false},
	{OPT_MIN_EFF, 0, "min-efficiency", CLI_REQUIRED, "PCT", NULL,
	 "gate: peak busbw as % of the hardware bound", false},
	{OPT_NO_SELFTEST, 0, "no-selftest", CLI_FLAG, NULL, NULL,
	 "skip measuring each GPU alone first", false},
	{OPT_PAIRS, 0, "pairs", CLI_FLAG, NULL, NULL,
	 "send/recv bandwidth of every pair of ranks", false},
	{'q', 'q', "quiet", CLI_FLAG, NULL, NULL, "no table", false},
	{'v', 'v', "verbose", CLI_FLAG, NULL, NULL,
	 "every gate check; keep NCCL's debug file", false},
	{'h', 'h', "help", CLI_FLAG, NULL, NULL, "print this help and exit",
	 false},
	{'V', 'V', "version", CLI_FLAG, NULL, NULL,
	 "print the version and exit", false},
};

static const struct cli_cmd nc_cmd = {
	"ncclcheck", "[options]",
	"Run NCCL collectives across every GPU, check each result, and never "
	"hang.",
	nc_optv, sizeof(nc_optv) / sizeof(nc_optv[0]),
	"Run under mpirun, srun, or with RANK, WORLD_SIZE, LOCAL_RANK, "
	"MASTER_ADDR and\nMASTER_PORT set; see ncclcheck(1).\n",
};

/* For the test that --help names every option: the long names in the
 * order of the table; NULL past its end. */
const char *nc_opt_name(int i)
{
	int n = (int)(sizeof(nc_optv) / sizeof(nc_optv[0]));

	return i >= 0 && i < n ? nc_optv[i].name : NULL;
}

/* --help from the table that also parses, so the two cannot drift. */
int nc_help(FILE *fp)
{
	return cli_help(&nc_cmd, fp);
}

static int fail(char *errbuf, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Formats the error and returns -1, so callers can `return fail(...)`. */
static int fail(char *errbuf, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(errbuf, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Parses a comma list with `parse` into out[] (no duplicates); "all" takes
 * every value below `n` that `keep` accepts. Returns the count, or -1 with
 * *bad pointing at a static copy of the offending word. */
static int parse_list(const char *arg, int (*parse)(const char *), int n,
		      int *out, int max, char *bad, size_t badlen)
{
	char buf[256], *save = NULL, *tok;
	int k = 0;

	if (strcmp(arg, "all") == 0) {
		for (int i = 0; i < n && k < max; i++)
			out[k++] = i;
		return k;
	}
	if (strlen(arg) >= sizeof(buf)) {
		snprintf(bad, badlen, "%.32s...", arg);
		return -1;
	}
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		int v = parse(tok);
		bool dup = false;

		if (v < 0) {
			snprintf(bad, badlen, "%s", tok);
			return -1;
		}
		for (int i = 0; i < k; i++)
			dup |= out[i] == v;
		if (!dup && k < max)
			out[k++] = v;
	}
	if (k == 0) {
		snprintf(bad, badlen, "%s", arg);
		return -1;
	}
	return k;
}

/* Defaults: a quick CI gate (all_reduce float sum, 8 B to 128 MB by 4). */
static void defaults(struct nc_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->min_bytes = 8;
	o->max_bytes = 128ULL << 20;
	o->factor = 4;
	o->colls[0] = NC_ALL_REDUCE;
	o->ncolls = 1;
	o->dtypes[0] = NC_FLOAT;
	o->ndtypes = 1;
	o->ops[0] = NC_SUM;
	o->nops = 1;
	o->warmup = 5;
	o->iters = 20;
	o->average = 1;
	o->timeout_us = 30000000;
	o->preflight_timeout_us = 5000000;
	o->gpus_per_proc = 1;
	o->check = true;
	o->preflight = true;
	o->min_eff_pct = -1;
	o->selftest = true;
}

/* Splits at ":" and "@", then parses the number with strtod. */
int nc_minbw_parse(const char *s, struct nc_minbw *out, char *errbuf,
		   size_t errlen)
{
	char buf[128], *num = buf, *at, *colon;
	const char *err;
	char *end;
	double v;

	if (strlen(s) >= sizeof(buf))
		return fail(errbuf, errlen, "invalid --min-busbw '%s': too "
			    "long", s);
	strcpy(buf, s);
	out->coll = -1;
	out->bytes = 0;
	colon = strchr(buf, ':');
	if (colon != NULL) {
		*colon = '\0';
		out->coll = nc_coll_parse(buf);
		if (out->coll < 0)
			return fail(errbuf, errlen, "invalid --min-busbw '%s': "
				    "unknown collective '%s'", s, buf);
		num = colon + 1;
	}
	at = strchr(num, '@');
	if (at != NULL) {
		*at = '\0';
		if (parse_size(at + 1, 1, 1ULL << 40, &out->bytes, &err) < 0)
			return fail(errbuf, errlen, "invalid --min-busbw '%s': "
				    "size %s", s, err);
	}
	errno = 0;
	v = strtod(num, &end);
	if (num[0] == '\0' || *end != '\0' || errno != 0 || !(v >= 0) ||
	    v > 1e6)
		return fail(errbuf, errlen, "invalid --min-busbw '%s': not a "
			    "bandwidth in GB/s", s);
	out->gbps = v;
	return 0;
}

/* Checks the combinations once everything is parsed. */
static int check_combos(struct nc_opts *o, char *errbuf, size_t errlen)
{
	if (o->min_bytes > o->max_bytes)
		return fail(errbuf, errlen, "invalid sizes: -b %llu is larger "
			    "than -e %llu", o->min_bytes, o->max_bytes);
	if (o->no_inplace && o->no_outofplace)
		return fail(errbuf, errlen, "invalid options: --no-inplace "
			    "and --no-outofplace leave nothing to run");
	/* avg runs on floating types only: refuse when nothing is left */
	bool any = false;

	for (int i = 0; i < o->nops; i++)
		for (int j = 0; j < o->ndtypes; j++)
			any |= o->ops[i] != NC_AVG ||
			       nc_dtype_is_float(o->dtypes[j]);
	if (!any)
		return fail(errbuf, errlen, "invalid options: avg needs a "
			    "floating type, not '%s'",
			    nc_dtype_name(o->dtypes[0]));
	if (o->check_every && !o->check)
		return fail(errbuf, errlen, "invalid options: --check-every "
			    "with -c 0");
	if (o->graph_launches > 0 &&
	    (o->blocking || o->check_every || o->budget_us > 0))
		return fail(errbuf, errlen, "invalid options: -G (CUDA graphs) "
			    "with %s", o->blocking ? "-z 1" :
			    o->check_every ? "--check-every" : "--budget");
	return 0;
}

/* A number option of the table (checked against its range by cli_next)
 * into its field. Returns 0, or 1 when c is no number option. */
static int take_num(struct nc_opts *o, int c, long long v)
{
	switch (c) {
	case 'b': o->min_bytes = (unsigned long long)v; break;
	case 'e': o->max_bytes = (unsigned long long)v; break;
	case 'i':
		o->step = (unsigned long long)v;
		o->factor = 0;
		break;
	case 'r': o->root = (int)v; break;
	case 'w': o->warmup = (int)v; break;
	case 'n': o->iters = (int)v; break;
	case 'g': o->gpus_per_proc = (int)v; break;
	case 'c': o->check = v != 0; break;
	case 'a': o->average = (int)v; break;
	case 'z': o->blocking = v != 0; break;
	case 'G': o->graph_launches = (int)v; break;
	case 'T': o->timeout_us = v; break;
	case OPT_BUDGET: o->budget_us = v; break;
	case OPT_PREFLIGHT_TIMEOUT: o->preflight_timeout_us = v; break;
	default: return 1;
	}
	return 0;
}

/* A flag into its field. Returns 0, or 1 when c is no flag. */
static int take_flag(struct nc_opts *o, int c)
{
	switch (c) {
	case OPT_CHECK_EVERY: o->check_every = true; break;
	case OPT_NO_INPLACE: o->no_inplace = true; break;
	case OPT_NO_OUTOFPLACE: o->no_outofplace = true; break;
	case OPT_NO_PREFLIGHT: o->preflight = false; break;
	case OPT_ALLOW_ONE: o->allow_one_rank = true; break;
	case OPT_NONBLOCKING: o->nonblocking = true; break;
	case OPT_NO_SELFTEST: o->selftest = false; break;
	case OPT_PAIRS: o->pairs = true; break;
	case 'v': o->verbose++; break;
	case 'q': o->quiet = true; break;
	default: return 1;
	}
	return 0;
}

/* -f: a factor above 1, at most 1024 (strtod: "1.5" is one). */
static int take_factor(struct nc_opts *o, const char *arg, char *errbuf,
		       size_t errlen)
{
	char *end;
	double f;

	errno = 0;
	f = strtod(arg, &end);
	if (*arg == '\0' || *end != '\0' || errno != 0 || !(f > 1) ||
	    f > 1024)
		return fail(errbuf, errlen, "invalid factor '%s': a number "
			    "above 1", arg);
	o->factor = f;
	o->step = 0;
	return 0;
}

/* -C, -d, -o: comma lists of names, or all; -C list ends the parse as
 * --help does (returns 1, errbuf "list"). */
static int take_list(struct nc_opts *o, int c, const char *arg,
		     char *errbuf, size_t errlen)
{
	char bad[64];
	int n;

	if (c == 'C' && strcmp(arg, "list") == 0) {
		/* answered like --help: the caller prints nc_coll_list */
		snprintf(errbuf, errlen, "list");
		return 1;
	}
	if (c == 'C')
		n = o->ncolls = parse_list(arg, nc_coll_parse, NC_NCOLL,
					   o->colls, NC_MAX_COLLS, bad,
					   sizeof(bad));
	else if (c == 'd')
		n = o->ndtypes = parse_list(arg, nc_dtype_parse, NC_NDTYPE,
					    o->dtypes, NC_NDTYPE, bad,
					    sizeof(bad));
	else
		n = o->nops = parse_list(arg, nc_op_parse, NC_NOP, o->ops,
					 NC_NOP, bad, sizeof(bad));
	if (n < 0)
		return fail(errbuf, errlen, "invalid %s '%s'",
			    c == 'C' ? "collective" : c == 'd' ? "data type"
							       : "operator",
			    bad);
	return 0;
}

/* --max-latency TIME[@SIZE]. */
static int take_maxlat(struct nc_opts *o, const char *arg, char *errbuf,
		       size_t errlen)
{
	const char *err;
	char buf[64], *at;

	snprintf(buf, sizeof(buf), "%s", arg);
	at = strchr(buf, '@');
	if (at != NULL) {
		*at = '\0';
		if (parse_size(at + 1, 1, 64ULL << 30, &o->latency_bytes,
			       &err) < 0)
			return fail(errbuf, errlen, "invalid --max-latency "
				    "'%s': size %s", arg, err);
	}
	if (parse_duration_us(buf, 1, 3600000000LL, &o->max_latency_us,
			      &err) < 0)
		return fail(errbuf, errlen, "invalid --max-latency '%s': %s",
			    arg, err);
	return 0;
}

/* --min-efficiency PCT: above 0, at most 100 (a fraction is fine). */
static int take_min_eff(struct nc_opts *o, const char *arg, char *errbuf,
			size_t errlen)
{
	char *end;
	double pct;

	errno = 0;
	pct = strtod(arg, &end);
	if (arg[0] == '\0' || *end != '\0' || errno != 0 || !(pct > 0) ||
	    pct > 100)
		return fail(errbuf, errlen, "invalid --min-efficiency '%s': "
			    "not a percentage above 0, at most 100", arg);
	o->min_eff_pct = pct;
	return 0;
}

/* One option with a text argument, or what ends the parse (--help,
 * --version, -C list, an error of cli_next). Returns 0, 1 for --help,
 * --version or -C list (errbuf names which), or -1 with errbuf. */
static int take_arg(struct nc_opts *o, const struct cli *cl, int c,
		    char *errbuf, size_t errlen)
{
	const char *arg = cl->arg;

	switch (c) {
	case 'f':
		return take_factor(o, arg, errbuf, errlen);
	case 'C':
	case 'd':
	case 'o':
		return take_list(o, c, arg, errbuf, errlen);
	case 't':
		if (strcmp(arg, "1") != 0)
			return fail(errbuf, errlen, "invalid -t '%s': "
				    "ncclcheck drives this process's GPUs "
				    "from one thread; use -g N, or one process "
				    "per GPU", arg);
		return 0;
	case OPT_JSON:
		/* a flag: the document on standard output */
		o->json_path = arg ? arg : "-";
		return 0;
	case OPT_CSV:
		o->csv_path = arg;
		return 0;
	case OPT_JUNIT:
		o->junit_path = arg;
		return 0;
	case OPT_MINBW:
		if (o->nminbw == NC_MAX_MINBW)
			return fail(errbuf, errlen, "too many --min-busbw (at "
				    "most %d)", NC_MAX_MINBW);
		if (nc_minbw_parse(arg, &o->minbw[o->nminbw], errbuf,
				   errlen) < 0)
			return -1;
		o->nminbw++;
		return 0;
	case OPT_MAXLAT:
		return take_maxlat(o, arg, errbuf, errlen);
	case OPT_MIN_EFF:
		return take_min_eff(o, arg, errbuf, errlen);
	case 'h':
	case 'V':
		snprintf(errbuf, errlen, "%s", c == 'h' ? "help" : "version");
		return 1;
	default:
		return fail(errbuf, errlen, "%s", cl->err);
	}
}

/* Resets getopt (cli_start) so tests can parse repeatedly. Numbers come
 * checked against the table's ranges, in cli's one wording. */
int nc_opts_parse(struct nc_opts *o, int argc, char **argv, char *errbuf,
		  size_t errlen)
{
	struct cli cl;
	char **ops;
	int c, rc;

	defaults(o);
	cli_start(&cl, &nc_cmd, argc, argv);
	while ((c = cli_next(&cl)) != CLI_END) {
		if (take_num(o, c, cl.num) == 0 || take_flag(o, c) == 0)
			continue;
		if ((rc = take_arg(o, &cl, c, errbuf, errlen)) != 0)
			return rc;
	}
	if (cli_operands(&cl, &ops) > 0)
		return fail(errbuf, errlen, "unexpected operand '%s'", ops[0]);
	return check_combos(o, errbuf, errlen);
}

/* The usage error's two lines for msg (cli's wording): standard error
 * of ncclcheck before any rank is known. Returns 2. */
int nc_usage_error(FILE *fp, const char *msg)
{
	return cli_usage_error(&nc_cmd, fp, "%s", msg);
}
