/* ncclcheck's command line: getopt_long into struct nc_opts, with the
 * checks on combinations. Never prints: the caller reports errbuf. */
#include "nc.h"
#include "base/parse.h"

#include <errno.h>
#include <getopt.h>
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
};

static const struct option longopts[] = {
	{ "minbytes", required_argument, NULL, 'b' },
	{ "maxbytes", required_argument, NULL, 'e' },
	{ "stepfactor", required_argument, NULL, 'f' },
	{ "stepbytes", required_argument, NULL, 'i' },
	{ "coll", required_argument, NULL, 'C' },
	{ "datatype", required_argument, NULL, 'd' },
	{ "op", required_argument, NULL, 'o' },
	{ "root", required_argument, NULL, 'r' },
	{ "warmup_iters", required_argument, NULL, 'w' },
	{ "iters", required_argument, NULL, 'n' },
	{ "ngpus", required_argument, NULL, 'g' },
	{ "check", required_argument, NULL, 'c' },
	{ "average", required_argument, NULL, 'a' },
	{ "blocking", required_argument, NULL, 'z' },
	{ "cudagraph", required_argument, NULL, 'G' },
	{ "nthreads", required_argument, NULL, 't' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "check-every", no_argument, NULL, OPT_CHECK_EVERY },
	{ "no-inplace", no_argument, NULL, OPT_NO_INPLACE },
	{ "no-outofplace", no_argument, NULL, OPT_NO_OUTOFPLACE },
	{ "no-preflight", no_argument, NULL, OPT_NO_PREFLIGHT },
	{ "preflight-timeout", required_argument, NULL,
	  OPT_PREFLIGHT_TIMEOUT },
	{ "allow-one-rank", no_argument, NULL, OPT_ALLOW_ONE },
	{ "nonblocking", no_argument, NULL, OPT_NONBLOCKING },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "min-busbw", required_argument, NULL, OPT_MINBW },
	{ "max-latency", required_argument, NULL, OPT_MAXLAT },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* For the test that --help names every option: the long names in the
 * order of the table; NULL past its end. */
const char *nc_opt_name(int i)
{
	int n = (int)(sizeof(longopts) / sizeof(longopts[0])) - 1;

	return i >= 0 && i < n ? longopts[i].name : NULL;
}

/* A static string; the man page SYNOPSIS says the same. */
const char *nc_usage(void)
{
	return "usage: ncclcheck [-hqVv] [-b size] [-e size] [-f factor | "
	       "-i step]\n"
	       "                 [-C coll,...] [-d type,...] [-o op,...] "
	       "[-r root]\n"
	       "                 [-w warmup] [-n iters]\n"
	       "                 [-g gpus] [-c 0|1] [-a 0-3] [-z 0|1] "
	       "[-G launches] [-t 1]\n"
	       "                 [-T timeout] [--budget time] "
	       "[--check-every]\n"
	       "                 [--no-inplace] [--no-outofplace] "
	       "[--no-preflight]\n"
	       "                 [--preflight-timeout time] "
	       "[--allow-one-rank] [--nonblocking]\n"
	       "                 [--json file]"
	       " [--csv file] [--junit file]\n"
	       "                 [--min-busbw [coll:]gbps[@size]]"
	       " [--max-latency time[@size]]\n";
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

/* Resets getopt (optind = 1) so tests can parse repeatedly. */
int nc_opts_parse(struct nc_opts *o, int argc, char **argv, char *errbuf,
		  size_t errlen)
{
	const char *err;
	char bad[64];
	long long v;
	int c;

	defaults(o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:e:f:i:C:d:o:r:w:n:g:c:a:z:G:t:T:vqhV",
				longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
		case 'e': {
			unsigned long long *dst =
				c == 'b' ? &o->min_bytes : &o->max_bytes;

			if (parse_size(optarg, 1, 64ULL << 30, dst, &err) < 0)
				return fail(errbuf, errlen, "invalid size '%s':"
					    " %s", optarg, err);
			break;
		}
		case 'f': {
			char *end;
			double f;

			errno = 0;
			f = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    !(f > 1) || f > 1024)
				return fail(errbuf, errlen, "invalid factor "
					    "'%s': a number above 1", optarg);
			o->factor = f;
			o->step = 0;
			break;
		}
		case 'i':
			if (parse_size(optarg, 1, 64ULL << 30, &o->step,
				       &err) < 0)
				return fail(errbuf, errlen, "invalid step "
					    "'%s': %s", optarg, err);
			o->factor = 0;
			break;
		case 'C':
			o->ncolls = parse_list(optarg, nc_coll_parse, NC_NCOLL,
					       o->colls, NC_MAX_COLLS, bad,
					       sizeof(bad));
			if (o->ncolls < 0)
				return fail(errbuf, errlen, "invalid "
					    "collective '%s'", bad);
			break;
		case 'd':
			o->ndtypes = parse_list(optarg, nc_dtype_parse,
						NC_NDTYPE, o->dtypes,
						NC_NDTYPE, bad, sizeof(bad));
			if (o->ndtypes < 0)
				return fail(errbuf, errlen, "invalid data type "
					    "'%s'", bad);
			break;
		case 'o':
			o->nops = parse_list(optarg, nc_op_parse, NC_NOP,
					     o->ops, NC_NOP, bad, sizeof(bad));
			if (o->nops < 0)
				return fail(errbuf, errlen, "invalid operator "
					    "'%s'", bad);
			break;
		case 't':
			if (strcmp(optarg, "1") != 0)
				return fail(errbuf, errlen, "invalid -t '%s': "
					    "ncclcheck drives this process's "
					    "GPUs from one thread; use -g N, "
					    "or one process per GPU", optarg);
			break;
		case 'r':
		case 'w':
		case 'n':
		case 'g':
		case 'c':
		case 'a':
		case 'z':
		case 'G': {
			long long lo = c == 'n' || c == 'g' ? 1 : 0;
			long long hi = c == 'r' ? 65535 : c == 'g' ? 64 :
				       c == 'c' || c == 'z' ? 1 :
				       c == 'a' ? 3 : c == 'G' ? 1000 : 100000;

			if (parse_num(optarg, lo, hi, &v, &err) < 0)
				return fail(errbuf, errlen, "invalid -%c '%s': "
					    "%s", c, optarg, err);
			if (c == 'r')
				o->root = (int)v;
			else if (c == 'w')
				o->warmup = (int)v;
			else if (c == 'n')
				o->iters = (int)v;
			else if (c == 'g')
				o->gpus_per_proc = (int)v;
			else if (c == 'a')
				o->average = (int)v;
			else if (c == 'z')
				o->blocking = v != 0;
			else if (c == 'G')
				o->graph_launches = (int)v;
			else
				o->check = v != 0;
			break;
		}
		case 'T':
		case OPT_BUDGET:
		case OPT_PREFLIGHT_TIMEOUT: {
			long long *dst = c == 'T' ? &o->timeout_us :
					 c == OPT_BUDGET ?
						    &o->budget_us :
						    &o->preflight_timeout_us;

			if (parse_duration_us(optarg, 1000, 86400000000LL,
					      dst, &err) < 0)
				return fail(errbuf, errlen, "invalid time "
					    "'%s': %s", optarg, err);
			break;
		}
		case OPT_CHECK_EVERY:
			o->check_every = true;
			break;
		case OPT_NO_INPLACE:
			o->no_inplace = true;
			break;
		case OPT_NO_OUTOFPLACE:
			o->no_outofplace = true;
			break;
		case OPT_NO_PREFLIGHT:
			o->preflight = false;
			break;
		case OPT_ALLOW_ONE:
			o->allow_one_rank = true;
			break;
		case OPT_NONBLOCKING:
			o->nonblocking = true;
			break;
		case OPT_JSON:
			o->json_path = optarg;
			break;
		case OPT_CSV:
			o->csv_path = optarg;
			break;
		case OPT_JUNIT:
			o->junit_path = optarg;
			break;
		case OPT_MINBW:
			if (o->nminbw == NC_MAX_MINBW)
				return fail(errbuf, errlen, "too many "
					    "--min-busbw (at most %d)",
					    NC_MAX_MINBW);
			if (nc_minbw_parse(optarg, &o->minbw[o->nminbw],
					   errbuf, errlen) < 0)
				return -1;
			o->nminbw++;
			break;
		case OPT_MAXLAT: {
			char buf[64], *at;

			snprintf(buf, sizeof(buf), "%s", optarg);
			at = strchr(buf, '@');
			if (at != NULL) {
				*at = '\0';
				if (parse_size(at + 1, 1, 64ULL << 30,
					       &o->latency_bytes, &err) < 0)
					return fail(errbuf, errlen, "invalid "
						    "--max-latency '%s': size "
						    "%s", optarg, err);
			}
			if (parse_duration_us(buf, 1, 3600000000LL,
					      &o->max_latency_us, &err) < 0)
				return fail(errbuf, errlen, "invalid "
					    "--max-latency '%s': %s", optarg,
					    err);
			break;
		}
		case 'v':
			o->verbose++;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			snprintf(errbuf, errlen, "help");
			return 1;
		case 'V':
			snprintf(errbuf, errlen, "version");
			return 1;
		case ':':
			return fail(errbuf, errlen, "option '%s' needs a value",
				    argv[optind - 1]);
		default:
			return fail(errbuf, errlen, "unknown option '%s'",
				    argv[optind - 1]);
		}
	}
	if (optind < argc)
		return fail(errbuf, errlen, "unexpected argument '%s'",
			    argv[optind]);
	return check_combos(o, errbuf, errlen);
}
