/* ncclcheck --help: every option in one line with its default, from one
 * table (the man page is the full reference). The table's shape is the
 * one a shared option table in lib/base can take over as it is: flags,
 * argument, what it does, default. No CUDA. */
#include "nc.h"

#include <stdio.h>
#include <string.h>

struct nc_optdoc {
	const char *flags; /* "-b, --minbytes" */
	const char *arg;   /* "SIZE", or NULL */
	const char *what;
	const char *dflt;  /* NULL: a switch, off unless given */
};

static const struct nc_optdoc docs[] = {
	{ NULL, NULL, "Sweep", NULL },
	{ "-b, --minbytes", "SIZE", "smallest size (K, M, G: binary)", "8" },
	{ "-e, --maxbytes", "SIZE", "largest size", "128M" },
	{ "-f, --stepfactor", "F", "multiply the size by F each step", "4" },
	{ "-i, --stepbytes", "SIZE", "add SIZE each step instead of -f",
	  "off" },
	{ "-C, --coll", "LIST", "collectives: all_reduce, all_gather, "
	  "reduce_scatter, broadcast, reduce, alltoall, sendrecv, all",
	  "all_reduce" },
	{ "-d, --datatype", "LIST", "int8 uint8 int32 uint32 int64 uint64 "
	  "half float double bfloat16, or all", "float" },
	{ "-o, --op", "LIST", "sum prod max min avg, or all (avg: floating "
	  "types)", "sum" },
	{ "-r, --root", "N", "root of broadcast and reduce", "0" },
	{ "-w, --warmup_iters", "N", "untimed iterations per size, and per "
	  "size of a series before it", "5" },
	{ "-n, --iters", "N", "timed iterations per size", "20" },
	{ "-g, --ngpus", "N", "GPUs each process drives (local rank k takes "
	  "GPUs kN..kN+N-1)", "1" },
	{ "-c, --check", "0|1", "check one more iteration's results on the "
	  "GPU", "1" },
	{ "--check-every", NULL, "check every timed iteration (each then "
	  "timed alone)", NULL },
	{ "--no-inplace", NULL, "skip the in-place runs", NULL },
	{ "--no-outofplace", NULL, "skip the out-of-place runs", NULL },
	{ NULL, NULL, "Timing (as nccl-tests)", NULL },
	{ "-a, --average", "0-3", "how the processes' times combine: 0 rank "
	  "0's, 1 mean, 2 min, 3 max", "1" },
	{ "-z, --blocking", "0|1", "wait for each collective before the "
	  "next (no barrier between, unlike nccl-tests' -z 1)", "0" },
	{ "-G, --cudagraph", "N", "capture the iterations in a CUDA graph, "
	  "launch it N times (not with -z 1, --check-every, --budget)",
	  "off" },
	{ "-t, --nthreads", "1", "only 1: one thread drives this process's "
	  "GPUs; use -g N or one process per GPU", "1" },
	{ "--budget", "TIME", "time per size: fewer iterations where one "
	  "takes long (at most -n)", "off" },
	{ "--nonblocking", NULL, "sweep on a non-blocking communicator "
	  "(each call waits for NCCL's launch: slow small sizes)", NULL },
	{ NULL, NULL, "Never hangs", NULL },
	{ "-T, --timeout", "TIME", "limit of each step; past it the step "
	  "fails naming who stopped or never came", "30s" },
	{ "--no-preflight", NULL, "skip the TCP test between ranks before "
	  "NCCL starts", NULL },
	{ "--preflight-timeout", "TIME", "limit of each pre-flight connect",
	  "5s" },
	{ "--allow-one-rank", NULL, "run with one rank (bus bandwidth is 0 "
	  "by definition)", NULL },
	{ NULL, NULL, "Output and gate (exit 1 when missed)", NULL },
	{ "--json", "FILE", "the JSON document (man netprobe-json.5); - for "
	  "standard output", "none" },
	{ "--csv", "FILE", "one line per result", "none" },
	{ "--junit", "FILE", "JUnit XML: one test case per gate check and "
	  "finding", "none" },
	{ "--min-busbw", "[COLL:]GBPS[@SIZE]", "minimum busbw at the peak "
	  "or at SIZE (repeatable)", "none" },
	{ "--max-latency", "TIME[@SIZE]", "maximum time at the smallest size "
	  "(or SIZE)", "none" },
	{ "-v, --verbose", NULL, "every gate check; keep NCCL's debug file",
	  NULL },
	{ "-q, --quiet", NULL, "no table or summary", NULL },
	{ "-h, --help", NULL, "this help", NULL },
	{ "-V, --version", NULL, "the version", NULL },
};

/* Writes text from column `col` on, wrapped before column 80 with the
 * next lines starting at column `indent`. */
static void wrap(FILE *fp, const char *text, int col, int indent)
{
	const char *p = text;

	while (*p != '\0') {
		int room = 79 - col, n = (int)strlen(p);

		if (n > room) {
			n = room;
			while (n > 0 && p[n] != ' ')
				n--;
			if (n == 0)
				n = room;
		}
		fprintf(fp, "%.*s", n, p);
		p += n;
		while (*p == ' ')
			p++;
		if (*p != '\0') {
			fprintf(fp, "\n%*s", indent, "");
			col = indent;
		}
	}
	fputc('\n', fp);
}

/* Synopsis, then the table: flags and argument in a column, what the
 * option does, its default in brackets. */
int nc_help(FILE *fp)
{
	fputs(nc_usage(), fp);
	fputs("\nRuns NCCL collectives as nccl-tests does, checks every result "
	      "and never hangs:\nstart it under mpirun, srun or torchrun "
	      "(--no-python), one process per GPU,\nor alone with -g N. Exit "
	      "status: 0 no fault, 1 a fault or a gate missed,\n2 could not "
	      "run. TIME: 500ms, 10s, 2m. The manual: man ncclcheck.\n", fp);
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		const struct nc_optdoc *d = &docs[i];
		char left[64], text[320];

		if (d->flags == NULL) {
			fprintf(fp, "\n%s:\n", d->what);
			continue;
		}
		snprintf(left, sizeof(left), "%s%s%s", d->flags,
			 d->arg != NULL ? " " : "", d->arg != NULL ? d->arg : "");
		snprintf(text, sizeof(text), "%s [%s]", d->what,
			 d->dflt != NULL ? d->dflt : "off");
		if (strlen(left) > 24)
			fprintf(fp, "  %s\n  %-24s  ", left, "");
		else
			fprintf(fp, "  %-24s  ", left);
		wrap(fp, text, 28, 28);
	}
	return ferror(fp) ? -1 : 0;
}
