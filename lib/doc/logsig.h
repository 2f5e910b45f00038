/* The log signatures netprobe explain knows: one row per message form a
 * framework prints (NCCL, Gloo, torch, Ray, Open MPI, the kernel), with the
 * source it comes from, the finding codes it proves or leaves open, and the
 * facts its capture groups hold. Beside the finding catalogue. */
#ifndef NP_LOGSIG_H
#define NP_LOGSIG_H

#include <stddef.h>

/* What the address a row captures is, for the address rules of
 * decide/explain: a peer this process tried to reach, or one of its own. */
enum logsig_flags {
	LOGSIG_PEER = 1,  /* addr is a peer's advertised address */
	LOGSIG_LOCAL = 2, /* addr/iface is what this process chose */
	LOGSIG_FACT = 4,  /* a fact only: no cause by itself */
	/* A symptom: what a failure looks like from this rank (a watchdog
	 * timeout, a peer that went away). It may open candidates; it never
	 * decides a cause, and a non-network cause in the same log explains
	 * it. */
	LOGSIG_SYMPTOM = 8,
	/* The line proves a connection to addr existed (a peer closed or
	 * reset it, data moved): it contradicts every cause that says addr
	 * could not be reached. */
	LOGSIG_REACHED = 16,
	/* NCCL's fallback from RDMA to sockets: normal operation on a
	 * cluster without RDMA, a fault only where the log shows the job
	 * meant to use RDMA (NCCL_IB_* or NCCL_NET set). */
	LOGSIG_IB_FALLBACK = 32,
	/* The words any program prints for a failed socket call (libc's
	 * strerror text, an errno's symbol, a resolver's message): tried
	 * only on a line no framework row reads; it opens candidates and
	 * never decides, since the framework and its peer are unknown
	 * (issue 42). */
	LOGSIG_GENERIC = 64,
};

struct logsig {
	const char *id;	       /* stable, kebab-case: "nccl-connect-refused" */
	const char *framework; /* "NCCL", "Gloo", "torch", "Ray", "Open MPI",
				  "kernel", "libibverbs" */
	const char *source;    /* file and function it is printed from */
	const char *versions;  /* the version range of that form */
	const char *needle;    /* a literal every matching line contains */
	const char *regex;     /* POSIX extended regex (REG_EXTENDED) */
	const char *fields;    /* names of the capture groups, comma list */
	const char *codes;     /* causes the line proves, comma list */
	const char *maybe;     /* causes it leaves open, comma list */
	const char *meaning;   /* one line: what the message means */
	/* The command that decides what the line leaves open, where it is
	 * the same text for every line of the row; NULL: explain builds it
	 * from the line's fields (decide/explain_facts.c). */
	const char *next;
	int flags;
	const char *example;   /* a real-looking line (the unit test) */
	/* A cause that is not the network (out of memory, a driver and
	 * runtime that do not match, a code bug): its kind, or NULL. Such a
	 * line names no finding code and explains the log's symptoms. */
	const char *other;
};

/* The candidates an errno's words open (err: a strerror text or an
 * errno symbol: "Connection timed out", "EHOSTUNREACH"), as the generic
 * rows open them; NULL for an errno that names no connect failure. */
const char *logsig_errno_open(const char *err);

/* Returns the table and its length through *n. */
const struct logsig *logsig_table(size_t *n);

#endif
