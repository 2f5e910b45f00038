/* The text answer of NCCL's RAS service to STATUS (NCCL's
 * src/ras/client_support.cc, 2.24 and later) parsed into the job's state:
 * dead and unresponsive processes, incomplete communicators and the ranks
 * they miss. Pure: fed the text, never a socket. */
#ifndef NP_RAS_PARSE_H
#define NP_RAS_PARSE_H

#include <stddef.h>

#define RAS_MAX_PROCS 64
#define RAS_MAX_COMMS 32

enum ras_proc_kind {
	RAS_PROC_DEAD,	       /* "DEAD": unreachable via the RAS network */
	RAS_PROC_UNRESPONSIVE, /* missing data: it did not answer in time */
	RAS_PROC_MISSING_RANK, /* a communicator's rank that did not answer */
};

struct ras_proc {
	enum ras_proc_kind kind;
	int rank; /* -1 when the line names a process, not a rank */
	long pid; /* -1 when unknown */
	char node[128];
	char gpu[32];
	char comm[48]; /* "#0-0 (f1e2d3c4b5a69788)" for missing ranks */
};

struct ras_comm {
	char id[48];   /* "#0-0 (f1e2d3c4b5a69788)" */
	char what[16]; /* "INCOMPLETE", "ERROR", "MISMATCH" */
	int nmissing;  /* ranks missing, from "Missing communicator data" */
};

struct ras_state {
	char nccl_version[32];
	int timeouts;  /* "Encountered N communication timeouts" */
	int nmissing_procs; /* "Missing communicator data from N job processes" */
	int ndead;	    /* "N job processes are considered dead" */
	struct ras_proc procs[RAS_MAX_PROCS];
	size_t nprocs;
	struct ras_comm comms[RAS_MAX_COMMS];
	size_t ncomms;
	size_t ncomm_rows; /* rows of the communicators table */
};

/* Parses the whole answer (NUL-terminated). Returns 0, or -1 with errno
 * EINVAL when it does not look like a RAS answer (no NCCL version line and
 * no section). */
int ras_parse(const char *text, struct ras_state *st);

#endif
